"""``bench/jax_env.py`` runs and prints its one JSON line (a tiny, quick run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "jax_env.py"


def test_the_bench_prints_one_json_line() -> None:
    pytest.importorskip("jax")
    args = [
        "--envs",
        "16",
        "--seconds",
        "0.2",
        "--reps",
        "1",
        "--chunk",
        "4",
        "--preset",
        "openspiel",
    ]
    out = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, check=True
    ).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["bench"] == "jax_env" and data["envs"] == 16 and data["platform"] == "cpu"
    assert data["transitions_per_s"] > 0 and data["numpy_transitions_per_s"] > 0
    ratio = data["transitions_per_s"] / data["numpy_transitions_per_s"]
    assert abs(data["ratio"] - ratio) <= 1e-9


def test_the_sweep_prints_one_json_line_with_a_row_per_batch_size() -> None:
    pytest.importorskip("jax")
    args = ["--sweep", "--max-log2", "12", "--seconds", "0.1", "--reps", "1", "--chunk", "2"]
    out = subprocess.run(
        [sys.executable, str(BENCH), *args, "--preset", "openspiel"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    assert [row["envs"] for row in data["sweep"]] == [4096]
    assert (
        data["sweep"][0]["transitions_per_s"] > 0 and "numpy_transitions_per_s" in data["sweep"][0]
    )
