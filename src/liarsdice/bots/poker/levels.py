"""Stronger poker-dice bots: ``bayes`` (a belief over the cup) and ``expert`` (lookahead).

**PokerBayesBot** keeps the prob bot's exact re-roll odds (:mod:`liarsdice.bots.poker.simple`) and
replaces its model of the bidder by a posterior over the dice under the cup. Every way the
hidden dice can lie (the sorted outcomes of the cup dice it does not know, joined to the dice
it knows of: outside, and any it still knows are under the cup) is weighted by the likelihood
of the bid just made (:func:`bid_likelihood`): a probability-driven bidder names its hand's
full reading when that beats the previous bid and
otherwise makes the least raise, so a bid exactly equal to a hand's reading is likely, a
least raise over the previous bid is the typical bluff, and other bids are rare; the model is
mixed with the prob bot's "true bids ``1/rho`` times likelier than bluffs" for robustness. It
calls liar when the posterior chance the bid is true is below the posterior chance that
accepting costs a life (no higher hand after the best re-roll, and the next player calling).

**PokerExpertBot** adds a one-step lookahead of the next player's answer to every plan it
considers: for each way to arrange, shake and re-roll (every outcome enumerated exactly) and
for each bid it could then make, the chance that the next player calls, modelled from what
that player will see (the outside dice) as a noisy prob-style responder that compares the
bid's plausibility with its own cost of accepting. True bids are chosen to be called, bluffs
to be accepted: after a re-roll it bids the reading of its hand or, when that does not beat
the bid, the raise least likely to be called.

Both are always legal (an unexpected phase falls back to a random legal action).

>>> import random
>>> from liarsdice.core.poker import PokerGame, parse_poker_bid
>>> g = PokerGame(players=2)
>>> s = g.replay([(-1, f) for f in (6, 6, 6, 5, 5)])      # A A A K K
>>> bot = PokerBayesBot(random.Random(0))
>>> g.action_to_string(bot.choose(g, s.view(0)))
'full house A K'
>>> s = s.apply_action(g.bid_action(parse_poker_bid("five A")))
>>> g.action_to_string(PokerExpertBot(random.Random(0)).choose(g, s.view(1)))
'liar'
"""

from __future__ import annotations

from functools import lru_cache

from liarsdice.bots.poker.simple import (
    PokerProbBot,
    _best_reach,
    _merge,
    _reading_id,
    _seen,
    five_chance,
    known_dice,
    next_sees,
    plausibility,
    reach_table,
    roll_distribution,
)
from liarsdice.core.poker import (
    ACCEPT,
    ALL_BIDS,
    LIAR,
    NUM_BIDS,
    Category,
    PokerGame,
    PokerView,
    bid_id,
)
from liarsdice.odds import sigmoid

__all__ = ["PokerBayesBot", "PokerExpertBot", "bid_likelihood", "cup_posterior"]

Dice = tuple[int, ...]


def bid_likelihood(rid: int, bid: int, prev: int, rho: float = 0.2, mix: float = 0.3) -> float:
    """Likelihood that a bidder whose hand reads ``rid`` bids ``bid`` over ``prev``.

    A mixture: with weight ``1 - mix`` a prob-style bidder (the full reading when it beats
    ``prev``, else the least raise ``prev + 1``; a small chance of a modest bluff above the
    reading); with weight ``mix`` a bidder who bluffs ``rho`` times as readily as bidding true.

    >>> bid_likelihood(100, 100, 50) > bid_likelihood(60, 100, 50) > 0
    True
    >>> bid_likelihood(40, 51, 50) > bid_likelihood(60, 51, 50)   # a least raise: a bluff
    True
    """
    if rid > prev:
        prob = 0.9 if bid == rid else (0.1 / 11 if rid < bid <= rid + 11 else 0.002)
    else:
        prob = 0.95 if bid == prev + 1 else 0.002
    simple = 1.0 if rid >= bid else rho
    return (1 - mix) * prob + mix * simple


@lru_cache(maxsize=50_000)
def cup_posterior(
    outside: Dice, hidden: int, bid: int, prev: int
) -> tuple[tuple[Dice, float], ...]:
    """Posterior over the whole hand (outside + hidden dice) after ``bid`` over ``prev``:
    ``(hand, weight)`` pairs, weights summing to one.

    >>> post = cup_posterior((6, 6, 6, 6), 1, 461, 400)     # four aces out, "five A" bid
    >>> round(sum(w for h, w in post if h == (6, 6, 6, 6, 6)), 3)
    0.737
    """
    out: list[tuple[Dice, float]] = []
    total = 0.0
    for rolled, p in roll_distribution(hidden):
        hand = _merge(outside, rolled)
        w = p * bid_likelihood(_reading_id(hand), bid, prev)
        out.append((hand, w))
        total += w
    if total <= 0:
        return tuple((h, 1.0 / len(out)) for h, _ in out)
    return tuple((h, w / total) for h, w in out)


