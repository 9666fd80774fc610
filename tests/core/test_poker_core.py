"""Poker-dice engine: scenarios from rules source 004 (second half), its hints, and the API."""

from __future__ import annotations

import json

import pytest

from liarsdice.core.bidding.game import CHANCE, TERMINAL
from liarsdice.core.errors import IllegalActionError, RulesError
from liarsdice.core.poker import (
    ACCEPT,
    BID_BASE,
    LEFT,
    LIAR,
    POKER_PRESETS,
    RIGHT,
    Phase,
    PokerGame,
    PokerRules,
    parse_poker_bid,
    poker_preset,
)
from poker_util import play


def game(players: int = 3, **rules: object) -> PokerGame:
    return PokerGame(PokerRules(players=players, **rules))  # type: ignore[arg-type]


def bid(text: str) -> int:
    return BID_BASE + PokerGame().bids.index(parse_poker_bid(text))


# ------------------------------------------------------------------ opening
def test_player_one_rolls_looks_bids_and_passes() -> None:
    g = game(4)
    s = g.new_initial_state()
    assert s.phase is Phase.ROLL and s.current_player == CHANCE and s.is_chance_node()
    assert s.chance_outcomes() == [(f, 1 / 6) for f in range(1, 7)]
    s = play(s, "roll K K 9 10 J")
    assert s.phase is Phase.BID and s.current_player == 0
    # Player One may bid anything, junk included, and may not move dice
    assert s.legal_actions() == tuple(range(BID_BASE, BID_BASE + 462))
    assert s.view(0).cup == (1, 2, 3, 5, 5)
    assert s.view(1).cup == () and s.view(-1).cup == ()
    s = play(s, "pair K")
    assert s.phase is Phase.PASS and s.legal_actions() == (LEFT, RIGHT)
    assert s.view(0).cup == (1, 2, 3, 5, 5)  # still looking until the cup is passed
    left = play(s, "left")
    assert left.current_player == 1 and left.direction == 1 and left.phase is Phase.RESPOND
    right = play(s, "right")
    assert right.current_player == 3 and right.direction == -1
    assert right.view(0).cup == () and right.view(0).passed_cup == (1, 2, 3, 5, 5)
    assert right.legal_actions() == (LIAR, ACCEPT)


def test_two_players_skip_the_direction_choice() -> None:
    s = play(game(2).new_initial_state(), "roll 9 9 9 9 9", "junk")
    assert s.phase is Phase.RESPOND and s.current_player == 1 and s.direction == 1
    assert [p for p, _ in s.history()] == [CHANCE] * 5 + [0]


def test_direction_holds_for_the_round_and_skips_nobody_alive() -> None:
    s = play(
        game(4).new_initial_state(),
        "roll 9 10 J Q A",
        "high A",
        "right",  # to seat 3
        "accept",
        "out none",
        "no reroll",
        "high A Q",
    )
    assert s.current_player == 2  # right again: 3 -> 2
    s = play(s, "accept", "out none", "no reroll", "high A K")
    assert s.current_player == 1


# ------------------------------------------------------------------ liar calls
def test_liar_call_on_a_true_bid_costs_the_caller_a_life_and_the_loser_opens() -> None:
    s = play(game(3).new_initial_state(), "roll K K 9 10 J", "pair K", "left", "liar")
    r = s.results[-1]
    assert (r.call, r.caller, r.bidder, r.stood, r.loser) == ("liar", 1, 0, True, 1)
    assert r.hand == (1, 2, 3, 5, 5) and str(r.reading) == "pair K J 10 9"
    assert s.lives == (3, 2, 3) == r.lives
    assert r.next_opener == 1 and s.opener == 1 and s.round == 1
    assert s.phase is Phase.ROLL and s.holder == 1 and s.bids == ()


def test_liar_call_on_a_lie_costs_the_bidder_a_life() -> None:
    s = play(game(3).new_initial_state(), "roll K K 9 10 J", "three K", "right", "liar")
    r = s.results[-1]
    assert (r.caller, r.bidder, r.stood, r.loser) == (2, 0, False, 0)
    assert s.lives == (2, 3, 3) and s.opener == 0


