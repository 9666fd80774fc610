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
>>> loaded = load_record(record)  # checked once: the rules are built here
>>> loaded.rules.name, loaded.players
('milton-bradley', ['ann', 'bob', 'cy'])
>>> summary = replay_summary(loaded)
>>> summary["rounds"][0]["count"], summary["rounds"][0]["losses"], summary["winner"]
(7, {'cy': 1}, None)
>>> state = replay_record(loaded)
>>> record_from_state(state) == loaded
True
>>> record["rounds"][0]["moves"][2] = {"player": "cy", "bid": "4x5"}
>>> replay_summary(record)["error"]
{'round': 0, 'move': 2, 'message': '4x5 does not beat 5x6; least legal bids: 3x1, 6x2, 6x3, 6x4'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BUY, CHANCE, EXACT, LIAR, NO_SHOW, Game
from liarsdice.core.bidding.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    PRESETS,
    Economy,
    FirstOpener,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
)
from liarsdice.core.bidding.state import Phase, Question, RoundResult, State
from liarsdice.core.errors import IllegalActionError, RecordError, RulesError
from liarsdice.notation.bidding.bids import parse_bid
from liarsdice.notation.common import (
    VERSION,
    Fail,
    JSONObject,
    LoadedRecord,
    Replayer,
    Source,
    check_header,
    failer,
    int_list,
    load_move_player,
    load_record_with,
    load_round_with,
    loaded,
    read_source,
    record_header,
    replay_moves_with,
    replay_partial_with,
    replayed_state,
    summary_with,
    write_record,
)

__all__ = [
    "CUSTOM",
    "FAMILY",
    "VERSION",
    "LoadedRecord",
    "Source",
    "check_header",
    "dumps_record",
    "load_record",
    "read_source",
    "record_from_state",
    "replay_moves",
    "replay_partial",
    "replay_record",
    "replay_summary",
    "summarize_result",
]

CUSTOM = "custom"
"""The ``"rules"`` value of a record whose rules are not a preset: every option is listed."""

_ROUND_KEYS = ("opener", "dice", "stash", "moves", "fair")
_CALLS = {"liar": LIAR, "exact": EXACT}
_QUESTIONS = (Question.TURN, Question.COUNT)


# ------------------------------------------------------------------------------------ loading
def _rules_from(name: object, options: Mapping[str, Any]) -> Rules:
    if not isinstance(name, str):
        raise RecordError(f"'rules' must be a preset name or {CUSTOM!r}, not {name!r}")
    if name == CUSTOM:
        base = Rules(name=CUSTOM)
    elif name in PRESETS:
        base = PRESETS[name]
    else:
        raise RecordError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)} (or {CUSTOM})")
    if "name" in options:
        raise RecordError("'name' is not an option: the record's 'rules' key names the rules")
    try:
        return base.replace(**OPTIONS.read_json(options, exact=True))
    except RulesError as err:
        raise RecordError(str(err)) from None


