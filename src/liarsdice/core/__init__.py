"""The pure rules core of the bidding family: no I/O, no printing, no global randomness."""

from liarsdice.core import rules
from liarsdice.core.bid import Bid
from liarsdice.core.errors import (
    IllegalActionError,
    LiarsDiceError,
    NotationError,
    RecordError,
    RulesError,
)
from liarsdice.core.game import BID_BASE, BUY, CHANCE, EXACT, LIAR, NO_SHOW, TERMINAL, Game
from liarsdice.core.rules import *  # noqa: F403  (the rule options and presets: rules.__all__)
from liarsdice.core.state import Phase, Question, RoundResult, State
from liarsdice.core.view import PlayerView

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
    "IllegalActionError",
    "LiarsDiceError",
    "NotationError",
    "Phase",
    "PlayerView",
    "Question",
    "RecordError",
    "RoundResult",
    "RulesError",
    "State",
]
__all__ += rules.__all__
