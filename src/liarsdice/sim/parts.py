"""The parts of the batched simulator that its steps (:mod:`.settle`, :mod:`.views`) use,
declared once for the type checker (:class:`~liarsdice.sim.bidding.VectorEnv` has them: it
sets every one in its constructor)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from liarsdice.core.bidding.game import Game
    from liarsdice.core.bidding.rules import Rules, ShowReroll
    from liarsdice.families.bidding.encoding import BiddingEncoding

__all__ = ["EnvParts"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class EnvParts:
    """A :class:`~liarsdice.sim.bidding.VectorEnv`'s parts (``N`` games, ``P`` seats, ``F``
    faces, ``B`` bids)."""

    # the rule set and its sizes
    rules: Rules
    game: Game
    encoding: BiddingEncoding
    num_envs: int
    num_players: int
    faces: int
    num_actions: int
    num_bids: int
    observation_size: int
    # every game's state
    dice: Ints  # N x P
    hand: Ints  # N x P x F: hidden dice, count per face
    shown: Ints  # N x P x F
    stash: Ints  # N x F
    total: Ints  # N x F: every die in play, count per face
    cap: Ints
    bid: Ints
    bidder: Ints
    player: Ints
    must_raise: Bools
    show_phase: Bools
    called: Bools  # N x P
    palifico: Bools
    palifico_used: Bools  # N x P
    scores: Ints  # N x P
    bids_made: Bools | None  # N x P x B (history only)
    # the bids' and seats' constants
    _qty: Ints
    _face: Ints
    _rank: Ints
    _ids: Ints
    _total_order: bool
    _wild: int | None
    _no_wild_open: bool
    _start: Ints
    _max_hand: int
    _seats: Ints
    _rows: Ints
    _rows_p: Ints
    _rel_seats: Ints  # P x P: the seats in order from each seat
    _show: ShowReroll
    _show_counts: Ints
    _show_size: Ints
    _show_base: int

    def _next_seat(self, e: Ints, p: Ints) -> Ints:
        raise NotImplementedError

    def _start_round(self, e: Ints, opener: Ints) -> None:
        raise NotImplementedError

    def _new_games(self, e: Ints) -> None:
        raise NotImplementedError
