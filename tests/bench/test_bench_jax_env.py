"""``bench/jax_env.py`` runs and prints its one JSON line (a tiny, quick run)."""

from __future__ import annotations

import pytest

from bench_util import bench_json


def test_the_bench_prints_one_json_line() -> None:
    pytest.importorskip("jax")
    args = ["--envs", "16", "--seconds", "0.2", "--reps", "1", "--chunk", "4"]
    data = bench_json("jax_env", *args, "--preset", "openspiel")
    assert data["bench"] == "jax_env" and data["envs"] == 16 and data["platform"] == "cpu"
    assert data["transitions_per_s"] > 0 and data["numpy_transitions_per_s"] > 0
    ratio = data["transitions_per_s"] / data["numpy_transitions_per_s"]
    assert abs(data["ratio"] - ratio) <= 1e-9


def test_the_sweep_prints_one_json_line_with_a_row_per_batch_size() -> None:
    pytest.importorskip("jax")
    args = ["--sweep", "--max-log2", "12", "--seconds", "0.1", "--reps", "1", "--chunk", "2"]
    data = bench_json("jax_env", *args, "--preset", "openspiel")
    assert [row["envs"] for row in data["sweep"]] == [4096]
    assert (
        data["sweep"][0]["transitions_per_s"] > 0 and "numpy_transitions_per_s" in data["sweep"][0]
    )
