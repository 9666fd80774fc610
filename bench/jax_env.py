"""Speed of the JAX environment (:mod:`liarsdice.jax`) beside the NumPy simulator's.

Random play (uniform over the legal actions) of ``N`` games at once: the pgx-shaped
:class:`liarsdice.jax.Env`'s step under :func:`liarsdice.jax.auto_reset` (its state carries
the observation and legal mask of the player to act, the rewards and flags), ``jit``-compiled
with ``vmap`` into one ``lax.scan`` of ``--chunk`` steps per call; the same loop on the
functions underneath (``env.core``: :class:`JaxBiddingEnv`'s step with its built-in reset,
then its observation and mask); and :class:`liarsdice.sim.bidding.VectorEnv` on the same
preset at the same ``N``, in the same run. A *transition* is one game's decision. Prints ONE
JSON line: ``transitions_per_s`` (the pgx-shaped step), ``core_transitions_per_s``,
``numpy_transitions_per_s``, ``ratio`` (pgx-shaped / NumPy), ``core_ratio`` (pgx-shaped /
core), the same per second of the process's CPU time (``cpu_...``: steadier when other work
shares the machine), ``envs``, ``platform`` (``jax.default_backend()``: cpu, gpu or tpu) and
the compile times.

``--sweep`` measures the pgx-shaped step at N = 2^12 .. 2^20 (``--max-log2`` caps it; the
NumPy simulator is measured up to 2^16 only) and prints one line with a ``sweep`` list: for a
GPU, where large batches pay off.

    python bench/jax_env.py [--envs 4096] [--seconds 2] [--preset perudo] [--players 4]
    python bench/jax_env.py --sweep [--max-log2 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from liarsdice.jax import Env, auto_reset
from liarsdice.sim.bidding import VectorEnv


def _words(key: jax.Array, n: int) -> jax.Array:
    """One batched draw per step, one random 32-bit word per game: with a constant it makes
    the two words that pick the game's action (``uniform``) and seed its chance (the step
    takes them in place of a key). (On a CPU the JAX generator is the dearest part of the
    loop: two drawn words a game cost 40% of it.)"""
    word = jax.random.bits(key, (n,), jnp.uint32)
    return jnp.stack([word, jnp.full_like(word, 0x5BD1E995)], axis=1)


def pgx_tick(env: Env, n: int) -> Callable[[Any, jax.Array], Any]:
    """One step of random play through the pgx-shaped API (auto-reset on)."""
    core, step = env.core, jax.vmap(auto_reset(env.step, env.init))

    def one(carry: Any, key: jax.Array) -> tuple[Any, None]:
        state, games, check = carry
        words = _words(key, n)
        actions = jax.vmap(core.pick_action)(state._game, jax.vmap(core.uniform)(words))
        state = step(state, actions, words)
        # what an agent reads, summed so that the compiler cannot leave any of it out
        check = check + state.observation.sum() + state.legal_action_mask.sum(dtype=jnp.int32)
        check = check + state.rewards.sum()
        return (state, games + state.terminated.sum(), check), None

    return one


def core_tick(env: Env, n: int) -> Callable[[Any, jax.Array], Any]:
    """One step of random play through the functions underneath (the step's own reset),
    building every observation and legal mask, as the NumPy simulator does."""
    core = env.core

    def one(carry: Any, key: jax.Array) -> tuple[Any, None]:
        state, games, check = carry
        words = _words(key, n)
        actions = jax.vmap(core.pick_action)(state, jax.vmap(core.uniform)(words))
        out = jax.vmap(core.step)(state, actions, words)
        obs = jax.vmap(core.observe)(out.state)
        mask = jax.vmap(core.legal_mask)(out.state)
        check = check + obs.sum() + mask.sum(dtype=jnp.int32) + out.reward.sum()
        return (out.state, games + out.done.sum(), check), None

    return one


class JaxRun:
    """Random play of ``n`` games in the JAX environment, compiled once: :meth:`rate`.
    ``api``: ``pgx`` (:class:`Env` under ``auto_reset``) or ``core`` (``env.core``)."""

    def __init__(self, env: Env, n: int, chunk: int, seed: int, api: str = "pgx") -> None:
        one = pgx_tick(env, n) if api == "pgx" else core_tick(env, n)

        @jax.jit
        def run(carry: Any, key: jax.Array) -> Any:
            carry, _ = jax.lax.scan(one, carry, jax.random.split(key, chunk))
            return carry

        self.n, self.chunk, self._run = n, chunk, run
        self.key = jax.random.key(seed)
        keys = jax.random.split(self.key, n)
        init = env.init if api == "pgx" else env.core.init
        state = jax.jit(jax.vmap(init))(keys)
        self.carry = (state, jnp.int32(0), jnp.float32(0))
        self.calls = 0
        t0 = time.perf_counter()
        self._call()
        jax.block_until_ready(self.carry)
        self.compile_s = time.perf_counter() - t0

    def _call(self) -> None:
        self.calls += 1
        self.carry = self._run(self.carry, jax.random.fold_in(self.key, self.calls))

    def rate(self, seconds: float) -> tuple[float, float, float]:
        """Play for about ``seconds``: (transitions per second of wall time, per second of
        this process's CPU time, games per second of wall time)."""
        jax.block_until_ready(self.carry)
        games0, calls = int(self.carry[1]), 0
        start, cpu = time.perf_counter(), time.process_time()
        while True:
            self._call()
            calls += 1
            jax.block_until_ready(self.carry)
            if time.perf_counter() - start >= seconds:
                break
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        done = calls * self.chunk * self.n
        return done / elapsed, done / cpu, (int(self.carry[1]) - games0) / elapsed


def numpy_rate(env: VectorEnv, seconds: float, seed: int) -> tuple[float, float]:
    """The NumPy simulator's random play for about ``seconds``: transitions per second of
    wall time and of CPU time."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(10):
        env.step(env.sample_actions(rng))
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        for _ in range(10):
            env.step(env.sample_actions(rng))
        steps += 10
        if time.perf_counter() - start >= seconds:
            break
    done = steps * env.num_envs
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def pin(cpu: int | None) -> int | None:
    """Pin this process to one core (the first allowed one by default), as bench/sim.py does:
    JAX's compiled loops and NumPy then get the same single core."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {core})
    return core


def measure(args: argparse.Namespace, env: Env, n: int, others: bool) -> dict[str, Any]:
    """Interleaved repetitions at batch size ``n`` of the pgx-shaped step and, with
    ``others``, the core step and the NumPy simulator: medians (and every run), per second
    of wall time and (``cpu_``) of this process's CPU time (steadier on a shared machine)."""
    runs = {"pgx": JaxRun(env, n, args.chunk, args.seed)}
    if others:
        runs["core"] = JaxRun(env, n, args.chunk, args.seed, api="core")
    sim = VectorEnv(args.preset, n, players=args.players, seed=args.seed) if others else None
    wall: dict[str, list[float]] = {name: [] for name in [*runs, "numpy"]}
    cpu: dict[str, list[float]] = {name: [] for name in wall}
    games: list[float] = []
    for rep in range(args.reps):
        for name, run in runs.items():
            rate, cpu_rate, g = run.rate(args.seconds)
            wall[name].append(rate)
            cpu[name].append(cpu_rate)
            if name == "pgx":
                games.append(g)
        if sim is not None:
            rate, cpu_rate = numpy_rate(sim, args.seconds, args.seed + rep)
            wall["numpy"].append(rate)
            cpu["numpy"].append(cpu_rate)
    out: dict[str, Any] = {"envs": n, "games_per_s": statistics.median(games)}
    for name in wall if others else ["pgx"]:
        prefix = "" if name == "pgx" else f"{name}_"
        out[f"{prefix}transitions_per_s"] = statistics.median(wall[name])
        out[f"{prefix}cpu_transitions_per_s"] = statistics.median(cpu[name])
        out[f"{prefix}runs"] = [round(r) for r in wall[name]]
        if name in runs:
            out[f"{prefix}compile_s"] = round(runs[name].compile_s, 3)
    if others:
        for tag in ("", "cpu_"):
            mine = out[f"{tag}transitions_per_s"]
            out[f"{tag}ratio"] = mine / out[f"numpy_{tag}transitions_per_s"]
            out[f"{tag}core_ratio"] = mine / out[f"core_{tag}transitions_per_s"]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--seconds", type=float, default=2.0, help="per repetition")
    ap.add_argument("--reps", type=int, default=3, help="interleaved repetitions")
    ap.add_argument("--preset", default="perudo")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=128, help="steps per compiled call")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cpu", type=int, default=None, help="core to pin to (CPU platform)")
    ap.add_argument("--all-cores", action="store_true", help="do not pin to one core")
    ap.add_argument("--sweep", action="store_true", help="N = 2^12 .. 2^max-log2")
    ap.add_argument("--max-log2", type=int, default=20)
    args = ap.parse_args(argv)
    core = None if args.all_cores else pin(args.cpu)  # before JAX starts its backend
    env = Env(args.preset, players=args.players)
    platform = jax.default_backend()
    base: dict[str, Any] = {
        "bench": "jax_env",
        "preset": args.preset,
        "players": env.num_players,
        "platform": platform,
        "devices": [str(d) for d in jax.devices()],
        "core": core if platform == "cpu" else None,
        "chunk": args.chunk,
        "reps": args.reps,
        "seconds": args.seconds,
    }
    if args.sweep:
        rows = [
            measure(args, env, 2**log2, others=log2 <= 16) for log2 in range(12, args.max_log2 + 1)
        ]
        print(json.dumps({**base, "sweep": rows}))
        return
    print(json.dumps({**base, **measure(args, env, args.envs, others=True)}))


if __name__ == "__main__":
    main()
