"""What the cluster keeps in Redis: room leases, node heartbeats, and the messages between
nodes (``docs/SERVER.md``, "A cluster of nodes").

Keys (all under ``ld:``):

* ``ld:lease:<room>`` = ``"<node> <epoch>"``, set with ``NX`` and a time to live (``PX``) that
  the owner renews: the room's one owner. ``ld:epoch:<room>`` counts the leases ever taken
  (``INCR``): each new owner writes its epoch into the database's fence before it loads the
  room, and every write of the room carries it (``Store.take_lease``, ``Batch.epoch``).
* ``ld:alive:<node>``: the node's heartbeat (expires when it stops beating);
  ``ld:nodes``: every node ever seen (a sorted set by last beat); ``ld:owned:<node>``: the
  rooms it owns (for the survivors of a node that died).

Channels: ``ld:room:<room>`` carries what other nodes send a room's owner (connections' opens,
messages and closes; calls such as a join); ``ld:node:<node>`` what a node is sent (frames for
its connections, replies to its calls, rooms to adopt). Messages are short text: ``F <conn>
<seq> <frame>`` for a frame, ``J <json>`` for everything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis

log = logging.getLogger("liarsdice.server")

# Renew (or drop) a lease only while it is still ours.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RAISE = """
local now = tonumber(redis.call('get', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then
  redis.call('set', KEYS[1], ARGV[1])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def lease_key(room_id: str) -> str:
    return f"ld:lease:{room_id}"


def room_channel(room_id: str) -> str:
    return f"ld:room:{room_id}"


def node_channel(node: str) -> str:
    return f"ld:node:{node}"


def text(value: bytes | str | None) -> str | None:
    """A Redis reply as text (the client decodes replies; the types allow bytes)."""
    return value.decode() if isinstance(value, bytes) else value


def parse_owner(value: bytes | str | None) -> tuple[str, int] | None:
    """A lease's value as (node, epoch)."""
    found = text(value)
    if not found:
        return None
    node, _, epoch = found.rpartition(" ")
    return node, int(epoch)


def connect_redis(url: str, connections: int, timeout: float | None = None) -> Redis:
    """A client of ``url`` with at most ``connections`` connections; a caller beyond them
    waits for one (up to 20 s) rather than failing. ``timeout``: the seconds a call (or a
    connection's opening) may wait on the network before it fails (None: no limit); a link
    cut without a reset otherwise hangs until TCP gives up, many minutes later."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=connections,
        timeout=20,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
    )
    return Redis(connection_pool=pool)


class Leases:
    """This node's side of the room leases."""

    def __init__(self, redis: Redis, node: str, ttl_ms: int, renewer: Redis | None = None) -> None:
        self.redis = redis
        self.renewer = renewer or redis
        self.node = node
        self.ttl_ms = ttl_ms
        self._renew = self.renewer.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._raise = redis.register_script(_RAISE)

    def _mine(self, epoch: int) -> str:
        return f"{self.node} {epoch}"

    async def acquire(self, room_id: str) -> int | None:
        """Take the room's lease if nobody holds it: its new epoch, else None."""
        if await self.redis.exists(lease_key(room_id)):
            return None
        epoch = int(await self.redis.incr(f"ld:epoch:{room_id}"))
        ok = await self.redis.set(lease_key(room_id), self._mine(epoch), nx=True, px=self.ttl_ms)
        if not ok:
            return None
        await self.redis.sadd(f"ld:owned:{self.node}", room_id)
        return epoch

    async def catch_up(self, room_id: str, epoch: int) -> None:
        """Count the room's leases from ``epoch`` on (the database's fence stands there: a
        Redis that lost its data, restarted empty, would hand out old epochs)."""
        await self._raise(keys=[f"ld:epoch:{room_id}"], args=[epoch])

    async def renew(self, owned: dict[str, int]) -> list[str]:
        """Renew every lease of ``owned`` (room -> epoch); the rooms whose lease is no longer
        ours (expired and maybe taken)."""
        if not owned:
            return []
        async with self.renewer.pipeline(transaction=False) as pipe:
            for room_id, epoch in owned.items():
                await self._renew(
                    keys=[lease_key(room_id)], args=[self._mine(epoch), self.ttl_ms], client=pipe
                )
            results = await pipe.execute()
        return [room_id for room_id, ok in zip(owned, results, strict=True) if not ok]

    async def release(self, room_id: str, epoch: int) -> None:
        await self._release(keys=[lease_key(room_id)], args=[self._mine(epoch)])
        await self.redis.srem(f"ld:owned:{self.node}", room_id)

    async def owners(self, rooms: Iterable[str]) -> dict[str, tuple[str, int] | None]:
        """Each room's owner (node, epoch), None where nobody holds its lease."""
        ids = list(rooms)
        if not ids:
            return {}
        values = await self.redis.mget([lease_key(r) for r in ids])
        return {r: parse_owner(v) for r, v in zip(ids, values, strict=True)}

    async def owner(self, room_id: str) -> tuple[str, int] | None:
        return parse_owner(await self.redis.get(lease_key(room_id)))


class Members:
    """The cluster's nodes: each beats (``ld:alive:<node>``) while it runs."""

    def __init__(self, redis: Redis, node: str, ttl_ms: int) -> None:
        self.redis = redis
        self.node = node
        self.ttl_ms = ttl_ms

    async def beat(self, rooms: int) -> None:
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(f"ld:alive:{self.node}", f"{now:.3f} {rooms}", px=self.ttl_ms)
            pipe.zadd("ld:nodes", {self.node: now})
            await pipe.execute()

    async def leave(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(f"ld:alive:{self.node}")
            pipe.zrem("ld:nodes", self.node)
            await pipe.execute()

    async def view(self) -> tuple[list[dict[str, Any]], list[str]]:
        """(the live nodes with their last beat and rooms, the nodes that stopped beating)."""
        nodes = [str(text(n)) for n in await self.redis.zrange("ld:nodes", 0, -1)]  # type: ignore[arg-type]
        if not nodes:
            return [], []
        beats = await self.redis.mget([f"ld:alive:{n}" for n in nodes])
        alive: list[dict[str, Any]] = []
        dead: list[str] = []
        for node, raw in zip(nodes, beats, strict=True):
            beat = text(raw)
            if beat is None:
                dead.append(node)
                continue
            at, _, rooms = beat.partition(" ")
            alive.append({"node": node, "heartbeat": float(at), "rooms": int(rooms or 0)})
        return alive, dead

    async def owned_by(self, node: str) -> set[str]:
        return {str(text(r)) for r in await self.redis.smembers(f"ld:owned:{node}")}

    async def forget(self, node: str) -> None:
        """A dead node whose rooms all have new owners: drop it from the cluster's view."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(f"ld:owned:{node}")
            pipe.zrem("ld:nodes", node)
            await pipe.execute()


class Publisher:
    """Messages to other nodes, sent in order over one connection (pipelined in batches):
    a connection's open, messages and close reach the owner in the order they were sent."""

    def __init__(self, redis: Redis, unheard: Callable[[str, str], None] | None = None) -> None:
        self.redis = redis
        self.unheard = unheard  # told of each message nobody was subscribed to hear
        self._queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.sent = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="ld-publisher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def send(self, channel: str, message: str) -> None:
        self._queue.put_nowait((channel, message))

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 512:
                batch.append(self._queue.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, message in batch:
                        pipe.publish(channel, message)
                    heard = await pipe.execute()
                self.sent += len(batch)
            except Exception as err:  # Redis is down: these are lost (clients resync by seq)
                log.warning("cluster: %d messages not published (%r)", len(batch), err)
                await asyncio.sleep(0.2)
                continue
            if self.unheard is not None:
                for (channel, message), listeners in zip(batch, heard, strict=True):
                    if not listeners:
                        self.unheard(channel, message)


__all__ = [
    "Leases",
    "Members",
    "Publisher",
    "connect_redis",
    "lease_key",
    "node_channel",
    "parse_owner",
    "room_channel",
    "text",
]
