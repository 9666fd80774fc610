"""``bench/engine.py`` runs its four loops (by default the RL loop as code written for
OpenSpiel runs it: chance from ``chance_outcomes()``, NumPy information-state tensors,
``returns()``; with ``--loops all`` also OpenSpiel's with ``returns()``, the RL loop with
tensors as lists, the old playout) on every workload and prints its table (a tiny, quick
run)."""

from __future__ import annotations

import subprocess
import sys

from bench_util import BENCH, load_bench


def _run(*extra: str) -> tuple[str, list[str]]:
    """A tiny run of the bench: its output and its table's rows."""
    args = ["--seconds", "0.02", "--runs", "1", "--slice", "0.01", *extra]
    out = subprocess.run(
        [sys.executable, str(BENCH / "engine.py"), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return out, out[out.index("| loop | workload |") :].splitlines()[2:]


def test_the_bench_times_the_spiel_loop_by_default() -> None:
    _, table = _run()
    bench = load_bench("engine")
    assert len(table) == len(bench.WORKLOADS)
    assert all(row.startswith(f"| {bench.LOOPS['spiel']} |") for row in table)


def test_the_bench_runs_every_loop_and_prints_its_table() -> None:
    out, table = _run("--loops", "all")
    bench = load_bench("engine")
    assert len(table) == len(bench.LOOPS) * len(bench.WORKLOADS)
    for label in bench.LOOPS.values():
        assert sum(row.startswith(f"| {label} |") for row in table) == len(bench.WORKLOADS)
    assert "no returns() (earlier bench)" in out


def test_every_loop_plays_whole_games_and_asks_who_won() -> None:
    bench = load_bench("engine")
    for loop in bench.LOOPS:
        games, actions, elapsed = bench.ours_slice("openspiel", 2, 1, 0, loop)(0.001)
        assert games >= 20 and actions >= 3 * games and elapsed > 0
        spiel = bench.pyspiel_slice(1, 0, loop)
        if spiel is not None:
            games, actions, elapsed = spiel(0.001)
            assert games >= 20 and actions >= 3 * games
