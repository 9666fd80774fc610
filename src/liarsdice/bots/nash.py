""":class:`NashBot`: plays an (approximate) Nash equilibrium of a two-player single-round game.

The bot plays the average strategy of a solved :class:`~liarsdice.solve.policy.Policy`: given
as an object or a JSON file, or solved on first use for the game it is asked to play (to
exploitability ``target``) and cached per rules and dice for the life of the process.

>>> import random
>>> from liarsdice.core import Game, preset
>>> from liarsdice.solve.tree import make_game
>>> game = make_game("snyd-joker", faces=3)
>>> state = game.new_initial_state().apply_action(1).apply_action(2)
>>> bot = NashBot(random.Random(0), target=1e-4)
>>> bot.choose(game, state.view(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

from liarsdice.bots.base import Bot
from liarsdice.core.game import Game
from liarsdice.core.rules import Rules
from liarsdice.core.view import PlayerView
from liarsdice.solve.cfr import solve
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import SolverError

__all__ = ["NashBot", "cached_policy"]

_CACHE: dict[tuple[Rules, tuple[int, ...], float], Policy] = {}


def cached_policy(game: Game, target: float = 1e-3) -> Policy:
    """A policy for ``game`` solved to exploitability ``target``, cached per process."""
    key = (game.rules, tuple(game.start_dice), target)
    policy = _CACHE.get(key)
    if policy is None:
        policy = Policy.from_result(solve(game, target=target))
        _CACHE[key] = policy
    return policy


class NashBot(Bot):
    """Samples its action from a solved policy (see the module docstring)."""

    name: ClassVar[str] = "nash"

    def __init__(
        self,
        rng: random.Random,
        policy: Policy | str | Path | None = None,
        *,
        target: float = 1e-3,
    ) -> None:
        super().__init__(rng)
        self.policy = Policy.load(policy) if isinstance(policy, str | Path) else policy
        self.target = target

    def policy_for(self, game: Game) -> Policy:
        """The policy this bot plays in ``game`` (solving it if none was given)."""
        if self.policy is None:
            return cached_policy(game, self.target)
        if not self.policy.matches(game):
            raise SolverError("the bot's policy was solved for other rules or dice")
        return self.policy

    def choose(self, game: Game, view: PlayerView) -> int:
        probs = self.policy_for(game).view_probabilities(view)
        u = self.rng.random()
        acc = 0.0
        for action, q in zip(view.legal_actions, probs, strict=True):
            acc += float(q)
            if u < acc:
                return action
        return view.legal_actions[int(probs.argmax())]
