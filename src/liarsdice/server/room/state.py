"""The room as a value: :class:`RoomState` holds everything a room's event log determines.

A room changes only by folding an event into its value (:mod:`liarsdice.server.room.events`),
which makes a new value and leaves the old one as it was: a command that cannot be committed
is undone by keeping the old value. What the log does not determine (who is connected, the
running timers, the bots' instances) lives in the actor (:mod:`liarsdice.server.room.actor`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cached_property
from typing import Any

from liarsdice.core.api import GameAPI, StateAPI
from liarsdice.families import Family, Record, family_of, family_of_game
from liarsdice.server import fair
from liarsdice.server.ratings import Standing
from liarsdice.server.room_events import RoomEvent, parse

MAX_SEATS = 12
CHAT_KEEP = 50  # chat lines a room remembers (and sends in a snapshot)
GAMES_LISTED = 20  # finished games' numbers a frame lists (the latest); older ones by URL


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the log knows it (presence is the actor's)."""

    index: int
    name: str
    kind: str  # "human" | "bot"
    level: str | None
    token_hash: str | None
    client_seed: str
    left: bool = False  # the player left (or was removed) during a game: a bot plays it
    player: str | None = None  # the rated identity (a guest's player id, or a bot level's)
    uid: int = -1  # the ``seat_joined`` event's seq: who sat here, whatever the seat's index

    @property
    def key(self) -> str:
        """Who sits here, for a game that outlives seat changes (a snapshot written before
        seats had a ``uid`` names them by name: names are unique in a room)."""
        return f"#{self.uid}" if self.uid >= 0 else f"name:{self.name}"


@dataclass(frozen=True, slots=True)
class FairRound:
    """The fair-dice round in progress: its locked seeds and where its stream is."""

    game_no: int
    round: int
    idx: int  # the server seed's index
    commitment: str
    client_seeds: tuple[str, ...]
    at: fair.Cursor = fair.START


# The reveal's timeline (seconds): the cups lift, the counted dice light one by one (at most
# REVEAL_COUNT_MAX in all, STEP each when few), a pause, then the verdict, which stays at
# least the hold before the next round may start.
REVEAL_LIFT = 0.9
REVEAL_STEP = 0.32
REVEAL_COUNT_MAX = 3.0
REVEAL_PAUSE = 0.45
REVEAL_SLACK = 0.3  # the frame's trip to the pages: the verdict still shows the whole hold


