"""The pure rules core of the poker-dice family (rules source 004, second half): no I/O, no
printing,
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
from liarsdice.core.poker import actions, hands
from liarsdice.core.poker.actions import *  # noqa: F403  (the action encoding: actions.__all__)
from liarsdice.core.poker.game import PokerGame
from liarsdice.core.poker.hands import *  # noqa: F403  (hands and their notation: hands.__all__)
from liarsdice.core.poker.rules import POKER_PRESETS, PokerRules, poker_preset
from liarsdice.core.poker.state import Phase, PokerRoundResult, PokerState
from liarsdice.core.poker.view import PokerView

__all__ = [
    "CHANCE",
    "POKER_PRESETS",
    "TERMINAL",
    "Phase",
    "PokerGame",
    "PokerRoundResult",
    "PokerRules",
    "PokerState",
    "PokerView",
    "poker_preset",
]
__all__ += actions.__all__
__all__ += hands.__all__
