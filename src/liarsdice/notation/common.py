"""What the JSON records of every rule family share: the header, errors that say where, the
compact JSON writer and the skeleton of a replay.

The family modules (:mod:`liarsdice.notation.bidding.record` for the bidding family,
:mod:`liarsdice.notation.poker.record` for poker dice) keep only what really differs: the
rounds and moves, and how they drive their engine. Nothing here knows a family; finding the
family of a record is :mod:`liarsdice.families`' job.

>>> check_header({"liarsdice": 2, "rules": "classic", "players": [], "rounds": []})
Traceback (most recent call last):
...
liarsdice.core.errors.RecordError: unsupported record version 2; this reader knows version 1
>>> print(write_record({"liarsdice": 1, "rules": "classic", "options": {}, "players": ["a"],
...                     "rounds": []}))
{"liarsdice": 1, "rules": "classic", "options": {},
 "players": ["a"],
 "rounds": []}
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from liarsdice.core.api import RulesAPI, StateAPI
from liarsdice.core.errors import IllegalActionError, NotationError, RecordError, RulesError

__all__ = [
    "VERSION",
    "Fail",
    "JSONObject",
    "LoadedRecord",
    "Record",
    "Replayer",
    "Source",
    "check_header",
    "error_object",
    "failer",
    "int_list",
    "is_int",
    "load_move_player",
    "load_record_with",
    "load_round_with",
    "loaded",
    "read_source",
    "record_header",
    "replay_partial_with",
    "replayed_state",
    "summary_with",
    "write_record",
]

VERSION = 1
"""The record version this package reads and writes (the ``"liarsdice"`` key)."""

Record = dict[str, Any]
"""A game record's raw JSON object as Python data (unchecked; a checked one is a
:class:`LoadedRecord`)."""

JSONObject = dict[str, Any]
"""A JSON object as Python data (a replay summary, a round's summary, a view frame): its values
are whatever JSON holds, so they are typed no further."""

Source = str | bytes | Mapping[str, Any]
"""What the readers accept: JSON text, or the parsed data."""

Fail = Callable[[str], RecordError]
"""Builds an error located at a round (and a move): ``raise fail("message")``."""

_TOP_KEYS = ("liarsdice", "rules", "options", "players", "rounds")

R = TypeVar("R", bound=RulesAPI)
R_co = TypeVar("R_co", bound=RulesAPI, covariant=True)
S = TypeVar("S", bound=StateAPI)


@dataclass(frozen=True, slots=True, eq=False)
class LoadedRecord(Mapping[str, Any], Generic[R_co]):
    """A checked record: what a family's ``load_record`` (and ``text_to_record``,
    ``record_from_state``) returns, and what every later step (replay, summary, the text and
    JSON writers) takes without checking it again.

    ``family`` is the family's name (``"bidding"``, ``"poker"``), ``rules`` the rules object the
    record names, built once while checking it, and ``data`` the normalized JSON object (what
    ``dumps_record`` writes): ``players`` and ``rounds`` are its parts. ``data`` belongs to the
    record: change a copy, never it.

    It is also a read-only mapping over ``data``, so that what reads a record's JSON keys reads a
    loaded one alike, and it equals any mapping with the same JSON data (the rules follow from
    the data). Its type, not its keys, is what says it is checked: the functions that take a
    :class:`LoadedRecord` take it as it is, and check anything else first.
    """

    family: str
    rules: R_co = field(compare=False)
    data: Record

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"LoadedRecord({self.family!r}, {self.data!r})"

    @property
    def players(self) -> list[str]:
        """The seat names, in seat order."""
        players: list[str] = self.data["players"]
        return players

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The rounds as the JSON record holds them (normalized)."""
        rounds: list[dict[str, Any]] = self.data["rounds"]
        return rounds


def loaded(
    record: Source | LoadedRecord[R], load: Callable[[Source], LoadedRecord[R]]
) -> LoadedRecord[R]:
    """``record`` itself when it is loaded already, else ``load(record)``."""
    return record if isinstance(record, LoadedRecord) else load(record)


