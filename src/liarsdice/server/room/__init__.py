"""A room: its value and log (:mod:`.state`, :mod:`.events`; the events' classes are
:mod:`liarsdice.server.room_events`), its commands (:mod:`.commands`), its actor
(:mod:`.actor`), its timers (:mod:`.turns`), its seats' presence (:mod:`.seating`), its
connections (:mod:`.fanout`), its pauses (:mod:`.pause`) and the manager of every room
(:mod:`.manager`). The parts take protocols of the room, never the actor itself. See
docs/ARCHITECTURE.md, "The path of a move"."""

from liarsdice.server.room.actor import Room, Sink
from liarsdice.server.room.commands import CommandError, decide, hash_token
from liarsdice.server.room.events import fold
from liarsdice.server.room.manager import RoomManager
from liarsdice.server.room.state import MAX_SEATS, Event, RoomState

__all__ = [
    "MAX_SEATS",
    "CommandError",
    "Event",
    "Room",
    "RoomManager",
    "RoomState",
    "Sink",
    "decide",
    "fold",
    "hash_token",
]
