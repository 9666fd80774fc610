"""The room's events as typed values: one frozen class per event kind.

Each class is the one place that knows its kind: its name in the log (``KIND``), its JSON
form in the log and on the wire (its fields, in order: :meth:`to_json` and
:meth:`from_json`), and what every recipient may see of it (``PUBLIC``; anything else stays
on the server). :data:`RoomEvent` is the closed union of them: the fold
(:mod:`liarsdice.server.room.events`), the store's projection
(:mod:`liarsdice.server.projection`) and the views (:mod:`liarsdice.server.views`) match on
it, with :func:`typing.assert_never` in the default arm, so mypy proves each handles every
kind; the browser reads the kinds from ``static/event-kinds.js``, written from :data:`KINDS`
(``python -m liarsdice.server.room_events``).

A field's JSON key is its name (or its ``key`` metadata), in the order of the fields (the
order the log has always had); a field made with :func:`_opt` is left out of the JSON while
it is None; a field with a default may be missing from an old log; a ``tuple`` is a JSON list.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Self, get_args

# (key sent, attribute) pairs: what every recipient may see of an event, in order
Public = tuple[tuple[str, str], ...]


def _opt(key: str | None = None) -> Any:
    """A field that may be missing from the JSON (left out while None)."""
    return field(default=None, metadata={"omit": True, **({"key": key} if key else {})})


def _key(key: str) -> Any:
    """A required field whose JSON key is not its name."""
    return field(metadata={"key": key})


_Spec = tuple[tuple[str, str, bool, bool], ...]
_SPECS: dict[type, _Spec] = {}


def _spec(cls: type) -> _Spec:
    """Each field of ``cls`` as (attribute, JSON key, omitted while None, required)."""
    out = _SPECS.get(cls)
    if out is None:
        out = _SPECS[cls] = tuple(
            (f.name, f.metadata.get("key", f.name), bool(f.metadata.get("omit")), _required(f))
            for f in fields(cls)
        )
    return out


def _required(f: Field[Any]) -> bool:
    return f.default is MISSING and f.default_factory is MISSING  # the JSON must have it


def _plain(value: Any) -> Any:
    """A field's value as JSON has it (a tuple is a list)."""
    return list(value) if isinstance(value, tuple) else value


