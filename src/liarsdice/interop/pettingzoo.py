"""Every preset of both families as a PettingZoo AEC environment, and a Gymnasium
single-agent environment against the project's bots (the ``pettingzoo`` extra:
``pip install 'liarsdice[pettingzoo]'``).

:func:`env` (or :class:`LiarsDiceAEC`) plays whole games: each agent ``player_<seat>``
observes ``{"observation": tensor, "action_mask": int8 mask}`` (the tensors of the family's
adapter, :mod:`liarsdice.families.adapter`; the mask is all zeros for an agent not to act),
acts with a dense action index (``Discrete(num_actions)``), and receives the engine's
``returns()`` when the game ends; chance is resolved inside the environment from its seeded
generator. A seat that is out of the game is simply never selected again.
``render_mode="ansi"`` renders the table as a spectator sees it (``"human"`` prints it).

>>> aec = env(rules="perudo", players=3, render_mode="ansi")
>>> aec.reset(seed=1)
>>> aec.agent_selection, int(aec.action_space("player_0").n)
('player_0', 98)
>>> obs, reward, terminated, truncated, info = aec.last()
>>> int(obs["action_mask"].sum()), obs["observation"].shape
(75, (109,))
>>> print(aec.render())
perudo: round 0 bid opener 0 to_move 0 dice 5,5,5 | to act: player_0

:class:`LiarsDiceGymEnv` is one seat of such a game with the other seats played by bots
(``opponents``: a bot of the family, :attr:`liarsdice.families.Family.bots`, or one per
seat):

>>> single = LiarsDiceGymEnv(rules="openspiel", opponents="prob")
>>> obs, info = single.reset(seed=3)
>>> obs.shape, info["action_mask"].dtype
((26,), dtype('int8'))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.families import family_of_game
from liarsdice.families.adapter import Adapter
from liarsdice.families.tensors import Floats32
from liarsdice.interop.adapters import make_adapter

__all__ = ["LiarsDiceAEC", "LiarsDiceGymEnv", "env", "raw_env"]


def _spaces(adapter: Adapter, history: bool) -> tuple[spaces.Box, spaces.Discrete]:
    size = adapter.info_size if history else adapter.observation_size
    low, high = adapter.observation_bounds()
    box = spaces.Box(low=low, high=high, shape=(size,), dtype=np.float32)
    return box, spaces.Discrete(adapter.num_actions)


def _mask(adapter: Adapter, state: Any, seat: int) -> Any:
    mask = np.zeros(adapter.num_actions, dtype=np.int8)
    if state.current_player == seat:
        mask[adapter.legal_indices(state)] = 1
    return mask


class LiarsDiceAEC(AECEnv):  # type: ignore[misc]
    """A preset of either family as a PettingZoo AEC environment (module docstring).

    ``rules`` any preset; ``players``, ``dice``, ``faces`` and ``options`` as
    :func:`~liarsdice.interop.adapters.make_adapter` takes them; ``history``: observations
    are the information-state tensors (with the round's bids).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "liarsdice_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "perudo",
        players: int | None = None,
        dice: int | str | None = None,
        faces: int | None = None,
        options: str | dict[str, str] | None = None,
        history: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.preset = rules
        self.adapter = make_adapter(rules, players=players, dice=dice, faces=faces, options=options)
        self.history = history
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.adapter.num_players)]
        box, discrete = _spaces(self.adapter, history)
        obs_space = spaces.Dict(
            {
                "observation": box,
                "action_mask": spaces.Box(0, 1, (self.adapter.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, discrete)
        self._rng = random.Random()
        self.state: Any = self.adapter.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def engine_state(self) -> Any:
        """The engine's state of the game in play."""
        return self.state

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.adapter.game.new_initial_state().resolve_chance(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        adapter = self.adapter
        tensor = (
            adapter.information_state(self.state, seat)
            if self.history
            else adapter.observation(self.state, seat)
        )
        return {"observation": tensor, "action_mask": _mask(adapter, self.state, seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        seat = self._seat(agent)
        legal = self.adapter.legal_indices(self.state)
        if int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent}: {legal}")
        self._cumulative_rewards[agent] = 0.0
        state = self.state.apply_action(self.adapter.to_action(int(action)))
        self.state = state = state.resolve_chance(self._rng)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.current_player == TERMINAL:
            for p, value in enumerate(state.returns()):
                self.rewards[self.possible_agents[p]] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self._selector.reinit(self.agents)
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as a spectator sees it: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi' or 'human'")
            return None
        table = self.adapter.observation_string(self.state, -1).removeprefix("p-1 ")
        head = table.split(" mine ")[0]
        if self.state.current_player == TERMINAL:
            returns = ", ".join(f"{r:+.2f}" for r in self.state.returns())
            text = f"{self.preset}: {head} | over, returns {returns}"
        else:
            text = f"{self.preset}: {head} | to act: {self.agent_selection}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


raw_env = LiarsDiceAEC


def env(**kwargs: Any) -> Any:
    """A :class:`LiarsDiceAEC` with PettingZoo's usual wrappers (action bounds checked,
    ``reset`` before ``step`` enforced)."""
    aec = wrappers.AssertOutOfBoundsWrapper(LiarsDiceAEC(**kwargs))
    return wrappers.OrderEnforcingWrapper(aec)


class LiarsDiceGymEnv(gymnasium.Env[Any, Any]):
    """One seat of a game against the project's bots, as a Gymnasium environment.

    The agent plays ``seat``; the other seats are bots of ``opponents`` (a level name for
    every other seat, or one per other seat in seat order). Observations are the seat's
    tensors; ``info["action_mask"]`` (and :meth:`action_masks`) gives the legal actions.
    The reward is the agent's return when the game ends (the bots finish the game when the
    agent is out), zero before. An illegal action ends the episode with ``illegal_reward``
    (default: the game's lowest return, :attr:`Adapter.min_utility
    <liarsdice.families.adapter.Adapter.min_utility>`: as if the agent lost) and
    ``info["illegal_action"]`` true, so that Gymnasium's checker and agents sampling the whole
    action space run unchanged; ``raise_illegal=True`` raises :class:`ValueError` instead.
    An episode is a game in which the agent acts at least once (a game the others end first
    is skipped).
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        rules: str = "perudo",
        opponents: str | Sequence[str] = "prob",
        seat: int = 0,
        players: int | None = None,
        dice: int | str | None = None,
        faces: int | None = None,
        options: str | dict[str, str] | None = None,
        history: bool = False,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        raise_illegal: bool = False,
    ) -> None:
        self.adapter = make_adapter(rules, players=players, dice=dice, faces=faces, options=options)
        self.illegal_reward = (
            self.adapter.min_utility if illegal_reward is None else float(illegal_reward)
        )
        self.raise_illegal = raise_illegal
        P = self.adapter.num_players
        if not 0 <= seat < P:
            raise ValueError(f"seat must be 0..{P - 1}")
        levels = [opponents] * (P - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != P - 1:
            raise ValueError(f"give one opponent level, or {P - 1} (one per other seat)")
        self.family = family_of_game(self.adapter.game)
        known = tuple(self.family.bots)
        for level in levels:
            if level not in known:
                raise ValueError(f"unknown bot {level!r}; levels: {', '.join(known)}")
        self.levels = levels
        self.seat = seat
        self.history = history
        self.render_mode = render_mode
        self.preset = rules
        self.observation_space, self.action_space = _spaces(self.adapter, history)
        self._rng = random.Random()
        self._bots: dict[int, Any] = {}
        self.state: Any = self.adapter.game.new_initial_state()

    def action_masks(self) -> Any:
        """The legal actions now (``int8``, one per action index)."""
        return _mask(self.adapter, self.state, self.seat)

    def _observe(self) -> tuple[Floats32, dict[str, Any]]:
        adapter = self.adapter
        tensor = (
            adapter.information_state(self.state, self.seat)
            if self.history
            else adapter.observation(self.state, self.seat)
        )
        return tensor, {"action_mask": self.action_masks()}

    def _advance(self) -> None:
        """Chance and the bots move until the agent is to act or the game is over."""
        game, state = self.adapter.game, self.state
        while True:
            player = state.current_player
            if player == CHANCE:
                state = state.resolve_chance(self._rng)
            elif player == TERMINAL or player == self.seat:
                break
            else:
                state = state.apply_action(self._bots[player].choose(game, state.view(player)))
        self.state = state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Floats32, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        others = [p for p in range(self.adapter.num_players) if p != self.seat]
        self._bots = {
            p: self.family.make_bot(level, random.Random(self._rng.random()))
            for p, level in zip(others, self.levels, strict=True)
        }
        while True:  # a game can end before the agent acts (it has no decision): skip it
            self.state = self.adapter.game.new_initial_state()
            self._advance()
            if self.state.current_player == self.seat:
                return self._observe()

    def step(self, action: int) -> tuple[Floats32, float, bool, bool, dict[str, Any]]:
        if self.state.current_player != self.seat:
            raise ValueError("the game is over: call reset()")
        legal = self.adapter.legal_indices(self.state)
        if int(action) not in legal:
            if self.raise_illegal:
                raise ValueError(f"action {action} is not legal: {legal}")
            obs, info = self._observe()
            info["illegal_action"] = True
            self.state = self.adapter.game.new_initial_state()  # over: reset() is due
            return obs, self.illegal_reward, True, False, info
        self.state = self.state.apply_action(self.adapter.to_action(int(action)))
        self._advance()
        over = self.state.current_player == TERMINAL
        reward = float(self.state.returns()[self.seat]) if over else 0.0
        obs, info = self._observe()
        return obs, reward, over, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.preset}: {self.adapter.observation_string(self.state, self.seat)}"
