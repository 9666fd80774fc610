"""Tests for liarsdice.notation.bidding.record: the bidding family's JSON game record and its replay
(its rules, moves and messages). What every family's record shares (the header, the writer,
players, rounds, round trips) is tested in test_family_records.py."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import record_util
from liarsdice.core.bidding import (
    BUY,
    CHANCE,
    LIAR,
    NO_SHOW,
    PRESETS,
    Bid,
    FirstOpener,
    Game,
    Phase,
    RecordError,
    State,
    preset,
)
from liarsdice.notation.bidding.record import (
    dumps_record,
    load_record,
    record_from_state,
    record_rules,
    replay_record,
    replay_summary,
)
from record_util import BIDDING_EXAMPLE, BIDDING_SUMMARY, choose, play, raised

# ------------------------------------------------------------------------------- fixtures

EXAMPLE = BIDDING_EXAMPLE


example = functools.partial(record_util.example, "bidding")
error_of = functools.partial(raised, replay_record)


# Every preset, plus the options the record has special cases for.
VARIANTS: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in PRESETS] + [
    ("milton-bradley", {"show_reroll": "before"}),
    ("classic", {"show_reroll": "after", "stash": "open"}),
    ("spot-on", {"stash": "secret"}),
    ("spot-on", {"stash": "open", "show_reroll": "before"}),
    ("spot-on", {"economy": "rich-man"}),
    ("spot-on", {"calling_advantage": True}),
    ("milton-bradley", {"economy": "chips"}),
    ("house-rules", {"show_reroll": "before"}),
    ("house-rules", {"economy": "rich-man", "exact": "spot-on"}),
    ("perudo", {"first_opener": "roll-two"}),
    ("classic", {"dice": [3, 2, 4], "players": 3}),
]


def expected_history(state: State) -> list[tuple[int, Any]]:
    """The history a replay reproduces: without the first-opener draw, which the record sums
    up as round 0's opener, and without an unfinished roll at the end."""
    history = state.history()
    start = 0
    if state.game.rules.first_opener is not FirstOpener.GIVEN:
        walk = state.game.new_initial_state()
        while walk.phase is Phase.SETUP and start < len(history):
            walk = walk.apply_event(*history[start])
            start += 1
        if walk.phase is Phase.SETUP:
            return []
    end = len(history)
    if state.phase is Phase.ROLL:
        while end > start and history[end - 1][0] == CHANCE:
            end -= 1
    return history[start:end]


def assert_round_trip(state: State) -> State:
    record = record_from_state(state)
    assert json.loads(dumps_record(record)) == record
    assert load_record(dumps_record(record)) == record
    replayed = replay_record(record)
    assert replayed.history() == expected_history(state)
    assert replayed.results == state.results
    assert replayed.winner == state.winner
    assert_same_position(replayed, state, "hands", "chips")
    return replayed


def assert_same_position(replayed: State, state: State, *table: str) -> None:
    """Unless ``state`` is at a roll or the setup (which a record ends before), ``replayed``
    stands where it does: the phase, the player to move and the table's fields ``table``."""
    if state.phase not in (Phase.ROLL, Phase.SETUP):
        assert replayed.phase is state.phase
        assert replayed.current_player == state.current_player
        for field in table:
            assert getattr(replayed.table, field) == getattr(state.table, field), field


# ----------------------------------------------------------------------- the example record


def test_example_replays_to_the_hand_computed_result() -> None:
    state = replay_record(EXAMPLE)
    (result,) = state.results
    # bob showed 6,6 and re-rolled 2,2,4 into 1,4,2: his dice are 6,6 shown + 1,2,4.
    assert result.hands == ((1, 3, 3, 5, 6), (1, 2, 4, 6, 6), (1, 1, 5, 5, 5))
    # 5x6 with ones wild: ann 2 (1, 6), bob 3 (6, 6, 1), cy 2 (1, 1) = 7 > 5: the caller loses.
    assert (result.bid, result.count, result.caller, result.bidder) == (Bid(5, 6), 7, 2, 1)
    assert result.losses == {2: 1}
    # Rules source 001: the winner of the challenge (the bidder bob) opens the next round.
    assert result.next_opener == 1
    assert state.phase is Phase.ROLL and state.table.opener == 1
    assert state.dice_counts == (5, 5, 4)


