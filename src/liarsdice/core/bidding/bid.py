"""The :class:`Bid` value type: a claim that at least ``quantity`` dice show ``face``."""

from __future__ import annotations

import re
from typing import NamedTuple

from liarsdice.core.errors import NotationError

__all__ = ["Bid", "read_bid"]

_CANONICAL = re.compile(r"(0|[1-9][0-9]*)[xX](0|[1-9][0-9]*)")
_MAX_DIGITS = 9


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


def _to_int(digits: str, text: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise NotationError(f"number {digits[:12]}... in {text!r} is too large")
    return int(digits)


def read_bid(text: str, *, faces: int = 6) -> Bid:
    """Read a bid in the canonical ``QxF`` form (the core's own reader; the lenient readers
    people use live in :mod:`liarsdice.notation.bidding.bids`).

    >>> read_bid(" 3x5 ")
    Bid(quantity=3, face=5)
    >>> read_bid("3x7")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: face 7 in '3x7' is out of range; faces run 1..6
    """
    match = _CANONICAL.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"{text!r} is not a bid in QxF form (e.g. 3x5)")
    quantity = _to_int(match.group(1), text)
    face = _to_int(match.group(2), text)
    if quantity < 1:
        raise NotationError(f"quantity in {text!r} must be at least 1")
    if not 1 <= face <= faces:
        raise NotationError(f"face {face} in {text!r} is out of range; faces run 1..{faces}")
    return Bid(quantity, face)
