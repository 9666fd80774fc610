"""A Bayesian bot: a belief over every opponent's hidden dice, updated from their bids.

**Belief.** For each opponent the bot keeps a probability distribution over that opponent's
whole hidden hand (a sorted tuple of faces). The prior is the multinomial distribution of fair
dice; every hand is enumerated while there are at most ``2500`` of them (five six-sided dice:
252 hands) and otherwise the belief is a fixed sample of hands. Each bid the opponent made this
round multiplies every hand's weight by the likelihood of that bid under a noisy model of a
probability-driven bidder (:class:`BidModel`): a bidder holding ``k`` dice that count for the
bid believes it with probability ``P_k`` (binomial over the dice *they* cannot see), and makes
it with probability ``eps + (1 - eps) * sigmoid((P_k - centre) / temperature)``; and since such
a bidder makes the highest bid it can back, *not* bidding one more of the face has likelihood
``1 - restraint * sigmoid((P'_k - centre) / temperature)`` (``P'_k``: the chance of that higher
bid). Raising rather than calling the previous bid is evidence too (the bidder believed that
bid). The model's defaults (a sharp threshold near 0.75) were tuned in 4-player classic
games against the prob bot: without the bid evidence the bot wins 23% of them, with the old soft
model (centre 0.55, no restraint) 41%, with this one about 44%. Hands are kept
whole, so evidence about one face moves the others through the wild face. Dice re-rolled after
a show (show-and-reroll) drop the evidence of the bids made before the re-roll.

**Decisions.** Every option is scored by the expected *value of the position* after the round
(:func:`position_value`): the chance of winning the game estimated from the dice counts
(``dice ** alpha`` shares, losing the last die is worth nothing), the room score, or the
single-round result. The real loss rules are applied (:func:`settle`): losing the difference,
exact counts, spot-on and calza calls, the calling-advantage pile, the stash.

* **liar / exact** — the distribution of the true count is the convolution of the viewer's
  known dice, every opponent's posterior and a secret stash; the outcome of the call is
  averaged over it.
* **raise** — for each candidate bid (on every face: the least legal quantity and a few
  above) the next player either calls it, with a probability that falls as the bid looks
  more plausible *to them* (their posterior hand decides), or raises and the bid passes on at
  a small cost (``pass_cost`` dice: the bid may come back). Both branches are averaged
  jointly over the next player's posterior, so a call is likelier exactly when they hold
  few of the face.
* **bluff** — now and then (``bluff``) it picks a raise a little worse than the best one.
* **show-and-reroll**, **buy** — as the prob bot (:mod:`liarsdice.bots.bidding.prob`), with the
  Bayesian probabilities.

>>> import random
>>> from liarsdice.core.bidding import CHANCE, Bid, Game, preset
>>> g = Game(preset("classic", players=2, dice=3, first_opener="given"))
>>> s = g.replay((CHANCE, face) for face in (2, 2, 5, 3, 4, 6))  # seat 0: 2 2 5, seat 1: 3 4 6
>>> s = s.apply_action(g.bid_action(Bid(2, 2)))
>>> belief = Belief(g, s.view(1))
>>> round(float(belief.match_dist(0, 2) @ [0, 1, 2, 3]), 2)   # prior 1, raised by the 2x2 bid
1.52
>>> bot = BayesBot(random.Random(0), bluff=0.0)
>>> g.action_to_string(bot.choose(g, s.view(1)))     # no 2 and no wild 1 in 3 4 6
'liar'
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np
from numpy.typing import NDArray

from liarsdice.bots.bidding.prob import ProbBot
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, Game
from liarsdice.core.bidding.rules import Rules, Scoring, ShowReroll
from liarsdice.core.bidding.state import game_winner_after, settle_challenge
from liarsdice.core.bidding.view import PlayerView
from liarsdice.nets.positions import PositionValues
from liarsdice.odds import sigmoid
from liarsdice.solve.memo import Memo

__all__ = [
    "CALL_VALUES",
    "BayesBot",
    "Belief",
    "BidModel",
    "BidReader",
    "HandSet",
    "Option",
    "Situation",
    "hand_set",
    "position_value",
    "settle",
    "tail",
]

Hand = tuple[int, ...]
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

ENUMERATE_LIMIT = 2500  # enumerate every hand up to this many, else sample
SAMPLED_HANDS = 800


# ----------------------------------------------------------------------------- odds
@lru_cache(maxsize=65536)
def tail(need: int, n: int, p: float) -> float:
    """P(at least ``need`` successes among ``n`` trials of probability ``p``) as a float.

    >>> tail(0, 3, 0.5), tail(4, 3, 0.5), tail(2, 3, 0.5)
    (1.0, 0.0, 0.5)
    """
    if need <= 0:
        return 1.0
    if need > n:
        return 0.0
    total = 0.0
    for i in range(need, n + 1):
        total += math.comb(n, i) * p**i * (1 - p) ** (n - i)
    return min(total, 1.0)


@cache
def _binomial(n: int, p: float) -> FloatArray:
    return np.array([math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)])


# ------------------------------------------------------------------------- hand sets
@dataclass(frozen=True)
class HandSet:
    """Every hand of ``n`` dice (or a fixed sample of them) with prior weights.

    ``counts[f, i]`` is how many dice of hand ``i`` show face ``f`` (row 0 unused).
    """

    n: int
    faces: int
    hands: tuple[Hand, ...]
    prior: FloatArray
    counts: IntArray

    def matches(self, face: int, wild: int | None) -> IntArray:
        """Per hand: the dice that count for a bid on ``face`` (wilds included)."""
        row: IntArray = self.counts[face]
        if wild is None or wild == face:
            return row
        both: IntArray = row + self.counts[wild]
        return both


@cache
def hand_set(n: int, faces: int) -> HandSet:
    """The hands of ``n`` dice with ``faces`` faces: enumerated with multinomial weights while
    there are at most :data:`ENUMERATE_LIMIT`, otherwise a fixed sample (equal weights).

    >>> hs = hand_set(2, 6)
    >>> len(hs.hands), round(float(hs.prior.sum()), 12), hs.hands[1]
    (21, 1.0, (1, 2))
    """
    if math.comb(n + faces - 1, faces - 1) <= ENUMERATE_LIMIT:
        hands = list(combinations_with_replacement(range(1, faces + 1), n))
        fact = math.factorial(n)
        prior = np.array(
            [fact / math.prod(math.factorial(c) for c in Counter(h).values()) for h in hands],
            dtype=np.float64,
        )
        prior /= faces**n
    else:
        rng = random.Random(f"hands:{n}:{faces}")
        hands = [
            tuple(sorted(rng.randint(1, faces) for _ in range(n))) for _ in range(SAMPLED_HANDS)
        ]
        prior = np.full(len(hands), 1.0 / len(hands))
    counts = np.zeros((faces + 1, len(hands)), dtype=np.int64)
    for i, h in enumerate(hands):
        for f in h:
            counts[f, i] += 1
    return HandSet(n, faces, tuple(hands), prior, counts)


# ------------------------------------------------------------------------ bid model
@dataclass(frozen=True)
class BidModel:
    """How a bidder's hand shapes their bids (a noisy probability-driven bidder).

    A bid the bidder believes with probability ``P`` is made with likelihood
    ``eps + (1 - eps) * sigmoid((P - centre) / temperature)``, and not bidding one more of
    the face, believed with ``P'``, with ``1 - restraint * sigmoid((P' - centre) /
    temperature)`` (``restraint`` 0 turns that evidence off); raising over a bid believed
    with probability ``P`` rather than calling it has likelihood
    ``eps + (1 - eps) * sigmoid((P - call_centre) / temperature)``.
    """

    centre: float = 0.75
    temperature: float = 0.05
    eps: float = 0.03
    call_centre: float = 0.25
    restraint: float = 0.9

    def bid_likelihood(self, p: float) -> float:
        return self.eps + (1 - self.eps) * sigmoid((p - self.centre) / self.temperature)

    def restraint_likelihood(self, p: float) -> float:
        """Not bidding one more of the face, believed with probability ``p``."""
        return 1.0 - self.restraint * sigmoid((p - self.centre) / self.temperature)

    def raise_likelihood(self, p: float) -> float:
        return self.eps + (1 - self.eps) * sigmoid((p - self.call_centre) / self.temperature)


# ---------------------------------------------------------------------------- belief
class Belief:
    """Posterior over each opponent's hidden hand, from the viewer's view (see module doc)."""

    def __init__(
        self,
        game: Game,
        view: PlayerView,
        model: BidModel | None = None,
        models: Mapping[int, BidModel] | None = None,
    ) -> None:
        self.game = game
        self.view = view
        rules = game.rules
        self.model = model or BidModel()
        self.models = models or {}  # per-seat models (an opponent's own bluff rate)
        self.me = view.player
        self.faces = rules.faces
        self.wild = None if view.palifico else rules.wild
        public: list[int] = [d for shown in view.shown for d in shown]
        if view.stash is not None:
            public.extend(view.stash)
        self.public = Counter(public)
        self.mine = Counter(view.my_dice)
        self.secret_stash = view.stash_size if view.stash is None else 0
        self.hidden = tuple(
            max(0, c - len(s)) for c, s in zip(view.dice_counts, view.shown, strict=True)
        )
        self.total_hidden = sum(self.hidden)
        self.opponents = tuple(
            j for j in range(len(view.dice_counts)) if j != self.me and self.hidden[j] > 0
        )
        self.sets: dict[int, HandSet] = {}
        self.weights: dict[int, FloatArray] = {}
        for j in self.opponents:
            hs = hand_set(self.hidden[j], self.faces)
            self.sets[j] = hs
            self.weights[j] = hs.prior.copy()
        self._update_from_bids()
        self._dists: dict[tuple[int, int], FloatArray] = {}

    # ----------------------------------------------------------------- basics
    def p_match(self, face: int) -> float:
        """Chance one unseen die counts for a bid on ``face``."""
        if self.wild is None or face == self.wild:
            return 1 / self.faces
        return 2 / self.faces

    def counting(self, counter: Counter[int], face: int) -> int:
        """Dice in ``counter`` that count for ``face``."""
        if self.wild is None or face == self.wild:
            return counter[face]
        return counter[face] + counter[self.wild]

    def unseen_by(self, seat: int) -> int:
        """Dice ``seat`` cannot see: every other hidden die and a secret stash."""
        return self.total_hidden - self.hidden[seat] + self.secret_stash

    # ----------------------------------------------------------------- update
    def _update_from_bids(self) -> None:
        view, rules = self.view, self.game.rules
        bids = view.bids
        last_index: dict[int, int] = {}
        for i, (seat, _) in enumerate(bids):
            last_index[seat] = i
        for i, (seat, bid) in enumerate(bids):
            if seat not in self.weights:
                continue
            # A hand re-rolled after a show: only a bid made after the re-roll tells anything.
            if view.shown[seat] and (
                rules.show_reroll is ShowReroll.BEFORE or last_index[seat] != i
            ):
                continue
            model = self.models.get(seat, self.model)
            self._observe(seat, bid, model.bid_likelihood)
            if model.restraint > 0:
                higher = Bid(bid.quantity + 1, bid.face)
                self._observe(seat, higher, model.restraint_likelihood)
            if i > 0 and bids[i - 1][0] != seat:
                self._observe(seat, bids[i - 1][1], model.raise_likelihood)

    def _table(self, seat: int, bid: Bid, likelihood: Callable[[float], float]) -> FloatArray:
        """The likelihood of ``seat``'s evidence about ``bid`` per number of its matching dice
        (it believes the bid from those and the dice it cannot see)."""
        n_unseen = self.unseen_by(seat)
        p = self.p_match(bid.face)
        pub = self.counting(self.public, bid.face)
        return np.array(
            [
                likelihood(tail(bid.quantity - k - pub, n_unseen, p))
                for k in range(self.hidden[seat] + 1)
            ]
        )

    def _observe(self, seat: int, bid: Bid, likelihood: Callable[[float], float]) -> None:
        hs = self.sets[seat]
        w = self.weights[seat] * self._table(seat, bid, likelihood)[hs.matches(bid.face, self.wild)]
        total = w.sum()
        self.weights[seat] = w / total if total > 0 else hs.prior.copy()

    def weights_after(self, seat: int, bid: Bid) -> FloatArray:
        """``seat``'s posterior if it bid ``bid`` now (the bid and the restraint evidence),
        leaving the belief as it is."""
        model = self.models.get(seat, self.model)
        table = self._table(seat, bid, model.bid_likelihood)
        if model.restraint > 0:
            table = table * self._table(
                seat, Bid(bid.quantity + 1, bid.face), model.restraint_likelihood
            )
        w = self.weights[seat] * table[self.sets[seat].matches(bid.face, self.wild)]
        total = w.sum()
        out: FloatArray = w / total if total > 0 else self.weights[seat]
        return out

    # ---------------------------------------------------------------- queries
    def match_dist(self, seat: int, face: int) -> FloatArray:
        """Posterior distribution of ``seat``'s hidden dice that count for ``face``."""
        key = (seat, face)
        hit = self._dists.get(key)
        if hit is None:
            hs = self.sets[seat]
            dist: FloatArray = np.bincount(
                hs.matches(face, self.wild),
                weights=self.weights[seat],
                minlength=self.hidden[seat] + 1,
            ).astype(np.float64)
            self._dists[key] = hit = dist
        return hit

    def known(self, face: int) -> int:
        """Dice the viewer sees that count for ``face``: own hidden dice and public dice."""
        return self.counting(self.mine, face) + self.counting(self.public, face)

    def count_dist(self, face: int, exclude: int | None = None) -> FloatArray:
        """Distribution of the total count for ``face`` (index = count), leaving out the
        hidden dice of ``exclude`` (an opponent) when given."""
        dist = np.zeros(self.known(face) + 1)
        dist[-1] = 1.0
        for j in self.opponents:
            if j != exclude:
                dist = np.convolve(dist, self.match_dist(j, face))
        if self.secret_stash:
            dist = np.convolve(dist, _binomial(self.secret_stash, self.p_match(face)))
        return dist

    def prob_true(self, bid: Bid) -> float:
        """Posterior probability that ``bid`` is true."""
        dist = self.count_dist(bid.face)
        return float(dist[bid.quantity :].sum())

    def sample_hand(self, seat: int, rng: random.Random) -> Hand:
        """One hand for ``seat`` drawn from the posterior."""
        hs = self.sets[seat]
        cum = np.cumsum(self.weights[seat])
        i = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
        return hs.hands[min(i, len(hs.hands) - 1)]


