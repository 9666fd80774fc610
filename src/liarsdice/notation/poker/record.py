"""The JSON game record (version 1) of the poker-dice family, and its replay.

Same top level as the bidding family's record (:mod:`liarsdice.notation.bidding.record`), with
``"rules": "poker-dice"``; each round holds its opener, Player One's roll and the moves, and
every chance roll is written down so that a game replays exactly. Faces are the strings
``"9" "10" "J" "Q" "K" "A"``. ``docs/RECORD.md`` ("Poker dice") documents every key. The
functions here have the names of their twins in :mod:`liarsdice.notation.bidding.record`; those
of :mod:`liarsdice.families` (``load_record``, ``replay_record``, ``replay_summary``,
``record_from_state``, ``dumps_record``) read records of any family.

>>> record = {"liarsdice": 1, "rules": "poker-dice", "players": ["ann", "bob", "cy"],
...  "rounds": [{"opener": "ann", "roll": ["K", "K", "9", "Q", "A"],
...              "moves": [{"player": "ann", "bid": "pair K", "pass": "left"},
...                        {"player": "bob", "accept": True, "out": ["9", "K", "K"],
...                         "shake": True, "reroll": ["9"], "rolled": ["Q", "Q", "J"],
...                         "bid": "two pair K Q"},
...                        {"player": "cy", "call": "liar"}]}]}
>>> summary = replay_summary(record)
>>> rnd = summary["rounds"][0]
>>> rnd["hand"], rnd["stood"], rnd["losses"], rnd["lives"]
(['K', 'K', 'Q', 'Q', 'J'], True, {'cy': 1}, {'ann': 3, 'bob': 3, 'cy': 2})
>>> state = replay_record(record)
>>> record_from_state(state) == load_record(record)
True
>>> record["rounds"][0]["moves"][1]["bid"] = "pair Q"
>>> replay_summary(record)["error"]["message"]
'pair Q does not beat pair K; least legal bids: pair K 9, pair K 10, pair K 10 9, pair K J'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from liarsdice.core.bidding.game import CHANCE
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.poker.game import ACCEPT, LEFT, LIAR, RIGHT, PokerGame
from liarsdice.core.poker.hands import (
    FACE_SYMBOLS,
    Category,
    format_face,
    format_poker_bid,
    parse_poker_bid,
)
from liarsdice.core.poker.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    POKER_OPTIONS,
    POKER_PRESETS,
    PokerRules,
)
from liarsdice.core.poker.state import FIVE_ROLLS, Phase, PokerRoundResult, PokerState
from liarsdice.notation import common
from liarsdice.notation.common import Fail, JSONObject, LoadedRecord, Replayer, Source, loaded
from liarsdice.notation.grammar import clause

__all__ = [
    "FAMILY",
    "POKER_RULES",
    "describe_poker_result",
    "dumps_record",
    "is_poker_record",
    "load_record",
    "record_from_state",
    "replay_moves",
    "replay_partial",
    "replay_record",
    "replay_summary",
    "summarize_result",
]

POKER_RULES = frozenset(POKER_PRESETS)
"""The ``"rules"`` values of poker-dice records (the names of :data:`POKER_PRESETS`)."""

_ROUND_KEYS = ("opener", "roll", "moves", "fair")
_ACCEPT_KEYS = frozenset({"out", "shake", "reroll", "rolled", "bid", "attempts"})
_PASSES = {"left": LEFT, "right": RIGHT}
_FACE_LIST = ", ".join(f'"{f}"' for f in FACE_SYMBOLS)


def is_poker_record(data: object) -> bool:
    """Whether parsed record data names poker-dice rules (``"rules": "poker-dice"``)."""
    return isinstance(data, Mapping) and data.get("rules") in POKER_RULES


# ------------------------------------------------------------------------------------ loading
def _rules_from(name: str, options: Mapping[str, Any]) -> PokerRules:
    if "name" in options:
        raise RecordError("'name' is not an option: the record's 'rules' key names the rules")
    try:
        return POKER_PRESETS[name].replace(**POKER_OPTIONS.read_json(options, exact=True))
    except RulesError as err:
        raise RecordError(str(err)) from None


def record_rules(record: Mapping[str, Any]) -> PokerRules:
    """The :class:`PokerRules` a poker record names: its preset with its options."""
    name = record.get("rules")
    if not isinstance(name, str) or name not in POKER_RULES:
        raise RecordError(f"not a poker-dice record: rules {name!r}")
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object of option names to values")
    return _rules_from(name, options)


def _faces(value: object, what: str, fail: Fail) -> list[str]:
    """Check a JSON list of face strings; ``fail`` builds the located error."""
    if not isinstance(value, list):
        raise fail(f"{what} is a list of faces ({_FACE_LIST}), not {value!r}")
    for face in value:
        if face not in FACE_SYMBOLS:
            raise fail(f"{what}: {face!r} is not a face; faces are the strings {_FACE_LIST}")
    return list(value)


def _typed(raw: Mapping[str, Any], key: str, kind: type, what: str, fail: Fail) -> Any:
    """``raw[key]`` when it is a ``kind``; else the error saying it must be ``what``."""
    value = raw[key]
    if not isinstance(value, kind):
        raise fail(f"'{key}' is {what}, not {value!r}")
    return value


def _load_attempt(raw: object, i: int, fail: Fail) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise fail(f"attempt {i + 1} is an object with 'keep' and 'rolled', not {raw!r}")
    unknown = set(raw) - {"keep", "rolled"}
    if unknown:
        raise fail(f"unknown key(s) in attempt {i + 1}: {', '.join(sorted(unknown))}")
    if "keep" not in raw:
        raise fail(f"attempt {i + 1} has no 'keep' (the dice kept; [] for none)")
    out = {"keep": _faces(raw["keep"], f"attempt {i + 1}: 'keep'", fail)}
    if "rolled" in raw:
        out["rolled"] = _faces(raw["rolled"], f"attempt {i + 1}: 'rolled'", fail)
    return out


def _load_call(raw: Mapping[str, Any], keys: set[str], fail: Fail) -> dict[str, Any]:
    if keys != {"call"}:
        raise fail(f"a call move has no other keys (found {', '.join(sorted(keys - {'call'}))})")
    if raw["call"] != "liar":
        raise fail(f"the only call is 'liar', not {raw['call']!r}")
    return {"call": "liar"}


def _load_challenge(raw: Mapping[str, Any], keys: set[str], fail: Fail) -> list[Any]:
    """The ``attempts`` of an accept move that takes up a five-of-a-kind challenge."""
    others = keys & (_ACCEPT_KEYS - {"attempts"})
    if others:
        raise fail(
            "a five-of-a-kind challenge lists only its 'attempts' "
            f"(found {', '.join(sorted(others))})"
        )
    attempts = raw["attempts"]
    if not isinstance(attempts, list):
        raise fail(f"'attempts' is a list of {{keep, rolled}} objects, not {attempts!r}")
    return [_load_attempt(a, i, fail) for i, a in enumerate(attempts)]


def _load_accept(raw: Mapping[str, Any], keys: set[str], fail: Fail) -> dict[str, Any]:
    if raw["accept"] is not True:
        raise fail(f"'accept' is true (leave it out to make another move), not {raw['accept']!r}")
    unknown = keys - _ACCEPT_KEYS - {"accept"}
    if unknown:
        raise fail(f"unknown accept move key(s): {', '.join(sorted(unknown))}")
    move: dict[str, Any] = {"accept": True}
    if "attempts" in keys:
        move["attempts"] = _load_challenge(raw, keys, fail)
        return move
    if "out" in keys:
        move["out"] = _faces(raw["out"], "'out'", fail)
    if "shake" in keys:
        move["shake"] = _typed(raw, "shake", bool, "true or false", fail)
        move["reroll"] = _faces(raw.get("reroll", []), "'reroll'", fail)
    elif "reroll" in keys:
        raise fail("'reroll' comes with 'shake' (true or false)")
    if "rolled" in keys:
        move["rolled"] = _faces(raw["rolled"], "'rolled'", fail)
    if "bid" in keys:
        move["bid"] = _typed(raw, "bid", str, 'a string such as "pair K"', fail)
    return move


def _load_bid(raw: Mapping[str, Any], keys: set[str], fail: Fail) -> dict[str, Any]:
    unknown = keys - {"bid", "pass"}
    if unknown:
        raise fail(f"unknown move key(s): {', '.join(sorted(unknown))}")
    if "bid" not in keys:
        raise fail("a move needs one of bid, call or accept")
    if not isinstance(raw["bid"], str):
        raise fail(f"'bid' is a string such as \"pair K\", not {raw['bid']!r}")
    move: dict[str, Any] = {"bid": raw["bid"]}
    if "pass" in keys:
        if raw["pass"] not in _PASSES:
            raise fail(f"'pass' is 'left' or 'right', not {raw['pass']!r}")
        move["pass"] = raw["pass"]
    return move


def _load_move(data: object, r: int, m: int, players: list[str]) -> dict[str, Any]:
    fail = common.failer(r, m)
    raw, player, keys = common.load_move_player(data, players, fail)
    if "call" in keys:
        rest = _load_call(raw, keys, fail)
    elif "accept" in keys:
        rest = _load_accept(raw, keys, fail)
    else:
        rest = _load_bid(raw, keys, fail)
    return {"player": player, **rest}


def _roll_of(raw: Mapping[str, Any], fail: Fail) -> dict[str, Any]:
    if "roll" not in raw:
        raise fail("the round has no 'roll' (Player One's five dice)")
    roll = _faces(raw["roll"], "the roll", fail)
    if len(roll) != 5:
        raise fail(f"the roll is five dice, but the record lists {len(roll)}")
    return {"roll": roll}


def _load_round(raw: object, r: int, players: list[str], rules: PokerRules) -> dict[str, Any]:
    return common.load_round_with(raw, r, players, _ROUND_KEYS, _roll_of, _load_move)


FAMILY = "poker"
"""The family these records belong to (:attr:`LoadedRecord.family`)."""


def load_record(source: Source) -> LoadedRecord[PokerRules]:
    """Read and check a poker-dice record (JSON text or parsed data): the
    :class:`LoadedRecord`, with the rules it names and a normalized copy of the data.

    The structure, types, version, rules, options, player names and faces are checked here;
    :func:`replay_record` checks the moves against the rules. Normalization: ``options``
    is always present, and so is ``reroll`` (``[]``) in a move that has ``shake``.
    """
    return common.load_record_with(
        source, FAMILY, record_rules, (MIN_PLAYERS, MAX_PLAYERS), _load_round
    )


def dumps_record(record: Source | LoadedRecord[PokerRules]) -> str:
    """Write a poker-dice record as compact, readable JSON: the header, then one line per move.

    >>> print(dumps_record({"liarsdice": 1, "rules": "poker-dice", "players": ["a", "b"],
    ...                           "rounds": []}))
    {"liarsdice": 1, "rules": "poker-dice", "options": {},
     "players": ["a", "b"],
     "rounds": []}
    """
    return common.write_record(loaded(record, load_record).data)


# ---------------------------------------------------------------------------------- writing
def _symbols(faces: Iterable[int]) -> list[str]:
    return [format_face(f) for f in faces]


def _rules_fields(rules: PokerRules) -> tuple[str, dict[str, Any]]:
    name = rules.name if rules.name in POKER_PRESETS else "poker-dice"
    base = POKER_PRESETS[name].options()
    return name, {k: v for k, v in rules.options().items() if k != "name" and v != base[k]}


def _bid_text(game: PokerGame, action: int) -> str:
    bid = game.action_bid(action)
    assert bid is not None
    return format_poker_bid(bid)


def _is_challenge(state: PokerState) -> bool:
    """Whether accepting the current bid starts a five-of-a-kind challenge."""
    bid = state.current_bid
    return (
        bid is not None and bid.category is Category.FIVE and state.game.rules.five_of_a_kind_rule
    )


def record_from_state(state: PokerState) -> LoadedRecord[PokerRules]:
    """The record of everything that happened up to ``state`` (walks its event log).

    Every round gets its ``opener``. A round appears once Player One's five dice are rolled
    (the chance events of a roll still under way are left out); re-rolls in the middle of a
    move are written as far as they went. A poker game whose rules are not named after a
    preset is written as ``poker-dice`` with its options.
    """
    game = state.game
    names = game.names
    rules_name, options = _rules_fields(game.rules)
    rounds: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    move: dict[str, Any] = {}
    roll: list[int] = []
    s = game.new_initial_state()
    for player, action in state.history():
        phase = s.phase
        if player == CHANCE:
            face = format_face(action)
            if phase is Phase.ROLL:
                roll.append(action)
                if len(roll) == 5:
                    moves = []
                    rounds.append(
                        {"opener": names[s.opener], "roll": _symbols(roll), "moves": moves}
                    )
                    roll = []
            elif phase is Phase.REROLL:
                move.setdefault("rolled", []).append(face)
            else:  # Phase.FIVE_ROLL
                move["attempts"][-1].setdefault("rolled", []).append(face)
        else:
            name = names[player]
            if phase is Phase.BID:
                bid = _bid_text(game, action)
                if s.bid < 0:
                    move = {"player": name, "bid": bid}
                    moves.append(move)
                else:
                    move["bid"] = bid
            elif phase is Phase.PASS:
                move["pass"] = "left" if action == LEFT else "right"
            elif phase is Phase.RESPOND:
                if action == LIAR:
                    move = {"player": name, "call": "liar"}
                else:
                    move = {"player": name, "accept": True}
                    if _is_challenge(s):
                        move["attempts"] = []
                moves.append(move)
            elif phase is Phase.ARRANGE:
                move["out"] = _symbols(game.action_arranged(action) or ())
            elif phase is Phase.SHAKE:
                shake, rerolled = game.action_roll(action) or (False, ())
                move["shake"] = shake
                move["reroll"] = _symbols(rerolled)
            else:  # Phase.KEEP
                kept = game.action_kept(action) or ()
                move["attempts"].append({"keep": _symbols(kept)})
        s = s.apply_event(player, action)
    rules = game.rules
    named = rules if rules.name == rules_name else rules.replace(name=rules_name)
    return LoadedRecord(FAMILY, named, common.record_header(rules_name, options, names, rounds))


# ---------------------------------------------------------------------------------- replaying
def _ints(faces: Iterable[str]) -> list[int]:
    return [FACE_SYMBOLS.index(f) + 1 for f in faces]


class _Replayer(Replayer[PokerState, PokerRules]):
    """Applies a loaded poker record to the engine, move by move; ``state`` is the latest."""

    over = Phase.OVER
    roll = Phase.ROLL

    def new_game(self, opener: int | None) -> PokerGame:
        return PokerGame(self.rules, self.names, opener=opener)

    def opener(self, state: PokerState) -> int:
        return state.opener

    def deal(self, r: int, rnd: dict[str, Any]) -> None:
        for face in _ints(rnd["roll"]):
            self._apply(face, r, None)

    def _action(
        self, make: Callable[[list[int]], int], faces: list[str], what: str, r: int, m: int
    ) -> int:
        """The action ``make(faces)`` (an arrange, roll or keep action), located on failure."""
        if len(faces) > 5:
            raise RecordError(
                f"{what} lists {len(faces)} dice: there are only five", round=r, move=m
            )
        return self._located(r, m, lambda: make(_ints(faces)))

    def _bid(self, r: int, m: int, text: str) -> None:
        self._apply(self._located(r, m, lambda: self.game.bid_action(parse_poker_bid(text))), r, m)

    def move(self, r: int, m: int, move: dict[str, Any], last: bool) -> None:
        self._check_move(r, m)
        s = self._now()
        name = move["player"]
        self._check_turn(r, m, name)
        if "call" in move:
            self._apply(LIAR, r, m)
        elif "accept" in move:
            challenge = _is_challenge(s)
            self._apply(ACCEPT, r, m)
            if challenge:
                self._challenge(r, m, name, move, last, str(s.current_bid))
            else:
                self._accept(r, m, name, move, last)
        else:
            self._bid(r, m, move["bid"])
            if self._now().phase is Phase.PASS:
                if "pass" in move:
                    self._apply(_PASSES[move["pass"]], r, m)
                elif not last:
                    raise RecordError(
                        f"{name} passes the cup after the opening bid: the move needs 'pass' "
                        "('left' or 'right')",
                        round=r,
                        move=m,
                    )
            elif "pass" in move:
                raise RecordError(
                    "no 'pass' here: the cup is passed left or right only after the opening "
                    "bid, with three or more players in the game",
                    round=r,
                    move=m,
                )

    def _accept(self, r: int, m: int, name: str, move: dict[str, Any], last: bool) -> None:
        if "attempts" in move:
            raise RecordError(
                "'attempts' are for accepting a five-of-a-kind bid under five_of_a_kind_rule",
                round=r,
                move=m,
            )
        steps = [
            ("out", "'out' (the dice left outside the cup; [] for none)"),
            ("shake", "'shake' (whether the cup is shaken; true or false)"),
            ("rolled", "'rolled' (what the rolled dice came up as)"),
            ("bid", "'bid' (the raise)"),
        ]
        need = 0
        for i, (key, what) in enumerate(steps):
            later = [k for k, _ in steps[i + 1 :] if k in move]
            if key == "rolled":
                s = self._now()
                if not s.is_chance_node():
                    if "rolled" in move:
                        raise RecordError(
                            "nothing was rolled (no shake, no reroll): the move has no 'rolled'",
                            round=r,
                            move=m,
                        )
                    continue
            if key not in move:
                if later:
                    raise RecordError(f"the move has {later[0]!r} but no {what}", round=r, move=m)
                if last:
                    return
                raise RecordError(
                    f"{name}'s move stops before its {what}: only the record's last move may "
                    "be unfinished",
                    round=r,
                    move=m,
                )
            if key == "out":
                self._apply(
                    self._action(self.game.arrange_action, move["out"], "'out'", r, m), r, m
                )
            elif key == "shake":
                cup = len(self._now().cup)
                action = self._action(
                    lambda faces: self.game.roll_action(move["shake"], faces),
                    move["reroll"],
                    "'reroll'",
                    r,
                    m,
                )
                self._apply(action, r, m)
                need = (cup if move["shake"] else 0) + len(move["reroll"])
            elif key == "rolled":
                done = self._rolls(
                    r, m, _ints(move["rolled"]), need, f"{name} rolls", last and not later
                )
                if not done:
                    return
            else:
                self._bid(r, m, move["bid"])

    def _challenge(
        self, r: int, m: int, name: str, move: dict[str, Any], last: bool, bid: str
    ) -> None:
        if (_ACCEPT_KEYS - {"attempts"}) & set(move):
            raise RecordError(
                f"accepting {bid} is a five-of-a-kind challenge: the move lists its 'attempts', "
                "not 'out', 'shake' or 'bid'",
                round=r,
                move=m,
            )
        attempts: list[dict[str, Any]] = move.get("attempts", [])
        for i, attempt in enumerate(attempts):
            s = self._now()
            if s.phase is not Phase.KEEP:
                made = len(s.results[-1].attempts)
                how = (
                    "the dice already showed five of a kind"
                    if made == 0
                    else f"it ended after {made} roll{'s' if made > 1 else ''}"
                )
                raise RecordError(
                    f"the five-of-a-kind challenge is over ({how}), but the record lists "
                    f"{len(attempts)} attempt{'s' if len(attempts) != 1 else ''}",
                    round=r,
                    move=m,
                )
            kept = attempt["keep"]
            what = f"attempt {i + 1}: 'keep'"
            self._apply(self._action(self.game.keep_action, kept, what, r, m), r, m)
            end = last and i == len(attempts) - 1
            if "rolled" not in attempt:
                if end:
                    return
                raise RecordError(
                    f"attempt {i + 1} has no 'rolled' (what the {5 - len(kept)} re-rolled dice "
                    "came up as)",
                    round=r,
                    move=m,
                )
            what = f"attempt {i + 1} re-rolls"
            if not self._rolls(r, m, _ints(attempt["rolled"]), 5 - len(kept), what, end):
                return
        s = self._now()
        if s.phase is Phase.KEEP and not last:
            made = len(s.attempts)
            raise RecordError(
                f"the five-of-a-kind challenge goes on ({made} of {FIVE_ROLLS} rolls made, no "
                f"five of a kind yet): {name}'s move needs another attempt",
                round=r,
                move=m,
            )
        if "attempts" not in move and not last:
            raise RecordError(
                "a five-of-a-kind challenge lists its 'attempts' ([] when the dice already "
                "show five of a kind)",
                round=r,
                move=m,
            )


def replay_partial(
    record: Source | LoadedRecord[PokerRules],
) -> tuple[PokerState | None, RecordError | None]:
    """Replay as far as the record is legal: the last good state and the error, if any.

    The state is None when the record could not be read or its game could not be set up.
    """
    return common.replay_partial_with(record, load_record, _Replayer)


def replay_record(record: Source | LoadedRecord[PokerRules]) -> PokerState:
    """Replay a poker record move by move; the state after its last move.

    Raises :class:`~liarsdice.core.errors.RecordError` with ``round`` and ``move`` (0-based;
    ``move`` None when the round itself is wrong) at the first thing that is not legal.
    """
    return common.replayed_state(replay_partial(record))


def replay_moves(
    record: Source | LoadedRecord[PokerRules],
) -> tuple[list[PokerState], PokerState]:
    """The state before each move of a poker record (one per move, in order) and the final
    state, or the record's first error raised (post-game analysis)."""
    return common.replay_moves_with(record, load_record, _Replayer)


