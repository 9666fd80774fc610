"""Every worked example and rule of the seed documents (000..004's first half), as exact deals."""

from __future__ import annotations

import pytest

from core_util import bids_of, deal, is_legal, new_game, parse_move, play, ref_beats, roll
from liarsdice.core.bidding import (
    CHANCE,
    LIAR,
    TERMINAL,
    Bid,
    IllegalActionError,
    Phase,
    RoundResult,
    State,
)


def last_result(state: State) -> RoundResult:
    assert state.results, "no round was resolved"
    return state.results[-1]


# ------------------------------------------------------------------------------- rules source 000


def test_seed_000_challenger_loses_the_difference() -> None:
    g = new_game("classic", 2)
    s = deal(g.new_initial_state(), [4, 4, 1, 2, 3], [4, 1, 1, 5, 6])  # six 4's with wilds
    s = play(s, "3x4", "liar")
    r = last_result(s)
    assert (r.count, r.winner, r.losses, r.gains) == (6, 0, {1: 3}, {})
    assert s.dice_counts == (5, 2)
    assert r.next_opener == 1 and s.table.opener == 1  # the loser opens
    assert s.phase is Phase.ROLL and s.round == 1


def test_seed_000_bidder_loses_the_difference() -> None:
    g = new_game("classic", 2)
    s = deal(g.new_initial_state(), [4, 4, 1, 2, 3], [4, 1, 1, 5, 6])
    s = play(s, "9x4", "liar")
    r = last_result(s)
    assert (r.count, r.winner, r.losses) == (6, 1, {0: 3})
    assert s.dice_counts == (2, 5) and s.table.opener == 0


def test_seed_000_exact_count_costs_everyone_but_the_bidder() -> None:
    g = new_game("classic", 3, dice=(5, 5, 1))
    s = deal(g.new_initial_state(), [4, 4, 1, 2, 3], [4, 1, 1, 5, 6], [2])
    s = play(s, "6x4", "liar")
    r = last_result(s)
    assert r.count == 6 and r.winner == 0
    assert r.losses == {1: 1, 2: 1}  # the bystander on a last die loses it too
    assert r.eliminated == (2,) and s.dice_counts == (5, 4, 0)


def test_seed_000_loss_is_capped_by_dice_and_eliminates() -> None:
    g = new_game("classic", 2, dice=(5, 2))
    s = deal(g.new_initial_state(), [6, 6, 6, 6, 6], [6, 1])
    s = play(s, "1x6", "liar")  # seven 6's against a bid of one: a difference of 6
    assert s.is_terminal() and s.winner == 0 and s.current_player == TERMINAL
    r = last_result(s)
    assert r.losses == {1: 2} and r.eliminated == (1,) and r.next_opener is None
    assert s.returns() == (1.0, -1.0)
    assert s.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        s.apply_action(LIAR)


def test_seed_000_ones_are_wild_only_for_other_faces() -> None:
    g = new_game("classic", 2)
    s = deal(g.new_initial_state(), [1, 1, 1, 2, 2], [1, 3, 3, 3, 3])
    assert s.count(Bid(1, 2)) == 6 and s.count(Bid(1, 3)) == 8 and s.count(Bid(1, 1)) == 4
    assert s.count(Bid(1, 5)) == 4


# ------------------------------------------------------------------------------- rules source 001


def test_seed_001_example_1_eight_fives() -> None:
    """Seven 5's and four wilds: eleven against a bid of eight; the challenger loses 3."""
    g = new_game("milton-bradley", 3)
    s = deal(g.new_initial_state(), [5, 5, 5, 1, 2], [5, 5, 1, 1, 3], [5, 5, 1, 2, 3])
    s = play(s, "8x5", "liar")
    r = last_result(s)
    assert r.count == 11 and r.bidder == 0 and r.caller == 1
    assert r.losses == {1: 3} and r.winner == 0
    assert s.dice_counts == (5, 2, 5)
    assert s.table.opener == 0  # the challenge winner opens the next round


