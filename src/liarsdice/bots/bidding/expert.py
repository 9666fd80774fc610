"""An expert bot: the solved equilibrium, a re-solve of the round, or a reading of the table.

How it decides, on its own view only, in order:

1. **The equilibrium** in every two-player single-round game within the solver's reach (see
   below).
2. **A re-solve of the round** when exactly two players have dice, the rules fit and the hands
   are few (up to two dice each; see below).
3. **Otherwise, a reading of the table** (the default; ``search`` off): the Bayesian
   evaluation (:class:`~liarsdice.bots.bidding.bayes.BayesBot`) with the next player modelled as a
   player who reads the bids too (``read`` = 1: :class:`~liarsdice.bots.bidding.bayes.BidReader`).
   The bayes bot judges the risk of a raise by the next player's own dice alone; a player who
   reads bids believes a bid on a face the bidder has been bidding, so a well-placed bid on a
   face this bot does not hold goes unchallenged more often than its dice say, and a bid
   that contradicts the round's story is called more. Measured, this is what beats the
   field: 36.7% of 4-player ``classic`` games against three bayes bots (the bayes bot itself:
   24.3%), 73.7% of 2-player ``classic`` games (docs/BOTS.md).

With ``search`` on (as :class:`ExpertV1Bot`) step 3 is a search instead:

1. **Candidates.** The Bayesian evaluation scores every call and raise; the expert keeps the
   calls, the ``width`` best raises, and (under show-and-reroll) showing the dice that match
   its two best faces.
2. **Determinisation.** A world is drawn from the belief: every opponent's hidden hand from
   their posterior, a secret stash from fair dice. :func:`determinise` builds a full engine
   :class:`~liarsdice.core.bidding.state.State` consistent with the view and that world.
3. **Rollouts.** Each candidate is applied in the same world (common random numbers) and the
   round is played out to its challenge by a fast probability-driven policy
   (:class:`Playout`) in which every player uses only their own dice and the public ones. The
   engine settles the challenge with the real rules (losing the difference, exact counts,
   stash, calza, calling advantage...). When the bid comes back to the expert the rollout
   stops at the bayes value of passing a bid on.
4. **Score.** The round's outcome is scored with the bayes position value (a chance of
   winning from the dice counts: losing the last die is worth nothing; room: the score), and
   averaged with the bayes value as a prior worth ``prior`` rollouts. Worlds are drawn until
   the ``think`` budget (seconds) is spent, or exactly ``worlds`` of them when ``think`` is
   None (reproducible whatever the machine).

It buys dice like the prob bot; with ``search`` it answers the 'before' show step by rollouts
too.

In every two-player single-round game within the solver's reach (``openspiel``, ``snyd-*`` up
to one die against two with 6 faces, or two dice each with 5:
:func:`~liarsdice.solve.tree.in_reach` with :data:`EQUILIBRIUM_MAX_BYTES`) it does not search
at all: it plays the game's solved equilibrium (:class:`~liarsdice.bots.bidding.nash.NashBot`:
solved
on first use, a second for one die each, 10 to 30 seconds for one against two, then cached on
disk), which no opponent can exploit by more than the solver's target (0.001). A larger game
solved into the disk cache beforehand (``liarsdice solve --cache --max-gib 16``: two dice each
with 6 faces, half an hour) is played from its equilibrium too (``cached``).

Whenever exactly two players have dice under rules it models (a call is 'liar' and settles at
once, raises in one total order), and the solver does not reach the game, it **re-solves**
the rest of the round at every decision (:class:`~liarsdice.solve.subgame.BidSubgame`, for
``resolve`` seconds) while every pair of hands fits (:data:`RESOLVE_MAX_SIZE`: up to two
dice each; where learned strategies give the ranges, :data:`BLUEPRINT_RESOLVE_MAX_SIZE`: up
to three dice each), and reads the table otherwise. Both
players' ranges come from the bid model (its own as the opponent would read its bids), a call
pays the position value after the round, the
subgame is solved by CFR with players recalling the last bid, the opponent half free and half
an honest bidder (``exploit``: a restricted Nash response, which gains against honest bidders
while giving little away to stronger players), and it samples the move for its own hand from
the average strategy, so its own bluffs are part of a balanced strategy.

The ranges are tracked through the round (``track``): each bid weighs its bidder's hands by
the strategy one solve of the round gives them for it, a solve at play time
(``track_round``) or, where the rules have learned strategies, those (``track_blueprint``:
the same solve, done ahead of play, which is what lets the re-solve reach three dice each).

Where the whole round is too large for that re-solve (from three dice against four) and the
rules have **learned strategies** (:mod:`liarsdice.nets.rounds`: ``snyd-joker`` and
``openspiel`` with 6 faces, up to five dice each), it searches one decision deep on them
instead, up to four dice each (``lookahead``, ``lookahead_max_dice``;
:class:`~liarsdice.bots.bidding.lookahead.Lookahead`): every move valued exactly against the
other's range read through the whole history, the learned play after it (the other picking,
per hand, the worst for the expert of a menu of ways to play on: the learned strategy mixed
with an honest bidder by each share of ``lookahead_menu``), blended with the reading's value
(``lookahead_blend``), and regret matching against the learned mix (docs/BOTS.md). With five
dice it reads the table, which measured better there.

How that honest bidder reads the expert's hand (``exploit_reads``) decides whom the expert
exploits: two times in three it reads no bid (as the prob bot and the bluffer, who judge from
their own dice), one in three every bid as an honest one (as the bayes bot and expert-v1 do,
with the bid model). A reader of bids believes a bid on a face the expert lacks, so the solve
learns to make such bids and to call what follows; a bot that reads no bid is not fooled by
them, so the solve learns to bid what that bot will not call. The mix wins against both kinds
and stays level with the equilibrium (docs/BOTS.md).

The ranges are **tracked** through the round (``track``): each bid weighs the bidder's hands
by the strategy one solve of the round from its opening gives them for that bid (cached per
situation: :func:`_round_strategy`), as a player who knows the equilibrium reads bids: an
honest-bidder reading takes a bluff at face value, this one knows how often each bid is a
bluff in a balanced strategy. Each range is three quarters that and a quarter the bid model's
(``track_mix``), which keeps the gain against honest bidders. With ``track_round`` off, each
bid is read instead by the strategy the last re-solve of the round gave it (the chained
reading, the default before; docs/BOTS.md).

It can also learn each opponent's **bluff rate** from a game's reveals (``adapt``, off by
default: see docs/BOTS.md; :func:`bluff_models`). :class:`ExpertV1Bot` is the expert before
re-solving and reading (search, bayes evaluation), kept for measuring.

>>> import random
>>> from liarsdice.core.bidding import Bid, Game, preset
>>> g = Game(preset("classic", players=2, dice=2, first_opener="given"))
>>> s = g.new_initial_state()
>>> for face in (2, 3, 4, 5):
...     s = s.apply_action(face)
>>> s = s.apply_action(g.bid_action(Bid(4, 6)))
>>> bot = ExpertBot(random.Random(0), search=True, think=None, worlds=16)
>>> g.action_to_string(bot.choose(g, s.view(1)))      # four sixes among 2 5 4 ?? : no
'liar'
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from liarsdice.bots.base import Bot, sample_action
from liarsdice.bots.bidding.bayes import (
    BayesBot,
    Belief,
    BidModel,
    FloatArray,
    HandSet,
    IntArray,
    Option,
    Situation,
    call_values,
    hand_set,
    position_value,
    tail,
)
from liarsdice.core.bidding.basic import basic_round_lacks
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import (
    BID_BASE,
    BUY,
    EXACT,
    LIAR,
    NO_SHOW,
    SHOW_BASE,
    TERMINAL,
    Game,
)
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD, PALIFICO
from liarsdice.core.bidding.rules import ExactCall, Rules, Scoring, ShowReroll, Stash
from liarsdice.core.bidding.state import _BOUGHT, _MUST_RAISE, Phase, State, Table, _next_seats
from liarsdice.core.bidding.view import PlayerView
from liarsdice.nets.positions import packaged_family, packaged_positions
from liarsdice.solve.memo import Memo

if TYPE_CHECKING:
    from liarsdice.bots.bidding.nash import NashBot
    from liarsdice.nets.rounds import RoundPolicies
    from liarsdice.solve.subgame import BidSubgame

__all__ = [
    "BLUEPRINT_RESOLVE_MAX_SIZE",
    "EQUILIBRIUM_MAX_BYTES",
    "MEMORY",
    "RESOLVE_MAX_SIZE",
    "ExpertBot",
    "ExpertMemory",
    "ExpertV1Bot",
    "Playout",
    "bluff_models",
    "determinise",
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


# Two-player single-round games whose solver arrays fit in this many bytes are solved on first
# use (then cached) and played from the equilibrium instead of searched.
EQUILIBRIUM_MAX_BYTES = 3 * 2**30


def determinise(
    game: Game,
    view: PlayerView,
    hands: dict[int, tuple[int, ...]],
    stash: tuple[int, ...] = (),
) -> State:
    """A full state consistent with ``view`` in which the other seats' hidden dice are
    ``hands`` (seat -> sorted dice) and a secret stash is ``stash``.

    Built from the view's public facts through the state's internals; it has no event log
    (the round's bids live in ``view.bids``), so it is for search, not for records.

    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("classic", players=2, dice=2, first_opener="given"))
    >>> s = g.new_initial_state()
    >>> for face in (2, 3, 4, 5):
    ...     s = s.apply_action(face)
    >>> d = determinise(g, s.view(0), {1: (1, 1)})
    >>> d.hand(1), d.legal_actions() == s.legal_actions()
    ((1, 1), True)
    """
    rules = game.rules
    n = game.num_players
    me = view.player
    t = Table()
    t.dice = view.dice_counts
    t.hands = tuple(view.my_dice if p == me else hands.get(p, ()) for p in range(n))
    t.shown = view.shown
    if view.stash is not None:
        t.stash = view.stash
    elif rules.stash is not Stash.NONE:
        t.stash = stash
    else:
        t.stash = ()
    t.start = 0
    t.opener = view.opener
    t.round = view.round
    t.cap = view.dice_in_play
    t.nxt = _next_seats(view.dice_counts)
    t.modes = _round_modes(rules, view.palifico)
    t.chips = view.chips
    t.round_pot = view.round_pot
    t.game_pot = view.game_pot
    t.pile = view.pile
    t.scores = view.scores
    t.lost = view.lost
    t.out_order = ()
    t.palifico = view.palifico
    t.palifico_used = frozenset(p for p, d in enumerate(view.dice_counts) if d <= 1)
    t.penalties = (0,) * n
    t.results = view.results
    t.winner = None
    bid = -1 if view.current_bid is None else game.space.ids[view.current_bid]
    phase = Phase.SHOW if view.phase == "show" else Phase.BID
    flags = 0
    legal = view.legal_actions
    if phase is Phase.BID and bid >= 0 and LIAR not in legal:
        flags |= _MUST_RAISE
    if BUY not in legal:
        flags |= _BOUGHT
    return State._make(game, t, phase, me, bid, view.bidder, view.callers, flags, (), None, 0)


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
# How the expert values a position in an elimination game (ExpertBot.positions).
POSITIONS = ("auto", "learned", "share")
# The families whose shipped position values the expert plays better with than with the
# share, in every field measured (docs/BOTS.md, "Learned position values"): 'auto' uses the
# learned values there and the share elsewhere (classic: three points worse against bayes).
LEARNED_BY_DEFAULT = ("perudo",)


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


class Playout:
    """A fast probability-driven policy on full states: each player uses only their own hidden
    dice and the public ones (like the prob bot, with exact-call and a little noise)."""

    def __init__(self, game: Game, rng: random.Random, safe: float = 0.78) -> None:
        self.game = game
        self.rng = rng
        self.safe = safe
        rules = game.rules
        self.exact = rules.exact is not ExactCall.NONE
        self.open_stash = rules.stash is Stash.OPEN
        self.faces = rules.faces

    def action(self, s: State) -> int:
        """The policy's action at ``s`` (a player's decision node)."""
        if s.phase is Phase.SHOW:
            return NO_SHOW
        game = self.game
        space = game.space
        t = s.table
        p = s.player
        wild = None if t.palifico else game.rules.wild
        faces = self.faces
        seen = Counter(t.hands[p])
        n_public = 0
        for shown in t.shown:
            seen.update(shown)
            n_public += len(shown)
        if self.open_stash:
            seen.update(t.stash)
            n_public += len(t.stash)
        unseen = t.cap - len(t.hands[p]) - n_public
        pw = seen[wild] if wild is not None else 0

        def prob(q: int, f: int) -> float:
            if wild is None or f == wild:
                return tail(q - seen[f], unseen, 1 / faces)
            return tail(q - seen[f] - pw, unseen, 2 / faces)

        raises = space.raises(s.bid, t.cap, t.modes[s.bid >= 0])
        safe = self.safe + self.rng.uniform(-0.08, 0.04)
        best_p = -1.0
        best_action = -1
        best_sure = -1
        first: dict[int, int] = {}
        for i in raises:
            f = space.face[i]
            if f in first:
                continue
            first[f] = i
            q = space.quantity[i]
            pq = prob(q, f)
            if pq > best_p:
                best_p, best_action = pq, i
            if pq >= safe:
                while q + 1 <= t.cap and prob(q + 1, f) >= safe:
                    q += 1
                best_sure = max(best_sure, space.ids[Bid(q, f)])
            if len(first) == faces:
                break
        must_raise = s.flags & _MUST_RAISE
        if s.bid >= 0 and not must_raise:
            cur = space.bids[s.bid]
            p_cur = prob(cur.quantity, cur.face)
            liar = 1.0 - p_cur + self.rng.uniform(-0.04, 0.04)
            if self.exact:
                p_exact = p_cur - prob(cur.quantity + 1, cur.face)
                if p_exact > max(liar, best_p) and p_exact > 0.3:
                    return EXACT
            if best_action < 0 or liar > best_p:
                return LIAR
        if best_sure >= 0:
            return BID_BASE + best_sure
        if best_action >= 0:
            return BID_BASE + best_action
        legal = s.legal_actions()
        return legal[0]


def bluff_models(
    game: Game, view: PlayerView, base: BidModel, weight: float = 4.0, threshold: float = 0.2
) -> dict[int, BidModel]:
    """Each opponent's bid model with its own bluff rate, learnt from the game's reveals.

    A called bid whose bidder's own dice made it less than ``threshold`` likely *to them* was
    a bluff (an honest bidder who must raise often bids at worse than even money, so the line
    is drawn lower).
    Each opponent's rate is the share of their called bids that were bluffs, shrunk towards
    ``base.eps`` as if ``weight`` earlier bids had shown that rate; opponents with no called
    bid yet keep ``base``.

    >>> import random
    >>> from liarsdice.core.bidding import CHANCE, Bid, Game, preset
    >>> g = Game(preset("classic", players=2, dice=3, first_opener="given"))
    >>> s = g.replay((CHANCE, face) for face in (2, 3, 4, 5, 5, 6))  # seat 0: 2 3 4, seat 1: 5 5 6
    >>> s = s.apply_action(g.bid_action(Bid(4, 6)))      # seat 0 bids four 6s on no 6 or 1
    >>> s = s.apply_action(g.string_to_action("liar"))
    >>> rates = bluff_models(g, s.view(1), BidModel(eps=0.2))
    >>> round(rates[0].eps, 2)                    # (4 x 0.2 + 1 bluff) / (4 + 1)
    0.36
    """
    rules = game.rules
    me = view.player
    bids: dict[int, int] = {}
    bluffs: dict[int, int] = {}
    for r in view.results:
        seat = r.bidder
        if seat == me or seat >= len(r.hands):
            continue
        hand = r.hands[seat]
        wild = None if r.palifico else rules.wild
        face = r.bid.face
        p = 1 / rules.faces if wild is None or face == wild else 2 / rules.faces
        backing = sum(1 for d in hand if d == face or (wild is not None and d == wild))
        unseen = sum(len(h) for h in r.hands) - len(hand) + len(r.stash)
        bids[seat] = bids.get(seat, 0) + 1
        if tail(r.bid.quantity - backing, unseen, p) < threshold:
            bluffs[seat] = bluffs.get(seat, 0) + 1
    return {
        seat: replace(base, eps=(weight * base.eps + bluffs.get(seat, 0)) / (weight + n))
        for seat, n in bids.items()
    }


class ExpertBot(BayesBot):
    """Determinised rollouts over the Bayesian belief (see the module docstring)."""

    name = "expert"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base) on top of the bayes bot's.
    read: float = 1.0  # the next player judges a raise from every bid read (BidReader)
    call_temperature: float = 0.2
    pass_cost: float = 0.0
    search: bool = False  # beyond the solver and the re-solve: search (else the reading)
    think: float | None = 0.05  # seconds per move (search); None: exactly ``worlds`` worlds
    worlds: int = 48
    max_worlds: int = 2000  # the most worlds within a ``think`` budget
    width: int = 6  # the best raises searched
    prior: float = 2.0  # the bayes estimate counts as this many rollouts
    bluff: float = 0.0
    model: BidModel | None = None  # the bidders' model (None: the bayes bot's BidModel)
    adapt: bool = False  # each opponent's bluff rate from the reveals (bluff_models; off: see docs)
    solve: bool = True  # play the solved equilibrium where the solver reaches
    cached: bool = True  # and where a policy is in the disk cache (liarsdice solve --cache)
    resolve: float = 0.08  # seconds to re-solve the rest of a two-player round (0: search)
    resolve_iterations: int = 400  # the most CFR iterations of one re-solve
    exploit: float = 0.5  # the weight of an honest bidder in the re-solve's opponent
    exploit_reads: str = "prior+model+bids"  # how that honest bidder reads this bot's hand
    # where learned strategies fit the round: their share in the opponent's reply to each of
    # this bot's moves in the re-solve (the opponent as the learned player there, in part)
    resolve_model: float = 0.0
    # where learned strategies track the ranges, the re-solve takes all hands while pairs of
    # hands x bids fit this (elsewhere RESOLVE_MAX_SIZE: the round's own solve must be quick)
    resolve_max: int = BLUEPRINT_RESOLVE_MAX_SIZE
    resolve_hands: int = 0  # hands drawn from each range when all would be too many (0: search)
    track: bool = True  # re-solve from the ranges earlier re-solves imply (else the bid model's)
    track_mix: float = 0.25  # the bid model's share in each tracked range
    track_mix_wide: float = 0.5  # and where learned strategies track a round past RESOLVE_MAX_SIZE
    track_round: bool = True  # track by one solve of the round (else the chained re-solves)
    track_iterations: int = 1000  # CFR iterations of that solve (once per situation)
    track_seconds: float = 4.0  # and the most seconds it may take (a slow machine's cap)
    track_blueprint: bool = True  # where learned strategies fit the round: track by them instead
    lookahead: bool = True  # two-player rounds past the re-solve: search the learned strategies
    lookahead_mix: float = 0.4  # the bid model's share in the other's range there
    lookahead_prior: float = 0.2  # and the chance prior's (a reading of no bid)
    lookahead_greedy: bool = False  # play the best move (else regret matching on the blueprint)
    lookahead_max_dice: int = 4  # only while both players have at most this many dice
    lookahead_blend: float = 0.6  # the reading's share in each move's value there
    lookahead_exploit: float = 0.25  # an honest bidder's share in the other's play after a move
    lookahead_reads: bool = False  # that honest bidder reads this bot's bids (else its prior)
    # The other's ways of playing on after a raise, as honest shares joined by '+': it picks
    # the worst for this bot per hand (empty: lookahead_exploit's share only).
    lookahead_menu: str = "0+0.25+1"
    # A position's worth in whole games: 'share' (of dice ** alpha, the bayes bot's),
    # 'learned' (the self-play model where one fits the rules) or 'auto': the learned model
    # in the families it was measured to play better in (LEARNED_BY_DEFAULT), else the share
    positions: str = "auto"
    # The learned chances' power, renormalised over the seats (Situation.flatten): 1 plays
    # them as they are; 0.5 made classic's level with the share (docs/BOTS.md, session 21)
    flatten: float = 1.0
    _nash: NashBot | None = field(default=None, init=False)  # the equilibrium player, once made
    _chain: _Chain | None = field(default=None, init=False)  # the last re-solve, for the next
    _menu: tuple[float, ...] = field(default=(), init=False)  # lookahead_menu, parsed

    def __post_init__(self) -> None:
        if self.lookahead_menu:
            bad = ValueError(
                f"lookahead_menu {self.lookahead_menu!r}: honest shares from 0 to 1, joined by '+'"
            )
            try:
                self._menu = tuple(float(x) for x in self.lookahead_menu.split("+"))
            except ValueError:
                raise bad from None
            if not all(0.0 <= x <= 1.0 for x in self._menu):
                raise bad
        if self.positions not in POSITIONS:
            raise ValueError(f"positions {self.positions!r}: one of {', '.join(POSITIONS)}")
        if not 0.0 < self.flatten <= 4.0:
            raise ValueError(f"flatten {self.flatten!r}: a power above 0, at most 4")
        if not set(self.exploit_reads.split("+")) <= set(READINGS):
            raise ValueError(
                f"exploit_reads {self.exploit_reads!r}: each reading, joined by '+', is one of "
                + ", ".join(READINGS)
            )

    def __repr__(self) -> str:
        return f"ExpertBot(think={self.think})"

    def situation(self, game: Game, view: PlayerView) -> Situation:
        """The bayes bot's situation, with the learned position values where a shipped model
        fits the rules (``positions='learned'``, or ``'auto'`` in LEARNED_BY_DEFAULT)."""
        sit = super().situation(game, view)
        rules = game.rules
        if self.positions != "share" and rules.scoring is Scoring.ELIMINATION:
            if self.positions == "auto" and packaged_family(rules) not in LEARNED_BY_DEFAULT:
                return sit
            learned = packaged_positions(rules, game.num_players)
            if learned is not None:
                return replace(sit, positions=learned, flatten=self.flatten)
        return sit

    def equilibrium(self, game: Game) -> Bot | None:
        """The equilibrium player for a two-player single-round game within the solver's
        reach (solved on first use) or solved into the disk cache already, else None."""
        rules = game.rules
        if not self.solve or rules.scoring is not Scoring.SINGLE_ROUND or game.num_players != 2:
            return None
        key = (rules, game.start_dice)
        if key in MEMORY.unsolvable:
            return None
        from liarsdice.bots.bidding.nash import NashBot
        from liarsdice.solve.cache import LOAD_MAX_BYTES, is_cached
        from liarsdice.solve.tree import in_reach

        if self._nash is None:
            self._nash = NashBot(self.rng)  # made once, whether or not this game has one
        nash = self._nash
        if not in_reach(game, EQUILIBRIUM_MAX_BYTES):
            # Too large to solve on first use: played once solved into the disk cache
            # (``liarsdice solve --cache``; two dice each with 6 faces: 11 GiB, half an hour).
            if not in_reach(game, LOAD_MAX_BYTES):
                MEMORY.unsolvable.put(key, True)
                return None
            if not (self.cached and is_cached(game, nash.target)):
                return None
        return nash

    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        nash = self.equilibrium(game)
        if nash is not None:
            return nash.choose(game, view)
        if self.lookahead:
            action = self._lookahead(game, view)
            if action is not None:
                return action
        if self.resolve > 0 and self._resolvable(game, view):
            action = self._resolve(game, view)
            if action is not None:
                return action
        if not self.search:
            return super().choose(game, view)
        start = time.perf_counter()
        if BUY in legal and self._wants_buy(view):
            return BUY
        belief = self.belief(game, view)
        candidates = self._candidates(game, view, belief)
        if len(candidates) == 1:
            return candidates[0].action
        return self._search(game, view, belief, candidates, start)

    def _blueprint(
        self, game: Game, view: PlayerView
    ) -> tuple[RoundPolicies, tuple[int, int], int] | None:
        """The shipped learned strategies of this two-player round, its dice counts (the
        opener's first) and this player's actor there (0: it opened), where they fit the
        game and cover both players' dice; None elsewhere."""
        from liarsdice.nets.rounds import packaged_round_policies, round_seat

        rules = game.rules
        key = ("lookahead", rules.name, rules.faces)
        pol = MEMORY.policies.get_or(key, lambda: packaged_round_policies(rules.name, rules.faces))
        if pol is None or view.phase != "bid" or view.palifico or pol.unfit(game):
            return None
        dice, actor = round_seat(view)
        return (pol, dice, actor) if pol.covers(dice) else None

    def _limit(self, game: Game, view: PlayerView) -> int:
        """The most pairs of hands x bids the re-solve takes whole here: ``resolve_max``
        where the learned strategies track the ranges, else :data:`RESOLVE_MAX_SIZE`."""
        if self.track and self.track_blueprint and self._blueprint(game, view) is not None:
            return self.resolve_max
        return RESOLVE_MAX_SIZE

    def _lookahead(self, game: Game, view: PlayerView) -> int | None:
        """One decision's search on the learned strategies of a two-player round
        (:class:`~liarsdice.bots.bidding.lookahead.Lookahead`), where they fit the game and
        cover both players' dice (:meth:`_blueprint`), and the whole round is too large for
        the re-solve (all hands, all bids: ``resolve_max``); None elsewhere."""
        from liarsdice.bots.bidding.lookahead import Lookahead

        found = self._blueprint(game, view)
        if found is None:
            return None
        pol, dice, actor = found
        me = view.player
        if max(dice) > self.lookahead_max_dice:
            return None
        t = pol.tables(dice)
        if self.resolve > 0 and len(t.rolls[0]) * len(t.rolls[1]) * t.num_bids <= self._limit(
            game, view
        ):
            return None  # the re-solve takes the whole round
        look = Lookahead.of(
            pol, dice, exploit=self.lookahead_exploit, reads_bids=self.lookahead_reads
        )
        bids = [t.index[b] for _, b in view.bids]
        model: FloatArray | None = Belief(game, view, self.model or BidModel()).weights[1 - me]
        if model is not None and len(model) != len(t.rolls[1 - actor]):
            model = None  # a sampled belief: the blueprint's reading alone
        last = bids[-1] if bids else -1
        moves = ([LIAR] if bids else []) + [
            game.bid_action(t.moves[j]) for j in range(last + 1, t.num_bids)
        ]
        reading = None
        if self.lookahead_blend > 0:
            scored = {o.action: o.value for o in self.evaluate(game, view)}
            reading = (
                self.lookahead_blend,
                np.array([scored.get(m, np.nan) for m in moves], dtype=np.float64),
            )
        probs = look.policy(
            actor,
            hand=view.my_dice,
            bids=bids,
            mix_range=model,
            mix=self.lookahead_mix,
            prior=self.lookahead_prior,
            greedy=self.lookahead_greedy,
            other_values=reading,
            menu=self._menu,
        )
        return sample_action(self.rng, moves, probs, allowed=set(view.legal_actions))

    def _resolvable(self, game: Game, view: PlayerView) -> bool:
        """A bidding round between two players (the last two of a game, or a two-player
        game) under rules the re-solve models: a call is 'liar' and settles at once, no
        show-and-reroll, stash or economy, and the round's raises in one total order."""
        rules = game.rules
        key = ("resolve", rules)
        if key in MEMORY.unsolvable:
            return False
        if basic_round_lacks(rules) or rules.scoring is Scoring.ROOM:
            MEMORY.unsolvable.put(key, True)
            return False
        if view.phase != "bid" or sum(1 for d in view.dice_counts if d > 0) != 2:
            return False
        return _total_order(game, view.dice_in_play, view.palifico)

    def _resolve(self, game: Game, view: PlayerView) -> int | None:
        """Re-solve the rest of the round (:class:`~liarsdice.solve.subgame.BidSubgame`)
        from both players' ranges, and play its strategy for this hand. A call's payoff is
        the position value after the round (``call_values``).

        The ranges are tracked (``track``: each player's hands weighted by the strategy a
        solve gave them for the bids they made, :meth:`_tracked`), blended with the bid
        model's; the opponent's honest half reads this player's hand as ``exploit_reads``
        says (:meth:`_readings`)."""
        from liarsdice.solve.subgame import BidSubgame

        me = view.player
        opp = next(p for p, d in enumerate(view.dice_counts) if d > 0 and p != me)
        hands_a = hand_set(len(view.my_dice), game.rules.faces)
        hands_b = hand_set(view.dice_counts[opp], game.rules.faces)  # none shown here
        space = game.space
        cur = view.current_bid
        first = -1 if cur is None else space.ids[cur]
        raises = sorted(a - BID_BASE for a in view.legal_actions if a >= BID_BASE + first + 1)
        ids = ([first] if cur is not None else []) + raises
        limit = self._limit(game, view)
        too_many = len(hands_a.hands) * len(hands_b.hands) * len(ids) > limit
        if too_many and self.resolve_hands <= 0:
            return None  # too many hands to take them all: search instead (before any belief)
        tracked = self._tracked(game, view, opp) if self.track and not too_many else None
        model = self.model or BidModel()
        range_b = Belief(game, view, model).weights[opp]
        # How the opponent sees this player's hand: the same model applied to its bids.
        range_a = Belief(game, replace(view, player=opp), model).weights[me]
        # Sampled hands (too many) keep the reach reading: the readings are per whole range.
        readings = [] if too_many else self._readings(game, view, model, hands_a, range_a, opp, ids)
        if tracked is not None:
            # Where learned strategies track a round larger than RESOLVE_MAX_SIZE (the whole
            # round's size, not what is left of it), the wide share applies.
            bids_in_play = sum(1 for b in game.space.bids if b.quantity <= view.dice_in_play)
            wide = len(hands_a.hands) * len(hands_b.hands) * bids_in_play > RESOLVE_MAX_SIZE
            w = self.track_mix_wide if wide and limit > RESOLVE_MAX_SIZE else self.track_mix
            range_a = w * range_a + (1 - w) * tracked[0]
            range_b = w * range_b + (1 - w) * tracked[1]
        hand = hands_a.hands.index(tuple(sorted(view.my_dice)))
        rows_a = np.arange(len(hands_a.hands))
        rows_b = np.arange(len(hands_b.hands))
        if too_many:
            # Many dice: both ranges as samples of hands (this hand always among them).
            gen = np.random.default_rng(self.rng.getrandbits(64))
            rows_a, range_a = _sample_range(range_a, self.resolve_hands, gen, keep=hand)
            rows_b, range_b = _sample_range(range_b, self.resolve_hands, gen)
            hand = int(np.flatnonzero(rows_a == hand)[0])
        truth, mine_call, their_call = _round_arrays(
            game,
            view,
            self.situation(game, view),
            me,
            opp,
            ids,
            (hands_a, rows_a),
            (hands_b, rows_b),
        )
        # Bids almost surely false under both ranges are left out (the last kept one can only
        # be called), which keeps the subgame small.
        p_true = np.einsum("kab,a,b->k", truth, range_a, range_b)
        keep = len(ids)
        while keep > (2 if cur is not None else 1) and p_true[keep - 1] < 0.002:
            keep -= 1
        ids = ids[:keep]
        model_b = None
        if self.resolve_model > 0 and not too_many:
            model_b = self._model_replies(game, view, ids, hands_b)
        game_ = BidSubgame(
            truth[:keep],
            payoff=(mine_call[:keep], their_call[:keep]),
            opened=cur is not None,
            range_a=range_a,
            range_b=range_b,
            honest_b=self.exploit,
            honest_readings=[r[:keep] for r in readings],
            model_b=model_b,
            model_share=self.resolve_model,
        )
        game_.solve(self.resolve_iterations, seconds=self.resolve)
        policy = game_.root_policy(hand)
        policy = np.where(policy < 0.03, 0.0, policy)
        actions = ([LIAR] if cur is not None else []) + [
            BID_BASE + i for i in ids[1 if cur is not None else 0 :]
        ]
        if policy.sum() <= 0:
            action = actions[0]
        else:
            action = self.rng.choices(actions, weights=policy.tolist())[0]
        self._chain = None
        if self.track and not self.track_round and not too_many and action != LIAR:
            self._chain = _chain_after(game, view, game_, ids, action - BID_BASE, range_a, range_b)
        return action

    def _model_replies(
        self, game: Game, view: PlayerView, ids: list[int], hands_b: HandSet
    ) -> dict[int, FloatArray] | None:
        """The learned strategy's reply of the opponent to each move of this player from the
        re-solve's root (node j of :class:`~liarsdice.solve.subgame.BidSubgame` after a raise
        to ``ids[j - 1]``: the opponent's hands x its call and raises within ``ids``), where
        learned strategies fit the round (:meth:`_blueprint`); None elsewhere."""
        found = self._blueprint(game, view)
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

    def _readings(
        self,
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
        for reading in self.exploit_reads.split("+"):
            if reading == "prior":
                out.append(np.broadcast_to(hands.prior, (len(ids), len(hands.prior))))
            elif reading == "model":
                out.append(np.broadcast_to(range_a, (len(ids), len(range_a))))
            elif reading == "bids":
                out.append(range_a * _bid_likelihoods(game, view, model, hands, opp, ids))
        return out

    def _tracked(
        self, game: Game, view: PlayerView, opp: int
    ) -> tuple[FloatArray, FloatArray] | None:
        """Both ranges (this player's as the opponent reads it, then the opponent's): by one
        solve of the round (``track_round``), else from the strategies of this round's
        earlier re-solves, or None when that chain is broken."""
        if self.track_round:
            return self._round_tracked(game, view, opp)
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
            sit = self.situation(game, view)
            opening = _opening(game, view, sit, opp, self.resolve_iterations, 4 * self.resolve)
            likelihood = opening.get(k)
            return None if likelihood is None else (prior_a, _normal(prior_b * likelihood))
        chain = self._chain
        if chain is None or chain.key != _chain_key(view, bids[:-1]) or k not in chain.answer:
            return None
        return chain.range_me, _normal(chain.range_opp * chain.answer[k])

    def _round_tracked(
        self, game: Game, view: PlayerView, opp: int
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
        found = self._blueprint(game, view) if bids and self.track_blueprint else None
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
            sit = self.situation(game, view)
            strategy = _round_strategy(
                game, view, sit, opener, other, self.track_iterations, self.track_seconds
            )
            node = 0  # node j: the last bid is id j - 1; its actions 'liar', then bids j...
            for seat, bid in bids:
                k = game.space.ids[bid]
                column = (1 if node > 0 else 0) + k - node
                likelihood = strategy[0 if seat == opener else 1][node][:, column]
                ranges[seat] = ranges[seat] * (likelihood + LIKELIHOOD_FLOOR)
                node = k + 1
        return _normal(ranges[me]), _normal(ranges[opp])

    def belief(self, game: Game, view: PlayerView) -> Belief:
        """The belief over the opponents' hands, with per-opponent bluff rates if ``adapt``."""
        model = self.model or BidModel()
        models = bluff_models(game, view, model) if self.adapt and view.results else None
        return Belief(game, view, model, models)

    def evaluate(self, game: Game, view: PlayerView, belief: Belief | None = None) -> list[Option]:
        if belief is None:
            belief = self.belief(game, view)
        return super().evaluate(game, view, belief)

    # -------------------------------------------------------------- candidates
    def _candidates(self, game: Game, view: PlayerView, belief: Belief) -> list[Option]:
        legal = set(view.legal_actions)
        if view.phase == "show":
            out = [Option(NO_SHOW, 0.0)]
            bid = view.current_bid
            if bid is not None:
                show = self._show_for(game, view, bid, 0.0)
                if show is not None and show in legal:
                    out.append(Option(show, 0.0))
            return out
        options = self.evaluate(game, view, belief)
        calls = [o for o in options if o.bid is None]
        raises = sorted((o for o in options if o.bid is not None), key=lambda o: -o.value)
        out = calls + raises[: self.width]
        if game.rules.show_reroll is ShowReroll.AFTER and any(a >= SHOW_BASE for a in legal):
            for o in raises[:2]:
                assert o.bid is not None
                show = self._show_for(game, view, o.bid, 0.0)
                if show is not None and show in legal and all(c.action != show for c in out):
                    out.append(Option(show, o.value))
        return out

    # ------------------------------------------------------------------ search
    def _search(
        self,
        game: Game,
        view: PlayerView,
        belief: Belief,
        candidates: list[Option],
        start: float,
    ) -> int:
        me = view.player
        sit = self.situation(game, view)
        rng = self.rng
        now = position_value(sit, me, sit.dice, None, sit.scores)
        worse = list(sit.dice)
        worse[me] = max(0, worse[me] - 1)
        die_worth = max(0.0, now - position_value(sit, me, worse, None, sit.scores))
        back = now - self.pass_cost * die_worth
        policy = Playout(game, rng)
        totals = [0.0] * len(candidates)
        runs = 0
        secret = view.stash_size if view.stash is None and game.rules.stash is not Stash.NONE else 0
        faces = game.rules.faces
        deadline = None if self.think is None else start + self.think
        limit = self.worlds if self.think is None else self.max_worlds
        while runs < limit:
            hands = {j: belief.sample_hand(j, rng) for j in belief.opponents}
            stash = tuple(sorted(rng.randint(1, faces) for _ in range(secret)))
            root = determinise(game, view, hands, stash)
            for i, cand in enumerate(candidates):
                totals[i] += self._rollout(root, cand.action, policy, sit, me, back)
            runs += 1
            if deadline is not None and time.perf_counter() >= deadline and runs >= 4:
                break
        w = self.prior
        scores = [(totals[i] + w * c.value) / (runs + w) for i, c in enumerate(candidates)]
        best = max(range(len(candidates)), key=lambda i: scores[i])
        return candidates[best].action

    def _rollout(
        self, root: State, action: int, policy: Playout, sit: Situation, me: int, back: float
    ) -> float:
        """Play the round out after ``action``; a bid that comes back to the expert (its own
        next decision) ends the rollout at ``back``, the bayes value of passing a bid on."""
        rng = self.rng
        s = root.apply_action(action)
        rnd = root.table.round
        steps = 0
        while s.player != TERMINAL and s.table.round == rnd:
            if s.player < 0:
                s = s.apply_action(s.sample_chance(rng))
            elif s.player == me and s.phase is Phase.BID and not s.flags & _MUST_RAISE:
                return back
            else:
                s = s.apply_action(policy.action(s))
            steps += 1
            if steps > 400:
                break
        t = s.table
        return position_value(sit, me, t.dice, t.winner, t.scores)


class ExpertV1Bot(ExpertBot):
    """The first expert, kept for measuring the levels: an honest-bidder belief (the bayes
    bot's :class:`~liarsdice.bots.bidding.bayes.BidModel`), no adaptation, search rather than
    re-solving (the solved equilibrium where the solver solves on first use, as the expert;
    not a policy solved into the cache beyond that)."""

    name = "expert-v1"

    model: BidModel | None = None
    adapt: bool = False
    cached: bool = False  # frozen: beyond first-use reach it searches, cache or none
    resolve: float = 0.0
    search: bool = True
    read: float = 0.0
    call_temperature: float = 0.1
    pass_cost: float = 0.15
    positions: str = "share"

    def __repr__(self) -> str:
        return f"ExpertV1Bot(think={self.think})"
