"""Rule options one by one, per preset: openers, economies, Perudo, the analysis presets,
illegal actions and rule validation."""

from __future__ import annotations

import random

import pytest

from core_util import bids_of, deal, is_legal, new_game, play, roll
from liarsdice.core.bidding import (
    CHANCE,
    EXACT,
    LIAR,
    PRESETS,
    Bid,
    Game,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    preset,
)
from liarsdice.core.bidding.game import SHOW_BASE

ALL_PRESETS = (
    "classic",
    "milton-bradley",
    "house-rules",
    "spot-on",
    "room",
    "perudo",
    "openspiel",
    "snyd-normal",
    "snyd-joker",
)


def test_all_presets_present() -> None:
    assert set(PRESETS) == set(ALL_PRESETS)


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_preset_opening_state(name: str) -> None:
    g = Game(preset(name), opener=0)
    s = g.new_initial_state()
    assert s.phase is Phase.ROLL and s.player == CHANCE
    n = g.num_players
    assert s.chance_outcomes() == [(f, 1 / g.rules.faces) for f in range(1, g.rules.faces + 1)]
    s = deal(s, *[[2] * d for d in g.start_dice])
    assert s.player == 0 and s.current_bid is None
    assert LIAR not in s.legal_actions() and EXACT not in s.legal_actions()
    assert s.returns() == (0.0,) * n and not s.is_terminal()


# ---------------------------------------------------------------------------- next opener


def test_loser_rule_several_losers_fewest_dice_ties_clockwise_from_bidder() -> None:
    g = new_game("classic", 4, dice=(3, 2, 5, 2), opener=2)
    s = deal(g.new_initial_state(), [2, 2, 2], [2, 3], [2, 4, 4, 4, 4], [5, 5])
    s = play(s, "5x2", "liar")  # seat 2 bids exactly five 2's, seat 3 calls
    r = s.results[-1]
    assert r.losses == {0: 1, 1: 1, 3: 1} and s.dice_counts == (2, 1, 5, 1)
    assert s.table.opener == 3  # seats 1 and 3 tie on one die; seat 3 comes first after 2


def test_loser_rule_fewest_dice_wins_over_clockwise() -> None:
    g = new_game("classic", 4, dice=(3, 1, 5, 2), opener=2)
    s = deal(g.new_initial_state(), [2, 2, 2], [3], [2, 4, 4, 4, 4], [5, 5])
    s = play(s, "4x2", "liar")
    assert s.dice_counts == (2, 0, 5, 1) and s.results[-1].eliminated == (1,)
    assert s.table.opener == 3


def test_eliminated_opener_passes_to_the_next_seat() -> None:
    g = new_game("classic", 3, dice=(2, 1, 2))
    s = deal(g.new_initial_state(), [2, 2], [3], [4, 4])
    s = play(s, "1x2", "2x3", "liar")  # seat 1 bid two 3's, only one: loses its only die
    r = s.results[-1]
    assert r.eliminated == (1,) and r.next_opener == 2 and s.table.opener == 2
    s = deal(s, [2, 2], [], [4, 4])
    assert s.player == 2 and s.table.nxt[2] == 0 and s.table.nxt[0] == 2


def test_bidder_rule_eliminated_bidder_passes() -> None:
    g = new_game("spot-on", 3, dice=(1, 2, 2))
    s = deal(g.new_initial_state(), [2], [3, 3], [4, 4])
    s = play(s, "3x2", "liar")
    assert s.results[-1].eliminated == (0,) and s.table.opener == 1


def test_winner_rule() -> None:
    g = new_game("classic", 3, next_opener="winner")
    s = deal(g.new_initial_state(), [2] * 5, [3] * 5, [4] * 5)
    s = play(s, "1x2", "9x3", "liar")
    assert s.results[-1].winner == 2 and s.table.opener == 2


