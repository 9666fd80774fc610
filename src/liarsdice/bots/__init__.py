"""Bots: players that choose an action from their own view only.

Each rule family has its own bots under the same names; the family object declares them
(``Family.bots``, a :class:`~liarsdice.bots.table.BotTable`) and builds them with its one
factory, ``Family.make_bot(label, rng, think=..., options=...)`` (``liarsdice.families``).
The bot classes live here: the bidding family's in :mod:`liarsdice.bots.bidding`, the
poker-dice family's in :mod:`liarsdice.bots.poker`.

Levels, weakest first (see ``docs/BOTS.md``): ``random``, ``prob``, ``bayes`` (a Bayesian
belief over the opponents' dice) and ``expert`` (the belief, with the next player modelled as a
reader of bids; the solved equilibrium in small two-player single-round games, a re-solve of
the round between two players with few dice). The bidding family also has panel bots for
measuring robustness: ``bluffer`` (bids past its dice, calls less) and ``expert-v1`` (the first
expert, frozen: search on an honest-bidder belief), the solver bot ``nash`` (NumPy and
SciPy) and ``learned`` (two-player rounds learned by self-play, NumPy), both imported on
first use. ``think`` (seconds per move) is a field of the experts.

>>> import random
>>> RandomBot(random.Random(0)), PokerProbBot(random.Random(0))
(RandomBot(), PokerProbBot())
>>> ExpertBot(random.Random(0), think=0.2)
ExpertBot(think=0.2)
"""

from __future__ import annotations

from liarsdice.bots.base import BaseBot, Bot
from liarsdice.bots.bidding.bayes import BayesBot
from liarsdice.bots.bidding.bluffer import BlufferBot
from liarsdice.bots.bidding.expert import ExpertBot, ExpertV1Bot
from liarsdice.bots.bidding.prob import ProbBot
from liarsdice.bots.bidding.random_bot import RandomBot
from liarsdice.bots.poker.levels import PokerBayesBot, PokerExpertBot
from liarsdice.bots.poker.simple import PokerBot, PokerProbBot, PokerRandomBot
from liarsdice.bots.table import AnyBot, BotTable, option_codec, read_label, takes_think

__all__ = [
    "AnyBot",
    "BaseBot",
    "BayesBot",
    "BlufferBot",
    "Bot",
    "BotTable",
    "ExpertBot",
    "ExpertV1Bot",
    "PokerBayesBot",
    "PokerBot",
    "PokerExpertBot",
    "PokerProbBot",
    "PokerRandomBot",
    "ProbBot",
    "RandomBot",
    "option_codec",
    "read_label",
    "takes_think",
]