def test_seed_001_example_2_seven_wilds() -> None:
    """Five wilds against a bid of seven wilds (only wilds count): the bidder loses 2."""
    g = new_game("milton-bradley", 3)
    s = deal(g.new_initial_state(), [1, 1, 2, 2, 2], [1, 1, 3, 3, 3], [1, 4, 4, 4, 4])
    s = play(s, "7x1", "liar")
    r = last_result(s)
    assert r.count == 5 and r.losses == {0: 2} and r.winner == 1
    assert s.dice_counts == (3, 5, 5) and s.table.opener == 1


FOURTEEN = ([2, 2, 2, 1, 5], [2, 2, 1, 1, 6], [2, 2, 2, 2, 1], [2])  # 14 twos and wilds of 16


def test_seed_001_example_3_fourteen_twos_spares_a_bystanders_last_die() -> None:
    g = new_game("milton-bradley", 4, dice=(5, 5, 5, 1))
    s = deal(g.new_initial_state(), *FOURTEEN)
    s = play(s, "14x2", "liar")
    r = last_result(s)
    assert r.count == 14 and r.winner == 0
    assert r.losses == {1: 1, 2: 1}  # seat 3, neither bidder nor challenger, keeps its die
    assert s.dice_counts == (5, 4, 4, 1)
    assert r.eliminated == () and s.table.opener == 0  # on an exact count the bidder wins


def test_seed_001_example_3_challenger_on_a_last_die_loses_it() -> None:
    g = new_game("milton-bradley", 4, dice=(5, 5, 5, 1), opener=2)
    s = deal(g.new_initial_state(), *FOURTEEN)
    s = play(s, "14x2", "liar")  # seat 2 bids, seat 3 (one die) challenges
    r = last_result(s)
    assert r.bidder == 2 and r.caller == 3
    assert r.losses == {0: 1, 1: 1, 3: 1} and r.eliminated == (3,)
    assert s.dice_counts == (4, 4, 5, 0) and s.table.opener == 2


def test_seed_000_variant_on_the_same_deal_takes_the_last_die() -> None:
    g = new_game("classic", 4, dice=(5, 5, 5, 1))
    s = play(deal(g.new_initial_state(), *FOURTEEN), "14x2", "liar")
    assert last_result(s).losses == {1: 1, 2: 1, 3: 1} and s.dice_counts == (5, 4, 4, 0)


def show_and_reroll_start() -> State:
    """Rules source 001's example: the bid is ten 6's; seat 1 has 6, wild, 4, 4."""
    g = new_game("milton-bradley", 3, dice=(5, 4, 5))
    s = deal(g.new_initial_state(), [6, 6, 6, 1, 2], [6, 1, 4, 4], [6, 6, 1, 1, 6])
    return play(s, "10x6")


def test_seed_001_show_and_reroll_example() -> None:
    s = show_and_reroll_start()
    assert s.player == 1 and is_legal(s, "show 1,6") and is_legal(s, "show 4")
    assert not is_legal(s, "show 1,4,4,6"), "at least one die must stay to be re-rolled"
    s = play(s, "show 1,6")
    assert s.player == CHANCE and s.phase is Phase.REROLL
    assert s.legal_actions() == (1, 2, 3, 4, 5, 6)
    s = roll(s, [6, 3])  # the two 4's re-rolled
    assert s.player == 1 and s.hand(1) == (3, 6) and s.shown(1) == (1, 6)
    assert s.dice_counts == (5, 4, 5)
    # after showing you must raise: no challenge
    assert LIAR not in s.legal_actions()
    assert bids_of(s) and all(ref_beats(s.game.rules, b, Bid(10, 6)) for b in bids_of(s))
    with pytest.raises(IllegalActionError, match="must raise"):
        s.apply_action(LIAR)
    # the shown dice are public, the re-rolled ones hidden
    v0 = s.view(0)
    assert v0.shown[1] == (1, 6) and v0.my_dice == (1, 2, 6, 6, 6)
    assert s.view(1).my_dice == (3, 6)
    s = play(s, "11x6", "liar")
    r = last_result(s)
    # 4 (seat 0) + shown 6 and wild + re-rolled 6 + 4 (seat 2): twelve, the shown dice count
    assert r.count == 12 and r.hands[1] == (1, 3, 6, 6)
    assert r.losses == {2: 1} and r.winner == 1