def test_seats_that_are_out_are_skipped_in_turn_order() -> None:
    g = new_game("spot-on", 4, dice=(1, 2, 1, 2))
    s = deal(g.new_initial_state(), [2], [3, 3], [4], [5, 5])
    s = play(s, "1x2", "3x3", "liar")  # seat 2 calls: only two 3's, seat 1 loses one
    s = deal(s, [2], [3], [4], [5, 5])
    s = play(s, "1x3", "5x5", "liar")  # seat 1 opens, seat 2 bids, seat 3 calls
    assert s.dice_counts == (1, 1, 0, 2)
    s = deal(s, [2], [3], [], [5, 5])
    assert s.player == 3  # the bidder (seat 2) is out: the next seat opens
    s = play(s, "1x5", "2x5")
    assert s.player == 1
    s = play(s, "3x5")
    assert s.player == 3, "seat 2 is skipped"


# --------------------------------------------------------------------------- first opener


def test_random_first_opener() -> None:
    g = Game(preset("classic"), 3)
    s = g.new_initial_state()
    assert s.phase is Phase.SETUP and s.chance_outcomes() == [(p, 1 / 3) for p in range(3)]
    s = roll(s, [2])
    assert s.phase is Phase.ROLL and s.table.opener == 2
    with pytest.raises(IllegalActionError):
        g.new_initial_state().apply_action(3)


def test_roll_two_first_opener_sums_and_reroll_ties() -> None:
    g = Game(preset("room", first_opener="roll-two"), 3)
    s = roll(g.new_initial_state(), [6, 1, 3, 4, 2, 5])  # 7, 7, 7: all re-roll
    assert s.phase is Phase.SETUP and s.pending == ((0, 1, 2), ())
    s = roll(s, [1, 1, 6, 6, 5, 6])  # 2, 12, 11
    assert s.phase is Phase.ROLL and s.table.opener == 1


def test_given_opener_seat() -> None:
    s = Game(preset("classic"), 4, opener=3).new_initial_state()
    s = deal(s, *[[2] * 5] * 4)
    assert s.player == 3


# ----------------------------------------------------------------------------------- chips


def test_chips_economy_pots() -> None:
    g = new_game("milton-bradley", 3, economy="chips", dice=2)
    s = g.new_initial_state()
    assert s.table.chips == (48, 48, 48) and s.table.round_pot == 3 and s.table.game_pot == 3
    s = deal(s, [2, 2], [3, 3], [4, 4])
    s = play(s, "1x2", "3x3", "liar")  # seat 2 wins the challenge
    r = s.results[-1]
    assert r.winner == 2 and r.round_pot_won == 3
    assert r.chips == (48, 48, 51)
    # the next round's antes are already in
    assert s.table.chips == (46, 46, 49) and s.table.game_pot == 6 and s.table.round_pot == 3
    assert s.dice_counts == (2, 1, 2)
    total = sum(s.table.chips) + s.table.round_pot + s.table.game_pot
    assert total == 150


def test_chips_no_chips_no_ante_and_game_pot_to_winner() -> None:
    g = new_game("milton-bradley", 2, economy="chips", chips=3, dice=(1, 2))
    s = g.new_initial_state()
    assert s.table.chips == (1, 1) and (s.table.round_pot, s.table.game_pot) == (2, 2)
    s = play(deal(s, [2], [3, 3]), "2x2", "liar")  # one 2: seat 0 loses its only die
    assert s.is_terminal() and s.winner == 1
    assert s.table.chips == (1, 1 + 2 + 2) and s.table.game_pot == 0


def test_chips_broke_player_antes_nothing() -> None:
    g = new_game("milton-bradley", 2, economy="chips", chips=1, dice=2)
    s = g.new_initial_state()
    assert s.table.chips == (0, 0) and (s.table.round_pot, s.table.game_pot) == (2, 0)
    s = play(deal(s, [2, 2], [3, 3]), "3x2", "liar")
    assert s.results[-1].chips == (0, 2)
    assert s.table.chips == (0, 0) and s.table.round_pot == 1 and s.table.game_pot == 1


