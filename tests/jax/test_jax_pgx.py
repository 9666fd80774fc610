"""The pgx-shaped JAX environment (:class:`liarsdice.jax.Env`): random games against the
engine through ``init``, ``step``, ``observe`` for every seat and ``auto_reset``; illegal
actions; truncation; the API under ``jit`` and ``vmap``; the self-play training example of
docs/RESEARCH.md."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from jax_util import case_ids, pgx_differential  # noqa: E402
from liarsdice.core.bidding import preset  # noqa: E402
from liarsdice.jax import Env, auto_reset  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "RESEARCH.md"

# (preset, players, options, games at once, steps)
CASES: list[tuple[str, int | None, dict[str, Any], int, int]] = [
    ("openspiel", None, {}, 32, 20),
    ("perudo", 3, {"dice": 2}, 16, 40),
    ("room", 3, {"dice": 2}, 16, 40),
    ("spot-on", 3, {"dice": 2, "stash": "open", "loss": "difference"}, 16, 40),
    ("milton-bradley", 2, {"dice": 2}, 16, 30),
    ("classic", 3, {"dice": 3, "show_reroll": "before", "exact": "calza"}, 16, 40),
    ("house-rules", 2, {"dice": 1, "first_opener": "roll-two"}, 32, 20),
]


@pytest.mark.parametrize(
    ("name", "players", "options", "n", "steps"),
    CASES,
    ids=case_ids(CASES),
)
def test_random_games_replay_exactly_through_the_engine(
    name: str, players: int | None, options: dict[str, Any], n: int, steps: int
) -> None:
    assert pgx_differential(preset(name, **options), players, n, steps, seed=len(name)) > 0


def _batch(env: Env, n: int, seed: int = 0) -> Any:
    return jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(seed), n))


def _row(tree: Any, i: int) -> Any:
    return jax.tree.map(lambda x: np.asarray(x)[i], tree)


def _same(a: Any, b: Any) -> bool:
    leaves = zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in leaves)


def test_the_environment_describes_itself() -> None:
    env = Env("perudo", players=4)
    state = _batch(env, 2)
    assert (env.id, env.version, env.num_players) == ("liarsdice/perudo", "v0", 4)
    assert state.observation.shape == (2, *env.observation_shape) == (2, 143)
    assert state.legal_action_mask.shape == (2, env.num_actions) == (2, 128)
    assert state.rewards.dtype == jnp.float32 and state.rewards.shape == (2, 4)
    assert not state.terminated.any() and not state.truncated.any()
    assert (np.asarray(state._step_count) == 0).all()


def test_history_observations_are_the_information_states() -> None:
    env = Env("perudo", players=3, history=True)
    state = _batch(env, 4)
    assert env.observation_shape == (env.core.encoding.info_size,)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    for t in range(6):
        keys = jax.random.split(jax.random.key(t), 4)
        state = step(state, jax.vmap(env.core.sample_action)(state._game, keys), keys)
        want = jax.vmap(env.core.observe)(state._game)
        assert (np.asarray(state.observation) == np.asarray(want)).all(), t


@pytest.mark.parametrize("players", [2, 3])
def test_an_illegal_action_ends_the_game_with_a_penalty_and_keeps_the_state(players: int) -> None:
    """'liar' before any bid, action 999, action -1 and a legal bid, in one batch under
    ``jit(vmap(step))``: the first three end the game, -1 to the seat at fault and
    +1/(P-1) to each other seat, and leave the game's internals as they were."""
    env = Env("classic", players=players)
    state = _batch(env, 4, seed=players)
    actions = jnp.array([0, 999, -1, 8], dtype=jnp.int32)  # 8: the lowest bid, always legal
    step = jax.jit(jax.vmap(env.step))
    out = step(state, actions, jax.random.split(jax.random.key(9), 4))
    assert np.asarray(out.terminated).tolist() == [True, True, True, False]
    for i in range(3):
        seat = int(state.current_player[i])
        want = np.full(players, 1 / (players - 1), dtype=np.float32)
        want[seat] = -1.0
        np.testing.assert_allclose(np.asarray(out.rewards[i]), want)
        assert np.isclose(float(out.rewards[i].sum()), 0.0, atol=1e-6)
        assert _same(_row(out._game, i), _row(state._game, i)), i
        assert int(out.current_player[i]) == seat
        assert bool(out.legal_action_mask[i].all())  # pgx: all True once over
        assert int(out._step_count[i]) == 1
    assert not np.asarray(out.rewards[3]).any()
    assert int(out._game.bid[3]) == 0 and int(out._game.dice[3].sum()) == 5 * players
    # a finished game: stepping it changes nothing but the rewards (zero)
    again = step(out, actions, jax.random.split(jax.random.key(10), 4))
    for i in range(3):
        assert _same(_row(again._game, i), _row(out._game, i))
        assert not np.asarray(again.rewards[i]).any() and bool(again.terminated[i])
        assert int(again._step_count[i]) == 1


