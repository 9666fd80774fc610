"""One game's state in the JAX environment (:mod:`liarsdice.jax.bidding`, which re-exports
:class:`EnvState`): a pytree of fixed-shape arrays, read and written by the environment's steps
(:mod:`.settle`, :mod:`.observe`)."""

from __future__ import annotations

from typing import NamedTuple

import jax

__all__ = ["EnvState"]

Array = jax.Array


class EnvState(NamedTuple):
    """One game's state (a pytree of fixed-shape arrays; batch it with :func:`jax.vmap`).

    ``P`` seats, ``F`` faces, ``B`` bids. ``hand`` and ``stash`` are dice counted per face;
    ``total`` is every die in play per face; ``cap`` how many dice a bid may name; ``bid`` the
    current bid id (-1 before the opening bid) and ``bidder`` its seat; ``bids_made`` the
    round's bids per seat (only with ``history``; else ``P x 0``).
    """

    dice: Array  # (P,) int32: dice per seat, 0 once out
    hand: Array  # (P, F) int32
    stash: Array  # (F,) int32
    total: Array  # (F,) int32
    cap: Array  # () int32
    bid: Array  # () int32
    bidder: Array  # () int32
    player: Array  # () int32: the seat to act
    palifico: Array  # () bool: a palifico round
    palifico_used: Array  # (P,) bool
    called: Array  # (P,) bool: the seats that called the current bid (all-call)
    scores: Array  # (P,) int32: room scores
    shown: Array  # (P, F) int32: dice on show (show-and-reroll)
    must_raise: Array  # () bool: the player to act showed and must raise ('after')
    show_phase: Array  # () bool: the bidder may now show ('before')
    bids_made: Array  # (P, B) bool, or (P, 0)
