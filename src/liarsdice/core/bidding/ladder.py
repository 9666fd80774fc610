"""Bid spaces: every possible bid of a game numbered once, with precomputed raising rules.

Bid ids are stable for a given :class:`~liarsdice.core.bidding.rules.Rules` and maximum quantity.
For
total orders (every ordering but ``monotone``) ids follow the rank of the bid, so "higher bid"
is "higher id"; the legal raises from a bid are then a slice of the bids allowed under the
current cap, which keeps legal-move generation cheap.

>>> from liarsdice.core.bidding.rules import preset
>>> space = BidSpace(preset("classic"), 4)
>>> [str(b) for b in space.bids[:8]]
['1x2', '1x3', '1x4', '1x5', '1x6', '1x1', '2x2', '2x3']
>>> [str(space.bids[i]) for i in space.raises(space.id_of(Bid(3, 6)), 4)][:3]
['2x1', '4x2', '4x3']
"""

from __future__ import annotations

from bisect import bisect_right

from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.rules import Ordering, Rules

# Opening modes for :meth:`BidSpace.raises`.
OPEN_ANY = 0
OPEN_NO_WILD = 1
PALIFICO = 2


class BidSpace:
    """All bids with quantity 1..``max_quantity`` for a rule set, and how they rank."""

    __slots__ = (
        "_allowed",
        "_cache",
        "bids",
        "face",
        "ids",
        "max_quantity",
        "quantity",
        "rank",
        "total_order",
        "wild",
    )

    def __init__(self, rules: Rules, max_quantity: int) -> None:
        faces = rules.ranked_faces()
        face_rank = {f: i for i, f in enumerate(faces)}
        wild = rules.wild
        ordering = rules.ordering
        ladder = ordering in (Ordering.LADDER, Ordering.PERUDO) and wild is not None
        # Offset placing k wilds in the ladder: after (2k-1) x top (ladder) or 2k x top (Perudo).
        wild_shift = 1 if ordering is Ordering.LADDER else 0

        def key(b: Bid) -> tuple[int, int, int]:
            q, f = b
            if ladder:
                if f == wild:
                    return (2 * q - wild_shift, 1, 0)
                return (q, 0, face_rank[f])
            if ordering is Ordering.FACE:
                return (face_rank[f], q, 0)
            return (q, face_rank[f], 0)  # quantity-major (and monotone's numbering)

        all_bids = [Bid(q, f) for q in range(1, max_quantity + 1) for f in faces]
        all_bids.sort(key=key)
        self.bids: tuple[Bid, ...] = tuple(all_bids)
        self.ids: dict[Bid, int] = {b: i for i, b in enumerate(all_bids)}
        self.quantity: tuple[int, ...] = tuple(b.quantity for b in all_bids)
        self.face: tuple[int, ...] = tuple(b.face for b in all_bids)
        self.rank: tuple[int, ...] = tuple(face_rank[b.face] for b in all_bids)
        self.max_quantity = max_quantity
        self.total_order = ordering is not Ordering.MONOTONE
        self.wild = wild
        # Ids (ascending) of the bids whose quantity fits under each cap.
        self._allowed: list[tuple[int, ...]] = [
            tuple(i for i, q in enumerate(self.quantity) if q <= cap)
            for cap in range(max_quantity + 1)
        ]
        self._cache: dict[tuple[int, int, int], tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self.bids)

    def id_of(self, bid: Bid) -> int:
        """The id of ``bid`` (KeyError when the quantity is beyond this space)."""
        return self.ids[bid]

    def raises(self, last: int, cap: int, mode: int = OPEN_ANY) -> tuple[int, ...]:
        """Ids of the legal bids after bid ``last`` (-1: opening) with at most ``cap`` dice."""
        key = (last, cap, mode)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        cap = min(cap, self.max_quantity)
        allowed = self._allowed[max(cap, 0)]
        q, face, rank = self.quantity, self.face, self.rank
        if last < 0:
            if mode == OPEN_NO_WILD and self.wild is not None:
                out = tuple(i for i in allowed if face[i] != self.wild)
            else:
                out = allowed
        elif mode == PALIFICO:
            out = tuple(i for i in allowed if face[i] == face[last] and q[i] > q[last])
        elif self.total_order:
            out = allowed[bisect_right(allowed, last) :]
        else:
            ql, rl = q[last], rank[last]
            out = tuple(i for i in allowed if q[i] >= ql and rank[i] >= rl and i != last)
        self._cache[key] = out
        return out

    def beats(self, new: Bid, old: Bid | None, cap: int, mode: int = OPEN_ANY) -> bool:
        """Whether ``new`` is a legal bid after ``old`` (None: opening) under ``cap``."""
        nid = self.ids.get(new)
        if nid is None:
            return False
        last = -1 if old is None else self.ids[old]
        return nid in self.raises(last, cap, mode)
