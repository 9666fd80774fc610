"""The chance to win from a position, learned from self-play games of the expert.

``liarsdice learn positions --rules classic --out DIR`` plays ``--games`` whole games at each
number of seats from 2 to 6, every seat the expert valuing positions by the dice share
(:data:`SELF_PLAY_BOT`), and keeps every round's start: each seat still in sees the
position (:func:`liarsdice.nets.positions.canonical`) and, at the end, whether it won. A
sigmoid MLP (:func:`liarsdice.learn.fit.fit`) learns the chance to win from those pairs, and
``DIR/positions-NAME.npz`` is written: the file :mod:`liarsdice.nets.positions` reads (copy
it to ``src/liarsdice/nets/data/`` to ship it).

The games are the arena's (:func:`liarsdice.arena.play_observed`, seeded by the seed and the
game's index): the data depends only on the options, never on ``--jobs``. Each seat count's
data is written to ``DIR/data-P.npz`` once played, and the fit checkpoints every epoch
(``DIR/fit/``): run the same command again after an interruption and it goes on where it
stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.arena import ArenaSpec, check_spec, play_observed
from liarsdice.core.bidding import Rules
from liarsdice.learn.fit import fit
from liarsdice.nets.positions import INPUTS, MAX_DICE, MAX_SEATS, canonical, encode, rules_key
from liarsdice.parallel import spread

__all__ = [
    "HIDDEN",
    "SELF_PLAY_BOT",
    "PositionJob",
    "game_samples",
    "play_positions",
    "train_positions",
]

HIDDEN = (64, 64)  # the hidden layers' widths
# The self-play player: the expert valuing positions by the dice share (the values it had
# before any were learned; a later generation may play with the learned ones).
SELF_PLAY_BOT = "expert:positions=share"


@dataclass(frozen=True)
class PositionJob:
    """The self-play games of one seat count (picklable: ``spread`` ships it to workers)."""

    spec: ArenaSpec


def round_starts(state: Any) -> list[tuple[int, ...]]:
    """Every seat's dice at the start of each round of a finished game."""
    dice = tuple(state.game.start_dice)
    starts = [dice]
    for result in state.results[:-1]:
        starts.append(tuple(result.dice))
    return starts


def game_samples(state: Any) -> list[tuple[tuple[int, ...], bool]]:
    """(position seen by a seat still in, whether that seat won) for every round start and
    seat of a finished game."""
    winner = state.winner
    out: list[tuple[tuple[int, ...], bool]] = []
    for dice in round_starts(state):
        alive = [p for p, d in enumerate(dice) if d > 0]
        if len(alive) < 2:
            continue
        for p in alive:
            out.append((canonical(dice, p), p == winner))
    return out


def play_positions(
    job: PositionJob, start: int, stop: int
) -> list[list[tuple[tuple[int, ...], bool]]]:
    """Games ``start`` to ``stop - 1`` of ``job``: each one's samples (none after an error)."""
    out = []
    for index in range(start, stop):
        result, state = play_observed(job.spec, index)
        out.append([] if result.error is not None or state is None else game_samples(state))
    return out


def _collect(
    spec: ArenaSpec, jobs: int, progress: Callable[[int], None] | None
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    seqs: list[tuple[int, ...]] = []
    won: list[bool] = []
    games: dict[int, list[tuple[tuple[int, ...], bool]]] = {}
    chunks = spread(_indexed, PositionJob(spec), spec.games, jobs=jobs)
    for batch in chunks:
        for index, samples in batch:
            games[index] = samples
        if progress is not None:
            progress(len(batch))
    for index in sorted(games):  # in game order, whatever order the workers finished in
        for seq, w in games[index]:
            seqs.append(seq)
            won.append(w)
    padded = np.zeros((len(seqs), MAX_SEATS), dtype=np.int8)
    for i, seq in enumerate(seqs):
        padded[i, : len(seq)] = seq
    return padded, np.asarray(won, dtype=np.float32)


def _indexed(
    job: PositionJob, start: int, stop: int
) -> list[tuple[int, list[tuple[tuple[int, ...], bool]]]]:
    return list(zip(range(start, stop), play_positions(job, start, stop), strict=True))


def train_positions(
    rules: Rules,
    out: Path,
    *,
    games: int = 400,
    seats: Sequence[int] = (2, 3, 4, 5, 6),
    bots: str = SELF_PLAY_BOT,
    seed: int = 0,
    epochs: int = 60,
    jobs: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """Play the self-play games (``games`` per seat count), fit the network, write
    ``out/positions-NAME.npz`` and return its path. Resumes from what ``out`` holds."""
    for p in seats:
        if not 2 <= p <= MAX_SEATS:
            raise ValueError(f"seats: each from 2 to {MAX_SEATS}, not {p}")
        if max(rules.start_dice(p)) > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} dice a seat, not {max(rules.start_dice(p))}")
    out.mkdir(parents=True, exist_ok=True)
    parts_x, parts_y = [], []
    for p in seats:
        path = out / f"data-{p}.npz"
        if not path.exists():
            spec = ArenaSpec(rules=rules, bots=(bots,), games=games, seed=seed + p, players=p)
            check_spec(spec)
            tick = None if progress is None else (lambda n, p=p: progress(f"{p} seats", n, games))
            seq, won = _collect(spec, jobs, tick)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, positions=seq, won=won, games=np.int64(games))
            tmp.replace(path)
        with np.load(path) as data:
            if int(data["games"]) != games:
                raise ValueError(f"{path} holds {int(data['games'])} games a seat count, not "
                                 f"{games}: use another --out")  # fmt: skip
            parts_x.append(data["positions"])
            parts_y.append(data["won"])
    positions = np.concatenate(parts_x)
    won = np.concatenate(parts_y)
    x = encode([tuple(int(d) for d in row if d > 0) for row in positions])
    meta = {
        "kind": "positions",
        "rules": rules_key(rules),
        "preset": rules.name,
        "games_per_seat_count": games,
        "seats": list(seats),
        "bots": bots,
        "samples": len(won),
    }

    def said(epoch: int, loss: float) -> None:
        if progress is not None:
            progress("fit", 1, epochs)

    net = fit(
        x, won[:, None], [INPUTS, *HIDDEN, 1], loss="bce", epochs=epochs, folder=out / "fit",
        seed=seed, meta=meta, progress=said,
    )  # fmt: skip
    target = out / f"positions-{rules.name}.npz"
    net.save(target)
    (out / "positions.json").write_text(json.dumps(net.meta, indent=2, sort_keys=True) + "\n")
    return target
