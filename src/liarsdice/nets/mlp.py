"""A multilayer perceptron in NumPy: weights, the ``.npz`` file format, the forward pass.

The file (format ``liarsdice-mlp``, version 1) holds ``W0, b0, W1, b1, ...`` (float32; ``Wi``
of shape (inputs, outputs)) and ``meta``, a JSON string: ``format``, ``version``, ``sizes``
(every layer's width, inputs first), ``hidden`` (the hidden layers' activation: ``relu``),
``output`` (``sigmoid``, ``softmax`` or ``linear``) and whatever the trainer records (the
command, the seed, the data). Training (:mod:`liarsdice.learn`) writes it; playing only reads.

>>> import numpy as np
>>> net = MLP.create([3, 4, 1], output="sigmoid", seed=0)
>>> x = np.array([[1.0, 0.0, 2.0]], dtype=np.float32)
>>> y = net(x)
>>> y.shape, bool(0.0 < y[0, 0] < 1.0)
((1, 1), True)
>>> import io
>>> buf = io.BytesIO(); net.save(buf); _ = buf.seek(0)
>>> bool(np.allclose(MLP.load(buf)(x), y))
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from liarsdice.nets.npz import read_npz, write_npz

__all__ = ["FORMAT", "MLP", "VERSION", "NetFormatError"]

FORMAT = "liarsdice-mlp"
VERSION = 1
OUTPUTS = ("sigmoid", "softmax", "linear")

Floats = npt.NDArray[np.float32]


class NetFormatError(ValueError):
    """A network file that is not a ``liarsdice-mlp`` file this version reads."""


@dataclass(frozen=True)
class MLP:
    """Dense layers with ReLU between them and ``output`` at the end."""

    weights: tuple[Floats, ...]
    biases: tuple[Floats, ...]
    output: str = "linear"
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.output not in OUTPUTS:
            raise NetFormatError(f"output {self.output!r}: one of {', '.join(OUTPUTS)}")
        if len(self.weights) != len(self.biases) or not self.weights:
            raise NetFormatError("an MLP needs as many bias vectors as weight matrices (1+)")
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise NetFormatError(f"layer {i}: weights {w.shape} and biases {b.shape} differ")
            if i and w.shape[0] != self.weights[i - 1].shape[1]:
                raise NetFormatError(
                    f"layer {i} takes {w.shape[0]} inputs, layer {i - 1} gives "
                    f"{self.weights[i - 1].shape[1]}"
                )

    @property
    def sizes(self) -> list[int]:
        """Every layer's width, the inputs first."""
        return [self.weights[0].shape[0], *(w.shape[1] for w in self.weights)]

    @classmethod
    def create(cls, sizes: list[int], *, output: str = "linear", seed: int = 0) -> MLP:
        """Random weights (He initialisation), zero biases: a starting point for training."""
        rng = np.random.default_rng(seed)
        weights = tuple(
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        )
        biases = tuple(np.zeros(b, dtype=np.float32) for b in sizes[1:])
        return cls(weights, biases, output)

    def __call__(self, x: npt.ArrayLike) -> Floats:
        """The outputs for a batch of inputs (rows)."""
        h = np.asarray(x, dtype=np.float32)
        if h.ndim != 2 or h.shape[1] != self.sizes[0]:
            raise ValueError(f"inputs of shape {h.shape}: expected (rows, {self.sizes[0]})")
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        if self.output == "sigmoid":
            out: Floats = (1.0 / (1.0 + np.exp(-h))).astype(np.float32)
            return out
        if self.output == "softmax":
            e = np.exp(h - h.max(axis=1, keepdims=True))
            soft: Floats = e / e.sum(axis=1, keepdims=True)
            return soft
        return h

    def save(self, file: str | Path | IO[bytes]) -> None:
        """Write the ``.npz`` file (see the module's docstring)."""
        meta = {
            **self.meta,
            "format": FORMAT,
            "version": VERSION,
            "sizes": self.sizes,
            "hidden": "relu",
            "output": self.output,
        }
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"W{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        write_npz(file, meta, arrays)

    @classmethod
    def load(cls, file: str | Path | IO[bytes]) -> MLP:
        """Read a file :meth:`save` wrote; :class:`NetFormatError` names what is wrong."""
        meta, arrays = read_npz(file, FORMAT, VERSION, NetFormatError)
        try:
            layers = len(meta["sizes"]) - 1
            weights = tuple(arrays[f"W{i}"].astype(np.float32) for i in range(layers))
            biases = tuple(arrays[f"b{i}"].astype(np.float32) for i in range(layers))
        except (KeyError, TypeError) as e:
            raise NetFormatError(f"not a {FORMAT} file: {e}") from e
        if meta.get("hidden") != "relu":
            raise NetFormatError(f"hidden activation {meta.get('hidden')!r}: only relu")
        extra = {k: v for k, v in meta.items() if k not in ("sizes", "hidden", "output")}
        return cls(weights, biases, meta["output"], extra)
