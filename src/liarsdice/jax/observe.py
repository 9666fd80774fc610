"""The JAX environment's observations: a seat's view of one game's state as the encoding's
vector (:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`), the same as the
NumPy simulator's and the engine's for the same state."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from liarsdice.jax.parts import EnvParts
from liarsdice.jax.state import EnvState

__all__ = ["observation"]

Array = jax.Array


def observation(env: EnvParts, s: EnvState, viewer: Array, acting: Array) -> Array:
    """Seat ``viewer``'s observation (float32, the encoding's vector); ``acting``: a seat
    is to act (false at a game's end, where the ``to_move`` block is zero)."""
    sl = env.encoding.slices
    P, B = env.num_players, env.num_bids
    p = jnp.asarray(viewer, dtype=jnp.int32)
    # the one-hot head (seat, to_move, bid, bidder) as one comparison with an iota
    j = jnp.arange(sl["my_dice"].start, dtype=jnp.int32)
    bidder = sl["bidder"].start + (s.bidder - p) % P
    head = (j == p) | (acting & (j == sl["to_move"].start + (s.player - p) % P))
    head |= (s.bid >= 0) & ((j == sl["bid"].start + s.bid) | (j == bidder))
    parts: list[Array] = [
        head.astype(jnp.float32),
        s.hand[p].astype(jnp.float32),  # my_dice
        _relative(env, s.dice, p).astype(jnp.float32),  # dice
    ]
    parts += _optional_blocks(env, s, p)
    if env.history:
        made = _relative(env, s.bids_made, p)
        parts.append(made.reshape(P * B).astype(jnp.float32))
    return jnp.concatenate(parts)


def _optional_blocks(env: EnvParts, s: EnvState, p: Array) -> list[Array]:
    """The observation's blocks that only some rules have, from seat ``p``'s view."""
    sl = env.encoding.slices
    parts: list[Array] = []
    if "shown" in sl:
        parts.append(_relative(env, s.shown, p).reshape(-1).astype(jnp.float32))
    if "stash" in sl:
        parts.append(s.stash.astype(jnp.float32))
    if "stash_size" in sl:
        parts.append((s.dice > 0).sum(keepdims=True).astype(jnp.float32))
    if "callers" in sl:
        parts.append(_relative(env, s.called, p).astype(jnp.float32))
    if "palifico" in sl:
        parts.append(s.palifico[None].astype(jnp.float32))
    if "must_raise" in sl:
        parts.append(s.must_raise[None].astype(jnp.float32))
    if "show_phase" in sl:
        parts.append(s.show_phase[None].astype(jnp.float32))
    if "scores" in sl:
        parts.append(_relative(env, s.scores, p).astype(jnp.float32))
    return parts


def _relative(env: EnvParts, x: Array, p: Array) -> Array:
    """``x`` (per seat, first axis) from seat ``p``'s view: row ``k`` is seat ``p + k``."""
    twice = jnp.concatenate([x, x])
    return jax.lax.dynamic_slice_in_dim(twice, p, env.num_players)
