"""The robustness panel (bluffer, expert-v1), per-opponent bluff rates and re-solving."""

from __future__ import annotations

import random

import numpy as np
import pytest

from liarsdice.bots import (
    BayesBot,
    BlufferBot,
    ExpertBot,
    ExpertV1Bot,
    ProbBot,
)
from liarsdice.bots.bidding.bayes import Belief, BidModel, BidReader, hand_set, tail
from liarsdice.bots.bidding.expert import (
    BLUEPRINT_RESOLVE_MAX_SIZE,
    LIKELIHOOD_FLOOR,
    READINGS,
    RESOLVE_MAX_SIZE,
    bluff_models,
)
from liarsdice.bots.bidding.resolving import _bid_likelihoods, _round_strategy, tracked
from liarsdice.core.bidding import CHANCE, LIAR, Bid, Game, preset
from liarsdice.core.bidding.game import BID_BASE
from liarsdice.core.bidding.state import State
from liarsdice.families.bidding import BIDDING
from liarsdice.families.poker import POKER
from liarsdice.nets.rounds import packaged_round_policies
from liarsdice.odds import bid_odds
from liarsdice.solve import solve
from liarsdice.solve.subgame import BidSubgame
from liarsdice.solve.tree import make_game


def _positions(rules_name: str, games: int, seed: int, **options: object) -> list[State]:
    """Decision states of random-ish games (prob bots), for comparing bots on the same views."""
    game = Game(preset(rules_name, **options))
    rng = random.Random(seed)
    out = []
    for g in range(games):
        bots = [ProbBot(random.Random(f"{seed}:{g}:{p}")) for p in range(game.num_players)]
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s.resolve_chance(rng)
                continue
            out.append(s)
            p = s.current_player
            s = s.apply_action(bots[p].choose(game, s.view(p)))
    return out


def test_panel_bots_are_bidding_bots() -> None:
    panel = BIDDING.bots.panel
    assert panel == ("bluffer", "expert-v1")
    assert set(panel) <= set(BIDDING.bots) and not set(panel) & set(POKER.bots)
    assert isinstance(BIDDING.make_bot("bluffer", random.Random(0)), BlufferBot)
    v1 = BIDDING.make_bot("expert-v1", random.Random(0), think=0.01)
    assert isinstance(v1, ExpertV1Bot) and v1.think == 0.01


def test_bluffer_bids_past_its_dice_and_calls_less_than_prob() -> None:
    states = _positions("classic", 40, 3, players=2)
    game = Game(preset("classic", players=2))
    bluffs = {"prob": 0, "bluffer": 0}
    bids = {"prob": 0, "bluffer": 0}
    calls = {"prob": 0, "bluffer": 0}
    for i, s in enumerate(states):
        view = s.view(s.current_player)
        for name, bot in (
            ("prob", ProbBot(random.Random(i))),
            ("bluffer", BlufferBot(random.Random(i))),
        ):
            action = bot.choose(game, view)
            assert action in view.legal_actions
            bid = game.action_bid(action)
            if bid is None:
                calls[name] += action == LIAR
                continue
            bids[name] += 1
            p_true, _ = bid_odds(game, view, bid)
            bluffs[name] += p_true < 0.5
    assert len(states) > 300
    # A bluff is a bid its own dice make less than even money.
    assert bluffs["bluffer"] / bids["bluffer"] > 2 * bluffs["prob"] / bids["prob"] + 0.1
    assert calls["bluffer"] < 0.8 * calls["prob"]


def test_bluffer_never_bids_the_impossible() -> None:
    game = Game(preset("snyd-joker", dice=1))
    for i, s in enumerate(_positions("snyd-joker", 60, 5, dice=1)):
        view = s.view(s.current_player)
        action = BlufferBot(random.Random(i), rate=1.0, push=3).choose(game, view)
        assert action in view.legal_actions
        bid = game.action_bid(action)
        if bid is not None:
            assert bid_odds(game, view, bid)[0] >= 0.12


def test_expert_v1_is_the_honest_bidder_model_without_adaptation() -> None:
    v1 = ExpertV1Bot(random.Random(0))
    assert v1.model is None and not v1.adapt and v1.resolve == 0
    new = ExpertBot(random.Random(0))
    assert not new.adapt and new.resolve > 0 and new.exploit > 0


