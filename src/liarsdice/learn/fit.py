"""Fitting an :class:`~liarsdice.nets.mlp.MLP` with JAX and optax, checkpointed per epoch.

:func:`fit` trains on arrays ``x`` (rows) and ``y`` with Adam, one shuffled pass over the
data per epoch (the order drawn from ``(seed, epoch)`` alone), and after every epoch writes
``checkpoint.npz`` in ``folder``: the weights, the optimiser's state and the epoch. Called
again with the same folder it goes on from there, and ends with the same weights as a run
that was never interrupted (the checkpoint holds everything the next epoch reads).

>>> import numpy as np, tempfile
>>> x = np.random.default_rng(0).random((256, 3), dtype=np.float32)
>>> y = (x.sum(1) > 1.5).astype(np.float32)[:, None]
>>> with tempfile.TemporaryDirectory() as tmp:
...     net = fit(x, y, [3, 8, 1], epochs=30, batch=32, learning_rate=1e-2, folder=tmp, seed=1)
>>> float(((net(x) > 0.5) == (y > 0.5)).mean()) > 0.9
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
import optax

from liarsdice.nets.mlp import MLP

__all__ = ["LOSSES", "fit"]

LOSSES = {"bce": "sigmoid", "mse": "linear"}  # loss -> the output layer it trains
CHECKPOINT = "checkpoint.npz"

Params = list[tuple[jax.Array, jax.Array]]


def forward(params: Params, x: jax.Array) -> jax.Array:
    h = x
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        if i < len(params) - 1:
            h = jax.nn.relu(h)
    return h


def loss_fn(loss: str) -> Callable[[Params, jax.Array, jax.Array], jax.Array]:
    def bce(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
        out: jax.Array = optax.sigmoid_binary_cross_entropy(forward(params, x), y).mean()
        return out

    def mse(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
        return jnp.mean((forward(params, x) - y) ** 2)

    return {"bce": bce, "mse": mse}[loss]


def fit(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    sizes: list[int],
    *,
    loss: str = "bce",
    epochs: int = 50,
    batch: int = 512,
    learning_rate: float = 3e-3,
    weight_decay: float = 1e-4,
    folder: str | Path,
    seed: int = 0,
    max_seconds: float | None = None,
    meta: dict[str, Any] | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> MLP:
    """Train an MLP of layer widths ``sizes`` on ``(x, y)`` for ``epochs`` epochs, or fewer
    when ``max_seconds`` runs out first (a later call with the same folder goes on). The
    returned network's ``meta`` holds ``meta``, the epochs done and the last epoch's loss.
    ``progress(epoch, loss)`` is told after each epoch."""
    if loss not in LOSSES:
        raise ValueError(f"loss {loss!r}: one of {', '.join(LOSSES)}")
    xs = np.asarray(x, dtype=np.float32)
    ys = np.asarray(y, dtype=np.float32).reshape(len(xs), -1)
    if xs.ndim != 2 or xs.shape[1] != sizes[0] or ys.shape[1] != sizes[-1]:
        raise ValueError(f"data {xs.shape} -> {ys.shape} does not fit layer sizes {sizes}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    start = MLP.create(sizes, output=LOSSES[loss], seed=seed)
    params: Params = [
        (jnp.asarray(w), jnp.asarray(b)) for w, b in zip(start.weights, start.biases, strict=True)
    ]
    optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
    opt_state = optimizer.init(params)
    epoch, last_loss = 0, float("nan")
    saved = folder / CHECKPOINT
    if saved.exists():
        params, opt_state, epoch, last_loss = restore_checkpoint(
            saved, params, opt_state, sizes, seed
        )
    value_and_grad = jax.value_and_grad(loss_fn(loss))

    @jax.jit
    def step(params: Params, opt_state: Any, xb: jax.Array, yb: jax.Array) -> Any:
        value, grads = value_and_grad(params, xb, yb)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    began = time.monotonic()
    n = len(xs)
    while epoch < epochs:
        if max_seconds is not None and time.monotonic() - began > max_seconds:
            break
        order = np.random.default_rng([seed, epoch]).permutation(n)
        total = 0.0
        for lo in range(0, n, batch):
            idx = order[lo : lo + batch]
            params, opt_state, value = step(params, opt_state, xs[idx], ys[idx])
            total += float(value) * len(idx)
        epoch += 1
        last_loss = total / n
        save_checkpoint(saved, params, opt_state, epoch, last_loss, sizes, seed)
        if progress is not None:
            progress(epoch, last_loss)
    weights = tuple(np.asarray(w, dtype=np.float32) for w, _ in params)
    biases = tuple(np.asarray(b, dtype=np.float32) for _, b in params)
    info = {**(meta or {}), "epochs": epoch, "loss": last_loss, "seed": seed}
    return MLP(weights, biases, LOSSES[loss], info)


def save_checkpoint(
    path: Path, params: Params, opt_state: Any, epoch: int, loss: float, sizes: list[int], seed: int
) -> None:
    leaves = jax.tree_util.tree_leaves((params, opt_state))
    head = {"epoch": epoch, "loss": loss, "sizes": sizes, "seed": seed, "leaves": len(leaves)}
    arrays: dict[str, Any] = {f"a{i}": np.asarray(v) for i, v in enumerate(leaves)}
    arrays["head"] = np.array(json.dumps(head))
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)  # a checkpoint is whole or absent, never half written


def restore_checkpoint(
    path: Path, params: Params, opt_state: Any, sizes: list[int], seed: int
) -> tuple[Params, Any, int, float]:
    with np.load(path) as data:
        head = json.loads(str(data["head"]))
        if head["sizes"] != sizes or head["seed"] != seed:
            raise ValueError(
                f"{path} is a checkpoint of layers {head['sizes']} and seed {head['seed']}, "
                f"not {sizes} and {seed}: use another folder"
            )
        leaves = [jnp.asarray(data[f"a{i}"]) for i in range(head["leaves"])]
    treedef = jax.tree_util.tree_structure((params, opt_state))
    params, opt_state = jax.tree_util.tree_unflatten(treedef, leaves)
    return params, opt_state, int(head["epoch"]), float(head["loss"])
