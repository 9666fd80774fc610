"""Counterfactual regret minimisation over the public tree, vectorised with numpy.

Every public node (a bid history, see :mod:`liarsdice.solve.tree`) holds a vector over the
acting player's rolls; one iteration is a handful of passes over the ``B`` bid "levels" of the
tree, each step a numpy operation on a contiguous slice of nodes. Updates alternate: player 0
updates against player 1's current strategy, then player 1 against player 0's new one.

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
what the exact best response in :mod:`liarsdice.solve.br` needs.

>>> from liarsdice.solve.tree import make_game
>>> result = solve(make_game("openspiel", faces=3), target=1e-6)
>>> round(result.value, 5), result.exploitability <= 1e-6
(0.11111, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from liarsdice.core.game import Game
from liarsdice.solve.br import Plan, exploitability, game_value, reach, terminal_values
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, Floats, PublicTree

__all__ = ["ALGORITHMS", "CFRSolver", "Progress", "SolveResult", "solve"]

Algorithm = Literal["cfr+", "pcfr+", "dcfr"]
ALGORITHMS: tuple[Algorithm, ...] = ("dcfr", "cfr+", "pcfr+")

_AVERAGE_POWER: dict[str, float] = {"cfr+": 1.0, "pcfr+": 2.0, "dcfr": 2.0}


class CFRSolver:
    """CFR+ / predictive CFR+ / DCFR state for one public tree."""

    def __init__(self, tree: PublicTree, algorithm: Algorithm = "dcfr") -> None:
        if algorithm not in _AVERAGE_POWER:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose from {ALGORITHMS}")
        self.tree = tree
        self.algorithm: Algorithm = algorithm
        self.iterations = 0
        n = tree.num_nodes
        sizes = [len(tree.rolls[0]), len(tree.rolls[1])]
        actor = tree.actor
        nonroot = np.arange(n) > 0
        legal = tree.legal_edge
        nact_parent = np.zeros(n)
        for b in range(tree.num_bids):
            lo, hi = 1 << b, 2 << b
            nact_parent[lo:hi] = tree.num_actions[:lo]
        self._unif_node = (1.0 / tree.num_actions)[:, None]
        self._own_edge: list[Floats] = []
        self._own_call: list[Floats] = []
        self._edge_base: list[Floats] = []
        self._call_base: list[Floats] = []
        for p in (0, 1):
            # The edge into c belongs to the actor of c's parent, i.e. not to actor[c].
            self._own_edge.append((legal & (actor != p)).astype(np.float64)[:, None])
            self._own_call.append((nonroot & (actor == p)).astype(np.float64)[:, None])
            self._edge_base.append((nonroot & (actor == p)).astype(np.float64)[:, None])
            self._call_base.append((nonroot & (actor != p)).astype(np.float64)[:, None])
        self.regret_bid = [np.zeros((n, k)) for k in sizes]
        self.regret_call = [np.zeros((n, k)) for k in sizes]
        self.sum_x = [np.zeros((n, k)) for k in sizes]
        self.sum_xc = [np.zeros((n, k)) for k in sizes]
        self.weight_sum = [0.0, 0.0]
        self.edge_weight: list[Floats] = [np.empty(0), np.empty(0)]
        self.call_weight: list[Floats] = [np.empty(0), np.empty(0)]
        for p in (0, 1):
            self._set_strategy(p, self.regret_bid[p], self.regret_call[p])

    # ------------------------------------------------------------------ strategy
    def _set_strategy(self, p: int, pos_bid: Floats, pos_call: Floats) -> None:
        """Regret matching on non-negative regrets: behaviour weights per edge and call.

        ``edge_weight[p][c]`` is p's probability of the edge into node ``c`` where p owns it,
        1 where the opponent does (and 0 for illegal opening bids); likewise ``call_weight``.
        """
        tree = self.tree
        norm = pos_call.copy()
        for b in range(tree.num_bids):
            lo, hi = 1 << b, 2 << b
            norm[:lo] += pos_bid[lo:hi]
        positive = norm > 0.0
        inv = np.divide(1.0, norm, out=np.zeros_like(norm), where=positive)
        unif = np.where(positive, 0.0, self._unif_node)
        call_w = pos_call * inv
        call_w += unif * self._own_call[p]
        call_w += self._call_base[p]
        inv_parent = np.empty_like(inv)
        unif_parent = np.empty_like(unif)
        inv_parent[0] = 0.0
        unif_parent[0] = 0.0
        for b in range(tree.num_bids):
            lo, hi = 1 << b, 2 << b
            inv_parent[lo:hi] = inv[:lo]
            unif_parent[lo:hi] = unif[:lo]
        edge_w = pos_bid * inv_parent
        edge_w += unif_parent * self._own_edge[p]
        edge_w += self._edge_base[p]
        self.edge_weight[p] = edge_w
        self.call_weight[p] = call_w

    def current_plan(self, p: int) -> Plan:
        """Realization plan of player ``p``'s current strategy."""
        x = reach(self.tree, self.edge_weight[p])
        return Plan(x, x * self.call_weight[p])

    def average_plan(self, p: int) -> Plan:
        """Realization plan of player ``p``'s average strategy."""
        w = self.weight_sum[p]
        if w == 0.0:
            return self.current_plan(p)
        return Plan(self.sum_x[p] / w, self.sum_xc[p] / w)

    def average_plans(self) -> tuple[Plan, Plan]:
        """Both players' average realization plans."""
        return (self.average_plan(0), self.average_plan(1))

    # ----------------------------------------------------------------- iterate
    def _update(self, i: int, t: int) -> None:
        tree = self.tree
        o = 1 - i
        opp = self.current_plan(o)
        w = float(t) ** _AVERAGE_POWER[self.algorithm]
        self.sum_x[o] += w * opp.x
        self.sum_xc[o] += w * opp.xc
        self.weight_sum[o] += w

        tv = terminal_values(tree, i, opp.xc)
        edge_w, call_w = self.edge_weight[i], self.call_weight[i]
        v = call_w * tv
        for b in range(tree.num_bids - 1, -1, -1):
            lo, hi = 1 << b, 2 << b
            v[:lo] += edge_w[lo:hi] * v[lo:hi]
        v_parent = np.empty_like(v)
        v_parent[0] = 0.0
        for b in range(tree.num_bids):
            lo, hi = 1 << b, 2 << b
            v_parent[lo:hi] = v[:lo]
        inst_bid = v - v_parent
        inst_bid *= self._own_edge[i]
        inst_call = tv - v
        inst_call *= self._own_call[i]

        rb, rc = self.regret_bid[i], self.regret_call[i]
        if self.algorithm == "dcfr":
            alpha = float(t) ** 1.5
            disc = alpha / (alpha + 1.0)
            for r in (rb, rc):
                r *= np.where(r > 0.0, disc, 0.5)
        rb += inst_bid
        rc += inst_call
        if self.algorithm == "dcfr":
            self._set_strategy(i, np.maximum(rb, 0.0), np.maximum(rc, 0.0))
            return
        np.maximum(rb, 0.0, out=rb)
        np.maximum(rc, 0.0, out=rc)
        if self.algorithm == "pcfr+":
            self._set_strategy(i, np.maximum(rb + inst_bid, 0.0), np.maximum(rc + inst_call, 0.0))
        else:
            self._set_strategy(i, rb, rc)

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (each updates player 0, then player 1)."""
        for _ in range(n):
            self.iterations += 1
            t = self.iterations
            self._update(0, t)
            self._update(1, t)

    # -------------------------------------------------------------- evaluation
    def exploitability(self) -> float:
        """Exact exploitability (NashConv / 2) of the average strategy profile."""
        return exploitability(self.tree, self.average_plans())

    def value(self) -> float:
        """Player 0's expected return under the average strategy profile."""
        return game_value(self.tree, self.average_plans())


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

    def plans(self) -> tuple[Plan, Plan]:
        """Both players' average realization plans."""
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
) -> SolveResult:
    """Run CFR until the average strategy's exploitability is at most ``target``.

    The exploitability is computed exactly every ``check_every`` iterations (default: about
    every tenth of the iterations so far, which keeps its cost near 10%) and after the last
    iteration; ``callback`` sees each evaluation.
    """
    tree = game if isinstance(game, PublicTree) else PublicTree(game, max_bytes=max_bytes)
    solver = CFRSolver(tree, algorithm)
    start = time.perf_counter()
    history: list[Progress] = []
    while True:
        step = check_every or max(1, solver.iterations // 10)
        step = min(step, max_iterations - solver.iterations)
        if step > 0:
            solver.iterate(step)
        plans = solver.average_plans()
        expl = exploitability(tree, plans)
        point = Progress(
            solver.iterations, time.perf_counter() - start, expl, game_value(tree, plans)
        )
        history.append(point)
        if callback is not None:
            callback(point)
        out_of_time = max_seconds is not None and point.seconds >= max_seconds
        if expl <= target or solver.iterations >= max_iterations or out_of_time:
            return SolveResult(
                point.value, expl, point.iterations, point.seconds, solver, tuple(history)
            )
