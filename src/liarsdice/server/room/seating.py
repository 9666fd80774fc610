"""Who is at the table: each seat's connections and presence (:class:`~.turns.Here`), and
what changes them: a player's connection's hello and close, a player going away and coming back, a
seat removed. Presence is not in the log; frames show it (``presence`` notes, and
:class:`~liarsdice.server.views.Live`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from liarsdice.server.protocol import ClientSeedMsg
from liarsdice.server.room.commands import CommandError
from liarsdice.server.room.fanout import Fanout, Sink
from liarsdice.server.room.state import RoomState
from liarsdice.server.room.turns import Here, Turns
from liarsdice.server.views import error_frame, stock_of

CLOSE_REMOVED = 4410  # the seat was removed (by the host, or its player left)


class SeatingRoom(Protocol):
    """What the seating needs of its room: its value and seats' presence, its connections
    and timers, and its commands (a connection's new client seed is one)."""

    value: RoomState
    presence: list[Here]

    @property
    def fanout(self) -> Fanout: ...

    @property
    def turns(self) -> Turns: ...

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` as the room's next work."""

    async def command(self, seat: int, msg: Any) -> Any:
        """Decide and commit ``msg`` from ``seat`` (CommandError: refused)."""


class Seating:
    """The room's seats' presence, changed by its connections and its players."""

    def __init__(self, room: SeatingRoom) -> None:
        self.room = room

    async def arrived(self, sink: Sink, client_seed: str | None) -> None:
        """A player's connection said hello: their seat is present (back, if it was away);
        a new ``client_seed`` of theirs is the seat's from the next fair round."""
        room, seat = self.room, sink.seat
        here = room.presence[seat]
        here.connections += 1
        here.epoch += 1
        room.turns.end_grace(seat)
        was_away = here.away
        if was_away:
            self._back(seat)
        here.away, here.timeouts = False, 0
        self._announce(seat, "back" if was_away else "connected")
        if client_seed is not None and client_seed != room.value.seats[seat].client_seed:
            try:
                await room.command(seat, ClientSeedMsg(seed=client_seed))
            except CommandError as err:  # the store is failing: the seed is not changed
                room.fanout.push(sink, error_frame(err.code, err.message))
        else:
            room.turns.schedule()

    async def disconnect(self, sink: Sink) -> None:
        """A connection closed; after the grace period a bot plays its seat."""
        room = self.room
        room.fanout.sinks.discard(sink)
        if sink.seat < 0 or sink.seat >= len(room.presence):
            return
        here = room.presence[sink.seat]
        here.connections = max(0, here.connections - 1)
        if here.connections == 0 and room.value.seats[sink.seat].kind == "human":
            here.epoch += 1
            room.turns.start_grace(sink.seat)
            self._announce(sink.seat, "disconnected")
            if room.value.revealing:  # the reveal waits for the players still here only
                room.post(room.turns.check_reveal)

    def set_away(self, seat: int, away: bool, note: str) -> None:
        """``seat``'s player is away (a bot plays its turns) or back (``note``: why)."""
        room = self.room
        here = room.presence[seat]
        if away and not here.away:
            here.away_from, here.away_moves, here.summary = self._stock(seat), 0, None
        elif not away and here.away:
            self._back(seat)
        here.away = away
        self._announce(seat, note)
        room.turns.schedule()  # a bot takes the seat's turns, or its player again
        if away and room.value.revealing:
            room.post(room.turns.check_reveal)

    def disconnect_seat(self, seat: int, by: str) -> None:
        """Close a removed seat's connections, telling them why."""
        if by not in ("host", "self"):
            return
        fanout = self.room.fanout
        why = "you left the room" if by == "self" else "the host removed you from the room"
        for x in [x for x in fanout.sinks if x.seat == seat]:
            fanout.sinks.discard(x)
            fanout.push(x, error_frame("removed", why))
            x.seat = -1
            x.close(CLOSE_REMOVED, "removed from the room")

    def drop_seat(self, gone: int, by: str) -> None:
        """Seat ``gone`` was removed: its connections go, later seats' move down one."""
        room = self.room
        self.disconnect_seat(gone, by)
        room.turns.end_grace(gone)
        del room.presence[gone]
        for x in room.fanout.sinks:
            if x.seat > gone:
                x.seat -= 1

    def _stock(self, seat: int) -> tuple[int, int] | None:
        """The game and the seat's dice (or lives) in it now (None: no game)."""
        value = self.room.value
        got = stock_of(value, seat)
        return None if got is None else (value.game_no, got[0])

    def _back(self, seat: int) -> None:
        """The seat's player is back: what the computer did meanwhile, for their view only
        (the dice it went from and to when that was one game)."""
        value = self.room.value
        here = self.room.presence[seat]
        now = stock_of(value, seat)
        summary: dict[str, Any] = {"seq": value.seq, "moves": here.away_moves}
        was = here.away_from
        if now is not None and was is not None and was[0] == value.game_no:
            summary.update({"from": was[1], "to": now[0], "unit": now[1]})
        here.summary = summary if here.away_moves or "from" in summary else None
        here.away_from, here.away_moves = None, 0

    def _announce(self, seat: int, note: str) -> None:
        """Tell every connection of ``seat``'s presence (an ephemeral ``presence`` note)."""
        here = self.room.presence[seat]
        eph = {
            "kind": "presence",
            "seat": seat,
            "connected": here.connections > 0,
            "away": here.away,
            "note": note,
        }
        self.room.fanout.update(self.room.value.seq, (), ephemeral=(eph,))


__all__ = ["CLOSE_REMOVED", "Seating", "SeatingRoom"]
