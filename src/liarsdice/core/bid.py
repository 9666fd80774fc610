"""The :class:`Bid` value type: a claim that at least ``quantity`` dice show ``face``."""

from __future__ import annotations

from typing import NamedTuple


class Bid(NamedTuple):
    """A bid of ``quantity`` dice showing ``face``.

    >>> Bid(3, 5)
    Bid(quantity=3, face=5)
    >>> str(Bid(3, 5))
    '3x5'
    """

    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"