def test_junk_may_only_open() -> None:
    s = play(game(3).new_initial_state(), "roll K K 9 10 J")
    assert BID_BASE in s.legal_actions()
    s = play(s, "junk", "left", "accept", "out none", "no reroll")
    assert BID_BASE not in s.legal_actions()
    assert s.legal_actions()[0] == bid("high 9")
    assert "junk may only be bid by Player One" in s.explain_illegal(bid("junk"))
    with pytest.raises(IllegalActionError, match="junk may only be bid by Player One"):
        s.apply_action(bid("junk"))
    # calling liar on junk always costs the caller
    t = play(game(3).new_initial_state(), "roll K K 9 10 J", "junk", "left", "liar")
    assert t.results[-1].loser == 1


# ------------------------------------------------------------ accept & move dice
def test_receiver_accepts_moves_four_dice_out_and_shakes() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll A A A K Q", "three A", "left", "accept")
    assert s.phase is Phase.ARRANGE and s.holder == 1
    assert s.view(1).cup == (4, 5, 6, 6, 6)  # the accepter looks under the cup
    assert s.view(0).cup == () and s.view(2).cup == ()
    # any split with at least one die under the cup
    assert g.arrange_action((4, 5, 6, 6, 6)) not in s.legal_actions()
    assert len(s.legal_actions()) == 4 * 2 * 2 - 1  # sub-multisets of A A A K Q, not all 5
    s = play(s, "out A A A K")
    assert s.cup == (4,) and s.outside == (5, 6, 6, 6)
    assert s.view(2).outside == (5, 6, 6, 6) and s.view(2).cup_count == 1
    assert s.phase is Phase.SHAKE
    s = play(s, "shake")
    assert s.is_chance_node() and s.rolling_under_cup()
    s = play(s, "roll A")
    assert s.phase is Phase.BID and s.current_player == 1 and s.cup == (6,)
    assert s.view(1).cup == (6,) and s.view(0).cup == ()
    s = play(s, "four A K")
    assert s.current_player == 2 and s.view(1).passed_cup == (6,)
    s = play(s, "liar")
    r = s.results[-1]
    assert r.hand == (5, 6, 6, 6, 6) and r.stood and r.loser == 2 and r.bidder == 1


def test_hint_roll_the_uncalled_die_outside_the_cup() -> None:
    # "If someone calls 4 dice without naming the fifth die, ... roll the uncalled die outside
    # the cup for everyone to see."
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q Q Q 9", "four Q", "left", "accept", "out 9")
    assert s.cup == (4, 4, 4, 4) and s.outside == (1,)
    assert g.roll_action(False, (1,)) in s.legal_actions()
    assert g.roll_action(False, (5,)) not in s.legal_actions()
    assert "outside the cup: 9" in s.explain_illegal(g.roll_action(False, (5,)))
    s = play(s, "reroll 9")
    assert s.is_chance_node() and not s.rolling_under_cup()  # rolled in view
    s = play(s, "roll K", "four Q K")
    assert s.current_player == 2 and s.view(2).outside == (5,) and s.view(2).cup == ()
    assert s.view(2).cup_count == 4
    s = play(s, "liar")
    assert s.results[-1].stood and s.results[-1].loser == 2


def test_shake_rolls_the_cup_dice_first_then_the_outside_dice() -> None:
    s = play(
        game(3).new_initial_state(),
        "roll Q Q Q Q 9",
        "four Q",
        "left",
        "accept",
        "out Q 9",
        "shake reroll 9",
    )
    assert s.cup == (4, 4, 4)
    assert [s.rolling_under_cup()] == [True]
    s = play(s, "roll A", "roll A")
    assert s.rolling_under_cup()
    s = play(s, "roll A")
    assert not s.rolling_under_cup()  # the outside 9 comes last
    s = play(s, "roll 10")
    assert s.cup == (6, 6, 6) and s.outside == (2, 4) and s.phase is Phase.BID


def test_holder_may_bring_outside_dice_back_under_the_cup() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q Q Q 9", "four Q", "left", "accept", "out Q Q")
    s = play(s, "no reroll", "four Q 10", "accept")
    assert g.arrange_action(()) in s.legal_actions()
    s = play(s, "out none")
    assert s.outside == () and s.cup == (1, 4, 4, 4, 4)