def test_bluff_rates_are_learnt_from_reveals() -> None:
    """Three seats: a bluffer that always bluffs, a prob bot and an observer; after some
    rounds the observer's model of the bluffer has a higher bluff rate than of the prob bot."""
    game = Game(preset("classic", players=3, dice=5))
    rng = random.Random(11)
    bots = [
        BlufferBot(random.Random(1), rate=1.0),
        ProbBot(random.Random(2), bluff=0.0),
        ProbBot(random.Random(3), bluff=0.0),
    ]
    rates: dict[int, BidModel] = {}
    for _ in range(6):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s.resolve_chance(rng)
                continue
            p = s.current_player
            if p == 2 and len(s.view(2).results) >= 3:
                rates = bluff_models(game, s.view(2), BidModel(eps=0.05), threshold=0.5)
                break
            s = s.apply_action(bots[p].choose(game, s.view(p)))
        if 0 in rates and 1 in rates:
            break
    assert 0 in rates and 1 in rates
    assert rates[0].eps > rates[1].eps


def _truth(name: str, dice: tuple[int, int], faces: int) -> tuple[np.ndarray, Game]:
    game = make_game(name, dice, faces)
    wild = game.rules.wild
    a, b = hand_set(dice[0], faces), hand_set(dice[1], faces)
    truth = np.array(
        [
            a.matches(bid.face, wild)[:, None] + b.matches(bid.face, wild)[None, :] >= bid.quantity
            for bid in game.space.bids
        ],
        dtype=float,
    )
    return truth, game


@pytest.mark.parametrize(("name", "faces"), [("openspiel", 3), ("snyd-normal", 4)])
def test_subgame_of_the_whole_round_is_near_the_exact_value(name: str, faces: int) -> None:
    truth, game = _truth(name, (1, 1), faces)
    exact = solve(game, target=1e-4).value
    a = hand_set(1, faces).prior
    sub = BidSubgame(truth, opened=False, range_a=a, range_b=a)
    sub.solve(1500)
    # Players who recall only the last bid lose little in these games.
    assert abs(sub.value() - exact) < 0.02


def test_a_fixed_honest_opponent_is_worth_more_to_the_first_player() -> None:
    truth, _ = _truth("snyd-joker", (2, 2), 4)
    r = hand_set(2, 4).prior
    free = BidSubgame(truth, opened=False, range_a=r, range_b=r)
    fixed = BidSubgame(truth, opened=False, range_a=r, range_b=r, honest_b=1.0)
    free.solve(400)
    fixed.solve(400)
    assert fixed.value() > free.value() + 0.05
    policy = fixed.root_policy(0)
    assert policy.shape == (truth.shape[0],) and abs(policy.sum() - 1) < 1e-9


def test_a_modelled_opponent_plays_its_model_where_it_is_given() -> None:
    truth, _ = _truth("snyd-joker", (1, 1), 4)
    k, _, hb = truth.shape
    r = hand_set(1, 4).prior
    rng = np.random.default_rng(0)
    # B's play at every node: a random strategy (hands x the call, then the raises)
    model = {j: rng.dirichlet(np.ones(k + 1 - j), size=hb) for j in range(1, k + 1)}
    sub = BidSubgame(truth, opened=False, range_a=r, range_b=r, model_b=model, model_share=1.0)
    sub.solve(300)
    a = sub._normalised(sub.total[0])
    # Whatever B's own strategy, B plays the model: the value does not move.
    values = [sub._iterate([a, sub._normalised(rng.random(sub.total[1].shape))]) for _ in range(3)]
    assert np.allclose(values[0], values[1]) and np.allclose(values[0], values[2])
    # ... and A, playing against it, does better than against a free B.
    free = BidSubgame(truth, opened=False, range_a=r, range_b=r)
    free.solve(300)
    assert sub.value() > free.value() + 0.05
    with pytest.raises(ValueError, match="honest_b \\+ model_share: at most 1"):
        BidSubgame(truth, opened=False, range_a=r, range_b=r, honest_b=0.6, model_b=model,
                   model_share=0.6)  # fmt: skip


def test_an_honest_bidder_with_a_fixed_belief_can_be_bluffed() -> None:
    truth, _ = _truth("snyd-joker", (2, 2), 4)
    hands = hand_set(2, 4)
    r = hands.prior
    fooled = np.zeros(len(r))
    fooled[hands.hands.index((4, 4))] = 1.0  # B is sure that A holds two 4s, whatever A bids
    values = {}
    for name, belief in (("reach", None), ("prior", r), ("fooled", fooled)):
        sub = BidSubgame(
            truth,
            opened=False,
            range_a=r,
            range_b=r,
            honest_b=1.0,
            honest_readings=() if belief is None else (belief,),
        )
        sub.solve(400)
        values[name] = sub.value()
    # A bidder who reads A's bids by A's reach is worth 0.44 to A; one sure of A's two 4s
    # lets A bid 4s it does not hold unchallenged, and is worth far more.
    assert values["fooled"] > values["reach"] + 0.2
    assert values["fooled"] > values["prior"] + 0.2


