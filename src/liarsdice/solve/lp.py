"""The sequence-form linear program (von Stengel 1996) for tiny games, solved with HiGHS.

Player ``p``'s sequences are the empty sequence and, for each roll, every edge ``p`` owns (a bid
edge, named by its child node, or the liar call at a node). The information set of ``p`` at
node ``m`` with roll ``r`` is entered by the sequence ending with ``p``'s previous edge, which
is the bid into ``m``'s parent (``m``'s grandparent acts as ``p``), or the empty sequence.

Player 0 solves ``max_{x, z} z_0`` subject to ``F^T z <= A^T x``, ``E x = e``, ``x >= 0``:
the dual of player 1's best response. The optimum is the game value for player 0, and ``x``
an equilibrium strategy; the symmetric program gives player 1's. Only for small trees: the
program has one variable per (sequence, roll).

>>> from liarsdice.solve.tree import make_game
>>> res = solve_lp(PublicTree(make_game("snyd-normal", faces=2)))
>>> abs(round(res.value, 9))
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, sparse

from liarsdice.solve.br import Plan
from liarsdice.solve.tree import PublicTree, SolverError

__all__ = ["LPResult", "solve_lp"]

#: Largest tree (nodes) the LP is built for.
MAX_LP_NODES = 1 << 12


@dataclass(frozen=True)
class LPResult:
    """Game value for player 0 and both players' equilibrium realization plans."""

    value: float
    plans: tuple[Plan, Plan]


class _Sequences:
    """Sequence indices of one player: 0 is empty, then (edge, roll) pairs."""

    def __init__(self, tree: PublicTree, p: int) -> None:
        self.p = p
        self.rolls = len(tree.rolls[p])
        self.bid: dict[int, int] = {}  # edge (child node) -> first index (one per roll)
        self.call: dict[int, int] = {}
        n = 1
        for m in range(tree.num_nodes):
            if m and tree.reachable[m] and int(tree.actor[m]) != p:
                self.bid[m] = n
                n += self.rolls
            if m and tree.reachable[m] and int(tree.actor[m]) == p:
                self.call[m] = n
                n += self.rolls
        self.size = n

    def parent(self, tree: PublicTree, m: int, r: int) -> int:
        """The sequence entering p's information set at node m (roll r)."""
        if m == 0:
            return 0
        grand = m - (1 << int(tree.top[m]))  # m's parent, where the opponent acted
        if grand == 0:
            return 0
        return self.bid[grand] + r

    def constraints(self, tree: PublicTree) -> tuple[sparse.csr_matrix, np.ndarray]:
        """E (rows: the empty sequence, then each information set) and e."""
        rows, cols, vals = [0], [0], [1.0]
        row = 1
        for m in range(tree.num_nodes):
            if int(tree.actor[m]) != self.p or not tree.reachable[m]:
                continue
            for r in range(self.rolls):
                rows.append(row)
                cols.append(self.parent(tree, m, r))
                vals.append(-1.0)
                if m:
                    rows.append(row)
                    cols.append(self.call[m] + r)
                    vals.append(1.0)
                for b in tree.bid_children(m):
                    rows.append(row)
                    cols.append(self.bid[m | 1 << b] + r)
                    vals.append(1.0)
                row += 1
        e = np.zeros(row)
        e[0] = 1.0
        mat = sparse.csr_matrix((vals, (rows, cols)), shape=(row, self.size))
        return mat, e

    def plan(self, tree: PublicTree, x: np.ndarray) -> Plan:
        """Node-indexed realization plan from a sequence vector."""
        px = np.zeros((tree.num_nodes, self.rolls))
        pxc = np.zeros_like(px)
        px[0] = 1.0
        for m in range(1, tree.num_nodes):
            if not tree.reachable[m]:
                continue
            parent = m - (1 << int(tree.top[m]))
            px[m] = x[self.bid[m] : self.bid[m] + self.rolls] if m in self.bid else px[parent]
            pxc[m] = x[self.call[m] : self.call[m] + self.rolls] if m in self.call else px[m]
        return Plan(px, pxc)


def _payoff(tree: PublicTree, s0: _Sequences, s1: _Sequences) -> sparse.csr_matrix:
    """A[seq0, seq1]: player 0's chance-weighted return at each terminal (liar call)."""
    rows, cols, vals = [], [], []
    grid0, grid1 = np.meshgrid(np.arange(s0.rolls), np.arange(s1.rolls), indexing="ij")
    r0s, r1s = grid0.ravel(), grid1.ravel()
    for m in range(1, tree.num_nodes):
        if not tree.reachable[m]:
            continue
        b = int(tree.top[m])
        caller = int(tree.actor[m])
        u = tree.sign0[m] * tree.payoff[b][r0s, r1s]
        seq0 = (s0.call[m] if caller == 0 else s0.bid[m]) + r0s
        seq1 = (s1.call[m] if caller == 1 else s1.bid[m]) + r1s
        rows.extend(seq0.tolist())
        cols.extend(seq1.tolist())
        vals.extend(u.tolist())
    return sparse.csr_matrix((vals, (rows, cols)), shape=(s0.size, s1.size))


def _solve_side(
    mat_a: sparse.csr_matrix, e_own: sparse.csr_matrix, e_vec: np.ndarray, f_opp: sparse.csr_matrix
) -> tuple[float, np.ndarray]:
    """max z_0 s.t. F^T z - A^T x <= 0, E x = e, x >= 0, z free (A: own x opponent)."""
    nx, nz = e_own.shape[1], f_opp.shape[0]
    c = np.zeros(nx + nz)
    c[nx] = -1.0
    a_ub = sparse.hstack([-mat_a.T, f_opp.T]).tocsr()
    a_eq = sparse.hstack([e_own, sparse.csr_matrix((e_own.shape[0], nz))]).tocsr()
    bounds = [(0.0, None)] * nx + [(None, None)] * nz
    res = optimize.linprog(
        c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=e_vec, bounds=bounds,
        method="highs",
    )  # fmt: skip
    if res.status != 0:
        raise SolverError(f"the sequence-form LP failed: {res.message}")
    return float(-res.fun), np.asarray(res.x[:nx])


def solve_lp(tree: PublicTree) -> LPResult:
    """Solve the game exactly by linear programming (tiny trees only)."""
    if tree.num_nodes > MAX_LP_NODES:
        raise SolverError(f"the LP is for trees of at most {MAX_LP_NODES} nodes")
    s0, s1 = _Sequences(tree, 0), _Sequences(tree, 1)
    mat_a = _payoff(tree, s0, s1)
    e0, ev0 = s0.constraints(tree)
    e1, ev1 = s1.constraints(tree)
    value, x = _solve_side(mat_a, e0, ev0, e1)
    value1, y = _solve_side((-mat_a.T).tocsr(), e1, ev1, e0)
    if abs(value + value1) > 1e-7:
        raise SolverError(f"LP values disagree: {value} vs {-value1}")
    return LPResult(value, (s0.plan(tree, x), s1.plan(tree, y)))
