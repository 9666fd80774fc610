"""Per-player views of poker dice: the only thing a player, a bot or a client receives.

The dice under the cup are shown only to the player looking under it: Player One after the
roll until the cup is passed, and an accepter from accepting until passing it on. Everything
else in a view is public (outside dice, bids, direction, lives, finished rounds' reveals) or
the viewer's own memory: ``passed_cup``, the cup as the viewer last passed it this round, and
``known_cup``, the dice the viewer knows are under the cup now (seen there, or seen put there
from outside, and not shaken since; see :class:`~liarsdice.core.poker.state.PokerState`).
Two public facts of that kind go with it: ``public_cup``, the dice everyone saw put under the
cup since it was last shaken, and ``cup_known_by``, the seats that know every die under it.
(:func:`~liarsdice.core.poker.state.make_view` builds a view from a state.)

>>> from liarsdice.core.poker.game import PokerGame
>>> g = PokerGame(players=2)
>>> s = g.replay([(-1, f) for f in (6, 6, 5, 3, 1)])
>>> s.view(0).cup, s.view(1).cup, s.view(-1).cup, s.view(1).cup_count
((1, 3, 5, 6, 6), (), (), 5)

Seat 0 passes 9 J K A A on; seat 1 takes the 9 and the J out and rolls them in view without
shaking the cup, so seat 0 still knows K A A are under it:

>>> for move in ("pair A", "accept", "out 9 J", "reroll 9 J"):
...     s = s.apply_action(g.string_to_action(move))
>>> for face in (2, 2):                         # the 9 and the J come up 10 10, in view
...     s = s.apply_action(face)
>>> s = s.apply_action(g.string_to_action("full house A 10"))
>>> s.view(0).cup, s.view(0).known_cup, s.view(0).outside, s.view(-1).known_cup
((), (5, 6, 6), (2, 2), ())

That seat 0 (and seat 1, who looked) know every die under the cup is public:

>>> s.view(-1).cup_known_by
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from liarsdice.core.common import CHANCE, TERMINAL, ViewBase
from liarsdice.core.poker.hands import PokerBid, format_face, format_poker_bid
from liarsdice.core.poker.records import PokerRoundResult


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
    known_cup: tuple[int, ...]  # the dice the viewer knows are under the cup now (not shaken
    # since it saw them there or saw them put there); all of ``cup`` while it looks under it
    public_cup: tuple[int, ...]  # the dice everyone knows are under the cup (put there in
    # view since it was last shaken)
    cup_known_by: tuple[int, ...]  # the seats that know every die under the cup (public: they
    # held the cup since it was last shaken, or every die left there was put there in view)
    bids: tuple[tuple[int, PokerBid], ...]  # (seat, bid) this round, in order
    current_bid: PokerBid | None
    bidder: int
    five_attempts: tuple[tuple[int, ...], ...]  # a five-of-a-kind challenge's rolls so far
    legal_actions: tuple[int, ...]  # the viewer's legal actions (empty when not to move)
    results: tuple[PokerRoundResult, ...]  # finished rounds, with their public reveals
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (faces and bids in notation). The server sends it as the view of
        a frame (``docs/PROTOCOL.md``): ``known_cup`` is the viewer's own knowledge, the other
        two are public."""
        return {
            **self._head(),
            "lives": list(self.lives),
            "direction": self.direction,
            "holder": self.holder,
            "cup": _faces(self.cup),
            "cup_count": self.cup_count,
            "outside": _faces(self.outside),
            "passed_cup": None if self.passed_cup is None else _faces(self.passed_cup),
            "known_cup": _faces(self.known_cup),
            "public_cup": _faces(self.public_cup),
            "cup_known_by": list(self.cup_known_by),
            "bids": [[p, format_poker_bid(b)] for p, b in self.bids],
            "current_bid": None if self.current_bid is None else format_poker_bid(self.current_bid),
            "bidder": self.bidder,
            "five_attempts": [_faces(a) for a in self.five_attempts],
            "legal_actions": list(self.legal_actions),
            "results": [r.to_dict() for r in self.results],
            "winner": self.winner,
        }


__all__ = ["CHANCE", "TERMINAL", "PokerView"]
