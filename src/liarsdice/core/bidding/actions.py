"""The bidding family's integer action encoding (shared by the game, its states and views)."""

from __future__ import annotations

# Player actions that are not bids.
LIAR = 0
EXACT = 1
NO_SHOW = 2  # 'before' show-and-reroll: decline to show after raising
BUY = 3  # Rich Man's Dice: buy a die
BID_BASE = 8
SHOW_BASE = 1 << 20  # show actions encode a multiset of faces, 6 bits per face
SHOW_BITS = 6