class BidReader:
    """How the next player judges a raise when they read every bid (with the bid model) as
    this bot does, not only their own dice: the bidder's hand as they read it after one more
    bid, and every other player's from the round's bids.

    ``p_true(bid)[k]`` is their probability that ``bid`` is true when ``k`` of their own
    hidden dice count for it. A bid on a face the bidder has bid before looks likelier to
    them than their own dice alone say; that is what lets a bluff through.

    >>> import random
    >>> from liarsdice.core.bidding import Bid, Game, preset
    >>> g = Game(preset("classic", players=3, dice=2, first_opener="given"))
    >>> s = g.new_initial_state()
    >>> for face in (2, 3, 4, 4, 5, 6):
    ...     s = s.apply_action(face)
    >>> reader = BidReader(g, s.view(0), 1)          # seat 0 bids three 5s; seat 1 reads it
    >>> [round(float(p), 2) for p in reader.p_true(Bid(3, 5))]   # holding 0, 1 or 2 of them
    [0.43, 0.84, 0.95]
    >>> [round(tail(3 - k, 4, 1 / 3), 2) for k in range(3)]     # from their own dice only
    [0.11, 0.41, 0.8]
    """

    def __init__(self, game: Game, view: PlayerView, reader: int, model: BidModel | None = None):
        self.bidder = view.player
        self.belief = Belief(game, replace(view, player=reader, my_dice=()), model)
        self.reader = reader
        self._others: dict[int, FloatArray] = {}

    def p_true(self, bid: Bid) -> FloatArray:
        b = self.belief
        me, face = self.bidder, bid.face
        others = self._others.get(face)
        if others is None:
            others = np.ones(1)
            for j in b.opponents:
                if j != me:
                    others = np.convolve(others, b.match_dist(j, face))
            self._others[face] = others
        # The bidder's hand as the reader sees it after this bid too.
        matches = b.sets[me].matches(face, b.wild)
        mine = np.bincount(matches, weights=b.weights_after(me, bid), minlength=b.hidden[me] + 1)
        dist = np.convolve(others, mine)
        pub = b.counting(b.public, face)
        at_least = np.append(np.cumsum(dist[::-1])[::-1], 0.0)  # P(count >= x)
        need = np.arange(b.hidden[self.reader] + 1)
        need = np.clip(bid.quantity - pub - need, 0, len(at_least) - 1)
        out: FloatArray = at_least[need]
        return out


