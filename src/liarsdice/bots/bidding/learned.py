"""``learned``: the strategy learned by self-play, played as it is (no search).

It plays two-player single rounds of the rules its strategies were learned for
(:class:`~liarsdice.nets.rounds.RoundPolicies`, by :mod:`liarsdice.learn.rounds`): from its
own dice and the standing bid, the learned probability of each move. The strategies that
ship with the package (:data:`~liarsdice.nets.rounds.PACKAGED_ROUNDS`) are used by default;
``net`` names another file (``liarsdice learn rounds`` writes them). Everything else it
declines (:meth:`LearnedBot.cannot_play` says why).

>>> import random
>>> from liarsdice.solve.tree import make_game
>>> game = make_game("snyd-joker", (1, 1))
>>> bot = LearnedBot(random.Random(0))
>>> bot.cannot_play(game) is None
True
>>> state = game.new_initial_state().apply_action(3).apply_action(5)
>>> bot.choose(game, state.view(0)) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from liarsdice.bots.base import Bot, sample_action
from liarsdice.core.bidding.game import LIAR, Game
from liarsdice.core.bidding.view import PlayerView
from liarsdice.nets.rounds import RoundPolicies, packaged_round_policies, round_seat

__all__ = ["LearnedBot"]


class LearnedBot(Bot):
    """The learned strategy (see the module docstring)."""

    name = "learned"
    net: str = ""  # a liarsdice-rounds .npz file; empty: the one shipped for the game's rules

    _loaded: ClassVar[dict[tuple[str, str, int], RoundPolicies | None]] = {}

    def policies_for(self, game: Game) -> RoundPolicies | None:
        """The strategies this bot plays ``game`` with, or None when it has none."""
        key = (self.net, game.rules.name, game.rules.faces)
        if key not in self._loaded:
            if self.net:
                self._loaded[key] = RoundPolicies.load(self.net)
            else:
                self._loaded[key] = packaged_round_policies(game.rules.name, game.rules.faces)
        return self._loaded[key]

    def cannot_play(self, game: Game) -> str | None:
        rules = game.rules
        pol = self.policies_for(game)
        if pol is None:
            return (
                f"no learned strategies for {rules.name} with {rules.faces} faces "
                "(liarsdice learn rounds learns them; net=FILE plays them)"
            )
        return pol.unfit(game)

    def probabilities(self, game: Game, view: PlayerView) -> np.ndarray:
        """The probability of each of ``view.legal_actions``."""
        pol = self.policies_for(game)
        why = self.cannot_play(game)
        if pol is None or why is not None:
            raise ValueError(f"the learned bot cannot play this game: {why}")
        dice, actor = round_seat(view)
        t = pol.tables(dice)
        history = [t.index[bid] for _, bid in view.bids]
        last = history[-1] if history else -1
        probs = pol.probabilities(dice, actor, hand=view.my_dice, history=history)
        raises = range(last + 1, t.num_bids) if last >= 0 else t.opening.tolist()
        moves = ([LIAR] if last >= 0 else []) + [game.bid_action(t.moves[j]) for j in raises]
        by_move = dict(zip(moves, probs.tolist(), strict=True))
        out = np.array([by_move.get(a, 0.0) for a in view.legal_actions])
        total = out.sum()
        if total <= 0:
            raise ValueError("the learned strategy gives no weight to the legal moves")
        result: np.ndarray = out / total
        return result

    def choose(self, game: Game, view: PlayerView) -> int:
        return sample_action(self.rng, view.legal_actions, self.probabilities(game, view))
