"""The batched simulator against the engine: every step of batched games replayed through
``liarsdice.core.Game`` with the same dice and actions (legal masks, player to act,
observations, rewards, done flags), for every bidding preset and the options it covers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from liarsdice.core.bidding import CHANCE, Game, IllegalActionError, RulesError, preset
from liarsdice.core.bidding.rules import PRESETS
from liarsdice.core.bidding.support import cover, left_out
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.sim.bidding import WAIT, VectorEnv, check_supported


def replay_check(env: VectorEnv, steps: int, seed: int) -> int:
    """Step ``env`` (record=True) with random legal actions and replay every game through the
    engine, comparing each step. Returns how many games finished."""
    game: Game = env.game
    enc = BiddingEncoding(game)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    states: list[Any] = []
    for events in env.take_chance_log():
        s = game.new_initial_state()
        for outcome in events:
            s = s.apply_event(CHANCE, outcome)
        states.append(s)
    finished = 0
    for step in range(steps):
        mask, player = info["action_mask"], info["current_player"]
        for i, s in enumerate(states):
            where = f"step {step} game {i}"
            assert not s.is_terminal(), where
            assert s.current_player == player[i], where
            legal = np.zeros(env.num_actions, dtype=bool)
            legal[enc.legal_indices(s)] = True
            assert (mask[i] == legal).all(), (where, np.flatnonzero(mask[i]), legal.nonzero())
            want = (
                enc.information_state(s, s.current_player)
                if env.history
                else enc.observation(s, s.current_player)
            )
            assert (obs[i] == want).all(), (where, obs[i], want)
            # the core State's own tensors are the simulator's rows too
            own = (
                s.information_state_tensor(s.current_player)
                if env.history
                else s.observation_tensor(s.current_player)
            )
            assert (obs[i] == np.asarray(own, dtype=np.float32)).all(), where
        actions = env.sample_actions(rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        logs = env.take_chance_log()
        for i in range(env.num_envs):
            s = states[i].apply_action(enc.to_action(int(actions[i])))
            if terminated[i]:
                assert s.is_terminal(), (step, i)
                assert tuple(rewards[i]) == s.returns(), (step, i, rewards[i], s.returns())
                finished += 1
                s = game.new_initial_state()
            else:
                assert not s.is_terminal(), (step, i)
                assert not rewards[i].any()
            for outcome in logs[i]:
                s = s.apply_event(CHANCE, outcome)
            states[i] = s
    return finished


BIDDING_PRESETS = list(PRESETS)

CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    *((name, None, {}) for name in BIDDING_PRESETS),
    ("classic", 3, {"dice": 2}),
    ("milton-bradley", 3, {"dice": 3}),
    ("house-rules", 3, {"dice": 2, "first_opener": "roll-two"}),
    ("spot-on", 3, {"dice": 2}),
    ("spot-on", 3, {"dice": 2, "stash": "open"}),
    ("spot-on", 3, {"dice": 2, "stash": "secret", "next_opener": "winner"}),
    ("room", 3, {"dice": 2}),
    ("perudo", 4, {"dice": 2}),
    ("perudo", 2, {"dice": (3, 2)}),
    ("classic", 3, {"dice": 3, "show_reroll": "before", "exact": "calza"}),
    ("classic", 3, {"dice": 2, "exact_count": "all-but-bidder-spare-last"}),
    ("openspiel", 2, {"exact": "spot-on", "dice": 2}),
    ("snyd-joker", 2, {"loss": "difference", "exact_count": "all-but-bidder", "dice": 3}),
]
# every value the simulator plays (the table of liarsdice.core.bidding.support) in some case
CASES += [
    ("classic", 3, {"dice": 2, **changes})
    for changes in cover("sim", [preset(n, **o) for n, _, o in CASES], preset("classic", dice=2))
]


@pytest.mark.parametrize(
    ("name", "players", "options"),
    CASES,
    ids=[f"{n}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for n, p, o in CASES],
)
def test_batched_games_replay_exactly_through_the_engine(
    name: str, players: int | None, options: dict[str, Any]
) -> None:
    rules = preset(name, **options)
    env = VectorEnv(rules, 16, players=players, seed=7, record=True)
    finished = replay_check(env, 150, seed=11)
    assert finished > 0


@pytest.mark.parametrize("name", ["openspiel", "perudo"])
def test_information_state_observations_replay_exactly(name: str) -> None:
    env = VectorEnv(preset(name, dice=2), 16, players=2, seed=3, history=True, record=True)
    assert env.observation_size == env.encoding.info_size
    assert replay_check(env, 60, seed=5) > 0


def test_a_given_opener_opens_every_game() -> None:
    env = VectorEnv("classic", 32, players=3, seed=1, opener=2)
    _, info = env.reset()
    assert (info["current_player"] == 2).all()


def test_illegal_actions_are_refused_with_the_game_named() -> None:
    env = VectorEnv("openspiel", 4, seed=1)
    env.reset()
    actions = env.sample_actions()
    actions[2] = 0  # liar before any bid
    with pytest.raises(IllegalActionError, match="game 2: action 0 is not legal"):
        env.step(actions)
    with pytest.raises(ValueError, match="needs 4 actions"):
        env.step([8, 8])


@pytest.mark.parametrize("name", ["perudo", "spot-on", "room"])
def test_waiting_games_stay_put_and_restarted_games_start_afresh(name: str) -> None:
    """WAIT leaves a game as it is while the others move (the Gymnasium vector environment
    plays its opponents so); ``restart`` deals new games in the rows named."""
    env = VectorEnv(name, 8, players=3, seed=2, history=True)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(150):
        wait = rng.random(8) < 0.5
        actions = np.where(wait, WAIT, env.sample_actions(rng))
        kept = (env.player.copy(), env.bid.copy(), env.dice.copy(), obs, info["action_mask"])
        obs, rewards, terminated, _, info = env.step(actions)
        assert (env.player[wait] == kept[0][wait]).all() and (env.bid[wait] == kept[1][wait]).all()
        assert (env.dice[wait] == kept[2][wait]).all()
        assert (obs[wait] == kept[3][wait]).all()
        assert (info["action_mask"][wait] == kept[4][wait]).all()
        assert not rewards[wait].any() and not terminated[wait].any()
    env.step(np.full(8, WAIT))
    obs, info = env.restart([1, 5])
    assert (env.bid[[1, 5]] == -1).all() and (env.dice[[1, 5]] == env._start).all()
    with pytest.raises(ValueError, match=r"rows 0\.\.7"):
        env.restart([8])
    actions = np.where(np.arange(8) == 3, 10**6, WAIT)
    with pytest.raises(IllegalActionError, match="game 3"):
        env.step(actions)


@pytest.mark.parametrize(
    ("options", "named"),
    [({"economy": "chips"}, "economy=chips"), ({"calling_advantage": True}, "calling_advantage")],
)
def test_unsupported_options_are_named(options: dict[str, Any], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        check_supported(preset("spot-on", **options))
    with pytest.raises(RulesError, match=named):
        VectorEnv(preset("spot-on", **options), 2)


def test_the_cases_play_every_value_the_simulator_supports() -> None:
    played = [preset(name, **options) for name, _, options in CASES]
    assert cover("sim", played, preset("classic")) == []
    for name, value in left_out("sim"):  # and each value left out is refused
        with pytest.raises(RulesError, match=name):
            check_supported(preset("classic", **{name: value}))


def test_random_play_is_reproducible_from_the_seed() -> None:
    def run() -> list[float]:
        env = VectorEnv("perudo", 8, players=3, seed=4)
        env.reset()
        total = np.zeros(3)
        for _ in range(200):
            _, rewards, _, _, _ = env.step(env.sample_actions())
            total += rewards.sum(0)
        return total.tolist()

    assert run() == run()


def test_sampled_actions_are_uniform_over_the_legal_ones() -> None:
    env = VectorEnv("openspiel", 4096, seed=2)
    env.reset()
    first = env.sample_actions(np.random.default_rng(0))
    counts = np.bincount(first, minlength=env.num_actions)
    legal = env.action_mask[0]
    assert (counts[~legal] == 0).all()
    assert counts[legal].min() > 4096 / legal.sum() * 0.8


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("milton-bradley", 3, {"dice": 3}), ("perudo", 3, {"dice": 2}), ("room", 3, {"dice": 2})],
)
def test_the_paths_without_lookup_tables_agree_too(
    monkeypatch: pytest.MonkeyPatch, name: str, players: int, options: dict[str, Any]
) -> None:
    from liarsdice.sim import bidding as vector

    monkeypatch.setattr(vector, "_TABLE_BYTES", 0)
    env = VectorEnv(preset(name, **options), 16, players=players, seed=9, record=True)
    views = env._views
    assert views.move_table is None and views.head_table is None and views.show_table is None
    assert replay_check(env, 100, seed=3) > 0
