"""The public room list (``GET /api/rooms``): each room's public facts and the list's order.
A single server lists its loaded rooms; a cluster's nodes share their rooms' entries in
Redis (:meth:`liarsdice.server.cluster.node.Cluster.listing`).

Only rooms worth opening are listed (:func:`live`): public, not closed, with a person still
at the table, and either someone there now or some activity in the last
:data:`LIVE_FOR` seconds; a finished game nobody is connected to is not listed. So rooms
abandoned, emptied (only computer players left) or played out stop filling the lobby's list.
"""

from __future__ import annotations

import asyncio
from typing import Any

from liarsdice.server.room import MAX_SEATS, Room

LIVE_FOR = 600.0  # a room with nobody connected is listed this long after its last command

# Games in progress first, then rooms that can be joined (lobby, then between games), then
# the rest (full rooms between games).
_STATUS_ORDER = {"playing": 0, "lobby": 1, "finished": 2}


def listing(room: Room) -> dict[str, Any]:
    """A room's public facts: no tokens, no game state."""
    return {
        "id": room.id,
        "preset": room.preset,
        "family": room.family,
        "status": room.status,
        "game_no": room.game_no,
        "players": len(room.seats),
        "seats": [s.name for s in room.seats],
        "spectators": room.spectators,
        "turn_timer": room.turn_timer,
    }


def live(room: Room, now: float | None = None) -> bool:
    """Whether ``room`` belongs in the public list (``now``: the event loop's time)."""
    if room.private or room.closed:
        return False
    people = [i for i, s in enumerate(room.seats) if s.kind == "human" and not s.left]
    if not people:  # emptied: nobody left to play with, only computer players
        return False
    presence = room.presence
    if any(i < len(presence) and presence[i].connections > 0 for i in people):
        return True
    if room.status == "finished":  # played out, and nobody at the table any more
        return False
    if now is None:
        now = asyncio.get_running_loop().time()
    return now - room.last_active < LIVE_FOR


def listing_order(entry: dict[str, Any]) -> tuple[int, int, str]:
    status = entry["status"]
    joinable = status != "playing" and entry["players"] < MAX_SEATS
    group = 0 if status == "playing" else 1 if joinable else 2
    return group, _STATUS_ORDER.get(status, 3), str(entry["id"])


__all__ = ["LIVE_FOR", "listing", "listing_order", "live"]
