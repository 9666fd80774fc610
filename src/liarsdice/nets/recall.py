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

__all__ = ["Group", "RecallRound", "RecallTree", "recall_for"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


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


class RecallRound:
    """A two-player round whose players recall their own dice and the last ``recall`` bids
    (:class:`RecallTree`), the opener to bid first, and its two passes under a pair of
    strategies: each player's reach at every node (:meth:`reach`) and the value of every
    pair of hands at every node (:meth:`values`). The learner
    (:class:`~liarsdice.learn.rounds.RecallCFR`) runs them at every iteration; the expert's
    search (:class:`~liarsdice.bots.bidding.lookahead.Lookahead`) once per strategy pair.

    ``truth[k, a, b]`` is 1 when bid ``k`` stands with the opener holding hand ``a`` and the
    other player hand ``b``; ``range_a`` and ``range_b`` are the hands' chances. A strategy
    is ``(nodes, hands, num_bids + 1)``: column ``c`` at a node is the call when ``c`` is
    the node's last bid + 1, else the raise to bid ``c - 1`` (:attr:`RecallTree.valid`).

    >>> truth = np.array([[[1.0, 1], [1, 1]], [[0, 1], [1, 1]], [[1, 0], [0, 0]],
    ...                   [[0, 0], [0, 1]]])  # 1x1 1x2 2x1 2x2 on one two-faced die each
    >>> g = RecallRound(truth, range_a=np.ones(2) / 2, range_b=np.ones(2) / 2, recall=2)
    >>> value, _ = g.values([g.uniform[:, None, :].repeat(2, axis=1)] * 2)
    >>> value[0].shape  # (the other's hands, nodes, the opener's hands) at the opener's nodes
    (2, 11, 2)
    """

    def __init__(
        self, truth: npt.NDArray[np.float64], *, range_a: Floats, range_b: Floats, recall: int
    ) -> None:
        self.truth = np.asarray(truth, dtype=np.float64)
        k, ha, hb = self.truth.shape
        self.K = int(k)
        self.hands = (int(ha), int(hb))
        self.range = (np.asarray(range_a, float), np.asarray(range_b, float))
        self.tree = RecallTree(num_bids=self.K, recall=recall)
        # The opener's payoff of a call on bid k, each actor's own hands first: the opener
        # calls the other's bid (wins when it is false), the other calls the opener's.
        self.calls = (1.0 - 2.0 * self.truth, (2.0 * self.truth - 1.0).transpose(0, 2, 1))
        self.valid = self.tree.valid
        #: Each node's actions equally likely (a strategy's row where it has no weight).
        self.uniform: Floats = self.valid / self.valid.sum(axis=1, keepdims=True)
        self.batches = self._batches()

    def _batches(self) -> list[tuple[int, int | None, int, npt.NDArray[np.int64]]]:
        """The passes' steps, the root first, then by last bid: ``(level, start, stop,
        children)``. A group of nodes ``start:stop`` sharing one row of ``children``; or,
        with ``start`` None, a level's one-node groups in one step: nodes ``children[:, 0]``
        (the node, then its children per row): with long recall groups are many and small."""
        out: list[tuple[int, int | None, int, npt.NDArray[np.int64]]] = []
        for level, members in itertools.groupby(self.tree.groups, key=lambda g: g.level):
            gs = list(members)
            single = [g for g in gs if g.stop - g.start == 1]
            if len(single) > 1:
                rows = [np.concatenate([[g.start], g.children]) for g in single]
                out.append((level, None, 0, np.array(rows, dtype=np.int64)))
                gs = [g for g in gs if g.stop - g.start > 1]
            out += [(level, g.start, g.stop, g.children[None, :]) for g in gs]
        return out

    @staticmethod
    def _step(
        start: int | None, stop: int, rows: npt.NDArray[np.int64]
    ) -> tuple[slice | npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """A step's nodes (a slice, or an index array) and its rows of children."""
        if start is None:
            return rows[:, 0], rows[:, 1:]
        return slice(start, stop), rows

    def reach(self, sigma: list[Floats]) -> list[Floats]:
        """``reach[q][p, i]``: player ``q``'s reach per hand at actor ``p``'s node ``i``."""
        n = len(self.tree)
        reach = [np.zeros((2, n, h)) for h in self.hands]
        reach[0][0, 0] = reach[1][0, 0] = 1.0  # the root, the opener to bid
        for m, start, stop, rows in self.batches:
            nodes, children = self._step(start, stop, rows)
            if not children.shape[1]:
                continue
            shared = start is not None
            for p in (0, 1):
                # Each player's reach goes on whatever the other's: a node the other never
                # reaches still needs the actor's average strategy (a best response may go
                # there), and one the actor never reaches its counterfactual regrets.
                own, other = reach[p][p, nodes], reach[1 - p][p, nodes]
                if own.any():
                    passed = np.einsum("nh,nhc->nch", own, sigma[p][nodes, :, m + 2 :])
                    if shared:
                        reach[p][1 - p, children[0]] += passed.sum(axis=0)
                    else:
                        reach[p][1 - p, children] += passed
                if other.any():
                    if shared:
                        reach[1 - p][1 - p, children[0]] += other.sum(axis=0)
                    else:
                        reach[1 - p][1 - p, children] += other[:, None, :]
        return reach

    def values(
        self, sigma: list[Floats], reach: list[Floats] | None = None, actor: int = 0
    ) -> tuple[list[Floats], list[Floats]]:
        """The opener's value for every pair of hands at every node when the actors play
        ``sigma`` (each ``(nodes, hands, columns)``), actor ``p``'s kept
        ``(other's hands, nodes, p's hands)`` so that a step's children are one gather of
        ``p``'s hands first; given ``reach``, also each actor's counterfactual value of every
        column at every node (the opener's payoff, weighted by the other player's reach),
        filled in for ``actor`` only."""
        n = len(self.tree)
        ha, hb = self.hands
        value = [np.zeros((hb, n, ha)), np.zeros((ha, n, hb))]
        shape = [(n, h, self.K + 1) for h in self.hands]
        cv = [np.zeros(s) for s in shape] if reach is not None else []
        for m, start, stop, rows in reversed(self.batches):
            nodes, children = self._step(start, stop, rows)
            for p in (0, 1):
                hp, ho = self.hands[p], self.hands[1 - p]
                s = sigma[p][nodes]
                here = np.zeros((hp, len(s), ho))
                # (p's hands, 1 or the nodes, children, the other's hands)
                kids = value[1 - p][:, children, :]
                if children.shape[1]:
                    raises = s[:, :, m + 2 :].transpose(1, 0, 2)[:, :, None, :]
                    here += np.matmul(raises, kids)[:, :, 0, :]
                if m >= 0:
                    call = self.calls[p][m]
                    here += s[:, :, m + 1].T[:, :, None] * call[:, None, :]
                value[p][:, nodes, :] = here.transpose(2, 1, 0)
                if reach is not None and p == actor:
                    opp = reach[1 - p][p, nodes] * self.range[1 - p]
                    if children.shape[1]:
                        at = np.matmul(kids, opp[None, :, :, None])[..., 0]  # (hp, nodes, c)
                        cv[p][nodes, :, m + 2 :] = at.transpose(1, 0, 2)
                    if m >= 0:
                        cv[p][nodes, :, m + 1] = opp @ call.T
        return value, cv


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
