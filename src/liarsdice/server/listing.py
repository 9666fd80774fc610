"""The public room list (``GET /api/rooms``): each room's public facts and the list's order.
A single server lists its loaded rooms; a cluster's nodes share their rooms' entries in
Redis (:meth:`liarsdice.server.cluster.node.Cluster.listing`)."""

from __future__ import annotations

from typing import Any

from liarsdice.server.room import MAX_SEATS, Room

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


def listing_order(entry: dict[str, Any]) -> tuple[int, int, str]:
    status = entry["status"]
    joinable = status != "playing" and entry["players"] < MAX_SEATS
    group = 0 if status == "playing" else 1 if joinable else 2
    return group, _STATUS_ORDER.get(status, 3), str(entry["id"])


__all__ = ["listing", "listing_order"]
