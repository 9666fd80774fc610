"""The expert's search on the learned strategies (:mod:`liarsdice.bots.bidding.lookahead`):
its move values against the solver's own values of the same strategies, its policy, and the
expert playing it where the re-solve does not reach."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from liarsdice.arena import ArenaSpec, run_arena
from liarsdice.bots.bidding.expert import RESOLVE_MAX_SIZE, ExpertBot
from liarsdice.bots.bidding.lookahead import Lookahead
from liarsdice.bots.bidding.resolving import model_replies
from liarsdice.core.bidding import Game, preset
from liarsdice.learn.rounds import train_rounds
from liarsdice.nets.rounds import RoundPolicies, packaged_round_policies


@pytest.fixture(scope="module")
def last_bid(tmp_path_factory: pytest.TempPathFactory) -> RoundPolicies:
    """Every pair recalling the last bid only (the re-solve's abstraction)."""
    folder: Path = tmp_path_factory.mktemp("rounds")
    return train_rounds("openspiel", faces=3, max_dice=2, iterations=80, folder=folder,
                        recall_budget=1)  # fmt: skip


@pytest.fixture(scope="module")
def longer_recall(tmp_path_factory: pytest.TempPathFactory) -> RoundPolicies:
    """Every pair recalling as many bids as the default budget allows."""
    folder: Path = tmp_path_factory.mktemp("rounds")
    return train_rounds("openspiel", faces=3, max_dice=2, iterations=80, folder=folder)


@pytest.fixture(scope="module", params=["last_bid", "longer_recall"])
def policies(request: pytest.FixtureRequest) -> RoundPolicies:
    out: RoundPolicies = request.getfixturevalue(request.param)
    return out


def test_the_pairs_recall_what_the_fixture_says(policies: RoundPolicies) -> None:
    recalls = {policies.recall(d) for d in policies.pairs}
    assert recalls == {1} or min(recalls) > 2, recalls


def _mixed(look: Lookahead, actor: int, bids: list[int], other: np.ndarray) -> float:
    """Actor ``actor``'s value at the node after ``bids`` when it plays the blueprint, its
    hands weighted by its blueprint reading: from the lookahead's move values."""
    t = look.tables
    mine = look.reading(actor, bids)
    last = bids[-1] if bids else -1
    node = look.tree.node(bids)
    total = 0.0
    for h in range(len(t.rolls[actor])):
        q = look.move_values(actor, h, bids, other)
        total += mine[h] * float(look.strategies[actor][node, h, max(last + 1, 1) :] @ q)
    return total


@pytest.mark.parametrize("dice", [(2, 1), (2, 2)])
def test_move_values_agree_with_the_solver_values_of_the_same_strategies(
    policies: RoundPolicies, dice: tuple[int, int]
) -> None:
    look = Lookahead(policies, dice)
    t = look.tables
    at_opener, at_other = look.values(0)
    # The opener at the root, against the other's prior: the round's value.
    root = _mixed(look, 0, [], t.probs[1])
    assert root == pytest.approx(policies.info[dice]["value"], abs=1e-5)
    for m in (0, 3, t.num_bids - 2):
        # The other player after the opening bid m: minus the opener's value at that node.
        r0, r1 = look.reading(0, [m]), look.reading(1, [m])
        node = look.tree.node([m])
        value_b = _mixed(look, 1, [m], r0)
        assert value_b == pytest.approx(-float(r0 @ at_other[:, node, :] @ r1), abs=1e-5)
        # The opener again, after the other raised to m + 1.
        bids = [m, m + 1]
        r0, r1 = look.reading(0, bids), look.reading(1, bids)
        value_a = _mixed(look, 0, bids, r1)
        node = look.tree.node(bids)
        assert value_a == pytest.approx(float(r1 @ at_opener[:, node, :] @ r0), abs=1e-5)


def test_the_policy_moves_weight_only_to_moves_that_beat_the_blueprint(
    policies: RoundPolicies,
) -> None:
    look = Lookahead(policies, (2, 2))
    t = look.tables
    rng = np.random.default_rng(0)
    for _ in range(20):
        hand = t.rolls[1][int(rng.integers(len(t.rolls[1])))]
        bids = [int(rng.integers(t.num_bids - 1))]
        probs = look.policy(1, hand=hand, bids=bids, mix_range=None, mix=0.0)
        q = look.move_values(1, t.roll_index(1, hand), bids, look.reading(0, bids))
        blueprint = look.strategies[1][look.tree.node(bids), t.roll_index(1, hand), bids[0] + 1 :]
        assert probs.shape == q.shape and probs.sum() == pytest.approx(1.0)
        if not np.array_equal(probs, blueprint):
            assert (q[probs > 0] >= blueprint @ q - 1e-12).all()
        best = look.policy(1, hand=hand, bids=bids, mix_range=None, mix=0.0, greedy=True)
        assert best.max() == 1.0 and q[int(best.argmax())] == q.max()


def test_the_expert_searches_the_learned_strategies_past_the_resolve() -> None:
    expert = ExpertBot(random.Random(0))
    four = Game(preset("snyd-joker", players=2, dice=4))
    state = four.new_initial_state().resolve_chance(random.Random(4))
    view = state.view(state.current_player)
    action = expert._lookahead(four, view)
    assert action is not None and action in view.legal_actions
    for dice in (2, 3):  # the re-solve takes the whole round
        small = Game(preset("snyd-joker", players=2, dice=dice))
        state = small.new_initial_state().resolve_chance(random.Random(4))
        assert expert._lookahead(small, state.view(state.current_player)) is None
    narrow = ExpertBot(random.Random(0), resolve_max=RESOLVE_MAX_SIZE)  # the old limit
    three = Game(preset("snyd-joker", players=2, dice=3))
    state = three.new_initial_state().resolve_chance(random.Random(4))
    # Past that limit the search takes 3 v 3, whose strategies recall the last two bids.
    assert packaged_round_policies("snyd-joker", 6).recall((3, 3)) == 2  # type: ignore[union-attr]
    assert narrow._lookahead(three, state.view(state.current_player)) in state.legal_actions()
    five = Game(preset("snyd-joker", players=2, dice=5))  # past lookahead_max_dice: reading
    state = five.new_initial_state().resolve_chance(random.Random(4))
    assert expert._lookahead(five, state.view(state.current_player)) is None
    wide = ExpertBot(random.Random(0), lookahead_max_dice=5)
    assert wide._lookahead(five, state.view(state.current_player)) in state.legal_actions()
    classic = Game(preset("classic", players=2, dice=3))  # no learned strategies for classic
    state = classic.new_initial_state().resolve_chance(random.Random(4))
    assert expert._lookahead(classic, state.view(state.current_player)) is None


def test_the_search_alone_beats_the_learned_bot_at_four_dice_each() -> None:
    # The search on the learned strategies, without the reading's values or the other's
    # menu (the defaults trade some of this edge for robustness against other bots): a
    # policy improvement on the learned play, with an exact reading of its bids.
    rules = preset("snyd-joker", players=2, dice=4)
    search = "expert:lookahead_blend=0:lookahead_menu=0.25"
    result = run_arena(ArenaSpec(rules, (search, "learned"), games=300, seed=17))
    expert = next(r for r in result.standings if r.label == search)
    assert result.errors == [] and expert.win_low > 0.5, expert


def test_the_honest_share_changes_the_other_players_play_after_a_move(
    policies: RoundPolicies,
) -> None:
    free = Lookahead(policies, (2, 2))
    mixed = Lookahead(policies, (2, 2), exploit=0.5)
    t = mixed.tables
    honest = mixed._honest(1)
    k = t.num_bids
    for j in range(1, k + 1):  # one move per hand, a legal one: the call or a raise above
        assert np.array_equal(honest[j].sum(axis=1), np.ones(len(t.rolls[1])))
        assert not honest[j][:, :j].any()
    # The other actor is mixed with the honest bidder: the values differ from the free ones,
    # and depend on who searches.
    assert not np.allclose(mixed.values(0)[1], free.values(0)[1])
    assert not np.allclose(mixed.values(1)[0], free.values(1)[0])
    assert not np.allclose(mixed.values(0)[0], mixed.values(1)[0])
    assert np.array_equal(free.values(0)[1], free.values(1)[1])  # no share: one array


def test_the_expert_blends_the_reading_when_asked() -> None:
    game = Game(preset("snyd-joker", players=2, dice=4))
    state = game.new_initial_state().resolve_chance(random.Random(9))
    state = state.apply_action(state.legal_actions()[3])
    view = state.view(state.current_player)
    for blend in (0.0, 0.5, 1.0):
        bot = ExpertBot(random.Random(1), lookahead_blend=blend)
        assert bot._lookahead(game, view) in view.legal_actions


def test_a_reader_of_bids_sees_the_blueprint_reach(policies: RoundPolicies) -> None:
    look = Lookahead(policies, (2, 2), exploit=0.5, reads_bids=True)
    # Bid 0 can only open, and bid 1 after it only answer it: one path each.
    assert np.allclose(look._reach_of(0)[1], look.reading(0, [0]))
    assert np.allclose(look._reach_of(1)[2], look.reading(1, [0, 1]))
    blind = Lookahead(policies, (2, 2), exploit=0.5)
    assert not np.array_equal(look._honest(1), blind._honest(1))


def test_the_last_bid_passes_are_the_resolves_node_values(last_bid: RoundPolicies) -> None:
    from liarsdice.solve.subgame import BidSubgame

    dice = (2, 2)
    look = Lookahead(last_bid, dice, exploit=0.3)
    t = look.tables
    sigma = list(look.strategies)
    sigma[1] = 0.7 * sigma[1] + 0.3 * look._honest(1)
    game = BidSubgame(t.truth, opened=False, range_a=t.probs[0], range_b=t.probs[1])
    want = game._backward(sigma)  # the re-solve's own backward pass
    got = look.values(0)
    for w, g in zip(want, got, strict=True):
        assert np.allclose(w, g, atol=1e-5)


def test_a_menu_of_one_share_is_that_honest_share(policies: RoundPolicies) -> None:
    plain = Lookahead(policies, (2, 2), exploit=0.25)
    t = plain.tables
    bids = [1, 4]
    other = plain.reading(1, bids)
    for h in range(len(t.rolls[0])):
        want = plain.move_values(0, h, bids, other)
        assert np.allclose(plain.move_values(0, h, bids, other, (0.25,)), want)
        assert not np.allclose(plain.move_values(0, h, bids, other, (1.0,)), want)


@pytest.mark.parametrize("actor", [0, 1])
def test_the_other_picks_from_the_menu_what_is_worst_for_the_searcher_as_it_sees_it(
    policies: RoundPolicies, actor: int
) -> None:
    look = Lookahead(policies, (2, 2))
    t = look.tables
    bids = [2] if actor == 1 else [2, 3]
    menu = (0.0, 0.5, 1.0)
    other = look.reading(1 - actor, bids)
    hands = range(len(t.rolls[actor]))
    q = {m: np.array([look.move_values(actor, h, bids, other, (m,)) for h in hands]) for m in menu}
    both = np.array([look.move_values(actor, h, bids, other, menu) for h in hands])
    single = np.stack([q[m] for m in menu])  # (menu, hands, moves)
    # The other picks one way per hand of its own: each hand's value of each raise lies
    # between the menu's extremes taken per hand of the other's ...
    last = bids[-1]
    raises = [look.tree.node([*bids, n]) for n in range(last + 1, t.num_bids)]
    per = np.stack([look._mine(actor, m, raises) for m in menu])  # (menu, hands, raises, other)
    low, high = per.min(axis=0) @ other, per.max(axis=0) @ other
    assert (both[:, 1:] >= low - 1e-6).all() and (both[:, 1:] <= high + 1e-6).all()
    assert (both[:, 0] == single[0][:, 0]).all()  # a call ends the round: no menu
    # ... and, over the searcher's hands as the other reads them after each raise, no
    # single way of playing on does worse for the searcher than the menu's picks.
    node = look.tree.node(bids)
    seen = look.reading(actor, bids)[:, None] * look.strategies[actor][node, :, bids[-1] + 2 :]
    seen /= seen.sum(axis=0, keepdims=True)
    got = (seen * both[:, 1:]).sum(axis=0)
    for m in menu:
        assert (got <= (seen * q[m][:, 1:]).sum(axis=0) + 1e-6).all()
    assert (got < np.min([(seen * q[m][:, 1:]).sum(axis=0) for m in menu], axis=0) - 1e-6).any()


def test_the_menu_option_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match=r"lookahead_menu '0\+x': honest shares from 0 to 1"):
        ExpertBot(random.Random(0), lookahead_menu="0+x")
    with pytest.raises(ValueError, match=r"lookahead_menu '1\.5'"):
        ExpertBot(random.Random(0), lookahead_menu="1.5")
    assert ExpertBot(random.Random(0), lookahead_menu="")._menu == ()


