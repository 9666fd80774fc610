"""The batched simulator as a Gymnasium vector environment: one seat of ``num_envs`` games
against an opponent policy (the ``pettingzoo`` extra, which brings Gymnasium: ``pip install
'liarsdice[pettingzoo]'``).

:class:`LiarsDiceVectorEnv` is a :class:`gymnasium.vector.VectorEnv` over
:class:`liarsdice.sim.bidding.VectorEnv` (every bidding preset but the economy options):
the agent plays ``seat`` in every game; the other seats are played by ``opponent``, a batched
policy (``(observations, action masks) -> actions`` for the games where an opponent is to
act; default: a uniformly random legal action), until the agent is to act again. The spaces
are Gymnasium's batched ones (:func:`gymnasium.vector.utils.batch_space`): observations
``Box(num_envs, size)`` of ``float32`` (the seat's tensors, :mod:`liarsdice.families.bidding
.encoding`), actions ``MultiDiscrete`` over the dense action indices; ``info["action_mask"]``
(``int8``, ``num_envs x num_actions``) gives the legal ones. The reward is the agent's return
in the step that ends its game (the opponents finish a game the agent is out of), zero
before. An illegal action ends that game with ``illegal_reward`` (default: the game's lowest
return, as if it lost) and ``info["illegal_action"]`` true for that env.

Auto-reset is Gymnasium's ``NEXT_STEP`` (``metadata["autoreset_mode"]``, what Gymnasium's
vector wrappers expect): in the step that ends a game the env returns ``terminated`` and the
reward with a zero observation (the game is over: nothing is left to decide) and an all-ones
mask; its action in the next step is ignored and that step returns the first decision of its
next game (reward 0, ``terminated`` false). A game the opponents end before the agent acts is
skipped (as :class:`~liarsdice.interop.pettingzoo.LiarsDiceGymEnv` does).

>>> envs = LiarsDiceVectorEnv("perudo", 4, players=3, seed=1)
>>> envs.single_observation_space.shape, envs.action_space
((109,), MultiDiscrete([98 98 98 98]))
>>> obs, info = envs.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, bool((info["current_player"] == 0).all())
((4, 109), (4, 98), True)
>>> rng = np.random.default_rng(0)
>>> done = 0
>>> for _ in range(100):
...     actions = [rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]
...     obs, rewards, terminated, truncated, info = envs.step(actions)
...     done += int(terminated.sum())
>>> done > 0, set(rewards[terminated].tolist()) <= {1.0, -0.5}
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from liarsdice.core.bidding.rules import Rules
from liarsdice.core.common import TERMINAL
from liarsdice.families.bidding.adapter import BiddingAdapter
from liarsdice.families.tensors import Floats32
from liarsdice.sim.bidding import WAIT, VectorEnv

__all__ = ["LiarsDiceVectorEnv", "Opponent"]

Opponent = Callable[[Floats32, npt.NDArray[np.bool_]], npt.ArrayLike]
"""A batched opponent: the observations and legal masks of the games where an opponent is to
act (``k x size``, ``k x num_actions``) -> their ``k`` actions (dense indices)."""


class LiarsDiceVectorEnv(gymnasium.vector.VectorEnv[Floats32, Any, Any]):
    """``num_envs`` games of a bidding preset, one seat each against ``opponent`` (module
    docstring).

    ``rules`` a bidding preset or :class:`~liarsdice.core.bidding.rules.Rules`; ``players``
    the seats (default: the rules'); ``seat`` the agent's; ``history``: observations are the
    information-state tensors (with the round's bids); ``seed`` seeds the dice and the
    default opponent (as ``reset(seed=...)`` does).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium's own attribute)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        rules: Rules | str = "perudo",
        num_envs: int = 8,
        *,
        seat: int = 0,
        players: int | None = None,
        opponent: Opponent | None = None,
        history: bool = False,
        seed: int | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        self.sim = sim = VectorEnv(rules, num_envs, players=players, seed=seed, history=history)
        P = sim.num_players
        if not 0 <= seat < P:
            raise ValueError(f"seat must be 0..{P - 1}")
        self.seat = seat
        self.opponent = opponent
        self.num_envs = num_envs
        adapter = BiddingAdapter(sim.game)
        self.illegal_reward = adapter.min_utility if illegal_reward is None else illegal_reward
        low, high = adapter.observation_bounds()
        self.single_observation_space = spaces.Box(
            low, high, shape=(sim.observation_size,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(sim.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        if seed is not None:
            super().reset(seed=seed)  # (Gymnasium's reset only seeds np_random)
            self.observation_space.seed(seed)
            self.action_space.seed(seed)
        # games over in the last step (their next step is the auto-reset); whether the
        # agent has acted in each game in play
        self._over = np.zeros(num_envs, dtype=np.bool_)
        self._acted = np.zeros(num_envs, dtype=np.bool_)
        self._ready = False
        self._latest: Floats32 = np.zeros((num_envs, sim.observation_size), dtype=np.float32)

    # ------------------------------------------------------------------ the interface
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Floats32, dict[str, Any]]:
        """Start every game afresh and play the opponents up to the agent's first decision."""
        super().reset(seed=seed)
        self._latest, _ = self.sim.reset(seed=seed)
        self._over[:] = False
        self._acted[:] = False
        self._ready = True
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self._advance(rewards, terminated)
        return self._observe(terminated, {})

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Floats32, npt.NDArray[np.float64], npt.NDArray[np.bool_], Any, dict[str, Any]]:
        """The agent's action in every game (ignored where the last step ended the game):
        ``(observations, rewards, terminated, truncated, info)``."""
        if not self._ready:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        N, sim = self.num_envs, self.sim
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape != (N,):
            raise ValueError(f"step needs {N} actions, not {a.shape[0]}")
        rewards = np.zeros(N, dtype=np.float64)
        terminated = np.zeros(N, dtype=np.bool_)
        acting = ~self._over  # (the others start their next game: already dealt)
        self._over[:] = False
        in_range = (a >= 0) & (a < sim.num_actions)
        legal = in_range & sim.action_mask[np.arange(N), np.where(in_range, a, 0)]
        illegal = acting & ~legal
        extra: dict[str, Any] = {}
        if illegal.any():
            rewards[illegal] = self.illegal_reward
            terminated |= illegal
            extra = {"illegal_action": illegal}
            self._latest, _ = sim.restart(np.flatnonzero(illegal))
            self._acted[illegal] = False
        moving = acting & legal
        if moving.any():
            self._acted |= moving
            self._sim_step(np.where(moving, a, WAIT), rewards, terminated)
        self._advance(rewards, terminated)
        self._over = terminated.copy()
        obs, info = self._observe(terminated, extra)
        return obs, rewards, terminated, np.zeros(N, dtype=np.bool_), info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions in every game now (``int8``, ``num_envs x num_actions``)."""
        mask = self.sim.action_mask.astype(np.int8)
        mask[self._over] = 1
        return mask

    # ------------------------------------------------------------------ stepping
    def _sim_step(
        self, a: npt.NDArray[np.int64], rewards: npt.NDArray[np.float64], terminated: Any
    ) -> None:
        """One simulator step; a game that ends is the agent's result where it has acted in
        it (else it is skipped: the simulator has dealt the next one)."""
        self._latest, returns, ended, _, _ = self.sim.step(a)
        if ended.any():
            scored = ended & self._acted & ~terminated
            rewards[scored] = returns[scored, self.seat]
            terminated |= scored
            self._acted[ended] = False

    def _advance(self, rewards: npt.NDArray[np.float64], terminated: Any) -> None:
        """The opponents move in every game not over until the agent is to act."""
        sim = self.sim
        while True:
            waiting = ~terminated & (sim.current_player != self.seat)
            rows = np.flatnonzero(waiting)
            if not len(rows):
                return
            if self.opponent is None:
                picked = sim.sample_actions(self.np_random).take(rows)
            else:
                picked = np.asarray(
                    self.opponent(
                        self._latest.take(rows, axis=0), sim.action_mask.take(rows, axis=0)
                    ),
                    dtype=np.int64,
                ).reshape(-1)
            a = np.full(self.num_envs, WAIT, dtype=np.int64)
            a[rows] = picked
            self._sim_step(a, rewards, terminated)

    def _observe(
        self, terminated: npt.NDArray[np.bool_], extra: dict[str, Any]
    ) -> tuple[Floats32, dict[str, Any]]:
        """The observations (zeros where the game just ended) and the info."""
        obs = self._latest.copy()
        obs[terminated] = 0.0
        info = {
            "action_mask": self.action_masks(),
            "current_player": np.where(terminated, TERMINAL, self.sim.current_player),
            **extra,
        }
        return obs, info
