"""The chance to win from a position, learned from self-play games of the expert.

``liarsdice learn positions --rules classic --out DIR`` plays ``--games`` whole games at
each number of seats from 2 to 6, every seat the expert valuing positions by the dice share
(:data:`SELF_PLAY_BOT`), and keeps every round: the dice of every seat when it started and
when it ended. A :class:`~liarsdice.nets.positions.RoundModel` (how a round ends: which
seat loses a die, gains one, or nothing) is fitted to those rounds by maximum likelihood
(:func:`fit_round_model`, SciPy's L-BFGS on a convex log-likelihood), and
``DIR/positions-NAME.npz`` is written: the file :mod:`liarsdice.nets.positions` reads and
turns into every position's chances by dynamic programming (copy it to
``src/liarsdice/nets/data/`` to ship it).

Why a model of rounds rather than a fit of who won each game: every round of every game is
a sample of the model (a game gives one outcome, but twenty rounds), and the chances of a
position come from the model's rounds, so a position the games seldom reach gets a value
as sound as a common one and neighbouring positions are ordered consistently.

The games are the arena's (:func:`liarsdice.arena.play_observed`, seeded by the seed and the
game's index): the data depends only on the options, never on ``--jobs``. Each seat count's
rounds are written to ``DIR/data-P.npz`` once played: run the same command again after an
interruption and it goes on where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from liarsdice.arena import ArenaSpec, check_spec, play_observed
from liarsdice.core.bidding import Rules
from liarsdice.nets.positions import (
    FEATURES,
    MAX_DICE,
    MAX_SEATS,
    RoundModel,
    canonical,
    rules_key,
    seat_features,
)
from liarsdice.parallel import spread

__all__ = [
    "SELF_PLAY_BOT",
    "PositionJob",
    "fit_round_model",
    "game_rounds",
    "play_positions",
    "train_positions",
]

# The self-play player: the expert valuing positions by the dice share (the values it had
# before any were learned; a later generation may play with the learned ones).
SELF_PLAY_BOT = "expert:positions=share"
L2 = 1e-3  # a little weight decay: features a table never shows stay at 0

Round = tuple[tuple[int, ...], tuple[int, ...]]  # every seat's dice at its start and end


@dataclass(frozen=True)
class PositionJob:
    """The self-play games of one seat count (picklable: ``spread`` ships it to workers)."""

    spec: ArenaSpec


def game_rounds(state: Any) -> list[Round]:
    """(every seat's dice at the start, at the end) of each round of a finished game."""
    dice = tuple(state.game.start_dice)
    out = []
    for result in state.results:
        after = tuple(result.dice)
        out.append((dice, after))
        dice = after
    return out


def play_positions(job: PositionJob, start: int, stop: int) -> list[list[Round]]:
    """Games ``start`` to ``stop - 1`` of ``job``: each one's rounds (none after an error)."""
    out = []
    for index in range(start, stop):
        result, state = play_observed(job.spec, index)
        out.append([] if result.error is not None or state is None else game_rounds(state))
    return out


def _indexed(job: PositionJob, start: int, stop: int) -> list[tuple[int, list[Round]]]:
    return list(zip(range(start, stop), play_positions(job, start, stop), strict=True))


def _collect(
    spec: ArenaSpec, jobs: int, progress: Callable[[int], None] | None
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    games: dict[int, list[Round]] = {}
    for batch in spread(_indexed, PositionJob(spec), spec.games, jobs=jobs):
        for index, rounds in batch:
            games[index] = rounds
        if progress is not None:
            progress(len(batch))
    rounds = [r for index in sorted(games) for r in games[index]]  # in game order
    before = np.array([b for b, _ in rounds], dtype=np.int8).reshape(len(rounds), spec.num_players)
    after = np.array([a for _, a in rounds], dtype=np.int8).reshape(len(rounds), spec.num_players)
    return before, after


def _groups(
    before: npt.NDArray[np.int8], after: npt.NDArray[np.int8]
) -> dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """The rounds by number of seats in: the positions clockwise from the first seat in and
    the same seats' dice after the round."""
    grouped: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
    for b, a in zip(before.tolist(), after.tolist(), strict=True):
        alive = [p for p, d in enumerate(b) if d > 0]
        if len(alive) < 2:
            continue
        if len(alive) > MAX_SEATS or max(b) > MAX_DICE or max(a) > MAX_DICE:
            raise ValueError(f"position {tuple(b)}: at most {MAX_SEATS} seats of {MAX_DICE} dice")
        grouped.setdefault(len(alive), []).append(
            (canonical(b, alive[0]), tuple(a[p] for p in alive))
        )
    return {
        n: (np.array([r[0] for r in rows], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.int64))
        for n, rows in sorted(grouped.items())
    }  # fmt: skip


def _shape(
    groups: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]],
) -> tuple[int, bool, bool]:
    """The model the rounds call for: the largest loss seen (a seat put out says only "at
    least its dice"), whether a seat ever gained a die, whether every seat but one ever lost
    one at a table of three or more."""
    sizes, gains, spared = 1, False, False
    for n, (pos, after) in groups.items():
        d = pos - after
        one = (d != 0).sum(axis=1) == 1
        if one.any():
            sizes = max(sizes, int(d[one].max()))
            gains |= bool((d[one] < 0).any())
        if n >= 3:
            spared |= bool((((d == 1).sum(axis=1) == n - 1) & ((d == 0).sum(axis=1) == 1)).any())
    return min(sizes, MAX_DICE), gains, spared


