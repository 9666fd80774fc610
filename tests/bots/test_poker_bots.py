"""Tests for the poker-dice bots: legal play, private views, exact odds, prob beats random."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from bot_util import play_family
from liarsdice.bots.poker.simple import (
    PokerProbBot,
    best_reroll,
    five_chance,
    five_keep,
    reach,
    roll_distribution,
)
from liarsdice.core.poker import (
    ACCEPT,
    LIAR,
    PokerGame,
    PokerRules,
    PokerState,
    PokerView,
    parse_face,
    parse_poker_bid,
    satisfies,
)
from liarsdice.families.poker import POKER

BASIC = ("prob", "random")  # the strong levels have their own tests (test_bots_strong.py)


def _assert_private(state: PokerState, view: PokerView) -> None:
    """The view shows the cup only to its holder looking under it, and nobody else's dice."""
    seat = view.player
    assert seat == state.current_player
    if view.cup:
        assert state.holder == seat and view.cup == state.cup
    else:
        assert not state.sees_cup(seat)
    # Nobody else's dice under the cup: a twin state with other cup dice looks the same,
    # except to the holder looking under it.
    if not state.sees_cup(seat) and state.cup:
        twin_cup = tuple(sorted(d % 6 + 1 for d in state.cup))
        twin = _with_cup(state, twin_cup)
        assert twin.view(seat) == view


def _with_cup(state: PokerState, cup: tuple[int, ...]) -> PokerState:
    import dataclasses

    return dataclasses.replace(state, cup=cup)


def play_game(
    kinds: list[str], seed: int, *, five: bool = True, lives: int = 2, spy: bool = False
) -> PokerState:
    """One game between poker bots given only their views; every action must be legal."""
    game = PokerGame(PokerRules(players=len(kinds), lives=lives, five_of_a_kind_rule=five))
    state: PokerState = play_family(POKER, game, kinds, seed, _assert_private if spy else None)
    return state


@pytest.mark.parametrize("five", [True, False])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_play_legally(players: int, five: bool) -> None:
    for seed in range(4):
        kinds = [BASIC[(i + seed) % 2] for i in range(players)]
        if seed == 3:
            kinds = ["prob"] * players
        state = play_game(kinds, seed, five=five, spy=seed < 2)
        assert state.winner is not None
        assert state.game.replay(state.history()) == state


def test_prob_beats_random() -> None:
    games = 150
    wins = 0
    for seed in range(games):
        kinds = ["random", "random", "random"]
        kinds[seed % 3] = "prob"
        state = play_game(kinds, seed, lives=3)
        wins += kinds[state.winner or 0] == "prob"
    # Measured: prob wins 191 of 200 three-player games (3 lives) against two random bots,
    # with the five-of-a-kind rule on or off (a third would be even); demand a clear margin.
    assert wins / games >= 0.75, wins


# ------------------------------------------------------------------ exact odds
def _brute_reach(kept: tuple[int, ...], bid_text: str) -> Fraction:
    bid = parse_poker_bid(bid_text)
    k = 5 - len(kept)
    hits = sum(satisfies(kept + roll, bid) for roll in product(range(1, 7), repeat=k))
    return Fraction(hits, 6**k)


@pytest.mark.parametrize(
    ("kept", "bid"),
    [
        ((6, 6, 6, 6), "five A"),
        ((5, 5, 1), "three K"),
        ((5, 5, 1), "full house K 9"),
        ((1, 2, 3), "low straight"),
        ((2, 3, 4, 5), "high straight"),
        ((4, 4), "two pair Q 10 A"),
        ((6,), "pair A K"),
        ((1, 1, 1, 2), "four 9 10"),
        ((), "three 9"),
        ((3, 4), "high A K"),
    ],
)
def test_reach_matches_brute_force(kept: tuple[int, ...], bid: str) -> None:
    assert reach(kept, parse_poker_bid(bid)) == pytest.approx(float(_brute_reach(kept, bid)))


def test_roll_distribution_is_exact() -> None:
    for k in range(6):
        dist = dict(roll_distribution(k))
        counts: dict[tuple[int, ...], int] = {}
        for roll in product(range(1, 7), repeat=k):
            key = tuple(sorted(roll))
            counts[key] = counts.get(key, 0) + 1
        assert set(dist) == set(counts)
        for ms, n in counts.items():
            assert dist[ms] == pytest.approx(n / 6**k)