def test_example_summary() -> None:
    assert replay_summary(EXAMPLE) == BIDDING_SUMMARY


def test_example_under_difference_loss_costs_the_caller_two() -> None:
    summary = replay_summary(example(options={}))
    (rnd,) = summary["rounds"]
    assert rnd["losses"] == {"cy": 2}
    assert rnd["dice"] == {"ann": 5, "bob": 5, "cy": 3}
    assert rnd["next_opener"] == "bob"


def test_example_engine_event_order() -> None:
    game = Game(preset("milton-bradley", loss="one"), ["ann", "bob", "cy"])
    history = replay_record(EXAMPLE).history()
    rolls = [1, 3, 3, 5, 6, 2, 2, 4, 6, 6, 1, 1, 5, 5, 5]
    assert history == [(CHANCE, f) for f in rolls] + [
        (0, game.bid_action(Bid(3, 5))),
        (1, game.show_action([6, 6])),
        (CHANCE, 1),
        (CHANCE, 4),
        (CHANCE, 2),
        (1, game.bid_action(Bid(5, 6))),
        (2, LIAR),
    ]


# ------------------------------------------------------------------------- format features


def test_load_record_accepts_text_and_normalizes() -> None:
    rec = example()
    del rec["options"]
    rec["rules"] = "milton-bradley"
    rec["rounds"][0]["dice"] = {
        "cy": [1, 1, 5, 5, 5],
        "ann": [1, 3, 3, 5, 6],
        "bob": [2, 2, 4, 6, 6],
    }
    loaded = load_record(json.dumps(rec))
    assert loaded["options"] == {}
    assert list(loaded["rounds"][0]["dice"]) == ["ann", "bob", "cy"]
    # load_record copies: changing the result leaves the input alone.
    loaded["rounds"][0]["moves"].clear()
    assert len(rec["rounds"][0]["moves"]) == 3


def test_opener_may_be_omitted_where_the_rules_decide() -> None:
    rec = example(options={"loss": "one", "first_opener": "given"})
    del rec["rounds"][0]["opener"]
    assert replay_record(rec).results[0].next_opener == 1
    # Later rounds: the engine decides (bob won the challenge and opens round 1).
    rec["rounds"].append(
        {
            "dice": {"ann": [2, 2, 2, 2, 2], "bob": [3, 3, 3, 3, 3], "cy": [4, 4, 4, 4]},
            "moves": [{"player": "bob", "bid": "1x2"}],
        }
    )
    state = replay_record(rec)
    assert state.table.opener == 1 and state.current_player == 2


def test_round_zero_opener_is_required_when_chance_chooses() -> None:
    rec = example()
    del rec["rounds"][0]["opener"]
    err = error_of(rec)
    assert (err.round, err.move) == (0, None)
    assert "opener" in err.message and "random" in err.message


def test_round_zero_opener_sets_the_game_opener() -> None:
    rec = example()
    rec["rounds"][0]["opener"] = "cy"
    rec["rounds"][0]["moves"] = [{"player": "cy", "bid": "3x5"}]
    state = replay_record(rec)
    assert state.game.opener == 2 and state.current_player == 0
    # With first_opener given, a round-0 opener is the seat the game was created with.
    rec["options"] = {"first_opener": "given"}
    assert replay_record(rec).game.opener == 2


def test_given_opener_round_trips() -> None:
    rng = random.Random(5)
    state = Game(preset("room"), ["a", "b", "c"], opener=2).new_initial_state()
    state = state.resolve_chance(rng)
    assert state.current_player == 2
    record = record_from_state(state)
    assert record["rounds"][0]["opener"] == "c"
    assert replay_record(record).history() == state.history()