# ------------------------------------------------------------------------- outcomes
@dataclass(frozen=True)
class Situation:
    """What a settlement needs: the rules, every seat's dice and start, the pile, the scores."""

    rules: Rules
    dice: tuple[int, ...]
    start: tuple[int, ...]
    pile: int
    scores: tuple[int, ...]
    alpha: float = 1.5
    positions: PositionValues | None = None  # learned chances to win (else the dice share)
    # The learned chances' power, renormalised over the seats: below 1 flattens them (a
    # one-round reading plays better with a flatter worth of its dice, docs/BOTS.md)
    flatten: float = 1.0


def settle(
    sit: Situation, call: int, caller: int, bidder: int, q: int, count: int
) -> tuple[list[int], int, int | None, tuple[int, ...]]:
    """The dice after a challenge, as the engine settles it (house penalties aside).

    Returns ``(dice, challenge winner, game winner or None, scores)``.

    >>> from liarsdice.core.bidding import preset
    >>> sit = Situation(preset("classic"), (5, 5), (5, 5), 0, (0, 0))
    >>> settle(sit, LIAR, 1, 0, 4, 6)[:2]    # two more than bid: the caller loses two
    ([5, 3], 0)
    >>> settle(sit, LIAR, 1, 0, 4, 4)[:2]    # exact count: all but the bidder lose one
    ([5, 4], 0)
    """
    rules = sit.rules
    winner, losses, gains, over = settle_challenge(
        rules, call, caller, bidder, q, count, sit.dice, sit.start, sit.pile
    )
    dice = list(sit.dice)
    scores = list(sit.scores)
    if over:  # room scoring: the bid stood
        scores = [score + (1 if p == bidder else -1) for p, score in enumerate(scores)]
    for p, k in gains.items():
        dice[p] += k
    for p, k in losses.items():
        if rules.scoring is Scoring.ROOM and dice[p] > 0 and k >= dice[p]:
            scores[p] -= 1
        dice[p] = max(0, dice[p] - k)
    return dice, winner, game_winner_after(rules, dice, winner, over), tuple(scores)


