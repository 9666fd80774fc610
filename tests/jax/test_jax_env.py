"""The JAX environment against the engine: random games played through both with the same
actions and the same dice, compared at every step (legal masks, the player to act,
observations, dice lost, done flags and returns), for every preset it supports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from jax_util import case_ids, differential  # noqa: E402
from liarsdice.core.bidding import RulesError, preset  # noqa: E402
from liarsdice.core.bidding.support import cover, left_out  # noqa: E402
from liarsdice.jax import JaxBiddingEnv, check_supported  # noqa: E402

# (preset, players, options, games at once, steps): about 6,500 games in all
CASES: list[tuple[str, int | None, dict[str, Any], int, int]] = [
    ("openspiel", None, {}, 80, 24),
    ("snyd-normal", None, {}, 80, 24),
    ("snyd-joker", None, {}, 80, 24),
    ("openspiel", 2, {"exact": "spot-on", "dice": 2}, 48, 24),
    ("snyd-joker", 2, {"loss": "difference", "exact_count": "all-but-bidder", "dice": 3}, 48, 24),
    ("classic", 2, {"dice": 1}, 72, 24),
    ("classic", 3, {"dice": 2}, 40, 50),
    ("classic", 3, {"dice": 2, "exact_count": "all-but-bidder-spare-last"}, 32, 40),
    ("classic", 4, {}, 8, 80),
    ("perudo", 2, {"dice": 1}, 72, 24),
    ("perudo", 3, {"dice": 2}, 48, 50),
    ("perudo", 2, {"dice": (3, 2)}, 48, 40),
    ("perudo", 6, {"dice": 2}, 8, 80),
    ("spot-on", 2, {"dice": 1}, 72, 24),
    ("spot-on", 3, {"dice": 2}, 40, 50),
    ("spot-on", 3, {"dice": 2, "stash": "open"}, 32, 40),
    ("spot-on", 3, {"dice": 2, "stash": "secret", "next_opener": "winner"}, 32, 40),
    ("spot-on", 5, {"dice": 3, "loss": "difference", "exact_count": "bid-stands"}, 8, 80),
    ("room", 3, {"dice": 2}, 48, 50),
    ("room", 2, {"dice": 1}, 64, 24),
    ("room", 2, {}, 24, 40),
    ("spot-on", 3, {"dice": 2, "resolution": "all-call", "exact": "none"}, 32, 40),
    ("classic", 3, {"dice": 2, "scoring": "room"}, 32, 40),
    ("house-rules", 3, {"dice": 2}, 32, 40),
    ("milton-bradley", 3, {"dice": 3}, 32, 50),
    ("milton-bradley", 2, {"dice": 2}, 48, 30),
    ("classic", 3, {"dice": 3, "show_reroll": "before", "exact": "calza"}, 32, 50),
    ("house-rules", 2, {"dice": 1, "first_opener": "roll-two"}, 96, 24),
]
# every value the environment plays (the table of liarsdice.core.bidding.support) in some case
CASES += [
    ("classic", 3, {"dice": 2, **changes}, 32, 40)
    for changes in cover("jax", [preset(c[0], **c[2]) for c in CASES], preset("classic", dice=2))
]


@pytest.mark.parametrize(
    ("name", "players", "options", "n", "steps"),
    CASES,
    ids=case_ids(CASES),
)
def test_random_games_replay_exactly_through_the_engine(
    name: str, players: int | None, options: dict[str, Any], n: int, steps: int
) -> None:
    assert differential(preset(name, **options), players, n, steps, seed=len(name)) > 0


@pytest.mark.parametrize("name", ["openspiel", "perudo"])
def test_information_state_observations_replay_exactly(name: str) -> None:
    assert differential(preset(name, dice=2), 2, 32, 30, seed=5, history=True) > 0


def test_a_given_opener_opens_every_game() -> None:
    env = JaxBiddingEnv("classic", players=3, opener=2)
    state = jax.vmap(env.init)(jax.random.split(jax.random.key(1), 32))
    assert (np.asarray(state.player) == 2).all()


def test_unbatched_and_batched_steps_agree() -> None:
    env = JaxBiddingEnv("openspiel")  # a small game: compiling dominates
    keys = jax.random.split(jax.random.key(3), 4)
    state = jax.vmap(env.init)(keys)
    actions = jax.vmap(env.sample_action)(state, keys)
    batched = jax.jit(jax.vmap(env.step))(state, actions, keys)
    step = jax.jit(env.step)
    for i in range(4):
        one = step(jax.tree.map(lambda x, i=i: x[i], state), actions[i], keys[i])
        for a, b in zip(jax.tree.leaves(one), jax.tree.leaves(batched), strict=True):
            assert (np.asarray(a) == np.asarray(b)[i]).all()


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("openspiel", {"dice": 2}),  # picks by arithmetic
        ("spot-on", {"dice": 2}),  # arithmetic, with the exact call
        ("perudo", {"dice": 2}),  # the legal-action table
        ("milton-bradley", {"dice": 3}),  # the table, then the hand's shows
        ("classic", {"dice": 3, "show_reroll": "before", "exact": "calza"}),
    ],
)
def test_picks_cover_exactly_the_legal_actions_in_order(name: str, options: Any) -> None:
    """``pick_action`` at the middle of each of the ``L`` equal shares of [0, 1) gives every
    legal action once, in ascending order (so a uniform ``u`` picks a uniform legal action),
    on states of random play."""
    env = JaxBiddingEnv(preset(name, **options), players=3 if name != "openspiel" else 2)
    n, width = 16, env.num_actions
    key = jax.random.key(11)
    state = jax.vmap(env.init)(jax.random.split(key, n))
    grid = jax.jit(
        jax.vmap(
            lambda s, L: jax.vmap(lambda k: env.pick_action(s, (k + 0.5) / L))(jnp.arange(width))
        )
    )
    step = jax.jit(jax.vmap(env.step))
    sample = jax.jit(jax.vmap(env.sample_action))
    mask_of = jax.jit(jax.vmap(env.legal_mask))
    checked = 0
    for t in range(12):
        mask = np.asarray(mask_of(state))
        counts = mask.sum(1)
        picks = np.asarray(grid(state, jnp.asarray(counts, dtype=jnp.float32)))
        for i in range(n):
            legal = np.flatnonzero(mask[i])
            assert list(picks[i, : counts[i]]) == list(legal), (t, i)
            checked += 1
        keys = jax.random.split(jax.random.fold_in(key, t), n)
        state = step(state, sample(state, keys), keys).state
    assert checked == 12 * n


@pytest.mark.parametrize(
    ("name", "options", "named"),
    [
        ("spot-on", {"economy": "chips"}, "economy=chips"),
        ("spot-on", {"calling_advantage": True}, "calling_advantage=true"),
    ],
)
def test_unsupported_options_are_named(name: str, options: dict[str, Any], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        check_supported(preset(name, **options))
    with pytest.raises(RulesError, match=named):
        JaxBiddingEnv(preset(name, **options))


def test_the_cases_play_every_value_the_environment_supports() -> None:
    played = [preset(c[0], **c[2]) for c in CASES]
    assert cover("jax", played, preset("classic")) == []
    for name, value in left_out("jax"):  # and each value left out is refused
        with pytest.raises(RulesError, match=name):
            check_supported(preset("classic", **{name: value}))


def test_importing_the_project_does_not_import_jax() -> None:
    code = (
        "import sys, liarsdice, liarsdice.sim.bidding, liarsdice.families, liarsdice.interop; "
        "assert 'jax' not in sys.modules, 'jax imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
