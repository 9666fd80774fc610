"""Exact solver for two-player single-round Liar's Dice (see ``docs/SOLVER.md``).

* :mod:`~liarsdice.solve.tree` — the public tree of bid histories, its layout, memory estimate;
* :mod:`~liarsdice.solve.cfr` — vectorised CFR (DCFR by default, CFR+, predictive CFR+);
* :mod:`~liarsdice.solve.seq` — sequence-form plans in the solver's layout: realization,
  exact best responses, exploitability and game value, in cache-sized chunks;
* :mod:`~liarsdice.solve.br` — the same over node-ordered plans, for small trees (reference);
* :mod:`~liarsdice.solve.lp` — the sequence-form linear program (scipy/HiGHS) for tiny games;
* :mod:`~liarsdice.solve.policy` — solved policies, JSON save/load, any policy's exploitability;
* :mod:`~liarsdice.solve.cache` — solved policies cached per process and on disk per user.

The bot playing a solved policy is :class:`~liarsdice.bots.bidding.nash.NashBot`.
"""

from __future__ import annotations

from liarsdice.solve.br import Plan, best_response_value, exploitability, game_value
from liarsdice.solve.cfr import ALGORITHMS, CFRSolver, Progress, SolveResult, solve
from liarsdice.solve.policy import Policy, policy_exploitability
from liarsdice.solve.tree import PublicTree, SolverError

__all__ = [
    "ALGORITHMS",
    "CFRSolver",
    "Plan",
    "Policy",
    "Progress",
    "PublicTree",
    "SolveResult",
    "SolverError",
    "best_response_value",
    "exploitability",
    "game_value",
    "policy_exploitability",
    "solve",
]
