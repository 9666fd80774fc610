"""An expert bot: determinised Monte Carlo rollouts on top of the Bayesian belief.

How it decides, on its own view only:

1. **Candidates.** The Bayesian evaluation (:class:`~liarsdice.bots.bayes.BayesBot`) scores
   every call and raise; the expert keeps the calls, the ``width`` best raises, and (under
   show-and-reroll) showing the dice that match its two best faces.
2. **Determinisation.** A world is drawn from the belief: every opponent's hidden hand from
   their posterior, a secret stash from fair dice. :func:`determinise` builds a full engine
   :class:`~liarsdice.core.state.State` consistent with the view and that world.
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

It buys dice like the prob bot and answers the 'before' show step by rollouts too.

In every two-player single-round game within the solver's reach (``openspiel``, ``snyd-*`` up
to one die against two with 6 faces, or two dice each with 5:
:func:`~liarsdice.solve.tree.in_reach` with :data:`EQUILIBRIUM_MAX_BYTES`) it does not search
at all: it plays the game's solved equilibrium (:class:`~liarsdice.bots.nash.NashBot`: solved
on first use, a second for one die each, 10 to 30 seconds for one against two, then cached on
disk), which no opponent can exploit by more than the solver's target (0.001).

Whenever exactly two players have dice under rules it models (a call is 'liar' and settles at
once, raises in one total order), and the solver does not reach the game, it **re-solves**
the rest of the round at every decision (:class:`~liarsdice.solve.subgame.BidSubgame`, for
``resolve`` seconds) while every pair of hands fits (:data:`RESOLVE_MAX_SIZE`: up to three
dice each), and searches otherwise: both players' ranges come from the bid model (its own as
the opponent would read its bids), a call pays the position value after the round, the
subgame is solved by CFR with players recalling the last bid, the opponent half free and half
an honest bidder (``exploit``: a restricted Nash response, which gains against honest bidders
while giving little away to stronger players), and it samples the move for its own hand from
the average strategy, so its own bluffs are part of a balanced strategy.

It can also learn each opponent's **bluff rate** from a game's reveals (``adapt``, off by
default: see docs/BOTS.md; :func:`bluff_models`). :class:`ExpertV1Bot` is the expert before
these changes (search only), kept for measuring.

>>> import random
>>> from liarsdice.core import Bid, Game, preset
>>> g = Game(preset("classic", players=2, dice=2, first_opener="given"))
>>> s = g.new_initial_state()
>>> for face in (2, 3, 4, 5):
...     s = s.apply_action(face)
>>> s = s.apply_action(g.bid_action(Bid(4, 6)))
>>> bot = ExpertBot(random.Random(0), think=None, worlds=16)
>>> g.action_to_string(bot.choose(g, s.view(1)))      # four sixes among 2 5 4 ?? : no
'liar'
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import field, replace

import numpy as np

from liarsdice.bots.base import Bot
from liarsdice.bots.bayes import (
    BayesBot,
    Belief,
    BidModel,
    FloatArray,
    IntArray,
    Option,
    Situation,
    call_values,
    position_value,
    tail,
)
from liarsdice.core.bid import Bid
from liarsdice.core.game import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE, TERMINAL, Game
from liarsdice.core.ladder import OPEN_ANY, OPEN_NO_WILD, PALIFICO
from liarsdice.core.rules import (
    Economy,
    ExactCall,
    Ordering,
    Resolution,
    Scoring,
    ShowReroll,
    Stash,
)
from liarsdice.core.state import _BOUGHT, _MUST_RAISE, Phase, State, Table, _next_seats
from liarsdice.core.view import PlayerView

__all__ = [
    "EQUILIBRIUM_MAX_BYTES",
    "RESOLVE_MAX_SIZE",
    "ExpertBot",
    "ExpertV1Bot",
    "Playout",
    "bluff_models",
    "determinise",
]

# A re-solve takes every hand while hand pairs times bids stay within this (two dice each:
# 21 x 21 hands x 24 bids, three dice each: 56 x 56 x 36); beyond it, samples of hands.
RESOLVE_MAX_SIZE = 400_000


_ORDERS: dict[tuple[object, ...], bool] = {}  # (space, dice in play, palifico) -> total order


def _total_order(game: Game, cap: int, palifico: bool) -> bool:
    """Whether every raise over any bid of a round is exactly the bids after it (the order the
    re-solve assumes), for this many dice in play."""
    space = game.space
    if palifico:
        modes = (OPEN_ANY, PALIFICO)
    else:
        modes = ((OPEN_ANY if game.rules.open_on_wild else OPEN_NO_WILD), OPEN_ANY)
    key = (space, cap, modes)
    hit = _ORDERS.get(key)
    if hit is None:
        top = sum(1 for b in space.bids if b.quantity <= cap)
        hit = all(set(space.raises(b, cap, modes[1])) == set(range(b + 1, top)) for b in range(top))
        _ORDERS[key] = hit
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
_UNSOLVABLE: set[tuple[object, ...]] = set()  # games out of the solver's reach (rules, dice)


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

    >>> from liarsdice.core import Game, preset
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
    if view.palifico:
        t.modes = (OPEN_ANY, PALIFICO)
    else:
        t.modes = ((OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD), OPEN_ANY)
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
    >>> from liarsdice.core import Bid, Game, preset
    >>> g = Game(preset("classic", players=2, dice=3, first_opener="given"))
    >>> s = g.new_initial_state()
    >>> for face in (2, 3, 4, 5, 5, 6):          # seat 0: 2 3 4, seat 1: 5 5 6
    ...     s = s.apply_action(face)
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
    think: float | None = 0.05  # seconds per move; None: exactly ``worlds`` worlds
    worlds: int = 48
    max_worlds: int = 2000  # the most worlds within a ``think`` budget
    width: int = 6  # the best raises searched
    prior: float = 2.0  # the bayes estimate counts as this many rollouts
    bluff: float = 0.0
    model: BidModel | None = None  # the bidders' model (None: the bayes bot's BidModel)
    adapt: bool = False  # each opponent's bluff rate from the reveals (bluff_models; off: see docs)
    solve: bool = True  # play the solved equilibrium where the solver reaches
    resolve: float = 0.08  # seconds to re-solve the rest of a two-player round (0: search)
    resolve_iterations: int = 400  # the most CFR iterations of one re-solve
    exploit: float = 0.5  # the weight of an honest bidder in the re-solve's opponent
    resolve_hands: int = 0  # hands drawn from each range when all would be too many (0: search)
    _nash: Bot | None = field(default=None, init=False)  # the equilibrium player, once made

    def __repr__(self) -> str:
        return f"ExpertBot(think={self.think})"

    def equilibrium(self, game: Game) -> Bot | None:
        """The equilibrium player for a two-player single-round game within the solver's
        reach, else None."""
        rules = game.rules
        if not self.solve or rules.scoring is not Scoring.SINGLE_ROUND or game.num_players != 2:
            return None
        key = (rules, game.start_dice)
        if key in _UNSOLVABLE:
            return None
        from liarsdice.bots.nash import NashBot
        from liarsdice.solve.tree import in_reach

        if not in_reach(game, EQUILIBRIUM_MAX_BYTES):
            _UNSOLVABLE.add(key)
            return None
        if self._nash is None:
            self._nash = NashBot(self.rng)
        return self._nash

    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        nash = self.equilibrium(game)
        if nash is not None:
            return nash.choose(game, view)
        if self.resolve > 0 and self._resolvable(game, view):
            action = self._resolve(game, view)
            if action is not None:
                return action
        start = time.perf_counter()
        if BUY in legal and self._wants_buy(view):
            return BUY
        belief = self.belief(game, view)
        candidates = self._candidates(game, view, belief)
        if len(candidates) == 1:
            return candidates[0].action
        return self._search(game, view, belief, candidates, start)

    def _resolvable(self, game: Game, view: PlayerView) -> bool:
        """A bidding round between two players (the last two of a game, or a two-player
        game) under rules the re-solve models: a call is 'liar' and settles at once, no
        show-and-reroll, stash or economy, and the round's raises in one total order."""
        rules = game.rules
        key = ("resolve", rules)
        if key in _UNSOLVABLE:
            return False
        if (
            rules.exact is not ExactCall.NONE
            or rules.show_reroll is not ShowReroll.OFF
            or rules.stash is not Stash.NONE
            or rules.economy is not Economy.NONE
            or rules.resolution is not Resolution.FIRST_CALL
            or rules.ordering is Ordering.MONOTONE
            or rules.scoring is Scoring.ROOM
        ):
            _UNSOLVABLE.add(key)
            return False
        if view.phase != "bid" or sum(1 for d in view.dice_counts if d > 0) != 2:
            return False
        return _total_order(game, view.dice_in_play, view.palifico)

    def _resolve(self, game: Game, view: PlayerView) -> int | None:
        """Re-solve the rest of the round (:class:`~liarsdice.solve.subgame.BidSubgame`)
        from both players' ranges under the bid model, and play its strategy for this hand.
        A call's payoff is the position value after the round (``call_values``)."""
        from liarsdice.bots.bayes import hand_set
        from liarsdice.solve.subgame import BidSubgame

        me = view.player
        opp = next(p for p, d in enumerate(view.dice_counts) if d > 0 and p != me)
        faces = game.rules.faces
        wild = None if view.palifico else game.rules.wild
        hands_a = hand_set(len(view.my_dice), faces)
        hands_b = hand_set(view.dice_counts[opp], faces)  # no shown dice under these rules
        space = game.space
        cur = view.current_bid
        first = -1 if cur is None else space.ids[cur]
        raises = sorted(a - BID_BASE for a in view.legal_actions if a >= BID_BASE + first + 1)
        ids = ([first] if cur is not None else []) + raises
        too_many = len(hands_a.hands) * len(hands_b.hands) * len(ids) > RESOLVE_MAX_SIZE
        if too_many and self.resolve_hands <= 0:
            return None  # too many hands to take them all: search instead (before any belief)
        model = self.model or BidModel()
        range_b = Belief(game, view, model).weights[opp]
        # How the opponent sees this player's hand: the same model applied to its bids.
        range_a = Belief(game, replace(view, player=opp), model).weights[me]
        hand = hands_a.hands.index(tuple(sorted(view.my_dice)))
        rows_a = np.arange(len(hands_a.hands))
        rows_b = np.arange(len(hands_b.hands))
        if too_many:
            # Many dice: both ranges as samples of hands (this hand always among them).
            gen = np.random.default_rng(self.rng.getrandbits(64))
            rows_a, range_a = _sample_range(range_a, self.resolve_hands, gen, keep=hand)
            rows_b, range_b = _sample_range(range_b, self.resolve_hands, gen)
            hand = int(np.flatnonzero(rows_a == hand)[0])
        shape = (len(ids), len(rows_a), len(rows_b))
        truth = np.empty(shape)
        mine_call = np.empty(shape)  # the value (for this player) of its call on bid k
        their_call = np.empty(shape)  # of the opponent's call
        sit = self.situation(game, view)
        for k, i in enumerate(ids):
            bid = space.bids[i]
            a = hands_a.matches(bid.face, wild)[rows_a][:, None]
            b = hands_b.matches(bid.face, wild)[rows_b][None, :]
            count = a + b
            truth[k] = count >= bid.quantity
            mine_call[k] = call_values(sit, me, LIAR, me, opp, bid.quantity)[count]
            their_call[k] = call_values(sit, me, LIAR, opp, me, bid.quantity)[count]
        # Bids almost surely false under both ranges are left out (the last kept one can only
        # be called), which keeps the subgame small.
        p_true = np.einsum("kab,a,b->k", truth, range_a, range_b)
        keep = len(ids)
        while keep > (2 if cur is not None else 1) and p_true[keep - 1] < 0.002:
            keep -= 1
        ids = ids[:keep]
        game_ = BidSubgame(
            truth[:keep],
            payoff=(mine_call[:keep], their_call[:keep]),
            opened=cur is not None,
            range_a=range_a,
            range_b=range_b,
            honest_b=self.exploit,
        )
        game_.solve(self.resolve_iterations, seconds=self.resolve)
        policy = game_.root_policy(hand)
        policy = np.where(policy < 0.03, 0.0, policy)
        actions = ([LIAR] if cur is not None else []) + [
            BID_BASE + i for i in ids[1 if cur is not None else 0 :]
        ]
        if policy.sum() <= 0:
            return actions[0]
        return self.rng.choices(actions, weights=policy.tolist())[0]

    def belief(self, game: Game, view: PlayerView) -> Belief:
        """The belief over the opponents' hands, with per-opponent bluff rates if ``adapt``."""
        model = self.model or BidModel()
        models = bluff_models(game, view, model) if self.adapt and view.results else None
        return Belief(game, view, model, models)

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
    bot's :class:`~liarsdice.bots.bayes.BidModel`), no adaptation, search rather than
    re-solving (the solved equilibrium where the solver reaches, as the expert)."""

    name = "expert-v1"

    model: BidModel | None = None
    adapt: bool = False
    resolve: float = 0.0

    def __repr__(self) -> str:
        return f"ExpertV1Bot(think={self.think})"
