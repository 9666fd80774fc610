"""``bench/sim.py`` runs and prints its one JSON line (a tiny, quick run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "sim.py"


def test_the_bench_prints_one_json_line() -> None:
    args = ["--envs", "64", "--seconds", "0.05", "--reps", "1"]
    out = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, check=True
    ).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
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
