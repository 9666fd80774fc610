"""The bidding-family game: rules + seats, precomputed tables, and action encoding.

Actions are integers (as in OpenSpiel) so that search and solvers stay fast; use
:meth:`Game.action_to_string` / :meth:`Game.string_to_action` for people. The class lives in
:mod:`~liarsdice.core.bidding.state`, beside the states it makes and that hold it; its tables
in :mod:`~liarsdice.core.bidding.tables`.

>>> from liarsdice.core.bidding.rules import preset
>>> g = Game(preset("openspiel"))
>>> g.action_to_string(g.bid_action(Bid(2, 6)))
'2x6'
>>> g.string_to_action("liar") == LIAR
True
"""

from __future__ import annotations

from liarsdice.core.bidding.actions import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE
from liarsdice.core.bidding.bid import Bid as Bid  # (its doctest's)
from liarsdice.core.bidding.state import Game
from liarsdice.core.common import CHANCE, TERMINAL

__all__ = ["BID_BASE", "BUY", "CHANCE", "EXACT", "LIAR", "NO_SHOW", "SHOW_BASE", "TERMINAL", "Game"]