def test_unfinished_last_round_is_a_game_in_progress() -> None:
    rec = example()
    rec["rounds"][0]["moves"] = rec["rounds"][0]["moves"][:2]
    state = replay_record(rec)
    assert state.phase is Phase.BID and state.current_player == 2
    assert state.current_bid == Bid(5, 6)
    assert replay_summary(rec) == {"ok": True, "rounds": [], "winner": None}


def test_after_mode_show_without_bid_waits_for_the_raise() -> None:
    rec = example()
    rec["rounds"][0]["moves"] = [
        {"player": "ann", "bid": "3x5"},
        {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2]},
    ]
    state = replay_record(rec)
    assert state.phase is Phase.BID and state.current_player == 1
    assert LIAR not in state.legal_actions()  # after showing, bob must raise
    # ...and the raise may follow as its own move.
    rec["rounds"][0]["moves"].append({"player": "bob", "bid": "5x6"})
    assert replay_record(rec).current_bid == Bid(5, 6)
    # A partial re-roll is only allowed at the very end of the record.
    del rec["rounds"][0]["moves"][1:]
    rec["rounds"][0]["moves"].append({"player": "bob", "show": [6, 6], "reroll": [1]})
    state = replay_record(rec)
    assert state.phase is Phase.REROLL and state.is_chance_node()


def before_mode() -> dict[str, Any]:
    rec = example(options={"loss": "one", "show_reroll": "before"})
    rec["rounds"][0]["moves"] = [
        {"player": "ann", "bid": "3x5"},
        {"player": "bob", "bid": "5x6", "show": [6, 6], "reroll": [1, 4, 2]},
        {"player": "cy", "call": "liar"},
    ]
    return rec


def test_before_mode_bid_then_show_then_reroll() -> None:
    rec = before_mode()
    state = replay_record(rec)
    game = state.game
    player_events = [(p, a) for p, a in state.history() if p != CHANCE]
    assert player_events == [
        (0, game.bid_action(Bid(3, 5))),
        (1, game.bid_action(Bid(5, 6))),
        (1, game.show_action([6, 6])),
        (2, LIAR),
    ]
    assert state.results[0].count == 7 and state.results[0].losses == {2: 1}
    assert record_from_state(state) == rec


def test_before_mode_plain_bid_implies_no_show() -> None:
    rec = before_mode()
    rec["rounds"][0]["moves"][1] = {"player": "bob", "bid": "5x6"}
    state = replay_record(rec)
    assert (1, NO_SHOW) in state.history()
    # No re-roll: ann 2 (1, 6), bob 2 (6, 6 of 2, 2, 4, 6, 6), cy 2 (1, 1).
    assert state.results[0].count == 6
    assert record_from_state(state) == rec


def test_before_mode_last_plain_bid_leaves_the_show_decision_open() -> None:
    rec = before_mode()
    del rec["rounds"][0]["moves"][1:]
    rec["rounds"][0]["moves"].append({"player": "bob", "bid": "5x6"})
    state = replay_record(rec)
    assert state.phase is Phase.SHOW and state.current_player == 1
    assert record_from_state(state) == rec
    # An explicit decline ("show": []) applies the no-show even at the end.
    rec["rounds"][0]["moves"][1]["show"] = []
    state = replay_record(rec)
    assert state.phase is Phase.BID and state.current_player == 2
    assert state.history()[-1] == (1, NO_SHOW)
    assert record_from_state(state) == rec


def test_before_mode_show_needs_its_bid() -> None:
    rec = before_mode()
    rec["rounds"][0]["moves"][1] = {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2]}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1)
    assert "show goes in the move of the bid" in err.message


def test_before_mode_no_show_on_the_opening_bid() -> None:
    rec = before_mode()
    rec["rounds"][0]["moves"][0] = {"player": "ann", "bid": "3x5", "show": [5], "reroll": [1]}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 0)
    assert err.message.startswith("ann may not show after this bid")


