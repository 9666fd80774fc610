"""A bluffer: bids past its dice at a tunable rate and calls less than the odds say.

A panel member for measuring robustness (docs/BOTS.md): a bot whose beliefs take every bid
at face value (an honest-bidder model) is fooled by it, while one that weighs bluffs is not.

How it decides, on its own view only (the prob bot's odds, :mod:`liarsdice.odds`):

* **Bluff** with probability ``rate`` at each raise: instead of the bid its dice back best,
  it bids on a face it holds few of (the fewest of its own dice counting for it, ties broken
  at random), ``0`` to ``push`` above the least legal quantity on that face, as long as the
  bid is at least ``floor`` likely (it never bids the impossible).
* **Call** liar only when the current bid is less than ``call_below`` likely (the prob bot
  calls as soon as the bid is likelier false than its best raise is true), or when it has no
  raise at least ``floor`` likely; exact as the prob bot.
* Otherwise it plays as the prob bot (show-and-reroll, buying, the 'before' show step).

>>> import random
>>> from liarsdice.core.bidding import Bid, Game, preset
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(5)   # seat 0: 3, seat 1: 5
>>> bot = BlufferBot(random.Random(1), rate=1.0, push=0)
>>> g.action_to_string(bot.choose(g, s.view(0)))     # a bluff: a face it does not hold
'1x1'
>>> s = s.apply_action(g.bid_action(Bid(2, 4)))
>>> g.action_to_string(bot.choose(g, s.view(1)))     # two 4s on a 5: impossible
'liar'
"""

from __future__ import annotations

from liarsdice.bots.bidding.prob import Candidate, ProbBot
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import EXACT, LIAR, Game
from liarsdice.core.bidding.view import PlayerView
from liarsdice.odds import bid_odds, known_matches, match_probability, prob_at_least, unseen_dice

__all__ = ["BlufferBot"]


class BlufferBot(ProbBot):
    """Bids past its dice at rate ``rate`` and calls only unlikely bids (module docstring)."""

    name = "bluffer"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base) on top of the prob bot's.
    rate: float = 0.35  # the chance of a bluff at each raise
    push: int = 1  # a bluff bids up to this many above the least legal quantity of its face
    floor: float = 0.12  # no bid, bluff or not, less likely than this
    call_below: float = 0.3  # call liar only on a bid less likely than this

    def _bid_or_call(self, game: Game, view: PlayerView, legal: tuple[int, ...]) -> int:
        safe, candidates = self._candidates_now(game, view)
        legal_set = set(legal)
        possible = [c for c in candidates if c.least_p >= self.floor]
        cur = view.current_bid
        if cur is not None and LIAR in legal_set:
            p_true, p_exact = bid_odds(game, view, cur)
            if EXACT in legal_set and p_exact > 0.4 and p_exact > 1.0 - p_true:
                return EXACT
            if p_true < self.call_below or not possible:
                return LIAR
        if not possible:
            possible = candidates
        if not possible:  # no raise and no call: cannot happen, stay legal
            return self.rng.choice(legal)
        if self.rng.random() < self.rate:
            return self._bluff(game, view, possible)
        pick = self._pick_raise(possible, safe, view.palifico)
        assert pick is not None
        return self._raise(game, view, pick, legal_set)

    def _bluff(self, game: Game, view: PlayerView, candidates: list[Candidate]) -> int:
        """A bid on a face it holds few of, a little above the least legal quantity."""
        fewest = min(c.backing for c in candidates)
        thin = [c for c in candidates if c.backing == fewest]
        c = self.rng.choice(thin)
        legal = {game.action_bid(a): a for a in view.legal_actions}
        n = unseen_dice(view)
        p = match_probability(game, view, c.least.face)
        known = known_matches(game, view, c.least)
        best = c.least_action
        for extra in range(1, self.rng.randint(0, max(0, self.push)) + 1):
            bid = Bid(c.least.quantity + extra, c.least.face)
            action = legal.get(bid)
            if action is None or float(prob_at_least(bid.quantity - known, n, p)) < self.floor:
                break
            best = action
        return best
