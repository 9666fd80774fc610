"""The public, versioned JSON game record (version 1) and its replay.

A record names the rules (a preset plus option overrides), the players, and for every round
the opener, every player's roll, the stash and the moves. It is a contract: other tools read
and write it, so the reader is strict and every error says where (``round`` and ``move``,
0-based) and what went wrong. ``docs/RECORD.md`` documents every key.

>>> record = {"liarsdice": 1, "rules": "milton-bradley", "options": {"loss": "one"},
...  "players": ["ann", "bob", "cy"],
...  "rounds": [{"opener": "ann",
...              "dice": {"ann": [1, 3, 3, 5, 6], "bob": [2, 2, 4, 6, 6], "cy": [1, 1, 5, 5, 5]},
...              "moves": [{"player": "ann", "bid": "3x5"},
...                        {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2], "bid": "5x6"},
...                        {"player": "cy", "call": "liar"}]}]}
>>> summary = replay_summary(record)
>>> summary["rounds"][0]["count"], summary["rounds"][0]["losses"], summary["winner"]
(7, {'cy': 1}, None)
>>> state = replay_record(record)
>>> record_from_state(state) == load_record(record)
True
>>> bad = load_record(record)
>>> bad["rounds"][0]["moves"][2] = {"player": "cy", "bid": "4x5"}
>>> replay_summary(bad)["error"]
{'round': 0, 'move': 2, 'message': '4x5 does not beat 5x6; least legal bids: 3x1, 6x2, 6x3, 6x4'}
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from liarsdice.core.errors import IllegalActionError, NotationError, RecordError, RulesError
from liarsdice.core.game import BUY, CHANCE, EXACT, LIAR, NO_SHOW, Game
from liarsdice.core.poker.rules import POKER_PRESETS
from liarsdice.core.poker.state import PokerState
from liarsdice.core.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_NAMES,
    PRESETS,
    Economy,
    FirstOpener,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
)
from liarsdice.core.state import Phase, Question, RoundResult, State
from liarsdice.notation.bids import parse_bid

__all__ = [
    "CUSTOM",
    "VERSION",
    "Record",
    "Source",
    "check_header",
    "dumps_record",
    "load_record",
    "read_source",
    "record_from_state",
    "record_rules",
    "replay_partial",
    "replay_record",
    "replay_summary",
    "summarize_result",
]

VERSION = 1
"""The record version this module reads and writes (the ``"liarsdice"`` key)."""

CUSTOM = "custom"
"""The ``"rules"`` value of a record whose rules are not a preset: every option is listed."""

Record = dict[str, Any]
"""A game record: the JSON object as Python data."""

Source = str | bytes | Mapping[str, Any]
"""What the readers accept: JSON text, or the parsed data."""

_TOP_KEYS = ("liarsdice", "rules", "options", "players", "rounds")
_ROUND_KEYS = ("opener", "dice", "stash", "moves", "fair")
_CALLS = {"liar": LIAR, "exact": EXACT}
_QUESTIONS = (Question.TURN, Question.COUNT)
# Options whose value may be null, or a list (the record writes tuples as lists).
_NULLABLE = frozenset({"wild", "face_order"})
_LISTABLE = frozenset({"dice", "face_order"})


# ------------------------------------------------------------------------------------ loading
def _is_poker(data: Mapping[str, Any]) -> bool:
    """Whether parsed data names poker-dice rules (read by :mod:`.poker_record`)."""
    return data.get("rules") in POKER_PRESETS


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: object) -> bool:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _option_value(name: str, value: object) -> Any:
    """Check the JSON type of option ``name`` and convert it for :class:`Rules`."""
    default = Rules().options()[name]
    if value is None and name in _NULLABLE:
        return None
    if name in _LISTABLE and isinstance(value, list):
        if not value or not _int_list(value):
            raise RecordError(f"option {name} must be a non-empty list of integers, not {value!r}")
        return tuple(value)
    if name == "face_order":
        raise RecordError(f"option face_order must be a list of faces or null, not {value!r}")
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RecordError(f"option {name} must be true or false, not {value!r}")
        return value
    if _is_int(default):
        if not _is_int(value):
            raise RecordError(f"option {name} must be an integer, not {value!r}")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise RecordError(f"option {name} must be a string, not {value!r}")
        return value
    return tuple(value) if isinstance(value, list) else value


def _rules_from(name: object, options: Mapping[str, Any]) -> Rules:
    if not isinstance(name, str):
        raise RecordError(f"'rules' must be a preset name or {CUSTOM!r}, not {name!r}")
    if name == CUSTOM:
        base = Rules(name=CUSTOM)
    elif name in PRESETS:
        base = PRESETS[name]
    else:
        raise RecordError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)} (or {CUSTOM})")
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key == "name":
            raise RecordError("'name' is not an option: the record's 'rules' key names the rules")
        if key not in OPTION_NAMES:
            raise RecordError(f"unknown rule option {key!r}")
        changes[key] = _option_value(key, value)
    try:
        return base.replace(**changes)
    except RulesError as err:
        raise RecordError(str(err)) from None


def record_rules(record: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` a record names: its preset (or the defaults) with its options."""
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object of option names to values")
    return _rules_from(record.get("rules"), options)


