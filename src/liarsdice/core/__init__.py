"""The pure rules core of the bidding family: no I/O, no printing, no global randomness."""

from liarsdice.core.bid import Bid
from liarsdice.core.errors import (
    IllegalActionError,
    LiarsDiceError,
    NotationError,
    RecordError,
    RulesError,
)
from liarsdice.core.game import BID_BASE, BUY, CHANCE, EXACT, LIAR, NO_SHOW, TERMINAL, Game
from liarsdice.core.rules import (
    OPTION_NAMES,
    PRESETS,
    Economy,
    ExactCall,
    ExactCount,
    FirstOpener,
    Loss,
    NextOpener,
    Ordering,
    Resolution,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
    parse_option,
    preset,
)
from liarsdice.core.state import Phase, Question, RoundResult, State
from liarsdice.core.view import PlayerView

__all__ = [
    "BID_BASE",
    "BUY",
    "CHANCE",
    "EXACT",
    "LIAR",
    "NO_SHOW",
    "OPTION_NAMES",
    "PRESETS",
    "TERMINAL",
    "Bid",
    "Economy",
    "ExactCall",
    "ExactCount",
    "FirstOpener",
    "Game",
    "IllegalActionError",
    "LiarsDiceError",
    "Loss",
    "NextOpener",
    "NotationError",
    "Ordering",
    "Phase",
    "PlayerView",
    "Question",
    "RecordError",
    "Resolution",
    "RoundResult",
    "Rules",
    "RulesError",
    "Scoring",
    "ShowReroll",
    "Stash",
    "State",
    "parse_option",
    "preset",
]