class PokerBayesBot(PokerProbBot):
    """Posterior over the cup from the bid history (module docstring)."""

    name = "bayes"

    # The prob bot's tuning parameters, other defaults.
    call_rate: float = 0.3
    bluff: float = 0.03
    noise: float = 0.02

    def respond_odds(self, game: PokerGame, view: PokerView) -> tuple[float, float]:
        """``(P(bid true), P(losing a life by accepting))`` under the posterior."""
        bid = view.current_bid
        if bid is None:
            return 1.0, 0.0
        b = bid_id(bid)
        prev = bid_id(view.bids[-2][1]) if len(view.bids) >= 2 else -1
        unknown = view.cup_count - len(view.known_cup)  # the dice under the cup it never saw
        post = cup_posterior(known_dice(view), unknown, b, prev)
        five = bid.category is Category.FIVE and game.rules.five_of_a_kind_rule
        p_true = loss = 0.0
        for hand, w in post:
            if _reading_id(hand) >= b:
                p_true += w
            if five:
                loss += w * (1.0 - five_chance(hand))
            elif b + 1 < NUM_BIDS:
                loss += w * self.call_rate * (1.0 - _best_reach(hand, b + 1))
            else:
                loss += w
        return p_true, loss

    def _respond(self, game: PokerGame, view: PokerView) -> int:
        if ACCEPT not in view.legal_actions:
            return LIAR
        p_true, loss = self.respond_odds(game, view)
        jitter = self.rng.uniform(-self.noise, self.noise) if self.noise else 0.0
        return LIAR if p_true + jitter < loss else ACCEPT


class PokerExpertBot(PokerBayesBot):
    """Bayesian responses plus a one-step lookahead of the next player (module docstring).

    ``think`` is accepted for symmetry with the bidding expert (the poker search is exact
    enumeration, fast enough not to need a budget).
    """

    name = "expert"

    think: float | None = None  # seconds per move: accepted, not needed
    temperature: float = 0.08  # how sharply the modelled next player calls
    bluff: float = 0.0  # it bluffs only through its choice of raise

    def __repr__(self) -> str:
        return "PokerExpertBot()"

    def _call(self, visible: Dice, b: int) -> float:
        """The next player's chance of calling bid id ``b`` seeing ``visible``: a noisy
        responder comparing the bid's plausibility with the cost of accepting it."""
        return _call_chance(visible, b, self.rho, self.call_rate, self.temperature)

    def _bid(self, game: PokerGame, view: PokerView) -> int:
        hand = tuple(sorted(view.cup + view.outside))
        cur = -1 if view.current_bid is None else bid_id(view.current_bid)
        visible = next_sees(view)
        if len(hand) != 5:
            return game.bid_action(ALL_BIDS[cur + 1])
        rid = _reading_id(hand)
        if rid > cur:
            return game.bid_action(ALL_BIDS[rid])
        top = min(NUM_BIDS, cur + 25)
        best = min(range(cur + 1, top), key=lambda b: (self._call(visible, b), b))
        return game.bid_action(ALL_BIDS[best])

    def _score(
        self, visible: Dice, hidden: Dice, in_view: bool, cur: int, known: Dice = ()
    ) -> float:
        kept = _merge(visible, hidden)
        total = 0.0
        for rolled, p in roll_distribution(5 - len(kept)):
            hand = _merge(kept, rolled)
            rid = _reading_id(hand)
            seen = _seen(visible, rolled, in_view, known)
            if rid > cur:
                total -= p * self.spite * self._call(seen, rid)
            else:
                total += p * _least_call(seen, cur, self.rho, self.call_rate, self.temperature)
        return total

    def _static(self, shown: Dice, hand: Dice, cur: int, known: Dice = ()) -> float:
        seen = _merge(shown, known)
        rid = _reading_id(hand)
        if rid > cur:
            return -self.spite * self._call(seen, rid)
        return _least_call(seen, cur, self.rho, self.call_rate, self.temperature)


@lru_cache(maxsize=400_000)
def _call_chance(visible: Dice, b: int, rho: float, call_rate: float, temp: float) -> float:
    p_true = plausibility(reach_table(visible)[b], rho)
    beat = reach_table(visible)[b + 1] if b + 1 < NUM_BIDS else 0.0
    loss = call_rate * (1.0 - beat) if b + 1 < NUM_BIDS else 1.0
    return sigmoid((loss - p_true) / temp)


@lru_cache(maxsize=200_000)
def _least_call(visible: Dice, cur: int, rho: float, call_rate: float, temp: float) -> float:
    """The least chance of being called over the bluffs above ``cur`` seeing ``visible``."""
    top = min(NUM_BIDS, cur + 25)
    if cur + 1 >= NUM_BIDS:
        return 1.0
    return min(_call_chance(visible, b, rho, call_rate, temp) for b in range(cur + 1, top))