def position_value(
    sit: Situation,
    me: int,
    dice: Sequence[int],
    winner: int | None,
    scores: Sequence[int],
) -> float:
    """The viewer's value of a position after a round, on a 0..1 scale (room: score units).

    Elimination: 1 for a won game, 0 once out, otherwise the learned chance to win from the
    position (``sit.positions``, :mod:`liarsdice.nets.positions`; raised to ``sit.flatten``
    and renormalised over the seats) or else the share of ``dice ** alpha`` (a rough chance
    of winning from the dice counts). Single-round: 1 for the winner.
    Room: the score change plus a small worth per die kept.

    >>> from liarsdice.core.bidding import preset
    >>> sit = Situation(preset("classic"), (5, 5), (5, 5), 0, (0, 0))
    >>> position_value(sit, 0, (5, 5), None, (0, 0)), position_value(sit, 0, (0, 3), 1, (0, 0))
    (0.5, 0.0)
    """
    rules = sit.rules
    if rules.scoring is Scoring.ROOM:
        return float(scores[me] - sit.scores[me]) + 0.15 * dice[me]
    if winner is not None:
        return 1.0 if winner == me else 0.0
    if dice[me] <= 0:
        return 0.0
    if sit.positions is not None:
        chances = sit.positions.chances(dice)
        return chances[me] if sit.flatten == 1.0 else _power_share(chances, me, sit.flatten)
    return _power_share(dice, me, sit.alpha)


