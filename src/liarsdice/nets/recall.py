"""What a player recalls of a round's bids: the last ``recall`` of them (NumPy only).

The learned strategies (:mod:`liarsdice.nets.rounds`) are strategies of an abstraction of
the round in which each player recalls their own dice and the last ``recall`` bids, as in
Neller and Hnath's fixed-strategy iteration CFR for Dudo. A *node* is what is recalled: the
whole history while it is shorter than ``recall`` bids, else its last ``recall`` bids (an
increasing tuple of bid indices; ``()`` before the first bid). With ``recall`` at least the
number of bids every history is its own node: perfect recall, the exact game.

The nodes are numbered in the order :class:`RecallTree` gives: by last bid (the root first),
then by *suffix* (the part of the node its children keep: the raise to bid ``n`` from node
``t`` goes to the node ``(t + (n,))[-recall:]``), so the nodes that share their children are
one slice, a *group*: the learner's passes take a group at a time.

>>> tree = RecallTree(num_bids=3, recall=2)
>>> tree.nodes
((), (0,), (0, 1), (1,), (0, 2), (1, 2), (2,))
>>> tree.node([0, 1, 2]), tree.node([1])  # recalls (1, 2), then (1,)
(5, 3)
>>> [(g.level, tree.nodes[g.start], [tree.nodes[c] for c in g.children]) for g in tree.groups][:3]
[(-1, (), [(0,), (1,), (2,)]), (0, (0,), [(0, 1), (0, 2)]), (1, (0, 1), [(1, 2)])]
>>> RecallTree(num_bids=3, recall=1).nodes  # the last bid only: node j is bid j - 1
((), (0,), (1,), (2,))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

__all__ = ["Group", "RecallTree", "recall_for"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Group:
    """Nodes ``start:stop`` share their last bid (``level``; -1: the root) and their
    children: ``children[i]`` is where the raise to bid ``level + 1 + i`` goes."""

    level: int
    start: int
    stop: int
    children: Ints


class RecallTree:
    """The nodes of a round of ``num_bids`` bids for players who recall the last ``recall``
    (module docstring)."""

    def __init__(self, *, num_bids: int, recall: int) -> None:
        if recall < 1:
            raise ValueError(f"recall must be at least 1 bid, not {recall}")
        self.num_bids = num_bids
        self.recall = recall = min(recall, max(num_bids, 1))
        keep = recall - 1
        every: list[tuple[int, ...]] = [
            t for r in range(recall + 1) for t in itertools.combinations(range(num_bids), r)
        ]

        def suffix(t: tuple[int, ...]) -> tuple[int, ...]:
            return t[max(0, len(t) - keep) :] if keep else ()

        def last(t: tuple[int, ...]) -> int:
            return t[-1] if t else -1

        every.sort(key=lambda t: (last(t), suffix(t), t))
        self.nodes: tuple[tuple[int, ...], ...] = tuple(every)
        self._index = {t: i for i, t in enumerate(self.nodes)}
        self.last: Ints = np.array([last(t) for t in self.nodes], dtype=np.int64)
        groups: list[Group] = []
        for (level, s), members in itertools.groupby(
            range(len(every)), key=lambda i: (last(every[i]), suffix(every[i]))
        ):
            ids = list(members)
            kids = [self._index[(*s, n)[-recall:]] for n in range(level + 1, num_bids)]
            groups.append(Group(level, ids[0], ids[-1] + 1, np.array(kids, dtype=np.int64)))
        self.groups: tuple[Group, ...] = tuple(groups)

    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, history: Sequence[int]) -> int:
        """The node of a history of bid indices (in the order they were made)."""
        return self._index[tuple(history[max(0, len(history) - self.recall) :])]

    @cached_property
    def valid(self) -> npt.NDArray[np.float64]:
        """``valid[i, c]``: 1.0 when column ``c`` is an action at node ``i``. Column ``c``
        is the call when ``c`` is the node's last bid + 1, else the raise to bid ``c - 1``;
        a node's actions are the columns from ``max(last + 1, 1)`` on."""
        cols = np.arange(self.num_bids + 1)
        first = np.maximum(self.last + 1, 1)
        out: npt.NDArray[np.float64] = (cols[None, :] >= first[:, None]).astype(np.float64)
        return out


def recall_for(*, num_bids: int, hands: int, budget: int, most: int | None = None) -> int:
    """The most bids a pair's players may recall (at least one, at most ``most``) when a
    player's strategy, ``nodes x hands x (num_bids + 1)`` numbers, must fit in ``budget``.

    >>> recall_for(num_bids=8, hands=4, budget=1_000_000)  # perfect recall fits
    8
    >>> recall_for(num_bids=36, hands=56, budget=1_000_000)  # 3 v 3, 6 faces: the last bid
    1
    """
    best = 1
    nodes = 1 + num_bids
    for r in range(2, num_bids + 1):
        if most is not None and r > most:
            break
        nodes += math.comb(num_bids, r)
        if nodes * hands * (num_bids + 1) > budget:
            break
        best = r
    return best