def test_seed_001_no_show_on_the_opening_bid() -> None:
    g = new_game("milton-bradley", 2)
    s = deal(g.new_initial_state(), [6, 1, 4, 4, 2], [2, 3, 4, 5, 6])
    assert all(a < 1 << 20 for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="opening"):
        s.apply_action(parse_move(g, "show 6"))


def test_seed_001_original_order_raise_then_show() -> None:
    g = new_game("milton-bradley", 3, dice=(5, 4, 5), show_reroll="before")
    s = deal(g.new_initial_state(), [6, 6, 6, 1, 2], [6, 1, 4, 4], [6, 6, 1, 1, 6])
    s = play(s, "10x6")
    assert s.phase is Phase.BID and s.player == 1, "no show after an opening bid"
    s = play(s, "11x6")
    assert s.phase is Phase.SHOW and s.player == 1 and s.legal_actions()[0] == 2  # NO_SHOW
    s = roll(play(s, "show 1,6"), [6, 3])
    assert s.player == 2 and s.phase is Phase.BID and s.current_bid == Bid(11, 6)
    assert LIAR in s.legal_actions()
    s = play(s, "liar")
    assert last_result(s).count == 12


def test_seed_001_shown_dice_stay_out_for_the_round() -> None:
    s = roll(play(show_and_reroll_start(), "show 6"), [4, 4, 4])
    s = play(s, "11x6", "12x6", "13x6")
    # seat 1 again: shows more; the earlier shown die stays out
    s = roll(play(s, "show 4"), [1, 1])
    assert s.shown(1) == (4, 6) and s.hand(1) == (1, 1) and s.dice_counts[1] == 4
    s = play(s, "14x6", "liar")
    r = last_result(s)
    assert r.hands[1] == (1, 1, 4, 6) and r.count == 4 + 3 + 5
    assert r.losses == {1: 2}


# ------------------------------------------------------------------------------- rules source 002


def test_seed_002_exact_count_costs_the_caller_one() -> None:
    g = new_game("house-rules", 3, first_opener="given")
    s = deal(g.new_initial_state(), [5, 5, 1, 2, 3], [4, 5, 6, 2, 2], [3, 3, 3, 3, 3])
    s = play(s, "4x5", "liar")
    r = last_result(s)
    assert r.count == 4 and r.losses == {1: 1} and r.winner == 0
    assert s.table.opener == 1  # the loser goes first


def test_seed_002_differences_and_loser_opens() -> None:
    g = new_game("house-rules", 3, first_opener="given")
    s = deal(g.new_initial_state(), [5, 5, 1, 2, 3], [4, 5, 6, 2, 2], [3, 3, 3, 3, 3])
    s = play(s, "4x5", "6x5", "liar")  # four 5's: seat 1 claimed two too many
    r = last_result(s)
    assert r.losses == {1: 2} and s.table.opener == 1
    s = deal(s, [2, 2, 2, 2, 2], [2, 2, 2], [3, 3, 3, 3, 3])
    s = play(s, "5x2", "liar")  # eight 2's: the caller (seat 2) loses 3
    assert last_result(s).losses == {2: 3} and s.table.opener == 2