def ann_loses_a_die_then(
    rules: str, options: dict[str, Any], dice: dict[str, list[int]], moves: list[dict[str, Any]]
) -> dict[str, Any]:
    """Two rounds of ann and bob: bob calls ann's 5x6 on 2 2 3 3 4 against 2 3 4 5 5 (ann
    loses a die), then ann opens again on ``dice`` with ``moves``."""
    return {
        "liarsdice": 1,
        "rules": rules,
        "options": options,
        "players": ["ann", "bob"],
        "rounds": [
            {
                "opener": "ann",
                "dice": {"ann": [2, 2, 3, 3, 4], "bob": [2, 3, 4, 5, 5]},
                "moves": [{"player": "ann", "bid": "5x6"}, {"player": "bob", "call": "liar"}],
            },
            {"opener": "ann", "dice": dice, "moves": moves},
        ],
    }


def rich_man() -> dict[str, Any]:
    """Two players, spot-on with Rich Man's Dice: ann loses a die, then buys it back."""
    return ann_loses_a_die_then(
        "spot-on",
        {"economy": "rich-man", "chips": 10},
        {"ann": [6, 6, 6, 6], "bob": [1, 2, 3, 4, 5]},
        [
            {"player": "ann", "buy": [6]},
            {"player": "ann", "bid": "5x6"},
            {"player": "bob", "call": "liar"},
        ],
    )


def test_rich_man_buy() -> None:
    rec = rich_man()
    state = replay_record(rec)
    game = state.game
    player_events = [(p, a) for p, a in state.history() if p != CHANCE]
    assert player_events[2:4] == [(0, BUY), (0, game.bid_action(Bid(5, 6)))]
    assert state.history()[-4:-2] == [(0, BUY), (CHANCE, 6)]
    second = state.results[1]
    assert second.hands[0] == (6, 6, 6, 6, 6) and second.count == 5
    assert second.losses == {1: 1}
    assert record_from_state(state) == rec
    summary = replay_summary(rec)
    assert summary["rounds"][0]["chips"] == {"ann": 9, "bob": 9}
    assert summary["rounds"][0]["game_pot"] == 2
    # ann paid the pot (2) for the die, which doubled it.
    assert summary["rounds"][1]["chips"] == {"ann": 7, "bob": 9}
    assert summary["rounds"][1]["game_pot"] == 4
    assert summary["rounds"][1]["dice"] == {"ann": 5, "bob": 4}


def test_buy_errors() -> None:
    rec = rich_man()
    rec["rounds"][0]["moves"].insert(0, {"player": "ann", "buy": [3]})
    err = error_of(rec)
    assert (err.round, err.move) == (0, 0)
    assert err.message == "you already have your 5 starting dice"
    rec = rich_man()
    rec["rounds"][1]["moves"][0] = {"player": "ann", "buy": []}
    err = error_of(rec)
    assert (err.round, err.move) == (1, 0)
    assert err.message == "ann buys 1 die but the record lists 0"
    rec = example()
    rec["rounds"][0]["moves"][0] = {"player": "ann", "buy": [3]}
    assert error_of(rec).message == "buying dice is not part of these rules"


def test_stash_is_rolled_after_the_players() -> None:
    rec = example(options={"stash": "open"})
    rec["rounds"][0]["stash"] = [4, 2, 6]
    state = replay_record(rec)
    assert state.results[0].stash == (4, 2, 6)
    assert state.results[0].count == 8  # the stash's 6 counts too
    assert [a for p, a in state.history() if p == CHANCE][15:18] == [4, 2, 6]
    assert record_from_state(state) == load_record(rec)


def test_house_rule_questions() -> None:
    rec = example(rules="house-rules", options={"loss": "one", "show_reroll": "after"})
    rec["rounds"][0]["moves"].insert(1, {"player": "cy", "ask": "turn"})
    state = replay_record(rec)
    assert (2, "turn") in state.history()
    # cy lost the challenge (1) and pays for the question (1).
    assert state.results[0].losses == {2: 2}
    assert replay_summary(rec)["rounds"][0]["losses"] == {"cy": 2}
    assert record_from_state(state) == rec
    # Questions need house penalties.
    rec["rules"] = "milton-bradley"
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1)
    assert err.message == "question penalties are not part of these rules"


