"""The Gymnasium vector environment over the batched simulator
(:class:`liarsdice.interop.vector.LiarsDiceVectorEnv`): a ``gymnasium.vector.VectorEnv`` with
batched spaces and ``NEXT_STEP`` auto-reset, that Gymnasium's vector wrappers run on.

``LIARSDICE_SKIP_INTEROP=1`` skips the file (``make test`` installs Gymnasium through the dev
extra).
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest

if os.environ.get("LIARSDICE_SKIP_INTEROP") == "1":
    pytest.skip("LIARSDICE_SKIP_INTEROP=1", allow_module_level=True)

import gymnasium
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as vw

from liarsdice.core.common import TERMINAL
from liarsdice.interop.vector import LiarsDiceVectorEnv
from liarsdice.sim.bidding import WAIT, VectorEnv

N = 6


def legal_random(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])


def roll(envs: Any, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """``steps`` steps of random legal actions; every step's outputs, copied."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs.copy(), info["action_mask"].copy())]
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = envs.step(legal_random(info, rng))
        out.append(
            (obs.copy(), rewards.copy(), terminated.copy(), truncated.copy(), info["action_mask"])
        )
    return out


@pytest.mark.parametrize(
    ("rules", "players", "history"),
    [("openspiel", None, False), ("perudo", 3, True), ("room", 3, False), ("spot-on", 4, False)],
)
def test_a_gymnasium_vector_env_with_next_step_autoreset(
    rules: str, players: int | None, history: bool
) -> None:
    envs = LiarsDiceVectorEnv(rules, N, players=players, seat=1, history=history, seed=3)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.num_envs == N and envs.unwrapped is envs
    single_obs, single_act = envs.single_observation_space, envs.single_action_space
    assert isinstance(single_act, gymnasium.spaces.Discrete)
    assert envs.observation_space == gymnasium.vector.utils.batch_space(single_obs, N)
    assert envs.action_space == gymnasium.vector.utils.batch_space(single_act, N)
    low = envs.single_observation_space.low.min()
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=5)
    assert envs.observation_space.contains(obs)
    assert (info["current_player"] == 1).all()
    over = np.zeros(N, dtype=bool)
    games = 0
    for _ in range(300):
        actions = legal_random(info, rng)
        assert envs.action_space.contains(actions.astype(np.int64))
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (N,)
        assert not truncated.any()
        # the step after a game's end starts the next one: no reward, not over
        assert not terminated[over].any() and not rewards[over].any()
        assert not rewards[~terminated].any()
        assert (obs[terminated] == 0).all() and (info["action_mask"][terminated] == 1).all()
        assert (info["current_player"][terminated] == TERMINAL).all()
        assert (info["current_player"][~terminated] == 1).all()
        assert (envs.action_masks() == info["action_mask"]).all()
        assert (rewards[terminated] >= low - 1).all()
        over = terminated
        games += int(terminated.sum())
    assert games > N


def test_seeded_runs_repeat_and_returned_arrays_are_fresh() -> None:
    first = roll(LiarsDiceVectorEnv("perudo", N, players=3), 60, seed=7)
    again = roll(LiarsDiceVectorEnv("perudo", N, players=3), 60, seed=7)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            assert (x == y).all()
    envs = LiarsDiceVectorEnv("perudo", N, players=3, seed=1)
    obs, info = envs.reset(seed=1)
    kept = obs.copy()
    envs.step(legal_random(info, np.random.default_rng(1)))
    assert (obs == kept).all()  # the step wrote new arrays, not the ones handed out


