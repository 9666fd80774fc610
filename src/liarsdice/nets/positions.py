"""The chance to win a whole game from a position: every seat's dice, in seat order.

A *position* is what a round starts from in an elimination game: how many dice each seat
holds. Seen from one seat, it is the dice of the seats still in, clockwise from that seat
(:func:`canonical`): ``(3, 1, 5)`` is "I hold 3, the next seat 1, the one after 5".

The values are learned by self-play as a **model of a round** and then worked out exactly:

* :class:`RoundModel` gives the chance of each way a round can end from a position: a seat
  loses a die, a seat gains one (an exact call that was right, where the rules have it), or
  nothing changes. Each seat's chances are a log-linear function of what it sees (its own
  dice, its neighbours' dice, the number of seats, its share of the dice), one set of weights
  for every seat and every size of table. It is fitted to the rounds of the expert's
  self-play games (:mod:`liarsdice.learn.positions`).
* :class:`PositionValues` then gives every seat's chance to win from every position of up to
  :data:`MAX_SEATS` seats of up to :data:`MAX_DICE` dice by dynamic programming over the
  model's rounds (value iteration where a die can be won back): a seat's chance is the
  chance-weighted mean of its chances after each way the round can end, and a lone seat
  has won. The chances of a position add up to one, equal seats get equal chances, and
  rotating the table rotates them; rare positions get values as sound as common ones,
  because each comes from the round model rather than from the few games that reached it.

Models are per rules family: a model's file records the rule options it was trained on,
and :func:`packaged_positions` finds the shipped one that fits a game's rules (any number of
seats from 2 to 6, at most 5 dice each), or None.

>>> values = packaged_positions(preset("classic", players=4))
>>> values is not None
True
>>> chances = values.chances((5, 5, 5, 5))
>>> [round(c, 2) for c in chances] == [0.25] * 4    # even dice, even chances
True
>>> values.chances((5, 1, 0, 3))[1] < values.chances((5, 1, 0, 3))[0]
True
>>> values.chances((0, 2, 0, 0))
(0.0, 1.0, 0.0, 0.0)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding import Rules, preset
from liarsdice.nets.npz import read_npz, write_npz

__all__ = [
    "FEATURES",
    "MAX_DICE",
    "MAX_SEATS",
    "PACKAGED",
    "PositionFormatError",
    "PositionValues",
    "RoundModel",
    "canonical",
    "packaged_family",
    "packaged_positions",
    "rules_key",
    "seat_features",
]

Floats = npt.NDArray[np.float64]

MAX_SEATS = 6  # the seats a model reads (more: no model fits)
MAX_DICE = 5  # the dice a seat may hold (more: no model fits)
# The families a model is learned for, by preset (shipped: nets/data/positions-NAME.npz)
PACKAGED = ("classic", "perudo")
_IGNORED = ("name", "players", "dice", "first_opener")  # options a position's value ignores
FORMAT = "liarsdice-positions"
VERSION = 2
# What a seat sees, one-hot: its dice, the previous seat's (who bids to it), the next
# seat's (whom it bids to), the number of seats; then its share of all the dice.
FEATURES = 3 * MAX_DICE + (MAX_SEATS - 1) + 1


class PositionFormatError(ValueError):
    """A file that is not a position model this program reads."""


def canonical(dice: Sequence[int], seat: int) -> tuple[int, ...]:
    """The dice of the seats still in, clockwise from ``seat`` (which comes first).

    >>> canonical((2, 0, 5, 1), 2)
    (5, 1, 2)
    """
    n = len(dice)
    return tuple(dice[(seat + k) % n] for k in range(n) if dice[(seat + k) % n] > 0)


def seat_features(positions: npt.NDArray[np.int64]) -> Floats:
    """What each seat of each position sees (``positions``: rows of the same number of
    seats, each 1..MAX_DICE): an array (positions, seats, :data:`FEATURES`).

    >>> f = seat_features(np.array([[2, 1]]))
    >>> f.shape, f[0, 0, :5].tolist(), f[0, 0, 5:10].tolist(), round(float(f[0, 0, -1]), 3)
    ((1, 2, 21), [0.0, 1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0], 0.667)
    """
    pos = np.asarray(positions, dtype=np.int64)
    rows, n = pos.shape
    if not 2 <= n <= MAX_SEATS or pos.min() < 1 or pos.max() > MAX_DICE:
        raise ValueError(f"positions: 2..{MAX_SEATS} seats of 1..{MAX_DICE} dice")
    out = np.zeros((rows, n, FEATURES))
    r = np.arange(rows)[:, None]
    s = np.arange(n)[None, :]
    out[r, s, pos - 1] = 1.0
    out[r, s, MAX_DICE + np.roll(pos, 1, axis=1) - 1] = 1.0  # the previous seat's dice
    out[r, s, 2 * MAX_DICE + np.roll(pos, -1, axis=1) - 1] = 1.0  # the next seat's
    out[:, :, 3 * MAX_DICE + n - 2] = 1.0
    out[:, :, -1] = pos / pos.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True, kw_only=True)
class RoundModel:
    """How a round ends from a position (module docstring), as log-linear weights over
    :func:`seat_features`: a seat losing dice (``lose``, with the log-odds of losing 1, 2,
    ... dice in ``sizes``, the first 0; where the rules take the difference the last size is
    "that many or more"); a seat gaining one (``gain``); every seat but one losing one
    (``spared``, the one spared: an exact count under the classic rules); the log-odds of
    nothing changing per number of seats (``still``, 2..MAX_SEATS). ``gain`` and ``spared``
    are None where the rules never end a round so."""

    lose: Floats
    sizes: Floats
    gain: Floats | None
    spared: Floats | None
    still: Floats
    meta: dict[str, Any]

    def columns(self, n: int) -> int:
        """How many ways a round of ``n`` seats may end (:meth:`probabilities`' columns)."""
        return n * len(self.sizes) + 2 * n + 1

    def probabilities(
        self, positions: npt.NDArray[np.int64], features: Floats | None = None
    ) -> Floats:
        """For rows of positions of one size ``n``: the chance of each way the round ends,
        in columns: seat k loses s + 1 dice (``k * sizes + s``), then each seat gains one (0
        at MAX_DICE), then each seat is the one spared, then nothing changes.
        ``features``: the positions' :func:`seat_features`, when already worked out."""
        pos = np.asarray(positions, dtype=np.int64)
        feats = seat_features(pos) if features is None else features
        rows, n = pos.shape
        lose = (feats @ self.lose)[:, :, None] + self.sizes[None, None, :]
        never = np.full((rows, n), -np.inf)
        gain = never if self.gain is None else np.where(pos < MAX_DICE, feats @ self.gain, -np.inf)
        spared = never if self.spared is None else feats @ self.spared
        still = np.full((rows, 1), self.still[n - 2])
        logits = np.concatenate([lose.reshape(rows, -1), gain, spared, still], axis=1)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        out: Floats = p / p.sum(axis=1, keepdims=True)
        return out

    def outcomes(self, positions: npt.NDArray[np.int64]) -> list[npt.NDArray[np.int64]]:
        """Every seat's dice after each way the round ends (:meth:`probabilities`' columns,
        the last, nothing changing, left out)."""
        pos = np.asarray(positions, dtype=np.int64)
        n = pos.shape[1]
        out = []
        for k in range(n):
            for s in range(len(self.sizes)):
                after = pos.copy()
                after[:, k] = np.maximum(after[:, k] - (s + 1), 0)
                out.append(after)
        for k in range(n):
            after = pos.copy()
            after[:, k] = np.minimum(after[:, k] + 1, MAX_DICE)
            out.append(after)
        for k in range(n):
            after = pos - 1
            after[:, k] += 1
            out.append(after)
        return out

    def save(self, file: str | Path | IO[bytes]) -> None:
        arrays = {"lose": self.lose, "sizes": self.sizes, "still": self.still}
        for name, w in (("gain", self.gain), ("spared", self.spared)):
            if w is not None:
                arrays[name] = w
        write_npz(file, {**self.meta, "format": FORMAT, "version": VERSION}, arrays)

    @classmethod
    def load(cls, file: str | Path | IO[bytes]) -> RoundModel:
        meta, arrays = read_npz(file, FORMAT, VERSION, PositionFormatError)
        try:
            lose, sizes, still = arrays["lose"], arrays["sizes"], arrays["still"]
        except KeyError as e:
            raise PositionFormatError(f"a position model without {e}") from e
        extra = {name: arrays.get(name) for name in ("gain", "spared")}
        if (
            lose.shape != (FEATURES,)
            or still.shape != (MAX_SEATS - 1,)
            or not 1 <= len(sizes) <= MAX_DICE
            or any(w is not None and w.shape != (FEATURES,) for w in extra.values())
        ):
            raise PositionFormatError(
                f"weights of {FEATURES} features, 1..{MAX_DICE} loss sizes, {MAX_SEATS - 1} seats"
            )
        meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
        as64 = {k: None if w is None else w.astype(np.float64) for k, w in extra.items()}
        return cls(lose=lose.astype(np.float64), sizes=sizes.astype(np.float64),
                   still=still.astype(np.float64), meta=meta, **as64)  # fmt: skip


def _all_positions(n: int) -> npt.NDArray[np.int64]:
    """Every position of ``n`` seats of 1..MAX_DICE, row ``i`` = ``i`` in base MAX_DICE."""
    idx = np.arange(MAX_DICE**n)
    digits = (idx[:, None] // MAX_DICE ** np.arange(n - 1, -1, -1)[None, :]) % MAX_DICE
    return np.asarray(digits + 1, dtype=np.int64)


def _index(pos: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    n = pos.shape[-1]
    weights = MAX_DICE ** np.arange(n - 1, -1, -1)
    return np.asarray((pos - 1) @ weights, dtype=np.int64)


class PositionValues:
    """Every seat's chance to win from every position under a :class:`RoundModel` (module
    docstring), worked out once when made."""

    def __init__(self, model: RoundModel, *, tolerance: float = 1e-10) -> None:
        self.model = model
        self.rules: dict[str, Any] = dict(model.meta.get("rules", {}))
        # tables[n][i, k]: seat k's chance to win from position i of n seats
        self.tables: dict[int, Floats] = {1: np.ones((MAX_DICE, 1))}
        for n in range(2, MAX_SEATS + 1):
            self.tables[n] = self._solve(n, tolerance)

    def _smaller(self, after: npt.NDArray[np.int64]) -> Floats:
        """Every seat's chances from positions where some seats are out (0 dice): the
        smaller tables' values of the seats still in, in order, and 0 for the others."""
        out = np.zeros(after.shape)
        alive = after > 0
        for mask in np.unique(alive, axis=0):
            rows = (alive == mask).all(axis=1)
            seats = np.flatnonzero(mask)
            table = self.tables[len(seats)]
            out[np.ix_(rows, seats)] = table[_index(after[np.ix_(rows, seats)])]
        return out

    def _solve(self, n: int, tolerance: float) -> Floats:
        pos = _all_positions(n)
        p = self.model.probabilities(pos)
        fixed = np.zeros(pos.shape)  # the worth of the ways out that leave fewer seats
        moves = []  # (probability, rows, position index) of the ways that keep n seats
        for c, after in enumerate(self.model.outcomes(pos)):
            live = p[:, c] > 0
            if not live.any():
                continue
            same = (after > 0).all(axis=1) & live
            fewer = ~same & live
            if fewer.any():
                fixed[fewer] += p[fewer, c, None] * self._smaller(after[fewer])
            if same.any():
                moves.append((p[same, c, None], np.flatnonzero(same), _index(after[same])))
        stay = 1.0 - p[:, -1:]  # a round where nothing changes is played again
        values = np.full(pos.shape, 1.0 / n)
        for _ in range(10_000):
            new = fixed.copy()
            for prob, rows, to in moves:
                new[rows] += prob * values[to]
            new /= stay
            change = float(np.abs(new - values).max())
            values = new
            if change < tolerance:
                break
        return values

    def fits(self, rules: Rules, players: int) -> bool:
        """Whether this model is for ``rules`` with ``players`` seats."""
        return (
            rules_key(rules) == self.rules
            and 2 <= players <= MAX_SEATS
            and max(rules.start_dice(players)) <= MAX_DICE
        )

    def chances(self, dice: Sequence[int]) -> tuple[float, ...]:
        """Every seat's chance to win from ``dice`` (each seat's count, 0 once out)."""
        alive = [p for p, d in enumerate(dice) if d > 0]
        out = [0.0] * len(dice)
        if not alive:
            return tuple(out)
        if len(alive) > MAX_SEATS or max(dice) > MAX_DICE:
            raise ValueError(f"position {tuple(dice)}: at most {MAX_SEATS} seats of {MAX_DICE}")
        pos = np.array([dice[p] for p in alive], dtype=np.int64)
        row = self.tables[len(alive)][int(_index(pos))]
        for p, v in zip(alive, row, strict=True):
            out[p] = float(v)
        return tuple(out)


def rules_key(rules: Rules) -> dict[str, Any]:
    """The rule options a position's value depends on (not the seats, dice or first opener)."""
    return {k: v for k, v in rules.options().items() if k not in _IGNORED}


@functools.cache
def _packaged(name: str) -> PositionValues | None:
    path = resources.files("liarsdice.nets").joinpath("data", f"positions-{name}.npz")
    if not path.is_file():  # not shipped (yet): the bots value positions without it
        return None
    with path.open("rb") as f:
        return PositionValues(RoundModel.load(f))


@functools.lru_cache(maxsize=64)  # read on every decision of an expert with learned values
def packaged_family(rules: Rules) -> str | None:
    """The family (a name of :data:`PACKAGED`) whose position model is for ``rules``, or None.

    >>> from liarsdice.core.bidding import preset
    >>> packaged_family(preset("perudo")), packaged_family(preset("spot-on"))
    ('perudo', None)
    """
    key = rules_key(rules)
    return next((name for name in PACKAGED if key == rules_key(preset(name))), None)


def packaged_positions(rules: Rules, players: int | None = None) -> PositionValues | None:
    """The shipped position model that fits ``rules`` (with ``players`` seats, default the
    rules'), or None."""
    players = rules.players if players is None else players
    name = packaged_family(rules)
    values = None if name is None else _packaged(name)
    return values if values is not None and values.fits(rules, players) else None