def _load_move(raw: object, r: int, m: int, players: list[str]) -> dict[str, Any]:
    def fail(message: str) -> RecordError:
        return RecordError(message, round=r, move=m)

    if not isinstance(raw, Mapping):
        raise fail(f"a move is an object, not {raw!r}")
    player = raw.get("player")
    if player is None:
        raise fail("the move has no 'player'")
    if not isinstance(player, str) or player not in players:
        raise fail(f"unknown player {player!r}; players: {', '.join(players)}")
    keys = set(raw) - {"player"}
    move: dict[str, Any] = {"player": player}
    for single in ("call", "ask", "buy"):
        if single in keys and keys != {single}:
            others = ", ".join(sorted(keys - {single}))
            raise fail(f"a {single} move has no other keys (found {others})")
    if "call" in keys:
        if raw["call"] not in _CALLS:
            raise fail(f"a call is 'liar' or 'exact', not {raw['call']!r}")
        move["call"] = raw["call"]
        return move
    if "ask" in keys:
        if raw["ask"] not in _QUESTIONS:
            raise fail(f"a question is 'turn' or 'count', not {raw['ask']!r}")
        move["ask"] = raw["ask"]
        return move
    if "buy" in keys:
        buy = raw["buy"]
        if not _int_list(buy) or len(buy) > 1:
            raise fail(f"'buy' lists the bought die's face, e.g. [4], not {buy!r}")
        move["buy"] = list(buy)
        return move
    unknown = keys - {"bid", "show", "reroll"}
    if unknown:
        raise fail(f"unknown move key(s): {', '.join(sorted(unknown))}")
    if not keys & {"bid", "show"}:
        raise fail("a move needs one of bid, show, call, buy or ask")
    if "reroll" in keys and "show" not in keys:
        raise fail("'reroll' comes with a 'show'")
    if "show" in keys:
        if not _int_list(raw["show"]):
            raise fail(f"'show' lists the faces shown, not {raw['show']!r}")
        move["show"] = list(raw["show"])
        if "reroll" in keys:
            if not _int_list(raw["reroll"]):
                raise fail(f"'reroll' lists the re-rolled faces, not {raw['reroll']!r}")
            if not raw["show"]:
                raise fail('a declined show ("show": []) has no reroll')
            move["reroll"] = list(raw["reroll"])
    if "bid" in keys:
        if not isinstance(raw["bid"], str):
            raise fail(f"'bid' is a string such as \"3x5\", not {raw['bid']!r}")
        move["bid"] = raw["bid"]
    return move