def test_the_resolves_model_of_the_other_is_the_learned_strategy() -> None:
    from liarsdice.bots.bidding.bayes import hand_set
    from liarsdice.core.bidding.game import BID_BASE

    game = Game(preset("snyd-joker", players=2, dice=3))
    state = game.new_initial_state().resolve_chance(random.Random(7))
    opener = state.current_player
    state = state.apply_action(BID_BASE + 3)  # the opener's bid
    view = state.view(1 - opener)
    expert = ExpertBot(random.Random(0), resolve_model=0.25)
    pol = packaged_round_policies("snyd-joker", 6)
    assert pol is not None
    t = pol.tables((3, 3))
    first = game.space.ids[view.current_bid]  # type: ignore[index]
    ids = [first] + [a - BID_BASE for a in view.legal_actions if a >= BID_BASE + first + 1]
    hands = hand_set(3, 6)
    model = model_replies(expert, game, view, ids, hands)
    assert model is not None and sorted(model) == list(range(2, len(ids) + 1))
    # After this player's raise to ids[m], the opener (actor 0) answers as its strategy says.
    history = [t.index[b] for _, b in view.bids]
    for m in (1, 4):
        raise_to = t.index[game.space.bids[ids[m]]]
        for h in (0, 17, len(hands.hands) - 1):
            want = pol.probabilities((3, 3), 0, hand=hands.hands[h], history=[*history, raise_to])
            np.testing.assert_allclose(model[m + 1][h], want / want.sum())
    # A re-solve with it plays a legal move.
    assert expert._resolve(game, view) in view.legal_actions
