"""What an operator and the room list see of a cluster's node, and its drain (a mixin of
:class:`~liarsdice.server.cluster.node.Cluster`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from liarsdice.server.cluster.parts import Parts
from liarsdice.server.listing import listing, live
from liarsdice.server.room import CommandError, Room
from liarsdice.server.views import SPECTATOR

log = logging.getLogger("liarsdice.server")

LISTING_TTL = 3.0  # seconds an entry of the room list lives unless its owner refreshes it
HANDOVERS = 8  # rooms a draining node hands over at once
CLOSE_RESTART = 1012  # a drained node's own connections: reconnect (through another node)


class Operations(Parts):
    """The room list, the drain and ``/api/health``'s view of a node."""

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

    # ------------------------------------------------------------------ the room list
    async def _list_rooms(self) -> None:
        """Put this node's public rooms in the cluster's list (``ld:listing``)."""
        now = time.time()
        entries: dict[Any, Any] = {}  # (room -> JSON; redis-py types keys widely)
        for room_id in self.owned():
            room = self.manager.rooms[room_id]
            if live(room):
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
    async def drain(self, timeout: float = 6.0) -> None:
        """Hand every room to the other nodes (SIGTERM), then return."""
        self.draining = True
        alive, _ = await self.members.view()
        others = [n["node"] for n in alive if n["node"] != self.node]
        gate = asyncio.Semaphore(HANDOVERS)

        async def hand_over(i: int, room_id: str) -> None:
            async with gate:
                await self._hand_over(room_id, others[i % len(others)] if others else None)

        jobs = [hand_over(i, room_id) for i, room_id in enumerate(list(self.leased))]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), timeout)
        for port in list(self.ports.values()):  # this node's own clients: to another node
            if port.sink is not None:
                port.sink.close(CLOSE_RESTART, "this server is restarting: reconnect")
        log.info("cluster: %s drained", self.node)

    async def _hand_over(self, room_id: str, to: str | None) -> None:
        room = self.manager.get(room_id)
        if room is None or room_id not in self.leased:
            return
        # From now on its messages are "not ours": their senders send them again to the
        # room's next owner; what the room had queued before is done first.
        epoch = self.leased.pop(room_id)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(room.submit(_noop), 1.0)
        await self.manager.unload(room)
        with contextlib.suppress(Exception):
            await self.leases.release(room_id, epoch)
        if to is None:
            return
        self.send(to, {"op": "adopt", "room": room_id})
        # Hand over the next room once this one has its new owner: a few rooms change hands at
        # a time, each quickly, rather than all at once and each slowly.
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                if await self.leases.owner(room_id) is not None:
                    return
            await asyncio.sleep(0.02)

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


__all__ = ["CLOSE_RESTART", "LISTING_TTL", "Operations"]