def _load_round(raw: object, r: int, players: list[str], rules: Rules) -> dict[str, Any]:
    def fail(message: str) -> RecordError:
        return RecordError(message, round=r, move=None)

    if not isinstance(raw, Mapping):
        raise fail(f"a round is an object, not {raw!r}")
    unknown = set(raw) - set(_ROUND_KEYS)
    if unknown:
        raise fail(f"unknown round key(s): {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    if "opener" in raw:
        if not isinstance(raw["opener"], str) or raw["opener"] not in players:
            raise fail(f"unknown opener {raw['opener']!r}; players: {', '.join(players)}")
        out["opener"] = raw["opener"]
    if "dice" not in raw:
        raise fail("the round has no 'dice'")
    dice = raw["dice"]
    if not isinstance(dice, Mapping):
        raise fail("'dice' maps each player to the faces they rolled")
    for name, faces in dice.items():
        if name not in players:
            raise fail(f"unknown player {name!r} in dice; players: {', '.join(players)}")
        if not _int_list(faces):
            raise fail(f"{name}'s dice must be a list of faces, not {faces!r}")
        for face in faces:
            if not 1 <= face <= rules.faces:
                raise fail(f"{name}'s dice: {face} is not a face 1..{rules.faces}")
    out["dice"] = {name: list(dice[name]) for name in players if name in dice}
    if "stash" in raw:
        stash = raw["stash"]
        if rules.stash is Stash.NONE:
            raise fail("these rules have no stash, but the round lists stash dice")
        if not _int_list(stash):
            raise fail(f"'stash' must be a list of faces, not {stash!r}")
        for face in stash:
            if not 1 <= face <= rules.faces:
                raise fail(f"stash dice: {face} is not a face 1..{rules.faces}")
        out["stash"] = list(stash)
    elif rules.stash is not Stash.NONE:
        raise fail(f"these rules have a {rules.stash.value} stash: the round needs 'stash' dice")
    if "moves" not in raw:
        raise fail("the round has no 'moves' (an empty list if nobody moved yet)")
    moves = raw["moves"]
    if not isinstance(moves, list):
        raise fail("'moves' must be a list")
    out["moves"] = [_load_move(mv, r, m, players) for m, mv in enumerate(moves)]
    if "fair" in raw:  # optional provably-fair seeds (docs/RECORD.md); checked by `verify`
        if not isinstance(raw["fair"], Mapping):
            raise fail(f"'fair' must be an object, not {raw['fair']!r}")
        out["fair"] = dict(raw["fair"])
    return out


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
    if not _is_int(version) or version != VERSION:
        raise RecordError(
            f"unsupported record version {version!r}; this reader knows version {VERSION}"
        )
    unknown = set(data) - set(_TOP_KEYS)
    if unknown:
        raise RecordError(f"unknown record key(s): {', '.join(sorted(map(str, unknown)))}")
    for key in ("rules", "players", "rounds"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")


def load_record(source: Source) -> Record:
    """Read and check a record (JSON text or already-parsed data); returns a normalized copy.

    The structure, types, version, rules, options and player names are checked here;
    :func:`replay_record` checks the moves against the rules. Normalization: ``options`` is
    always present, dice are listed in seat order; nothing else is added or dropped. A
    poker-dice record (``"rules": "poker-dice"``) is read by
    :func:`liarsdice.notation.poker_record.load_poker_record`.
    """
    data = read_source(source)
    if _is_poker(data):
        from liarsdice.notation.poker_record import load_poker_record

        return load_poker_record(data)
    check_header(data)
    rules = record_rules(data)
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RecordError("'players' must be a list of non-empty names")
    if len(set(players)) != len(players):
        raise RecordError("player names must be distinct")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RecordError(f"a game needs {MIN_PLAYERS}..{MAX_PLAYERS} players, not {len(players)}")
    try:
        rules.start_dice(len(players))
    except RulesError as err:
        raise RecordError(str(err)) from None
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    return {
        "liarsdice": VERSION,
        "rules": data["rules"],
        "options": copy.deepcopy(dict(data.get("options", {}))),
        "players": list(players),
        "rounds": [_load_round(rnd, r, players, rules) for r, rnd in enumerate(rounds)],
    }


def dumps_record(record: Mapping[str, Any]) -> str:
    """Write a record (either family) as compact, readable JSON: the header, then one line per
    move.

    >>> print(dumps_record({"liarsdice": 1, "rules": "classic", "players": ["a", "b"],
    ...                     "rounds": [{"opener": "a", "dice": {"a": [3], "b": [5]},
    ...                                 "moves": [{"player": "a", "bid": "1x3"}]}]}))
    {"liarsdice": 1, "rules": "classic", "options": {},
     "players": ["a", "b"],
     "rounds": [
      {"opener": "a", "dice": {"a": [3], "b": [5]},
       "moves": [
        {"player": "a", "bid": "1x3"}]}]}
    """
    rec = load_record(record)

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


# ---------------------------------------------------------------------------------- writing
def _rules_fields(rules: Rules) -> tuple[str, dict[str, Any]]:
    if rules.name in PRESETS:
        return rules.name, rules.diff(PRESETS[rules.name])
    return CUSTOM, {k: v for k, v in rules.options().items() if k != "name"}


def record_from_state(state: State | PokerState) -> Record:
    """The record of everything that happened up to ``state`` (walks its event log).

    A :class:`~liarsdice.core.poker.PokerState` gets a poker-dice record
    (:func:`liarsdice.notation.poker_record.poker_record_from_state`).

    Every round gets its ``opener``. What the format cannot hold is normalized: chance events
    of a roll still in progress are left out (the record ends at the last complete roll), the
    roll-off or draw for the first opener is summed up by round 0's ``opener``, and a house-rule
    question asked in the middle of a move (during a roll or the first-opener roll-off, or
    between a bid and its show) is written after that move, or before it when the record ends
    in the middle of that move.
    """
    if isinstance(state, PokerState):
        from liarsdice.notation.poker_record import poker_record_from_state

        return poker_record_from_state(state)
    game = state.game
    names = game.names
    rules = game.rules
    before = rules.show_reroll is ShowReroll.BEFORE
    rules_name, options = _rules_fields(rules)
    rounds: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    move: dict[str, Any] | None = None  # the move still taking chance faces or a show
    deferred: list[dict[str, Any]] = []  # questions asked in the middle of a move or roll
    roll: list[int] = []
    rolling = False
    declined: dict[str, Any] | None = None  # the bid move whose show was declined last

    def flush() -> None:
        moves.extend(deferred)
        deferred.clear()

    s = game.new_initial_state()
    for player, action in state.history():
        phase = s.phase
        if isinstance(action, str):
            ask = {"player": names[player], "ask": action}
            if s.current_player == CHANCE or phase is Phase.SHOW:
                deferred.append(ask)
            else:
                flush()
                move = None
                moves.append(ask)
        elif player == CHANCE:
            if phase is Phase.ROLL:
                if not rolling:
                    rolling, roll = True, []
                roll.append(action)
                if len(roll) == s.table.cap:
                    rolling = False
                    t = s.table
                    dice: dict[str, list[int]] = {}
                    i = 0
                    for seat, k in enumerate(t.dice):
                        if k:
                            dice[names[seat]] = roll[i : i + k]
                            i += k
                    moves = []
                    rnd: dict[str, Any] = {"opener": names[t.opener], "dice": dice}
                    if rules.stash is not Stash.NONE:
                        rnd["stash"] = roll[i:]
                    rnd["moves"] = moves
                    rounds.append(rnd)
                    move = None
                    flush()
            elif phase is Phase.REROLL and move is not None:
                move["reroll"].append(action)
            elif phase is Phase.BUY_ROLL and move is not None:
                move["buy"].append(action)
        else:
            name = names[player]
            declined = None
            shown = game.action_shown(action)
            bid = game.action_bid(action)
            if phase is Phase.SHOW and move is not None:
                if action == NO_SHOW:
                    declined = move
                else:
                    move["show"] = list(shown or ())
                    move["reroll"] = []
            elif (
                bid is not None
                and move is not None
                and not deferred
                and move["player"] == name
                and "show" in move
                and "bid" not in move
                and not before
            ):
                move["bid"] = str(bid)
            else:
                flush()
                if action in (LIAR, EXACT):
                    move = {"player": name, "call": "liar" if action == LIAR else "exact"}
                elif action == BUY:
                    move = {"player": name, "buy": []}
                elif shown is not None:
                    move = {"player": name, "show": list(shown), "reroll": []}
                else:
                    move = {"player": name, "bid": str(bid)}
                moves.append(move)
        s = s.apply_event(player, action)
    if s.phase in (Phase.SHOW, Phase.REROLL, Phase.BUY_ROLL) and move is not None:
        # The last move is unfinished: questions asked meanwhile go before it, so that the
        # replay still ends in the middle of that move.
        at = next(i for i, mv in enumerate(moves) if mv is move)
        moves[at:at] = deferred
    elif rounds and s.phase not in (Phase.SETUP, Phase.ROLL):
        flush()
    if declined is not None and moves and moves[-1] is declined:
        declined["show"] = []
    return {
        "liarsdice": VERSION,
        "rules": rules_name,
        "options": options,
        "players": list(names),
        "rounds": rounds,
    }


# ---------------------------------------------------------------------------------- replaying
class _Replayer:
    """Applies a loaded record to the engine, move by move; ``state`` is the latest state."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.rules = record_rules(rec)
        self.names: list[str] = rec["players"]
        self.seats = {name: seat for seat, name in enumerate(self.names)}
        self.state: State | None = None

    def run(self) -> State:
        rounds = self.rec["rounds"]
        opener: int | None = None
        if rounds and "opener" in rounds[0]:
            opener = self.seats[rounds[0]["opener"]]
        elif rounds and self.rules.first_opener is not FirstOpener.GIVEN:
            raise RecordError(
                "round 0 needs an 'opener': these rules choose the first opener by chance "
                f"(first_opener {self.rules.first_opener.value})",
                round=0,
            )
        try:
            game = Game(self.rules, self.names, opener=opener)
        except RulesError as err:
            raise RecordError(str(err)) from None
        self.game = game
        self.state = game.new_initial_state()
        total = sum(len(rnd["moves"]) for rnd in rounds)
        done = 0
        for r, rnd in enumerate(rounds):
            self._start_round(r, rnd)
            for m, move in enumerate(rnd["moves"]):
                done += 1
                self._move(r, m, move, last=done == total)
        return self.state

    # -------------------------------------------------------------------- helpers
    def _now(self) -> State:
        assert self.state is not None
        return self.state

    def _apply(self, action: int, r: int, m: int | None) -> None:
        try:
            self.state = self._now().apply_action(action)
        except IllegalActionError as err:
            raise RecordError(str(err), round=r, move=m) from None

    def _start_round(self, r: int, rnd: dict[str, Any]) -> None:
        s = self._now()
        if s.phase is Phase.OVER:
            raise RecordError("the game is already over: no more rounds", round=r)
        if s.round != r or s.phase is not Phase.ROLL:
            raise RecordError(
                "the previous round is not over (no call ended it), but the record goes on",
                round=r - 1 if r else 0,
            )
        t = s.table
        if "opener" in rnd and self.seats[rnd["opener"]] != t.opener:
            raise RecordError(
                f"the opener is {self.names[t.opener]} under these rules, not {rnd['opener']}",
                round=r,
            )
        faces: list[int] = []
        dice = rnd["dice"]
        for seat, count in enumerate(t.dice):
            name = self.names[seat]
            got = dice.get(name)
            if count == 0:
                if got:
                    raise RecordError(f"{name} is out of the game but has dice listed", round=r)
                continue
            if got is None:
                raise RecordError(f"no dice listed for {name} ({count} dice)", round=r)
            if len(got) != count:
                raise RecordError(
                    f"{name} has {count} dice but the record lists {len(got)}", round=r
                )
            faces.extend(got)
        if self.rules.stash is not Stash.NONE:
            size = len(t.active())
            if len(rnd["stash"]) != size:
                raise RecordError(
                    f"the stash has {size} dice but the record lists {len(rnd['stash'])}",
                    round=r,
                )
            faces.extend(rnd["stash"])
        for face in faces:
            self._apply(face, r, None)

    def _rolls(self, r: int, m: int, faces: list[int], need: int, what: str, end: bool) -> None:
        if len(faces) > need or (len(faces) < need and not end):
            raise RecordError(
                f"{what} {need} {'die' if need == 1 else 'dice'} but the record lists {len(faces)}",
                round=r,
                move=m,
            )
        for face in faces:
            self._apply(face, r, m)

    def _show(self, r: int, m: int, name: str, move: dict[str, Any], end: bool) -> None:
        s = self._now()
        seat = self.seats[name]
        try:
            action = self.game.show_action(move["show"])
        except IllegalActionError as err:
            raise RecordError(str(err), round=r, move=m) from None
        hidden = len(s.hand(seat))
        self._apply(action, r, m)
        need = hidden - len(move["show"])
        self._rolls(r, m, move.get("reroll", []), need, f"{name} re-rolls", end)

    def _bid(self, r: int, m: int, text: str) -> None:
        try:
            bid = parse_bid(text, faces=self.rules.faces)
            action = self.game.bid_action(bid)
        except (NotationError, IllegalActionError) as err:
            raise RecordError(str(err), round=r, move=m) from None
        self._apply(action, r, m)

    def _move(self, r: int, m: int, move: dict[str, Any], last: bool) -> None:
        s = self._now()
        name = move["player"]
        seat = self.seats[name]
        if s.phase is Phase.OVER:
            raise RecordError("the game is over", round=r, move=m)
        if s.round != r:
            raise RecordError(
                "the round is already over: this move belongs to the next round",
                round=r,
                move=m,
            )
        if "ask" in move:
            if s.table.dice[seat] == 0:
                raise RecordError(f"{name} is out of the game", round=r, move=m)
            try:
                self.state = s.ask(seat, move["ask"])
            except IllegalActionError as err:
                raise RecordError(str(err), round=r, move=m) from None
            return
        if s.current_player != seat:
            who = self.names[s.current_player] if s.current_player >= 0 else "nobody"
            raise RecordError(f"it is {who}'s turn, not {name}'s", round=r, move=m)
        if "call" in move:
            self._apply(_CALLS[move["call"]], r, m)
        elif "buy" in move:
            self._apply(BUY, r, m)
            self._rolls(r, m, move["buy"], 1, f"{name} buys", last)
        elif self.rules.show_reroll is ShowReroll.BEFORE:
            self._before(r, m, name, move, last)
        else:
            if "show" in move:
                self._show(r, m, name, move, last and "bid" not in move)
            if "bid" in move:
                self._bid(r, m, move["bid"])

    def _before(self, r: int, m: int, name: str, move: dict[str, Any], last: bool) -> None:
        if "bid" not in move:
            raise RecordError(
                "with show-and-reroll 'before', a show goes in the move of the bid it follows",
                round=r,
                move=m,
            )
        self._bid(r, m, move["bid"])
        s = self._now()
        if s.phase is not Phase.SHOW:
            if "show" in move:
                raise RecordError(
                    f"{name} may not show after this bid (an opening bid, or fewer than two "
                    "hidden dice)",
                    round=r,
                    move=m,
                )
            return
        if "show" not in move:
            if not last:
                self._apply(NO_SHOW, r, m)
        elif not move["show"]:
            self._apply(NO_SHOW, r, m)
        else:
            self._show(r, m, name, move, last)


def replay_partial(
    record: Source,
) -> tuple[State | PokerState | None, RecordError | None]:
    """Replay as far as the record is legal: the last good state and the error, if any.

    The state is None when the record could not be read or its game could not be set up. A
    poker-dice record replays to a :class:`~liarsdice.core.poker.PokerState`.
    """
    try:
        rec = load_record(record)
        if _is_poker(rec):
            from liarsdice.notation.poker_record import replay_poker_partial

            return replay_poker_partial(rec)
        replayer = _Replayer(rec)
    except RecordError as err:
        return None, err
    try:
        return replayer.run(), None
    except RecordError as err:
        return replayer.state, err


def replay_record(record: Source) -> State | PokerState:
    """Replay a record move by move; the state after its last move (a
    :class:`~liarsdice.core.poker.PokerState` for a poker-dice record).

    Raises :class:`~liarsdice.core.errors.RecordError` with ``round`` and ``move`` (0-based;
    ``move`` None when the round itself is wrong) at the first thing that is not legal.
    """
    state, error = replay_partial(record)
    if error is not None:
        raise error
    assert state is not None
    return state


# ---------------------------------------------------------------------------------- summary
def summarize_result(game: Game, result: RoundResult) -> dict[str, Any]:
    """One round's outcome with names: the ``rounds`` items of :func:`replay_summary`."""
    names = game.names
    rules = game.rules
    out: dict[str, Any] = {
        "bid": str(result.bid),
        "count": result.count,
        "call": result.call,
        "caller": names[result.caller],
        "bidder": names[result.bidder],
        "losses": {names[p]: k for p, k in sorted(result.losses.items())},
    }
    if result.gains:
        out["gains"] = {names[p]: k for p, k in sorted(result.gains.items())}
    out["dice"] = {names[p]: k for p, k in enumerate(result.dice)}
    if rules.economy is not Economy.NONE and result.chips is not None:
        out["chips"] = {names[p]: c for p, c in enumerate(result.chips)}
        out["game_pot"] = result.game_pot
    if rules.calling_advantage:
        out["pile"] = result.pile
    if rules.scoring is Scoring.ROOM and result.scores is not None:
        out["scores"] = {names[p]: v for p, v in enumerate(result.scores)}
    out["next_opener"] = None if result.next_opener is None else names[result.next_opener]
    return out


def _error_object(err: RecordError) -> dict[str, Any]:
    return {"round": err.round, "move": err.move, "message": err.message}


def replay_summary(record: Source) -> dict[str, Any]:
    """Check a record and sum it up: the ``liarsdice replay --json`` output.

    ``{"ok": true, "rounds": [...], "winner": name or null}`` for a legal record (an unfinished
    game has winner null), ``{"ok": false, "error": {"round", "move", "message"}}`` otherwise.
    Poker-dice rounds are summed up by
    :func:`liarsdice.notation.poker_record.summarize_poker_result`.
    """
    state, error = replay_partial(record)
    if error is not None:
        return {"ok": False, "error": _error_object(error)}
    assert state is not None
    if isinstance(state, PokerState):
        from liarsdice.notation.poker_record import summarize_poker_result

        rounds = [summarize_poker_result(state.game, res) for res in state.results]
        names = state.game.names
    else:
        rounds = [summarize_result(state.game, res) for res in state.results]
        names = state.game.names
    winner = state.winner
    return {"ok": True, "rounds": rounds, "winner": None if winner is None else names[winner]}