def test_hint_bid_under_your_real_hand() -> None:
    # Player One rolls five kings but bids low; the next player passes it on at its real
    # value without rolling.
    s = play(game(3).new_initial_state(), "roll K K K K K", "pair K", "left", "accept")
    s = play(s, "out none", "no reroll", "four K")
    s = play(s, "liar")
    assert s.results[-1].stood and s.results[-1].loser == 2


def test_blind_play_is_possible_and_the_view_shows_the_cup_to_the_accepter() -> None:
    s = play(game(3).new_initial_state(), "roll 9 10 J Q A", "high A", "left", "accept")
    assert s.view(1).cup == (1, 2, 3, 4, 6)
    s = play(s, "out none", "shake", "roll 9 9 9 9 9")
    assert s.view(1).cup == (1, 1, 1, 1, 1)


# --------------------------------------------------------------- five of a kind
def test_five_of_a_kind_accepted_and_made_at_once() -> None:
    s = play(game(3).new_initial_state(), "roll K K K K K", "five K", "left", "accept")
    r = s.results[-1]
    assert (r.call, r.caller, r.success, r.loser, r.attempts) == ("five", 1, True, None, ())
    assert s.lives == (3, 3, 3) and s.opener == 1 and s.round == 1


def test_five_of_a_kind_challenge_success_on_the_second_roll() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q Q 9 A", "five Q", "left", "accept")
    assert s.phase is Phase.KEEP and s.current_player == 1
    assert s.cup == () and s.outside == (1, 4, 4, 4, 6)  # the cup is lifted
    assert s.view(2).outside == (1, 4, 4, 4, 6) and s.view(-1).cup_count == 0
    assert g.keep_action((1, 4, 4, 4, 6)) not in s.legal_actions()  # roll at least one
    s = play(s, "keep Q Q Q", "roll Q 9")
    assert s.phase is Phase.KEEP and s.attempts == ((1, 4, 4, 4, 4),)
    assert s.view(0).five_attempts == ((1, 4, 4, 4, 4),)
    s = play(s, "keep Q Q Q Q", "roll Q")
    r = s.results[-1]
    assert r.success and r.loser is None and r.attempts == ((1, 4, 4, 4, 4), (4, 4, 4, 4, 4))
    assert r.hand == (1, 4, 4, 4, 6) and not r.stood
    assert s.lives == (3, 3, 3) and s.opener == 1


def test_five_of_a_kind_challenge_any_face_counts() -> None:
    s = play(game(3).new_initial_state(), "roll Q Q Q 9 A", "five Q", "left", "accept")
    s = play(s, "keep none", "roll 9 9 9 9 9")
    assert s.results[-1].success


def test_five_of_a_kind_challenge_failure_costs_a_life() -> None:
    s = play(game(3).new_initial_state(), "roll Q Q Q 9 A", "five Q", "right", "accept")
    s = play(s, "keep Q Q Q", "roll 9 A", "keep Q Q Q", "roll K A", "keep Q Q Q")
    assert s.phase is Phase.FIVE_ROLL
    s = play(s, "roll Q J")
    r = s.results[-1]
    assert (r.call, r.caller, r.success, r.loser) == ("five", 2, False, 2)
    assert len(r.attempts) == 3 and r.attempts[-1] == (3, 4, 4, 4, 4)
    assert s.lives == (3, 3, 2) and s.opener == 2


def test_five_of_a_kind_rule_off() -> None:
    g = game(3, five_of_a_kind_rule=False)
    s = play(g.new_initial_state(), "roll Q Q Q 9 A", "five Q", "left", "accept")
    assert s.phase is Phase.ARRANGE
    s = play(s, "out none", "no reroll")
    assert s.legal_actions() == (bid("five K"), bid("five A"))
    s = play(s, "five A")
    assert s.legal_actions() == (LIAR,)
    assert "five A is the top bid" in s.explain_illegal(ACCEPT)
    with pytest.raises(IllegalActionError, match="must call liar"):
        s.apply_action(ACCEPT)
    s = play(s, "liar")
    assert s.results[-1].loser == 1 and not s.results[-1].stood


