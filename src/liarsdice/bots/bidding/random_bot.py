"""The beginner: random, but its bids look like a person's.

A beginner does not count odds, but nor does it bid 24 threes with 25 dice on the table: it
bids at random among the raises no higher than the count a player would expect on that face
from the dice in play (wilds included; its own dice are not looked at), plus ``margin``. It
calls at random too: ``call`` of the time when it could raise instead, and always when no raise
is that modest (liar, now and then exact). Shows and buys (house rules) it makes at random, or
never. With ``plausible=False`` it is the uniform baseline: any legal action, equally likely.

>>> import random
>>> from liarsdice.core.bidding import Game, preset
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(6)
>>> v = s.view(0)
>>> RandomBot(random.Random(1)).choose(g, v) in v.legal_actions
True
>>> g5 = Game(preset("classic", players=5))
>>> s5 = g5.new_initial_state().resolve_chance(random.Random(2))
>>> bot = RandomBot(random.Random(3))
>>> bids = {g5.action_bid(bot.choose(g5, s5.view(s5.current_player))) for _ in range(200)}
>>> max(b.quantity for b in bids)  # 25 dice: about 8 of a face with wild ones, plus 1
9
"""

from __future__ import annotations

from liarsdice.bots.base import Bot
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BUY, EXACT, LIAR, Game
from liarsdice.core.bidding.view import PlayerView
from liarsdice.odds import match_probability, unseen_dice

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """A beginner: random bids within reason, random calls (see the module docstring)."""

    name = "random"
    plausible: bool = True  # False: uniform over every legal action (the old baseline)
    margin: float = 1.0  # dice over the expected count it may still bid
    call: float = 0.2  # chance it calls when it could raise within reason
    exact: float = 0.15  # of its calls, the share that are exact calls (when the rules have them)

    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        if not self.plausible:
            return self.rng.choice(legal)
        bids = [(a, b) for a in legal if (b := game.action_bid(a)) is not None]
        calls = [a for a in legal if a in (LIAR, EXACT)]
        if not bids and not calls:  # a show, or a die to buy and nothing else
            return self.rng.choice(legal)
        modest = self._modest(game, view, bids)
        if calls and (not modest or self.rng.random() < self.call):
            return self._call(calls)
        if modest:
            return self.rng.choice(modest)
        if bids:  # no modest raise and no call: the least raise
            return min(bids, key=lambda ab: (ab[1].quantity, ab[0]))[0]
        return self.rng.choice([a for a in legal if a != BUY] or legal)

    def _modest(self, game: Game, view: PlayerView, bids: list[tuple[int, Bid]]) -> list[int]:
        """The raises of ``bids`` no higher than the count a player would expect on their
        face from the dice in play, plus ``margin``."""
        in_play = unseen_dice(view) + len(view.my_dice) + sum(len(s) for s in view.shown)
        in_play += len(view.stash or ())
        return [
            a
            for a, bid in bids
            if bid.quantity <= in_play * match_probability(game, view, bid.face) + self.margin
        ]

    def _call(self, calls: list[int]) -> int:
        """Liar, or ``exact`` of the time an exact call (always where liar is not open)."""
        if EXACT in calls and (LIAR not in calls or self.rng.random() < self.exact):
            return EXACT
        return LIAR
