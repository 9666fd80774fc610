"""A bot that plays uniformly at random among its legal actions.

>>> import random
>>> from liarsdice.core.bidding import Game, preset
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(6)
>>> v = s.view(0)
>>> RandomBot(random.Random(1)).choose(g, v) in v.legal_actions
True
"""

from __future__ import annotations

from liarsdice.bots.base import Bot
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.view import PlayerView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniform over ``view.legal_actions`` (bids, calls, shows and buys alike)."""

    name = "random"

    def choose(self, game: Game, view: PlayerView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action (is it its turn?)")
        return self.rng.choice(view.legal_actions)
