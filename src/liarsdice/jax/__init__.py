"""A JAX environment of the bidding family: pure ``init`` and ``step`` over fixed-shape arrays.

Optional: it needs the ``jax`` extra (``pip install liarsdice[jax]``), and nothing else in the
project imports it (``import liarsdice`` never loads JAX). See :mod:`liarsdice.jax.bidding` and
docs/RESEARCH.md, "A JAX environment".
"""

from __future__ import annotations

from liarsdice.jax.bidding import EnvState, JaxBiddingEnv, StepResult, check_supported

__all__ = ["EnvState", "JaxBiddingEnv", "StepResult", "check_supported"]
