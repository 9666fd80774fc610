"""Counterfactual regret minimisation over the public tree, vectorised with numpy.

Every public node (a bid history, see :mod:`liarsdice.solve.tree`) holds a vector over a
player's rolls. Updates alternate: player 0 updates against player 1's current strategy, then
player 1 against player 0's new one. One update is four passes over the levels of the tree's
layout (each player's arrays split by whose turn it is, see :mod:`liarsdice.solve.seq`), each
level in row chunks small enough to stay in cache, every result written in place into arrays
allocated once:

1. *backward*: the opponent's terminal weights times the payoff tables give the liar calls'
   values; the updating player's counterfactual values are summed up the tree with their
   current strategy; the call regrets are updated as soon as a node's value is complete; the
   opponent's current plan is added into their average as it is read;
2. *bids*: the regrets of the bids (a child's value minus its parent's), and the positive
   regrets summed per information set;
3. *normalise*: regret matching (uniform where no regret is positive);
4. *forward*: the new current strategy's realization plan, which the opponent's update reads.

Memory: per player its regrets, current strategy and average (each nodes x rolls), plus one
realization plan and one value array (:func:`~liarsdice.solve.tree.estimate_bytes`). Floats
are float64, or float32 for large trees (half the memory and time; exploitability is then
exact to about 1e-6, far below any useful target).

Algorithms (``algorithm=``):

* ``"cfr+"`` — CFR+ (Tammelin 2014): regret-matching+ (regrets floored at zero), linear
  averaging (iteration ``t`` weighs ``t``).
* ``"dcfr"`` (default) — discounted CFR (Brown & Sandholm 2019) with alpha=1.5, beta=0,
  gamma=2: positive regrets are scaled by t^1.5/(t^1.5+1), negative ones halved each
  iteration, iteration ``t`` weighs ``t**2`` in the average. The fastest here: on ``openspiel``
  1v1 it reaches exploitability 1e-3 in about 180 iterations (CFR+: about 290).
* ``"pcfr+"`` — predictive CFR+ (Farina, Kroer, Sandholm 2021): regret-matching+ on the
  regrets plus the last instantaneous regret as a prediction; quadratic averaging.

The average strategy is accumulated in sequence form (realization plans), which is exactly
what the exact best response needs.

>>> from liarsdice.solve.tree import make_game
>>> result = solve(make_game("openspiel", faces=3), target=1e-6)
>>> round(result.value, 5), result.exploitability <= 1e-6
(0.11111, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.game import Game
from liarsdice.solve import seq
from liarsdice.solve.br import Plan
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, PublicTree, SolverError, estimate_bytes

__all__ = ["ALGORITHMS", "CFRSolver", "Progress", "SolveResult", "choose_dtype", "solve"]

Algorithm = Literal["cfr+", "pcfr+", "dcfr"]
ALGORITHMS: tuple[Algorithm, ...] = ("dcfr", "cfr+", "pcfr+")

_AVERAGE_POWER: dict[str, float] = {"cfr+": 1.0, "pcfr+": 2.0, "dcfr": 2.0}

Array = npt.NDArray[np.floating]

#: Trees with at least this many nodes are solved in float32 when the target allows it.
FLOAT32_MIN_NODES = 1 << 15
#: float32 is used only for targets at least this large (its exploitability is exact to ~1e-6).
FLOAT32_MIN_TARGET = 1e-4


def choose_dtype(
    tree: PublicTree, target: float, max_bytes: int = DEFAULT_MAX_BYTES
) -> type[np.floating]:
    """float32 for large trees and targets it resolves, or when float64 does not fit."""
    rolls = [len(r) for r in tree.rolls]
    fits64 = estimate_bytes(tree.num_bids, rolls, 8) <= max_bytes
    if not fits64 or (tree.num_nodes >= FLOAT32_MIN_NODES and target >= FLOAT32_MIN_TARGET):
        return np.float32
    return np.float64


class _Back(NamedTuple):
    """One chunk of the backward pass (views made once)."""

    own: bool  # the updating player acts at these nodes (else the opponent)
    first: bool  # the deepest level: write, not add
    y: Array  # the opponent's plan at the nodes
    acc: Array  # scratch (opponent's rolls)
    avg: Array  # the opponent's average plan at the nodes
    table: Array  # payoff table of the level
    tv: Array  # scratch: the call's values, then its regrets
    term: Array  # scratch
    node: Array  # the nodes' values
    beh: Array  # the updating player's call (own nodes) or bid (opponent's) probabilities
    parent: Array  # the parents' values
    regret: Array  # the call regrets (own nodes)
    pos: Array  # scratch


class _Bid(NamedTuple):
    """One chunk of the bids pass."""

    child: Array  # values of the opponent's nodes
    parent: Array  # values of their parents (own nodes)
    inst: Array  # scratch: the bids' regrets
    regret: Array
    numerator: Array  # the bids' probabilities, overwritten by the regret-matching numerators
    pos: Array  # scratch
    total_parent: Array  # the numerators' sums at the parents
    total_node: Array  # the sums at the own nodes of this level, started here
    call: Array  # the call numerators of those own nodes
    illegal: bool  # the first row is an illegal opening bid


class _Prep(NamedTuple):
    """Own nodes' numerator sums, turned into their inverses, and the uniform fallback."""

    total: Array  # the sums, then their inverses (anything finite where the sum is zero)
    uniform: Array  # 1/actions where the sum is zero, else 0
    flags: npt.NDArray[np.bool_]  # scratch
    actions: float  # 1/actions at those nodes


