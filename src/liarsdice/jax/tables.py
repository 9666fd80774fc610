"""The JAX environment's lookup tables, built once per rule set with NumPy: the legal actions
by (dice a bid may name, current bid, palifico round), and under show-and-reroll the shows
each hidden hand may make; each only where it fits in ``limit`` bytes.
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from liarsdice.core.bidding.rules import ShowReroll
from liarsdice.jax.parts import EnvParts

__all__ = ["MoveTables", "ShowTables", "move_tables", "show_tables"]

Array = jax.Array


class MoveTables(NamedTuple):
    """Per row (cap, bid + 1, palifico round): the legal actions (``mask``), the legal ones
    listed in ascending order, padded with the last (``listed``, for sampling), and how many
    there are (``counts``)."""

    mask: Array
    listed: Array
    counts: Array


class ShowTables(NamedTuple):
    """Per hand (counts per face; its row: ``rows[(hand * weights).sum()]``): which shows fit
    (``fits``), how many (``num``), and their list in ascending order (``listed``)."""

    weights: Array
    rows: Array
    fits: Array
    num: Array
    listed: Array


def move_tables(env: EnvParts, limit: int) -> MoveTables | None:
    """The legal actions depend only on (cap, bid, palifico round): tabulate them (and each
    row's legal actions listed, for sampling) where that fits in ``limit`` bytes."""
    pal = 2 if env.rules.palifico else 1
    dims = (env.game.max_quantity + 1, env.num_bids + 1, pal)
    rows = int(np.prod(dims))
    if rows * env.num_actions > limit:
        return None
    cap, bid, pf = np.indices(dims).reshape(3, -1)
    table = np.asarray(
        jax.jit(jax.vmap(env._moves))(
            jnp.asarray(cap, dtype=jnp.int32),
            jnp.asarray(bid - 1, dtype=jnp.int32),
            jnp.asarray(pf.astype(bool)),
        )
    )
    count = table.sum(1)
    order = np.argsort(~table, axis=1, kind="stable")  # legal actions first, ascending
    j = np.minimum(np.arange(env.num_actions)[None, :], np.maximum(count - 1, 0)[:, None])
    return MoveTables(
        jnp.asarray(table),
        jnp.asarray(np.take_along_axis(order, j, 1).astype(np.int32)),
        jnp.asarray(count.astype(np.int32)),
    )


def show_tables(env: EnvParts, counts: np.ndarray[Any, Any], limit: int) -> ShowTables | None:
    """Show-and-reroll: the shows a hand may make depend only on the hand (its counts per
    face): tabulate, per hand, which shows fit, how many, and their list (for sampling),
    where the hands' code table fits in ``limit`` bytes."""
    if env.rules.show_reroll is ShowReroll.OFF:
        return None
    F, M = env.faces, env.max_hand
    radix = M + 1
    if radix**F * 4 > limit:
        return None
    hands = [
        h for h in itertools.product(range(radix), repeat=F) if sum(h) <= M
    ]  # every hand of at most M dice, as counts per face
    code = np.zeros(radix**F, dtype=np.int32)
    weights = radix ** np.arange(F)
    hand_arr = np.array(hands, dtype=np.int32)
    code[hand_arr @ weights] = np.arange(len(hands), dtype=np.int32)
    size = counts.sum(1)
    fits = (counts[None, :, :] <= hand_arr[:, None, :]).all(2) & (
        size[None, :] < hand_arr.sum(1)[:, None]
    )
    if not len(env.encoding.shows):
        fits[:] = False
    n = fits.sum(1)
    order = np.argsort(~fits, axis=1, kind="stable")
    return ShowTables(
        jnp.asarray(weights.astype(np.int32)),
        jnp.asarray(code),
        jnp.asarray(fits),
        jnp.asarray(n.astype(np.int32)),
        jnp.asarray(order.astype(np.int32)),
    )