# ---------------------------------------------------------------------------------- perudo


def test_calza_right_regains_a_die_up_to_start() -> None:
    g = new_game("perudo", 2)
    s = deal(g.new_initial_state(), [2, 2, 3, 4, 5], [3, 1, 6, 6, 6])
    s = play(s, "9x6", "liar")
    assert s.dice_counts == (4, 5) and s.table.opener == 0
    s = deal(s, [2, 2, 3, 4], [3, 1, 6, 6, 6])
    s = play(s, "2x2", "3x2", "exact")  # two 2's and a wild: seat 0 is right
    r = s.results[-1]
    assert r.call == "exact" and r.gains == {0: 1} and r.losses == {}
    assert s.dice_counts == (5, 5) and s.table.opener == 0
    s = deal(s, [2, 2, 3, 4, 5], [2, 1, 6, 6, 6])
    s = play(s, "3x2", "4x2", "exact")  # right again, but already at the five starting dice
    assert s.results[-1].gains == {} and s.dice_counts == (5, 5)
    start_four = new_game("perudo", 2, dice=(5, 4))  # the start count is per seat
    s = deal(start_four.new_initial_state(), [2, 2, 3, 4, 5], [3, 1, 6, 6])
    s = play(s, "3x2", "exact")
    assert s.results[-1].gains == {} and s.dice_counts == (5, 4)


def test_calza_wrong_costs_the_caller_one() -> None:
    g = new_game("perudo", 2)
    s = deal(g.new_initial_state(), [2, 2, 3, 4, 5], [2, 1, 6, 6, 6])
    s = play(s, "3x2", "exact")  # four 2's with the wild: wrong
    r = s.results[-1]
    assert r.losses == {1: 1} and r.winner == 0 and s.table.opener == 1


def test_perudo_liar_loses_one_die() -> None:
    g = new_game("perudo", 2)
    s = deal(g.new_initial_state(), [2, 2, 3, 4, 5], [2, 1, 6, 6, 6])
    s = play(s, "9x6", "liar")
    assert s.results[-1].losses == {0: 1}


def test_palifico_round() -> None:
    g = new_game("perudo", 2, dice=(2, 3))
    s = deal(g.new_initial_state(), [2, 3], [4, 5, 6])
    s = play(s, "4x2", "liar")  # seat 0 drops to one die: palifico
    assert s.dice_counts == (1, 3) and s.table.palifico and s.table.opener == 0
    s = deal(s, [1], [5, 5, 1])
    assert s.view(1).palifico
    assert Bid(1, 1) in bids_of(s), "ones can be bid on when they are not wild"
    assert s.count(Bid(1, 5)) == 2 and s.count(Bid(1, 1)) == 2
    s = play(s, "2x5")
    assert bids_of(s) == [Bid(3, 5), Bid(4, 5)], "the face may not change"
    with pytest.raises(IllegalActionError, match="palifico"):
        play(s, "3x6")
    s = play(s, "3x5", "liar")  # two 5's, wilds do not count: seat 1 bid too high
    assert s.results[-1].count == 2 and s.results[-1].losses == {1: 1}
    assert s.dice_counts == (1, 2) and not s.table.palifico  # one palifico per player
    s = deal(s, [1], [5, 5])
    assert s.count(Bid(1, 5)) == 3


def test_palifico_only_once_per_player() -> None:
    g = new_game("perudo", 2, dice=(2, 2))
    s = deal(g.new_initial_state(), [2, 3], [4, 5])
    s = play(s, "4x2", "liar")
    assert s.table.palifico
    s = play(deal(s, [4], [2, 3]), "1x4", "exact")  # calza right: seat 1 regains, at 2 already
    s = play(deal(s, [4], [2, 3]), "3x4", "liar")  # seat 1 bids false: drops to one die
    assert s.dice_counts == (1, 1) and s.table.palifico and s.table.opener == 1
    s = play(deal(s, [4], [2]), "1x2", "liar")  # the bid stands: seat 0 loses its last die
    assert s.is_terminal() and s.winner == 1