def test_seed_002_first_player_by_rolling_one_die() -> None:
    g = new_game("house-rules", 4, opener=None)
    s = g.new_initial_state()
    assert s.phase is Phase.SETUP and s.player == CHANCE
    s = roll(s, [3, 6, 2, 6])  # seats 1 and 3 tie on 6: they re-roll
    assert s.phase is Phase.SETUP
    s = roll(s, [4, 5])  # seat 1 rolls 4, seat 3 rolls 5
    assert s.phase is Phase.ROLL and s.table.opener == 3
    s = deal(s, *[[2, 3, 4, 5, 6]] * 4)
    assert s.player == 3


def test_seed_002_asking_costs_a_die_when_the_round_resolves() -> None:
    g = new_game("house-rules", 3, first_opener="given")
    s = deal(g.new_initial_state(), [5, 5, 1, 2, 3], [4, 5, 6, 2, 2], [3, 3, 3, 3, 3])
    s = s.ask(2, "turn")
    assert s.dice_counts == (5, 5, 5) and s.table.cap == 15  # nothing changes during the round
    s = play(s, "4x5").ask(2, "count")
    s = play(s, "liar")  # seat 1 calls: count 4, caller loses one
    r = last_result(s)
    assert r.losses == {1: 1, 2: 2} and s.dice_counts == (5, 4, 3)
    assert s.table.opener == 1  # asking is not losing the challenge


def test_seed_002_asking_before_the_first_round_still_costs_a_die() -> None:
    g = new_game("house-rules", 2, opener=None)
    s = g.new_initial_state().ask(1, "count")  # during the roll for the first player
    s = roll(s, [6, 2])
    s = play(deal(s, [2] * 5, [3] * 5), "5x2", "liar")  # exact: the caller loses one
    assert last_result(s).losses == {1: 2}


def test_seed_002_view_and_replay_after_a_question() -> None:
    g = new_game("house-rules", 2, first_opener="given")
    s = deal(g.new_initial_state(), [2] * 5, [3] * 5).ask(0, "turn")
    s = play(s, "1x2")
    v = s.view(1)
    assert v.bids == ((0, Bid(1, 2)),) and v.my_dice == (3,) * 5
    assert v.to_dict()["bids"] == [[0, "1x2"]]
    again = g.replay(s.history())
    assert again.history() == s.history() and again.table.penalties == (1, 0)


def test_seed_002_questions_are_only_for_house_rules() -> None:
    s = deal(new_game("classic", 2).new_initial_state(), [2] * 5, [3] * 5)
    with pytest.raises(IllegalActionError):
        s.ask(0, "turn")
    h = deal(new_game("house-rules", 2, first_opener="given").new_initial_state(), [2] * 5, [3] * 5)
    with pytest.raises(IllegalActionError):
        h.ask(0, "weather")


# ------------------------------------------------------------------------------- rules source 003


def test_seed_003_liar_count_at_least_bid_caller_loses_one() -> None:
    g = new_game("spot-on", 3)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "2x4", "liar")  # six 4's (ones are not wild): far more, still only one die
    r = last_result(s)
    assert r.count == 6 and r.losses == {1: 1} and r.winner == 0
    assert s.table.opener == 0  # the 'previous player' (the bidder) starts


def test_seed_003_liar_count_below_bid_bidder_loses_one() -> None:
    g = new_game("spot-on", 3)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "2x4", "9x4", "liar")
    r = last_result(s)
    assert r.count == 6 and r.losses == {1: 1} and r.winner == 2 and r.bidder == 1
    assert s.table.opener == 1


def test_seed_003_liar_exact_count_bid_stands() -> None:
    g = new_game("spot-on", 3)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "6x4", "liar")
    assert last_result(s).losses == {1: 1}


def test_seed_003_exact_call_right() -> None:
    g = new_game("spot-on", 3)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "6x4", "exact")
    r = last_result(s)
    assert r.call == "exact" and r.winner == 1
    assert r.losses == {0: 1, 2: 1} and s.dice_counts == (4, 5, 4)
    assert s.table.opener == 0  # still the previous player


