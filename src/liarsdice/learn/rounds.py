"""Learning two-player single rounds by self-play: fixed-strategy iteration CFR, every pair.

For every pair of dice counts up to ``max_dice`` each, the two players play the whole round
against each other by CFR+ with imperfect recall (Neller and Hnath's fixed-strategy
iteration CFR for Dudo: each player recalls their own dice and the standing bid;
:class:`~liarsdice.solve.subgame.BidSubgame` runs it, a forward pass of both players' reach
and a backward pass of the value of every pair of hands per iteration). Each pair's average
strategy is what :class:`~liarsdice.nets.rounds.RoundPolicies` stores and the ``learned``
bot plays. docs/BOTS.md says why this method, what it costs and how exploitable it is.

**Checkpoints.** The folder gets ``pair-a-b.npz`` for every pair as it finishes, and while a
pair runs ``partial-a-b.npz`` every ``checkpoint`` iterations (regrets, average strategies,
iterations done). Run again with the same folder and settings, it goes on where it stopped;
CFR+ is deterministic, so the result equals an uninterrupted run's.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     pol = train_rounds("snyd-joker", faces=3, max_dice=1, iterations=200, folder=tmp)
>>> pol.pairs, round(pol.info[1, 1]["value"], 2)  # the opener's value (the solver's: 1/3)
([(1, 1)], 0.33)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from liarsdice.nets.rounds import PairTables, RoundPolicies
from liarsdice.solve.subgame import BidSubgame

__all__ = ["solve_pair", "train_rounds"]

SETTINGS = "settings.json"


def solve_pair(
    rules: str,
    dice: tuple[int, int],
    *,
    faces: int,
    iterations: int,
    folder: Path | None = None,
    checkpoint: int = 100,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[np.ndarray], dict[str, Any]]:
    """CFR+ on one pair's round for ``iterations``; returns both actors' average-strategy
    weights and what to record (iterations, the opener's value, seconds)."""
    t = PairTables.of(rules, dice, faces=faces)
    if len(t.opening) != t.num_bids:
        raise ValueError(f"{rules}: the round learner needs every bid open to the opener")
    game = BidSubgame(t.truth, opened=False, range_a=t.probs[0], range_b=t.probs[1])
    a, b = dice
    partial = None if folder is None else folder / f"partial-{a}-{b}.npz"
    spent = 0.0
    if partial is not None and partial.exists():
        with np.load(partial) as data:
            game.regret = [data["regret0"], data["regret1"]]
            game.total = [data["total0"], data["total1"]]
            game.iterations = int(data["iterations"])
            spent = float(data["seconds"])
    began = time.perf_counter()
    while game.iterations < iterations:
        step = min(checkpoint, iterations - game.iterations)
        game.solve(step)
        if partial is not None:
            tmp = partial.with_suffix(".tmp.npz")
            np.savez(
                tmp,
                regret0=game.regret[0],
                regret1=game.regret[1],
                total0=game.total[0],
                total1=game.total[1],
                iterations=game.iterations,
                seconds=spent + time.perf_counter() - began,
            )
            tmp.replace(partial)  # whole or absent, never half written
        if progress is not None:
            progress(step)
    info = {
        "iterations": game.iterations,
        "value": game.value(),
        "seconds": round(spent + time.perf_counter() - began, 1),
    }
    return [game.total[0], game.total[1]], info


def _pairs(max_dice: int) -> list[tuple[int, int]]:
    # Smallest first: the quick pairs are done (and saved) before the long ones.
    pairs = [(a, b) for a in range(1, max_dice + 1) for b in range(1, max_dice + 1)]
    return sorted(pairs, key=lambda ab: (ab[0] + ab[1], ab))


def train_rounds(
    rules: str,
    *,
    faces: int,
    max_dice: int,
    iterations: int,
    folder: str | Path,
    max_seconds: float | None = None,
    progress: Callable[[tuple[int, int], int], None] | None = None,
) -> RoundPolicies:
    """Learn every pair up to ``max_dice`` each (module docstring). With ``max_seconds`` it
    stops after the pair that runs past it: the result holds the pairs done so far, and a
    later call with the same folder goes on."""
    settings = {"rules": rules, "faces": faces, "max_dice": max_dice, "iterations": iterations}
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _check_settings(folder / SETTINGS, settings)
    began = time.monotonic()
    strategies: dict[tuple[int, int], list[np.ndarray]] = {}
    info: dict[tuple[int, int], dict[str, Any]] = {}
    for dice in _pairs(max_dice):
        a, b = dice
        done = folder / f"pair-{a}-{b}.npz"
        if not done.exists():
            if max_seconds is not None and time.monotonic() - began > max_seconds:
                break
            tell = None if progress is None else (lambda n, d=dice: progress(d, n))
            weights, recorded = solve_pair(
                rules, dice, faces=faces, iterations=iterations, folder=folder, progress=tell
            )
            tmp = done.with_suffix(".tmp.npz")
            np.savez_compressed(
                tmp, s0=weights[0], s1=weights[1], info=np.array(json.dumps(recorded))
            )
            tmp.replace(done)
            (folder / f"partial-{a}-{b}.npz").unlink(missing_ok=True)
        with np.load(done) as data:
            strategies[dice] = [data["s0"], data["s1"]]
            info[dice] = json.loads(str(data["info"]))
    return RoundPolicies(
        rules,
        faces=faces,
        max_dice=max_dice,
        strategies=strategies,
        info=info,
        meta={"method": "fixed-strategy iteration CFR+, last-bid recall", **settings},
    )


def _check_settings(path: Path, settings: dict[str, Any]) -> None:
    if path.exists():
        before = json.loads(path.read_text())
        if before != settings:
            changed = sorted(k for k in settings if before.get(k) != settings[k])
            raise ValueError(
                f"{path.parent} holds a run with other settings ({', '.join(changed)}): "
                "use another folder"
            )
    else:
        path.write_text(json.dumps(settings, indent=1, sort_keys=True))
