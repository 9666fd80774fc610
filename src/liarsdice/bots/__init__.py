"""Bots: players that choose an action from their own view only.

Each rule family has its own bots under the same names: ``make_bot(name, rng)`` makes a
bidding-family bot (:class:`Bot`), ``make_bot(name, rng, family="poker")`` a poker-dice one
(:class:`PokerBot`).

Levels, weakest first (:data:`BOT_NAMES`; see ``docs/BOTS.md``): ``random``, ``prob``,
``bayes`` (a Bayesian belief over the opponents' dice) and ``expert`` (the belief, with the
next player modelled as a reader of bids; the solved equilibrium in small two-player
single-round games, a re-solve of the round between two players with few dice). The
bidding family also has panel bots for measuring robustness (:data:`PANEL_BOT_NAMES`):
``bluffer`` (bids past its dice, calls less) and ``expert-v1`` (the first expert, frozen: search
on an honest-bidder belief). ``think`` (seconds per move) is passed to the experts.

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
ValueError: unknown bot 'genius'; bots: random, prob, bayes, expert, bluffer, expert-v1, nash
>>> make_bot("prob", random.Random(0), family="chess")
Traceback (most recent call last):
...
ValueError: unknown rule family 'chess'; families: bidding, poker
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal, overload

from liarsdice.bots.base import BaseBot, Bot
from liarsdice.bots.bidding.bayes import BayesBot
from liarsdice.bots.bidding.bluffer import BlufferBot
from liarsdice.bots.bidding.expert import ExpertBot, ExpertV1Bot
from liarsdice.bots.bidding.prob import ProbBot
from liarsdice.bots.bidding.random_bot import RandomBot
from liarsdice.bots.poker.levels import PokerBayesBot, PokerExpertBot
from liarsdice.bots.poker.simple import PokerBot, PokerProbBot, PokerRandomBot

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "FAMILIES",
    "LAZY_BOTS",
    "PANEL_BOTS",
    "PANEL_BOT_NAMES",
    "POKER_BOTS",
    "REGISTRY",
    "SOLVER_BOT_NAMES",
    "BaseBot",
    "BayesBot",
    "BlufferBot",
    "Bot",
    "ExpertBot",
    "ExpertV1Bot",
    "PokerBayesBot",
    "PokerBot",
    "PokerExpertBot",
    "PokerProbBot",
    "PokerRandomBot",
    "ProbBot",
    "RandomBot",
    "bot_names",
    "bot_registry",
    "make_bot",
]

BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, ProbBot, BayesBot, ExpertBot)}
POKER_BOTS: dict[str, type[PokerBot]] = {
    cls.name: cls for cls in (PokerRandomBot, PokerProbBot, PokerBayesBot, PokerExpertBot)
}
BOT_NAMES: tuple[str, ...] = tuple(BOTS)  # weakest first
# Bidding-family bots kept for measuring the levels (the arena's robustness panel).
PANEL_BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (BlufferBot, ExpertV1Bot)}
PANEL_BOT_NAMES: tuple[str, ...] = tuple(PANEL_BOTS)
# Bidding-family bots that play a solved equilibrium: two-player single-round games only
# (liarsdice.solve; imported on first use, it pulls in NumPy and SciPy).
SOLVER_BOT_NAMES: tuple[str, ...] = ("nash",)
# The bot levels of each rule family, weakest first, then the solver bots (loaded lazily).
REGISTRY: dict[str, Mapping[str, type[BaseBot[Any, Any]]]] = {
    "bidding": {**BOTS, **PANEL_BOTS},
    "poker": POKER_BOTS,
}
LAZY_BOTS: dict[str, tuple[str, ...]] = {"bidding": SOLVER_BOT_NAMES, "poker": ()}
FAMILIES: tuple[str, ...] = tuple(REGISTRY)
assert set(POKER_BOTS) == set(BOTS)  # the levels; the panel bots are the bidding family's own


def _lazy_bot(name: str) -> type[Bot]:
    """A solver bot class, imported on first use (NumPy and SciPy)."""
    from liarsdice.bots.bidding.nash import NashBot

    return {NashBot.name: NashBot}[name]


def bot_names(family: str = "bidding") -> tuple[str, ...]:
    """Every bot name ``make_bot`` accepts for a rule family.

    >>> bot_names()
    ('random', 'prob', 'bayes', 'expert', 'bluffer', 'expert-v1', 'nash')
    >>> bot_names("poker")
    ('random', 'prob', 'bayes', 'expert')
    """
    return tuple(REGISTRY.get(family, BOTS)) + LAZY_BOTS.get(family, ())


def bot_registry(family: str = "bidding") -> dict[str, type[BaseBot[Any, Any]]]:
    """Every bot class of a rule family by name, the solver bots included (this imports them).

    >>> list(bot_registry("poker"))
    ['random', 'prob', 'bayes', 'expert']
    """
    registry = dict(_family_bots(family))
    registry.update({name: _lazy_bot(name) for name in LAZY_BOTS[family]})
    return registry


def _family_bots(family: str) -> Mapping[str, type[BaseBot[Any, Any]]]:
    if family not in REGISTRY:
        raise ValueError(f"unknown rule family {family!r}; families: {', '.join(FAMILIES)}")
    return REGISTRY[family]


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
    registry = _family_bots(family)
    key = name.strip().lower()
    if key in LAZY_BOTS[family]:
        return _lazy_bot(key)(rng)
    if key not in registry:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bot_names(family))}")
    cls = registry[key]
    bot: BaseBot[Any, Any]
    if think is not None and "think" in getattr(cls, "__dataclass_fields__", {}):
        bot = cls(rng, think=think)  # type: ignore[call-arg]
    else:
        bot = cls(rng)
    return bot  # type: ignore[return-value]