# ------------------------------------------------------------ lives & the end
def test_three_lives_then_out_and_the_last_player_wins() -> None:
    g = game(3)
    s = g.new_initial_state()
    s = play(s, "roll K K 9 10 J", "pair K", "left", "liar")  # seat 1 calls a true bid
    assert s.lives == (3, 2, 3) and s.opener == 1  # the loser starts the next round
    s = play(s, "roll K K 9 10 J", "five A", "left", "liar")  # seat 1 lies and is caught
    assert s.lives == (3, 1, 3) and s.opener == 1
    s = play(s, "roll K K 9 10 J", "five A", "left", "liar")
    assert s.lives == (3, 0, 3)
    r = s.results[-1]
    assert r.eliminated == (1,) and r.next_opener == 2  # the next active seat opens
    assert s.opener == 2 and s.active_players() == [0, 2]
    # two left: the cup passes automatically, skipping seat 1
    s = play(s, "roll A A 9 10 J", "junk")
    assert s.current_player == 0 and s.direction == 1
    s = play(s, "accept", "out none", "no reroll", "pair A")
    assert s.current_player == 2  # seat 1 is skipped
    s = play(s, "liar")
    assert s.lives == (3, 0, 2) and s.opener == 2
    s = play(s, "roll A A 9 10 J", "pair A", "liar")
    assert s.lives == (2, 0, 2) and s.opener == 0
    s = play(s, "roll 9 9 9 10 10", "five A", "liar", "roll 9 9 9 10 10", "five A")
    assert s.lives == (1, 0, 2) and s.current_player == 2
    s = play(s, "liar")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.winner == 2 and s.lives == (0, 0, 2)
    assert s.returns() == (-0.5, -0.5, 1.0)
    assert s.results[-1].next_opener is None and s.results[-1].eliminated == (0,)
    assert s.placements() == [2, 0, 1]
    assert s.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(LIAR)
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_event(0, LIAR)
    assert s.explain_illegal(LIAR) == "the game is over"


def test_eliminated_loser_hands_the_opening_to_the_next_seat() -> None:
    g = game(4, lives=1)
    s = play(g.new_initial_state(), "roll K K 9 10 J", "pair K", "right", "liar")
    assert s.lives == (1, 1, 1, 0) and s.opener == 0  # seat 3 out, next seat in order: 0
    s = play(s, "roll K K 9 10 J", "pair A", "right")
    assert s.current_player == 2  # seat 3 is skipped


def test_returns_are_zero_until_the_end() -> None:
    s = game(3).new_initial_state()
    assert s.returns() == (0.0, 0.0, 0.0) and s.winner is None and not s.is_terminal()


# ---------------------------------------------------------------- illegal moves
def test_illegal_moves_explain_themselves() -> None:
    g = game(3)
    s = g.new_initial_state()
    assert "die roll" in s.explain_illegal(7)
    with pytest.raises(IllegalActionError, match="die roll"):
        s.apply_action(0)
    s = play(s, "roll J J 10 10 9", "two pair J 10")
    assert "left or right" in s.explain_illegal(LIAR)
    s = play(s, "left")
    assert "first accept two pair J 10 or call liar" in s.explain_illegal(bid("pair A"))
    s = play(s, "accept")
    assert "not among the dice" in s.explain_illegal(g.arrange_action((6,)))
    assert "at least one die under the cup" in s.explain_illegal(g.arrange_action((1, 2, 2, 3, 3)))
    assert "outside the cup first" in s.explain_illegal(LIAR)
    s = play(s, "out J")
    assert "shake" in s.explain_illegal(LIAR)
    s = play(s, "no reroll")
    msg = s.explain_illegal(bid("pair Q"))
    assert msg.startswith("pair Q does not beat two pair J 10; least legal bids: two pair J 10 9")
    assert "bid a poker hand higher than two pair J 10" in s.explain_illegal(LIAR)
    assert s.explain_illegal(bid("two pair J 10 9")) == ""
    assert s.explain_illegal(99999) == "unknown action 99999"
    with pytest.raises(IllegalActionError, match="does not beat"):
        s.apply_action(bid("two pair J 10"))


def test_apply_event_checks_the_player() -> None:
    s = game(3).new_initial_state()
    with pytest.raises(IllegalActionError, match="chance"):
        s.apply_event(0, 3)
    s = play(s, "roll 9 9 9 9 9")
    with pytest.raises(IllegalActionError, match="seat 0's turn, not seat 1's"):
        s.apply_event(1, bid("pair K"))
    assert s.apply_event(0, bid("pair K")).bidder == 0