def test_seed_003_exact_call_wrong() -> None:
    g = new_game("spot-on", 3)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "5x4", "exact")
    r = last_result(s)
    assert r.losses == {1: 1} and r.winner == 0


def test_seed_003_calling_advantage_pile() -> None:
    g = new_game("spot-on", 3, calling_advantage=True)
    s = deal(g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "9x4", "liar")  # the bidder loses one: into the pile
    assert s.table.pile == 1 and last_result(s).pile == 1
    s = deal(s, [4, 4, 4, 1], [4, 4, 2, 2, 2], [4, 6, 6, 6, 6])
    s = play(s, "6x4", "exact")  # seat 1 is right: takes the pile, everyone else loses one
    r = last_result(s)
    assert r.gains == {1: 1} and r.losses == {0: 1, 2: 1}
    assert s.dice_counts == (3, 6, 4), "the pile can take a player above the starting five"
    assert s.table.pile == 2 and r.pile == 2
    assert s.table.cap == 13


def test_seed_003_secret_stash() -> None:
    g = new_game("spot-on", 3, stash="secret")
    s = g.new_initial_state()
    s = deal(s, [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [2, 6, 6, 6, 6], stash=[4, 4, 6])
    assert s.table.cap == 18 and s.table.stash == (4, 4, 6)
    for p in (-1, 0, 1, 2):
        v = s.view(p)
        assert v.stash is None and v.stash_size == 3 and v.dice_in_play == 18
        assert v.to_dict()["stash"] is None
    assert s.count(Bid(1, 4)) == 7
    s = play(s, "7x4", "liar")
    r = last_result(s)
    assert r.count == 7 and r.stash == (4, 4, 6) and r.losses == {1: 1}
    assert s.view(0).results[-1].stash == (4, 4, 6)  # revealed after the round


def test_seed_003_stash_shrinks_on_elimination() -> None:
    g = new_game("spot-on", 3, stash="secret", dice=(2, 1, 2))
    s = deal(g.new_initial_state(), [3, 3], [5], [2, 2], stash=[1, 1, 1])
    s = play(s, "1x6", "liar")  # no sixes: seat 0 loses one
    s = deal(s, [3], [5], [2, 2], stash=[1, 1, 1])
    s = play(s, "1x6", "liar")  # seat 0 loses its last die
    assert s.dice_counts == (0, 1, 2) and s.table.cap == 3 + 2
    s = deal(s, [], [5], [2, 2], stash=[6, 6])
    assert s.view(1).stash_size == 2 and s.table.stash == (6, 6)


def test_seed_003_open_stash() -> None:
    g = new_game("spot-on", 3, stash="open")
    s = deal(
        g.new_initial_state(), [4, 4, 4, 1, 1], [4, 4, 2, 2, 2], [2, 6, 6, 6, 6], stash=[5, 1, 6]
    )
    for p in (-1, 0, 1, 2):
        assert s.view(p).stash == (5, 1, 6)
    assert s.count(Bid(1, 6)) == 5


def test_seed_003_rich_mans_dice() -> None:
    g = new_game("spot-on", 2, economy="rich-man", chips=50, ante=2, dice=3)
    s = g.new_initial_state()
    assert s.table.game_pot == 4 and s.table.chips == (48, 48)
    s = deal(s, [2, 3, 4], [2, 2, 5])
    assert not is_legal(s, "buy"), "nobody can buy above the starting dice"
    s = play(s, "1x5", "liar")  # one 5: the bid stands, the caller (seat 1) loses one
    assert s.dice_counts == (3, 2)
    s = deal(s, [6, 6, 6], [3, 3])
    s = play(s, "1x6")
    assert is_legal(s, "buy")
    s = play(s, "buy")
    assert s.player == CHANCE and s.phase is Phase.BUY_ROLL
    assert s.table.chips == (48, 44) and s.table.game_pot == 8
    s = roll(s, [6])  # rolled at once, hidden in the buyer's hand
    assert s.player == 1 and s.hand(1) == (3, 3, 6) and s.dice_counts == (3, 3)
    assert s.table.cap == 6 and Bid(6, 6) in bids_of(s)
    assert not is_legal(s, "buy"), "one die per turn, never above the start"
    s = play(s, "4x6", "liar")
    r = last_result(s)
    assert r.count == 4 and r.losses == {0: 1}


def test_seed_003_rich_man_winner_takes_the_pot_and_buy_needs_chips() -> None:
    g = new_game("spot-on", 2, economy="rich-man", chips=5, ante=3, dice=2)
    s = deal(g.new_initial_state(), [2, 3], [2, 2])
    s = play(s, "1x5", "liar")
    s = deal(s, [2], [3, 3])
    assert s.table.chips == (2, 2) and s.table.game_pot == 6
    assert not is_legal(s, "buy"), "the pot (6) costs more than seat 0's 2 chips"
    with pytest.raises(IllegalActionError, match="costs the pot"):
        play(s, "buy")
    s = play(s, "1x5", "liar")
    assert s.is_terminal() and s.winner == 1 and s.table.chips == (2, 8)


# ------------------------------------------------------------------------------- rules source 004


def test_seed_004_room_resolves_when_every_other_player_called() -> None:
    g = new_game("room", 3)
    s = deal(g.new_initial_state(), [2, 3, 4, 5], [6, 6, 1, 1], [2, 2, 3, 3])
    s = play(s, "3x2", "liar")
    assert s.phase is Phase.BID and s.player == 2 and s.callers == (1,)
    s = play(s, "3x3")  # seat 2 raises instead: calls so far no longer count
    assert s.callers == () and s.player == 0
    s = play(s, "liar")
    assert not s.results
    s = play(s, "liar")
    r = last_result(s)
    assert r.callers == (0, 1) and r.bidder == 2 and r.count == 3
    # the bid exists: the bidder wins the game outright
    assert s.is_terminal() and s.winner == 2
    assert s.table.scores == (-1, -1, 1) and s.returns() == (-1.0, -1.0, 1.0)


def test_seed_004_room_false_bid_kicks_a_die() -> None:
    g = new_game("room", 2, dice=(4, 1))
    s = deal(g.new_initial_state(), [2, 3, 4, 5], [6])
    s = play(s, "2x6", "liar")
    r = last_result(s)
    assert r.losses == {0: 1} and r.scores == (0, 0), "no point lost while dice are left"
    assert s.dice_counts == (3, 1) and not s.is_terminal()
    s = deal(s, [2, 3, 4], [6])
    assert s.player == 0  # the loser (the bidder) opens
    s = play(s, "1x3", "liar")  # true: seat 0 wins the game outright
    assert s.is_terminal() and s.winner == 0 and s.table.scores == (1, -1)


def test_seed_004_room_point_lost_when_out_of_dice() -> None:
    g = new_game("room", 2, dice=(1, 4))
    s = deal(g.new_initial_state(), [2], [3, 4, 5, 6])
    s = play(s, "2x2", "liar")
    r = last_result(s)
    assert r.losses == {0: 1} and r.eliminated == (0,)
    assert s.is_terminal() and s.winner == 1 and s.table.scores == (-1, 0)
    assert s.returns() == (-1.0, 0.0)


def test_seed_004_room_ones_rank_highest_without_wilds() -> None:
    g = new_game("room", 2)
    s = deal(g.new_initial_state(), [1, 1, 6, 2], [1, 6, 6, 6])
    assert s.count(Bid(1, 6)) == 4 and s.count(Bid(1, 1)) == 3
    s = play(s, "4x6")
    assert Bid(4, 1) in bids_of(s) and Bid(5, 2) not in bids_of(s)