# ------------------------------------------------------------------------ analysis presets


def test_openspiel_highest_face_is_wild() -> None:
    g = new_game("openspiel")
    s = roll(g.new_initial_state(), [3, 6])
    assert s.count(Bid(1, 3)) == 2 and s.count(Bid(1, 6)) == 1 and s.count(Bid(1, 2)) == 1
    assert len(bids_of(s)) == 12 and bids_of(s)[:7] == [Bid(1, f) for f in range(1, 7)] + [
        Bid(2, 1)
    ]
    t = play(s, "2x6", "liar")
    assert t.is_terminal() and t.winner == 1 and t.returns() == (-1.0, 1.0)
    t = play(s, "1x2", "2x3", "liar")
    assert t.is_terminal() and t.winner == 1 and t.returns() == (-1.0, 1.0)
    r = t.results[-1]
    assert r.bidder == 1 and r.losses == {0: 1} and r.next_opener is None


def test_snyd_normal_and_joker() -> None:
    normal = roll(new_game("snyd-normal").new_initial_state(), [3, 1])
    joker = roll(new_game("snyd-joker").new_initial_state(), [3, 1])
    assert play(normal, "2x3", "liar").winner == 1
    assert play(joker, "2x3", "liar").winner == 0
    assert play(joker, "2x1", "liar").winner == 1  # a bid on jokers counts jokers only
    assert play(joker, "1x1", "liar").winner == 0


def test_single_round_with_more_dice() -> None:
    g = new_game("openspiel", dice=3)
    s = roll(g.new_initial_state(), [1, 2, 6, 2, 2, 4])
    assert s.table.cap == 6
    s = play(s, "4x2", "liar")
    assert s.is_terminal() and s.winner == 0 and s.dice_counts == (3, 2)


# --------------------------------------------------------------------------- illegal moves


def test_illegal_bid_names_the_bid_to_beat() -> None:
    g = new_game("classic", 2)
    s = play(deal(g.new_initial_state(), [2] * 5, [3] * 5), "3x5")
    with pytest.raises(IllegalActionError, match=r"3x4 does not beat 3x5") as err:
        play(s, "3x4")
    assert isinstance(err.value, ValueError)
    assert "3x6" in str(err.value)  # the least legal bids are suggested
    with pytest.raises(IllegalActionError, match=r"3x5"):
        play(s, "3x5")
    with pytest.raises(IllegalActionError, match="at most 10 dice"):
        play(s, "11x2")
    s = play(s, "8x2", "liar")  # five 2's: seat 1 loses 3, 7 dice left in play
    s = deal(s, [2] * 5, [3] * 2)
    with pytest.raises(IllegalActionError, match="8x2 needs more dice than the 7 in play"):
        play(s, "8x2")


def test_illegal_calls_and_actions() -> None:
    g = new_game("classic", 2)
    s = deal(g.new_initial_state(), [2] * 5, [3] * 5)
    with pytest.raises(IllegalActionError, match="no bid"):
        s.apply_action(LIAR)
    s = play(s, "3x5")
    with pytest.raises(IllegalActionError, match="exact"):
        s.apply_action(EXACT)
    with pytest.raises(IllegalActionError, match="buying"):
        play(s, "buy")
    with pytest.raises(IllegalActionError, match="show"):
        play(s, "show 2")
    with pytest.raises(IllegalActionError):
        s.apply_action(7)
    with pytest.raises(IllegalActionError):
        s.apply_action(10**6)
    with pytest.raises(IllegalActionError, match="turn"):
        s.apply_event(0, LIAR)
    with pytest.raises(IllegalActionError):
        g.bid_action(Bid(11, 2))
    with pytest.raises(IllegalActionError):
        g.bid_action(Bid(1, 7))