def record_rules(record: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` a record names: its preset (or the defaults) with its options."""
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object of option names to values")
    return _rules_from(record.get("rules"), options)


def _load_call(value: Any, fail: Fail) -> object:
    if value not in _CALLS:
        raise fail(f"a call is 'liar' or 'exact', not {value!r}")
    return value


def _load_ask(value: Any, fail: Fail) -> object:
    if value not in _QUESTIONS:
        raise fail(f"a question is 'turn' or 'count', not {value!r}")
    return value


def _load_buy(value: Any, fail: Fail) -> list[int]:
    if not int_list(value) or len(value) > 1:
        raise fail(f"'buy' lists the bought die's face, e.g. [4], not {value!r}")
    return list(value)


_SINGLES: dict[str, Callable[[Any, Fail], object]] = {
    "call": _load_call,
    "ask": _load_ask,
    "buy": _load_buy,
}
"""The moves that are one key besides ``player``, and the check of that key's value."""


def _load_show_and_bid(raw: Mapping[str, Any], keys: set[str], fail: Fail) -> dict[str, Any]:
    """A bid, a show (with its reroll), or both."""
    unknown = keys - {"bid", "show", "reroll"}
    if unknown:
        raise fail(f"unknown move key(s): {', '.join(sorted(unknown))}")
    if not keys & {"bid", "show"}:
        raise fail("a move needs one of bid, show, call, buy or ask")
    if "reroll" in keys and "show" not in keys:
        raise fail("'reroll' comes with a 'show'")
    move: dict[str, Any] = {}
    if "show" in keys:
        if not int_list(raw["show"]):
            raise fail(f"'show' lists the faces shown, not {raw['show']!r}")
        move["show"] = list(raw["show"])
        if "reroll" in keys:
            if not int_list(raw["reroll"]):
                raise fail(f"'reroll' lists the re-rolled faces, not {raw['reroll']!r}")
            if not raw["show"]:
                raise fail('a declined show ("show": []) has no reroll')
            move["reroll"] = list(raw["reroll"])
    if "bid" in keys:
        if not isinstance(raw["bid"], str):
            raise fail(f"'bid' is a string such as \"3x5\", not {raw['bid']!r}")
        move["bid"] = raw["bid"]
    return move


def _load_move(data: object, r: int, m: int, players: list[str]) -> dict[str, Any]:
    fail = failer(r, m)
    raw, player, keys = load_move_player(data, players, fail)
    single = next((key for key in _SINGLES if key in keys), None)
    if single is None:
        return {"player": player, **_load_show_and_bid(raw, keys, fail)}
    if keys != {single}:
        others = ", ".join(sorted(keys - {single}))
        raise fail(f"a {single} move has no other keys (found {others})")
    return {"player": player, single: _SINGLES[single](raw[single], fail)}


def _load_round(raw: object, r: int, players: list[str], rules: Rules) -> dict[str, Any]:
    def dice_of(raw: Mapping[str, Any], fail: Fail) -> dict[str, Any]:
        if "dice" not in raw:
            raise fail("the round has no 'dice'")
        dice = raw["dice"]
        if not isinstance(dice, Mapping):
            raise fail("'dice' maps each player to the faces they rolled")
        for name, faces in dice.items():
            if name not in players:
                raise fail(f"unknown player {name!r} in dice; players: {', '.join(players)}")
            if not int_list(faces):
                raise fail(f"{name}'s dice must be a list of faces, not {faces!r}")
            for face in faces:
                if not 1 <= face <= rules.faces:
                    raise fail(f"{name}'s dice: {face} is not a face 1..{rules.faces}")
        out: dict[str, Any] = {"dice": {name: list(dice[name]) for name in players if name in dice}}
        if "stash" in raw:
            stash = raw["stash"]
            if rules.stash is Stash.NONE:
                raise fail("these rules have no stash, but the round lists stash dice")
            if not int_list(stash):
                raise fail(f"'stash' must be a list of faces, not {stash!r}")
            for face in stash:
                if not 1 <= face <= rules.faces:
                    raise fail(f"stash dice: {face} is not a face 1..{rules.faces}")
            out["stash"] = list(stash)
        elif rules.stash is not Stash.NONE:
            raise fail(
                f"these rules have a {rules.stash.value} stash: the round needs 'stash' dice"
            )
        return out

    return load_round_with(raw, r, players, _ROUND_KEYS, dice_of, _load_move)


def _start_dice(rules: Rules, players: int) -> None:
    try:
        rules.start_dice(players)
    except RulesError as err:
        raise RecordError(str(err)) from None


FAMILY = "bidding"
"""The family these records belong to (:attr:`LoadedRecord.family`)."""


def load_record(source: Source) -> LoadedRecord[Rules]:
    """Read and check a bidding-family record (JSON text or already-parsed data): the
    :class:`LoadedRecord`, with the rules it names and a normalized copy of the data.

    The structure, types, version, rules, options and player names are checked here;
    :func:`replay_record` checks the moves against the rules. Normalization: ``options`` is
    always present, dice are listed in seat order; nothing else is added or dropped. Records
    of any family are read by :func:`liarsdice.families.load_record`.
    """
    return load_record_with(
        source, FAMILY, record_rules, (MIN_PLAYERS, MAX_PLAYERS), _load_round, _start_dice
    )


def dumps_record(record: Source | LoadedRecord[Rules]) -> str:
    """Write a bidding-family record as compact, readable JSON: the header, then one line per
    move (:func:`liarsdice.families.dumps_record` writes a record of any family).

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
    return write_record(loaded(record, load_record).data)


# ---------------------------------------------------------------------------------- writing
def _rules_fields(rules: Rules) -> tuple[str, dict[str, Any]]:
    if rules.name in PRESETS:
        return rules.name, rules.diff(PRESETS[rules.name])
    return CUSTOM, {k: v for k, v in rules.options().items() if k != "name"}


class _RecordWriter:
    """The rounds of a record, written event by event from a game's log
    (:func:`record_from_state`): a move is opened by its decision and completed by the chance
    faces or the show that follow it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names = game.names
        self.rules = game.rules
        self.before = game.rules.show_reroll is ShowReroll.BEFORE
        self.rounds: list[dict[str, Any]] = []
        self.moves: list[dict[str, Any]] = []  # the moves of the latest round
        self.move: dict[str, Any] | None = None  # the move still taking chance faces or a show
        self.deferred: list[dict[str, Any]] = []  # questions asked in the middle of a move or roll
        self.roll: list[int] = []
        self.rolling = False
        self.declined: dict[str, Any] | None = None  # the bid move whose show was declined last

    def _flush(self) -> None:
        self.moves.extend(self.deferred)
        self.deferred.clear()

    def event(self, s: State, player: int, action: int) -> None:
        """Write one event of the log, ``s`` being the state it is applied to."""
        if isinstance(action, str):
            self._question(s, player, action)
        elif player == CHANCE:
            self._chance(s, action)
        else:
            self._decision(s, player, action)

    def _question(self, s: State, player: int, question: str) -> None:
        ask = {"player": self.names[player], "ask": question}
        if s.current_player == CHANCE or s.phase is Phase.SHOW:
            self.deferred.append(ask)
        else:
            self._flush()
            self.move = None
            self.moves.append(ask)

    def _chance(self, s: State, face: int) -> None:
        phase = s.phase
        if phase is Phase.ROLL:
            self._rolled(s, face)
        elif phase is Phase.REROLL and self.move is not None:
            self.move["reroll"].append(face)
        elif phase is Phase.BUY_ROLL and self.move is not None:
            self.move["buy"].append(face)

    def _rolled(self, s: State, face: int) -> None:
        """One die of a round's roll; the round begins once every die is rolled."""
        if not self.rolling:
            self.rolling, self.roll = True, []
        self.roll.append(face)
        if len(self.roll) == s.table.cap:
            self.rolling = False
            self._new_round(s)

    def _new_round(self, s: State) -> None:
        t = s.table
        dice: dict[str, list[int]] = {}
        i = 0
        for seat, k in enumerate(t.dice):
            if k:
                dice[self.names[seat]] = self.roll[i : i + k]
                i += k
        self.moves = []
        rnd: dict[str, Any] = {"opener": self.names[t.opener], "dice": dice}
        if self.rules.stash is not Stash.NONE:
            rnd["stash"] = self.roll[i:]
        rnd["moves"] = self.moves
        self.rounds.append(rnd)
        self.move = None
        self._flush()

    def _decision(self, s: State, player: int, action: int) -> None:
        name = self.names[player]
        self.declined = None
        shown = self.game.action_shown(action)
        bid = self.game.action_bid(action)
        move = self.move
        if s.phase is Phase.SHOW and move is not None:
            if action == NO_SHOW:
                self.declined = move
            else:
                move["show"] = list(shown or ())
                move["reroll"] = []
        elif bid is not None and move is not None and self._bids_after_show(move, name):
            move["bid"] = str(bid)
        else:
            self._flush()
            self.move = _new_move(name, action, shown, bid)
            self.moves.append(self.move)

    def _bids_after_show(self, move: dict[str, Any], name: str) -> bool:
        """Whether a bid completes ``move``, the same player's show (show-and-reroll not
        'before', no question asked in between)."""
        return (
            not self.deferred
            and move["player"] == name
            and "show" in move
            and "bid" not in move
            and not self.before
        )

    def finish(self, s: State) -> list[dict[str, Any]]:
        """The rounds, once the whole log is written (``s``: the state it leads to)."""
        move = self.move
        if s.phase in (Phase.SHOW, Phase.REROLL, Phase.BUY_ROLL) and move is not None:
            # The last move is unfinished: questions asked meanwhile go before it, so that the
            # replay still ends in the middle of that move.
            at = next(i for i, mv in enumerate(self.moves) if mv is move)
            self.moves[at:at] = self.deferred
        elif self.rounds and s.phase not in (Phase.SETUP, Phase.ROLL):
            self._flush()
        if self.declined is not None and self.moves and self.moves[-1] is self.declined:
            self.declined["show"] = []
        return self.rounds


def _new_move(
    name: str, action: int, shown: tuple[int, ...] | None, bid: Bid | None
) -> dict[str, Any]:
    """The move a decision opens: a call, a purchase, a show or a bid."""
    if action in (LIAR, EXACT):
        return {"player": name, "call": "liar" if action == LIAR else "exact"}
    if action == BUY:
        return {"player": name, "buy": []}
    if shown is not None:
        return {"player": name, "show": list(shown), "reroll": []}
    return {"player": name, "bid": str(bid)}


def record_from_state(state: State) -> LoadedRecord[Rules]:
    """The record of everything that happened up to ``state`` (walks its event log).

    Every round gets its ``opener``. What the format cannot hold is normalized: chance events
    of a roll still in progress are left out (the record ends at the last complete roll), the
    roll-off or draw for the first opener is summed up by round 0's ``opener``, and a house-rule
    question asked in the middle of a move (during a roll or the first-opener roll-off, or
    between a bid and its show) is written after that move, or before it when the record ends
    in the middle of that move.
    """
    game = state.game
    rules = game.rules
    rules_name, options = _rules_fields(rules)
    writer = _RecordWriter(game)
    s = game.new_initial_state()
    for player, action in state.history():
        writer.event(s, player, action)
        s = s.apply_event(player, action)
    rounds = writer.finish(s)
    named = rules if rules.name == rules_name else rules.replace(name=rules_name)
    return LoadedRecord(FAMILY, named, record_header(rules_name, options, game.names, rounds))


# ---------------------------------------------------------------------------------- replaying
class _Replayer(Replayer[State, Rules]):
    """Applies a loaded record to the engine, move by move; ``state`` is the latest state."""

    over = Phase.OVER
    roll = Phase.ROLL

    def new_game(self, opener: int | None) -> Game:
        chance = self.rules.first_opener is not FirstOpener.GIVEN
        if opener is None and self.rec["rounds"] and chance:
            raise RecordError(
                "round 0 needs an 'opener': these rules choose the first opener by chance "
                f"(first_opener {self.rules.first_opener.value})",
                round=0,
            )
        return Game(self.rules, self.names, opener=opener)

    def opener(self, state: State) -> int:
        return state.table.opener

    def deal(self, r: int, rnd: dict[str, Any]) -> None:
        t = self._now().table
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

    def _show(self, r: int, m: int, name: str, move: dict[str, Any], end: bool) -> None:
        s = self._now()
        seat = self.seats[name]
        action = self._located(r, m, lambda: self.game.show_action(move["show"]))
        hidden = len(s.hand(seat))
        self._apply(action, r, m)
        need = hidden - len(move["show"])
        self._rolls(r, m, move.get("reroll", []), need, f"{name} re-rolls", end)

    def _bid(self, r: int, m: int, text: str) -> None:
        faces = self.rules.faces
        action = self._located(r, m, lambda: self.game.bid_action(parse_bid(text, faces=faces)))
        self._apply(action, r, m)

    def move(self, r: int, m: int, move: dict[str, Any], last: bool) -> None:
        self._check_move(r, m)
        s = self._now()
        name = move["player"]
        seat = self.seats[name]
        if "ask" in move:
            if s.table.dice[seat] == 0:
                raise RecordError(f"{name} is out of the game", round=r, move=m)
            try:
                self.state = s.ask(seat, move["ask"])
            except IllegalActionError as err:
                raise RecordError(str(err), round=r, move=m) from None
            return
        self._check_turn(r, m, name)
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
    record: Source | LoadedRecord[Rules],
) -> tuple[State | None, RecordError | None]:
    """Replay a bidding-family record up to its first error: (the last legal state or None,
    the :class:`~liarsdice.core.errors.RecordError` or None)."""
    return replay_partial_with(record, load_record, _Replayer)


def replay_record(record: Source | LoadedRecord[Rules]) -> State:
    """The state after the last move of a bidding-family record, or its first error raised
    (a :class:`~liarsdice.core.errors.RecordError` located by 0-based ``round`` and
    ``move``)."""
    return replayed_state(replay_partial(record))


def replay_moves(record: Source | LoadedRecord[Rules]) -> tuple[list[State], State]:
    """The state before each move of a bidding-family record (one per move, in order) and
    the final state, or the record's first error raised (post-game analysis)."""
    return replay_moves_with(record, load_record, _Replayer)


# ---------------------------------------------------------------------------------- summary
def summarize_result(game: Game, result: RoundResult) -> JSONObject:
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


def replay_summary(record: Source | LoadedRecord[Rules]) -> JSONObject:
    """Check a bidding-family record and sum it up: the ``liarsdice replay --json`` output.

    ``{"ok": true, "rounds": [...], "winner": name or null}`` for a legal record (an unfinished
    game has winner null), ``{"ok": false, "error": {"round", "move", "message"}}`` otherwise.
    """
    return summary_with(replay_partial(record), summarize_result)