def fit_round_model(
    before: npt.NDArray[np.int8], after: npt.NDArray[np.int8], meta: dict[str, Any]
) -> RoundModel:
    """The :class:`RoundModel` of greatest likelihood (with a little L2) of the rounds
    ``before`` -> ``after`` (rows of every seat's dice; tables of several sizes may be
    stacked by padding with seats of 0 dice, which are out). A round's outcome is every way
    of ending it that leaves those dice (a seat put out by a loss of any size from its dice
    up, say); rounds that none leaves are skipped (counted in the meta)."""
    groups = _groups(before, after)
    if not groups:
        raise ValueError("no rounds of two seats or more to learn from")
    sizes, gains, spared = _shape(groups)
    F = FEATURES
    split = np.cumsum([F, sizes - 1, F, F])  # lose | sizes (the first 0) | gain | spared | still

    def model(w: npt.NDArray[np.float64], info: dict[str, Any]) -> RoundModel:
        lose, rest, gain, spare, still = np.split(w, split)
        return RoundModel(lose=lose, sizes=np.concatenate(([0.0], rest)),
                          gain=gain if gains else None, spared=spare if spared else None,
                          still=still, meta=info)  # fmt: skip

    size = 3 * F + sizes - 1 + MAX_SEATS - 1
    shape = model(np.zeros(size), {})
    data = {}
    skipped = 0
    for n, (pos, after_n) in groups.items():
        ways = shape.outcomes(pos)
        mask = np.zeros((len(pos), shape.columns(n)))
        for c, way in enumerate(ways):
            mask[:, c] = (way == after_n).all(axis=1)
        mask[:, -1] = (pos == after_n).all(axis=1)
        mask *= shape.probabilities(pos) > 0  # the ways this model has
        ok = mask.any(axis=1)
        skipped += int((~ok).sum())
        data[n] = (seat_features(pos[ok]), pos[ok], mask[ok])
    count = sum(len(x[1]) for x in data.values())

    def loss(w: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        m = model(w, {})
        total = 0.0
        grad = np.zeros_like(w)
        for n, (f, pos, mask) in data.items():
            p = m.probabilities(pos, f)  # the features, worked out once
            within = p * mask
            seen = within.sum(axis=1)
            total -= float(np.log(np.maximum(seen, 1e-300)).sum())
            d = p - within / seen[:, None]  # d(-log P(outcome)) / d(each column's logit)
            dl = d[:, : n * sizes].reshape(len(d), n, sizes)
            grad[:F] += np.einsum("rk,rkf->f", dl.sum(axis=2), f)
            grad[F : F + sizes - 1] += dl.sum(axis=(0, 1))[1:]
            at = F + sizes - 1
            for family in (d[:, n * sizes : n * sizes + n], d[:, n * sizes + n : -1]):
                grad[at : at + F] += np.einsum("rk,rkf->f", family, f)
                at += F
            grad[at + n - 2] += d[:, -1].sum()
        return total / count + L2 * float(w @ w), grad / count + 2 * L2 * w

    result = minimize(loss, np.zeros(size),
                      jac=True, method="L-BFGS-B", options={"maxiter": 2000})  # fmt: skip
    info = {**meta, "rounds": count, "skipped_rounds": skipped,
            "log_loss": round(float(result.fun), 6)}  # fmt: skip
    return model(result.x, info)


def train_positions(
    rules: Rules,
    out: Path,
    *,
    games: int = 400,
    seats: Sequence[int] = (2, 3, 4, 5, 6),
    bots: str = SELF_PLAY_BOT,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """Play the self-play games (``games`` per seat count), fit the round model, write
    ``out/positions-NAME.npz`` and return its path. Resumes from what ``out`` holds."""
    for p in seats:
        if not 2 <= p <= MAX_SEATS:
            raise ValueError(f"seats: each from 2 to {MAX_SEATS}, not {p}")
        if max(rules.start_dice(p)) > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} dice a seat, not {max(rules.start_dice(p))}")
    out.mkdir(parents=True, exist_ok=True)
    befores, afters = [], []
    for p in seats:
        path = out / f"data-{p}.npz"
        if not path.exists():
            spec = ArenaSpec(rules=rules, bots=(bots,), games=games, seed=seed + p, players=p)
            check_spec(spec)
            tick = None if progress is None else (lambda n, p=p: progress(f"{p} seats", n, games))
            before, after = _collect(spec, jobs, tick)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, before=before, after=after, games=np.int64(games))
            tmp.replace(path)
        with np.load(path) as data:
            if "before" not in data.files:
                raise ValueError(f"{path} is not this version's data: use another --out")
            if int(data["games"]) != games:
                raise ValueError(f"{path} holds {int(data['games'])} games a seat count, not "
                                 f"{games}: use another --out")  # fmt: skip
            pad = ((0, 0), (0, MAX_SEATS - p))  # seats of 0 dice are out
            befores.append(np.pad(data["before"], pad))
            afters.append(np.pad(data["after"], pad))
    meta = {
        "kind": "positions",
        "rules": rules_key(rules),
        "preset": rules.name,
        "games_per_seat_count": games,
        "seats": list(seats),
        "bots": bots,
        "seed": seed,
    }
    model = fit_round_model(np.concatenate(befores), np.concatenate(afters), meta)
    target = out / f"positions-{rules.name}.npz"
    model.save(target)
    (out / "positions.json").write_text(json.dumps(model.meta, indent=2, sort_keys=True) + "\n")
    return target