def test_an_honest_bidder_reads_a_bid_as_backed_by_the_bidders_dice() -> None:
    game = Game(preset("openspiel", dice=2))
    s = game.new_initial_state()
    for face in (2, 3, 4, 5):
        s = s.apply_action(face)
    hands = hand_set(2, 6)
    ids = [game.space.ids[Bid(2, 5)], game.space.ids[Bid(3, 5)]]
    likely = _bid_likelihoods(game, s.view(0), BidModel(), hands, 1, ids)
    fives = hands.hands.index((5, 5))
    one = hands.hands.index((2, 5))
    none = hands.hands.index((2, 3))
    # Two 5s among four dice: sure with two of them, likely with one, a long shot with none.
    assert likely[0, fives] > likely[0, one] > likely[0, none]
    assert likely[1, fives] > likely[1, one]
    assert likely.min() >= BidModel().eps


@pytest.mark.parametrize("reads", [*READINGS, "prior+prior+bids", "prior+model+bids"])
def test_every_reading_of_the_honest_bidder_plays_legal_moves(reads: str) -> None:
    game = Game(preset("openspiel", dice=2))
    s = game.new_initial_state()
    for face in (2, 3, 4, 5):
        s = s.apply_action(face)
    s = s.apply_action(game.bid_action(Bid(2, 4)))
    bot = ExpertBot(random.Random(0), cached=False, exploit_reads=reads, resolve_iterations=20)
    assert bot.choose(game, s.view(1)) in s.view(1).legal_actions


def test_an_unknown_reading_is_refused_when_the_bot_is_made() -> None:
    with pytest.raises(ValueError, match="one of reach, prior, model, bids"):
        ExpertBot(random.Random(0), exploit_reads="prior+psychic")


def test_the_honest_move_averages_the_readings_a_repeated_one_weighing_more() -> None:
    truth, _ = _truth("snyd-joker", (2, 2), 4)
    hands = hand_set(2, 4)
    r = hands.prior
    sure = np.zeros(len(r))
    sure[hands.hands.index((4, 4))] = 1.0
    sub = BidSubgame(
        truth, opened=False, range_a=r, range_b=r, honest_b=0.5, honest_readings=(r, r, sure)
    )
    for j in (1, 5, 12):
        alone = [sub._honest_from(j, x) for x in (r, sure)]
        assert not np.allclose(alone[0], alone[1])
        assert np.allclose(sub._honest(j, np.ones(len(r))), (2 * alone[0] + alone[1]) / 3)


def test_expert_resolves_a_round_out_of_the_solvers_reach() -> None:
    game = Game(preset("snyd-joker", dice=2))  # 2,2 with 6 faces: out of reach
    s = game.new_initial_state()
    for face in (2, 3, 4, 5):  # seat 0: 2 3, seat 1: 4 5
        s = s.apply_action(face)
    bot = ExpertBot(random.Random(0), resolve=0.05)
    assert bot._resolvable(game, s.view(0)) and bot.equilibrium(game) is None
    opening = bot.choose(game, s.view(0))
    assert opening in s.view(0).legal_actions
    # Four 6s when seat 1 holds 4 5: only seat 0's two dice left, so it cannot be true.
    s = s.apply_action(game.bid_action(Bid(4, 6)))
    assert ExpertBot(random.Random(1), resolve=0.05).choose(game, s.view(1)) == LIAR
    # The same seed, the same move (iteration counts, not the clock, fix the strategy).
    a = ExpertBot(random.Random(5), resolve=10.0, resolve_iterations=30)
    b = ExpertBot(random.Random(5), resolve=10.0, resolve_iterations=30)
    assert a.choose(game, s.view(1)) == b.choose(game, s.view(1))


def test_tracked_ranges_read_an_opening_less_trustingly_than_the_bid_model() -> None:
    game = Game(preset("snyd-joker", dice=3))
    s = game.new_initial_state()
    for face in (2, 3, 4, 6, 6, 5):  # seat 0: 2 3 4, seat 1: 5 6 6
        s = s.apply_action(face)
    s = s.apply_action(game.bid_action(Bid(3, 6)))  # seat 0 opens three 6s
    view = s.view(1)
    bot = ExpertBot(random.Random(0), resolve=10.0, resolve_iterations=60, track_round=False)
    ranges = tracked(bot, game, view, 0)
    assert ranges is not None
    mine, theirs = ranges
    hands = hand_set(3, 6)
    assert np.allclose(mine, hands.prior)  # seat 1 has not bid yet
    sixes = hands.matches(6, 1)  # 6s and jokers
    model = Belief(game, view, BidModel()).weights[0]
    # The solved opening is evidence of 6s, but less than an honest bidder's would be.
    assert hands.prior @ sixes + 0.2 < theirs @ sixes < model @ sixes - 0.2


