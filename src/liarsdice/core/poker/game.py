"""The poker-dice game: rules + seats, and the integer action encoding.

(The class lives in :mod:`~liarsdice.core.poker.state`, beside the states it makes and that
hold it.)

Actions are integers, as in the bidding family (:mod:`liarsdice.core.bidding.game`); use
:meth:`PokerGame.action_to_string` / :meth:`PokerGame.string_to_action` for people.

=====================  ===========================================================
action                 meaning
=====================  ===========================================================
``LIAR`` = 0           call the bid a lie: the cup is lifted and the hand read
``ACCEPT`` = 1         accept the bid (take the cup)
``LEFT`` = 2           Player One passes the cup left: play goes up the seats (+1)
``RIGHT`` = 3          Player One passes the cup right: play goes down the seats (-1)
``BID_BASE + i``       bid number ``i`` of :data:`~liarsdice.core.poker.hands.ALL_BIDS`
                       (8..469; a higher bid has a higher id)
``ARRANGE_BASE + m``   the holder leaves multiset ``m`` outside the cup, the rest under it
``ROLL_BASE + m``      no shake; roll the outside dice ``m`` in view (``m`` may be empty)
``SHAKE_BASE + m``     shake the cup (re-roll every die under it) and roll outside dice ``m``
``KEEP_BASE + m``      five-of-a-kind challenge: keep ``m``, re-roll the other dice
chance ``1..6``        a die comes up 9, 10, J, Q, K or A
=====================  ===========================================================

A multiset index ``m`` numbers every sorted tuple of faces 1..6 of length 0..5
(:data:`MULTISETS`, shortest first, then lexicographic; 462 of them).

>>> g = PokerGame(POKER_PRESETS["poker-dice"], 3)
>>> g.action_to_string(g.bid_action(parse_poker_bid("pair K")))
'pair K'
>>> two_pair = g.bid_action(parse_poker_bid("two pair Q 10"))
>>> g.string_to_action("two pairs queens and tens") == two_pair
True
>>> moves = (LIAR, ACCEPT, g.arrange_action((5, 5)), g.roll_action(True, ()))
>>> [g.action_to_string(a) for a in moves]
['liar', 'accept', 'out K K', 'shake']
>>> g.string_to_action("shake reroll 9") == g.roll_action(True, (1,))
True
"""

from __future__ import annotations

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.core.poker import actions
from liarsdice.core.poker.actions import *  # noqa: F403  (the action encoding: actions.__all__)
from liarsdice.core.poker.hands import parse_poker_bid as parse_poker_bid  # (its doctest's)
from liarsdice.core.poker.rules import POKER_PRESETS as POKER_PRESETS  # (its doctest's)
from liarsdice.core.poker.state import PokerGame

__all__ = ["CHANCE", "TERMINAL", "PokerGame"]
__all__ += actions.__all__