@dataclass(frozen=True, slots=True)
class RevealPlan:
    """When each part of a reveal shows, decided by the server from the round's count, so
    that every page's animation fits inside the phase and the verdict shows ``hold`` s."""

    counted: int  # dice counted out one by one
    hold: float  # the verdict shows at least this long
    lift: float = REVEAL_LIFT
    pause: float = REVEAL_PAUSE

    @property
    def step(self) -> float:
        return min(REVEAL_STEP, REVEAL_COUNT_MAX / self.counted) if self.counted else 0.0

    @property
    def verdict_at(self) -> float:
        return round(self.lift + self.step * self.counted + self.pause, 3)

    @property
    def seconds(self) -> float:
        return round(self.verdict_at + self.hold + REVEAL_SLACK, 3)

    def to_json(self) -> dict[str, float | int]:
        return {
            "counted": self.counted,
            "lift": self.lift,
            "step": round(self.step, 4),
            "pause": self.pause,
            "verdict_at": self.verdict_at,
            "hold": self.hold,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> RevealPlan | None:
        if not d:
            return None  # a log written before reveals had a plan
        return cls(int(d["counted"]), float(d["hold"]), float(d["lift"]), float(d["pause"]))


@dataclass(frozen=True, slots=True)
class Reveal:
    """The reveal phase after a round: the round's dice are public, the next round waits.

    Begun by a ``reveal`` event (``seconds``: how long it lasts unless someone waits, its
    ``plan``: when the verdict shows), ended by ``reveal_over`` (every connected player said
    ``continue``, or the time ran out)."""

    game_no: int
    round: int
    seconds: float
    plan: RevealPlan | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """One public move of the current game, for the log a page draws (``history``)."""

    seq: int
    round: int
    seat: int
    text: str
    auto: bool = False
    timeout: bool = False


MOVES_KEEP = 1000  # public moves of one game a room remembers (and a snapshot sends)
ACTION_IDS_KEEP = 256  # action ids a room remembers, across its games (repeats are no-ops)


@dataclass(frozen=True)
class Event:
    """One event of a room's log: ``seq`` counts from 1 in each room; ``kind`` and ``data``
    as the log stores them, and its typed value (``body``, one of :data:`RoomEvent`)."""

    seq: int
    kind: str
    data: dict[str, Any]

    @classmethod
    def of(cls, seq: int, body: RoomEvent) -> Event:
        """The logged event ``seq`` of ``body`` (its data made from it, once)."""
        ev = cls(seq, body.KIND, body.to_json())
        ev.__dict__["body"] = body  # (the cached value: the same object, not parsed again)
        return ev

    @cached_property
    def body(self) -> RoomEvent:
        """The typed event (parsed from ``data`` once; UnknownEvent: no class reads
        ``kind``)."""
        return parse(self.kind, self.data)

    @cached_property
    def text(self) -> str:
        """``data`` as JSON, made once (the store's row and the resync history share it)."""
        return json.dumps(self.data, separators=(",", ":"))


@dataclass(frozen=True, kw_only=True)
class RoomState:
    """Everything a room's log determines. Never changed in place: see :func:`fold`."""

    room_id: str
    seq: int = 0
    preset: str = "classic"
    family: str = "bidding"
    options: Mapping[str, Any] = field(default_factory=dict)
    turn_timer: float | None = None
    private: bool = False  # by link only: not in the public room list
    locked: bool = False  # the host locked the room: nobody new takes a seat
    banned: frozenset[str] = frozenset()  # names the host banned from this room (folded)
    status: str = "lobby"  # lobby | playing | finished | closed
    game_no: int = 0
    seats: tuple[Seat, ...] = ()
    host: int = 0
    game: GameAPI | None = None  # the current (or last) game of the room's family
    state: StateAPI | None = None  # its state (immutable, from the rules core)
    seeds: Mapping[int, str] = field(default_factory=dict)  # secret server seeds by index
    next_idx: int = 0  # the server seed of the next fair round
    fair_round: FairRound | None = None
    fair_info: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)  # this game's
    wins: Mapping[str, int] = field(default_factory=dict)  # games won here, by seat name
    ranking: tuple[int, ...] | None = None  # the last game's seats, winner first
    out_order: tuple[int, ...] = ()  # this game's seats in the order they went out
    chat: tuple[Event, ...] = ()  # the last CHAT_KEEP chat events
    games: tuple[int, ...] = ()  # the latest GAMES_LISTED finished games' numbers
    # the last ACTION_IDS_KEEP action ids, whatever the game: (seat, id) -> (seq, action); a
    # repeat that arrives after its game ended (a retry of a move whose acknowledgement was
    # lost) is not a move of the next game
    action_ids: Mapping[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    reveal: Reveal | None = None  # the reveal phase after a round, while it holds the next
    moves: tuple[Move, ...] = ()  # this game's public moves (the log's history)
    # who played the current (or last) game, by position (``Seat.key``): a finished game stays
    # the same value whatever happens to the seats after it
    game_keys: tuple[str, ...] = ()

    # ------------------------------------------------------------------ derived facts
    @property
    def family_obj(self) -> Family:
        return family_of(self.preset)

    @property
    def live_state(self) -> StateAPI:
        """The state of the current (or last) game; only where there is one (a bug else)."""
        assert self.state is not None, "no game has started in this room"
        return self.state

    @property
    def live_game(self) -> GameAPI:
        """The current (or last) game; only where there is one (a bug else)."""
        assert self.game is not None, "no game has started in this room"
        return self.game

    @property
    def playing(self) -> bool:
        return self.status == "playing" and self.state is not None

    @property
    def revealing(self) -> bool:
        """The room holds the next round (or the game's end) while a round's reveal shows."""
        return self.reveal is not None and self.status == "playing"

    @property
    def next_commitment(self) -> str | None:
        seed = self.seeds.get(self.next_idx)
        return None if seed is None else fair.commitment(seed)

    def facts(self) -> dict[str, Any]:
        """Every field, the game and its state as their histories: equal for two values folded
        from the same log (objects of the rules core compare by identity)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["game"] = None if self.game is None else list(self.game.names)
        out["state"] = None if self.state is None else list(self.state.history())
        return out

    def with_seeds(self, seeds: Mapping[int, str]) -> RoomState:
        """The value with the secret server seeds it still needs from ``seeds`` (those of the
        round in progress and later: revealed ones are in ``fair_info``)."""
        floor = self.fair_round.idx if self.fair_round is not None else self.next_idx
        if self.seq == 0:
            floor = 0  # a log replayed from its start needs every seed
        keep = {i: s for i, s in seeds.items() if i >= floor}
        return replace(self, seeds={**keep, **self.seeds})

    def names(self) -> list[str]:
        """The players' names: the game's while one is played, else the seats'."""
        if self.game is not None and self.status == "playing":
            return list(self.game.names)
        return [s.name for s in self.seats]

    def position_of(self, seat: int) -> int:
        """Where ``seat`` (a seat's index now) played in the current or last game: its index
        while a game is played (seats do not move then), after it the position of whoever
        sits there now, or -1 (a spectator's, or a seat that did not play it)."""
        if self.game is None or not 0 <= seat < len(self.seats):
            return -1
        key = self.seats[seat].key
        return self.game_keys.index(key) if key in self.game_keys else -1

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name if 0 <= seat < len(self.seats) else "nobody"

    def controlled_by_bot(self, seat: int, away: bool = False) -> bool:
        """Whether a bot moves for ``seat`` (its own, or a player's who is away or left)."""
        s = self.seats[seat]
        return s.kind == "bot" or s.left or away

    def record(self) -> Record:
        """The JSON record of the current game, with each revealed round's ``fair`` key."""
        assert self.state is not None
        # the loaded record is made here and dropped: its data is ours to add the seeds to
        rec = family_of_game(self.state.game).record_from_state(self.state).data
        for r, rnd in enumerate(rec["rounds"]):
            info = self.fair_info.get(r)
            if info is not None and "server_seed" in info:
                rnd["fair"] = dict(info)
        return rec

    def standings(self) -> tuple[int, list[Standing]] | None:
        """The finished game's rated seats (places from the ranking, calls from its rounds),
        or None when fewer than two seats have a rated identity."""
        st = self.live_state
        game = st.game
        family = family_of_game(game)
        made: dict[str, int] = {}
        won: dict[str, int] = {}
        for result in st.view(-1).results:
            summary = family.summarize_result(game, result)
            caller = summary.get("caller")
            if caller is None:
                continue
            made[caller] = made.get(caller, 0) + 1
            if not summary.get("losses", {}).get(caller):
                won[caller] = won.get(caller, 0) + 1
        names = list(game.names)
        out = []
        for place, seat in enumerate(self.ranking or (), start=1):
            player = self.seats[seat].player if seat < len(self.seats) else None
            if player is not None:
                name = names[seat]
                out.append(Standing(player, place, made.get(name, 0), won.get(name, 0)))
        if len({s.player for s in out}) < 2:
            return None
        return self.game_no, out


# What a snapshot leaves out: the game and its state (the ``game_started`` after the snapshot
# builds them), the secret seeds (they stay in ``fair_seeds``), what that event resets, and
# what is derived (the room's id is the row's key, its family follows from the preset).
_NOT_SNAPSHOT = frozenset(
    {
        "room_id",
        "family",
        "game",
        "state",
        "seeds",
        "out_order",
        "reveal",
        "moves",
        "game_keys",
    }
)

# How the fields that are not plain JSON come back from a snapshot (the rest are as stored).
_FROM_JSON: dict[str, Callable[[Any], Any]] = {
    "seats": lambda v: tuple(Seat(*x) for x in v),
    "fair_round": lambda v: (
        None if v is None else FairRound(v[0], v[1], v[2], v[3], tuple(v[4]), (v[5][0], v[5][1]))
    ),
    "fair_info": lambda v: {r: info for r, info in v},
    "chat": lambda v: tuple(Event(*x) for x in v),
    "banned": frozenset,
    "ranking": lambda v: None if v is None else tuple(v),
    "games": tuple,
    "action_ids": lambda v: {(seat, key): (seq, action) for seat, key, seq, action in v},
}


def _to_json(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return [_to_json(getattr(value, f.name)) for f in fields(value)]
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_to_json(x) for x in value]
    if isinstance(value, Mapping) and any(isinstance(k, int) for k in value):
        return [[k, _to_json(v)] for k, v in value.items()]  # JSON keys are strings
    if isinstance(value, Mapping):
        return {k: _to_json(v) for k, v in value.items()}
    return value


def snapshot_json(s: RoomState) -> dict[str, Any]:
    """The value as JSON, taken just before a ``game_started`` event."""
    out = {f.name: _to_json(getattr(s, f.name)) for f in fields(s) if f.name not in _NOT_SNAPSHOT}
    out["action_ids"] = [[*key, *value] for key, value in s.action_ids.items()]
    return out


def from_snapshot(room_id: str, d: Mapping[str, Any]) -> RoomState:
    """The value :func:`snapshot_json` wrote (seeds are added by the caller)."""
    values = {k: _FROM_JSON.get(k, lambda v: v)(v) for k, v in d.items()}
    return RoomState(room_id=room_id, family=family_of(d["preset"]).name, **values)


def build_game(
    preset: str, options: Mapping[str, Any], names: list[str], opener: int | None
) -> GameAPI:
    """A game of ``preset`` with the room's options (JSON values) and these seats."""
    family = family_of(preset)
    return family.new_game(family.rules(preset, dict(options), len(names)), names, opener)


__all__ = [
    "ACTION_IDS_KEEP",
    "CHAT_KEEP",
    "GAMES_LISTED",
    "MAX_SEATS",
    "MOVES_KEEP",
    "Event",
    "FairRound",
    "Move",
    "Reveal",
    "RevealPlan",
    "RoomState",
    "Seat",
    "build_game",
    "from_snapshot",
    "snapshot_json",
]
