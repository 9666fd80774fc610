"""The chance to win a whole game from a position: every seat's dice, in seat order.

A *position* is what a round starts from in an elimination game: how many dice each seat
holds. Seen from one seat, it is the dice of the seats still in, clockwise from that seat
(:func:`canonical`): ``(3, 1, 5)`` is "I hold 3, the next seat 1, the one after 5". A
network trained by self-play (:mod:`liarsdice.learn.positions`) gives each such sequence a
raw score for its first seat; a seat's chance to win is its score over the sum of every
seat's (so the chances of a position add up to one).

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
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding import Rules, preset
from liarsdice.nets.mlp import MLP, NetFormatError

__all__ = [
    "MAX_DICE",
    "MAX_SEATS",
    "PACKAGED",
    "PositionValues",
    "canonical",
    "encode",
    "packaged_positions",
    "rules_key",
]

MAX_SEATS = 6  # the seats a model reads (more: no model fits)
MAX_DICE = 5  # the dice a seat may hold (more: no model fits)
INPUTS = MAX_SEATS * (MAX_DICE + 1)
# The families a model is learned for, by preset (shipped: nets/data/positions-NAME.npz)
PACKAGED = ("classic", "perudo")
_IGNORED = ("name", "players", "dice", "first_opener")  # options a position's value ignores


def canonical(dice: Sequence[int], seat: int) -> tuple[int, ...]:
    """The dice of the seats still in, clockwise from ``seat`` (which comes first).

    >>> canonical((2, 0, 5, 1), 2)
    (5, 1, 2)
    """
    n = len(dice)
    return tuple(dice[(seat + k) % n] for k in range(n) if dice[(seat + k) % n] > 0)


def encode(positions: Sequence[Sequence[int]]) -> npt.NDArray[np.float32]:
    """The network's inputs: per slot (seat, clockwise from the first), the dice one-hot
    (0..MAX_DICE; an empty slot reads 0 dice).

    >>> encode([(2, 1)]).reshape(MAX_SEATS, MAX_DICE + 1)[:3].tolist()
    [[0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
    """
    out = np.zeros((len(positions), MAX_SEATS, MAX_DICE + 1), dtype=np.float32)
    out[:, :, 0] = 1.0
    for i, seq in enumerate(positions):
        if len(seq) > MAX_SEATS or any(not 0 < d <= MAX_DICE for d in seq):
            raise ValueError(f"position {tuple(seq)}: at most {MAX_SEATS} seats of 1..{MAX_DICE}")
        for k, d in enumerate(seq):
            out[i, k, 0] = 0.0
            out[i, k, d] = 1.0
    return out.reshape(len(positions), INPUTS)


def rules_key(rules: Rules) -> dict[str, Any]:
    """The rule options a position's value depends on (not the seats, dice or first opener)."""
    return {k: v for k, v in rules.options().items() if k not in _IGNORED}


class PositionValues:
    """A trained position network (a sigmoid :class:`MLP` over :func:`encode`'s inputs) and
    its memo of positions seen."""

    def __init__(self, net: MLP) -> None:
        if net.sizes[0] != INPUTS or net.sizes[-1] != 1:
            raise NetFormatError(f"a position network maps {INPUTS} inputs to 1, not {net.sizes}")
        self.net = net
        self.rules: dict[str, Any] = dict(net.meta.get("rules", {}))
        self._memo: dict[tuple[int, ...], tuple[float, ...]] = {}

    def fits(self, rules: Rules, players: int) -> bool:
        """Whether this model is for ``rules`` with ``players`` seats."""
        return (
            rules_key(rules) == self.rules
            and 2 <= players <= MAX_SEATS
            and max(rules.start_dice(players)) <= MAX_DICE
        )

    def chances(self, dice: Sequence[int]) -> tuple[float, ...]:
        """Every seat's chance to win from ``dice`` (each seat's count, 0 once out)."""
        key = tuple(dice)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        alive = [p for p, d in enumerate(key) if d > 0]
        out = [0.0] * len(key)
        if len(alive) == 1:
            out[alive[0]] = 1.0
        elif alive:
            raw = self.net(encode([canonical(key, p) for p in alive]))[:, 0].astype(np.float64)
            raw = np.maximum(raw, 1e-6)
            for p, v in zip(alive, raw / raw.sum(), strict=True):
                out[p] = float(v)
        result = tuple(out)
        if len(self._memo) >= 200_000:
            self._memo.clear()
        self._memo[key] = result
        return result


@functools.cache
def _packaged(name: str) -> PositionValues | None:
    path = resources.files("liarsdice.nets").joinpath("data", f"positions-{name}.npz")
    if not path.is_file():  # not shipped (yet): the bots value positions without it
        return None
    with path.open("rb") as f:
        return PositionValues(MLP.load(f))


def packaged_positions(rules: Rules, players: int | None = None) -> PositionValues | None:
    """The shipped position model that fits ``rules`` (with ``players`` seats, default the
    rules'), or None."""
    players = rules.players if players is None else players
    for name in PACKAGED:
        if rules_key(rules) != rules_key(preset(name)):
            continue
        values = _packaged(name)
        if values is not None and values.fits(rules, players):
            return values
    return None