def test_tracked_ranges_follow_the_solvers_strategy_through_the_round() -> None:
    game = Game(preset("snyd-joker", dice=2))
    s = game.new_initial_state()
    for face in (2, 3, 6, 5):
        s = s.apply_action(face)
    bot = ExpertBot(random.Random(3), resolve=10.0, resolve_iterations=40, track_round=False)
    opening = bot.choose(game, s.view(0))
    chain = bot._chain
    assert chain is not None and chain.answer  # an opening is a raise: the chain goes on
    s = s.apply_action(opening)
    answer = min(chain.answer)  # seat 1 answers with the lowest raise the solve kept
    s = s.apply_action(BID_BASE + answer)
    ranges = tracked(bot, game, s.view(0), 1)
    assert ranges is not None
    assert ranges[0] is chain.range_me
    expected = chain.range_opp * chain.answer[answer]
    assert np.allclose(ranges[1], expected / expected.sum())
    # Seat 0's range as seat 1 reads it moved with the strategy that made the opening.
    assert not np.allclose(chain.range_me, hand_set(2, 6).prior)
    # A bot that did not make the round's earlier decision has no chain: the bid model.
    assert tracked(ExpertBot(random.Random(3), track_round=False), game, s.view(0), 1) is None
    assert bot.choose(game, s.view(0)) in s.view(0).legal_actions


def test_tracked_ranges_weigh_each_bid_by_one_solve_of_the_round() -> None:
    game = Game(preset("snyd-joker", dice=2))
    s = game.new_initial_state()
    for face in (2, 3, 6, 5):
        s = s.apply_action(face)
    s = s.apply_action(game.bid_action(Bid(2, 6)))  # seat 0 opens
    s = s.apply_action(game.bid_action(Bid(3, 5)))  # seat 1 raises
    view = s.view(0)
    bot = ExpertBot(
        random.Random(3), track_seconds=60.0, track_iterations=50, track_blueprint=False
    )
    ranges = tracked(bot, game, view, 1)
    assert ranges is not None
    mine, theirs = ranges
    strategy = _round_strategy(game, view, bot.situation(game, view), 0, 1, 50, 60.0)
    k0, k1 = game.space.ids[Bid(2, 6)], game.space.ids[Bid(3, 5)]
    prior = hand_set(2, 6).prior
    # The opening is column k0 of the root (no 'liar' there); the raise, after 'liar', column
    # 1 + (k1 - (k0 + 1)) of the node after bid k0.
    opening = prior * (strategy[0][0][:, k0] + LIKELIHOOD_FLOOR)
    answer = prior * (strategy[1][k0 + 1][:, k1 - k0] + LIKELIHOOD_FLOOR)
    assert np.allclose(mine, opening / opening.sum())
    assert np.allclose(theirs, answer / answer.sum())
    # No memory of the round's own decisions: any bot, from either seat, reads it the same.
    other = ExpertBot(
        random.Random(9), track_seconds=60.0, track_iterations=50, track_blueprint=False
    )
    seen = tracked(other, game, s.view(1), 0)
    assert seen is not None
    theirs_seen, mine_seen = seen
    assert np.allclose(theirs_seen, theirs) and np.allclose(mine_seen, mine)
    # Two 6s on two dice is evidence of 6s (and jokers), and three 5s of 5s.
    assert mine @ hand_set(2, 6).matches(6, 1) > prior @ hand_set(2, 6).matches(6, 1) + 0.1
    assert theirs @ hand_set(2, 6).matches(5, 1) > prior @ hand_set(2, 6).matches(5, 1) + 0.5
    assert bot.choose(game, view) in view.legal_actions


