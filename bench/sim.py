"""Speed of the batched simulator against OpenSpiel's single-game C++ engine, on one core.

Random play (uniform over the legal actions) on the ``openspiel`` preset: ``N`` = 4,096 games
in :class:`liarsdice.sim.VectorEnv`, and, when ``pyspiel`` imports, OpenSpiel's own
``liars_dice`` (the same game) played one game at a time through its Python API, both pinned
to the same core, in interleaved repetitions. Prints one JSON line.

A *transition* is a player's decision (one env step of one game); chance outcomes are not
counted (the batched simulator draws them inside a step; OpenSpiel's loop applies them too,
and its count with them is reported as ``pyspiel_events_per_s``). Games per second are
reported for both as well. The ratio is of the medians.

    python bench/sim.py [--envs 4096] [--seconds 2] [--reps 3] [--preset openspiel]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no BLAS threads (set before NumPy loads)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from liarsdice.sim.bidding import VectorEnv  # noqa: E402


def batched(env: VectorEnv, seconds: float, seed: int) -> tuple[float, float]:
    """Random play for ``seconds``: (transitions/s, games/s)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(20):  # warm up
        env.step(env.sample_actions(rng))
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            _, _, terminated, _, _ = env.step(env.sample_actions(rng))
            games += int(np.count_nonzero(terminated))
        steps += 10
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return steps * env.num_envs / elapsed, games / elapsed


def single_game(game: Any, seconds: float, seed: int) -> tuple[float, float, float]:
    """OpenSpiel random play for ``seconds``: (decisions/s, events/s with chance, games/s)."""
    rnd = random.Random(seed).random
    decisions = events = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()  # uniform: fair dice
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rnd() * len(legal))])
                    decisions += 1
                events += 1
            games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return decisions / elapsed, events / elapsed, games / elapsed


def pin(cpu: int | None) -> int | None:
    """Pin this process to one core (the first allowed one by default)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {core})
    return core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="openspiel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=2.0, help="per repetition and side")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to")
    args = parser.parse_args()
    core = pin(args.cpu)
    env = VectorEnv(args.preset, args.envs, players=args.players, seed=1)
    try:
        import pyspiel  # type: ignore[import-not-found]

        reference = pyspiel.load_game("liars_dice")
    except ImportError:
        reference = None
    sim_runs: list[tuple[float, float]] = []
    ref_runs: list[tuple[float, float, float]] = []
    for rep in range(args.reps):
        sim_runs.append(batched(env, args.seconds, seed=rep))
        if reference is not None:
            ref_runs.append(single_game(reference, args.seconds, seed=rep))
    out: dict[str, Any] = {
        "bench": "sim",
        "preset": args.preset,
        "players": env.num_players,
        "envs": args.envs,
        "cpu": core,
        "reps": args.reps,
        "seconds": args.seconds,
        "sim_transitions_per_s": round(statistics.median(r[0] for r in sim_runs)),
        "sim_games_per_s": round(statistics.median(r[1] for r in sim_runs)),
        "sim_runs": [round(r[0]) for r in sim_runs],
    }
    if ref_runs:
        ref = statistics.median(r[0] for r in ref_runs)
        ref_games = statistics.median(r[2] for r in ref_runs)
        out |= {
            "pyspiel_game": "liars_dice",
            "pyspiel_transitions_per_s": round(ref),
            "pyspiel_events_per_s": round(statistics.median(r[1] for r in ref_runs)),
            "pyspiel_games_per_s": round(ref_games),
            "pyspiel_runs": [round(r[0]) for r in ref_runs],
            "ratio": round(out["sim_transitions_per_s"] / ref, 2),
            "ratio_games": round(out["sim_games_per_s"] / ref_games, 2),
        }
    else:
        out["pyspiel_game"] = None  # pyspiel not installed: no reference measured
    print(json.dumps(out))


if __name__ == "__main__":
    main()