def test_best_reroll_is_the_best_keep() -> None:
    hand = (5, 5, 1, 2, 6)
    bid = parse_poker_bid("three K")
    kept, p = best_reroll(hand, bid)
    assert kept == (5, 5)
    # no keep does better, by brute force over every subset of the dice
    for mask in range(32):
        sub = tuple(d for i, d in enumerate(hand) if mask >> i & 1)
        assert float(_brute_reach(sub, "three K")) <= p + 1e-12


def test_five_of_a_kind_odds() -> None:
    # one roll: keep three kings, both others must be kings
    assert five_keep((5, 5, 5, 1, 2), 1) == ((5, 5, 5), pytest.approx(1 / 36))
    # three rolls from three of a kind: each missing die has three tries
    assert five_chance((5, 5, 5, 1, 2)) == pytest.approx((1 - (5 / 6) ** 3) ** 2)
    assert five_chance((4, 4, 4, 4, 4)) == 1.0
    # from nothing, three rolls (Yahtzee's well-known 4.6%)
    assert five_chance((1, 2, 3, 4, 6)) == pytest.approx(0.046, abs=0.001)
    # brute force over two rolls from a pair
    assert five_keep((3, 3, 1, 2, 6), 1)[1] == pytest.approx(1 / 216)


# ------------------------------------------------------------------ decisions
def _rolled(game: PokerGame, faces: str) -> PokerState:
    return game.replay([(-1, parse_face(f)) for f in faces.split()])


def test_prob_bids_its_hand_and_calls_the_impossible() -> None:
    g = PokerGame(players=2)
    s = _rolled(g, "A A A K K")
    bot = PokerProbBot(random.Random(0), bluff=0.0)
    assert g.action_to_string(bot.choose(g, s.view(0))) == "full house A K"
    s = s.apply_action(g.bid_action(parse_poker_bid("pair 9")))
    assert bot.choose(g, s.view(1)) == ACCEPT  # a pair of nines is very likely
    s2 = _rolled(g, "A A A K K").apply_action(g.bid_action(parse_poker_bid("five A")))
    assert bot.choose(g, s2.view(1)) == LIAR


def test_prob_keeps_the_most_common_face() -> None:
    g = PokerGame(players=2)
    s = _rolled(g, "Q Q Q 9 A")
    for move in ("five Q", "accept"):
        s = s.apply_action(g.string_to_action(move))
    view = s.view(1)
    assert view.phase == "keep"
    bot = PokerProbBot(random.Random(0))
    assert g.action_to_string(bot.choose(g, view)) == "keep Q Q Q"


def test_prob_accepter_plans_a_reroll() -> None:
    g = PokerGame(players=3)
    s = _rolled(g, "K K 9 10 J")
    for move in ("pair K J 10 9", "left", "accept"):
        s = s.apply_action(g.string_to_action(move))
    bot = PokerProbBot(random.Random(0))
    view = s.view(1)
    arrange, roll = bot.plan(g, view)
    assert g.action_to_string(bot.choose(g, view)) == g.action_to_string(arrange)
    s = s.apply_action(arrange)
    assert bot.choose(g, s.view(1)) == roll  # the roll step follows the same plan
    # it keeps both kings (outside with the cup shaken, or under the cup with the rest rolled
    # in view) and re-rolls the other dice
    rolled = g.action_roll(roll)
    assert rolled is not None
    shake, rolled_out = rolled
    kept = list(s.outside)
    for f in rolled_out:
        kept.remove(f)
    if not shake:
        kept += s.cup
    assert sorted(kept) == [5, 5]


def test_the_poker_beginner_opens_within_reason() -> None:
    """The weakest level never opens more than one hand category above the hand it holds
    (the uniform baseline, random:plausible=false, opened five of a kind on junk)."""
    from liarsdice.core.poker import PokerGame, hand_bid

    game = PokerGame(players=3)
    beginner = POKER.make_bot("random", random.Random(1))
    uniform = POKER.make_bot("random:plausible=false", random.Random(1))
    over = {"beginner": 0, "uniform": 0}
    for seed in range(200):
        state = game.new_initial_state().resolve_chance(random.Random(seed))
        view = state.view(state.current_player)
        held = hand_bid(view.cup + view.outside).category
        for name, bot in (("beginner", beginner), ("uniform", uniform)):
            bid = game.action_bid(bot.choose(game, view))
            assert bid is not None
            over[name] += bid.category > held + 1
    assert over["beginner"] == 0 and over["uniform"] > 20
