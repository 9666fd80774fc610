"""The expert's re-solve of a two-player round (step 2 in :mod:`liarsdice.bots.bidding.expert`):
both players' ranges (tracked through the round, blended with the bid model's), the subgame
of the rest of the round solved from them, its strategy played; and what the expert works out
once per process for it (:class:`ExpertMemory`, :data:`MEMORY`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from liarsdice.bots.bidding.bayes import (
    Belief,
    BidModel,
    FloatArray,
    HandSet,
    IntArray,
    Situation,
    call_values,
    hand_set,
    tail,
)
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BID_BASE, LIAR, Game
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD, PALIFICO
from liarsdice.core.bidding.rules import Rules
from liarsdice.core.bidding.view import PlayerView
from liarsdice.solve.memo import Memo

if TYPE_CHECKING:
    from liarsdice.nets.rounds import RoundPolicies
    from liarsdice.solve.subgame import BidSubgame

__all__ = [
    "BLUEPRINT_RESOLVE_MAX_SIZE",
    "LIKELIHOOD_FLOOR",
    "MEMORY",
    "READINGS",
    "RESOLVE_MAX_SIZE",
    "ExpertMemory",
    "ResolvingBot",
    "model_replies",
    "readings",
    "resolve_round",
    "round_tracked",
    "tracked",
]


# A re-solve takes every hand while hand pairs times bids stay within this (two dice each:
# 21 x 21 hands x 24 bids; two against three, 21 x 56 x 30, and more read the table better).
RESOLVE_MAX_SIZE = 12_000
# ... and where the learned strategies give the ranges (no solve of the round at play time):
# up to three dice each with six faces (56 x 56 hands x 36 bids).
BLUEPRINT_RESOLVE_MAX_SIZE = 120_000


@dataclass
class ExpertMemory:
    """What the expert bots of a process work out once and share: each entry depends only on
    its key (the game, the situation), never on a bot's state. Each memo is bounded where its
    keys grow with the games met; :meth:`clear` forgets it all (a long-running server may, and
    tests do to start from a fresh process's memory)."""

    # (space, dice in play, ladder modes) -> whether the round's raises are one total order
    orders: Memo[tuple[object, ...], bool] = field(default_factory=lambda: Memo(limit=4096))
    # games out of the solver's reach ((rules, dice)) and rules the re-solve does not model
    unsolvable: Memo[tuple[object, ...], bool] = field(default_factory=lambda: Memo(limit=4096))
    # the shipped learned strategies by rules and faces (a few packaged files)
    policies: Memo[tuple[str, str, int], RoundPolicies | None] = field(default_factory=Memo)
    # the opponent's solved opening per situation: bid id -> likelihood per opponent hand
    openings: Memo[tuple[object, ...], dict[int, FloatArray]] = field(
        default_factory=lambda: Memo(limit=256)
    )
    # one solve of a round from its opening per situation: both players' strategies per node
    rounds: Memo[tuple[object, ...], list[list[FloatArray]]] = field(
        default_factory=lambda: Memo(limit=64)
    )

    def clear(self) -> None:
        """Forget everything (the next decisions work it out again)."""
        for memo in (self.orders, self.unsolvable, self.policies, self.openings, self.rounds):
            memo.clear()


#: The process's expert memory: shared by every expert bot, for the life of the process.
MEMORY = ExpertMemory()


def _round_modes(rules: Rules, palifico: bool) -> tuple[int, int]:
    """The ladder modes of a round: for its opening bid, then for every raise."""
    if palifico:
        return (OPEN_ANY, PALIFICO)
    return ((OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD), OPEN_ANY)


def _total_order(game: Game, cap: int, palifico: bool) -> bool:
    """Whether every raise over any bid of a round is exactly the bids after it (the order the
    re-solve assumes), for this many dice in play."""
    space = game.space
    modes = _round_modes(game.rules, palifico)
    key = (space, cap, modes)
    hit = MEMORY.orders.get(key)
    if hit is None:
        top = sum(1 for b in space.bids if b.quantity <= cap)
        hit = all(set(space.raises(b, cap, modes[1])) == set(range(b + 1, top)) for b in range(top))
        MEMORY.orders.put(key, hit)
    return hit


def _sample_range(
    weights: FloatArray, n: int, gen: np.random.Generator, keep: int | None = None
) -> tuple[IntArray, FloatArray]:
    """``n`` hands drawn from ``weights``: the distinct ones and their shares (``keep`` is
    always among them, with its own weight)."""
    p = weights / weights.sum()
    drawn, counts = np.unique(gen.choice(len(p), size=n, p=p), return_counts=True)
    shares = counts / n
    if keep is not None and keep not in drawn:
        drawn = np.append(drawn, keep)
        shares = np.append(shares, max(float(p[keep]), 1e-6))
    order = np.argsort(drawn)
    return drawn[order], shares[order] / shares.sum()


# ----------------------------------------------------------------- re-solving helpers
# How much an action the solver gave (almost) no weight still counts as evidence: a floor
# under each likelihood, so that a move the strategy never makes does not rule a hand out.
LIKELIHOOD_FLOOR = 0.01


def _normal(weights: FloatArray) -> FloatArray:
    total = float(weights.sum())
    out: FloatArray = weights / total if total > 0 else np.full(len(weights), 1 / len(weights))
    return out


def _chain_key(view: PlayerView, bids: tuple[tuple[int, Bid], ...]) -> tuple[object, ...]:
    return (view.round, view.dice_counts, tuple(sorted(view.my_dice)), bids)


@dataclass(frozen=True)
class _Chain:
    """What a re-solve leaves for the next decision of the round: the bids up to and
    including this player's raise, its range as the opponent now reads it, the opponent's
    range, and the likelihood (per opponent hand) of each answer the solver gave them."""

    key: tuple[object, ...]
    range_me: FloatArray
    range_opp: FloatArray
    answer: dict[int, FloatArray]


class ResolvingBot(Protocol):
    """What the re-solve reads and writes of its bot: the expert's tuning parameters it
    follows, its random source, the last re-solve kept for the next (``_chain``), and the
    expert's situation, learned strategies and size limit
    (:class:`~liarsdice.bots.bidding.expert.ExpertBot` is one)."""

    rng: random.Random
    model: BidModel | None
    resolve: float
    resolve_iterations: int
    resolve_model: float
    resolve_hands: int
    exploit: float
    exploit_reads: str
    track: bool
    track_mix: float
    track_mix_wide: float
    track_round: bool
    track_iterations: int
    track_seconds: float
    track_blueprint: bool
    _chain: _Chain | None

    def situation(self, game: Game, view: PlayerView) -> Situation:
        """The bot's situation (position values) for ``view``."""

    def _blueprint(
        self, game: Game, view: PlayerView
    ) -> tuple[RoundPolicies, tuple[int, int], int] | None:
        """The shipped learned strategies of this two-player round, its dice counts and this
        player's actor there, where they fit; None elsewhere."""

    def _limit(self, game: Game, view: PlayerView) -> int:
        """The most pairs of hands x bids the re-solve takes whole here."""


def _chain_after(
    game: Game,
    view: PlayerView,
    solved: BidSubgame,
    ids: list[int],
    bid: int,
    range_a: FloatArray,
    range_b: FloatArray,
) -> _Chain:
    """The chain after this player raised to bid ``bid`` in the solved subgame ``solved``
    (whose bids in raise order are ``ids``; ``ids[0]`` is the standing bid when opened)."""
    # The root's columns are ('liar' when opened, then) the raises: bid ids[t] is column t
    # either way; the opponent's node after it is t + 1, with 'liar' then ids[t + 1:].
    t = ids.index(bid)
    range_me = _normal(range_a * (solved.average(0, solved.root)[:, t] + LIKELIHOOD_FLOOR))
    node = solved.average(1, t + 1)
    answer = {ids[u]: node[:, u - t] + LIKELIHOOD_FLOOR for u in range(t + 1, len(ids))}
    key = _chain_key(view, (*view.bids, (view.player, game.space.bids[bid])))
    return _Chain(key, range_me, range_b, answer)


def _round_arrays(
    game: Game,
    view: PlayerView,
    sit: Situation,
    actor: int,
    other: int,
    ids: list[int],
    hands_actor: tuple[HandSet, IntArray],
    hands_other: tuple[HandSet, IntArray],
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """For bids ``ids`` with ``actor`` to move against ``other`` (each a hand set and the rows
    of it taken): whether each bid is true for each pair of hands, and the actor's payoff
    when it calls and when the other calls (the viewer's position value, negated when the
    actor is the opponent: constant-sum). Each is (bids, actor's hands, other's hands)."""
    me = view.player
    sign = 1.0 if actor == me else -1.0
    wild = None if view.palifico else game.rules.wild
    space = game.space
    (set_a, rows_a), (set_b, rows_b) = hands_actor, hands_other
    shape = (len(ids), len(rows_a), len(rows_b))
    truth = np.empty(shape)
    actor_call = np.empty(shape)
    other_call = np.empty(shape)
    for k, i in enumerate(ids):
        bid = space.bids[i]
        count = (
            set_a.matches(bid.face, wild)[rows_a][:, None]
            + set_b.matches(bid.face, wild)[rows_b][None, :]
        )
        truth[k] = count >= bid.quantity
        actor_call[k] = sign * call_values(sit, me, LIAR, actor, other, bid.quantity)[count]
        other_call[k] = sign * call_values(sit, me, LIAR, other, actor, bid.quantity)[count]
    return truth, actor_call, other_call


def _bid_likelihoods(
    game: Game, view: PlayerView, model: BidModel, hands: HandSet, opp: int, ids: list[int]
) -> FloatArray:
    """How likely an honest bidder holding each of ``hands`` is to make each bid of ``ids``
    (bids x hands), as the bid model has it: by how likely the bid is true to that bidder,
    who sees its own dice and not the ``opp`` player's."""
    wild = None if view.palifico else game.rules.wild
    faces = game.rules.faces
    n = view.dice_counts[opp]
    out = np.empty((len(ids), len(hands.hands)))
    for k, i in enumerate(ids):
        bid = game.space.bids[i]
        p = 1 / faces if wild is None or bid.face == wild else 2 / faces
        have = hands.matches(bid.face, wild)
        out[k] = [model.bid_likelihood(tail(bid.quantity - int(m), n, p)) for m in have]
    return out


# How the re-solve's honest bidder may read the expert's hand (ExpertBot.exploit_reads).
READINGS = ("reach", "prior", "model", "bids")


def _opening(
    game: Game, view: PlayerView, sit: Situation, opp: int, iterations: int, seconds: float
) -> dict[int, FloatArray]:
    """How likely each opening bid of ``opp`` is for each of its hands, from a solve of the
    round from its opening (both ranges the prior; cached per situation)."""
    from liarsdice.solve.subgame import BidSubgame

    rules = game.rules
    key = (sit, opp, view.player, view.palifico, iterations)
    hit = MEMORY.openings.get(key)
    if hit is not None:
        return hit
    space = game.space
    ids = sorted(space.raises(-1, view.dice_in_play, _round_modes(rules, view.palifico)[0]))
    set_b = hand_set(view.dice_counts[opp], rules.faces)
    set_a = hand_set(len(view.my_dice), rules.faces)
    rows_b, rows_a = np.arange(len(set_b.hands)), np.arange(len(set_a.hands))
    truth, opp_call, my_call = _round_arrays(
        game, view, sit, opp, view.player, ids, (set_b, rows_b), (set_a, rows_a)
    )
    solved = BidSubgame(
        truth, payoff=(opp_call, my_call), opened=False, range_a=set_b.prior, range_b=set_a.prior
    )
    solved.solve(iterations, seconds=seconds)
    root = solved.average(0, solved.root)
    out = {i: root[:, t] + LIKELIHOOD_FLOOR for t, i in enumerate(ids)}
    MEMORY.openings.put(key, out)
    return out


def _round_strategy(
    game: Game,
    view: PlayerView,
    sit: Situation,
    opener: int,
    other: int,
    iterations: int,
    seconds: float,
) -> list[list[FloatArray]]:
    """The round solved from its opening (:class:`~liarsdice.solve.subgame.BidSubgame`, both
    ranges the prior): ``out[p][j]`` is the average strategy (hands x actions) of the opener
    (``p`` = 0) or the other player at node ``j`` (last bid id ``j - 1``; every bid of the
    round in id order, so the opener may open on any of them: a rule against opening on
    wilds is not modelled). Cached per situation."""
    from liarsdice.solve.subgame import BidSubgame

    key = (sit, opener, other, view.palifico, iterations, seconds)
    hit = MEMORY.rounds.get(key)
    if hit is not None:
        return hit
    faces = game.rules.faces
    ids = list(range(sum(1 for b in game.space.bids if b.quantity <= view.dice_in_play)))
    set_a = hand_set(view.dice_counts[opener], faces)
    set_b = hand_set(view.dice_counts[other], faces)
    rows_a, rows_b = np.arange(len(set_a.hands)), np.arange(len(set_b.hands))
    # Payoffs as the opener sees them (constant-sum: the same strategies from either seat).
    truth, a_call, b_call = _round_arrays(
        game,
        replace(view, player=opener),
        sit,
        opener,
        other,
        ids,
        (set_a, rows_a),
        (set_b, rows_b),
    )
    solved = BidSubgame(
        truth, payoff=(a_call, b_call), opened=False, range_a=set_a.prior, range_b=set_b.prior
    )
    solved.solve(iterations, seconds=seconds)
    out = [[solved.average(p, j) for j in range(solved.K + 1)] for p in (0, 1)]
    MEMORY.rounds.put(key, out)
    return out


@dataclass
class _Spot:
    """The round a re-solve takes: the opponent, both players' hand sets (this player's
    first), the bid standing (None before the opening bid), the bids of the subgame (the
    standing one first, then the raises), its size limit, and whether the hands are too many
    to take whole."""

    opp: int
    hands_a: HandSet
    hands_b: HandSet
    cur: Bid | None
    ids: list[int]
    limit: int
    too_many: bool


def resolve_round(bot: ResolvingBot, game: Game, view: PlayerView) -> int | None:
    """Re-solve the rest of the round (:class:`~liarsdice.solve.subgame.BidSubgame`) from both
    players' ranges, and play its strategy for this hand (:meth:`ExpertBot._resolve`). A
    call's payoff is the position value after the round (``call_values``).

    The ranges are tracked (``track``: each player's hands weighted by the strategy a solve
    gave them for the bids they made, :func:`tracked`), blended with the bid model's; the
    opponent's honest half reads this player's hand as ``exploit_reads`` says
    (:func:`readings`)."""
    spot = _spot(bot, game, view)
    if spot.too_many and bot.resolve_hands <= 0:
        return None  # too many hands to take them all: search instead (before any belief)
    range_a, range_b, reads = _ranges(bot, game, view, spot)
    hand = spot.hands_a.hands.index(tuple(sorted(view.my_dice)))
    rows_a = np.arange(len(spot.hands_a.hands))
    rows_b = np.arange(len(spot.hands_b.hands))
    if spot.too_many:
        # Many dice: both ranges as samples of hands (this hand always among them).
        gen = np.random.default_rng(bot.rng.getrandbits(64))
        rows_a, range_a = _sample_range(range_a, bot.resolve_hands, gen, keep=hand)
        rows_b, range_b = _sample_range(range_b, bot.resolve_hands, gen)
        hand = int(np.flatnonzero(rows_a == hand)[0])
    solved, ids = _solve(bot, game, view, spot, (rows_a, range_a), (rows_b, range_b), reads)
    policy = solved.root_policy(hand)
    policy = np.where(policy < 0.03, 0.0, policy)
    opened = spot.cur is not None
    actions = ([LIAR] if opened else []) + [BID_BASE + i for i in ids[1 if opened else 0 :]]
    if policy.sum() <= 0:
        action = actions[0]
    else:
        action = bot.rng.choices(actions, weights=policy.tolist())[0]
    bot._chain = None
    if bot.track and not bot.track_round and not spot.too_many and action != LIAR:
        bot._chain = _chain_after(game, view, solved, ids, action - BID_BASE, range_a, range_b)
    return action


def _spot(bot: ResolvingBot, game: Game, view: PlayerView) -> _Spot:
    """The round to re-solve from ``view``: see :class:`_Spot`."""
    me = view.player
    opp = next(p for p, d in enumerate(view.dice_counts) if d > 0 and p != me)
    hands_a = hand_set(len(view.my_dice), game.rules.faces)
    hands_b = hand_set(view.dice_counts[opp], game.rules.faces)  # none shown here
    cur = view.current_bid
    first = -1 if cur is None else game.space.ids[cur]
    raises = sorted(a - BID_BASE for a in view.legal_actions if a >= BID_BASE + first + 1)
    ids = ([first] if cur is not None else []) + raises
    limit = bot._limit(game, view)
    too_many = len(hands_a.hands) * len(hands_b.hands) * len(ids) > limit
    return _Spot(opp, hands_a, hands_b, cur, ids, limit, too_many)


def _ranges(
    bot: ResolvingBot, game: Game, view: PlayerView, spot: _Spot
) -> tuple[FloatArray, FloatArray, list[FloatArray]]:
    """This player's range as the opponent reads it, the opponent's range (the bid model's,
    blended with the tracked ones), and the honest bidder's readings of this player's hand."""
    me, opp, hands_a, hands_b = view.player, spot.opp, spot.hands_a, spot.hands_b
    track = tracked(bot, game, view, opp) if bot.track and not spot.too_many else None
    model = bot.model or BidModel()
    range_b = Belief(game, view, model).weights[opp]
    # How the opponent sees this player's hand: the same model applied to its bids.
    range_a = Belief(game, replace(view, player=opp), model).weights[me]
    # Sampled hands (too many) keep the reach reading: the readings are per whole range.
    reads = (
        [] if spot.too_many else readings(bot, game, view, model, hands_a, range_a, opp, spot.ids)
    )
    if track is not None:
        # Where learned strategies track a round larger than RESOLVE_MAX_SIZE (the whole
        # round's size, not what is left of it), the wide share applies.
        bids_in_play = sum(1 for b in game.space.bids if b.quantity <= view.dice_in_play)
        wide = len(hands_a.hands) * len(hands_b.hands) * bids_in_play > RESOLVE_MAX_SIZE
        w = bot.track_mix_wide if wide and spot.limit > RESOLVE_MAX_SIZE else bot.track_mix
        range_a = w * range_a + (1 - w) * track[0]
        range_b = w * range_b + (1 - w) * track[1]
    return range_a, range_b, reads


def _solve(
    bot: ResolvingBot,
    game: Game,
    view: PlayerView,
    spot: _Spot,
    mine: tuple[IntArray, FloatArray],
    theirs: tuple[IntArray, FloatArray],
    reads: list[FloatArray],
) -> tuple[BidSubgame, list[int]]:
    """The subgame of the rest of the round between the rows of both hand sets taken and
    their ranges, solved; and its bids (those almost surely false under both ranges left
    out, the last kept one can only be called: a smaller subgame)."""
    from liarsdice.solve.subgame import BidSubgame

    (rows_a, range_a), (rows_b, range_b) = mine, theirs
    cur, ids = spot.cur, spot.ids
    truth, mine_call, their_call = _round_arrays(
        game,
        view,
        bot.situation(game, view),
        view.player,
        spot.opp,
        ids,
        (spot.hands_a, rows_a),
        (spot.hands_b, rows_b),
    )
    p_true = np.einsum("kab,a,b->k", truth, range_a, range_b)
    keep = len(ids)
    while keep > (2 if cur is not None else 1) and p_true[keep - 1] < 0.002:
        keep -= 1
    ids = ids[:keep]
    model_b = None
    if bot.resolve_model > 0 and not spot.too_many:
        model_b = model_replies(bot, game, view, ids, spot.hands_b)
    solved = BidSubgame(
        truth[:keep],
        payoff=(mine_call[:keep], their_call[:keep]),
        opened=cur is not None,
        range_a=range_a,
        range_b=range_b,
        honest_b=bot.exploit,
        honest_readings=[r[:keep] for r in reads],
        model_b=model_b,
        model_share=bot.resolve_model,
    )
    solved.solve(bot.resolve_iterations, seconds=bot.resolve)
    return solved, ids


def model_replies(
    bot: ResolvingBot, game: Game, view: PlayerView, ids: list[int], hands_b: HandSet
) -> dict[int, FloatArray] | None:
    """The learned strategy's reply of the opponent to each move of this player from the
    re-solve's root (node j of :class:`~liarsdice.solve.subgame.BidSubgame` after a raise
    to ``ids[j - 1]``: the opponent's hands x its call and raises within ``ids``), where
    learned strategies fit the round (:meth:`_blueprint`); None elsewhere."""
    found = bot._blueprint(game, view)
    if found is None:
        return None
    pol, dice, actor = found
    t = pol.tables(dice)
    strategy = pol.strategy(dice, 1 - actor)
    tree = pol.tree(dice)
    space = game.space
    history = [t.index[bid] for _, bid in view.bids]
    column = [t.index[space.bids[i]] + 1 for i in ids]  # a raise to ids[m]; a call on it
    rows = [t.roll_index(1 - actor, h) for h in hands_b.hands]
    out: dict[int, FloatArray] = {}
    for m in range(1 if view.bids else 0, len(ids)):
        node = tree.node([*history, column[m] - 1])
        probs = strategy[node][np.ix_(rows, column[m:])]
        total = probs.sum(axis=1, keepdims=True)
        out[m + 1] = np.where(total > 0, probs / np.where(total > 0, total, 1.0),
                              1.0 / probs.shape[1])  # fmt: skip
    return out


def readings(
    bot: ResolvingBot,
    game: Game,
    view: PlayerView,
    model: BidModel,
    hands: HandSet,
    range_a: FloatArray,
    opp: int,
    ids: list[int],
) -> list[FloatArray]:
    """How the re-solve's honest bidder reads this player's hand after each bid of
    ``ids`` (``exploit_reads``, readings joined by '+', a repeated one weighing more):
    none (by the solver's reach), its prior (it reads no bid), the bid model's range at
    the root, or that and each bid as an honest one."""
    out: list[FloatArray] = []
    for reading in bot.exploit_reads.split("+"):
        if reading == "prior":
            out.append(np.broadcast_to(hands.prior, (len(ids), len(hands.prior))))
        elif reading == "model":
            out.append(np.broadcast_to(range_a, (len(ids), len(range_a))))
        elif reading == "bids":
            out.append(range_a * _bid_likelihoods(game, view, model, hands, opp, ids))
    return out


def tracked(
    bot: ResolvingBot, game: Game, view: PlayerView, opp: int
) -> tuple[FloatArray, FloatArray] | None:
    """Both ranges (this player's as the opponent reads it, then the opponent's): by one
    solve of the round (``track_round``), else from the strategies of this round's
    earlier re-solves, or None when that chain is broken."""
    if bot.track_round:
        return round_tracked(bot, game, view, opp)
    faces = game.rules.faces
    prior_a = hand_set(len(view.my_dice), faces).prior
    prior_b = hand_set(view.dice_counts[opp], faces).prior
    bids = view.bids
    if not bids:
        return prior_a, prior_b
    seat, bid = bids[-1]
    if seat != opp:
        return None
    k = game.space.ids[bid]
    if len(bids) == 1:  # the opponent opened: read it with the solved opening
        sit = bot.situation(game, view)
        opening = _opening(game, view, sit, opp, bot.resolve_iterations, 4 * bot.resolve)
        likelihood = opening.get(k)
        return None if likelihood is None else (prior_a, _normal(prior_b * likelihood))
    chain = bot._chain
    if chain is None or chain.key != _chain_key(view, bids[:-1]) or k not in chain.answer:
        return None
    return chain.range_me, _normal(chain.range_opp * chain.answer[k])


def round_tracked(
    bot: ResolvingBot, game: Game, view: PlayerView, opp: int
) -> tuple[FloatArray, FloatArray]:
    """Both ranges (this player's as the opponent reads it, then the opponent's): each
    player's prior hands weighed, bid by bid, by the strategy one solve of the round from
    its opening gives them for the bids they made (:func:`_round_strategy`)."""
    me = view.player
    faces = game.rules.faces
    ranges = {
        me: hand_set(len(view.my_dice), faces).prior,
        opp: hand_set(view.dice_counts[opp], faces).prior,
    }
    bids = view.bids
    found = bot._blueprint(game, view) if bids and bot.track_blueprint else None
    if found is not None:
        # The learned strategies are this same solve of the round, done ahead of play.
        pol, dice, actor = found
        t = pol.tables(dice)
        seats = (me, opp) if actor == 0 else (opp, me)
        history = [t.index[bid] for _, bid in bids]
        for i, k in enumerate(history):
            likelihood = pol.likelihood(dice, i % 2, history=history[:i], bid=k)
            ranges[seats[i % 2]] = ranges[seats[i % 2]] * (likelihood + LIKELIHOOD_FLOOR)
    elif bids:
        opener = bids[0][0]
        other = opp if opener == me else me
        sit = bot.situation(game, view)
        strategy = _round_strategy(
            game, view, sit, opener, other, bot.track_iterations, bot.track_seconds
        )
        node = 0  # node j: the last bid is id j - 1; its actions 'liar', then bids j...
        for seat, bid in bids:
            k = game.space.ids[bid]
            column = (1 if node > 0 else 0) + k - node
            likelihood = strategy[0 if seat == opener else 1][node][:, column]
            ranges[seat] = ranges[seat] * (likelihood + LIKELIHOOD_FLOOR)
            node = k + 1
    return _normal(ranges[me]), _normal(ranges[opp])
