"""How a cluster's node recovers from a room's owner going away: messages its old owner did
not take are sent again to the new one, connections follow their room to its new owner, and a
dead node's rooms are taken over (a mixin of :class:`~liarsdice.server.cluster.node.Cluster`)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from liarsdice.server.cluster.parts import Parts
from liarsdice.server.room import Room

if TYPE_CHECKING:
    from collections.abc import Awaitable, Iterable

LEASE_MS = 2000  # a room's lease lives this long unless its owner renews it (every third)
AT_ONCE = 16  # rooms taken over (or connections re-linked) at once


class Recovery(Parts):
    """The recovery half of a cluster's node (see the module docstring)."""

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
        if message["op"] == "msg":  # (the old owner and the new may both send it back)
            if message["n"] in port.retried:
                return
            if len(port.retried) > 256:
                port.retried.clear()
            port.retried.add(message["n"])
        stale = message.get("to")  # the node it was sent to
        if port.where != stale:  # re-linked since: the room is elsewhere already
            if message["op"] == "msg":
                await port.resend(message["raw"])
            return
        deadline = time.monotonic() + LEASE_MS / 1000 + 2
        while time.monotonic() < deadline:
            owner = await self.leases.owner(room_id)
            if owner is None and not self.draining and isinstance(await self.claim(room_id), Room):
                break
            if owner is not None and owner[0] != stale:
                break
            await asyncio.sleep(0.05)
        if port.where == stale:  # (not re-linked meanwhile by the watch)
            await self._relink(port)
        if message["op"] == "msg":
            await port.resend(message["raw"])

    async def _follow_owners(self) -> None:
        """Re-link the connections here whose room changed owner (or lost it: taken over)."""
        relayed = {p.room_id for p in self.ports.values() if not isinstance(p.where, Room)}
        owners = await self.metrics.redis_call(self.leases.owners(relayed))
        await self._together(self._follow(room_id, owner) for room_id, owner in owners.items())

    async def _follow(self, room_id: str, owner: tuple[str, int] | None) -> None:
        if owner is None and (self.draining or await self.claim(room_id) is False):
            return  # another node was quicker: next time
        node = self.node if owner is None else owner[0]
        for port in [p for p in list(self.ports.values()) if p.room_id == room_id]:
            if not isinstance(port.where, Room) and (owner is None or port.where != node):
                await self._relink(port)

    async def _together(self, jobs: Iterable[Awaitable[Any]]) -> None:
        """Run ``jobs`` at most :data:`AT_ONCE` at a time (a dead node's many rooms are taken
        over in parallel: each is a few database round trips)."""
        gate = asyncio.Semaphore(AT_ONCE)

        async def one(job: Awaitable[Any]) -> None:
            async with gate:
                await job

        await asyncio.gather(*(one(j) for j in jobs), return_exceptions=True)

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
            if not self.draining:
                await self._together(self.claim(r) for r in orphans if owners[r] is None)


__all__ = ["LEASE_MS", "Recovery"]