class _Scale(NamedTuple):
    """``numerators = numerators * inverse + uniform``: regret matching of one chunk."""

    numerators: Array
    inverse: Array
    uniform: Array


#: One chunk of the regret-matching pass: sums to prepare, calls and bids to scale.
_Norm = tuple[_Prep | None, _Scale | None, _Scale | None]


class CFRSolver:
    """CFR+ / predictive CFR+ / DCFR state for one public tree (see the module docstring).

    ``dtype`` is float64 (default) or float32; ``max_bytes`` (when given) refuses a solver
    whose arrays would need more.
    """

    def __init__(
        self,
        tree: PublicTree,
        algorithm: Algorithm = "dcfr",
        *,
        dtype: npt.DTypeLike = np.float64,
        max_bytes: int | None = None,
    ) -> None:
        if algorithm not in _AVERAGE_POWER:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose from {ALGORITHMS}")
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"dtype must be float32 or float64, not {dt}")
        self.tree = tree
        self.algorithm: Algorithm = algorithm
        self.dtype = dt
        self.iterations = 0
        sizes = (len(tree.rolls[0]), len(tree.rolls[1]))
        self.sizes = sizes
        need = estimate_bytes(tree.num_bids, sizes, dt.itemsize)
        if max_bytes is not None and need > max_bytes:
            raise SolverError(
                f"the solver needs about {need / 2**30:.1f} GiB in {dt.name} "
                f"(limit {max_bytes / 2**30:.1f} GiB)"
            )
        half = tree.half
        kmax = max(sizes)
        #: per player, (2, half, rolls): regrets of each sequence (the call at own nodes, the
        #: bid into the opponent's), the current behaviour strategy, the average plan's sum
        self.regret = [np.zeros((2, half, k), dtype=dt) for k in sizes]
        self.strategy = [seq.uniform_behaviour(tree, p, dt) for p in (0, 1)]
        self.average = [np.zeros((2, half, k), dtype=dt) for k in sizes]
        self.weight_sum = [0.0, 0.0]
        self._plan_buf = np.empty(2 * half * kmax, dtype=dt)
        self._value_buf = np.empty(2 * half * kmax, dtype=dt)
        self._step = seq.chunk_rows(kmax, dt.itemsize, sizes[0] * sizes[1])
        self._scratch = [np.empty(self._step * kmax, dtype=dt) for _ in range(3)]
        self._flags = np.empty(self._step * kmax, dtype=bool)
        self._views: dict[tuple[int, int, int], Array] = {}
        self._tiny = float(np.finfo(dt).tiny)
        # Every pass is a list of chunk steps whose views are made once, here.
        self._back = [self._backward_steps(i) for i in (0, 1)]
        self._bids = [self._bid_steps(i) for i in (0, 1)]
        self._norm = [self._normalise_steps(i) for i in (0, 1)]
        self._fwd = [self._forward_steps(i) for i in (0, 1)]
        self._run_forward(1)
        self._plan_owner = 1  # whose current plan the plan buffer holds

    # ---------------------------------------------------------------- buffers
    def _plan(self, p: int) -> Array:
        k = self.sizes[p]
        return self._plan_buf[: 2 * self.tree.half * k].reshape(2, self.tree.half, k)

    def _values(self, p: int) -> Array:
        k = self.sizes[p]
        return self._value_buf[: 2 * self.tree.half * k].reshape(2, self.tree.half, k)

    def _tmp(self, j: int, rows: int, k: int) -> Array:
        """A (rows, k) view of scratch buffer ``j`` (the same view object for the same shape)."""
        key = (j, rows, k)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = self._scratch[j][: rows * k].reshape(rows, k)
        return view

    def _chunks(self, lo: int, hi: int) -> list[tuple[int, int, int, int]]:
        """Row chunks ``(a, b, pa, pb)`` of the rows ``[lo, hi)``, with their parents'."""
        return [(a, b, a - lo, b - lo) for a, b in seq.chunks(lo, hi, self._step)]

    def _backward_steps(self, i: int) -> list[_Back]:
        o = 1 - i
        ki, ko = self.sizes[i], self.sizes[o]
        opp, v, r = self._plan(o), self._values(i), self.regret[i]
        beh, avg = self.strategy[i], self.average[o]
        g, neg = seq.payoff_tables(self.tree, i, self.dtype)
        last = self.tree.num_bids - 1
        out: list[_Back] = []
        for lv in reversed(self.tree.levels):
            first = lv.bid == last
            for q in lv.parities:
                own = q == i
                for a, b, pa, pb in self._chunks(lv.lo, lv.hi):
                    n = b - a
                    out.append(
                        _Back(
                            own,
                            first,
                            opp[q, a:b],
                            self._tmp(1, n, ko),
                            avg[q, a:b],
                            neg[lv.bid] if own else g[lv.bid],
                            self._tmp(0, n, ki),
                            self._tmp(1, n, ki),
                            v[i if own else o, a:b],
                            beh[q, a:b],
                            v[o if own else i, pa:pb],
                            r[i, a:b],
                            self._tmp(2, n, ki),
                        )
                    )
        return out

    def _bid_steps(self, i: int) -> list[_Bid]:
        o = 1 - i
        ki = self.sizes[i]
        tree = self.tree
        v, r, beh = self._values(i), self.regret[i], self.strategy[i]
        total = v[o]
        out: list[_Bid] = []
        for lv in tree.levels:
            if lv.bid == 0:
                continue
            illegal = i == 0 and lv.bid not in tree.opening
            for a, b, pa, pb in self._chunks(lv.lo, lv.hi):
                n = b - a
                out.append(
                    _Bid(
                        v[o, a:b],
                        v[i, pa:pb],
                        self._tmp(0, n, ki),
                        r[o, a:b],
                        beh[o, a:b],
                        self._tmp(2, n, ki),
                        total[pa:pb],
                        total[a:b],
                        beh[i, a:b],
                        illegal and a == lv.lo,
                    )
                )
        return out

    def _normalise_steps(self, i: int) -> list[_Norm]:
        o = 1 - i
        ki = self.sizes[i]
        tree = self.tree
        v, beh = self._values(i), self.strategy[i]
        total, uniform = v[o], v[i]  # sums (then their inverses) and the uniform fallback
        root_actions = len(tree.opening) if i == 0 else tree.level_actions(0)
        flags1 = self._flags[:ki].reshape(1, ki)
        # the root (player 0) or player 1's node after bid 0: its own row 0 and one child
        root = _Prep(total[0:1], uniform[0:1], flags1, 1.0 / root_actions)
        out: list[_Norm] = [(root, None, _Scale(beh[1, 0:1], total[0:1], uniform[0:1]))]
        for lv in tree.levels:
            if lv.bid == 0:
                continue
            actions = 1.0 / tree.level_actions(lv.bid)
            for a, b, pa, pb in self._chunks(lv.lo, lv.hi):
                flags = self._flags[: (b - a) * ki].reshape(b - a, ki)
                prep = _Prep(total[a:b], uniform[a:b], flags, actions)
                calls = _Scale(beh[i, a:b], total[a:b], uniform[a:b])
                bids = _Scale(beh[o, a:b], total[pa:pb], uniform[pa:pb])
                out.append((prep, calls, bids))
        return out

    def _forward_steps(self, i: int) -> list[tuple[Array | None, Array, Array]]:
        """``dst = src * behaviour`` (or ``= behaviour``) steps computing i's current plan."""
        o = 1 - i
        out_plan, beh = self._plan(i), self.strategy[i]
        steps: list[tuple[Array | None, Array, Array]] = []
        for lv in self.tree.levels:
            if lv.bid == 0:
                steps.append((None, beh[1, 0:1], out_plan[1, 0:1]))
                continue
            h = lv.lo
            for a, b, pa, pb in self._chunks(h, 2 * h):  # calls at own nodes
                steps.append((out_plan[o, pa:pb], beh[i, a:b], out_plan[i, a:b]))
            steps.append((None, beh[o, h : h + 1], out_plan[o, h : h + 1]))
            size = 1
            while size < h:  # bids whose parents are the own rows [size, 2 size)
                start = h + size
                for a, b in seq.chunks(start, start + size, self._step):
                    src = out_plan[o, a - start : b - start]
                    steps.append((src, beh[o, a:b], out_plan[o, a:b]))
                size *= 2
        return steps

    def _run_forward(self, i: int) -> None:
        plan = self._plan(i)
        plan[0, 0] = 0.0 if i == 0 else 1.0  # no call at the root / player 1's empty sequence
        for src, beh, dst in self._fwd[i]:
            if src is None:
                dst[...] = beh
            else:
                np.multiply(src, beh, out=dst)
        self._plan_owner = i

    # ------------------------------------------------------------------ regrets
    def _regret_step(
        self, r: Array, inst: Array, numerator: Array, pos: Array, discount: float
    ) -> None:
        """Add the instantaneous regrets ``inst`` to ``r`` (discounted, or floored) and write
        the regret-matching numerators (positive parts, or the prediction's) to
        ``numerator``; ``pos`` is scratch."""
        algo = self.algorithm
        if algo == "dcfr":
            np.maximum(r, 0.0, out=pos)
            pos *= discount - 0.5  # positive regrets: times `discount`; negative: halved
            r *= 0.5
            r += pos
            r += inst
            np.maximum(r, 0.0, out=numerator)
        elif algo == "cfr+":
            r += inst
            np.maximum(r, 0.0, out=r)
            numerator[...] = r
        else:  # pcfr+: the next strategy plays the regrets plus the last regret as prediction
            r += inst
            np.maximum(r, 0.0, out=r)
            np.add(r, inst, out=numerator)
            np.maximum(numerator, 0.0, out=numerator)

    # ------------------------------------------------------------------ update
    def _update(self, i: int, t: int) -> None:
        o = 1 - i
        if self._plan_owner != o:
            raise RuntimeError("the plan buffer must hold the opponent's current plan")
        v = self._values(i)
        w = float(t) ** _AVERAGE_POWER[self.algorithm]
        self.weight_sum[o] += w
        alpha = float(t) ** 1.5
        discount = alpha / (alpha + 1.0)
        self._backward(i, w, discount)  # 1. values, call regrets, the opponent's average
        if o == 1:
            self.average[1][0, 0] += w  # player 1's empty sequence at the root
        self._bid_regrets(i, v, discount)  # 2. the bids' regrets
        self._regret_matching(i)  # 3. the new behaviour
        self._run_forward(i)  # 4. forward: the new current plan

    def _backward(self, i: int, w: float, discount: float) -> None:
        """Backward through ``i``'s call steps: node values, ``i``'s call regrets, and the
        opponent's plan added to its average with weight ``w``."""
        regret_step = self._regret_step
        multiply, matmul = np.multiply, np.matmul
        for st in self._back[i]:
            multiply(st.y, w, out=st.acc)
            np.add(st.avg, st.acc, out=st.avg)
            matmul(st.y, st.table, out=st.tv)
            node = st.node
            if st.own:  # i may call here: its value, then its regret
                if st.first:
                    multiply(st.beh, st.tv, out=node)
                else:
                    multiply(st.beh, st.tv, out=st.term)
                    node += st.term
                np.subtract(st.tv, node, out=st.tv)
                regret_step(st.regret, st.tv, st.beh, st.pos, discount)
                if st.first:
                    st.parent[...] = node
                else:
                    np.add(st.parent, node, out=st.parent)
            else:  # the opponent may call here; i's bid into it weighs its value
                if st.first:
                    node[...] = st.tv
                else:
                    node += st.tv
                if st.first:
                    multiply(st.beh, node, out=st.parent)
                else:
                    multiply(st.beh, node, out=st.term)
                    np.add(st.parent, st.term, out=st.parent)

    def _bid_regrets(self, i: int, v: Array, discount: float) -> None:
        """``i``'s bids: their regrets; numerators summed per own node into ``total`` (which
        takes the storage of the opponent's-node values as they are used up, level by
        level)."""
        regret_step = self._regret_step
        beh = self.strategy[i]
        total = v[1 - i]
        if i == 0:  # the opening bid 0, from the root (no call there)
            inst = self._tmp(0, 1, self.sizes[0])
            np.subtract(v[1, 0:1], v[0, 0:1], out=inst)
            pos = self._tmp(2, 1, self.sizes[0])
            regret_step(self.regret[0][1, 0:1], inst, beh[1, 0:1], pos, discount)
            if 0 not in self.tree.opening:
                beh[1, 0] = 0.0
        # else: player 1's call after the bid 0, whose numerator starts the sum
        total[0] = beh[1, 0]
        for bs in self._bids[i]:
            np.subtract(bs.child, bs.parent, out=bs.inst)
            regret_step(bs.regret, bs.inst, bs.numerator, bs.pos, discount)
            if bs.illegal:
                bs.numerator[0] = 0.0
            np.add(bs.total_parent, bs.numerator, out=bs.total_parent)
            bs.total_node[...] = bs.call

    def _regret_matching(self, i: int) -> None:
        """``i``'s behaviour from its numerators and their sums (uniform where they sum to
        nothing); no opening bid the rules forbid."""
        tree, beh = self.tree, self.strategy[i]
        tiny = self._tiny
        multiply = np.multiply
        for prep, calls, bids in self._norm[i]:
            if prep is not None:
                np.equal(prep.total, 0.0, out=prep.flags)
                multiply(prep.flags, prep.actions, out=prep.uniform)
                np.maximum(prep.total, tiny, out=prep.total)
                np.reciprocal(prep.total, out=prep.total)
            for sc in (calls, bids):
                if sc is not None:
                    multiply(sc.numerators, sc.inverse, out=sc.numerators)
                    np.add(sc.numerators, sc.uniform, out=sc.numerators)
        if i == 0:
            beh[0, 0] = 0.0
            for b in range(tree.num_bids):
                if b not in tree.opening:
                    beh[1, tree.root_child_row(b)] = 0.0
        else:
            beh[0, 0] = 1.0

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (each updates player 0, then player 1)."""
        for _ in range(n):
            self.iterations += 1
            t = self.iterations
            self._update(0, t)
            self._update(1, t)

    # ------------------------------------------------------------------- plans
    def current_seq(self, p: int) -> Array:
        """Sequence-form plan of player ``p``'s current strategy (a new array)."""
        return seq.realization(self.tree, p, self.strategy[p])

    def average_seq(self, p: int) -> Array:
        """Sequence-form plan of player ``p``'s average strategy (a new array)."""
        w = self.weight_sum[p]
        if w == 0.0:
            return self.current_seq(p)
        out: Array = self.average[p] / w
        return out

    def average_seqs(self) -> tuple[Array, Array]:
        """Both players' average plans (new arrays)."""
        return (self.average_seq(0), self.average_seq(1))

    def current_plan(self, p: int) -> Plan:
        """Node-ordered realization plan of player ``p``'s current strategy (small trees)."""
        return seq.plan_of(self.tree, p, self.current_seq(p))

    def average_plan(self, p: int) -> Plan:
        """Node-ordered realization plan of player ``p``'s average strategy (small trees)."""
        return seq.plan_of(self.tree, p, self.average_seq(p))

    def average_plans(self) -> tuple[Plan, Plan]:
        """Both players' average realization plans, node-ordered (small trees)."""
        return (self.average_plan(0), self.average_plan(1))

    # -------------------------------------------------------------- evaluation
    def _average_sums(self) -> tuple[tuple[Array, Array], tuple[float, float]]:
        """The average plans unnormalised, with their scales (no copies once started)."""
        sums: list[Array] = []
        scales: list[float] = []
        for p in (0, 1):
            w = self.weight_sum[p]
            sums.append(self.average[p] if w > 0.0 else self.current_seq(p))
            scales.append(w if w > 0.0 else 1.0)
        return (sums[0], sums[1]), (scales[0], scales[1])

    def exploitability(self) -> float:
        """Exact exploitability (NashConv / 2) of the average strategy profile."""
        (s0, s1), (w0, w1) = self._average_sums()
        br0 = seq.best_response_value(self.tree, 0, s1, scale=w1, work=self._values(0))
        br1 = seq.best_response_value(self.tree, 1, s0, scale=w0, work=self._values(1))
        return (br0 + br1) / 2.0

    def value(self) -> float:
        """Player 0's expected return under the average strategy profile."""
        sums, (w0, w1) = self._average_sums()
        return seq.game_value(self.tree, sums, scale=w0 * w1)