def _power_share(amounts: Sequence[float], me: int, power: float) -> float:
    """``me``'s share of ``amount ** power`` over the seats still holding some."""
    mine = math.pow(amounts[me], power)
    return mine / (
        mine + sum(math.pow(a, power) for p, a in enumerate(amounts) if p != me and a > 0)
    )


#: The call values worked out by the bots of this process (each depends on its key alone), for
#: the process's life; bounded (one entry per situation and bid met); ``clear()`` forgets them.
CALL_VALUES: Memo[tuple[Situation, int, int, int, int, int], FloatArray] = Memo(limit=20000)


def call_values(sit: Situation, me: int, call: int, caller: int, bidder: int, q: int) -> FloatArray:
    """``v[c]``: the viewer's position value when ``caller`` calls ``bidder``'s bid of
    quantity ``q`` and the count is ``c`` (0..every die in play)."""
    key = (sit, me, call, caller, bidder, q)
    hit = CALL_VALUES.get(key)
    if hit is not None:
        return hit
    top = sum(sit.dice) + len(sit.dice) + 2
    out = np.empty(top + 1)
    for c in range(top + 1):
        dice, _, game_winner, scores = settle(sit, call, caller, bidder, q, c)
        out[c] = position_value(sit, me, dice, game_winner, scores)
    CALL_VALUES.put(key, out)
    return out