def test_summary_keys_follow_the_rules() -> None:
    plain = replay_summary(EXAMPLE)["rounds"][0]
    assert not {"chips", "game_pot", "pile", "scores", "gains"} & set(plain)
    chips = replay_summary(example(options={"loss": "one", "economy": "chips"}))["rounds"][0]
    # Each round takes one chip into the round pot and one into the game pot from everyone.
    assert chips["chips"] == {"ann": 48, "bob": 51, "cy": 48}
    assert chips["game_pot"] == 3
    pile = replay_summary(example(options={"loss": "one", "calling_advantage": True}))
    assert pile["rounds"][0]["pile"] == 1


def _perudo_calza(options: dict[str, Any], second: list[dict[str, Any]]) -> dict[str, Any]:
    """Perudo: ann loses a die, then ``second`` on ann's 2 2 2 3 and bob's 2 3 4 5 6."""
    return ann_loses_a_die_then(
        "perudo", options, {"ann": [2, 2, 2, 3], "bob": [2, 3, 4, 5, 6]}, second
    )


def test_exact_call_gains_and_room_scores() -> None:
    rec = _perudo_calza({}, [{"player": "ann", "bid": "4x2"}, {"player": "bob", "call": "exact"}])
    summary = replay_summary(rec)
    assert summary["ok"]
    # Round 2: four 2s exactly, bob called calza but has all his dice: no gain, no loss.
    assert summary["rounds"][1]["losses"] == {} and "gains" not in summary["rounds"][1]
    rec["rounds"][1]["moves"] = [{"player": "ann", "bid": "5x2"}, {"player": "bob", "bid": "1x3"}]
    assert replay_summary(rec)["ok"] is False  # 1x3 does not beat 5x2 in Perudo
    room = {
        "liarsdice": 1,
        "rules": "room",
        "options": {},
        "players": ["ann", "bob", "cy"],
        "rounds": [
            {
                "dice": {"ann": [2, 2, 3, 3], "bob": [2, 3, 4, 5], "cy": [6, 6, 1, 1]},
                "moves": [
                    {"player": "ann", "bid": "3x2"},
                    {"player": "bob", "call": "liar"},
                    {"player": "cy", "call": "liar"},
                ],
            }
        ],
    }
    summary = replay_summary(room)
    assert summary["winner"] == "ann"
    assert summary["rounds"][0]["scores"] == {"ann": 1, "bob": -1, "cy": -1}
    assert summary["rounds"][0]["next_opener"] is None


def test_gains_appear_when_a_calza_is_right() -> None:
    rec = _perudo_calza(
        {"palifico": False}, [{"player": "ann", "bid": "4x2"}, {"player": "ann", "call": "exact"}]
    )
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (1, 1, "it is bob's turn, not ann's")
    rec["rounds"][1]["moves"] = [
        {"player": "ann", "bid": "3x3"},
        {"player": "bob", "bid": "4x2"},
        {"player": "ann", "call": "exact"},
    ]
    rnd = replay_summary(rec)["rounds"][1]
    assert rnd["gains"] == {"ann": 1} and rnd["losses"] == {}
    assert rnd["dice"] == {"ann": 5, "bob": 5}


def test_finished_game_has_a_winner() -> None:
    state = play("openspiel", {}, 3)
    assert state.is_terminal()
    summary = replay_summary(record_from_state(state))
    assert summary["winner"] == state.game.names[state.winner or 0]
    assert summary["rounds"][-1]["next_opener"] is None


def test_custom_rules_write_every_option() -> None:
    rules = preset("classic").replace(name="my-house", faces=8, wild=None)
    state = Game(rules, ["a", "b"], opener=1).new_initial_state()
    record = record_from_state(state.resolve_chance(random.Random(1)))
    assert record["rules"] == "custom"
    assert record["options"]["faces"] == 8 and record["options"]["wild"] is None
    assert "name" not in record["options"] and len(record["options"]) == len(rules.options()) - 1
    assert record_rules(record) == rules.replace(name="custom")
    replayed = replay_record(record)
    assert replayed.history() == state.resolve_chance(random.Random(1)).history()


