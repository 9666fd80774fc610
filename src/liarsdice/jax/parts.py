"""The parts of the JAX environment that its steps (:mod:`.settle`, :mod:`.observe`,
:mod:`.tables`) use, declared once for the type checker
(:class:`~liarsdice.jax.bidding.JaxBiddingEnv` has them: it sets every one in its
constructor)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax

if TYPE_CHECKING:
    from liarsdice.core.bidding.game import Game
    from liarsdice.core.bidding.rules import Rules
    from liarsdice.families.bidding.encoding import BiddingEncoding
    from liarsdice.jax.state import EnvState

__all__ = ["EnvParts"]

Array = jax.Array


class EnvParts:
    """A :class:`~liarsdice.jax.bidding.JaxBiddingEnv`'s parts (``P`` seats, ``B`` bids)."""

    # the rule set and its sizes
    rules: Rules
    game: Game
    encoding: BiddingEncoding
    num_players: int
    faces: int
    num_actions: int
    num_bids: int
    history: bool
    max_hand: int
    # the bids' and seats' constants
    _qty: Array  # (B,) int32
    _face: Array  # (B,) int32
    _start: Array  # (P,) int32: the starting dice
    _seats: Array  # (P,) int32
    _num_words: int  # the random words a round's roll takes

    def _next_seat(self, dice: Array, p: Array) -> Array:
        raise NotImplementedError

    def _words(self, key: Array, n: int, start: int | Array = 0) -> Array:
        raise NotImplementedError

    def _round(self, words: Array, s: EnvState, dice: Array, opener: Array) -> EnvState:
        raise NotImplementedError

    def _first_opener(self, words: Array, key: Array) -> Array:
        raise NotImplementedError

    def _moves(self, cap: Array, bid: Array, palifico: Array) -> Array:
        raise NotImplementedError