def test_the_rewards_are_the_simulators_returns_for_the_seat() -> None:
    """Against the simulator driven by hand: the same dice (same seed) and the same actions
    give the same games, and the env's rewards are the seat's returns."""
    seat, seed = 1, 11
    envs = LiarsDiceVectorEnv("perudo", N, players=3, seat=seat, seed=seed)
    sim = VectorEnv("perudo", N, players=3, seed=seed)
    policy = np.random.default_rng(2)
    opponents = np.random.default_rng(3)

    def opponent(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array([opponents.choice(np.flatnonzero(m)) for m in mask])

    envs.opponent = opponent
    obs, info = envs.reset(seed=seed)
    shadow = np.random.default_rng(3)
    s_obs, s_info = sim.reset(seed=seed)
    acted = np.zeros(N, dtype=bool)
    expected_over = np.zeros(N, dtype=bool)

    def advance(rewards: np.ndarray, done: np.ndarray) -> Any:
        nonlocal s_obs, s_info
        while True:
            rows = np.flatnonzero(~done & (s_info["current_player"] != seat))
            if not len(rows):
                return
            a = np.full(N, WAIT)
            a[rows] = [shadow.choice(np.flatnonzero(m)) for m in s_info["action_mask"][rows]]
            s_obs, r, t, _, s_info = sim.step(a)
            hit = t & acted & ~done
            rewards[hit] = r[hit, seat]
            done |= hit
            acted[t] = False

    want_r, want_t = np.zeros(N), np.zeros(N, dtype=bool)
    advance(want_r, want_t)
    assert (obs == s_obs).all()
    for _ in range(150):
        actions = legal_random(info, policy)
        obs, rewards, terminated, _, info = envs.step(actions)
        want_r, want_t = np.zeros(N), np.zeros(N, dtype=bool)
        moving = ~expected_over
        acted |= moving
        s_obs, r, t, _, s_info = sim.step(np.where(moving, actions, WAIT))
        hit = t & acted
        want_r[hit], want_t[hit] = r[hit, seat], True
        acted[t] = False
        advance(want_r, want_t)
        assert (rewards == want_r).all() and (terminated == want_t).all()
        assert (obs[~terminated] == s_obs[~terminated]).all()
        expected_over = want_t


def test_illegal_actions_end_the_game_with_the_lowest_return() -> None:
    envs = LiarsDiceVectorEnv("openspiel", N, seed=0)
    _, info = envs.reset(seed=0)
    actions = legal_random(info, np.random.default_rng(0))
    actions[2] = 0 if not info["action_mask"][2, 0] else 10**6  # liar before a bid, or junk
    _, rewards, terminated, _, info = envs.step(actions)
    assert terminated[2] and rewards[2] == -1.0 and info["illegal_action"][2]
    assert info["illegal_action"].sum() == 1
    _, rewards, terminated, _, info = envs.step(np.zeros(N, dtype=np.int64))  # env 2: reset
    assert not terminated[2] and rewards[2] == 0.0
    lenient = LiarsDiceVectorEnv("openspiel", 2, illegal_reward=-5.0)
    lenient.reset(seed=0)
    assert (lenient.step(np.full(2, 10**6))[1] == -5.0).all()
    with pytest.raises(gymnasium.error.ResetNeeded):
        LiarsDiceVectorEnv("openspiel", 2).step([0, 0])
    with pytest.raises(ValueError, match="seat"):
        LiarsDiceVectorEnv("openspiel", 2, seat=2)


def test_sampled_actions_run_and_gymnasiums_vector_wrappers_apply() -> None:
    envs: Any = LiarsDiceVectorEnv("perudo", N, players=3, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning about the metadata or the spaces
        envs = vw.RecordEpisodeStatistics(envs)
        envs = vw.NormalizeReward(envs)
        envs = vw.NormalizeObservation(envs)
        envs = vw.ClipReward(envs, min_reward=-10.0, max_reward=10.0)
        envs = vw.DtypeObservation(envs, np.float64)
        envs = vw.DictInfoToList(envs)
    obs, infos = envs.reset(seed=4)
    assert obs.dtype == np.float64 and len(infos) == N
    envs.action_space.seed(4)
    episodes = 0
    for _ in range(40):  # whole-space samples: mostly illegal, each ends its game
        obs, _, _, _, infos = envs.step(envs.action_space.sample())
        episodes += sum("episode" in i for i in infos)
    assert episodes > N
    envs.close()


def test_the_episode_statistics_count_the_agents_steps_and_returns() -> None:
    envs = vw.RecordEpisodeStatistics(LiarsDiceVectorEnv("perudo", N, players=3, seed=8))
    rng = np.random.default_rng(8)
    _, info = envs.reset(seed=8)
    steps, total = np.zeros(N, dtype=int), np.zeros(N)
    seen = 0
    for _ in range(200):
        _, rewards, terminated, _, info = envs.step(legal_random(info, rng))
        steps += 1
        total += rewards
        if "episode" in info:
            done = info["_episode"]
            assert (info["episode"]["l"][done] == steps[done]).all()
            assert (info["episode"]["r"][done] == total[done]).all()
            seen += int(done.sum())
        steps[terminated] = -1  # the auto-reset step does not count
        total[terminated] = 0
    assert seen > N
