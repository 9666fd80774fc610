"""The PettingZoo AEC environment (every preset passes ``pettingzoo.test.api_test``) and the
Gymnasium single-agent environment against the project's bots.

``LIARSDICE_SKIP_INTEROP=1`` skips the file (``make test`` installs PettingZoo and Gymnasium
through the dev extra).
"""

from __future__ import annotations

import functools
import os
import warnings
from typing import Any

import numpy as np
import pytest

if os.environ.get("LIARSDICE_SKIP_INTEROP") == "1":
    pytest.skip("LIARSDICE_SKIP_INTEROP=1", allow_module_level=True)

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from liarsdice.families import preset_names
from liarsdice.interop.pettingzoo import LiarsDiceAEC, LiarsDiceGymEnv, env

SMALL: dict[str, dict[str, Any]] = {
    "classic": {"players": 3, "dice": 2},
    "milton-bradley": {"players": 3, "dice": 2},
    "house-rules": {"players": 3, "dice": 2},
    "spot-on": {"players": 3, "dice": 2},
    "room": {"players": 3, "dice": 2},
    "perudo": {"players": 4, "dice": 2},
    "poker-dice": {"players": 3, "options": "lives:1"},
}


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # dict observations (with the action mask) are PettingZoo's convention for masks
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        yield


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_passes_the_pettingzoo_api_test(name: str) -> None:
    api_test(env(rules=name, render_mode="ansi", **SMALL.get(name, {})), num_cycles=1000)


def test_information_state_observations_pass_the_api_test_too() -> None:
    api_test(env(rules="perudo", players=3, dice=2, history=True), num_cycles=1000)


@pytest.mark.parametrize("name", ["perudo", "poker-dice"])
def test_seeds_and_rendering(name: str) -> None:
    make = functools.partial(env, rules=name, **SMALL[name])
    seed_test(make, num_cycles=300)
    render_test(make)


def play(aec: Any, seed: int) -> dict[str, float]:
    """A random game; each agent's rewards summed as ``last()`` reports them."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    raw: LiarsDiceAEC = aec.unwrapped
    totals = dict.fromkeys(aec.agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        seat = raw.possible_agents.index(agent)
        assert raw.engine_state.current_player == seat
        assert (obs["observation"] == raw.adapter.observation(raw.engine_state, seat)).all()
        for other in raw.possible_agents:
            if other != agent:
                assert not raw.observe(other)["action_mask"].any()
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert raw.engine_state.is_terminal()
    return totals


@pytest.mark.parametrize("name", ["classic", "room", "perudo", "openspiel", "poker-dice"])
def test_agents_receive_the_engine_returns(name: str) -> None:
    aec = env(rules=name, **SMALL.get(name, {}))
    for seed in range(3):
        totals = play(aec, seed)
        returns = aec.unwrapped.engine_state.returns()
        assert list(totals.values()) == pytest.approx(list(returns))


def test_illegal_actions_and_render_modes_are_refused() -> None:
    aec = LiarsDiceAEC(rules="openspiel")
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        aec.step(0)  # liar before any bid
    with pytest.raises(ValueError, match="render_mode"):
        LiarsDiceAEC(rules="openspiel", render_mode="rgb_array")


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"rules": "openspiel"}, {"rules": "poker-dice"}, {"rules": "room", "history": True}],
)
def test_the_gymnasium_environment_passes_gymnasiums_checker_as_constructed(
    kwargs: dict[str, Any],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker finds nothing to warn about...
        # ...but that it cannot try other render modes of an environment made without a spec
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(LiarsDiceGymEnv(**kwargs))


def test_the_gymnasium_environment_passes_the_render_check() -> None:
    single = LiarsDiceGymEnv(rules="perudo", players=3, dice=2, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*render fps.*")
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(single, skip_render_check=False)


@pytest.mark.parametrize(
    ("name", "options", "opponents"),
    [
        ("openspiel", {}, "prob"),
        ("perudo", {"players": 3, "dice": 2}, ["random", "prob"]),
        ("room", {"players": 3, "dice": 2}, "random"),
        ("poker-dice", {"players": 2, "options": "lives:1"}, "prob"),
    ],
)
def test_the_agent_plays_whole_games_against_the_bots(
    name: str, options: dict[str, Any], opponents: Any
) -> None:
    single = LiarsDiceGymEnv(rules=name, opponents=opponents, seat=1, **options)
    low, high = single.adapter.min_utility, single.adapter.max_utility
    rng = np.random.default_rng(0)
    for seed in range(5):
        obs, info = single.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            assert single.observation_space.contains(obs)
            assert single.state.current_player == 1
            mask = info["action_mask"]
            assert (mask == single.action_masks()).all()
            obs, reward, done, truncated, info = single.step(int(rng.choice(np.flatnonzero(mask))))
            assert not truncated
        assert reward == single.state.returns()[1]
        assert low <= reward <= high


def test_the_gymnasium_environment_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        LiarsDiceGymEnv(rules="perudo", opponents="nobody")
    with pytest.raises(ValueError, match="one per other seat"):
        LiarsDiceGymEnv(rules="perudo", players=3, opponents=["prob"])
    strict = LiarsDiceGymEnv(rules="openspiel", raise_illegal=True)
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(0)


@pytest.mark.parametrize(("name", "players", "lowest"), [("openspiel", 2, -1.0), ("room", 3, -2.0)])
def test_an_illegal_action_ends_the_episode_with_the_lowest_return(
    name: str, players: int, lowest: float
) -> None:
    single = LiarsDiceGymEnv(rules=name, players=players)
    assert single.illegal_reward == single.adapter.min_utility == lowest
    _, info = single.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, truncated, info = single.step(illegal)
    assert (reward, done, truncated, info["illegal_action"]) == (lowest, True, False, True)
    with pytest.raises(ValueError, match="reset"):
        single.step(illegal)
    single.reset(seed=2)
    assert single.state.current_player == 0
    lenient = LiarsDiceGymEnv(rules="openspiel", illegal_reward=-3)
    lenient.reset(seed=1)
    assert lenient.step(0)[1] == -3.0