# ---------------------------------------------------------------- API & notation
def test_replay_and_history() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q Q 9 A", "three Q", "left", "accept", "out Q Q Q")
    s = play(s, "shake reroll Q", "roll 9 A Q", "four Q", "liar")
    again = g.replay(s.history())
    assert again == s and again.lives == s.lives and again.results == s.results
    assert len(again) == len(s.history())
    assert s.round_events() == s.history()[s.round_start :]
    assert s.round_events() == []  # a new round has just begun
    assert hash(again) == hash(s)


def test_action_strings_round_trip() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q 9 9 A")
    states = [s]
    for move in ("two pair Q 9", "right", "accept", "out Q 9", "shake reroll Q 9"):
        s = play(s, move)
        states.append(s)
    for st in states:
        for a in st.legal_actions():
            text = g.action_to_string(a, st.current_player)
            if st.current_player != CHANCE:
                assert g.string_to_action(text) == a, text
    assert g.action_to_string(3, CHANCE) == "roll J"
    assert g.action_to_string(g.roll_action(False, ())) == "no reroll"
    assert g.action_to_string(g.keep_action(())) == "keep none"
    assert g.string_to_action("keep Q, Q") == g.keep_action((4, 4))
    assert g.string_to_action("a pair of kings") == bid("pair K")
    assert g.string_to_action("RIGHT") == RIGHT
    with pytest.raises(IllegalActionError, match="other moves"):
        g.string_to_action("dance")
    with pytest.raises(IllegalActionError):
        g.string_to_action("out X")
    with pytest.raises(IllegalActionError):
        g.string_to_action("shake wildly")
    with pytest.raises(IllegalActionError, match="unknown action"):
        g.action_to_string(999)
    assert g.action_bid(bid("five A")) == parse_poker_bid("five A")
    assert g.action_bid(LIAR) is None
    assert g.bid_action(parse_poker_bid("junk")) == BID_BASE


def test_rules_and_game_validation() -> None:
    assert POKER_PRESETS["poker-dice"] == PokerRules() == poker_preset()
    assert PokerRules().name == "poker-dice"
    for bad in ({"players": 1}, {"players": 13}, {"lives": 0}, {"dice": 6}):
        with pytest.raises(RulesError):
            PokerRules(**bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        PokerRules(five_of_a_kind_rule="yes")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rule option"):
        PokerRules().replace(wild=1)
    with pytest.raises(RulesError, match="unknown poker rules"):
        poker_preset("nope")
    with pytest.raises(RulesError):
        PokerGame(PokerRules(), 13)
    with pytest.raises(RulesError):
        PokerGame(PokerRules(), ["a", "a"])
    with pytest.raises(RulesError):
        PokerGame(PokerRules(), 3, opener=3)
    g = PokerGame(PokerRules(), ["ann", "bob"], opener=1)
    assert g.names == ("ann", "bob") and g.num_players == 2 and g.seat("bob") == 1
    assert g.new_initial_state().opener == 1
    assert PokerGame().num_players == 4
    with pytest.raises(IllegalActionError):
        g.seat("eve")


def test_view_contents_and_json() -> None:
    g = game(3)
    s = play(g.new_initial_state(), "roll Q Q 9 9 A", "two pair Q 9", "right", "accept")
    v = s.view(2)
    assert v.to_move == 2 and v.legal_actions == s.legal_actions() and v.holder == 2
    assert s.view(0).legal_actions == () and s.view(-1).legal_actions == ()
    assert v.current_bid == parse_poker_bid("two pair Q 9") and v.bidder == 0
    assert v.bids == ((0, parse_poker_bid("two pair Q 9")),)
    assert v.direction == -1 and v.lives == (3, 3, 3) and v.phase == "arrange"
    s = play(s, "out 9 9", "no reroll", "two pair Q 9 K", "liar")
    d = s.view(1).to_dict()
    json.dumps(d)
    assert d["results"][0]["hand"] == ["9", "9", "Q", "Q", "A"]
    assert d["results"][0]["reading"] == "two pair Q 9 A"
    assert d["results"][0]["stood"] is True and d["results"][0]["loser"] == 1
