"""Tests for the poker-dice game record (liarsdice.notation.poker.record), read through
liarsdice.families like every record: the poker-dice rules, moves and messages. What every
family's record shares is tested in test_family_records.py and test_replay_cli.py."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice.core.poker import Phase, PokerGame, PokerRules, PokerState
from liarsdice.families import (
    dumps_record,
    load_record,
    record_from_state,
    replay_partial,
    replay_record,
    replay_summary,
)
from liarsdice.notation.poker.record import is_poker_record
from liarsdice.notation.poker.record import load_record as load_poker_record
from liarsdice.notation.poker.record import record_from_state as poker_record_from_state
from liarsdice.notation.poker.record import replay_partial as replay_poker_partial
from liarsdice.notation.poker.record import replay_record as replay_poker_record
from liarsdice.notation.poker.record import replay_summary as poker_replay_summary
from record_util import (
    POKER_EXAMPLE,
    POKER_FIVE,
    POKER_SUMMARY,
    raised,
    random_poker_state,
    run_replay,
)

EXAMPLE = POKER_EXAMPLE
EXPECTED_SUMMARY = POKER_SUMMARY


def five_record(roll: list[str], attempts: list[dict[str, Any]] | None, **options: Any) -> Any:
    """Two players; ann rolls ``roll`` and bids five queens; bob accepts (the challenge)."""
    accept: dict[str, Any] = {"player": "bob", "accept": True}
    if attempts is not None:
        accept["attempts"] = attempts
    return {
        "liarsdice": 1,
        "rules": "poker-dice",
        "options": options,
        "players": ["ann", "bob"],
        "rounds": [
            {
                "opener": "ann",
                "roll": roll,
                "moves": [{"player": "ann", "bid": "five Q"}, accept],
            }
        ],
    }


error_of = functools.partial(raised, replay_record)


def random_game(seed: int, players: int, five: bool, lives: int = 3) -> PokerState:
    """A finished game of random legal play."""
    return random_poker_state(seed, players, five, lives)


def expected_prefix(state: PokerState) -> list[tuple[int, int]]:
    """What a record of ``state`` replays to: everything but a round roll under way."""
    history = state.history()
    if state.phase is Phase.ROLL:
        return history[: state.round_start]
    return history


# ---------------------------------------------------------------------------- the example
def test_example_replays_and_rewrites_exactly() -> None:
    assert poker_replay_summary(EXAMPLE) == EXPECTED_SUMMARY
    state = replay_record(EXAMPLE)
    assert isinstance(state, PokerState)
    assert state.lives == (3, 3, 2) and state.opener == 2
    assert replay_poker_record(dumps_record(EXAMPLE)).history() == state.history()
    assert record_from_state(state) == EXAMPLE
    assert load_record(EXAMPLE) == EXAMPLE
    assert json.loads(dumps_record(EXAMPLE)) == EXAMPLE


def test_dispatch_helpers() -> None:
    assert is_poker_record(EXAMPLE)
    assert not is_poker_record({"rules": "classic"})
    assert not is_poker_record([])
    state, error = replay_partial(EXAMPLE)
    assert error is None and isinstance(state, PokerState)
    assert replay_poker_partial("{")[0] is None


def test_load_normalizes() -> None:
    rec = copy.deepcopy(EXAMPLE)
    del rec["options"]
    move = rec["rounds"][0]["moves"][1]
    move.update(shake=True, rolled=["Q", "Q"], out=["K", "K", "9"])
    del move["reroll"]
    loaded = load_record(json.dumps(rec))
    assert loaded["options"] == {}
    assert loaded["rounds"][0]["moves"][1]["reroll"] == []
    assert load_poker_record(rec) == loaded


def test_bids_in_words_and_any_face_order_are_read() -> None:
    rec = copy.deepcopy(EXAMPLE)
    move = rec["rounds"][0]["moves"][1]
    move["bid"] = "two pairs, kings and queens"
    move["out"] = ["K", "9", "K"]
    rec["rounds"][0]["moves"][0]["bid"] = "a pair of kings"
    assert replay_summary(rec) == EXPECTED_SUMMARY


def test_no_shake_no_reroll_has_no_rolled() -> None:
    rec = copy.deepcopy(EXAMPLE)
    move = rec["rounds"][0]["moves"][1]
    move.update(out=[], shake=False, reroll=[], bid="pair K A")
    del move["rolled"]
    state = replay_record(rec)
    assert record_from_state(state) == rec
    assert replay_summary(rec)["rounds"][0]["hand"] == ["K", "K", "A", "Q", "9"]


def test_options_and_rules_name() -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["options"] = {"lives": 1, "five_of_a_kind_rule": False, "players": 3, "dice": 5}
    state = replay_record(rec)
    assert isinstance(state, PokerState)
    assert state.lives == (1, 1, 0) and not state.is_terminal()
    assert replay_summary(rec)["rounds"][0]["lives"] == {"ann": 1, "bob": 1, "cy": 0}
    # Writers give the difference from the preset.
    assert record_from_state(state)["options"] == {
        "lives": 1,
        "five_of_a_kind_rule": False,
        "players": 3,
    }
    # A poker game with a non-preset name is written as poker-dice with its options.
    game = PokerGame(PokerRules(name="house", lives=2), 2)
    assert poker_record_from_state(game.new_initial_state()) == {
        "liarsdice": 1,
        "rules": "poker-dice",
        "options": {"lives": 2},
        "players": ["p1", "p2"],
        "rounds": [],
    }


def test_round_zero_opener_may_be_omitted() -> None:
    rec = copy.deepcopy(EXAMPLE)
    del rec["rounds"][0]["opener"]
    assert replay_summary(rec) == EXPECTED_SUMMARY
    rec["rounds"][0]["moves"][0]["player"] = "bob"
    assert error_of(rec).message == "it is ann's turn, not bob's"


def test_two_players_have_no_pass() -> None:
    rec = {
        "liarsdice": 1,
        "rules": "poker-dice",
        "players": ["ann", "bob"],
        "rounds": [
            {
                "opener": "bob",
                "roll": ["9", "10", "J", "Q", "K"],
                "moves": [
                    {"player": "bob", "bid": "low straight"},
                    {"player": "ann", "call": "liar"},
                ],
            }
        ],
    }
    summary = replay_summary(rec)
    assert summary["rounds"][0]["stood"] is True
    assert summary["rounds"][0]["hand"] == ["K", "Q", "J", "10", "9"]
    assert summary["rounds"][0]["losses"] == {"ann": 1}
    rec["rounds"][0]["moves"][0]["pass"] = "left"
    err = error_of(rec)
    assert (err.round, err.move) == (0, 0)
    assert err.message.startswith("no 'pass' here")


# -------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("five", [True, False])
def test_round_trip_many_games(players: int, five: bool) -> None:
    for seed in range(12):
        state = random_game(seed * 7 + players, players, five)
        record = record_from_state(state)
        text = dumps_record(record)
        replayed = replay_record(json.loads(text))
        assert replayed.history() == state.history()
        assert replay_summary(text)["winner"] == state.game.names[state.winner or 0]
        assert record_from_state(replayed) == record
        assert load_record(record) == record


@pytest.mark.parametrize("five", [True, False])
def test_round_trip_every_prefix(five: bool) -> None:
    state = random_game(11, 4, five, lives=2)
    history = state.history()
    game = state.game
    for k in range(len(history) + 1):
        partial = game.replay(history[:k])
        record = record_from_state(partial)
        assert replay_record(record).history() == expected_prefix(partial), k


def test_five_of_a_kind_challenges_occur_in_random_play() -> None:
    calls = set()
    for seed in range(30):
        state = random_game(seed, 3, True)
        calls |= {(r.call, r.success) for r in state.results}
        summary = replay_summary(record_from_state(state))
        assert len(summary["rounds"]) == len(state.results)
    assert ("five", False) in calls and ("liar", None) in calls


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    five=st.booleans(),
    cut=st.floats(0, 1),
)
def test_round_trip_property(seed: int, players: int, five: bool, cut: float) -> None:
    state = random_game(seed, players, five)
    assert replay_record(dumps_record(record_from_state(state))).history() == state.history()
    history = state.history()
    partial = state.game.replay(history[: int(cut * len(history))])
    assert replay_record(record_from_state(partial)).history() == expected_prefix(partial)


# ------------------------------------------------------------------- five of a kind
def test_five_of_a_kind_succeeds_at_once() -> None:
    rec = five_record(["Q"] * 5, [])
    assert replay_summary(rec)["rounds"] == [
        {
            "bid": "five Q",
            "call": "accept",
            "accepter": "bob",
            "bidder": "ann",
            "hand": ["Q", "Q", "Q", "Q", "Q"],
            "attempts": [],
            "success": True,
            "losses": {},
            "lives": {"ann": 3, "bob": 3},
            "next_opener": "bob",
        }
    ]
    assert record_from_state(replay_record(rec)) == load_record(rec)


def test_five_of_a_kind_made_in_two_rolls() -> None:
    attempts = [
        {"keep": ["Q", "Q", "Q"], "rolled": ["Q", "9"]},
        {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["Q"]},
    ]
    rec = five_record(["Q", "9", "Q", "J", "Q"], attempts)
    rnd = replay_summary(rec)["rounds"][0]
    assert rnd["hand"] == ["Q", "Q", "Q", "J", "9"]
    assert rnd["attempts"] == [["Q", "Q", "Q", "Q", "9"], ["Q", "Q", "Q", "Q", "Q"]]
    assert rnd["success"] is True and rnd["losses"] == {} and rnd["next_opener"] == "bob"
    assert record_from_state(replay_record(rec)) == load_record(rec)


def test_five_of_a_kind_failed_costs_the_accepter() -> None:
    attempts = [
        {"keep": ["Q", "Q"], "rolled": ["9", "9", "9"]},
        {"keep": [], "rolled": ["A", "A", "A", "A", "K"]},
        {"keep": ["A", "A", "A", "A"], "rolled": ["K"]},
    ]
    rec = five_record(["Q", "9", "Q", "J", "K"], attempts)
    rnd = replay_summary(rec)["rounds"][0]
    assert rnd["attempts"][-1] == ["A", "A", "A", "A", "K"]
    assert rnd["success"] is False
    assert rnd["losses"] == {"bob": 1} and rnd["lives"] == {"ann": 3, "bob": 2}
    assert rnd["next_opener"] == "bob"


def test_five_of_a_kind_rule_off_is_an_ordinary_accept() -> None:
    rec = five_record(["Q", "9", "Q", "J", "Q"], None, five_of_a_kind_rule=False)
    rec["rounds"][0]["moves"][1].update(out=[], shake=True, rolled=["Q"] * 5, bid="five K")
    state = replay_record(rec)
    assert isinstance(state, PokerState) and str(state.current_bid) == "five K"
    rec["rounds"][0]["moves"][1] = {"player": "bob", "accept": True, "attempts": []}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1)
    assert err.message.startswith("'attempts' are for accepting a five-of-a-kind bid")
    rec["rounds"][0]["moves"][0]["bid"] = "five A"
    rec["rounds"][0]["moves"][1] = {"player": "bob", "accept": True}
    assert error_of(rec).message == "five A is the top bid: nothing beats it, so you must call liar"


@pytest.mark.parametrize(
    ("roll", "attempts", "message"),
    [
        (
            ["Q"] * 5,
            [{"keep": ["Q"], "rolled": ["Q"] * 4}],
            "the five-of-a-kind challenge is over (the dice already showed five of a kind), "
            "but the record lists 1 attempt",
        ),
        (
            ["Q", "Q", "Q", "Q", "9"],
            [
                {"keep": ["Q"] * 4, "rolled": ["Q"]},
                {"keep": ["Q"] * 4, "rolled": ["Q"]},
            ],
            "the five-of-a-kind challenge is over (it ended after 1 roll), but the record "
            "lists 2 attempts",
        ),
        (
            ["Q", "Q", "Q", "Q", "9"],
            [{"keep": ["Q", "Q", "Q", "Q"], "rolled": ["9"]} for _ in range(4)],
            "the five-of-a-kind challenge is over (it ended after 3 rolls), but the record "
            "lists 4 attempts",
        ),
        (
            ["Q", "Q", "Q", "Q", "9"],
            [{"keep": ["Q", "Q", "Q", "Q", "9"]}],
            "re-roll at least one die",
        ),
        (
            ["Q", "Q", "Q", "Q", "9"],
            [{"keep": ["A"], "rolled": ["Q"] * 4}],
            "A are not among the dice 9 Q Q Q Q",
        ),
        (
            ["Q", "Q", "Q", "Q", "9"],
            [{"keep": ["Q"], "rolled": ["Q"] * 3}],
            "attempt 1 re-rolls 4 dice but the record lists 3",
        ),
    ],
)
def test_five_of_a_kind_errors(roll: list[str], attempts: list[Any], message: str) -> None:
    rec = five_record(roll, attempts)
    rec["rounds"][0]["moves"].append({"player": "bob", "bid": "junk"})  # not the last move
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (0, 1, message)


NEXT_ROUND = {"opener": "bob", "roll": ["9"] * 5, "moves": [{"player": "bob", "bid": "junk"}]}


def test_five_of_a_kind_unfinished_challenge() -> None:
    # The last move of the record may stop part way through the challenge ...
    for attempts in (None, [], [{"keep": ["Q"]}], [{"keep": ["Q"], "rolled": ["Q"]}]):
        state = replay_record(five_record(["Q", "Q", "9", "J", "K"], attempts))
        assert isinstance(state, PokerState) and not state.results
    # ... but not when the record goes on.
    rec = five_record(["Q", "Q", "9", "J", "K"], [{"keep": ["Q"]}])
    rec["rounds"].append(NEXT_ROUND)
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1)
    assert err.message == "attempt 1 has no 'rolled' (what the 4 re-rolled dice came up as)"
    rec = five_record(["Q", "Q", "9", "J", "K"], [{"keep": ["Q"], "rolled": ["9"] * 4}])
    rec["rounds"].append(NEXT_ROUND)
    assert error_of(rec).message == (
        "the five-of-a-kind challenge goes on (1 of 3 rolls made, no five of a kind yet): "
        "bob's move needs another attempt"
    )
    rec = five_record(["Q"] * 5, None)
    rec["rounds"].append(NEXT_ROUND)
    assert error_of(rec).message.startswith("a five-of-a-kind challenge lists its 'attempts'")
    rec = five_record(["Q"] * 5, None)
    rec["rounds"][0]["moves"][1]["out"] = []
    assert error_of(rec).message == (
        "accepting five Q is a five-of-a-kind challenge: the move lists its 'attempts', not "
        "'out', 'shake' or 'bid'"
    )


# ------------------------------------------------------------------- unfinished moves
@pytest.mark.parametrize(
    ("keep", "missing"),
    [
        ({"player", "bid"}, "ann passes the cup after the opening bid: the move needs 'pass'"),
        ({"player", "accept"}, "bob's move stops before its 'out'"),
        ({"player", "accept", "out"}, "bob's move stops before its 'shake'"),
        ({"player", "accept", "out", "shake", "reroll"}, "bob's move stops before its 'rolled'"),
        (
            {"player", "accept", "out", "shake", "reroll", "rolled"},
            "bob's move stops before its 'bid'",
        ),
    ],
)
def test_unfinished_moves(keep: set[str], missing: str) -> None:
    rec = copy.deepcopy(EXAMPLE)
    moves = rec["rounds"][0]["moves"]
    index = 0 if "bid" in keep and "accept" not in keep else 1
    moves[index] = {k: v for k, v in moves[index].items() if k in keep}
    del moves[index + 1 :]
    state = replay_record(rec)  # the last move may be unfinished
    assert isinstance(state, PokerState) and not state.results
    assert record_from_state(state) == load_record(rec)
    moves.append({"player": "cy", "call": "liar"})
    err = error_of(rec)
    assert (err.round, err.move) == (0, index)
    assert err.message.startswith(missing)


def test_partial_rolled_only_at_the_end() -> None:
    rec = copy.deepcopy(EXAMPLE)
    move = rec["rounds"][0]["moves"][1]
    del move["bid"]
    move["rolled"] = ["Q"]
    del rec["rounds"][0]["moves"][2]
    state = replay_record(rec)
    assert isinstance(state, PokerState) and state.is_chance_node()
    assert record_from_state(state) == load_record(rec)
    move["bid"] = "pair A"
    assert error_of(rec).message == "bob rolls 3 dice but the record lists 1"


# ------------------------------------------------------------------------- error paths
def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(rec: dict[str, Any]) -> None:
        target: Any = rec
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(rec: dict[str, Any]) -> None:
        target: Any = rec
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def _moves(*moves: Any) -> Callable[[dict[str, Any]], None]:
    return _set(("rounds", 0, "moves"), list(moves))


M0, M1, M2 = EXAMPLE["rounds"][0]["moves"]
R0 = ("rounds", 0)
MV = ("rounds", 0, "moves")
FACES = '"9", "10", "J", "Q", "K", "A"'

ERRORS: list[tuple[str, Callable[[dict[str, Any]], None], int | None, int | None, str]] = [
    # the record as a whole
    ("version", _set(("liarsdice",), 2), None, None, "unsupported record version 2"),
    ("top key", _set(("extra",), 1), None, None, "unknown record key(s): extra"),
    ("no players", _drop(("players",)), None, None, "the record has no 'players'"),
    ("lives", _set(("options",), {"lives": 0}), None, None, "lives must be 1..99, not 0"),
    ("dice", _set(("options",), {"dice": 6}), None, None, "poker dice use one set of 5"),
    (
        "bool option",
        _set(("options",), {"five_of_a_kind_rule": 1}),
        None,
        None,
        "option five_of_a_kind_rule takes true or false, not 1",
    ),
    ("int option", _set(("options",), {"lives": "3"}), None, None, "option lives takes a whole"),
    (
        "unknown option",
        _set(("options",), {"wild": 1}),
        None,
        None,
        "unknown rule option 'wild'; options: players, lives, dice, five_of_a_kind_rule",
    ),
    ("name option", _set(("options",), {"name": "x"}), None, None, "'name' is not an option"),
    ("options type", _set(("options",), []), None, None, "'options' must be an object"),
    ("one player", _set(("players",), ["ann"]), None, None, "a game needs 2..12 players"),
    ("same names", _set(("players",), ["a", "a"]), None, None, "player names must be distinct"),
    ("empty name", _set(("players",), ["a", ""]), None, None, "'players' must be a list"),
    ("rounds type", _set(("rounds",), {}), None, None, "'rounds' must be a list"),
    # a round
    ("round type", _set(("rounds", 0), 3), 0, None, "a round is an object, not 3"),
    ("round key", _set((*R0, "dice"), {}), 0, None, "unknown round key(s): dice"),
    ("no roll", _drop((*R0, "roll")), 0, None, "the round has no 'roll'"),
    ("short roll", _set((*R0, "roll"), ["K"] * 4), 0, None, "the roll is five dice, but the"),
    ("long roll", _set((*R0, "roll"), ["K"] * 6), 0, None, "the roll is five dice, but the"),
    (
        "bad face",
        _set((*R0, "roll"), ["K", "K", "9", "Q", "X"]),
        0,
        None,
        f"the roll: 'X' is not a face; faces are the strings {FACES}",
    ),
    ("int face", _set((*R0, "roll"), [5, 5, 1, 2, 3]), 0, None, "the roll: 5 is not a face"),
    ("roll type", _set((*R0, "roll"), "KK9QA"), 0, None, "the roll is a list of faces"),
    ("opener", _set((*R0, "opener"), "dan"), 0, None, "unknown opener 'dan'"),
    ("no moves", _drop((*R0, "moves")), 0, None, "the round has no 'moves'"),
    ("moves type", _set((*R0, "moves"), {}), 0, None, "'moves' must be a list"),
    # a move's structure
    ("move type", _set((*MV, 1), "x"), 0, 1, "a move is an object, not 'x'"),
    ("no player", _drop((*MV, 1, "player")), 0, 1, "the move has no 'player'"),
    ("unknown player", _set((*MV, 1, "player"), "dan"), 0, 1, "unknown player 'dan'"),
    ("no shape", _moves(M0, {"player": "bob"}), 0, 1, "a move needs one of bid, call or"),
    ("unknown key", _set((*MV, 0, "show"), []), 0, 0, "unknown move key(s): show"),
    ("call + bid", _set((*MV, 2, "bid"), "x"), 0, 2, "a call move has no other keys"),
    ("exact", _set((*MV, 2, "call"), "exact"), 0, 2, "the only call is 'liar', not 'exact'"),
    ("accept false", _set((*MV, 1, "accept"), False), 0, 1, "'accept' is true"),
    ("accept key", _set((*MV, 1, "show"), []), 0, 1, "unknown accept move key(s): show"),
    ("accept+attempts", _set((*MV, 1, "attempts"), []), 0, 1, "a five-of-a-kind challenge"),
    (
        "attempts type",
        _moves(M0, {"player": "bob", "accept": True, "attempts": {}}),
        0,
        1,
        "'attempts' is a list",
    ),
    (
        "attempt type",
        _moves(M0, {"player": "bob", "accept": True, "attempts": [1]}),
        0,
        1,
        "attempt 1 is an object",
    ),
    (
        "attempt key",
        _moves(M0, {"player": "bob", "accept": True, "attempts": [{"keep": [], "x": 1}]}),
        0,
        1,
        "unknown key(s) in attempt 1: x",
    ),
    (
        "attempt keep",
        _moves(M0, {"player": "bob", "accept": True, "attempts": [{"rolled": []}]}),
        0,
        1,
        "attempt 1 has no 'keep'",
    ),
    (
        "attempt face",
        _moves(M0, {"player": "bob", "accept": True, "attempts": [{"keep": ["B"]}]}),
        0,
        1,
        "attempt 1: 'keep': 'B' is not a face",
    ),
    ("shake type", _set((*MV, 1, "shake"), "yes"), 0, 1, "'shake' is true or false"),
    ("reroll alone", _drop((*MV, 1, "shake")), 0, 1, "'reroll' comes with 'shake'"),
    ("out face", _set((*MV, 1, "out"), ["k"]), 0, 1, "'out': 'k' is not a face"),
    ("out type", _set((*MV, 1, "out"), "K"), 0, 1, "'out' is a list of faces"),
    ("rolled face", _set((*MV, 1, "rolled"), [7]), 0, 1, "'rolled': 7 is not a face"),
    ("bid type", _set((*MV, 0, "bid"), 3), 0, 0, "'bid' is a string"),
    ("accept bid type", _set((*MV, 1, "bid"), 3), 0, 1, "'bid' is a string"),
    ("pass", _set((*MV, 0, "pass"), "up"), 0, 0, "'pass' is 'left' or 'right', not 'up'"),
    # the replay
    ("turn", _set((*MV, 2, "player"), "ann"), 0, 2, "it is cy's turn, not ann's"),
    (
        "opener must match",
        lambda rec: rec["rounds"].append({"opener": "ann", "roll": ["9"] * 5, "moves": []}),
        1,
        None,
        "the opener is cy under these rules, not ann",
    ),
    (
        "round not over",
        lambda rec: rec["rounds"].extend(
            [
                {"opener": "cy", "roll": ["9"] * 5, "moves": [{"player": "cy", "bid": "junk"}]},
                {"opener": "cy", "roll": ["9"] * 5, "moves": []},
            ]
        ),
        1,
        None,
        "the previous round is not over (no call ended it), but the record goes on",
    ),
    (
        "move after the call",
        lambda rec: rec["rounds"][0]["moves"].append({"player": "cy", "bid": "pair A"}),
        0,
        3,
        "the round is already over: this move belongs to the next round",
    ),
    (
        "bad bid",
        _set((*MV, 1, "bid"), "pear K"),
        0,
        1,
        "'pear K': can't read 'pear'",
    ),
    (
        "low bid",
        _set((*MV, 1, "bid"), "pair Q"),
        0,
        1,
        "pair Q does not beat pair K; least legal bids: pair K 9, pair K 10, pair K 10 9, pair K J",
    ),
    ("junk raise", _set((*MV, 1, "bid"), "junk"), 0, 1, "junk may only be bid by Player One"),
    ("call first", _moves({"player": "ann", "call": "liar"}), 0, 0, "bid a poker hand now"),
    ("accept first", _moves({"player": "ann", "accept": True}), 0, 0, "bid a poker hand now"),
    (
        "bid instead of respond",
        _moves(M0, {"player": "bob", "bid": "pair A"}),
        0,
        1,
        "first accept pair K or call liar, not 'pair A'",
    ),
    ("out not there", _set((*MV, 1, "out"), ["A", "A"]), 0, 1, "A A are not among the dice"),
    ("all out", _set((*MV, 1, "out"), ["9", "Q", "K", "K", "A"]), 0, 1, "leave at least one"),
    ("six out", _set((*MV, 1, "out"), ["9"] * 6), 0, 1, "'out' lists 6 dice: there are only"),
    (
        "reroll inside",
        _set((*MV, 1, "reroll"), ["Q"]),
        0,
        1,
        "you can only roll dice that are outside the cup: 9 K K",
    ),
    (
        "few rolled",
        _set((*MV, 1, "rolled"), ["Q"]),
        0,
        1,
        "bob rolls 3 dice but the record lists 1",
    ),
    (
        "many rolled",
        _set((*MV, 1, "rolled"), ["Q"] * 4),
        0,
        1,
        "bob rolls 3 dice but the record lists 4",
    ),
    (
        "rolled for nothing",
        _set((*MV, 1), {**M1, "shake": False, "reroll": []}),
        0,
        1,
        "nothing was rolled (no shake, no reroll): the move has no 'rolled'",
    ),
    (
        "skipped out",
        _set((*MV, 1), {k: v for k, v in M1.items() if k != "out"}),
        0,
        1,
        "the move has 'shake' but no 'out' (the dice left outside the cup; [] for none)",
    ),
    (
        "skipped rolled",
        _set((*MV, 1), {k: v for k, v in M1.items() if k != "rolled"}),
        0,
        1,
        "the move has 'bid' but no 'rolled'",
    ),
    (
        "bid without accepting",
        _set((*MV, 1), {"player": "bob", "accept": True, "bid": "pair A"}),
        0,
        1,
        "the move has 'bid' but no 'out'",
    ),
]


@pytest.mark.parametrize(
    ("change", "round", "move", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in ERRORS],
)
def test_errors(
    change: Callable[[dict[str, Any]], None], round: int | None, move: int | None, message: str
) -> None:
    rec = copy.deepcopy(EXAMPLE)
    change(rec)
    err = error_of(rec)
    assert (err.round, err.move) == (round, move), err.message
    assert err.message.startswith(message), err.message
    summary = replay_summary(rec)
    assert summary == {
        "ok": False,
        "error": {"round": round, "move": move, "message": err.message},
    }
    assert poker_replay_summary(rec) == summary


# ---------------------------------------------------------------------------- replay command
def test_replay_five_of_a_kind(tmp_path: Path) -> None:
    code, out = run_replay(tmp_path, json.dumps(POKER_FIVE), "--json")
    assert code == 0
    assert json.loads(out) == {
        "ok": True,
        "rounds": [
            {
                "bid": "five Q",
                "call": "accept",
                "accepter": "bob",
                "bidder": "ann",
                "hand": ["Q", "Q", "K", "J", "9"],
                "attempts": [
                    ["Q", "Q", "Q", "Q", "9"],
                    ["Q", "Q", "Q", "Q", "A"],
                    ["Q", "Q", "Q", "Q", "J"],
                ],
                "success": False,
                "losses": {"bob": 1},
                "lives": {"ann": 1, "bob": 0},
                "next_opener": None,
            }
        ],
        "winner": "ann",
    }
    code, out = run_replay(tmp_path, json.dumps(POKER_FIVE))
    assert code == 0
    assert out.splitlines() == [
        "Round 1: bob accepts ann's five Q; hand Q Q K J 9, rolls Q Q Q Q 9; Q Q Q Q A; "
        "Q Q Q Q J: no five of a kind, bob loses a life | lives ann 1, bob 0 | game over",
        "Winner: ann",
    ]


def test_replay_explains_illegal_bids_after_two_pair(tmp_path: Path) -> None:
    rec = {
        "liarsdice": 1,
        "rules": "poker-dice",
        "players": ["ann", "bob", "cy"],
        "rounds": [
            {
                "opener": "ann",
                "roll": ["Q", "Q", "J", "10", "10"],
                "moves": [
                    {"player": "ann", "bid": "two pair J 10", "pass": "left"},
                    {"player": "bob", "accept": True, "out": [], "shake": False, "bid": "pair Q"},
                ],
            }
        ],
    }
    code, out = run_replay(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, 1)
    assert error["message"].startswith(
        "pair Q does not beat two pair J 10; least legal bids: two pair J 10 9, "
    )


def test_replay_rules_and_face_errors(tmp_path: Path) -> None:
    code, out = run_replay(tmp_path, json.dumps({**EXAMPLE, "options": {"lives": 100}}), "--json")
    assert code == 1
    assert json.loads(out)["error"] == {
        "round": None,
        "move": None,
        "message": "lives must be 1..99, not 100",
    }
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["roll"] = ["K", "K", "9", "Q", "B"]
    code, out = run_replay(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, None)
    assert error["message"].startswith("the roll: 'B' is not a face")