def _expect(dist: FloatArray, values: FloatArray) -> float:
    n = min(len(dist), len(values))
    return float(dist[:n] @ values[:n])


# ------------------------------------------------------------------------------ bot
@dataclass
class Option:
    """A scored action: its expected position value, and for raises the bid and P(true)."""

    action: int
    value: float
    bid: Bid | None = None
    p_true: float = 0.0


class BayesBot(ProbBot):
    """Bayesian belief over the opponents' dice and expected-value decisions (module doc)."""

    name = "bayes"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base), and the prob bot's
    # bluff, noise and show_below with other defaults (``safe`` is unused).
    model: BidModel | None = None  # the bidders' model (None: the default BidModel)
    bluff: float = 0.04  # the chance of a raise a little worse than the best one
    pass_cost: float = 0.15  # the cost, in dice, of a bid passed on (it may come back)
    call_centre: float = 0.7  # the next player calls a bid they believe below this...
    call_temperature: float = 0.1  # ...this sharply
    alpha: float = 1.5  # the chance of winning the game: shares of dice ** alpha
    extra: int = 3  # raises scored on each face above the least legal quantity
    noise: float = 0.01  # the jitter of every option's value
    read: float = 0.0  # how far the next player reads the bids (BidReader) rather than own dice
    show_below: float = 0.6

    # ----------------------------------------------------------------- choose
    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        if view.phase == "show":
            return self._choose_show(game, view)
        if BUY in legal and self._wants_buy(view):
            return BUY
        options = self.evaluate(game, view)
        if not options:
            return self.rng.choice(legal)
        best = max(options, key=lambda o: o.value)
        raises = [o for o in options if o.bid is not None]
        if raises and self.bluff > 0 and self.rng.random() < self.bluff:
            near = [o for o in raises if o.value >= best.value - 0.05 and o is not best]
            if near:
                best = self.rng.choice(near)
        if best.bid is not None:
            show = self._show_for(game, view, best.bid, best.p_true)
            if show is not None and show in legal:
                return show
        return best.action

    def _choose_show(self, game: Game, view: PlayerView) -> int:
        bid = view.current_bid
        if bid is not None:
            p_true = Belief(game, view, self.model).prob_true(bid)
            show = self._show_for(game, view, bid, p_true)
            if show is not None and show in view.legal_actions:
                return show
        return NO_SHOW

    # --------------------------------------------------------------- evaluate
    def situation(self, game: Game, view: PlayerView) -> Situation:
        """The settlement context of the view."""
        return Situation(
            game.rules, view.dice_counts, game.start_dice, view.pile, view.scores, self.alpha
        )

    def next_seat(self, view: PlayerView, seat: int) -> int:
        """The next seat clockwise with dice after ``seat``."""
        n = len(view.dice_counts)
        q = (seat + 1) % n
        while view.dice_counts[q] == 0 and q != seat:
            q = (q + 1) % n
        return q

    def candidate_bids(self, game: Game, view: PlayerView) -> list[tuple[int, Bid]]:
        """For every face: the least legal bid and up to ``extra`` quantities above it."""
        by_face: dict[int, list[tuple[int, int]]] = {}
        for a in view.legal_actions:
            if BID_BASE <= a < BID_BASE + len(game.space):
                bid = game.space.bids[a - BID_BASE]
                by_face.setdefault(bid.face, []).append((bid.quantity, a))
        out: list[tuple[int, Bid]] = []
        for face, options in by_face.items():
            options.sort()
            for q, a in options[: self.extra + 1]:
                out.append((a, Bid(q, face)))
        return out

    def evaluate(self, game: Game, view: PlayerView, belief: Belief | None = None) -> list[Option]:
        """Every call and candidate raise with its expected position value."""
        if belief is None:
            belief = Belief(game, view, self.model)
        sit = self.situation(game, view)
        me = view.player
        legal = set(view.legal_actions)
        options: list[Option] = []
        cur = view.current_bid
        noise = self.noise
        if cur is not None and (LIAR in legal or EXACT in legal):
            dist = belief.count_dist(cur.face)
            for call in (LIAR, EXACT):
                if call in legal:
                    values = call_values(sit, me, call, me, view.bidder, cur.quantity)
                    v = _expect(dist, values) + self.rng.uniform(-noise, noise)
                    options.append(Option(call, v))
        now = position_value(sit, me, sit.dice, None, sit.scores)
        worse = list(sit.dice)
        worse[me] = max(0, worse[me] - 1)
        die_worth = max(0.0, now - position_value(sit, me, worse, None, sit.scores))
        pass_value = now - self.pass_cost * die_worth
        nxt = self.next_seat(view, me)
        reader = None
        if self.read > 0 and nxt != me and nxt in belief.weights:
            reader = BidReader(game, view, nxt, self.model)
        for action, bid in self.candidate_bids(game, view):
            v, p_true = self._raise_value(belief, sit, me, nxt, bid, pass_value, reader)
            options.append(Option(action, v + self.rng.uniform(-noise, noise), bid, p_true))
        return options

    def _raise_value(
        self,
        belief: Belief,
        sit: Situation,
        me: int,
        nxt: int,
        bid: Bid,
        pass_value: float,
        reader: BidReader | None = None,
    ) -> tuple[float, float]:
        """Expected value of bidding ``bid`` when ``nxt`` answers it (judging it, with
        weight ``read``, as ``reader`` says, else from their own dice)."""
        q = bid.quantity
        full = belief.count_dist(bid.face)
        p_true = float(full[q:].sum())
        values = call_values(sit, me, LIAR, nxt, me, q)
        if nxt not in belief.weights:
            # The next player holds no hidden dice: they see the count exactly.
            called = 1.0 - p_true
            return called * _expect(full, values) + (1 - called) * pass_value, p_true
        rest = belief.count_dist(bid.face, exclude=nxt)
        theirs = belief.match_dist(nxt, bid.face)
        n_unseen = belief.unseen_by(nxt)
        p = belief.p_match(bid.face)
        pub = belief.counting(belief.public, bid.face)
        read = reader.p_true(bid) if reader is not None else None
        total = 0.0
        for k, pk in enumerate(theirs):
            if pk <= 0:
                continue
            their_p = tail(q - k - pub, n_unseen, p)
            if read is not None:
                their_p += self.read * (float(read[k]) - their_p)
            called = sigmoid((self.call_centre - their_p) / self.call_temperature)
            on_call = _expect(rest, values[k:]) if called > 0 else 0.0
            total += pk * (called * on_call + (1 - called) * pass_value)
        return total, p_true