def test_options_are_written_as_the_diff_from_the_preset() -> None:
    rules = preset("spot-on", stash="open", dice=(3, 4), face_order=(2, 3, 4, 5, 6, 1))
    state = Game(rules, ["a", "b"], opener=0).new_initial_state()
    record = record_from_state(state)
    assert record["options"] == {
        "stash": "open",
        "dice": [3, 4],
        "face_order": [2, 3, 4, 5, 6, 1],
    }
    assert record_rules(record) == rules


# ----------------------------------------------------------------------------- error paths


def cys_move_error(move: dict[str, Any]) -> RecordError:
    """The error of the example with cy's move (round 1's third) made ``move``: located there."""
    rec = example()
    rec["rounds"][0]["moves"][2] = {"player": "cy", **move}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 2)
    return err


def test_illegal_bid_names_what_it_must_beat() -> None:
    err = cys_move_error({"bid": "4x5"})
    assert err.message == "4x5 does not beat 5x6; least legal bids: 3x1, 6x2, 6x3, 6x4"


def test_bid_errors() -> None:
    rec = example()
    rec["rounds"][0]["moves"][0] = {"player": "ann", "bid": "16x5"}
    assert error_of(rec).message == "16x5 is not a bid in this game (faces 1..6, at most 15 dice)"
    rec["rounds"][0]["moves"][0] = {"player": "ann", "bid": "3x7"}
    assert "face 7" in error_of(rec).message
    rec["rounds"][0]["moves"][0] = {"player": "ann", "bid": "three fives"}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 0) and "QxF" in err.message


def test_wrong_number_of_dice_is_a_round_error() -> None:
    rec = example()
    rec["rounds"][0]["dice"]["bob"] = [2, 2, 4, 6]
    err = error_of(rec)
    assert (err.round, err.move) == (0, None)
    assert err.message == "bob has 5 dice but the record lists 4"
    rec["rounds"][0]["dice"] = {"ann": [1, 3, 3, 5, 6], "bob": [2, 2, 4, 6, 6]}
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (0, None, "no dice listed for cy (5 dice)")


def test_face_out_of_range_is_a_round_error() -> None:
    rec = example()
    rec["rounds"][0]["dice"]["cy"] = [1, 1, 5, 5, 7]
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (0, None, "cy's dice: 7 is not a face 1..6")
    rec = example()
    rec["rounds"][0]["moves"][1]["reroll"] = [1, 4, 9]
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1) and "must be 1..6, not 9" in err.message