# ---------------------------------------------------------------------------------- summary
def _hand(dice: Iterable[int]) -> list[str]:
    """Faces in reading order: the biggest group first, higher faces first."""
    dice = list(dice)
    counts = Counter(dice)
    return _symbols(sorted(dice, key=lambda f: (-counts[f], -f)))


def summarize_result(game: PokerGame, result: PokerRoundResult) -> JSONObject:
    """One round's outcome with names: the ``rounds`` items of :func:`replay_summary`."""
    names = game.names
    out: dict[str, Any] = {"bid": format_poker_bid(result.bid)}
    if result.call == "liar":
        out.update(call="liar", caller=names[result.caller], bidder=names[result.bidder])
        out.update(hand=_hand(result.hand), stood=result.stood)
    else:
        out.update(call="accept", accepter=names[result.caller], bidder=names[result.bidder])
        out["hand"] = _hand(result.hand)
        out["attempts"] = [_hand(a) for a in result.attempts]
        out["success"] = bool(result.success)
    out["losses"] = {} if result.loser is None else {names[result.loser]: 1}
    out["lives"] = {names[p]: k for p, k in enumerate(result.lives)}
    out["next_opener"] = None if result.next_opener is None else names[result.next_opener]
    return out


def describe_poker_result(summary: Mapping[str, Any]) -> str:
    """One line for a round's outcome (an item of ``replay_summary()["rounds"]``).

    >>> describe_poker_result({"bid": "two pair K Q", "call": "liar", "caller": "cy",
    ...     "bidder": "bob", "hand": ["K", "K", "Q", "Q", "J"], "stood": True,
    ...     "losses": {"cy": 1}, "lives": {"ann": 3, "bob": 3, "cy": 2}, "next_opener": "cy"})
    'hand K K Q Q J, the bid stands: cy loses a life | lives ann 3, bob 3, cy 2 | cy opens next'
    """
    parts: list[str] = []
    hand = " ".join(summary["hand"])
    losers = ", ".join(f"{clause(name, 'lose')} a life" for name in summary["losses"])
    if summary["call"] == "liar":
        verdict = "the bid stands" if summary["stood"] else "the bid was a lie"
        parts.append(f"hand {hand}, {verdict}: {losers}")
    else:
        rolls = "; ".join(" ".join(a) for a in summary["attempts"])
        made = "five of a kind made" if summary["success"] else "no five of a kind"
        head = f"hand {hand}" + (f", rolls {rolls}" if rolls else "")
        parts.append(f"{head}: {made}" + (f", {losers}" if losers else ", no life lost"))
    parts.append("lives " + ", ".join(f"{name} {k}" for name, k in summary["lives"].items()))
    opener = summary["next_opener"]
    parts.append("game over" if opener is None else f"{clause(opener, 'open')} next")
    return " | ".join(parts)


def replay_summary(record: Source | LoadedRecord[PokerRules]) -> JSONObject:
    """Check a poker record and sum it up: the ``liarsdice replay --json`` output."""
    return common.summary_with(replay_partial(record), summarize_result)
