"""Tests for liarsdice.notation.bidding.text: the bidding family's text record (its dice lines,
items,
options and messages). What every family's text record shares is tested in
test_family_records.py."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings

import record_util
from liarsdice.core.bidding import (
    PRESETS,
    Game,
    RecordError,
    State,
    preset,
)
from liarsdice.notation.bidding.record import load_record, record_from_state, replay_record
from liarsdice.notation.bidding.text import describe_result, record_to_text, text_to_record
from record_util import BIDDING_EXAMPLE, BIDDING_TEXT, check_text_error, play, raised

EXAMPLE = BIDDING_EXAMPLE
EXAMPLE_TEXT = BIDDING_TEXT


example = functools.partial(record_util.example, "bidding")
parse_error = functools.partial(raised, text_to_record)


def test_example_prints_exactly() -> None:
    assert record_to_text(EXAMPLE) == EXAMPLE_TEXT


def test_example_parses_back() -> None:
    assert text_to_record(EXAMPLE_TEXT) == EXAMPLE


def test_parser_is_lenient_about_layout_and_ignores_comments_and_results() -> None:
    text = """
    # a game at the club
    liar's dice record version 1
    RULES: milton-bradley
    option:   loss=one
    players: ann ,bob,  cy

    ROUND 1: ann opens
      ann rolls 1 3 3 5 6
      bob rolls 2 2 4 6 6
      cy rolls 1 1 5 5 5
      ann: 3X5
      bob:   show 6 6 ,reroll 1 4 2,5x6
      cy: LIAR
    = anything at all: result lines are recomputed
    """
    rec = text_to_record(text)
    assert rec["rounds"][0]["moves"][0] == {"player": "ann", "bid": "3X5"}
    rec["rounds"][0]["moves"][0]["bid"] = "3x5"
    assert rec == EXAMPLE


def test_round_without_opener_and_item_order() -> None:
    text = EXAMPLE_TEXT.replace("Round 1: ann opens", "Round 1").replace(
        "show 6 6, reroll 1 4 2, 5x6", "5x6, reroll 1 4 2, show 6 6"
    )
    rec = text_to_record(text)
    assert "opener" not in rec["rounds"][0]
    assert rec["rounds"][0]["moves"][1] == EXAMPLE["rounds"][0]["moves"][1]
    assert "Round 1\n" in record_to_text(rec)


def test_before_mode_prints_the_bid_first() -> None:
    rec = example(options={"loss": "one", "show_reroll": "before"})
    rec["rounds"][0]["moves"][1] = {
        "player": "bob",
        "bid": "5x6",
        "show": [6, 6],
        "reroll": [1, 4, 2],
    }
    text = record_to_text(rec)
    assert "bob: 5x6, show 6 6, reroll 1 4 2\n" in text
    assert "Option: show_reroll = before\n" in text
    assert "= count 7: cy loses 1" in text
    assert text_to_record(text) == rec
    rec["rounds"][0]["moves"][1] = {"player": "bob", "bid": "5x6", "show": []}
    text = record_to_text(rec)
    assert "bob: 5x6, no show\n" in text
    assert text_to_record(text) == rec


def test_stash_buy_ask_and_exact_lines() -> None:
    rec = {
        "liarsdice": 1,
        "rules": "spot-on",
        "options": {"economy": "rich-man", "chips": 10, "stash": "open"},
        "players": ["ann", "bob"],
        "rounds": [
            {
                "opener": "ann",
                "dice": {"ann": [2, 2, 3, 3, 4], "bob": [2, 3, 4, 5, 5]},
                "stash": [1, 1],
                "moves": [{"player": "ann", "bid": "5x6"}, {"player": "bob", "call": "liar"}],
            },
            {
                "opener": "ann",
                "dice": {"ann": [6, 6, 6, 6], "bob": [1, 2, 3, 4, 5]},
                "stash": [6, 2],
                "moves": [
                    {"player": "ann", "buy": [6]},
                    {"player": "ann", "bid": "6x6"},
                    {"player": "bob", "call": "exact"},
                ],
            },
        ],
    }
    text = record_to_text(rec)
    assert "Stash: 1 1\n" in text and "Stash: 6 2\n" in text
    assert "ann: buy 6\n" in text and "bob: exact\n" in text
    assert "Option: chips = 10\n" in text and "Option: stash = open\n" in text
    assert "= count 0: ann loses 1 | dice ann 4, bob 5 | chips ann 9, bob 9, game pot 2" in text
    assert "= count 6: ann loses 1 | dice ann 4, bob 5 | chips ann 7, bob 9, game pot 4" in text
    assert text_to_record(text) == rec
    asked = example(rules="house-rules", options={"loss": "one", "show_reroll": "after"})
    asked["rounds"][0]["moves"].insert(1, {"player": "cy", "ask": "count"})
    text = record_to_text(asked)
    assert "cy: ask count\n" in text and "= count 7: cy loses 2 |" in text
    assert text_to_record(text) == asked


def test_options_of_every_type_round_trip() -> None:
    options = {
        "dice": [3, 2, 4],
        "face_order": [2, 3, 4, 5, 6, 1],
        "wild": None,
        "ordering": "quantity",
        "drinking": True,
        "open_on_wild": False,
        "chips": 7,
    }
    rec = example(rules="classic", options=options, rounds=[])
    text = record_to_text(rec)
    assert "Option: dice = [3, 2, 4]\n" in text
    assert "Option: wild = none\n" in text
    assert "Option: drinking = true\n" in text
    assert text_to_record(text) == rec
    single = example(rules="classic", options={"dice": [4]}, rounds=[])
    assert text_to_record(record_to_text(single)) == single
    custom = record_from_state(Game(preset("classic").replace(name="mine")).new_initial_state())
    assert text_to_record(record_to_text(custom)) == custom


@pytest.mark.parametrize(
    "names",
    [
        ["Round", "Stash", "players"],  # Stash is a keyword of bidding-family text records only
        ["ann marie", "x:y", 'say "hi"'],
    ],
)
def test_awkward_names_are_quoted(names: list[str]) -> None:
    rec = example(players=names)
    rnd = rec["rounds"][0]
    rnd["opener"] = names[0]
    rnd["dice"] = dict(zip(names, rnd["dice"].values(), strict=True))
    for move, name in zip(rnd["moves"], names, strict=True):
        move["player"] = name
    text = record_to_text(rec)
    assert text_to_record(text) == rec
    assert f"| {names[1]} opens next" in text  # result lines are for reading: names bare


def test_illegal_record_still_prints_up_to_the_error() -> None:
    rec = example()
    rec["rounds"].append(
        {"dice": {"ann": [2] * 5, "bob": [3] * 5, "cy": [4] * 4}, "moves": [{"player": "cy"}]}
    )
    with pytest.raises(RecordError):
        record_to_text(rec)  # malformed moves do not print
    rec["rounds"][1]["moves"] = [
        {"player": "bob", "bid": "2x2"},
        {"player": "ann", "bid": "1x2"},
    ]
    text = record_to_text(rec)
    assert text.count("\n= ") == 1
    assert text_to_record(text) == rec
    with pytest.raises(RecordError) as info:
        replay_record(text_to_record(text))
    assert (info.value.round, info.value.move) == (1, 1)


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (
            "Liar's Dice record, version 1\nRules: classic\nOption: los = one\nPlayers: a, b\n",
            "unknown rule option 'los'",
            (None, None),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nOption: palifico = maybe\n",
            "line 3: option palifico takes true or false, not 'maybe'",
            (None, None),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\n"
            "a rolls 1\nb rolls 2\na: 1x2\nb: raise\n",
            "line 8: can't read 'raise'",
            (0, 1),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\n"
            "a rolls 1\na: 1x2\nb rolls 2\n",
            "line 7: the dice go before the moves",
            (0, None),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\na rolls 1 x\n",
            "line 5: a's dice: 'x' is not a die face",
            (0, None),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\na sits\n",
            "expected 'NAME: move' or 'NAME rolls'",
            (0, None),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\n"
            "a rolls 1\nb rolls 2\na: 1x2, 1x3\n",
            "two bid items",
            (0, 0),
        ),
        (
            "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\nRound 1\n"
            "a rolls 1\nb rolls 2\nc: 1x2\n",
            "unknown player 'c'",
            (0, 0),
        ),
    ],
)
def test_parse_errors(text: str, message: str, where: tuple[int | None, int | None] | None) -> None:
    check_text_error(text_to_record, text, message, where)


def test_describe_result_lists_gains_pile_scores_and_game_over() -> None:
    line = describe_result(
        {
            "count": 3,
            "losses": {},
            "gains": {"ann": 2},
            "dice": {"ann": 3, "bob": 0},
            "pile": 0,
            "scores": {"ann": 1, "bob": -1},
            "next_opener": None,
        }
    )
    assert (
        line
        == "count 3: ann gains 2 | dice ann 3, bob 0 | pile 0 | scores ann 1, bob -1 | game over"
    )
    assert describe_result(
        {"count": 1, "losses": {}, "dice": {"a": 1, "b": 1}, "next_opener": "a"}
    ).startswith("count 1: no dice change hands |")


def test_finished_game_names_the_winner() -> None:
    state = play("classic", {}, 2)
    assert state.is_terminal()
    text = record_to_text(record_from_state(state))
    assert text.rstrip().endswith(f"game over | {state.game.names[state.winner or 0]} wins")


# ------------------------------------------------------------------------- random round trips

VARIANTS: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in PRESETS] + [
    ("milton-bradley", {"show_reroll": "before"}),
    ("spot-on", {"stash": "secret", "economy": "rich-man"}),
    ("spot-on", {"calling_advantage": True, "stash": "open"}),
    ("house-rules", {"economy": "chips", "show_reroll": "after"}),
]


@pytest.mark.parametrize(("name", "over"), VARIANTS)
def test_random_games_text_round_trip(name: str, over: dict[str, Any]) -> None:
    for seed in range(4):
        for stop in (None, 25):
            state = play(name, over, seed, stop)
            record = record_from_state(state)
            text = record_to_text(record)
            assert text_to_record(text) == record
            assert text.count("\n= ") == len(state.results)
            assert replay_record(text_to_record(text)).results == state.results


@settings(max_examples=25, deadline=None)
@given(state=record_util.bidding_games(VARIANTS, max_stop=120))
def test_property_text_round_trip(state: State) -> None:
    record = record_from_state(state)
    assert text_to_record(record_to_text(record)) == load_record(record)
