"""The pure rules core of the bidding family: no I/O, no printing, no global randomness."""

from liarsdice.core import errors
from liarsdice.core.bidding import rules
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BID_BASE, BUY, CHANCE, EXACT, LIAR, NO_SHOW, TERMINAL, Game
from liarsdice.core.bidding.rules import *  # noqa: F403  (the rule options and presets: rules.__all__)
from liarsdice.core.bidding.state import Phase, Question, RoundResult, State
from liarsdice.core.bidding.view import PlayerView
from liarsdice.core.errors import *  # noqa: F403  (the typed errors: errors.__all__)

__all__ = [
    "BID_BASE",
    "BUY",
    "CHANCE",
    "EXACT",
    "LIAR",
    "NO_SHOW",
    "TERMINAL",
    "Bid",
    "Game",
    "Phase",
    "PlayerView",
    "Question",
    "RoundResult",
    "State",
]
__all__ += rules.__all__ + errors.__all__
