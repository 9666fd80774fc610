""":class:`NashBot`: plays an (approximate) Nash equilibrium of a two-player single-round game.

The bot plays the average strategy of a solved :class:`~liarsdice.solve.policy.Policy`: given
as an object or a JSON file, or by default the policy of the game it is asked to play. Every
two-player single-round game within the solver's reach
(:func:`~liarsdice.solve.tree.in_reach`: its arrays within 3 GiB, e.g. one die against two
with 6 faces, or two dice each with 5) is solved on first use to exploitability ``target``
and cached: for the process, and for the larger games on disk in the user's cache directory
(:mod:`liarsdice.solve.cache`; 10 to 30 seconds to solve one die against two on one core,
then a fraction of a second to load). While it solves, a progress bar is shown on stderr when
stderr is a terminal, or when asked (``progress=True``, or ``LIARSDICE_PROGRESS=1``;
``LIARSDICE_PROGRESS=0`` hides it).

>>> import random
>>> from liarsdice.core.bidding import Game, preset
>>> from liarsdice.solve.tree import make_game
>>> game = make_game("snyd-joker", faces=3)
>>> state = game.new_initial_state().apply_action(1).apply_action(2)
>>> bot = NashBot(random.Random(0), target=1e-4)
>>> bot.choose(game, state.view(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import os
import random
import sys
from pathlib import Path
from typing import Any, ClassVar

from liarsdice.bots.base import Bot, sample_action
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.view import PlayerView
from liarsdice.solve.cache import DISK_MIN_NODES, is_cached
from liarsdice.solve.cache import cached_policy as solved_policy
from liarsdice.solve.cfr import Progress
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import SolverError, check_supported, in_reach

__all__ = ["PROGRESS_ENV", "NashBot", "SolveBar", "cached_policy", "show_progress"]

#: The environment variable that shows (1) or hides (0) the solver's progress bar.
PROGRESS_ENV = "LIARSDICE_PROGRESS"


def show_progress(progress: bool | None = None) -> bool:
    """Whether to show the progress bar: ``progress`` when given, else ``$LIARSDICE_PROGRESS``
    when set, else whether stderr is a terminal."""
    if progress is not None:
        return progress
    env = os.environ.get(PROGRESS_ENV)
    if env is not None:
        return env.strip().lower() not in ("", "0", "false", "no", "off")
    return sys.stderr.isatty()


class SolveBar:
    """A rich progress bar on stderr fed by the solver's checks: it appears at the first
    check (so never when the policy comes from a cache) and fills as the exploitability falls
    towards the target (on a log scale). Use it as a context manager."""

    def __init__(self, game: Game, target: float) -> None:
        dice = ",".join(str(d) for d in game.start_dice)
        self.title = f"solving {game.rules.name} {dice} ({game.rules.faces} faces)"
        self.target = target
        self._bar: Any = None
        self._task: Any = None
        self._start = 0.0

    def __call__(self, point: Progress) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self._bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[info]}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.title, total=1.0, info="")
            self._start = max(point.exploitability, self.target * 1.001)
        target = self.target
        span = math.log(self._start / target)
        done = math.log(self._start / max(point.exploitability, target)) / span
        self._bar.update(
            self._task,
            completed=min(1.0, max(0.0, done)),
            info=f"iteration {point.iterations}: exploitability {point.exploitability:.2e} "
            f"(target {target:g})",
        )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> SolveBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cached_policy(game: Game, target: float = 1e-3, *, progress: bool | None = None) -> Policy:
    """A policy for ``game`` solved to exploitability ``target``, cached for the process and,
    for the larger games, on disk (:func:`liarsdice.solve.cache.cached_policy`); a progress
    bar while a large game is solved (see :func:`show_progress`)."""
    large = 1 << len(game.space) >= DISK_MIN_NODES
    if not (large and show_progress(progress)):
        return solved_policy(game, target=target)
    with SolveBar(game, target) as bar:
        return solved_policy(game, target=target, callback=bar)


class NashBot(Bot):
    """Samples its action from a solved policy (see the module docstring)."""

    name: ClassVar[str] = "nash"

    def __init__(
        self,
        rng: random.Random,
        policy: Policy | str | Path | None = None,
        *,
        target: float = 1e-3,
        progress: bool | None = None,
    ) -> None:
        super().__init__(rng)
        self.policy = Policy.load(policy) if isinstance(policy, str | Path) else policy
        self.target = target
        self.progress = progress

    def policy_for(self, game: Game) -> Policy:
        """The policy this bot plays in ``game`` (solving it if none was given)."""
        if self.policy is None:
            return cached_policy(game, self.target, progress=self.progress)
        if not self.policy.matches(game):
            raise SolverError("the bot's policy was solved for other rules or dice")
        return self.policy

    def cannot_play(self, game: Game) -> str | None:
        """Why the solver's policy does not reach ``game`` (see :meth:`Bot.cannot_play`)."""
        if self.policy is not None:
            if self.policy.matches(game):
                return None
            return "its policy was solved for other rules or dice"
        try:
            check_supported(game)
        except SolverError as err:
            return f"it plays only what the exact solver solves: {err}"
        if not in_reach(game) and not is_cached(game, self.target):
            dice = ",".join(str(d) for d in game.start_dice)
            return (
                f"it plays only what the exact solver solves, and {game.rules.name} with dice "
                f"{dice} and {game.rules.faces} faces is too large for it (fewer dice or faces)"
            )
        return None

    def choose(self, game: Game, view: PlayerView) -> int:
        probs = self.policy_for(game).view_probabilities(view)
        return sample_action(self.rng, view.legal_actions, probs)
