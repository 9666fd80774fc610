"""The record formats of every rule family, tested once through :mod:`liarsdice.families`: the
JSON record and its compact writer, the text record, the replay summary, and the errors every
family's reader shares (the header, the version, players, rounds and moves, text lines).

Family-specific rules and messages are tested in ``test_record.py``, ``test_text_record.py``
(the bidding family), ``test_poker_record.py`` and ``test_poker_text_record.py`` (poker dice).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice.families import (
    FAMILIES,
    Family,
    dumps_record,
    family_named,
    family_of_record,
    family_of_text,
    load_record,
    read_record_text,
    record_from_state,
    record_to_text,
    replay_partial,
    replay_record,
    replay_summary,
    text_to_record,
)
from record_util import (
    EXAMPLES,
    FAMILY_NAMES,
    SUMMARIES,
    TEXTS,
    example,
    raised,
    random_state,
    rename,
)

# Every preset of every family (the games the random tests play).
PRESETS = [(f.name, name) for f in FAMILIES for name in f.presets]


error_of = functools.partial(raised, replay_record)
parse_error = functools.partial(raised, text_to_record)


def assert_round_trip(state: Any) -> dict[str, Any]:
    """The record of ``state`` survives the JSON writer, the text format and a replay."""
    record = record_from_state(state)
    assert family_of_record(record) is family_named(state.game.family)
    assert json.loads(dumps_record(record)) == record
    assert load_record(dumps_record(record)) == record
    text = record_to_text(record)
    assert text_to_record(text) == record
    assert read_record_text(text) == read_record_text(dumps_record(record)) == record
    replayed = replay_record(record)
    assert record_from_state(replayed) == record
    assert replayed.results == state.results
    assert replayed.winner == state.winner
    summary = replay_summary(record)
    assert summary["ok"] and len(summary["rounds"]) == len(state.results)
    assert text.count("\n= ") == len(state.results)
    return record


# ---------------------------------------------------------------------------- the examples
@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_example_summary_text_and_round_trip(family: str) -> None:
    rec = EXAMPLES[family]
    assert family_of_record(rec).name == family
    assert family_of_text(TEXTS[family]).name == family
    assert replay_summary(rec) == SUMMARIES[family]
    assert replay_summary(json.dumps(rec)) == SUMMARIES[family]
    assert record_from_state(replay_record(rec)) == rec
    assert record_to_text(rec) == record_to_text(json.dumps(rec)) == TEXTS[family]
    assert text_to_record(TEXTS[family]) == rec
    state, error = replay_partial(rec)
    assert error is None and state is not None and len(state.results) == 1


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_dumps_record_writes_one_move_per_line(family: str) -> None:
    rec = EXAMPLES[family]
    text = dumps_record(rec)
    assert json.loads(text) == rec
    lines = text.splitlines()
    assert lines[0] == (
        f'{{"liarsdice": 1, "rules": "{rec["rules"]}", "options": {json.dumps(rec["options"])},'
    )
    assert lines[1] == ' "players": ["ann", "bob", "cy"],'
    assert lines[2] == ' "rounds": ['
    assert lines[4] == '   "moves": ['
    moves = rec["rounds"][0]["moves"]
    assert lines[5:] == [f"    {json.dumps(m)}," for m in moves[:-1]] + [
        f"    {json.dumps(moves[-1])}]}}]}}"
    ]
    empty = example(family, rounds=[])
    assert dumps_record(empty).splitlines()[-1] == ' "rounds": []}'
    assert json.loads(dumps_record(empty)) == empty
    no_moves = example(family)
    no_moves["rounds"][0]["moves"] = []
    assert dumps_record(no_moves).splitlines()[-1] == '   "moves": []}]}'
    assert json.loads(dumps_record(no_moves)) == no_moves


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_load_normalizes_and_reads_text(family: str) -> None:
    rec = example(family)
    del rec["options"]
    loaded = load_record(json.dumps(rec).encode())
    assert loaded["options"] == {} and loaded["rounds"] == rec["rounds"]
    assert loaded is not rec and load_record(loaded) == loaded


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_unicode_names_are_written_as_they_are(family: str) -> None:
    rec = rename(EXAMPLES[family], ["Zoë", "李", "bob"])
    assert "Zoë" in dumps_record(rec) and "李" in record_to_text(rec)
    assert json.loads(dumps_record(rec)) == rec
    assert text_to_record(record_to_text(rec)) == rec
    assert replay_summary(rec)["ok"]


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize(
    "names",
    [
        ["Round", "Rules", "players"],
        ["ann marie", "x:y", 'say "hi"'],
        ["Zoë", "李", "o'neil"],
        ["=eq", "#hash", "a,b"],
        ["Option", "a.b", "c+d-e"],
    ],
)
def test_awkward_names_are_quoted(family: str, names: list[str]) -> None:
    rec = rename(EXAMPLES[family], names)
    text = record_to_text(rec)
    assert text_to_record(text) == rec
    assert len(text.splitlines()) == len(TEXTS[family].splitlines())


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_bare_keyword_as_a_name_is_an_error(family: str) -> None:
    rec = rename(example(family, rounds=[]), ["Round", "bob", "cy"])
    text = record_to_text(rec)
    assert 'Players: "Round", bob, cy' in text
    err = parse_error(text.replace('"Round"', "Round"))
    number = text.splitlines().index('Players: "Round", bob, cy') + 1
    assert err.message == f"line {number}: 'Round' is a keyword: quote a player of that name"


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_illegal_record_still_prints_up_to_the_error(family: str) -> None:
    rec = example(family)
    rec["rounds"][0]["moves"][2]["player"] = "ann"
    text = record_to_text(rec)
    assert "\n= " not in text
    assert text_to_record(text) == rec
    err = error_of(text_to_record(text))
    assert err.message == "it is cy's turn, not ann's" and (err.round, err.move) == (0, 2)


# ---------------------------------------------------------------------------- random games
@pytest.mark.parametrize(("family", "preset"), PRESETS)
def test_random_games_round_trip(family: str, preset: str) -> None:
    fam = family_named(family)
    for seed in range(4):
        state = random_state(fam, preset, seed, players=2 + seed % 3)
        assert state.is_terminal()
        record = assert_round_trip(state)
        winner = state.game.names[state.winner]
        assert replay_summary(record)["winner"] == winner
        assert record_to_text(record).rstrip("\n").endswith(f"| {winner} wins")


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_NAMES)
def test_every_prefix_of_a_game_round_trips(family: Family) -> None:
    preset = next(iter(family.presets))
    final = random_state(family, preset, 3)
    for stop in range(0, len(final.history()) + 1, 5):
        assert_round_trip(random_state(family, preset, 3, stop=stop))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    stop=st.none() | st.integers(0, 300),
    names=st.lists(
        st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=6).filter(
            lambda name: len(f"a{name}b".splitlines()) == 1  # the bidding text: one line
        ),
        min_size=6,
        max_size=6,
        unique=True,
    ),
)
def test_property_round_trip(
    preset: tuple[str, str], seed: int, players: int, stop: int | None, names: list[str]
) -> None:
    family = family_named(preset[0])
    assert_round_trip(random_state(family, preset[1], seed, players, stop, names))


# ---------------------------------------------------------------------------- JSON errors
@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"liarsdice": 2}, "unsupported record version 2; this reader knows version 1"),
        ({"liarsdice": "1"}, "unsupported record version '1'; this reader knows version 1"),
        ({"liarsdice": True}, "unsupported record version True; this reader knows version 1"),
        ({"options": []}, "'options' must be an object of option names to values"),
        ({"options": {"name": "x"}}, "'name' is not an option: the record's 'rules' key names"),
        ({"players": ["ann", "ann", "cy"]}, "player names must be distinct"),
        ({"players": ["ann"]}, "a game needs 2..12 players, not 1"),
        ({"players": [f"p{i}" for i in range(13)]}, "a game needs 2..12 players, not 13"),
        ({"players": "ann bob"}, "'players' must be a list of non-empty names"),
        ({"players": ["ann", ""]}, "'players' must be a list of non-empty names"),
        ({"rounds": {}}, "'rounds' must be a list"),
        ({"comment": "hi", "zz": 1}, "unknown record key(s): comment, zz"),
    ],
)
def test_record_level_errors(family: str, change: dict[str, Any], message: str) -> None:
    err = error_of(example(family, **change))
    assert err.message.startswith(message)
    assert (err.round, err.move) == (None, None)
    assert replay_summary(example(family, **change)) == {
        "ok": False,
        "error": {"round": None, "move": None, "message": err.message},
    }


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_missing_keys_and_bad_json(family: str) -> None:
    rec = example(family)
    del rec["liarsdice"]
    assert error_of(rec).message == (
        "not a liarsdice record: the 'liarsdice' version key is missing"
    )
    for key in ("rules", "players", "rounds"):
        rec = example(family)
        del rec[key]
        assert error_of(rec).message == f"the record has no {key!r}"
    err = error_of('{"liarsdice": 1,')
    assert err.message.startswith("not valid JSON") and err.round is None
    assert error_of("[1, 2]").message == "a record is a JSON object"
    assert error_of(b"3").message == "a record is a JSON object"


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"extra": 1, "more": 2}, "unknown round key(s): extra, more"),
        ({"opener": "dan"}, "unknown opener 'dan'; players: ann, bob, cy"),
        ({"opener": 3}, "unknown opener 3; players: ann, bob, cy"),
        ({"moves": None}, "'moves' must be a list"),
        ({"fair": []}, "'fair' must be an object, not []"),
    ],
)
def test_malformed_rounds(family: str, change: dict[str, Any], message: str) -> None:
    rec = example(family)
    rec["rounds"][0].update(change)
    err = error_of(rec)
    assert err.message == message
    assert (err.round, err.move) == (0, None)


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_round_parts(family: str) -> None:
    rec = example(family)
    rec["rounds"][0] = "round"
    assert error_of(rec).message == "a round is an object, not 'round'"
    rec = example(family)
    del rec["rounds"][0]["moves"]
    err = error_of(rec)
    assert err.message == "the round has no 'moves' (an empty list if nobody moved yet)"
    assert (err.round, err.move) == (0, None)
    rec = example(family)
    rec["rounds"][0]["fair"] = {"seed": "x"}
    assert load_record(rec)["rounds"][0]["fair"] == {"seed": "x"}


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("liar", "a move is an object, not 'liar'"),
        ({"call": "liar"}, "the move has no 'player'"),
        ({"player": "dan", "call": "liar"}, "unknown player 'dan'; players: ann, bob, cy"),
        ({"player": 7, "call": "liar"}, "unknown player 7; players: ann, bob, cy"),
        ({"player": "cy", "call": "liar", "bid": "x"}, "a call move has no other keys (found bid)"),
    ],
)
def test_malformed_moves(family: str, move: Any, message: str) -> None:
    rec = example(family)
    rec["rounds"][0]["moves"][2] = move
    err = error_of(rec)
    assert err.message == message
    assert (err.round, err.move) == (0, 2)


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_replay_errors(family: str) -> None:
    rec = example(family)
    rec["rounds"][0]["moves"][1]["player"] = "cy"
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (0, 1, "it is bob's turn, not cy's")
    state, error = replay_partial(rec)
    assert error is not None and error.message == err.message
    assert state is not None and state.round == 0 and not state.results
    rec = example(family)
    rec["rounds"][0]["opener"] = "bob"  # round 0's opener sets the game's first opener
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (0, 0, "it is bob's turn, not ann's")
    rec = example(family)
    rec["rounds"].append(rec["rounds"][0])
    err = error_of(rec)
    assert err.message == "the opener is " + SUMMARIES[family]["rounds"][0]["next_opener"] + (
        " under these rules, not ann"
    )
    assert (err.round, err.move) == (1, None)
    rec = example(family)
    rec["rounds"][0]["moves"].append({"player": "ann", "call": "liar"})
    err = error_of(rec)
    assert err.message == "the round is already over: this move belongs to the next round"
    assert (err.round, err.move) == (0, 3)
    assert replay_summary(rec) == {
        "ok": False,
        "error": {"round": 0, "move": 3, "message": err.message},
    }


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_rounds_and_moves_after_the_end(family: str) -> None:
    state = random_state(family_named(family), next(iter(family_named(family).presets)), 5)
    record = record_from_state(state)
    extra = dict(record["rounds"][-1])
    rec = {**record, "rounds": [*record["rounds"], extra]}
    err = error_of(rec)
    assert err.message == "the game is already over: no more rounds"
    assert err.round == len(record["rounds"])
    last = record["rounds"][-1]
    moves = [*last["moves"], last["moves"][-1]]
    rec = {**record, "rounds": [*record["rounds"][:-1], {**last, "moves": moves}]}
    err = error_of(rec)
    assert err.message == "the game is over"
    assert (err.round, err.move) == (len(record["rounds"]) - 1, len(moves) - 1)


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_unfinished_round_before_the_next(family: str) -> None:
    rec = example(family)
    second = dict(rec["rounds"][0])
    del rec["rounds"][0]["moves"][2]
    del second["opener"]
    rec["rounds"].append(second)
    err = error_of(rec)
    assert err.message == (
        "the previous round is not over (no call ended it), but the record goes on"
    )
    assert (err.round, err.move) == (0, None)


# ---------------------------------------------------------------------------- text errors
HEADS = {
    "bidding": "Liar's Dice record, version 1\nRules: classic\nPlayers: a, b\n",
    "poker": "Liar's Dice record, version 1\nRules: poker-dice\nPlayers: a, b\n",
}


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("{head}Round 2\n", "line 4: expected round 1, not 2", (None, None)),
        ("{head}Round one\n", "line 4: can't read 'Round one': write 'Round N: NAME opens'", None),
        (
            "{head}Round 1: a b opens\n",
            "line 4: can't read the opener in 'Round 1: a b opens'",
            None,
        ),
        ("{head}Round 1: Round opens\n", "line 4: 'Round' is a keyword", (0, None)),
        ("{head}Round 1\nRules: x\n", "line 5: the Rules header goes before the first round", None),
        ("{head}Round 1\nPlayers: a\n", "line 5: the Players header goes before", (0, None)),
        ("{head}Option loss\n", "line 4: expected 'Option:'", (None, None)),
        ("{head}Option: lives\n", "line 4: write an option as 'Option: name = value'", None),
        ("{head}a: liar\n", "line 4: can't read 'a: liar' before the first round", None),
        ("{head}Round 1\n\n# c\n= r\n:x\n", "line 8: expected a name in ':x'", (0, None)),
    ],
)
def test_text_errors(
    family: str, text: str, message: str, where: tuple[int | None, int | None] | None
) -> None:
    err = parse_error(text.format(head=HEADS[family]))
    assert err.message.startswith(message)
    if where is not None:
        assert (err.round, err.move) == where


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_text_header_errors(family: str) -> None:
    head = HEADS[family]
    assert parse_error("").message == "empty text record: expected 'Liar's Dice record, version 1'"
    assert parse_error("\n# only a comment\n").message.startswith("empty text record")
    err = parse_error("Rules: poker-dice\n")
    assert (
        err.message
        == "line 1: not a liarsdice text record: expected 'Liar's Dice record, version 1'"
    )
    assert parse_error(head.replace("version 1", "version 2")).message.startswith(
        "unsupported record version 2"
    )
    assert parse_error(head.replace("version 1", "version x")).message.startswith(
        "unsupported record version 'x'"
    )
    players = head.splitlines()[2] + "\n"
    assert parse_error(head.replace(players, "")).message == (
        "the text record has no Players: line"
    )
    assert parse_error(head.replace("Players: a, b", "Players: a b")).message == (
        "line 3: players are separated by commas"
    )
    assert parse_error(head.replace("Players: a, b", 'Players: a, "b')).message == (
        "line 3: expected a name in 'Players: a, \"b'"
    )
    rules = head.splitlines()[1] + "\n"
    assert parse_error(head.replace(rules, "")).message == "the text record has no Rules: line"
    lenient = head.replace("Liar's Dice record, version 1", "  liar’s dice record version 1")
    assert text_to_record(
        lenient.upper().replace("POKER-DICE", "poker-dice").replace("CLASSIC", "classic")
    )["players"] == ["A", "B"]
