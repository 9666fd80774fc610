"""Tests for liarsdice.odds: binomial tails and bid odds against brute-force enumeration."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liarsdice.bots import RandomBot
from liarsdice.core.bidding import CHANCE, LIAR, Bid, Game, Phase, State, preset
from liarsdice.odds import bid_odds, prob_at_least, prob_exactly, unseen_dice

# --------------------------------------------------------------------------- binomials


def _matches(d: int, face: int, wild: int | None) -> bool:
    return d == face or (wild is not None and d == wild)


@pytest.mark.parametrize("faces", [2, 3, 4, 6])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("wild", [None, 1])
def test_binomial_matches_dice_enumeration(faces: int, n: int, wild: int | None) -> None:
    face = faces  # a non-wild face
    p = Fraction(2 if wild is not None else 1, faces)
    outcomes = list(itertools.product(range(1, faces + 1), repeat=n))
    for k in range(-1, n + 2):
        at_least = sum(1 for o in outcomes if sum(_matches(d, face, wild) for d in o) >= k)
        exactly = sum(1 for o in outcomes if sum(_matches(d, face, wild) for d in o) == k)
        assert prob_at_least(k, n, p) == Fraction(at_least, len(outcomes))
        assert prob_exactly(k, n, p) == Fraction(exactly, len(outcomes))


@given(st.integers(0, 40), st.integers(-2, 42), st.fractions(0, 1))
def test_binomial_float_agrees_with_fraction(n: int, k: int, p: Fraction) -> None:
    assert prob_at_least(k, n, float(p)) == pytest.approx(float(prob_at_least(k, n, p)), abs=1e-9)
    assert prob_exactly(k, n, float(p)) == pytest.approx(float(prob_exactly(k, n, p)), abs=1e-9)


def test_binomial_distribution_sums_to_one() -> None:
    p = Fraction(1, 3)
    assert sum(prob_exactly(k, 7, p) for k in range(8)) == 1
    assert prob_at_least(3, 7, p) == sum(prob_exactly(k, 7, p) for k in range(3, 8))


# --------------------------------------------------------------------------- bid odds


def _brute_odds(state: State, seat: int, bid: Bid) -> tuple[Fraction, Fraction]:
    """Enumerate every value of the dice ``seat`` cannot see; count matches by the rules."""
    game = state.game
    rules = game.rules
    t = state.table
    wild = None if t.palifico else rules.wild
    n = game.num_players
    visible: list[int] = [d for s in range(n) for d in state.shown(s)]
    hidden_count = 0
    for s in range(n):
        if s == seat:
            visible.extend(state.hand(s))
        else:
            hidden_count += len(state.hand(s))
    if rules.stash.value == "open":
        visible.extend(t.stash)
    else:
        hidden_count += len(t.stash)

    def count(dice: Iterable[int]) -> int:
        return sum(1 for d in dice if d == bid.face or (d == wild and bid.face != wild))

    # The enumeration's notion of a match agrees with the engine on the real dice.
    actual_unseen = [d for s in range(n) if s != seat for d in state.hand(s)]
    if rules.stash.value != "open":
        actual_unseen.extend(t.stash)
    assert count([*visible, *actual_unseen]) == state.count(bid)

    base = count(visible)
    at_least = exactly = total = 0
    for world in itertools.product(range(1, rules.faces + 1), repeat=hidden_count):
        c = base + count(world)
        total += 1
        at_least += c >= bid.quantity
        exactly += c == bid.quantity
    return Fraction(at_least, total), Fraction(exactly, total)


def _check(state: State, seat: int, quantities: Iterable[int] | None = None) -> None:
    game = state.game
    qs = list(quantities) if quantities is not None else range(1, game.max_quantity + 1)
    view = state.view(seat)
    for face in range(1, game.rules.faces + 1):
        for q in qs:
            bid = Bid(q, face)
            expected = _brute_odds(state, seat, bid)
            got = bid_odds(game, view, bid)
            assert got[0] == pytest.approx(float(expected[0]), abs=1e-12), (bid, seat)
            assert got[1] == pytest.approx(float(expected[1]), abs=1e-12), (bid, seat)


def _rolled(game: Game, rolls: Iterable[int]) -> State:
    state = game.new_initial_state()
    for r in rolls:
        state = state.apply_action(r)
    assert state.phase is Phase.BID
    return state


def test_bid_odds_with_wilds() -> None:
    game = Game(preset("classic", dice=2, players=3, first_opener="given"))
    state = _rolled(game, [1, 4, 4, 6, 2, 1])
    for seat in range(3):
        _check(state, seat)


def test_bid_odds_without_wilds() -> None:
    game = Game(preset("spot-on", dice=2, players=3, first_opener="given"))
    state = _rolled(game, [1, 4, 4, 6, 2, 1])
    _check(state, 0)
    _check(state, 1)


def test_bid_odds_for_a_spectator_sees_nothing_hidden() -> None:
    game = Game(preset("classic", dice=2, players=2, first_opener="given"))
    state = _rolled(game, [1, 4, 4, 6])
    assert unseen_dice(state.view(-1)) == 4
    _check(state, -1, range(1, 5))


@pytest.mark.parametrize("stash", ["secret", "open"])
def test_bid_odds_count_the_stash(stash: str) -> None:
    game = Game(preset("spot-on", dice=2, players=2, stash=stash, first_opener="given"))
    state = _rolled(game, [3, 5, 5, 2, 5, 6])  # hands 3 5 | 2 5, stash 5 6
    view = state.view(0)
    assert unseen_dice(view) == (2 if stash == "open" else 4)
    _check(state, 0)
    # Open stash: own 5 and the stash's 5 are seen, so 3x5 needs one of the 2 unseen dice.
    if stash == "open":
        at_least, exactly = bid_odds(game, view, Bid(3, 5))
        assert at_least == pytest.approx(1 - (5 / 6) ** 2)
        assert exactly == pytest.approx(2 * 5 / 36)


def test_bid_odds_count_shown_dice() -> None:
    game = Game(preset("milton-bradley", dice=3, players=2, first_opener="given"))
    state = _rolled(game, [2, 3, 6, 1, 6, 4])  # p1: 2 3 6, p2: 1 4 6
    state = state.apply_action(game.bid_action(Bid(2, 6)))
    state = state.apply_action(game.show_action([1, 6]))  # p2 shows 1 6 and re-rolls one die
    assert state.current_player == CHANCE
    state = state.apply_action(5)
    assert state.shown(1) == (1, 6) and state.hand(1) == (5,)
    assert unseen_dice(state.view(0)) == 1
    _check(state, 0)
    _check(state, 1)
    # p1 sees the shown 1 and 6 plus its own 6: three sixes for sure.
    at_least, exactly = bid_odds(game, state.view(0), Bid(3, 6))
    assert at_least == 1.0
    assert exactly == pytest.approx(2 / 3)


def test_bid_odds_in_a_palifico_round_ignore_wilds() -> None:
    game = Game(preset("perudo", dice=2, players=2, first_opener="given"))
    state = _rolled(game, [2, 3, 4, 5])
    state = state.apply_action(game.bid_action(Bid(4, 6))).apply_action(LIAR)
    state = state.resolve_chance(random.Random(3))
    assert state.table.palifico and state.view(0).palifico
    assert state.dice_counts[0] == 1
    _check(state, 0)
    _check(state, 1)
    # In a palifico round 1s count only as 1s: P(a given die matches 5) = 1/6.
    view = state.view(0)
    others = unseen_dice(view)
    mine = sum(1 for d in view.my_dice if d == 5)
    p = bid_odds(game, view, Bid(mine + 1, 5))[0]
    assert p == pytest.approx(1 - (5 / 6) ** others)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["classic", "spot-on", "perudo", "milton-bradley", "room", "snyd-joker"]),
    st.integers(0, 10_000),
)
def test_bid_odds_match_enumeration_in_random_play(name: str, seed: int) -> None:
    """Random positions of small games: odds from every seat equal the enumeration."""
    overrides = {} if name == "snyd-joker" else {"dice": 2, "players": 2}
    game = Game(preset(name, **overrides))
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + i)) for i in range(game.num_players)]
    state = game.new_initial_state()
    stop = rng.randrange(12)
    for _ in range(stop):
        state = state.resolve_chance(rng)
        if state.is_terminal():
            break
        seat = state.current_player
        state = state.apply_action(bots[seat].choose(game, state.view(seat)))
    state = state.resolve_chance(rng)
    if state.is_terminal():
        return
    for seat in range(game.num_players):
        _check(state, seat, range(1, game.max_quantity + 1))
