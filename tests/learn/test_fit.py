"""Training (:mod:`liarsdice.learn`, JAX and optax): checkpoints resume to the same weights,
and ``liarsdice learn positions`` writes a model the expert reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from click.testing import CliRunner

from liarsdice.cli.main import cli
from liarsdice.core.bidding import preset
from liarsdice.learn.fit import fit
from liarsdice.nets import MLP, PositionValues


def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    x = rng.random((300, 4), dtype=np.float32)
    return x, (x[:, :2].sum(1) > x[:, 2:].sum(1)).astype(np.float32)[:, None]


def test_an_interrupted_fit_resumes_to_the_same_weights(tmp_path: Path) -> None:
    x, y = data()
    whole = fit(x, y, [4, 8, 1], epochs=6, batch=64, folder=tmp_path / "a", seed=2)
    fit(x, y, [4, 8, 1], epochs=2, batch=64, folder=tmp_path / "b", seed=2)  # stopped after 2
    resumed = fit(x, y, [4, 8, 1], epochs=6, batch=64, folder=tmp_path / "b", seed=2)
    assert resumed.meta["epochs"] == whole.meta["epochs"] == 6
    for w1, w2 in zip(whole.weights, resumed.weights, strict=True):
        assert np.array_equal(w1, w2)
    other = fit(x, y, [4, 8, 1], epochs=6, batch=64, folder=tmp_path / "c", seed=3)
    assert not np.array_equal(other.weights[0], whole.weights[0])  # the seed matters
    with pytest.raises(ValueError, match="checkpoint of layers \\[4, 8, 1\\] and seed 2"):
        fit(x, y, [4, 9, 1], epochs=6, folder=tmp_path / "b", seed=2)
    with pytest.raises(ValueError, match="loss 'hinge'"):
        fit(x, y, [4, 8, 1], loss="hinge", folder=tmp_path / "d")


def test_learn_positions_writes_a_model_the_expert_reads_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "learned"
    args = ["learn", "positions", "--rules", "classic", "--games", "2", "--epochs", "2",
            "--out", str(out)]  # fmt: skip
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    path = out / "positions-classic.npz"
    values = PositionValues(MLP.load(path))
    assert values.fits(preset("classic"), 4) and not values.fits(preset("perudo"), 4)
    assert values.net.meta["games_per_seat_count"] == 2 and values.net.meta["samples"] > 0
    again = CliRunner().invoke(cli, args)  # everything is there: nothing is played again
    assert again.exit_code == 0 and "games" not in again.output.replace("Wrote", "")
    assert np.array_equal(MLP.load(path).weights[0], values.net.weights[0])
    bad = CliRunner().invoke(cli, [*args[:-2], "--games", "3", "--out", str(out)])
    assert bad.exit_code == 2 and "holds 2 games a seat count, not 3" in bad.output
