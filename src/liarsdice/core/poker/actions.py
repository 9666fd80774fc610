"""The poker-dice family's integer action encoding (see :mod:`liarsdice.core.poker.game`)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

from liarsdice.core.errors import IllegalActionError

LIAR = 0
ACCEPT = 1
LEFT = 2
RIGHT = 3
BID_BASE = 8
ARRANGE_BASE = 1000
ROLL_BASE = 2000
SHAKE_BASE = 2500
KEEP_BASE = 3000

MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    ms for k in range(6) for ms in combinations_with_replacement(range(1, 7), k)
)
MULTISET_IDS: dict[tuple[int, ...], int] = {ms: i for i, ms in enumerate(MULTISETS)}
NUM_MULTISETS = len(MULTISETS)


def multiset_index(faces: Iterable[int]) -> int:
    """The index of a multiset of faces (any order) in :data:`MULTISETS`."""
    ms = tuple(sorted(faces))
    try:
        return MULTISET_IDS[ms]
    except KeyError:
        raise IllegalActionError(
            f"{list(ms)} is not up to five faces 1..6 (9, 10, J, Q, K, A)"
        ) from None


__all__ = [
    "ACCEPT",
    "ARRANGE_BASE",
    "BID_BASE",
    "KEEP_BASE",
    "LEFT",
    "LIAR",
    "MULTISETS",
    "MULTISET_IDS",
    "NUM_MULTISETS",
    "RIGHT",
    "ROLL_BASE",
    "SHAKE_BASE",
    "multiset_index",
]
