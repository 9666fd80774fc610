"""A connection's way to its room across the cluster (:mod:`.node`, module docstring): the
:class:`Port` of a WebSocket connection held on this node, and the :class:`RemoteSink` that
stands, on the room's owner, for a connection held on another node.

They see their node through :class:`Switchboard`, the few things they ask of it, so that this
module does not import :mod:`.node` (which builds them) and the node's halves
(:mod:`.parts`) can name their types without an import circle.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import TYPE_CHECKING, Any, Protocol

from liarsdice.server.cluster.redisio import Publisher, node_channel
from liarsdice.server.config import Limits
from liarsdice.server.protocol import parse_client
from liarsdice.server.room import CommandError, Room
from liarsdice.server.room.fanout import Sink
from liarsdice.server.views import Encoded

if TYPE_CHECKING:
    from liarsdice.server.protocol import HelloMsg


class Switchboard(Protocol):
    """What a port and a remote sink need of their node
    (:class:`~liarsdice.server.cluster.node.Cluster` has it all)."""

    node: str
    limits: Limits
    publisher: Publisher

    async def route(self, room_id: str) -> Room | str | None: ...
    async def call(self, room_id: str, node: str, call: str, args: dict[str, Any]) -> Any: ...
    def send(self, node: str, message: dict[str, Any]) -> None: ...
    def send_room(self, room_id: str, message: dict[str, Any]) -> None: ...
    def attach(self, port: Port) -> None: ...
    def detach(self, port: Port) -> None: ...
    async def _relink(self, port: Port) -> None: ...


class RemoteSink:
    """On the owner: a connection held by another node (frames go back over its channel)."""

    def __init__(self, cluster: Switchboard, node: str, conn: str, seat: int, room: Room) -> None:
        self.cluster, self.node, self.conn, self.seat, self.room = cluster, node, conn, seat, room

    def push(self, frame: dict[str, Any]) -> None:
        text = frame.text if isinstance(frame, Encoded) else json.dumps(frame)
        cluster = self.cluster
        relayed = f"F {cluster.node} {self.conn} {self.room.seq} {text}"
        cluster.publisher.send(node_channel(self.node), relayed)

    def close(self, code: int, reason: str) -> None:
        message = {"op": "closed", "conn": self.conn, "code": code, "why": reason}
        self.cluster.send(self.node, message)


class Port:
    """A WebSocket connection's way to its room, wherever the room runs; it follows the room
    when its owner changes."""

    def __init__(self, cluster: Switchboard, room_id: str) -> None:
        self.cluster, self.room_id = cluster, room_id
        self.conn = secrets.token_hex(8)
        self.sink: Sink | None = None
        self.seed: str | None = None
        self.where: Room | str | None = None  # the room (owned here) or its owner's node
        self.last_seq: int | None = None  # the seq of the last frame relayed to it
        self.sent = 0  # messages sent to other nodes (numbered: each is sent again once)
        self.retried: set[int] = set()

    async def seat_for(self, token: str) -> int | None:
        target = await self.cluster.route(self.room_id)
        if target is None:
            raise LookupError(self.room_id)
        if isinstance(target, Room):
            return target.seat_for_token(token)
        seat = await self.cluster.call(self.room_id, target, "seat", {"token": token})
        return None if seat is None else int(seat)

    async def connect(self, sink: Sink, hello: HelloMsg) -> None:
        self.sink, self.seed = sink, hello.client_seed
        self.cluster.attach(self)
        await self.link(hello.last_seq, hello.id, greet=True)

    async def link(self, last_seq: int | None, reply_to: str | None, greet: bool) -> None:
        """Connect to the room's owner now (a first hello, or the owner changed)."""
        assert self.sink is not None
        sink = self.sink
        target = await self.cluster.route(self.room_id)
        self.where = target
        if isinstance(target, Room):
            room = target
            await room.submit(lambda: room.connect(sink, last_seq, self.seed, reply_to, greet))
        elif target is not None:
            self.cluster.send_room(
                self.room_id,
                {
                    "op": "open",
                    "to": target,
                    "conn": self.conn,
                    "node": self.cluster.node,
                    "seat": sink.seat,
                    "last_seq": last_seq,
                    "seed": self.seed,
                    "reply_to": reply_to,
                    "greet": greet,
                },
            )

    async def handle(self, kind: str, msg: Any, raw: str) -> None:
        where, sink = self.where, self.sink
        if isinstance(where, Room):
            room = where
            assert sink is not None
            try:
                await room.submit(lambda: room.handle(sink, kind, msg))
            except CommandError:  # the room stopped here (handed over): where it is now
                if self.where is room:
                    self.last_seq = room.seq
                    await self.cluster._relink(self)
                await self.resend(raw)
        elif where is not None:
            self._forward(where, raw)

    async def resend(self, raw: str) -> None:
        """A message that its room's old owner did not take, to the room where it is now."""
        where, sink = self.where, self.sink
        if isinstance(where, Room):
            room = where
            assert sink is not None
            limits = self.cluster.limits
            kind, msg = parse_client(raw, limits.max_frame, limits.max_depth)
            await room.submit(lambda: room.handle(sink, kind, msg))
        elif where is not None:
            self._forward(where, raw)

    def _forward(self, owner: str, raw: str) -> None:
        self.sent += 1
        message: dict[str, Any] = {"op": "msg", "conn": self.conn, "node": self.cluster.node}
        message.update(to=owner, raw=raw, n=self.sent)
        self.cluster.send_room(self.room_id, message)

    async def disconnect(self) -> None:
        self.cluster.detach(self)
        where, sink = self.where, self.sink
        if isinstance(where, Room):
            room = where
            assert sink is not None
            with contextlib.suppress(Exception):
                await room.submit(lambda: room.disconnect(sink))
        elif where is not None:
            self.cluster.send_room(self.room_id, {"op": "close", "conn": self.conn})


__all__ = ["Port", "RemoteSink", "Switchboard"]