def test_top_bid_must_be_called() -> None:
    g = new_game("classic", 2, dice=1)
    s = play(deal(g.new_initial_state(), [2], [3]), "2x1")
    assert s.legal_actions() == (LIAR,)
    with pytest.raises(IllegalActionError, match="2x1 is the top bid: you must call"):
        s.apply_action(s.game.bid_action(Bid(1, 1)))


def test_illegal_chance_outcomes() -> None:
    g = new_game("classic", 2)
    s = g.new_initial_state()
    for bad in (0, 7, -1):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    s = deal(s, [2] * 5, [3] * 5)
    assert s.chance_outcomes() == []


def test_opening_on_wilds_refused_in_perudo() -> None:
    s = deal(new_game("perudo", 2).new_initial_state(), [2] * 5, [3] * 5)
    with pytest.raises(IllegalActionError, match="wilds"):
        play(s, "1x1")
    assert not is_legal(s, "1x1")


# ------------------------------------------------------------------------ rules validation


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 1},
        {"players": 13},
        {"faces": 1},
        {"wild": 7},
        {"dice": 0},
        {"dice": (2, 0)},
        {"face_order": (1, 2, 3)},
        {"ordering": "sideways"},
        {"resolution": "all-call", "exact": "spot-on"},
        {"scoring": "single-round", "players": 3},
        {"chips": -1},
    ],
)
def test_invalid_rules(changes: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        preset("classic", **changes)


def test_invalid_games() -> None:
    with pytest.raises(RulesError):
        Game(preset("classic"), 13)
    with pytest.raises(RulesError):
        Game(preset("classic", dice=(1, 2, 3)), 2)
    with pytest.raises(RulesError):
        Game(preset("classic"), ["a", "a"])
    with pytest.raises(RulesError):
        Game(preset("classic"), 2, opener=2)
    with pytest.raises(RulesError):
        preset("classic").replace(colour="red")
    assert Game(preset("classic"), 12).max_quantity == 60
    assert Game(preset("spot-on", stash="open"), 3).max_quantity == 18


def test_rules_are_frozen_values() -> None:
    r = preset("classic", dice=[3, 2], players=2)
    assert r.dice == (3, 2) and r.start_dice(2) == (3, 2)
    assert r == Rules(name="classic", dice=(3, 2), players=2)
    with pytest.raises(AttributeError):
        r.faces = 5  # type: ignore[misc]


def test_drinking_tally_counts_lost_dice() -> None:
    g = new_game("classic", 2, drinking=True)
    s = play(deal(g.new_initial_state(), [2] * 5, [3] * 5), "8x2", "liar")
    assert s.table.lost == (3, 0) and s.view(1).lost == (3, 0)


# ------------------------------------------------------------ regressions (core bugs fixed)


def test_penalties_emptying_the_table_leave_the_winner_a_die_outside_the_pile() -> None:
    g = new_game("spot-on", 2, dice=1, calling_advantage=True, house_penalties=True)
    s = deal(g.new_initial_state(), [2], [3]).ask(1, "turn")
    s = play(s, "2x2", "liar")  # seat 0 loses its die, seat 1's question costs its only die
    r = s.results[-1]
    assert s.is_terminal() and s.winner == 1 and s.dice_counts == (0, 1)
    assert r.losses == {0: 1} and s.table.lost == (1, 0)
    assert s.table.pile == 1 and sum(s.dice_counts) + s.table.pile == 2


def test_room_winner_eliminated_by_penalties_is_placed_once() -> None:
    g = new_game("room", 2, dice=(1, 2), house_penalties=True)
    s = deal(g.new_initial_state(), [2], [3, 3]).ask(0, "turn")
    s = play(s, "1x2", "liar")  # a true bid wins outright, though the question took the die
    assert s.is_terminal() and s.winner == 0 and s.dice_counts == (0, 2)
    assert s.placements() == [0, 1]
    assert s.table.scores == (0, -1)


def test_rich_man_with_calling_advantage_can_bid_every_die_in_play() -> None:
    g = new_game("spot-on", 2, dice=3, calling_advantage=True, economy="rich-man")
    s = play(deal(g.new_initial_state(), [2, 2, 2], [3, 3, 3]), "1x6", "liar")
    s = play(deal(s, [2, 2], [3, 3, 3]), "2x2", "exact")  # takes the pile: 4 dice
    s = roll(play(deal(s, [2], [3, 3, 3, 3]), "buy"), [2])
    s = play(s, "2x2", "exact")  # seat 1 takes the pile again: 5 dice
    s = roll(play(deal(s, [2], [3, 3, 3, 3, 3]), "buy"), [2])
    assert s.dice_counts == (2, 5) and s.table.cap == 7, "more dice in play than at the start"
    assert max(b.quantity for b in bids_of(s)) == 7
    s = play(s, "7x3", "liar")
    assert s.results[-1].count == 5 and s.results[-1].losses == {0: 1}


# ---------------------------------------------------------------- rules source 001's variations


def test_seed_001_variation_lose_only_one_die() -> None:
    g = new_game("milton-bradley", 3, loss="one")
    s = deal(g.new_initial_state(), [5, 5, 5, 1, 2], [5, 5, 1, 1, 3], [5, 5, 1, 2, 3])
    s = play(s, "8x5", "liar")  # eleven: three more than bid, but only one die is lost
    assert s.results[-1].losses == {1: 1} and s.dice_counts == (5, 4, 5)


def test_seed_001_bids_beyond_twenty() -> None:
    g = new_game("milton-bradley", 5)
    s = deal(g.new_initial_state(), *[[2, 3, 4, 5, 6]] * 5)
    s = play(s, "20x6")
    assert Bid(21, 2) in bids_of(s) and Bid(11, 1) in bids_of(s) and Bid(10, 1) not in bids_of(s)
    s = play(s, "21x2", "11x1", "22x2")
    assert s.current_bid == Bid(22, 2) and max(b.quantity for b in bids_of(s)) == 25


# --------------------------------------------------------------------- rules as data


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_options_round_trip(name: str) -> None:
    r = preset(name)
    again = Rules(**r.options())
    assert again == r and again.options() == r.options()
    assert r.diff(r) == {}
    assert preset(name, faces=5, face_order=None, wild=None).diff(r)["faces"] == 5


def test_option_text() -> None:
    from liarsdice.core.bidding import OPTIONS

    assert OPTIONS.from_text("ordering", "Perudo").value == "perudo"
    assert OPTIONS.from_text("dice", "3, 2") == (3, 2)
    assert OPTIONS.from_text("face_order", "2,3,4,5,6,1") == (2, 3, 4, 5, 6, 1)
    assert OPTIONS.from_text("wild", "none") is None and OPTIONS.from_text("wild", "6") == 6
    assert OPTIONS.from_text("palifico", "yes") is True
    assert OPTIONS.from_text("drinking", "off") is False
    assert OPTIONS.from_text("players", "7") == 7
    with pytest.raises(RulesError, match="unknown rule option 'colour'"):
        OPTIONS.from_text("colour", "red")
    with pytest.raises(RulesError, match="option palifico takes true or false, not 'maybe'"):
        OPTIONS.from_text("palifico", "maybe")
    with pytest.raises(RulesError, match="option ordering takes one of ladder, perudo"):
        OPTIONS.from_text("ordering", "sideways")


@pytest.mark.parametrize("preset_name", ALL_PRESETS)
def test_an_out_of_range_action_is_refused_as_unknown(preset_name: str) -> None:
    """10**100 (sent by a hostile client) is no action at all, not a show-and-reroll."""
    game = Game(preset(preset_name))
    state = game.new_initial_state().resolve_chance(random.Random(3))
    while state.is_chance_node():
        state = state.resolve_chance(random.Random(3))
    for action in (10**100, SHOW_BASE + (1 << 80)):
        with pytest.raises(IllegalActionError, match=r"^unknown action \d+$"):
            state.apply_action(action)
        assert game.action_shown(action) is None
