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
from typing import Any, cast

from liarsdice.server.cluster.cutoff import CLOSE_RECONNECT, CutOff
from liarsdice.server.cluster.links import Port, RemoteSink
from liarsdice.server.cluster.operations import Operations
from liarsdice.server.cluster.recovery import LEASE_MS, Recovery
from liarsdice.server.cluster.redisio import (
    Leases,
    Members,
    Publisher,
    connect_redis,
    node_channel,
    room_channel,
)
from liarsdice.server.config import Limits, Settings
from liarsdice.server.metrics import Metrics
from liarsdice.server.protocol import parse_client
from liarsdice.server.room import CommandError, Room, RoomManager
from liarsdice.server.store import Fenced, Store

log = logging.getLogger("liarsdice.server")

WATCH_EVERY = 0.25  # seconds between looks at the owners of the rooms relayed here
RPC_TIMEOUT = 3.0
REDIS_TIMEOUT = 5.0  # seconds a Redis call may hang (a cut link) before it fails
REDIS_CONNECTIONS = 64  # a node's Redis connections (more callers wait for one)


def bounces(message: dict[str, Any], node: str) -> bool:
    """Whether a message on the channel of a room that ``node`` does not run goes back to
    its sender to be sent again: a connection's open or message, or a call, meant for this
    node. Every node subscribed to the channel hears it, a node that let the room go too (its
    unsubscribe lost while it was cut off): the owner it was meant for has it, and sending it
    again would apply it twice."""
    return message["op"] in ("open", "msg", "call") and message.get("to", node) == node


class Moved(LookupError):
    """The room has no owner that answers (try again)."""