# ------------------------------------------------------------------------------------ reading
def is_int(value: object) -> bool:
    """Whether a JSON value is an integer (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def int_list(value: object) -> bool:
    """Whether a JSON value is a list of integers."""
    return isinstance(value, list) and all(is_int(v) for v in value)


def failer(r: int, m: int | None) -> Fail:
    """The error builder for round ``r`` and move ``m`` (None: the round itself)."""

    def fail(message: str) -> RecordError:
        return RecordError(message, round=r, move=m)

    return fail


def read_source(source: Source) -> Mapping[str, Any]:
    """Parse JSON text (or take parsed data) and check that it is a JSON object."""
    if isinstance(source, str | bytes):
        try:
            data: object = json.loads(source)
        except json.JSONDecodeError as err:
            raise RecordError(f"not valid JSON: {err}") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    return data


def check_header(data: Mapping[str, Any]) -> None:
    """Check the version key, that no unknown top-level keys appear and the required ones do."""
    if "liarsdice" not in data:
        raise RecordError("not a liarsdice record: the 'liarsdice' version key is missing")
    version = data["liarsdice"]
    if not is_int(version) or version != VERSION:
        raise RecordError(
            f"unsupported record version {version!r}; this reader knows version {VERSION}"
        )
    unknown = set(data) - set(_TOP_KEYS)
    if unknown:
        raise RecordError(f"unknown record key(s): {', '.join(sorted(map(str, unknown)))}")
    for key in ("rules", "players", "rounds"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")


def load_record_with(
    source: Source,
    family: str,
    rules_of: Callable[[Mapping[str, Any]], R],
    players_range: tuple[int, int],
    load_round: Callable[[object, int, list[str], R], dict[str, Any]],
    setup: Callable[[R, int], None] | None = None,
) -> LoadedRecord[R]:
    """Read and check a record of ``family`` with its parts: its rules (built here, once), its
    player limits, its round reader and ``setup`` (a check of the rules for that many
    players)."""
    data = read_source(source)
    check_header(data)
    rules = rules_of(data)
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RecordError("'players' must be a list of non-empty names")
    if len(set(players)) != len(players):
        raise RecordError("player names must be distinct")
    low, high = players_range
    if not low <= len(players) <= high:
        raise RecordError(f"a game needs {low}..{high} players, not {len(players)}")
    if setup is not None:
        setup(rules, len(players))
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    header = record_header(
        data["rules"],
        copy.deepcopy(dict(data.get("options", {}))),
        players,
        [load_round(rnd, r, players, rules) for r, rnd in enumerate(rounds)],
    )
    return LoadedRecord(family, rules, header)


def load_round_with(
    raw: object,
    r: int,
    players: list[str],
    keys: tuple[str, ...],
    contents: Callable[[Mapping[str, Any], Fail], dict[str, Any]],
    load_move: Callable[[object, int, int, list[str]], dict[str, Any]],
) -> dict[str, Any]:
    """Read round ``r``: its keys, opener, ``contents`` (the family's dice), moves and the
    optional provably-fair seeds (``docs/RECORD.md``; checked by ``verify``)."""
    fail = failer(r, None)
    if not isinstance(raw, Mapping):
        raise fail(f"a round is an object, not {raw!r}")
    unknown = set(raw) - set(keys)
    if unknown:
        raise fail(f"unknown round key(s): {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    if "opener" in raw:
        if not isinstance(raw["opener"], str) or raw["opener"] not in players:
            raise fail(f"unknown opener {raw['opener']!r}; players: {', '.join(players)}")
        out["opener"] = raw["opener"]
    out.update(contents(raw, fail))
    if "moves" not in raw:
        raise fail("the round has no 'moves' (an empty list if nobody moved yet)")
    moves = raw["moves"]
    if not isinstance(moves, list):
        raise fail("'moves' must be a list")
    out["moves"] = [load_move(mv, r, m, players) for m, mv in enumerate(moves)]
    if "fair" in raw:
        if not isinstance(raw["fair"], Mapping):
            raise fail(f"'fair' must be an object, not {raw['fair']!r}")
        out["fair"] = dict(raw["fair"])
    return out


def load_move_player(
    raw: object, players: list[str], fail: Fail
) -> tuple[Mapping[str, Any], str, set[str]]:
    """Check that a move is an object with a known ``player``: (the move, the player, its
    other keys)."""
    if not isinstance(raw, Mapping):
        raise fail(f"a move is an object, not {raw!r}")
    player = raw.get("player")
    if player is None:
        raise fail("the move has no 'player'")
    if not isinstance(player, str) or player not in players:
        raise fail(f"unknown player {player!r}; players: {', '.join(players)}")
    return raw, player, set(raw) - {"player"}


# ------------------------------------------------------------------------------------ writing
def record_header(
    rules: str, options: dict[str, Any], players: Sequence[str], rounds: list[dict[str, Any]]
) -> Record:
    """A record's top level, in the order every writer gives it."""
    return {
        "liarsdice": VERSION,
        "rules": rules,
        "options": options,
        "players": list(players),
        "rounds": rounds,
    }


def write_record(rec: Mapping[str, Any]) -> str:
    """Write a loaded record (either family) as compact, readable JSON: the header, then one
    line per move."""

    def js(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [
        f'{{"liarsdice": {rec["liarsdice"]}, "rules": {js(rec["rules"])}, '
        f'"options": {js(rec["options"])},',
        f' "players": {js(rec["players"])},',
    ]
    if not rec["rounds"]:
        lines.append(' "rounds": []}')
        return "\n".join(lines)
    lines.append(' "rounds": [')
    for r, rnd in enumerate(rec["rounds"]):
        head = ", ".join(f"{js(k)}: {js(v)}" for k, v in rnd.items() if k != "moves")
        lines.append(f"  {{{head},")
        close = "]}" if r == len(rec["rounds"]) - 1 else ","
        moves = rnd["moves"]
        if not moves:
            lines.append(f'   "moves": []}}{close}')
            continue
        lines.append('   "moves": [')
        for m, move in enumerate(moves):
            end = f"]}}{close}" if m == len(moves) - 1 else ","
            lines.append(f"    {js(move)}{end}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- replaying
class Replayer(Generic[S, R]):
    """Applies a loaded record to a family's engine, move by move; ``state`` is the latest.

    A family's replayer builds its game (:meth:`new_game`), deals a round's dice
    (:meth:`deal`) and applies a move (:meth:`move`); the checks every family makes are here.
    """

    over: Any
    """The family's ``Phase.OVER``."""
    roll: Any
    """The family's ``Phase.ROLL`` (a round about to be rolled)."""

    def __init__(self, rec: LoadedRecord[R]) -> None:
        self.rec = rec.data
        self.rules: R = rec.rules
        self.names: list[str] = rec.players
        self.seats = {name: seat for seat, name in enumerate(self.names)}
        self.state: S | None = None
        self.before: list[S] = []
        """The state before each move replayed, in record order (post-game analysis)."""

    def new_game(self, opener: int | None) -> Any:
        """The game to replay on (``opener``: round 0's opener when the record gives it); a
        :class:`RulesError` becomes the record's error."""
        raise NotImplementedError

    def opener(self, state: S) -> int:
        """The seat that opens the round about to be rolled in ``state``."""
        raise NotImplementedError

    def deal(self, r: int, rnd: dict[str, Any]) -> None:
        """Apply the dice of round ``r``."""
        raise NotImplementedError

    def move(self, r: int, m: int, move: dict[str, Any], last: bool) -> None:
        """Apply move ``m`` of round ``r`` (``last``: the record's last move, which may be
        unfinished)."""
        raise NotImplementedError

    def run(self) -> S:
        rounds = self.rec["rounds"]
        opener: int | None = None
        if rounds and "opener" in rounds[0]:
            opener = self.seats[rounds[0]["opener"]]
        try:
            self.game = self.new_game(opener)
        except RulesError as err:
            raise RecordError(str(err)) from None
        self.state = self.game.new_initial_state()
        total = sum(len(rnd["moves"]) for rnd in rounds)
        done = 0
        for r, rnd in enumerate(rounds):
            self._start_round(r, rnd)
            for m, move in enumerate(rnd["moves"]):
                done += 1
                self.before.append(self._now())
                self.move(r, m, move, last=done == total)
        return self._now()

    def _now(self) -> S:
        assert self.state is not None
        return self.state

    def _apply(self, action: int, r: int, m: int | None) -> None:
        try:
            self.state = self._now().apply_action(action)  # type: ignore[assignment]
        except IllegalActionError as err:
            raise RecordError(str(err), round=r, move=m) from None

    def _located(self, r: int, m: int, make: Callable[[], int]) -> int:
        """The action ``make()`` builds (a bid read, dice shown...), its error located."""
        try:
            return make()
        except (NotationError, IllegalActionError) as err:
            raise RecordError(str(err), round=r, move=m) from None

    def _start_round(self, r: int, rnd: dict[str, Any]) -> None:
        s: Any = self._now()
        if s.phase is self.over:
            raise RecordError("the game is already over: no more rounds", round=r)
        if s.round != r or s.phase is not self.roll:
            raise RecordError(
                "the previous round is not over (no call ended it), but the record goes on",
                round=r - 1 if r else 0,
            )
        opener = self.opener(s)
        if "opener" in rnd and self.seats[rnd["opener"]] != opener:
            raise RecordError(
                f"the opener is {self.names[opener]} under these rules, not {rnd['opener']}",
                round=r,
            )
        self.deal(r, rnd)

    def _check_move(self, r: int, m: int) -> None:
        """The game is not over and the round is still on."""
        s: Any = self._now()
        if s.phase is self.over:
            raise RecordError("the game is over", round=r, move=m)
        if s.round != r:
            raise RecordError(
                "the round is already over: this move belongs to the next round",
                round=r,
                move=m,
            )

    def _check_turn(self, r: int, m: int, name: str) -> None:
        """It is ``name``'s turn."""
        s: Any = self._now()
        if s.current_player != self.seats[name]:
            who = self.names[s.current_player] if s.current_player >= 0 else "nobody"
            raise RecordError(f"it is {who}'s turn, not {name}'s", round=r, move=m)

    def _rolls(self, r: int, m: int, faces: list[int], need: int, what: str, end: bool) -> bool:
        """Apply rolled faces; whether all ``need`` came (fewer only when ``end``)."""
        if len(faces) > need or (len(faces) < need and not end):
            raise RecordError(
                f"{what} {need} {'die' if need == 1 else 'dice'} but the record lists {len(faces)}",
                round=r,
                move=m,
            )
        for face in faces:
            self._apply(face, r, m)
        return len(faces) == need


def replay_partial_with(
    source: Source | LoadedRecord[R],
    load: Callable[[Source], LoadedRecord[R]],
    replayer: Callable[[LoadedRecord[R]], Replayer[S, R]],
) -> tuple[S | None, RecordError | None]:
    """Replay as far as the record is legal: the last good state and the error, if any.

    The state is None when the record could not be read or its game could not be set up. A
    :class:`LoadedRecord` is replayed as it is, without checking it again.
    """
    try:
        player = replayer(loaded(source, load))
    except RecordError as err:
        return None, err
    try:
        return player.run(), None
    except RecordError as err:
        return player.state, err


def replay_moves_with(
    source: Source | LoadedRecord[R],
    load: Callable[[Source], LoadedRecord[R]],
    replayer: Callable[[LoadedRecord[R]], Replayer[S, R]],
) -> tuple[list[S], S]:
    """Replay a whole record: the state before each of its moves (in record order, one per
    move) and the final state; the record's first error raised."""
    player = replayer(loaded(source, load))
    final = player.run()
    return player.before, final


def replayed_state(replayed: tuple[S | None, RecordError | None]) -> S:
    """The state of a whole replay (:func:`replay_partial_with`), or its error raised."""
    state, error = replayed
    if error is not None:
        raise error
    assert state is not None
    return state


# ---------------------------------------------------------------------------------- summary
def error_object(err: RecordError) -> dict[str, Any]:
    """A record error as the JSON outputs write it (0-based round and move)."""
    return {"round": err.round, "move": err.move, "message": err.message}


def summary_with(
    replayed: tuple[S | None, RecordError | None],
    summarize: Callable[[Any, Any], JSONObject],
) -> JSONObject:
    """The ``liarsdice replay --json`` object of a replay: ``{"ok": true, "rounds": [...],
    "winner": name or null}`` (``summarize(game, result)`` writes a round), or ``{"ok": false,
    "error": {"round", "move", "message"}}``."""
    state, error = replayed
    if error is not None:
        return {"ok": False, "error": error_object(error)}
    assert state is not None
    game = state.game
    winner = state.winner
    return {
        "ok": True,
        "rounds": [summarize(game, res) for res in state.results],
        "winner": None if winner is None else game.names[winner],
    }
