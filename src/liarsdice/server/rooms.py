"""The room's names where the server's callers have always found them (the room itself is
the :mod:`liarsdice.server.room` package)."""

from liarsdice.server.config import Settings
from liarsdice.server.room import (
    MAX_SEATS,
    CommandError,
    Event,
    Room,
    RoomManager,
    RoomState,
    Sink,
    hash_token,
)
from liarsdice.server.room.state import build_game

LoggedEvent = Event

__all__ = [
    "MAX_SEATS",
    "CommandError",
    "Event",
    "LoggedEvent",
    "Room",
    "RoomManager",
    "RoomState",
    "Settings",
    "Sink",
    "build_game",
    "hash_token",
]
