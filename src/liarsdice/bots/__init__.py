"""Bots: players that choose an action from their own view only.

Each rule family has its own bots under the same names: ``make_bot(name, rng)`` makes a
bidding-family bot (:class:`Bot`), ``make_bot(name, rng, family="poker")`` a poker-dice one
(:class:`PokerBot`).

Levels, weakest first (:data:`BOT_NAMES`; see ``docs/BOTS.md``): ``random``, ``prob``,
``bayes`` (a Bayesian belief over the opponents' dice) and ``expert`` (search on top of the
belief; the solved equilibrium in small two-player single-round games). ``think`` (seconds per
move) is passed to the expert.

>>> import random
>>> BOT_NAMES
('random', 'prob', 'bayes', 'expert')
>>> make_bot("random", random.Random(0))
RandomBot()
>>> make_bot("prob", random.Random(0), family="poker")
PokerProbBot()
>>> make_bot("expert", random.Random(0), think=0.2)
ExpertBot(think=0.2)
>>> make_bot("genius", random.Random(0))
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: random, prob, bayes, expert, nash
>>> make_bot("prob", random.Random(0), family="chess")
Traceback (most recent call last):
...
ValueError: unknown rule family 'chess'; families: bidding, poker
"""

from __future__ import annotations

import random
from typing import Literal, overload

from liarsdice.bots.base import Bot
from liarsdice.bots.bayes import BayesBot
from liarsdice.bots.expert import ExpertBot
from liarsdice.bots.poker import PokerBot, PokerProbBot, PokerRandomBot
from liarsdice.bots.poker_levels import PokerBayesBot, PokerExpertBot
from liarsdice.bots.prob import ProbBot
from liarsdice.bots.random_bot import RandomBot

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "FAMILIES",
    "POKER_BOTS",
    "SOLVER_BOT_NAMES",
    "BayesBot",
    "Bot",
    "ExpertBot",
    "PokerBayesBot",
    "PokerBot",
    "PokerExpertBot",
    "PokerProbBot",
    "PokerRandomBot",
    "ProbBot",
    "RandomBot",
    "bot_names",
    "make_bot",
]

BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, ProbBot, BayesBot, ExpertBot)}
POKER_BOTS: dict[str, type[PokerBot]] = {
    cls.name: cls for cls in (PokerRandomBot, PokerProbBot, PokerBayesBot, PokerExpertBot)
}
BOT_NAMES: tuple[str, ...] = tuple(BOTS)  # weakest first
# Bidding-family bots that play a solved equilibrium: two-player single-round games only
# (liarsdice.solve; imported on first use, it pulls in NumPy and SciPy).
SOLVER_BOT_NAMES: tuple[str, ...] = ("nash",)
FAMILIES: tuple[str, ...] = ("bidding", "poker")
assert set(POKER_BOTS) == set(BOTS)


def bot_names(family: str = "bidding") -> tuple[str, ...]:
    """Every bot name ``make_bot`` accepts for a rule family.

    >>> bot_names(), bot_names("poker")
    (('random', 'prob', 'bayes', 'expert', 'nash'), ('random', 'prob', 'bayes', 'expert'))
    """
    return BOT_NAMES + (SOLVER_BOT_NAMES if family == "bidding" else ())


@overload
def make_bot(
    name: str,
    rng: random.Random,
    family: Literal["bidding"] = "bidding",
    *,
    think: float | None = ...,
) -> Bot: ...
@overload
def make_bot(
    name: str, rng: random.Random, family: Literal["poker"], *, think: float | None = ...
) -> PokerBot: ...
@overload
def make_bot(
    name: str, rng: random.Random, family: str, *, think: float | None = ...
) -> Bot | PokerBot: ...
def make_bot(
    name: str, rng: random.Random, family: str = "bidding", *, think: float | None = None
) -> Bot | PokerBot:
    """A new bot of kind ``name`` for rule ``family`` (``"bidding"`` or ``"poker"``),
    drawing its randomness from ``rng``. ``think`` (seconds per move, None: the bot's
    default) is passed to the expert; other levels ignore it."""
    if family not in FAMILIES:
        raise ValueError(f"unknown rule family {family!r}; families: {', '.join(FAMILIES)}")
    key = name.strip().lower()
    if key in SOLVER_BOT_NAMES and family == "bidding":
        from liarsdice.solve.bot import NashBot

        return NashBot(rng)
    registry: dict[str, type[Bot]] | dict[str, type[PokerBot]]
    registry = POKER_BOTS if family == "poker" else BOTS
    if key not in registry:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bot_names(family))}")
    cls = registry[key]
    if key == "expert" and think is not None:
        return cls(rng, think=think)  # type: ignore[call-arg]
    return cls(rng)