@dataclass(frozen=True)
class Progress:
    """One evaluation point of a run."""

    iterations: int
    seconds: float
    exploitability: float
    value: float


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` reached, with the solver holding the average strategy."""

    value: float
    exploitability: float
    iterations: int
    seconds: float
    solver: CFRSolver
    history: tuple[Progress, ...]

    @property
    def tree(self) -> PublicTree:
        return self.solver.tree

    def seqs(self) -> tuple[Array, Array]:
        """Both players' average plans in sequence form (new arrays)."""
        return self.solver.average_seqs()

    def plans(self) -> tuple[Plan, Plan]:
        """Both players' average realization plans, node-ordered (small trees)."""
        return self.solver.average_plans()

    def summary(self) -> dict[str, float | int]:
        """The JSON summary: value, exploitability, iterations, seconds."""
        return {
            "value": self.value,
            "exploitability": self.exploitability,
            "iterations": self.iterations,
            "seconds": self.seconds,
        }


def solve(
    game: Game | PublicTree,
    *,
    target: float = 1e-3,
    max_iterations: int = 100_000,
    max_seconds: float | None = None,
    algorithm: Algorithm = "dcfr",
    check_every: int | None = None,
    callback: Callable[[Progress], None] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    dtype: npt.DTypeLike | None = None,
) -> SolveResult:
    """Run CFR until the average strategy's exploitability is at most ``target``.

    The exploitability is computed exactly every ``check_every`` iterations (default: about
    every tenth of the iterations so far, which keeps its cost near 10%) and after the last
    iteration; ``callback`` sees each evaluation. ``dtype`` (default: :func:`choose_dtype`)
    is float64 or float32; ``max_bytes`` bounds the solver's memory.
    """
    tree = game if isinstance(game, PublicTree) else PublicTree(game, max_bytes=max_bytes)
    if dtype is None:
        dtype = choose_dtype(tree, target, max_bytes)
    solver = CFRSolver(tree, algorithm, dtype=dtype, max_bytes=max_bytes)
    start = time.perf_counter()
    history: list[Progress] = []
    while True:
        step = check_every or max(1, solver.iterations // 10)
        step = min(step, max_iterations - solver.iterations)
        if step > 0:
            solver.iterate(step)
        expl = solver.exploitability()
        point = Progress(solver.iterations, time.perf_counter() - start, expl, solver.value())
        history.append(point)
        if callback is not None:
            callback(point)
        out_of_time = max_seconds is not None and point.seconds >= max_seconds
        if expl <= target or solver.iterations >= max_iterations or out_of_time:
            return SolveResult(
                point.value, expl, point.iterations, point.seconds, solver, tuple(history)
            )
