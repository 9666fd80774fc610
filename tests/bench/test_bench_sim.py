"""``bench/sim.py`` runs and prints its one JSON line (a tiny, quick run)."""

from __future__ import annotations

from bench_util import bench_json


def test_the_bench_prints_one_json_line() -> None:
    data = bench_json("sim", "--envs", "64", "--seconds", "0.05", "--reps", "1")
    assert data["bench"] == "sim" and data["envs"] == 64 and data["preset"] == "openspiel"
    assert data["sim_transitions_per_s"] > 0 and len(data["sim_runs"]) == 1
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        assert data["pyspiel_game"] is None
    else:
        assert data["pyspiel_game"] == "liars_dice"
        ratio = data["sim_transitions_per_s"] / data["pyspiel_transitions_per_s"]
        assert abs(data["ratio"] - ratio) <= 0.01