class Cluster(Recovery, Operations, CutOff):
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
        self.redis = connect_redis(settings.redis_url, REDIS_CONNECTIONS, REDIS_TIMEOUT)
        # The heartbeat and the leases' renewal have connections of their own: a busy node's
        # requests never hold them up past the leases' life; a cut link fails them in time.
        self.beat_redis = connect_redis(settings.redis_url, 2, LEASE_MS / 2000)
        self.lease_s = LEASE_MS / 1000
        self.renewed = time.monotonic()
        self.paused_since: dict[str, float] = {}
        self.leases = Leases(self.redis, self.node, LEASE_MS, renewer=self.beat_redis)
        self.members = Members(self.beat_redis, self.node, LEASE_MS)
        self.publisher = Publisher(self.redis, self._unheard)
        self.pubsub = self.redis.pubsub()
        self.leased: dict[str, int] = {}  # room -> the epoch of our lease
        self.remote: dict[tuple[str, str], RemoteSink] = {}  # (room, conn) -> its stand-in
        self.ports: dict[str, Port] = {}  # conn -> the port of a connection held here
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self.draining = False
        self._nodes: list[dict[str, Any]] = []  # the live nodes, as the last look saw them
        self._claims: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, list[dict[str, Any]]] = {}  # messages for rooms being taken
        self._inherit: dict[str, tuple[int, int, float]] = {}  # turn timers of rooms taken
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
            await cast(Any, self.pubsub).aclose()  # typed in some redis releases, not others
        for client in (self.redis, self.beat_redis):
            with contextlib.suppress(Exception):
                await client.aclose()

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
        await self.pubsub.subscribe(room_channel(room_id))
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
        room.on_deadline = self._deadline
        room.turns.inherited = self._inherit.pop(room.id, None)
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
            if self.cut_off:  # (no owner can be learned in time: the client tries another)
                raise Moved(room_id)
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
            # Listen on the room's channel before the lease says we own it (what comes before
            # the room is loaded waits): no message sent to the new owner goes unheard.
            self._waiting[room_id] = []
            try:
                await self.pubsub.subscribe(room_channel(room_id))
                found = await self._take(room_id)
            finally:
                waiting = self._waiting.pop(room_id, [])
            if not isinstance(found, Room):
                self.spawn(self.pubsub.unsubscribe(room_channel(room_id)))
            for message in waiting:  # to the room now, or back to their senders to retry
                self._owner_message(room_id, message)
            return found

    async def _take(self, room_id: str) -> Room | bool | None:
        epoch = await self.leases.acquire(room_id)
        if epoch is None:
            return False
        found = await self.redis.get(f"ld:deadline:{room_id}")  # a turn timer running there
        if found:
            seq, seat, at = found.split()
            self._inherit[room_id] = (int(seq), int(seat), float(at))
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

    def _deadline(self, room: Room, seq: int, seat: int, at: float) -> None:
        """A turn timer armed: its deadline, for whoever runs the room next."""
        ttl = max(1, int((at - self.settings.clock()) * 1000) + 2 * LEASE_MS)
        job = self.redis.set(f"ld:deadline:{room.id}", f"{seq} {seat} {at:.3f}", px=ttl)
        self.spawn(job)

    def _fenced(self, room: Room) -> None:
        """Our room's write was refused: another node holds it now."""
        self.spawn(self.lose(room.id))

    async def lose(self, room_id: str) -> None:
        """Stop running a room that is not ours any more; its connections here follow it."""
        room = await self._stop_room(room_id)
        if room is None:
            return
        seq = room.seq
        log.warning("room %s: no longer owned by %s", room_id, self.node)
        for port in [p for p in self.ports.values() if p.where is room]:
            port.last_seq = seq
            port.where = None
            await self._relink(port)

    async def _relink(self, port: Port) -> None:
        try:
            await port.link(port.last_seq, None, greet=False)
        except Exception as err:  # (no owner found in time: its client reconnects, elsewhere)
            log.warning("room %s: connection not re-linked (%r)", port.room_id, err)
            port.where = None
            if port.sink is not None:
                port.sink.close(CLOSE_RECONNECT, "the room could not be reached: reconnect")

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
        lost = False
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis went away: try again (it resubscribes)
                log.warning("cluster: subscription lost (%r)", err)
                lost = True
                await self._drop_subscription()
                await asyncio.sleep(0.5)
                continue
            if lost:  # frames may have been missed meanwhile: catch every connection up
                lost = False
                for port in list(self.ports.values()):
                    if not isinstance(port.where, Room):
                        self.spawn(self._relink(port))
            if msg is None:
                continue
            try:
                self._dispatch(msg["channel"], msg["data"])
            except Exception:
                log.exception("cluster: message not handled")

    async def _drop_subscription(self) -> None:
        """Close the subscription's connection, so that the next read opens a new one and
        subscribes again: a link cut without a reset leaves the old one open, and Redis
        would deliver to it, once the link heals, what it kept for it meanwhile (messages
        long stale by then, which the nodes have sent again since)."""
        connection = getattr(self.pubsub, "connection", None)
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect()

    def _dispatch(self, channel: str, data: str) -> None:
        if data.startswith("F "):
            _, node, conn, seq, frame = data.split(" ", 4)
            port = self.ports.get(conn)
            # (only from the room's owner as this node knows it: a stale one may still talk)
            if port is not None and port.sink is not None and port.where == node:
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

    def _owner_message(self, room_id: str, message: dict[str, Any]) -> None:
        if room_id in self._waiting:  # being taken over here: once it is loaded
            self._waiting[room_id].append(message)
            return
        room = self.manager.get(room_id)
        if room is None or room_id not in self.leased:
            if bounces(message, self.node):  # not ours (any more): back to its sender
                self._bounce(room_id, message)
            return
        op = message["op"]
        if op == "call":
            self.spawn(self._answer(room, message))
        elif op == "open":
            sink = RemoteSink(self, message["node"], message["conn"], message["seat"], room)
            old = self.remote.get((room_id, sink.conn))
            if old is not None:  # opened again (its node lost frames): one stand-in only
                room.post(room.disconnect, old)
            self.remote[(room_id, sink.conn)] = sink
            room.post(
                room.connect,
                sink,
                message["last_seq"],
                message["seed"],
                message["reply_to"],
                message["greet"],
                moved=lambda: self._bounce(room_id, message),
            )
        elif op == "msg":
            held = self.remote.get((room_id, message["conn"]))
            if held is None:  # meant for the room's old owner (one channel per room): again
                self._bounce(room_id, message)
            else:
                kind, msg = parse_client(
                    message["raw"], self.limits.max_frame, self.limits.max_depth
                )
                # (a room handed over before it ran the message: to its next owner)
                room.post(
                    room.handle, held, kind, msg, moved=lambda: self._bounce(room_id, message)
                )
        elif op == "close":
            gone = self.remote.pop((room_id, message["conn"]), None)
            if gone is not None:
                room.post(room.disconnect, gone)

    def _bounce(self, room_id: str, message: dict[str, Any]) -> None:
        """A message this node did not run for its room: back to its sender, which sends it
        again to the room's owner (:meth:`Recovery._retry`)."""
        self.send(message["node"], {"op": "retry", "room": room_id, "message": message})

    # ------------------------------------------------------------------ the loops
    async def _beat(self) -> None:
        """Beat, and renew our leases (a third of their life apart); cut off past a lease's
        life without renewing (:mod:`.cutoff`), hold on to a room only while its fence is
        still ours."""
        while True:
            await asyncio.sleep(LEASE_MS / 3000)
            try:
                await self.members.beat(len(self.leased))
                lost = await self.metrics.redis_call(self.leases.renew(dict(self.leased)))
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis is down: our writes stay fenced by the database
                log.warning("cluster: heartbeat failed (%r)", err)
                if self.cut_off:
                    await self._check_fences()
                continue
            self.renewed = time.monotonic()
            for room_id in lost:
                await self.lose(room_id)
            await self._pass_on_paused()

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


__all__ = ["Cluster", "Moved", "Port", "RemoteSink", "bounces"]