def test_unknown_players() -> None:
    rec = example()
    rec["rounds"][0]["moves"][1]["player"] = "dan"
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1)
    assert err.message == "unknown player 'dan'; players: ann, bob, cy"
    rec = example()
    rec["rounds"][0]["dice"]["dan"] = [1]
    err = error_of(rec)
    assert (err.round, err.move) == (0, None) and "'dan'" in err.message
    rec = example()
    rec["rounds"][0]["opener"] = "dan"
    err = error_of(rec)
    assert (err.round, err.move) == (0, None) and "unknown opener 'dan'" in err.message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": "poker"}, "unknown rules 'poker'"),
        ({"options": {"lose": "one"}}, "unknown rule option 'lose'"),
        ({"options": {"loss": "two"}}, "option loss takes one of difference, one, not 'two'"),
        ({"options": {"dice": "5"}}, "option dice takes a whole number or a list of whole"),
        ({"options": {"palifico": 1}}, "option palifico takes true or false, not 1"),
        ({"options": {"exact-count": "bid-stands"}}, "unknown rule option 'exact-count'"),
        ({"options": {"face_order": [1, 2]}}, "face_order must rank each face"),
        ({"options": {"dice": [5, 5]}}, "dice lists 2 counts but the game has 3 players"),
    ],
)
def test_record_level_errors(change: dict[str, Any], message: str) -> None:
    err = error_of(example(**change))
    assert message in err.message
    assert (err.round, err.move) == (None, None)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ({"player": "bob", "call": "doubt"}, "a call is 'liar' or 'exact'"),
        ({"player": "bob", "ask": "dice"}, "a question is 'turn' or 'count'"),
        ({"player": "bob", "buy": [1, 2]}, "'buy' lists the bought die's face"),
        ({"player": "bob", "bid": "5x6", "raise": 1}, "unknown move key(s): raise"),
        ({"player": "bob", "reroll": [1], "bid": "5x6"}, "'reroll' comes with a 'show'"),
        ({"player": "bob"}, "a move needs one of bid, show, call, buy or ask"),
        ({"player": "bob", "bid": 56}, "'bid' is a string"),
        ({"player": "bob", "show": [], "reroll": [1], "bid": "5x6"}, "a declined show"),
    ],
)
def test_malformed_moves(move: Any, message: str) -> None:
    rec = example()
    rec["rounds"][0]["moves"][1] = move
    err = error_of(rec)
    assert message in err.message
    assert (err.round, err.move) == (0, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stash": [1, 2, 3]}, "these rules have no stash"),
        ({"dice": [1, 2]}, "'dice' maps each player"),
    ],
)
def test_malformed_rounds(change: dict[str, Any], message: str) -> None:
    rec = example()
    rec["rounds"][0].update(change)
    err = error_of(rec)
    assert message in err.message
    assert (err.round, err.move) == (0, None)


def test_missing_round_parts() -> None:
    for key, message in [("dice", "the round has no 'dice'")]:
        rec = example()
        del rec["rounds"][0][key]
        err = error_of(rec)
        assert message in err.message and (err.round, err.move) == (0, None)


def test_stash_errors() -> None:
    rec = example(options={"stash": "secret"})
    err = error_of(rec)
    assert (err.round, err.move) == (0, None) and "needs 'stash' dice" in err.message
    rec["rounds"][0]["stash"] = [1, 2]
    err = error_of(rec)
    assert err.message == "the stash has 3 dice but the record lists 2"
    rec["rounds"][0]["stash"] = [1, 2, 0]
    assert error_of(rec).message == "stash dice: 0 is not a face 1..6"


def test_show_errors() -> None:
    rec = example()
    moves = rec["rounds"][0]["moves"]
    moves[1] = {"player": "bob", "show": [6, 6, 6], "reroll": [1, 4], "bid": "5x6"}
    err = error_of(rec)
    assert (err.round, err.move) == (0, 1) and "your hidden dice: [2, 2, 4, 6, 6]" in err.message
    moves[1] = {"player": "bob", "show": [6, 6], "reroll": [1, 4], "bid": "5x6"}
    assert error_of(rec).message == "bob re-rolls 3 dice but the record lists 2"
    moves[1] = {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2, 3], "bid": "5x6"}
    assert error_of(rec).message == "bob re-rolls 3 dice but the record lists 4"
    moves[1] = {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2]}
    moves[2] = {"player": "bob", "call": "liar"}
    assert error_of(rec).message == "after showing and re-rolling you must raise the bid"
    moves[1] = {"player": "bob", "show": [], "bid": "5x6"}
    assert error_of(rec).message == "show at least one die"
    moves[0] = {"player": "ann", "show": [1], "reroll": [2, 2, 2, 2], "bid": "3x5"}
    assert error_of(rec).message == "you may not show and re-roll on an opening bid"
    rec = example(rules="classic", options={})
    assert error_of(rec).message == "show-and-reroll is not part of these rules"


def test_call_errors() -> None:
    err = cys_move_error({"call": "exact"})
    assert err.message == "the exact (spot-on) call is not part of these rules"
    rec = example()
    rec["rounds"][0]["moves"] = [{"player": "ann", "call": "liar"}]
    assert error_of(rec).message == "there is no bid to call yet: make the opening bid"


