"""Per-player views of poker dice: the only thing a player, a bot or a client receives.

The dice under the cup are shown only to the player looking under it: Player One after the
roll until the cup is passed, and an accepter from accepting until passing it on. Everything
else in a view is public (outside dice, bids, direction, lives, finished rounds' reveals) or
the viewer's own memory (``passed_cup``: the cup as the viewer last passed it this round).

>>> from liarsdice.core.poker.game import PokerGame
>>> s = PokerGame(players=3).replay([(-1, f) for f in (6, 6, 5, 3, 1)])
>>> s.view(0).cup, s.view(1).cup, s.view(-1).cup, s.view(1).cup_count
((1, 3, 5, 6, 6), (), (), 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from liarsdice.core.common import CHANCE, TERMINAL, ViewBase, view_fields
from liarsdice.core.poker.hands import ALL_BIDS, PokerBid, format_face, format_poker_bid

if TYPE_CHECKING:
    from liarsdice.core.poker.state import PokerRoundResult, PokerState


def _faces(dice: tuple[int, ...]) -> list[str]:
    return [format_face(d) for d in dice]


@dataclass(frozen=True, slots=True)
class PokerView(ViewBase):
    """What one seat may know (``opener``: Player One of this round)."""

    lives: tuple[int, ...]
    direction: int  # +1 left (up the seats), -1 right, 0 not chosen yet
    holder: int  # who last looked under the cup (Player One, or the latest accepter)
    cup: tuple[int, ...]  # the dice under the cup, only while the viewer is looking under it
    cup_count: int  # how many dice are under the cup (public)
    outside: tuple[int, ...]  # the dice outside the cup (public)
    passed_cup: tuple[int, ...] | None  # the cup as the viewer last passed it on this round
    bids: tuple[tuple[int, PokerBid], ...]  # (seat, bid) this round, in order
    current_bid: PokerBid | None
    bidder: int
    five_attempts: tuple[tuple[int, ...], ...]  # a five-of-a-kind challenge's rolls so far
    legal_actions: tuple[int, ...]  # the viewer's legal actions (empty when not to move)
    results: tuple[PokerRoundResult, ...]  # finished rounds, with their public reveals
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (faces and bids in notation)."""
        return {
            **self._head(),
            "lives": list(self.lives),
            "direction": self.direction,
            "holder": self.holder,
            "cup": _faces(self.cup),
            "cup_count": self.cup_count,
            "outside": _faces(self.outside),
            "passed_cup": None if self.passed_cup is None else _faces(self.passed_cup),
            "bids": [[p, format_poker_bid(b)] for p, b in self.bids],
            "current_bid": None if self.current_bid is None else format_poker_bid(self.current_bid),
            "bidder": self.bidder,
            "five_attempts": [_faces(a) for a in self.five_attempts],
            "legal_actions": list(self.legal_actions),
            "results": [r.to_dict() for r in self.results],
            "winner": self.winner,
        }


def make_view(state: PokerState, player: int) -> PokerView:
    """Build ``player``'s view of ``state``; -1 builds a spectator's view."""
    game = state.game
    seat = 0 <= player < game.num_players
    return PokerView(
        **view_fields(state, player, state.round, state.opener),
        lives=state.lives,
        direction=state.direction,
        holder=state.holder,
        cup=state.cup if seat and state.sees_cup(player) else (),
        cup_count=len(state.cup),
        outside=state.outside,
        passed_cup=state.passed[player] if seat else None,
        bids=tuple((p, ALL_BIDS[b]) for p, b in state.bids),
        current_bid=state.current_bid,
        bidder=state.bidder,
        five_attempts=state.attempts,
    )


__all__ = ["CHANCE", "TERMINAL", "PokerView", "make_view"]
