"""The records of poker-dice Liar's Dice: the phases a state waits in, and how a round ended.

They know nothing of the game or the state, so that every module of the family can import
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from liarsdice.core.poker.hands import PokerBid, format_face, format_poker_bid, hand_bid, satisfies

__all__ = ["Phase", "PokerRoundResult"]


class Phase(IntEnum):
    """What the state is waiting for."""

    ROLL = 0  # chance: Player One's five dice, under the cup
    BID = 1  # the holder bids (Player One opening: any bid, junk included)
    PASS = 2  # Player One passes the cup left or right (sets the round's direction)
    RESPOND = 3  # the receiver calls liar or accepts
    ARRANGE = 4  # the accepter splits the dice between outside and under the cup
    SHAKE = 5  # the accepter decides whether to shake the cup and which outside dice to roll
    REROLL = 6  # chance: the shaken cup dice (first), then the outside dice rolled in view
    KEEP = 7  # five-of-a-kind challenge: which dice to keep before the next roll
    FIVE_ROLL = 8  # chance: the challenge's re-rolled dice
    OVER = 9


@dataclass(frozen=True, slots=True)
class PokerRoundResult:
    """How a round ended. All of it is public once the cup is lifted."""

    round: int
    opener: int
    bid: PokerBid  # the bid called (or accepted, in a five-of-a-kind challenge)
    bidder: int
    call: str  # "liar", or "five": a five-of-a-kind bid accepted under five_of_a_kind_rule
    caller: int  # who called liar, or who accepted the five-of-a-kind bid
    hand: tuple[int, ...]  # the five dice when the cup was lifted (sorted)
    loser: int | None  # who lost a life (None: the five-of-a-kind challenge succeeded)
    lives: tuple[int, ...]  # every seat's lives after the round
    next_opener: int | None  # Player One of the next round (None when the game is over)
    attempts: tuple[tuple[int, ...], ...] = ()  # five-of-a-kind challenge: dice after each roll
    success: bool | None = None  # five-of-a-kind challenge outcome (None for a liar call)

    @property
    def eliminated(self) -> tuple[int, ...]:
        """The seat this round put out of the game (its last life lost), if any."""
        out = self.loser is not None and self.lives[self.loser] == 0
        return (self.loser,) if out and self.loser is not None else ()

    @property
    def reading(self) -> PokerBid:
        """The best reading of :attr:`hand`."""
        return hand_bid(self.hand)

    @property
    def stood(self) -> bool:
        """Whether :attr:`hand` satisfies the bid."""
        return satisfies(self.hand, self.bid)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (bids and dice in notation)."""
        return {
            "round": self.round,
            "opener": self.opener,
            "bid": format_poker_bid(self.bid),
            "bidder": self.bidder,
            "call": self.call,
            "caller": self.caller,
            "hand": [format_face(d) for d in self.hand],
            "reading": format_poker_bid(self.reading),
            "stood": self.stood,
            "loser": self.loser,
            "lives": list(self.lives),
            "eliminated": list(self.eliminated),
            "next_opener": self.next_opener,
            "attempts": [[format_face(d) for d in a] for a in self.attempts],
            "success": self.success,
        }
