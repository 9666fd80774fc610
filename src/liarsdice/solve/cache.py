"""Solved policies, kept for the process and cached on disk per user.

:func:`cached_policy` returns a game's :class:`~liarsdice.solve.policy.Policy` solved to an
exploitability target: from memory when this process solved it already, else from the user's
cache directory when a valid file is there, else solved (``callback`` sees each exploitability
check) and written to the cache. Small games (under :data:`DISK_MIN_NODES` public nodes, a
second or less) are solved in memory only.

The directory is ``platformdirs.user_cache_dir("liarsdice")/policies`` (``~/.cache/liarsdice``
on Linux), or ``$LIARSDICE_CACHE_DIR/policies``. A file is named by the game and the SHA-256
of everything that determines the solution: the rules (name and every option), the dice, the
faces, the target, the algorithm and :data:`SOLVER_VERSION`. It is written atomically (a
temporary file in the same directory, then renamed) and checked when read: its recorded key,
the arrays' shapes and types, their SHA-256, finite non-negative values. A file that fails any
check is ignored and solved again (and replaced), never trusted.

>>> from liarsdice.solve.tree import make_game
>>> game = make_game("openspiel", (1, 1), faces=3)
>>> cached_policy(game, target=1e-4) is cached_policy(game, target=1e-4)
True
>>> cached_policy(game, target=1e-4).exploitability() <= 1e-4
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from liarsdice.core.bidding.game import Game
from liarsdice.solve.cfr import Algorithm, Progress, solve
from liarsdice.solve.memo import Memo
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, PublicTree

__all__ = [
    "CACHE_ENV",
    "DISK_MIN_NODES",
    "MEMORY",
    "SOLVER_VERSION",
    "cache_dir",
    "cache_key",
    "cache_path",
    "cached_policy",
    "is_cached",
    "read_policy",
    "write_policy",
]

#: Bump when the solver's output for the same inputs changes: old cache files stop matching.
SOLVER_VERSION = 2
#: The environment variable that moves the cache (tests point it at a temporary directory).
CACHE_ENV = "LIARSDICE_CACHE_DIR"
#: Games with at least this many public nodes are cached on disk (smaller ones take a second
#: or less to solve).
DISK_MIN_NODES = 1 << 15
_FORMAT = "liarsdice-policy-cache"
#: The size limit of a game whose policy is read from the disk cache (it was solved already,
#: e.g. two dice each with 6 faces by ``liarsdice solve --cache --max-gib 16``).
LOAD_MAX_BYTES = 1 << 40

#: The policies this process solved or read, by their key's digest: one per game, for the
#: process's life (a game's policy is solved once); ``MEMORY.clear()`` forgets them (the next
#: request reads the disk cache or solves again, as a new process would).
MEMORY: Memo[tuple[str, ...], Policy] = Memo()
_LOCK = threading.Lock()


def cache_dir() -> Path:
    """Where solved policies are cached (see the module docstring)."""
    base = os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("liarsdice")
    return Path(base) / "policies"


def cache_key(game: Game, target: float, algorithm: str = "dcfr") -> dict[str, Any]:
    """Everything that determines the cached solution, as JSON-friendly data."""
    rules = game.rules
    options = dict(rules.options())
    dice = list(game.start_dice)
    # One game, one key, whether its dice were given as 2 or as (2, 2).
    options["dice"] = dice[0] if len(set(dice)) == 1 else dice
    return {
        "format": _FORMAT,
        "solver": SOLVER_VERSION,
        "rules": rules.name,
        "options": options,
        "dice": list(game.start_dice),
        "faces": rules.faces,
        "target": float(target),
        "algorithm": algorithm,
    }


def _digest(key: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def cache_path(game: Game, target: float, algorithm: str = "dcfr") -> Path:
    """The cache file of ``game`` solved to ``target``."""
    key = cache_key(game, target, algorithm)
    dice = "x".join(str(d) for d in game.start_dice)
    name = f"{game.rules.name}-{dice}-{game.rules.faces}f-{_digest(key)[:24]}.npz"
    return cache_dir() / name


def is_cached(game: Game, target: float = 1e-3, algorithm: str = "dcfr") -> bool:
    """Whether the disk cache holds a file for ``game`` solved to ``target`` (its checks run
    when it is read). A game too large to solve on first use is played from the equilibrium
    once it is here (``liarsdice solve --cache``).

    >>> from liarsdice.solve.tree import make_game
    >>> is_cached(make_game("openspiel", (1, 1), faces=2), target=0.5)   # small: memory only
    False
    """
    return cache_path(game, target, algorithm).is_file()


def _checksum(seqs: tuple[np.ndarray[Any, Any], ...]) -> str:
    h = hashlib.sha256()
    for s in seqs:
        h.update(np.ascontiguousarray(s).data)
    return h.hexdigest()


def write_policy(policy: Policy, path: Path, key: dict[str, Any]) -> None:
    """Write ``policy`` to ``path`` atomically, with its key and checksum."""
    meta = {"key": key, "sha256": _checksum(policy.seqs), "info": policy.info}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(
                f, seq0=policy.seqs[0], seq1=policy.seqs[1], meta=np.array(json.dumps(meta))
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_policy(path: Path, key: dict[str, Any], tree: PublicTree) -> Policy | None:
    """The policy cached in ``path`` for ``key`` and ``tree``, or None when the file is
    missing, unreadable, for another key, or fails its checks."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            seqs = (data["seq0"], data["seq1"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    for p, s in enumerate(seqs):
        if s.shape != (2, tree.half, len(tree.rolls[p])) or s.dtype.kind != "f":
            return None
    if meta.get("sha256") != _checksum(seqs):
        return None
    if not all(np.isfinite(s).all() and (s >= 0).all() for s in seqs):
        return None
    info = meta.get("info")
    return Policy(tree, seqs, info if isinstance(info, dict) else None)


def cached_policy(
    game: Game,
    *,
    target: float = 1e-3,
    algorithm: Algorithm = "dcfr",
    callback: Callable[[Progress], None] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    disk: bool | None = None,
) -> Policy:
    """``game``'s policy solved to exploitability ``target`` (see the module docstring).

    ``disk``: use the disk cache (default: for games of at least :data:`DISK_MIN_NODES`
    nodes). A cache directory that cannot be written only costs the next process a solve.
    ``max_bytes`` bounds a solve; a policy already on disk is read whatever its game's size
    (playing it needs the tree and the plans, not the solver's arrays).
    """
    key = cache_key(game, target, algorithm)
    memo = (_digest(key),)
    with _LOCK:  # one solve per game at a time, whatever the threads
        policy = MEMORY.get(memo)
        if policy is not None:
            return policy
        path = cache_path(game, target, algorithm)
        on_disk = disk is not False and path.is_file()
        tree = PublicTree(game, max_bytes=max(max_bytes, LOAD_MAX_BYTES) if on_disk else max_bytes)
        use_disk = tree.num_nodes >= DISK_MIN_NODES if disk is None else disk
        policy = read_policy(path, key, tree) if use_disk and on_disk else None
        if policy is None and on_disk:
            tree = PublicTree(game, max_bytes=max_bytes)  # a bad file: solve within the limit
        if policy is None:
            result = solve(
                tree, target=target, algorithm=algorithm, callback=callback, max_bytes=max_bytes
            )
            policy = Policy.from_result(result)
            if use_disk:
                with contextlib.suppress(OSError):
                    write_policy(policy, path, key)
        MEMORY.put(memo, policy)
        return policy