def test_observe_gives_every_seat_its_own_view_under_jit_and_vmap() -> None:
    env = Env("perudo", players=3)
    state = _batch(env, 8)
    seats = jnp.arange(env.num_players)
    views = jax.jit(jax.vmap(lambda s: jax.vmap(lambda p: env.observe(s, p))(seats)))(state)
    assert views.shape == (8, 3, 109)
    mine = np.asarray(views)[np.arange(8), np.asarray(state.current_player)]
    assert (mine == np.asarray(state.observation)).all()
    dice = env.core.encoding.slices["my_dice"]
    for p in range(3):  # each seat sees its own hidden dice
        hand = np.asarray(state._game.hand)[:, p]
        assert (np.asarray(views)[:, p, dice] == hand).all()


def _play(env: Env, step: Any, state: Any, steps: int, seed: int) -> list[Any]:
    """``steps`` steps of random legal play (batched): every state on the way."""
    pick = jax.jit(jax.vmap(env.core.sample_action))
    out = [state]
    for t in range(steps):
        keys = jax.random.split(jax.random.key(seed + t), state.current_player.shape[0])
        state = step(state, pick(state._game, keys), keys)
        out.append(state)
    return out


def test_auto_reset_starts_the_next_game_and_keeps_the_final_observation() -> None:
    env = Env("openspiel")
    plain = jax.jit(jax.vmap(env.step))
    wrapped = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    n = 16
    states = _play(env, wrapped, _batch(env, n), 30, seed=100)
    ends = 0
    for after in states[1:]:
        for i in np.flatnonzero(np.asarray(after.terminated)):
            ends += 1
            assert int(after._step_count[i]) == 0  # the next game's first state
            assert np.asarray(after.final_observation[i]).any()
            assert not bool(after.legal_action_mask[i].all())
            assert np.asarray(after.rewards[i]).sum() == pytest.approx(0.0, abs=1e-6)
        going = np.flatnonzero(~np.asarray(after.terminated))
        assert not np.asarray(after.final_observation)[going].any()
        assert not np.asarray(after.rewards)[going].any()
    assert ends > n  # every game ended at least once in 30 steps, and went on
    # the kept observation is the plain step's last one
    state = _batch(env, n, seed=3)
    keys = jax.random.split(jax.random.key(4), n)
    bid = plain(state, jnp.full(n, 8), keys)
    last_plain = plain(bid, jnp.zeros(n, dtype=jnp.int32), keys)
    last_wrapped = wrapped(bid, jnp.zeros(n, dtype=jnp.int32), keys)
    assert bool(last_plain.terminated.all()) and bool(last_wrapped.terminated.all())
    assert (np.asarray(last_wrapped.final_observation) == np.asarray(last_plain.observation)).all()
    np.testing.assert_array_equal(np.asarray(last_wrapped.rewards), np.asarray(last_plain.rewards))
    fresh = jax.vmap(env.init)(keys)
    assert (np.asarray(last_wrapped.observation) == np.asarray(fresh.observation)).all()


