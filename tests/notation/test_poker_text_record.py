"""Tests for liarsdice.notation.poker.text: the poker-dice text record (its items, bids,
options and messages). What every family's text record shares is tested in
test_family_records.py."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice.core import RecordError
from liarsdice.families import (
    family_of_text,
    load_record,
    record_from_state,
    record_to_text,
    replay_record,
    text_to_record,
)
from liarsdice.notation.poker.record import load_record as load_poker_record
from liarsdice.notation.poker.text import record_to_text as poker_record_to_text
from liarsdice.notation.poker.text import text_to_record as poker_text_to_record
from record_util import (
    POKER_EXAMPLE,
    POKER_FIVE,
    POKER_TEXT,
    check_text_error,
    raised,
    random_poker_state,
)

EXAMPLE = POKER_EXAMPLE
EXAMPLE_TEXT = POKER_TEXT
FIVE = POKER_FIVE

FIVE_TEXT = """\
Liar's Dice record, version 1
Rules: poker-dice
Option: lives = 1
Players: ann, bob

Round 1: ann opens
Roll: Q 9 Q J K
ann: five Q
bob: accept, keep Q Q rolled Q 9 Q, keep Q Q Q Q rolled A, keep Q Q Q Q rolled J
= hand Q Q K J 9, rolls Q Q Q Q 9; Q Q Q Q A; Q Q Q Q J: no five of a kind, bob loses a life \
| lives ann 1, bob 0 | game over | ann wins
"""

HEAD = "Liar's Dice record, version 1\nRules: poker-dice\nPlayers: ann, bob, cy\n"


parse_error = functools.partial(raised, poker_text_to_record)


def assert_round_trip(record: Any) -> str:
    text = poker_record_to_text(record)
    assert poker_text_to_record(text) == load_poker_record(record)
    assert text_to_record(text) == load_record(record)
    assert record_to_text(record) == text
    return text


# ---------------------------------------------------------------------------- the examples
def test_example_prints_exactly_and_parses_back() -> None:
    assert poker_record_to_text(EXAMPLE) == EXAMPLE_TEXT
    assert record_to_text(EXAMPLE) == EXAMPLE_TEXT
    assert record_to_text(json.dumps(EXAMPLE)) == EXAMPLE_TEXT
    assert poker_text_to_record(EXAMPLE_TEXT) == EXAMPLE
    assert text_to_record(EXAMPLE_TEXT) == EXAMPLE


def test_five_of_a_kind_challenge_prints_exactly_and_parses_back() -> None:
    assert record_to_text(FIVE) == FIVE_TEXT
    assert text_to_record(FIVE_TEXT) == FIVE


def is_poker_text(text: str) -> bool:
    """Whether the registry reads ``text`` as a poker-dice record (by its ``Rules:`` line)."""
    return family_of_text(text).name == "poker"


def test_is_poker_text() -> None:
    assert is_poker_text(EXAMPLE_TEXT)
    assert is_poker_text("  rules :  poker-dice  \n")
    assert not is_poker_text("Liar's Dice record, version 1\nRules: classic\n")
    assert not is_poker_text("# Rules: poker-dice\n")
    assert not is_poker_text("")


def test_parser_is_lenient_about_layout_case_and_ignores_comments_and_results() -> None:
    text = """
    # a game at the pub
    liar's dice record version 1
    RULES:poker-dice
    players :ann,bob ,  cy

    round 1 : ann opens
    roll: k k 9 q ace
    ann : pair K ,PASS LEFT
    # bob thinks
    bob: two pair K Q, rolled Q Q J, reroll 9, SHAKE, out 9 kings K, Accept
    cy: LIAR
    = whatever the result line says
    """
    assert text_to_record(text) == EXAMPLE


def test_every_accept_item() -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"][1] = {
        "player": "bob",
        "accept": True,
        "out": [],
        "shake": False,
        "reroll": [],
        "bid": "two pair K Q",
    }
    text = assert_round_trip(rec)
    assert "bob: accept, out none, no shake, two pair K Q\n" in text
    rec["rounds"][0]["moves"][1].update(shake=True, reroll=[], rolled=["K", "Q", "Q", "J", "9"])
    text = assert_round_trip(rec)
    assert "bob: accept, out none, shake, rolled K Q Q J 9, two pair K Q\n" in text
    parsed = poker_text_to_record(
        text.replace("shake, rolled", "shake, reroll none, rolled").replace("out none", "out NONE")
    )
    assert parsed == load_poker_record(rec)


def test_unfinished_last_moves_round_trip() -> None:
    cases: list[dict[str, Any]] = [
        {"player": "ann", "bid": "pair K"},
        {"player": "bob", "accept": True},
        {"player": "bob", "accept": True, "out": ["K"]},
        {"player": "bob", "accept": True, "out": ["K"], "shake": True, "reroll": ["K"]},
        {
            "player": "bob",
            "accept": True,
            "out": ["K"],
            "shake": True,
            "reroll": ["K"],
            "rolled": [],
        },
        {
            "player": "bob",
            "accept": True,
            "out": ["K"],
            "shake": True,
            "reroll": ["K"],
            "rolled": ["A", "A"],
        },
    ]
    for move in cases:
        rec = copy.deepcopy(EXAMPLE)
        moves = rec["rounds"][0]["moves"]
        rec["rounds"][0]["moves"] = [move] if move["player"] == "ann" else [moves[0], move]
        text = assert_round_trip(rec)
        replay_record(text_to_record(text))
    assert "bob: accept, out K, shake, reroll K, rolled A A\n" in text
    rec["rounds"][0]["moves"][1]["rolled"] = []
    assert "bob: accept, out K, shake, reroll K, rolled none\n" in record_to_text(rec)


def test_five_of_a_kind_variants_round_trip() -> None:
    at_once = copy.deepcopy(FIVE)
    at_once["rounds"][0]["roll"] = ["Q"] * 5
    at_once["rounds"][0]["moves"][1]["attempts"] = []
    text = assert_round_trip(at_once)
    assert "bob: accept, no attempts\n" in text
    assert "five of a kind made, no life lost" in text
    unfinished = copy.deepcopy(FIVE)
    unfinished["rounds"][0]["moves"][1]["attempts"] = [
        {"keep": [], "rolled": ["Q", "Q", "Q", "Q", "9"]},
        {"keep": ["Q", "Q", "Q", "Q"]},
    ]
    text = assert_round_trip(unfinished)
    assert "bob: accept, keep none rolled Q Q Q Q 9, keep Q Q Q Q\n" in text
    replay_record(text_to_record(text))
    bare = copy.deepcopy(FIVE)
    del bare["rounds"][0]["moves"][1]["attempts"]
    assert "bob: accept\n" in assert_round_trip(bare)


def test_round_without_opener_and_options() -> None:
    rec = copy.deepcopy(EXAMPLE)
    del rec["rounds"][0]["opener"]
    rec["options"] = {"lives": 5, "five_of_a_kind_rule": False}
    text = assert_round_trip(rec)
    assert "\nRound 1\n" in text
    assert "Option: lives = 5\nOption: five_of_a_kind_rule = false\n" in text
    yes = text.replace("five_of_a_kind_rule = false", "five_of_a_kind_rule = no")
    assert poker_text_to_record(yes) == load_poker_record(rec)


@pytest.mark.parametrize(
    "bid",
    ["a pair of kings", "two pairs, queens and tens", "Pair K", 'pair "K"', "none", "pass"],
)
def test_bids_are_kept_verbatim_and_quoted_when_needed(bid: str) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"] = [{"player": "ann", "bid": bid}]
    text = assert_round_trip(rec)
    line = text.splitlines()[-1]
    if bid in {"a pair of kings", "Pair K"}:
        assert line == f"ann: {bid}"
    else:
        assert line == f"ann: {json.dumps(bid)}"


@pytest.mark.parametrize(
    "names",
    [
        ["Roll", "Round", "ann marie"],  # Roll is a keyword of poker-dice text records only
        ["rules", "x\u2028y", "élodie"],  # quoted names never break the line
        ["a\x85b", "c\u2029d", "O'Brien"],
    ],
)
def test_awkward_names_are_quoted(names: list[str]) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["players"] = names
    rec["rounds"][0]["opener"] = names[0]
    for move, name in zip(rec["rounds"][0]["moves"], names, strict=True):
        move["player"] = name
    text = assert_round_trip(rec)
    assert len(text.splitlines()) == len(EXAMPLE_TEXT.splitlines())


def test_bare_keyword_as_a_name_is_an_error() -> None:
    err = parse_error(HEAD + "Round 1\nroll: pair K\n")
    assert err.message == "line 5: the roll: 'pair' is not a face (9 10 J Q K A)"
    err = parse_error(HEAD + 'Round 1\nRoll: K K K K K\n"Roll": pair K\n')
    assert err.message.startswith("line 6: unknown player 'Roll'")
    err = parse_error("Liar's Dice record, version 1\nRules: poker-dice\nPlayers: Roll, bob\n")
    assert "line 3" in err.message and "keyword" in err.message


# ---------------------------------------------------------------------------- parse errors
@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("", "empty text record", (None, None)),
        ("Rules: poker-dice\n", "line 1: not a liarsdice text record", (None, None)),
        (
            "Liar's Dice record, version 2\nRules: poker-dice\nPlayers: a, b\n",
            "unsupported record version 2",
            (None, None),
        ),
        ("Liar's Dice record, version 1\nRules: poker-dice\n", "no Players: line", None),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\n",
            "line 2: 'classic' are not poker-dice rules",
            (None, None),
        ),
        (HEAD + "Option: lives 3\n", "line 4: write an option as", (None, None)),
        (HEAD + "Option: live = 3\n", "line 4: unknown rule option 'live'; options: ", None),
        (HEAD + "Option: lives = many\n", "line 4: option lives takes a whole number", None),
        (
            HEAD + "Option: five_of_a_kind_rule = 2\n",
            "line 4: option five_of_a_kind_rule takes true or false, not '2'",
            None,
        ),
        (
            "Liar's Dice record, version 1\nRules: poker-dice\nPlayers: a b\n",
            "line 3: players",
            None,
        ),
        (HEAD + "Round 2\n", "line 4: expected round 1, not 2", (None, None)),
        (HEAD + "Round one\n", "line 4: can't read 'Round one'", (None, None)),
        (HEAD + "Round 1\nPlayers: a, b\n", "line 5: the Players header goes before", (0, None)),
        (HEAD + "ann: pair K\n", "line 4: can't read 'ann: pair K' before the first round", None),
        (HEAD + "Roll: K K K K K\n", "line 4: 'Roll: F F F F F' goes in a round", None),
        (HEAD + "Round 1\nRoll: K K K K\n", "line 5: the roll is five dice, not 4", (0, None)),
        (HEAD + "Round 1\nRoll: K K K K X\n", "line 5: the roll: 'X' is not a face", (0, None)),
        (
            HEAD + "Round 1\nRoll: K K K K K\nRoll: K K K K K\n",
            "line 6: the round has two rolls",
            (0, None),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nRoll: K K K K K\n",
            "line 7: the roll goes before the moves",
            (0, None),
        ),
        (
            HEAD + "Round 1\n\n# no roll\nann: pair K\n",
            "line 4: the round has no 'roll'",
            (0, None),
        ),
        (HEAD + "Round 1: dan opens\nRoll: K K K K K\n", "line 4: unknown opener 'dan'", (0, None)),
        (HEAD + "Round 1\nRoll: K K K K K\nann sits\n", "line 6: can't read 'ann sits'", (0, None)),
        (HEAD + "Round 1\nRoll: K K K K K\nann:\n", "line 6: ann makes no move", (0, 0)),
        (HEAD + "Round 1\nRoll: K K K K K\nann: pair K,\n", "line 6: empty item", (0, 0)),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass up\n",
            "line 6: can't read 'pass up'",
            (0, 0),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nbob: raise\n",
            "line 7: can't read 'raise' (a bid such as pair K",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pair A\n",
            "line 6: ann's move has two bid items",
            (0, 0),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nbob: accept, out K Z\n",
            "line 7: out: 'Z' is not a face",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nbob: accept, reroll K\n",
            "line 7: 'reroll' comes with 'shake' or 'no shake'",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: five K, pass left\n"
            "bob: accept, no attempts, keep K\n",
            "line 7: bob's move has 'no attempts' and other attempts",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: five K, pass left\n"
            "bob: accept, keep K K rolled K Q 7\n",
            "line 7: rolled: '7' is not a face",
            (0, 1),
        ),
        (
            HEAD + 'Round 1\nRoll: K K K K K\nann: "pair K, pass left\n',
            "line 6: unclosed quote",
            (0, 0),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\ndan: liar\n",
            "line 7: unknown player 'dan'",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nbob: liar, pair A\n",
            "line 7: a call move has no other keys",
            (0, 1),
        ),
        (
            HEAD + "Round 1\nRoll: K K K K K\nann: pair K, pass left\nbob: accept, pass left\n",
            "line 7: unknown accept move key(s): pass",
            (0, 1),
        ),
    ],
)
def test_parse_errors(text: str, message: str, where: tuple[int | None, int | None] | None) -> None:
    err = check_text_error(poker_text_to_record, text, message, where)
    if is_poker_text(text):  # read through the families as well
        assert raised(text_to_record, text).message == err.message


def test_replay_errors_locate_the_move() -> None:
    text = HEAD + "Round 1: ann opens\nRoll: K K 9 Q A\nann: pair K, pass left\ncy: liar\n"
    with pytest.raises(RecordError, match="it is bob's turn, not cy's") as info:
        replay_record(text_to_record(text))
    assert (info.value.round, info.value.move) == (0, 1)


# ---------------------------------------------------------------------------- random games
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("five", [True, False])
def test_random_games_text_round_trip(players: int, five: bool) -> None:
    challenges = 0
    for seed in range(12):
        state = random_poker_state(seed * 7 + players, players, five)
        record = record_from_state(state)
        text = assert_round_trip(record)
        challenges += "keep " in text or "no attempts" in text
        assert text.count("\n= ") == len(state.results)
        assert text.rstrip("\n").endswith(f"| {state.game.names[state.winner or 0]} wins")
        assert record_from_state(replay_record(text_to_record(text))) == record
    if not five:
        assert challenges == 0


def test_five_of_a_kind_challenges_occur_in_random_games() -> None:
    texts = [
        record_to_text(record_from_state(random_poker_state(seed, 2, True, lives=3)))
        for seed in range(60)
    ]
    assert any("keep " in text for text in texts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    five=st.booleans(),
    cut=st.integers(0, 400),
    names=st.lists(
        st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=6),
        min_size=6,
        max_size=6,
        unique=True,
    ),
)
def test_property_text_round_trip(
    seed: int, players: int, five: bool, cut: int, names: list[str]
) -> None:
    record = record_from_state(random_poker_state(seed, players, five, cut=cut, names=names))
    text = assert_round_trip(record)
    assert poker_text_to_record(text) == record
    replay_record(text_to_record(text))
