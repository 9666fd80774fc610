"""The one shape of the learned files: an ``.npz`` of arrays with a JSON ``meta`` entry that
names its format and version (:mod:`~liarsdice.nets.positions`, :mod:`~liarsdice.nets.rounds`).

>>> import io
>>> buf = io.BytesIO()
>>> write_npz(buf, {"format": "demo", "version": 1, "n": 2}, {"x": np.arange(2)})
>>> _ = buf.seek(0)
>>> meta, arrays = read_npz(buf, "demo", 1, ValueError)
>>> meta["n"], arrays["x"].tolist()
(2, [0, 1])
>>> _ = buf.seek(0)
>>> read_npz(buf, "other", 1, ValueError)
Traceback (most recent call last):
...
ValueError: format 'demo' version 1: this program reads other version 1
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

__all__ = ["read_npz", "write_npz"]


def write_npz(
    file: str | Path | IO[bytes], meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]
) -> None:
    """Write ``arrays`` and ``meta`` (as sorted JSON) to a compressed ``.npz``."""
    entries: dict[str, Any] = {**arrays, "meta": np.array(json.dumps(meta, sort_keys=True))}
    np.savez_compressed(file, **entries)


def read_npz(
    file: str | Path | IO[bytes],
    fmt: str,
    version: int | tuple[int, ...],
    error: type[ValueError],
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The ``meta`` and every other array of a file :func:`write_npz` wrote, when its meta
    names format ``fmt`` at ``version`` (or one of the versions); ``error`` (a
    :class:`ValueError` subclass) names what is wrong otherwise."""
    versions = (version,) if isinstance(version, int) else version
    try:
        with np.load(file, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict):
                raise TypeError("its meta is not a JSON object")
            arrays = {k: data[k] for k in data.files if k != "meta"}
    except (OSError, KeyError, ValueError, TypeError) as e:
        raise error(f"not a {fmt} file: {e}") from e
    if meta.get("format") != fmt or meta.get("version") not in versions:
        readable = " or ".join(str(v) for v in versions)
        raise error(
            f"format {meta.get('format')!r} version {meta.get('version')!r}: "
            f"this program reads {fmt} version {readable}"
        )
    return meta, arrays
