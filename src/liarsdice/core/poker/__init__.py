"""The pure rules core of the poker-dice family (seed 004, second half): no I/O, no printing,
no global randomness. The API mirrors the bidding family's (:mod:`liarsdice.core`).

>>> import random
>>> g = PokerGame(PokerRules(players=3))
>>> s = g.new_initial_state()
>>> rng = random.Random(7)
>>> while not s.is_terminal():
...     s = s.resolve_chance(rng) if s.is_chance_node() else s.apply_action(
...         rng.choice(s.legal_actions()))
>>> s.winner is not None and g.replay(s.history()) == s
True
"""

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.core.poker.game import (
    ACCEPT,
    ARRANGE_BASE,
    BID_BASE,
    KEEP_BASE,
    LEFT,
    LIAR,
    MULTISETS,
    RIGHT,
    ROLL_BASE,
    SHAKE_BASE,
    PokerGame,
)
from liarsdice.core.poker.hands import (
    ALL_BIDS,
    FACE_SYMBOLS,
    NUM_BIDS,
    Category,
    PokerBid,
    bid_id,
    bid_key,
    format_face,
    format_poker_bid,
    hand_bid,
    hand_key,
    parse_face,
    parse_poker_bid,
    poker_bid_words,
    satisfies,
)
from liarsdice.core.poker.rules import POKER_PRESETS, PokerRules, poker_preset
from liarsdice.core.poker.state import Phase, PokerRoundResult, PokerState
from liarsdice.core.poker.view import PokerView

__all__ = [
    "ACCEPT",
    "ALL_BIDS",
    "ARRANGE_BASE",
    "BID_BASE",
    "CHANCE",
    "FACE_SYMBOLS",
    "KEEP_BASE",
    "LEFT",
    "LIAR",
    "MULTISETS",
    "NUM_BIDS",
    "POKER_PRESETS",
    "RIGHT",
    "ROLL_BASE",
    "SHAKE_BASE",
    "TERMINAL",
    "Category",
    "Phase",
    "PokerBid",
    "PokerGame",
    "PokerRoundResult",
    "PokerRules",
    "PokerState",
    "PokerView",
    "bid_id",
    "bid_key",
    "format_face",
    "format_poker_bid",
    "hand_bid",
    "hand_key",
    "parse_face",
    "parse_poker_bid",
    "poker_bid_words",
    "poker_preset",
    "satisfies",
]