def test_where_learned_strategies_fit_they_track_the_ranges_and_widen_the_re_solve() -> None:
    game = Game(preset("snyd-joker", dice=3))
    s = game.new_initial_state()
    for face in (2, 3, 6, 5, 5, 1):
        s = s.apply_action(face)
    s = s.apply_action(game.bid_action(Bid(2, 6)))  # seat 0 opens
    s = s.apply_action(game.bid_action(Bid(3, 5)))  # seat 1 raises
    view = s.view(0)
    bot = ExpertBot(random.Random(3))
    pol = packaged_round_policies("snyd-joker", 6)
    assert pol is not None
    t = pol.tables((3, 3))
    k0, k1 = t.index[Bid(2, 6)], t.index[Bid(3, 5)]
    prior = hand_set(3, 6).prior
    # Each bid weighs its bidder's hands by the learned probability of making it there.
    # (At the node of what its bidder recalls: nothing yet, then the opening bid.)
    node = pol.tree((3, 3)).nodes.index
    opening = prior * (pol.strategy((3, 3), 0)[node(()), :, k0 + 1] + LIKELIHOOD_FLOOR)
    answer = prior * (pol.strategy((3, 3), 1)[node((k0,)), :, k1 + 1] + LIKELIHOOD_FLOOR)
    ranges = tracked(bot, game, view, 1)
    assert ranges is not None
    assert np.allclose(ranges[0], opening / opening.sum())
    assert np.allclose(ranges[1], answer / answer.sum())
    # So three dice each fit the re-solve (no solve of the round at play time), which plays.
    assert bot._limit(game, view) == BLUEPRINT_RESOLVE_MAX_SIZE
    assert ExpertBot(random.Random(3), track_blueprint=False)._limit(game, view) == (
        RESOLVE_MAX_SIZE
    )
    assert bot._lookahead(game, view) is None  # the re-solve takes the round
    action = bot._resolve(game, view)
    assert action is not None and action in view.legal_actions
    # Rules without learned strategies keep the round's own solve and the old limit.
    classic = Game(preset("classic", players=2, dice=3, first_opener="given"))
    c = classic.new_initial_state()
    for face in (2, 3, 6, 5, 5, 1):
        c = c.apply_action(face)
    assert bot._limit(classic, c.view(0)) == RESOLVE_MAX_SIZE


def test_a_reading_next_player_lets_a_bid_on_the_bidders_story_through() -> None:
    game = Game(preset("classic", players=3, dice=3, first_opener="given"))
    s = game.new_initial_state()
    for face in (2, 3, 4, 2, 6, 6, 3, 4, 6):  # seat 0: 2 3 4 (no 5 and no wild 1)
        s = s.apply_action(face)
    s = s.apply_action(game.bid_action(Bid(2, 5)))  # seat 0 bluffs on 5s
    s = s.apply_action(game.bid_action(Bid(3, 6)))
    s = s.apply_action(game.bid_action(Bid(4, 3)))
    view = s.view(0)
    values = {}
    for read in (0.0, 1.0):
        bot = BayesBot(random.Random(0), read=read, noise=0.0)
        values[read] = {o.bid: o for o in bot.evaluate(game, view) if o.bid is not None}
    fives = Bid(4, 5)
    # The same chance of being true, but seat 1 has heard 5s from seat 0: less likely called.
    assert values[0.0][fives].p_true == values[1.0][fives].p_true
    assert values[1.0][fives].value > values[0.0][fives].value + 0.01
    reader = BidReader(game, view, 1).p_true(fives)
    own = [tail(4 - k, 6, 1 / 3) for k in range(4)]  # seat 1 sees its 3 dice only
    assert all(r > o for r, o in zip(reader, own, strict=True))


def test_panel_bench_smoke() -> None:
    """bench/panel.py through the arena, so the panel measurement cannot rot."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "panel.py"
    spec = importlib.util.spec_from_file_location("bench_panel", path)
    assert spec is not None and spec.loader is not None
    panel = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = panel
    spec.loader.exec_module(panel)
    line = panel.pairing("snyd-joker", "1", 2, "expert", "bluffer", 12, 3, 1, None)
    assert line["games"] == 12 and line["errors"] == 0
    assert 0 <= line["wins"] <= 12
    low, high = line["ci95"]
    assert low <= line["win_rate"] <= high
    whole = panel.pairing("classic", None, 3, "bluffer", "prob", 2, 3, 1, None)
    assert whole["games"] == 2 and whole["players"] == 3


def test_the_expert_memory_is_shared_and_forgets_on_clear() -> None:
    from liarsdice.bots.bidding import expert, resolving

    assert expert.MEMORY is resolving.MEMORY  # one memory for every expert of the process
    memory = resolving.ExpertMemory()
    memory.orders.put(("space", 3), True)
    memory.openings.put(("situation",), {})
    assert memory.openings.limit == 256 and memory.rounds.limit == 64
    memory.clear()
    assert len(memory.orders) == len(memory.openings) == 0
