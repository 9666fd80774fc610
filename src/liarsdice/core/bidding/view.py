"""Per-player views: the only thing a player, a bot or a client ever receives.

(:func:`~liarsdice.core.bidding.state.make_view` builds them from a state.)

A view holds the viewer's own hidden dice and public facts only: shown dice, dice counts, the
stash when it is open, the bids of the round, and the reveals of finished rounds.

>>> from liarsdice.core.bidding.rules import preset
>>> from liarsdice.core.bidding.game import Game
>>> s = Game(preset("openspiel")).new_initial_state().apply_action(3).apply_action(6)
>>> v = s.view(0)
>>> v.my_dice, v.dice_counts, v.to_move
((3,), (1, 1), 0)
>>> s.view(1).my_dice, s.view(-1).my_dice
((6,), ())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.records import RoundResult
from liarsdice.core.common import CHANCE, TERMINAL, ViewBase


@dataclass(frozen=True, slots=True)
class PlayerView(ViewBase):
    """What one seat may know. ``player`` is -1 for a spectator (public facts only)."""

    dice_counts: tuple[int, ...]
    my_dice: tuple[int, ...]  # the viewer's hidden dice
    shown: tuple[tuple[int, ...], ...]  # every seat's shown dice (public)
    stash: tuple[int, ...] | None  # the stash dice when open, else None
    stash_size: int
    dice_in_play: int
    bids: tuple[tuple[int, Bid], ...]  # (seat, bid) this round, in order
    current_bid: Bid | None
    bidder: int
    callers: tuple[int, ...]
    legal_actions: tuple[int, ...]  # the viewer's legal actions (empty when not to move)
    chips: tuple[int, ...]
    game_pot: int
    round_pot: int
    pile: int
    scores: tuple[int, ...]
    lost: tuple[int, ...]  # dice lost so far (the drinking tally)
    palifico: bool
    results: tuple[RoundResult, ...]  # finished rounds, with their public reveals
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (names instead of seats where a person reads it)."""
        return {
            **self._head(),
            "dice_counts": list(self.dice_counts),
            "my_dice": list(self.my_dice),
            "shown": [list(s) for s in self.shown],
            "stash": None if self.stash is None else list(self.stash),
            "stash_size": self.stash_size,
            "dice_in_play": self.dice_in_play,
            "bids": [[p, str(b)] for p, b in self.bids],
            "current_bid": None if self.current_bid is None else str(self.current_bid),
            "bidder": self.bidder,
            "callers": list(self.callers),
            "legal_actions": list(self.legal_actions),
            "chips": list(self.chips),
            "game_pot": self.game_pot,
            "round_pot": self.round_pot,
            "pile": self.pile,
            "scores": list(self.scores),
            "lost": list(self.lost),
            "palifico": self.palifico,
            "winner": self.winner,
        }


__all__ = ["CHANCE", "TERMINAL", "PlayerView"]
