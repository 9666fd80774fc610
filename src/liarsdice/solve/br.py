"""Vectorised passes over the public tree: reach, terminal values, best response, value.

Strategies are handled as *realization plans* (sequence form): ``X[p][m, r]`` is the product
of player ``p``'s own action probabilities on the path to node ``m`` when ``p`` holds roll
``r``, and ``XC[p][m, r]`` the same for the liar call at ``m`` (``X[p][m, r]`` times ``p``'s
call probability when ``p`` acts at ``m``, unchanged otherwise). Chance is kept apart, in the
payoff tables of :class:`~liarsdice.solve.tree.PublicTree`.

Exploitability convention (OpenSpiel's ``exploitability``, i.e. NashConv / 2)::

    exploitability = (BR_0(avg sigma_1) + BR_1(avg sigma_0)) / 2

where ``BR_i`` is player ``i``'s best-response value in their own returns. It is zero exactly
at a Nash equilibrium, and the game value of player 0 under any profile lies within
``2 * exploitability`` of the equilibrium value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.solve.tree import Floats, PublicTree

__all__ = [
    "Plan",
    "best_response_value",
    "exploitability",
    "game_value",
    "reach",
    "terminal_values",
]


PlanArray = npt.NDArray[np.floating[Any]]


@dataclass(frozen=True)
class Plan:
    """One player's realization plan: ``x`` at nodes, ``xc`` at liar calls (nodes x rolls);
    float64, or float32 where the tree is large (the passes keep the plan's precision)."""

    x: PlanArray
    xc: PlanArray


def reach(tree: PublicTree, edge_weight: PlanArray) -> PlanArray:
    """Products of ``edge_weight`` (nodes x rolls) along each root-to-node path."""
    x = np.empty_like(edge_weight)
    x[0] = 1.0
    for b in range(tree.num_bids):
        lo, hi = 1 << b, 2 << b
        np.multiply(x[:lo], edge_weight[lo:hi], out=x[lo:hi])
    return x


def terminal_values(tree: PublicTree, player: int, opp_call_reach: PlanArray) -> Floats:
    """Counterfactual value for ``player`` of the liar call at every node (nodes x own rolls).

    ``opp_call_reach`` is the opponent's realization plan at the calls (``Plan.xc``). Chance
    probabilities are included, so the root's values summed over rolls give expected returns.
    """
    n_own = len(tree.rolls[player])
    tv = np.empty((tree.num_nodes, n_own))
    tv[0] = 0.0
    for b in range(tree.num_bids):
        lo, hi = 1 << b, 2 << b
        table = tree.payoff[b].T if player == 0 else tree.payoff[b]
        np.matmul(opp_call_reach[lo:hi], table, out=tv[lo:hi])
    sign = tree.sign0 if player == 0 else -tree.sign0
    tv *= sign[:, None]
    return tv


def best_response_value(tree: PublicTree, player: int, opponent: Plan) -> float:
    """Value of ``player``'s best response to the opponent's realization plan."""
    v = terminal_values(tree, player, opponent.xc)
    if player == 0:
        v[0] = -np.inf  # no call before the opening bid
    mine = (tree.actor == player)[:, None]
    for b in range(tree.num_bids - 1, -1, -1):
        lo, hi = 1 << b, 2 << b
        child = v[lo:hi]
        cand = child
        if not tree.legal_edge[lo]:  # an opening bid that is not allowed
            cand = child.copy()
            cand[0] = -np.inf
        par = v[:lo]
        v[:lo] = np.where(mine[:lo], np.maximum(par, cand), par + child)
    return float(v[0].sum())


def game_value(tree: PublicTree, plans: tuple[Plan, Plan]) -> float:
    """Expected return of player 0 when both players follow ``plans``."""
    tv0 = terminal_values(tree, 0, plans[1].xc)
    return float(np.vdot(plans[0].xc, tv0))


def exploitability(tree: PublicTree, plans: tuple[Plan, Plan]) -> float:
    """NashConv / 2 of the profile (see the module docstring)."""
    br0 = best_response_value(tree, 0, plans[1])
    br1 = best_response_value(tree, 1, plans[0])
    return (br0 + br1) / 2.0
