"""The parts of a cluster's node that its halves (:mod:`.recovery`, :mod:`.operations`) use,
declared once for the type checker (:class:`~liarsdice.server.cluster.node.Cluster` has them)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from liarsdice.server.cluster.links import Port, RemoteSink
    from liarsdice.server.cluster.redisio import Leases, Members
    from liarsdice.server.metrics import Metrics
    from liarsdice.server.room import Room, RoomManager
    from liarsdice.server.store import Store


class Parts:
    """A node's parts (set by :class:`~liarsdice.server.cluster.node.Cluster`)."""

    node: str
    redis: Redis
    leases: Leases
    members: Members
    metrics: Metrics
    manager: RoomManager
    store: Store
    leased: dict[str, int]  # room -> the epoch of our lease
    ports: dict[str, Port]  # conn -> a connection held here
    remote: dict[tuple[str, str], RemoteSink]  # (room, conn) -> another node's connection
    draining: bool
    _nodes: list[dict[str, Any]]

    def spawn(self, job: Awaitable[Any]) -> None:
        raise NotImplementedError

    def send(self, node: str, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def claim(self, room_id: str) -> Room | bool | None:
        raise NotImplementedError

    async def _relink(self, port: Port) -> None:
        raise NotImplementedError

    def _forget_room(self, room_id: str) -> None:
        raise NotImplementedError


__all__ = ["Parts"]
