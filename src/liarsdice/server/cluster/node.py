"""One node of a cluster: many ``liarsdice serve`` processes on one PostgreSQL database and one
Redis (``docs/SERVER.md``, "A cluster of nodes"; ``docs/DEPLOY.md``).

Every room has at most one *owner*, the node holding its lease (:mod:`.redisio`): only the owner
runs the room's actor, so the room works exactly as on a single server. Any node serves every
room: a connection on a node that does not own its room is *relayed* (:class:`Port`): its
messages go to the owner over the room's channel, where a :class:`RemoteSink` stands for it
among the room's connections, and the frames the room sends it come back over this node's
channel. An idle room has no owner: the first node asked for it takes its lease and loads it
from the log (on demand). The lease's epoch fences the room's writes in the database
(``Store.take_lease``, ``Batch.epoch``): an owner that was paused or cut off while another took
the room over can never write again. When a node dies its leases run out, and the nodes still
beating take its rooms over from the log; when it drains (SIGTERM) it hands each room to
another node. Connections follow their room: a relayed connection is re-linked to the new
owner and caught up by seq, without reconnecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis

from liarsdice.server.cluster.redisio import (
    Leases,
    Members,
    Publisher,
    node_channel,
    room_channel,
)
from liarsdice.server.config import Limits, Settings
from liarsdice.server.listing import listing
from liarsdice.server.metrics import Metrics
from liarsdice.server.protocol import parse_client
from liarsdice.server.room import CommandError, Room, RoomManager
from liarsdice.server.room.fanout import Sink
from liarsdice.server.store import Fenced, Store
from liarsdice.server.views import SPECTATOR, Encoded

if TYPE_CHECKING:
    from liarsdice.server.protocol import HelloMsg

log = logging.getLogger("liarsdice.server")

LEASE_MS = 3000  # a room's lease lives this long unless its owner renews it (every third)
WATCH_EVERY = 0.25  # seconds between looks at the owners of the rooms relayed here
RPC_TIMEOUT = 3.0
LISTING_TTL = 3.0  # seconds an entry of the room list lives unless its owner refreshes it


class Moved(Exception):
    """The room has no owner that answers (try again)."""


class RemoteSink:
    """On the owner: a connection held by another node (frames go back over its channel)."""

    def __init__(self, cluster: Cluster, node: str, conn: str, seat: int, room: Room) -> None:
        self.cluster, self.node, self.conn, self.seat, self.room = cluster, node, conn, seat, room

    def push(self, frame: dict[str, Any]) -> None:
        text = frame.text if isinstance(frame, Encoded) else json.dumps(frame)
        self.cluster.publisher.send(
            node_channel(self.node), f"F {self.conn} {self.room.seq} {text}"
        )

    def close(self, code: int, reason: str) -> None:
        message = {"op": "closed", "conn": self.conn, "code": code, "why": reason}
        self.cluster.send(self.node, message)


class Port:
    """A WebSocket connection's way to its room, wherever the room runs; it follows the room
    when its owner changes."""

    def __init__(self, cluster: Cluster, room_id: str) -> None:
        self.cluster, self.room_id = cluster, room_id
        self.conn = secrets.token_hex(8)
        self.sink: Sink | None = None
        self.seed: str | None = None
        self.where: Room | str | None = None  # the room (owned here) or its owner's node
        self.last_seq: int | None = None  # the seq of the last frame relayed to it

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
            await room.submit(lambda: room.handle(sink, kind, msg))
        elif where is not None:
            message = {"op": "msg", "conn": self.conn, "node": self.cluster.node, "raw": raw}
            self.cluster.send_room(self.room_id, message)

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
            message = {"op": "msg", "conn": self.conn, "node": self.cluster.node, "raw": raw}
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


class Cluster:
    """This node's part of the cluster (see the module docstring)."""

    def __init__(
        self,
        settings: Settings,
        limits: Limits,
        store: Store,
        manager: RoomManager,
        metrics: Metrics,
    ) -> None:
        self.settings, self.limits, self.store, self.manager = settings, limits, store, manager
        self.metrics = metrics
        assert settings.redis_url is not None
        self.node = self.node_id = settings.node_id
        self.redis: Redis = Redis.from_url(settings.redis_url, decode_responses=True)
        self.leases = Leases(self.redis, self.node, LEASE_MS)
        self.members = Members(self.redis, self.node, LEASE_MS)
        self.publisher = Publisher(self.redis, self._unheard)
        self.pubsub = self.redis.pubsub()
        self.leased: dict[str, int] = {}  # room -> the epoch of our lease
        self.remote: dict[tuple[str, str], RemoteSink] = {}  # (room, conn) -> its stand-in
        self.ports: dict[str, Port] = {}  # conn -> the port of a connection held here
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self.draining = False
        self._nodes: list[dict[str, Any]] = []  # the live nodes, as the last look saw them
        self._claims: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Future[Any]] = set()
        manager.hooks = self

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        await self.members.beat(0)
        await self.pubsub.subscribe(node_channel(self.node))
        self.publisher.start()
        loop = asyncio.get_running_loop()
        for name, job in (("listen", self._listen), ("beat", self._beat), ("watch", self._watch)):
            self._tasks.append(loop.create_task(job(), name=f"ld-cluster-{name}"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        with contextlib.suppress(Exception):
            for room_id, epoch in list(self.leased.items()):
                await self.leases.release(room_id, epoch)
            await self.members.leave()
        await self.publisher.stop()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def spawn(self, job: Awaitable[Any]) -> None:
        """Run ``job`` in the background (kept until done; a failure is logged)."""
        task = asyncio.ensure_future(job)
        self._background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster: %r", task.exception())

    # ------------------------------------------------------------------ the manager's hooks
    async def lease_new(self, room_id: str) -> int:
        epoch = await self.leases.acquire(room_id)
        if epoch is None:  # a fresh random id: nobody can hold it
            raise CommandError("internal", "could not take the new room's lease")
        await self.store.take_lease(room_id, epoch, self.node)
        self.leased[room_id] = epoch
        return epoch

    def adopted(self, room: Room) -> None:
        assert room.epoch is not None
        self.leased[room.id] = room.epoch
        room.on_fenced = self._fenced
        self.spawn(self.pubsub.subscribe(room_channel(room.id)))

    async def released(self, room: Room) -> None:
        epoch = self.leased.pop(room.id, None)
        self._forget_room(room.id)
        if epoch is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(room.id, epoch)

    def _forget_room(self, room_id: str) -> None:
        for key in [k for k in self.remote if k[0] == room_id]:
            del self.remote[key]
        self.spawn(self.pubsub.unsubscribe(room_channel(room_id)))

    # ------------------------------------------------------------------ owners
    async def route(self, room_id: str) -> Room | str | None:
        """Where the room runs: this node's room, another node's id, or None (no such room).
        A room nobody owns is taken over here."""
        for _ in range(3):
            room = self.manager.get(room_id)
            if room is not None and room_id in self.leased:
                return room
            owner = await self.leases.owner(room_id)
            if owner is not None and owner[0] != self.node:
                return owner[0]
            if owner is None:
                found = await self.claim(room_id)
                if found is None or isinstance(found, Room):
                    return found
            await asyncio.sleep(0.05)
        raise Moved(room_id)

    async def claim(self, room_id: str) -> Room | bool | None:
        """Take a room nobody owns: the room (loaded from the log), None when there is no
        such room, False when another node was quicker."""
        lock = self._claims.setdefault(room_id, asyncio.Lock())
        async with lock:
            room = self.manager.get(room_id)
            if room is not None and room_id in self.leased:
                return room
            epoch = await self.leases.acquire(room_id)
            if epoch is None:
                return False
            try:
                await self.store.take_lease(room_id, epoch, self.node)
                room = await self.manager.load(room_id, epoch)
            except Fenced as err:  # the fence is ahead of Redis's count: count on from it
                await self.leases.release(room_id, epoch)
                await self.leases.catch_up(room_id, err.current or epoch)
                return False
            except BaseException:
                await self.leases.release(room_id, epoch)
                raise
            if room is None:
                await self.leases.release(room_id, epoch)
                return None
            self.metrics.takeovers.inc()
            log.info("room %s: taken over by %s (epoch %d)", room_id, self.node, epoch)
            return room

    def _fenced(self, room: Room) -> None:
        """Our room's write was refused: another node holds it now."""
        self.spawn(self.lose(room.id))

    async def lose(self, room_id: str) -> None:
        """Stop running a room that is not ours any more; its connections here follow it."""
        room = self.manager.get(room_id)
        self.leased.pop(room_id, None)
        if room is None:
            return
        if self.manager.rooms.get(room_id) is room:
            del self.manager.rooms[room_id]
        seq = room.seq
        await room.stop()
        self._forget_room(room_id)
        log.warning("room %s: no longer owned by %s", room_id, self.node)
        for port in [p for p in self.ports.values() if p.where is room]:
            port.last_seq = seq
            port.where = None
            await self._relink(port)

    async def _relink(self, port: Port) -> None:
        try:
            await port.link(port.last_seq, None, greet=False)
        except Exception as err:
            log.warning("room %s: connection not re-linked (%r)", port.room_id, err)
            port.where = None

    # ------------------------------------------------------------------ connections here
    def port(self, room_id: str) -> Port:
        return Port(self, room_id)

    def attach(self, port: Port) -> None:
        self.ports[port.conn] = port

    def detach(self, port: Port) -> None:
        self.ports.pop(port.conn, None)

    # ------------------------------------------------------------------ messages
    def send(self, node: str, message: dict[str, Any]) -> None:
        self.publisher.send(node_channel(node), "J " + json.dumps(message))

    def send_room(self, room_id: str, message: dict[str, Any]) -> None:
        self.publisher.send(room_channel(room_id), "J " + json.dumps(message))

    async def call(self, room_id: str, node: str, call: str, args: dict[str, Any]) -> Any:
        """Ask the owner of ``room_id`` (``node``) to run ``call``; its answer (CommandError
        when it refuses)."""
        rid = secrets.token_hex(8)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls[rid] = fut
        message = {"op": "call", "id": rid, "node": self.node, "call": call, "args": args}
        self.send_room(room_id, message)
        try:
            reply = await asyncio.wait_for(fut, RPC_TIMEOUT)
        except TimeoutError:
            raise CommandError("store_unavailable", "the room's server did not answer") from None
        finally:
            self.calls.pop(rid, None)
        if "error" in reply:
            raise CommandError(reply["error"]["code"], reply["error"]["message"])
        return reply.get("result")

    async def _listen(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis went away: try again (it resubscribes)
                log.warning("cluster: subscription lost (%r)", err)
                await asyncio.sleep(0.5)
                continue
            if msg is None:
                continue
            try:
                self._dispatch(msg["channel"], msg["data"])
            except Exception:
                log.exception("cluster: message not handled")

    def _dispatch(self, channel: str, data: str) -> None:
        if data.startswith("F "):
            _, conn, seq, frame = data.split(" ", 3)
            port = self.ports.get(conn)
            if port is not None and port.sink is not None:
                port.last_seq = int(seq)
                port.sink.push(frame)  # type: ignore[arg-type]  # (a frame's text)
            return
        message = json.loads(data[2:])
        if channel.startswith("ld:room:"):
            self._owner_message(channel[len("ld:room:") :], message)
        else:
            self._node_message(message)

    def _node_message(self, message: dict[str, Any]) -> None:
        op = message["op"]
        if op == "reply":
            fut = self.calls.get(message["id"])
            if fut is not None and not fut.done():
                fut.set_result(message)
        elif op == "closed":
            port = self.ports.get(message["conn"])
            if port is not None and port.sink is not None:
                port.sink.close(message["code"], message["why"])
        elif op == "adopt":
            self.spawn(self.claim(message["room"]))
        elif op == "retry":
            self.spawn(self._retry(message["room"], message["message"]))

    def _unheard(self, channel: str, data: str) -> None:
        """A message to a room's owner that nobody heard (the owner died or let the room go)."""
        if channel.startswith("ld:room:") and data.startswith("J "):
            message = json.loads(data[2:])
            if message["op"] in ("open", "msg", "call"):
                self.spawn(self._retry(channel[len("ld:room:") :], message))

    async def _retry(self, room_id: str, message: dict[str, Any]) -> None:
        """Send again, to the room's new owner, a message its old owner did not take: once
        the room has one (taken over here if nobody takes it)."""
        if message["op"] == "call":
            return  # the caller times out and says so; its client asks again
        port = self.ports.get(message["conn"])
        if port is None:
            return
        stale = port.where
        deadline = time.monotonic() + LEASE_MS / 1000 + 2
        while time.monotonic() < deadline:
            owner = await self.leases.owner(room_id)
            if owner is None and not self.draining and isinstance(await self.claim(room_id), Room):
                break
            if owner is not None and owner[0] != stale:
                break
            await asyncio.sleep(0.05)
        if port.where is stale:  # (not re-linked meanwhile by the watch)
            await self._relink(port)
        if message["op"] == "msg":
            await port.resend(message["raw"])

    def _owner_message(self, room_id: str, message: dict[str, Any]) -> None:
        room = self.manager.get(room_id)
        if room is None or room_id not in self.leased:
            if message["op"] in ("open", "msg", "call"):  # not ours (any more): the sender
                self.send(message["node"], {"op": "retry", "room": room_id, "message": message})
            return
        op = message["op"]
        if op == "call":
            self.spawn(self._answer(room, message))
        elif op == "open":
            sink = RemoteSink(self, message["node"], message["conn"], message["seat"], room)
            self.remote[(room_id, sink.conn)] = sink
            room.post(
                room.connect,
                sink,
                message["last_seq"],
                message["seed"],
                message["reply_to"],
                message["greet"],
            )
        elif op == "msg":
            held = self.remote.get((room_id, message["conn"]))
            if held is not None:
                kind, msg = parse_client(
                    message["raw"], self.limits.max_frame, self.limits.max_depth
                )
                room.post(room.handle, held, kind, msg)
        elif op == "close":
            gone = self.remote.pop((room_id, message["conn"]), None)
            if gone is not None:
                room.post(room.disconnect, gone)

    async def _answer(self, room: Room, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "reply", "id": message["id"]}
        args = message["args"]
        try:
            match message["call"]:
                case "seat":
                    reply["result"] = room.seat_for_token(args["token"])
                case "join":
                    seat, token = await room.submit(
                        lambda: room.join(args["name"], args["client_seed"], args["player"])
                    )
                    reply["result"] = [seat, token]
                case "info":
                    reply["result"] = dict(room.snapshot_frame(SPECTATOR))
                case other:
                    raise CommandError("invalid", f"unknown call {other!r}")
        except CommandError as err:
            reply["error"] = {"code": err.code, "message": err.message}
        self.send(message["node"], reply)

    # ------------------------------------------------------------------ the loops
    async def _beat(self) -> None:
        """Beat, and renew our leases (a third of their life apart)."""
        while True:
            await asyncio.sleep(LEASE_MS / 3000)
            try:
                await self.members.beat(len(self.leased))
                lost = await self.leases.renew(dict(self.leased))
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis is down: our writes stay fenced by the database
                log.warning("cluster: heartbeat failed (%r)", err)
                continue
            for room_id in lost:
                await self.lose(room_id)

    async def _watch(self) -> None:
        """Follow the owners of the rooms relayed here, and take over a dead node's rooms."""
        last_members = 0.0
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                await self._follow_owners()
                if time.monotonic() - last_members >= 0.5:
                    last_members = time.monotonic()
                    await self._survive()
                    await self._list_rooms()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("cluster: watch failed (%r)", err)

    async def _follow_owners(self) -> None:
        """Re-link the connections here whose room changed owner (or lost it: taken over)."""
        relayed = {p.room_id for p in self.ports.values() if not isinstance(p.where, Room)}
        owners = await self.leases.owners(relayed)
        for room_id, owner in owners.items():
            if owner is None and (self.draining or await self.claim(room_id) is False):
                continue  # another node was quicker: next time
            node = self.node if owner is None else owner[0]
            for port in [p for p in list(self.ports.values()) if p.room_id == room_id]:
                if not isinstance(port.where, Room) and (owner is None or port.where != node):
                    await self._relink(port)

    async def _survive(self) -> None:
        """Take over the rooms of nodes that stopped beating; drop their connections here."""
        alive, dead = await self.members.view()
        self._nodes = alive
        for node in dead:
            if node == self.node:
                continue
            for key, sink in list(self.remote.items()):
                if sink.node == node:
                    del self.remote[key]
                    sink.room.post(sink.room.disconnect, sink)
            rooms = await self.members.owned_by(node)
            owners = await self.leases.owners(rooms)
            orphans = [r for r, o in owners.items() if o is None or o[0] == node]
            if not orphans:
                await self.members.forget(node)
                continue
            for room_id in orphans:
                if owners[room_id] is None and not self.draining:
                    await self.claim(room_id)

    # ------------------------------------------------------------------ the room list
    async def _list_rooms(self) -> None:
        """Put this node's public rooms in the cluster's list (``ld:listing``)."""
        now = time.time()
        entries: dict[Any, Any] = {}  # (room -> JSON; redis-py types keys widely)
        for room_id in self.owned():
            room = self.manager.rooms[room_id]
            if not room.private and not room.closed:
                entries[room_id] = json.dumps({**listing(room), "at": now})
        if entries:
            await self.redis.hset("ld:listing", mapping=entries)

    async def listing(self) -> list[dict[str, Any]]:
        """Every node's public rooms (entries not refreshed for a few seconds are dropped:
        their room closed, went private, or lost its node)."""
        raw = await self.redis.hgetall("ld:listing")
        now, out, stale = time.time(), [], []
        for room_id, found in raw.items():
            entry = json.loads(found)
            if now - entry.pop("at") > LISTING_TTL:
                stale.append(room_id)
            else:
                out.append(entry)
        if stale:
            await self.redis.hdel("ld:listing", *stale)
        return out

    # ------------------------------------------------------------------ draining
    async def drain(self, timeout: float = 8.0) -> None:
        """Hand every room to the other nodes (SIGTERM), then return."""
        self.draining = True
        alive, _ = await self.members.view()
        others = [n["node"] for n in alive if n["node"] != self.node]
        deadline = time.monotonic() + timeout
        for i, room_id in enumerate(list(self.leased)):
            room = self.manager.get(room_id)
            if room is None or time.monotonic() > deadline:
                continue
            with contextlib.suppress(Exception):
                await asyncio.wait_for(room.submit(_noop), 1.0)  # its last command is done
            await self.manager.unload(room)  # stops it and gives its lease back
            if others:
                self.send(others[i % len(others)], {"op": "adopt", "room": room_id})
        log.info("cluster: %s drained", self.node)

    # ------------------------------------------------------------------ /api/health
    def owned(self) -> list[str]:
        """The rooms this node runs now (under its lease), sorted."""
        return sorted(r for r in self.leased if r in self.manager.rooms)

    def cluster_view(self) -> dict[str, Any]:
        return {
            "nodes": [
                {"node": n["node"], "heartbeat": round(n["heartbeat"], 3), "rooms": n["rooms"]}
                for n in self._nodes
            ]
        }


async def _noop() -> None:
    return None


__all__ = ["Cluster", "Moved", "Port", "RemoteSink"]