def test_max_steps_truncates_and_auto_reset_resets_a_truncated_game() -> None:
    env = Env("perudo", players=3, max_steps=2)
    n = 8
    plain = _play(env, jax.jit(jax.vmap(env.step)), _batch(env, n), 2, seed=7)
    done = np.asarray(plain[-1].terminated | plain[-1].truncated)
    assert done.all() and np.asarray(plain[-1].truncated).any()
    assert not (np.asarray(plain[-1].truncated) & np.asarray(plain[-1].terminated)).any()
    wrapped = _play(env, jax.jit(jax.vmap(auto_reset(env.step, env.init))), _batch(env, n), 2, 7)
    last = wrapped[-1]
    assert (np.asarray(last.truncated) == np.asarray(plain[-1].truncated)).all()
    assert (np.asarray(last._step_count) == 0).all()
    cut = np.asarray(last.truncated)
    assert (np.asarray(last.final_observation)[cut] == np.asarray(plain[-1].observation)[cut]).all()


@pytest.mark.parametrize(
    ("name", "options", "max_steps"),
    [
        ("perudo", {}, None),
        ("perudo", {}, 12),
        ("room", {"dice": 2}, None),  # all-call: calls that wait
        ("classic", {"dice": 3, "show_reroll": "before", "exact": "calza"}, None),  # shows
    ],
)
def test_the_fused_auto_reset_equals_the_wrapper_of_any_step_and_init(
    name: str, options: dict[str, Any], max_steps: int | None
) -> None:
    """``auto_reset(env.step, env.init)`` is fused (one roll for the next round or game,
    one observation); on other functions it wraps them as pgx's: the same states, illegal
    actions, truncations and resets included."""
    env = Env(preset(name, **options), players=3, max_steps=max_steps)
    n = 16
    fused = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    wrapped = jax.jit(jax.vmap(auto_reset(lambda s, a, k: env.step(s, a, k), env.init)))
    a, b = _batch(env, n), _batch(env, n)
    pick = jax.jit(jax.vmap(env.core.sample_action))
    for t in range(30):
        keys = jax.random.split(jax.random.key(t), n)
        actions = pick(a._game, keys).at[t % n].set(999 if t % 3 else 0)
        a, b = fused(a, actions, keys), wrapped(b, actions, keys)
        assert _same(a, b), t


def test_unbatched_and_batched_steps_agree() -> None:
    env = Env("openspiel")
    keys = jax.random.split(jax.random.key(3), 4)
    state = jax.vmap(env.init)(keys)
    actions = jnp.array([0, 8, 12, 999])
    step = jax.jit(auto_reset(env.step, env.init))
    batched = jax.jit(jax.vmap(auto_reset(env.step, env.init)))(state, actions, keys)
    for i in range(4):
        one = step(_row(state, i), actions[i], keys[i])
        assert _same(one, _row(batched, i)), i


def _example(iterations: int) -> dict[str, Any]:
    """Run docs/RESEARCH.md's training example with ``iterations`` iterations."""
    text = DOCS.read_text(encoding="utf-8")
    code = text.split("<!-- the self-play example -->", 1)[1].split("```python\n", 1)[1]
    code = code.split("```", 1)[0]
    code, n = re.subn(r"^ITERATIONS = \d+", f"ITERATIONS = {iterations}", code, flags=re.M)
    assert n == 1
    namespace: dict[str, Any] = {"__name__": "example"}
    exec(compile(code, str(DOCS), "exec"), namespace)  # our own docs' code
    return namespace


def test_the_training_example_runs_and_beats_the_random_bot_shortened() -> None:
    out = _example(80)
    assert float(out["before"]) < 0.6 < float(out["after"])


@pytest.mark.slow
def test_the_training_example_beats_the_random_bot() -> None:
    out = _example(500)
    assert float(out["after"]) > 0.75