class _Body:
    """What every event class shares: its JSON form and its public fields."""

    __slots__ = ()
    KIND: ClassVar[str]
    PUBLIC: ClassVar[Public] = ()

    def to_json(self) -> dict[str, Any]:
        """The event's ``data`` as the log stores it."""
        out: dict[str, Any] = {}
        for name, key, omit, _ in _spec(type(self)):
            value = getattr(self, name)
            if not (omit and value is None):
                out[key] = _plain(value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The event of a logged ``data`` (a missing required key: KeyError)."""
        args: dict[str, Any] = {}
        for name, key, _, required in _spec(cls):
            value = data[key] if required else data.get(key)
            args[name] = tuple(value) if isinstance(value, list) else value
        return cls(**args)

    def public(self) -> dict[str, Any]:
        """What every recipient may see of the event (the same for every recipient)."""
        return {key: _plain(getattr(self, name)) for key, name in self.PUBLIC}


def _same(*names: str) -> Public:
    return tuple((n, n) for n in names)


# ------------------------------------------------------------------------ the room and its seats
@dataclass(frozen=True, slots=True, kw_only=True)
class RoomCreated(_Body):
    """The room's first event: its rules, its settings, its first server seed."""

    KIND = "room_created"
    PUBLIC = _same("preset", "options", "turn_timer")
    preset: str
    options: Mapping[str, Any]
    turn_timer: float | None = None  # (always logged, null or not)
    seed_idx: int
    private: bool | None = _opt()  # logged only when true
    tutorial: bool | None = _opt()  # (the store rates no game of the room: ``rooms.tutorial``)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatJoined(_Body):
    """A person or a bot took the next seat."""

    KIND = "seat_joined"
    PUBLIC = (("seat", "seat"), ("name", "name"), ("seat_kind", "seat_kind"), ("level", "level"))
    seat: int
    name: str
    seat_kind: str = _key("kind")  # "human" | "bot"
    level: str | None = _opt()  # a bot's
    token_hash: str | None = _opt()  # a person's
    client_seed: str
    player: str | None = _opt()  # the rated identity of a guest


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientSeed(_Body):
    """A seat's player chose their client seed (it counts from the next fair round)."""

    KIND = "client_seed"
    PUBLIC = _same("seat")
    seat: int
    seed: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRemoved(_Body):
    """A seat went, between games (later seats move down one)."""

    KIND = "seat_removed"
    PUBLIC = _same("seat", "name", "by")
    seat: int
    name: str
    by: str  # "host" | "self" | "left"


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft(_Body):
    """A player left during a game: a bot plays the seat to the game's end."""

    KIND = "seat_left"
    PUBLIC = _same("seat", "by")
    seat: int
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HostChanged(_Body):
    """Another player is the host."""

    KIND = "host_changed"
    PUBLIC = _same("seat")
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsChanged(_Body):
    """The host changed the settings (between games)."""

    KIND = "settings"
    PUBLIC = _same("turn_timer")
    turn_timer: float | None = None  # (always logged)


@dataclass(frozen=True, slots=True, kw_only=True)
class Locked(_Body):
    """The host locked (or unlocked) the room."""

    KIND = "locked"
    PUBLIC = _same("locked")
    locked: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Banned(_Body):
    """The host banned a name from the room."""

    KIND = "banned"  # (public: nothing; the name follows in the seat's removal)
    key: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomClosed(_Body):
    """The room was closed (idle for its time to live)."""

    KIND = "room_closed"
    reason: str | None = _opt()


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(_Body):
    """A chat line (html-escaped)."""

    KIND = "chat"
    PUBLIC = _same("seat", "name", "text")
    seat: int | None  # None: a spectator
    name: str
    text: str


# ------------------------------------------------------------------------ games and rounds
@dataclass(frozen=True, slots=True, kw_only=True)
class FairRoundOpened(_Body):
    """A fair round's seeds are locked: its dice are drawn from them."""

    KIND = "fair_round"
    PUBLIC = _same("game_no", "round", "commitment", "client_seeds", "next_commitment")
    game_no: int
    round: int
    idx: int  # the server seed's index (secret until its round is over)
    commitment: str
    client_seeds: tuple[str, ...]
    next_idx: int
    next_commitment: str | None = _opt()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(_Body):
    """A game started with the seats' players in this order."""

    KIND = "game_started"
    PUBLIC = _same("game_no", "players", "opener")
    game_no: int
    players: tuple[str, ...]
    opener: int | None = None  # (always logged)
    opener_draw: bool | None = _opt()  # the opener was drawn from the fair stream
    at: tuple[int, int] | None = _opt()  # the stream's cursor after that draw


@dataclass(frozen=True, slots=True, kw_only=True)
class Chance(_Body):
    """A die was rolled: the value drawn from the fair stream."""

    KIND = "chance"  # (public: nothing; a die's face is in the views of those who may see it)
    value: int
    at: tuple[int, int] | None = _opt()  # the fair stream's cursor after the draw


@dataclass(frozen=True, slots=True, kw_only=True)
class Action(_Body):
    """A move of a seat."""

    KIND = "action"
    PUBLIC = _same("seat", "action", "text", "auto", "timeout")
    seat: int
    action: int
    text: str | None = _opt()
    auto: bool | None = _opt()  # played by the computer (logged only when true)
    timeout: bool | None = _opt()  # ... because the player's turn timer ran out
    id: str | None = _opt()  # the client's message id (logged, never sent): repeats are no-ops


@dataclass(frozen=True, slots=True, kw_only=True)
class FairReveal(_Body):
    """A fair round is over: its server seed is public."""

    KIND = "fair_reveal"
    PUBLIC = _same("game_no", "round", "commitment", "server_seed")
    game_no: int
    round: int
    idx: int
    commitment: str
    server_seed: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealBegun(_Body):
    """A round is over: its reveal shows before anything of the next round."""

    KIND = "reveal"
    PUBLIC = _same("game_no", "round", "seconds", "plan")
    game_no: int
    round: int
    seconds: float
    plan: Mapping[str, Any] | None = None  # (always logged; none in a log of before plans)


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealOver(_Body):
    """The reveal phase ended."""

    KIND = "reveal_over"
    PUBLIC = _same("game_no", "round", "by")
    game_no: int
    round: int
    by: str  # "continue" | "timeout"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(_Body):
    """The game is over."""

    KIND = "game_over"
    PUBLIC = _same("game_no", "winner")
    game_no: int
    winner: int | None = None  # (always logged)


# The events of the room and its seats, and those of its games: together every event.
SeatEvent = (
    RoomCreated
    | SeatJoined
    | ClientSeed
    | SeatRemoved
    | SeatLeft
    | HostChanged
    | SettingsChanged
    | Locked
    | Banned
    | Chat
    | RoomClosed
)
GameEvent = (
    FairRoundOpened
    | GameStarted
    | Chance
    | Action
    | FairReveal
    | RevealBegun
    | RevealOver
    | GameOver
)
RoomEvent = SeatEvent | GameEvent
EVENT_TYPES: dict[str, type[RoomEvent]] = {t.KIND: t for t in get_args(RoomEvent)}
KINDS: tuple[str, ...] = tuple(EVENT_TYPES)


class UnknownEvent(KeyError):
    """A logged kind no class here reads."""


def parse(kind: str, data: Mapping[str, Any]) -> RoomEvent:
    """The typed event of a logged ``(kind, data)``."""
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise UnknownEvent(kind)
    return cls.from_json(data)


# ------------------------------------------------------------------------ the browser's list
KINDS_JS = Path(__file__).resolve().parent / "static" / "event-kinds.js"


def kinds_js() -> str:
    """``static/event-kinds.js``: the kinds as the browser client reads them."""
    rows = "".join(f'  {kind.upper()}: "{kind}",\n' for kind in KINDS)
    return (
        "// Written by `python -m liarsdice.server.room_events` from the server's event\n"
        "// classes (server/room_events.py): do not edit; tests fail when it is out of date.\n"
        "\n"
        "/** The kinds of a room's logged events, as `update` frames name them. */\n"
        f"export const EVENT = Object.freeze({{\n{rows}}});\n"
    )


def main(argv: list[str]) -> int:
    """Write ``static/event-kinds.js`` (``--check``: only say whether it is up to date)."""
    text = kinds_js()
    if "--check" in argv:
        ok = KINDS_JS.exists() and KINDS_JS.read_text(encoding="utf-8") == text
        print(f"{KINDS_JS.name}: {'up to date' if ok else 'out of date: run without --check'}")
        return 0 if ok else 1
    KINDS_JS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = [
    "EVENT_TYPES",
    "KINDS",
    "Action",
    "Banned",
    "Chance",
    "Chat",
    "ClientSeed",
    "FairReveal",
    "FairRoundOpened",
    "GameEvent",
    "GameOver",
    "GameStarted",
    "HostChanged",
    "Locked",
    "Public",
    "RevealBegun",
    "RevealOver",
    "RoomClosed",
    "RoomCreated",
    "RoomEvent",
    "SeatEvent",
    "SeatJoined",
    "SeatLeft",
    "SeatRemoved",
    "SettingsChanged",
    "UnknownEvent",
    "kinds_js",
    "parse",
]