def test_players_out_of_the_game() -> None:
    rec = example(options={})
    rec["rounds"][0]["dice"]["cy"] = [1, 1, 5, 5, 5]
    rec["rounds"][0]["moves"][1]["bid"] = "10x6"  # 7 found: bob loses 3
    rec["rounds"][0]["moves"][2] = {"player": "cy", "call": "liar"}
    rec["rounds"].append(
        {
            "dice": {"ann": [1, 1, 1, 1, 1], "bob": [2, 2], "cy": [3, 3, 3, 3, 3]},
            "moves": [{"player": "cy", "bid": "11x1"}, {"player": "ann", "call": "liar"}],
        }
    )
    state = replay_record(rec)
    # Round 1: seven sixes against 10x6, bob loses 3. Round 2: five ones against 11x1, cy
    # loses 6, capped at the 5 dice cy has: cy is out.
    assert state.results[0].losses == {1: 3}
    assert state.results[1].losses == {2: 5} and state.results[1].eliminated == (2,)
    assert state.dice_counts == (5, 2, 0)
    summary = replay_summary(rec)
    assert summary["rounds"][1]["dice"] == {"ann": 5, "bob": 2, "cy": 0}
    assert summary["rounds"][1]["next_opener"] == "ann"
    third = {"dice": {"ann": [2, 2, 2, 2, 2], "bob": [3, 3]}, "moves": []}
    rec["rounds"].append(third)
    assert replay_record(rec).dice_counts == (5, 2, 0)
    third["dice"]["cy"] = []
    assert replay_record(rec).current_player == 0
    third["moves"] = [{"player": "cy", "ask": "turn"}]
    err = error_of(rec)
    assert (err.round, err.move, err.message) == (2, 0, "cy is out of the game")
    third["moves"] = []
    third["dice"]["cy"] = [4]
    err = error_of(rec)
    assert (err.round, err.move) == (2, None)
    assert err.message == "cy is out of the game but has dice listed"


# -------------------------------------------------------------------- random games, all rules


@pytest.mark.parametrize(("name", "over"), VARIANTS)
def test_random_games_round_trip(name: str, over: dict[str, Any]) -> None:
    for seed in range(6):
        state = play(name, over, seed)
        assert state.is_terminal()
        assert_round_trip(state)
        for stop in (0, 1, 7, 20, 33, 60):
            assert_round_trip(play(name, over, seed, stop))


def test_random_games_use_every_move_kind() -> None:
    kinds: set[str] = set()
    for name, over in VARIANTS:
        for seed in range(6):
            for rnd in record_from_state(play(name, over, seed))["rounds"]:
                for move in rnd["moves"]:
                    kinds.update(k for k in move if k != "player")
                    if "call" in move:
                        kinds.add(move["call"])
    assert kinds >= {"bid", "show", "reroll", "call", "liar", "exact", "buy", "ask"}


def test_questions_anywhere_replay_to_the_same_state() -> None:
    """Questions asked in the middle of a move are moved to its end: same outcome."""
    for over in ({}, {"show_reroll": "before"}, {"show_reroll": "after"}):
        for seed in range(25):
            rng = random.Random(seed)
            state = Game(preset("house-rules", **over), ["a", "b", "c"]).new_initial_state()
            for _ in range(rng.randint(0, 120)):
                if state.is_terminal():
                    break
                if rng.random() < 0.15:
                    state = state.ask(rng.choice(state.active_players()), "count")
                elif state.is_chance_node():
                    state = state.apply_action(state.sample_chance(rng))
                else:
                    state = state.apply_action(choose(state, rng))
            replayed = replay_record(record_from_state(state))
            assert replayed.results == state.results
            assert_same_position(replayed, state, "penalties", "hands")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=record_util.bidding_games(VARIANTS, max_stop=150))
def test_property_record_replays_the_history(state: State) -> None:
    replayed = assert_round_trip(state)
    assert replay_summary(record_from_state(state))["ok"]
    assert len(replayed.results) == len(state.results)
