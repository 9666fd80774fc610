"""The bidding family as a JAX environment in pgx's shape (:class:`Env`, :class:`State`,
:func:`auto_reset`), over pure ``init`` and ``step`` functions of fixed-shape arrays
(:class:`JaxBiddingEnv`).

Optional: it needs the ``jax`` extra (``pip install liarsdice[jax]``), and nothing else in the
project imports it (``import liarsdice`` never loads JAX). See :mod:`liarsdice.jax.env`,
:mod:`liarsdice.jax.bidding` and docs/RESEARCH.md, "A JAX environment".
"""

from __future__ import annotations

from liarsdice.jax.bidding import EnvState, JaxBiddingEnv, StepResult, check_supported
from liarsdice.jax.env import Env, State, auto_reset

__all__ = [
    "Env",
    "EnvState",
    "JaxBiddingEnv",
    "State",
    "StepResult",
    "auto_reset",
    "check_supported",
]
