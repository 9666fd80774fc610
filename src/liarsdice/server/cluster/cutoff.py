"""A node cut off from the cluster or from its database (a mixin of
:class:`~liarsdice.server.cluster.node.Cluster`).

A node that cannot renew its leases in Redis (Redis down, or the network between them cut)
can no longer tell whether another node has taken its rooms over: past a lease's life, the
rest of the cluster may have. The database's fence is the arbiter. Each room whose fence the
node can still read at its own epoch goes on here (Redis down for every node: the owners keep
their rooms, and nobody else can take one); a room whose fence moved, or whose fence the node
cannot read in time (the database cut off too), is given up. Its connections here, and every
connection relayed through Redis (whose frames cannot arrive), are closed with 1012 so that
their clients reconnect through another node, where the room runs. ``/api/ready`` says
``cut_off`` meanwhile, so that a load balancer sends new clients elsewhere.

A node that reaches Redis but not the database keeps renewing its leases, so nobody else would
take its rooms, which cannot write: a room paused for a failing database longer than a lease
is passed on (its lease released, another node asked to adopt it, its connections here closed
with 1012 to reconnect through another node).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time

from liarsdice.server.cluster.parts import Parts
from liarsdice.server.room import Room

log = logging.getLogger("liarsdice.server")

CLOSE_RECONNECT = 1012  # (the drain's code) reconnect, through another node
CHECK_S = 1.0  # the longest a fence may take to read before the room is given up


class CutOff(Parts):
    """What a node does while its leases cannot be renewed (see the module docstring)."""

    renewed: float  # when the leases were last renewed (time.monotonic())
    lease_s: float
    paused_since: dict[str, float]  # room -> when this node first saw it paused

    @property
    def cut_off(self) -> bool:
        """Whether the leases have gone unrenewed for longer than they live."""
        return time.monotonic() - self.renewed > self.lease_s

    async def _check_fences(self) -> None:
        """Give up each room whose fence is not (or cannot be read to be) still ours; close
        the connections here that no room of ours serves."""
        for room_id, epoch in list(self.leased.items()):
            try:
                fence = await asyncio.wait_for(self.store.lease_epoch(room_id), CHECK_S)
            except Exception as err:  # (the database is cut off too)
                log.warning("room %s: fence not readable (%r): given up", room_id, err)
                fence = None
            if fence != epoch:
                log.warning("room %s: lease lapsed on %s (cut off)", room_id, self.node)
                await self._give_up(room_id)
        for port in list(self.ports.values()):
            if not isinstance(port.where, Room) and port.sink is not None:
                port.sink.close(CLOSE_RECONNECT, "this server lost the cluster: reconnect")

    async def _pass_on_paused(self) -> None:
        """Pass on each room paused for a failing database longer than a lease."""
        now = time.monotonic()
        for room_id in list(self.leased):
            room = self.manager.get(room_id)
            if room is None or not room.paused:
                self.paused_since.pop(room_id, None)
                continue
            if now - self.paused_since.setdefault(room_id, now) <= self.lease_s:
                continue
            del self.paused_since[room_id]
            epoch = self.leased.get(room_id)
            await self._give_up(room_id, "this server lost its database: reconnect")
            if epoch is not None:
                with contextlib.suppress(Exception):
                    await self.leases.release(room_id, epoch)
            peers = [n["node"] for n in self._nodes if n["node"] != self.node]
            if peers:
                self.send(random.choice(peers), {"op": "adopt", "room": room_id})

    async def _stop_room(self, room_id: str) -> Room | None:
        """Stop running a room here (its lease dropped, the actor stopped, its channel left):
        the room, whose connections here the caller sends on; None when it ran elsewhere."""
        self.leased.pop(room_id, None)
        room = self.manager.get(room_id)
        if room is None:
            return None
        if self.manager.rooms.get(room_id) is room:
            del self.manager.rooms[room_id]
        await room.stop()
        self._forget_room(room_id)
        return room

    async def _give_up(
        self, room_id: str, why: str = "this server lost the cluster: reconnect"
    ) -> None:
        """Stop running a room; its connections here reconnect elsewhere (1012, ``why``)."""
        room = await self._stop_room(room_id)
        if room is None:
            return
        log.warning("room %s: given up by %s (%s)", room_id, self.node, why)
        for port in [p for p in self.ports.values() if p.where is room]:
            port.where = None
            if port.sink is not None:
                port.sink.close(CLOSE_RECONNECT, why)


__all__ = ["CLOSE_RECONNECT", "CutOff"]
