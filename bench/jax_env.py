"""Speed of the JAX environment (:mod:`liarsdice.jax`) beside the NumPy simulator's.

Random play (uniform over the legal actions) of ``N`` games at once: the JAX environment
``jit``-compiles ``vmap``-ed steps into one ``lax.scan`` of ``--chunk`` steps per call (each
step draws the actions, steps, and builds every observation and legal mask, as the NumPy
simulator does), and :class:`liarsdice.sim.bidding.VectorEnv` plays the same preset at the
same ``N`` in the same run. A *transition* is one game's decision. Prints ONE JSON line:
``transitions_per_s`` (JAX), ``numpy_transitions_per_s``, ``ratio``, ``envs``, ``platform``
(``jax.default_backend()``: cpu, gpu or tpu) and the compile time.

``--sweep`` measures the JAX environment at N = 2^12 .. 2^20 (``--max-log2`` caps it; the
NumPy simulator is measured up to 2^16 only) and prints one line with a ``sweep`` list: for a
GPU, where large batches pay off.

    python bench/jax_env.py [--envs 4096] [--seconds 2] [--preset perudo] [--players 4]
    python bench/jax_env.py --sweep [--max-log2 20]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import jax.numpy as jnp
import numpy as np

import jax
from liarsdice.jax import JaxBiddingEnv
from liarsdice.sim.bidding import VectorEnv


def jax_rate(env: JaxBiddingEnv, n: int, seconds: float, chunk: int, seed: int) -> dict[str, Any]:
    """Random play of ``n`` games for about ``seconds``: transitions/s, games/s, compile s."""

    def one(carry: Any, key: jax.Array) -> tuple[Any, None]:
        state, games, check = carry
        k1, k2 = jax.random.split(key)
        # one batched draw per step: a uniform per game picks its action, and two random
        # words per game seed its chance (step takes them in place of a key)
        actions = jax.vmap(env.pick_action)(state, jax.random.uniform(k1, (n,)))
        out = jax.vmap(env.step)(state, actions, jax.random.bits(k2, (n, 2), jnp.uint32))
        # what an agent reads, as the NumPy simulator builds it every step: summed, so that
        # the compiler cannot leave any of it out
        obs = jax.vmap(env.observe)(out.state)
        mask = jax.vmap(env.legal_mask)(out.state)
        check = check + obs.sum() + mask.sum(dtype=jnp.int32)
        return (out.state, games + out.done.sum(), check), None

    @jax.jit
    def run(carry: Any, key: jax.Array) -> Any:
        carry, _ = jax.lax.scan(one, carry, jax.random.split(key, chunk))
        return carry

    key = jax.random.key(seed)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, n))
    carry = (state, jnp.int32(0), jnp.float32(0))
    t0 = time.perf_counter()
    carry = jax.block_until_ready(run(carry, jax.random.fold_in(key, 1)))
    compile_s = time.perf_counter() - t0
    games0 = int(carry[1])
    calls = 0
    start = time.perf_counter()
    while True:
        carry = run(carry, jax.random.fold_in(key, calls + 2))
        calls += 1
        jax.block_until_ready(carry)
        if time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    return {
        "transitions_per_s": calls * chunk * n / elapsed,
        "games_per_s": (int(carry[1]) - games0) / elapsed,
        "compile_s": round(compile_s, 3),
    }


def numpy_rate(env: VectorEnv, seconds: float, seed: int) -> float:
    """The NumPy simulator's random play for about ``seconds``: transitions/s."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(10):
        env.step(env.sample_actions(rng))
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(10):
            env.step(env.sample_actions(rng))
        steps += 10
        if time.perf_counter() - start >= seconds:
            break
    return steps * env.num_envs / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--preset", default="perudo")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=32, help="steps per compiled call")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sweep", action="store_true", help="N = 2^12 .. 2^max-log2")
    ap.add_argument("--max-log2", type=int, default=20)
    args = ap.parse_args(argv)
    env = JaxBiddingEnv(args.preset, players=args.players)
    base: dict[str, Any] = {
        "bench": "jax_env",
        "preset": args.preset,
        "players": env.num_players,
        "platform": jax.default_backend(),
        "devices": [str(d) for d in jax.devices()],
        "chunk": args.chunk,
    }
    if args.sweep:
        rows = []
        for log2 in range(12, args.max_log2 + 1):
            n = 2**log2
            row: dict[str, Any] = {"envs": n}
            row.update(jax_rate(env, n, args.seconds, args.chunk, args.seed))
            if log2 <= 16:
                sim = VectorEnv(args.preset, n, players=args.players, seed=args.seed)
                row["numpy_transitions_per_s"] = numpy_rate(sim, args.seconds, args.seed)
            rows.append(row)
        print(json.dumps({**base, "sweep": rows}))
        return
    out = jax_rate(env, args.envs, args.seconds, args.chunk, args.seed)
    sim = VectorEnv(args.preset, args.envs, players=args.players, seed=args.seed)
    np_rate = numpy_rate(sim, args.seconds, args.seed)
    print(
        json.dumps(
            {
                **base,
                "envs": args.envs,
                **out,
                "numpy_transitions_per_s": np_rate,
                "ratio": out["transitions_per_s"] / np_rate,
            }
        )
    )


if __name__ == "__main__":
    main()
