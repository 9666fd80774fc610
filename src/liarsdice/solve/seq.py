"""Sequence-form arrays in the solver's layout: realization plans, best responses, values.

A player's strategy in sequence form is one array ``S`` of shape ``(2, half, rolls)`` in the
layout of :class:`~liarsdice.solve.tree.PublicTree` (half ``q`` holds the nodes where player
``q`` acts). Every node carries exactly one sequence of each player:

* at a node where the player acts, their liar call there: ``S[p][row]`` is the product of
  their own probabilities on the path, times the call's (the realization weight of the call);
* at a node where the opponent acts, the player's bid into it: ``S[o][row]`` is the product of
  their own probabilities on the path (their reach). At player 1's root this is the empty
  sequence, 1; player 0 has no call at the root, 0.

So the opponent's weight of the liar call at any node is their ``S`` there, which is all a
terminal value needs, and one array per player replaces the two node-ordered ones of
:class:`~liarsdice.solve.br.Plan`. A *behaviour* array of the same shape holds the
probability of each sequence's last action: the call at the player's own nodes, the bid into
the opponent's nodes.

Every pass runs over the levels of the layout (:attr:`PublicTree.levels`) in row chunks that
stay in the processor's cache, into buffers allocated by the caller; nothing here allocates
arrays of the tree's size except where it says so.

>>> from liarsdice.solve import br
>>> from liarsdice.solve.tree import PublicTree, make_game
>>> tree = PublicTree(make_game("openspiel", (1, 1), faces=3))
>>> seqs = tuple(realization(tree, p, uniform_behaviour(tree, p)) for p in (0, 1))
>>> plans = (plan_of(tree, 0, seqs[0]), plan_of(tree, 1, seqs[1]))
>>> round(exploitability(tree, seqs), 12) == round(br.exploitability(tree, plans), 12)
True
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from liarsdice.solve.br import Plan
from liarsdice.solve.tree import Floats, PublicTree

__all__ = [
    "CHUNK_BYTES",
    "best_response_value",
    "chunks",
    "exploitability",
    "game_value",
    "payoff_tables",
    "plan_of",
    "realization",
    "seq_of_plan",
    "uniform_behaviour",
]

#: Rows per chunk are chosen so that one chunk of one array is about this large: the few
#: arrays a chunk step touches stay in the level-2 cache.
CHUNK_BYTES = 1 << 17
#: ... and so that a chunk's product with a payoff table (rows x rolls x rolls) stays under
#: this size, below which OpenBLAS multiplies on one thread: its threads cost five times
#: the time when the cores are busy with other work.
CHUNK_PRODUCT = 1 << 20

Array = npt.NDArray[np.floating]


def chunks(lo: int, hi: int, step: int) -> Iterator[tuple[int, int]]:
    """``[lo, hi)`` in pieces of at most ``step`` rows."""
    for a in range(lo, hi, step):
        yield a, min(a + step, hi)


def chunk_rows(rolls: int, itemsize: int, product: int = 1) -> int:
    """Rows per chunk for arrays of ``rolls`` columns of ``itemsize`` bytes, multiplied by
    tables of ``product`` entries."""
    rows = min(CHUNK_BYTES // max(1, rolls * itemsize), CHUNK_PRODUCT // max(1, product))
    return max(64, rows)


def payoff_tables(tree: PublicTree, player: int, dtype: npt.DTypeLike) -> tuple[Array, Array]:
    """``(G, -G)``: ``G[b]`` (opponent rolls x own rolls) turns the opponent's call weights at
    a node with last bid ``b`` into ``player``'s chance-weighted returns when ``player`` made
    the bid (``-G[b]``: when ``player`` calls it)."""
    pay = tree.payoff if player == 1 else np.swapaxes(tree.payoff, 1, 2)
    g = np.ascontiguousarray(pay, dtype=dtype)
    return g, np.ascontiguousarray(-g)


def _parent_blocks(lo: int) -> Iterator[tuple[int, int]]:
    """The rows ``[lo, 2 lo)`` of a half (bids into the nodes of one level) grouped by their
    parents' level: ``(start, stop)``. The first block is the single child of parent row 0
    (the root, or player 1's node after bid 0, where the reach is 1); then, for ``size`` = 1,
    2, 4, ... the rows ``[lo + size, lo + 2 size)``, whose parents are the rows
    ``[size, 2 size)`` of the other half, and their grandparents the rows ``[0, size)`` of
    this one: the reach at a parent is the plan at its own parent."""
    yield lo, lo + 1
    size = 1
    while size < lo:
        yield lo + size, lo + 2 * size
        size *= 2


def realization(tree: PublicTree, player: int, behaviour: Array, out: Array | None = None) -> Array:
    """The sequence-form plan of a behaviour array (see the module docstring)."""
    p, o = player, 1 - player
    beh = behaviour
    if out is None:
        out = np.empty_like(beh)
    step = chunk_rows(beh.shape[2], beh.itemsize)
    out[0, 0] = 0.0 if p == 0 else 1.0  # no call at the root / player 1's empty sequence
    for lv in tree.levels:
        if lv.bid == 0:
            out[1, 0] = beh[1, 0]  # player 0's opening bid 0, or player 1's call after it
            continue
        h = lv.lo
        for a, b in chunks(h, 2 * h, step):  # own nodes: the reach at the parent, times the call
            np.multiply(out[o, a - h : b - h], beh[p, a:b], out=out[p, a:b])
        for start, stop in _parent_blocks(h):  # bids into the opponent's nodes
            if start == h:  # the parent is own row 0 (the root, or player 1 after bid 0)
                out[o, h] = beh[o, h]
                continue
            for a, b in chunks(start, stop, step):
                g = a - start
                np.multiply(out[o, g : g + b - a], beh[o, a:b], out=out[o, a:b])
    return out


def uniform_behaviour(tree: PublicTree, player: int, dtype: npt.DTypeLike = np.float64) -> Array:
    """The behaviour array of the uniform policy (illegal opening bids get 0)."""
    p, o = player, 1 - player
    k = len(tree.rolls[p])
    out = np.zeros((2, tree.half, k), dtype=dtype)
    root_actions = len(tree.opening) if p == 0 else tree.level_actions(0)
    for lv in tree.levels:
        if lv.bid == 0:
            if p == 0:
                out[1, 0] = 1.0 / root_actions if 0 in tree.opening else 0.0
            else:
                out[1, 0] = 1.0 / tree.level_actions(0)
            continue
        h = lv.lo
        out[p, h : 2 * h] = 1.0 / tree.level_actions(lv.bid)
        out[o, h] = 1.0 / root_actions
        for start, stop in _parent_blocks(h):
            if start > h:
                parent_bid = (stop - start).bit_length()  # parents at rows [size, 2 size)
                out[o, start:stop] = 1.0 / tree.level_actions(parent_bid)
    if p == 0:
        for b in range(tree.num_bids):
            if b not in tree.opening:
                out[1, tree.root_child_row(b)] = 0.0
    else:
        out[0, 0] = 1.0
    return out


def best_response_value(
    tree: PublicTree, player: int, opponent: Array, *, scale: float = 1.0, work: Array | None = None
) -> float:
    """Value of ``player``'s best response to the opponent's sequence-form plan ``opponent``
    (in any positive ``scale``: the value is divided by it). ``work``: a (2, half, own rolls)
    buffer to use."""
    i, o = player, 1 - player
    k = len(tree.rolls[i])
    dtype = opponent.dtype
    v = work if work is not None else np.empty((2, tree.half, k), dtype=dtype)
    g, neg = payoff_tables(tree, i, dtype)
    step = chunk_rows(max(k, opponent.shape[2]), opponent.itemsize, k * opponent.shape[2])
    scratch = np.empty(step * k, dtype=dtype)
    last = tree.num_bids - 1
    for lv in reversed(tree.levels):
        first = lv.bid == last
        for q in lv.parities:
            for a, b in chunks(lv.lo, lv.hi, step):
                pa, pb = a - lv.lo, b - lv.lo
                t = scratch[: (b - a) * k].reshape(b - a, k)
                if q == i:  # player i calls here, or bids on
                    np.matmul(opponent[q, a:b], neg[lv.bid], out=t)
                    node = v[i, a:b]
                    if first:
                        node[...] = t
                    else:
                        np.maximum(node, t, out=node)
                    parent = v[o, pa:pb]  # the opponent's node: their plan weighs the children
                    if first:
                        parent[...] = node
                    else:
                        parent += node
                else:
                    np.matmul(opponent[q, a:b], g[lv.bid], out=t)
                    node = v[o, a:b]
                    if first:
                        node[...] = t
                    else:
                        node += t
                    parent = v[i, pa:pb]
                    if first:
                        parent[...] = node
                    else:
                        np.maximum(parent, node, out=parent)
    if i == 0:  # no call at the root, and only the legal opening bids
        rows = [tree.root_child_row(b) for b in sorted(tree.opening)]
        root = np.max(v[1, rows].astype(np.float64), axis=0)
    else:
        root = v[0, 0].astype(np.float64)
    return float(root.sum()) / scale


def game_value(tree: PublicTree, seqs: tuple[Array, Array], scale: float = 1.0) -> float:
    """Expected return of player 0 when both players follow these plans (divided by
    ``scale``, the product of the plans' scales)."""
    s0, s1 = seqs
    g, _ = payoff_tables(tree, 0, s1.dtype)
    k0 = s0.shape[2]
    step = chunk_rows(max(k0, s1.shape[2]), s1.itemsize, k0 * s1.shape[2])
    scratch = np.empty(step * k0, dtype=s1.dtype)
    total = 0.0
    for lv in tree.levels:
        for q in lv.parities:  # q calls, 1 - q made the bid
            sign = 1.0 if q == 1 else -1.0
            for a, b in chunks(lv.lo, lv.hi, step):
                t = scratch[: (b - a) * k0].reshape(b - a, k0)
                np.matmul(s1[q, a:b], g[lv.bid], out=t)
                total += sign * float(np.vdot(s0[q, a:b].astype(np.float64), t))
    return total / scale


def exploitability(
    tree: PublicTree, seqs: tuple[Array, Array], scales: tuple[float, float] = (1.0, 1.0)
) -> float:
    """NashConv / 2 of the profile (see :mod:`liarsdice.solve.br`); ``scales``: each plan's."""
    br0 = best_response_value(tree, 0, seqs[1], scale=scales[1])
    br1 = best_response_value(tree, 1, seqs[0], scale=scales[0])
    return (br0 + br1) / 2.0


# ---------------------------------------------------------------- node-ordered plans
def plan_of(tree: PublicTree, player: int, seq: Array) -> Plan:
    """The node-ordered :class:`Plan` (float64) of a sequence-form plan (small trees)."""
    p, o = player, 1 - player
    masks = np.arange(tree.num_nodes)
    rows = masks >> 1
    own = tree.actor == p
    s = seq.astype(np.float64)
    parent = masks - np.where(masks > 0, 1 << np.maximum(tree.top.astype(np.int64), 0), 0)
    x = np.where(own[:, None], s[o, parent >> 1], s[o, rows])
    if p == 0:
        x[0] = 1.0
    xc = np.where(own[:, None], s[p, rows], x)
    xc[0] = 0.0  # no call at the root
    return Plan(np.ascontiguousarray(x), np.ascontiguousarray(xc))


def seq_of_plan(tree: PublicTree, player: int, plan: Plan) -> Floats:
    """The sequence-form plan of a node-ordered :class:`Plan`."""
    p, o = player, 1 - player
    out: Floats = np.empty((2, tree.half, plan.x.shape[1]))
    out[p] = tree.to_layout(plan.xc)[p]
    out[o] = tree.to_layout(plan.x)[o]
    if p == 0:
        out[0, 0] = 0.0
    return out
