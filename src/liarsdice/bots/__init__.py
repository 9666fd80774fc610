"""Bots: players that choose an action from their own view only.

Each rule family has its own bots under the same names: ``make_bot(name, rng)`` makes a
bidding-family bot (:class:`Bot`), ``make_bot(name, rng, family="poker")`` a poker-dice one
(:class:`PokerBot`).

>>> import random
>>> BOT_NAMES
('prob', 'random')
>>> make_bot("random", random.Random(0))
RandomBot()
>>> make_bot("prob", random.Random(0), family="poker")
PokerProbBot()
>>> make_bot("genius", random.Random(0))
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: prob, random
>>> make_bot("prob", random.Random(0), family="chess")
Traceback (most recent call last):
...
ValueError: unknown rule family 'chess'; families: bidding, poker
"""

from __future__ import annotations

import random
from typing import Literal, overload

from liarsdice.bots.base import Bot
from liarsdice.bots.poker import PokerBot, PokerProbBot, PokerRandomBot
from liarsdice.bots.prob import ProbBot
from liarsdice.bots.random_bot import RandomBot

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "FAMILIES",
    "POKER_BOTS",
    "Bot",
    "PokerBot",
    "PokerProbBot",
    "PokerRandomBot",
    "ProbBot",
    "RandomBot",
    "make_bot",
]

BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (ProbBot, RandomBot)}
POKER_BOTS: dict[str, type[PokerBot]] = {cls.name: cls for cls in (PokerProbBot, PokerRandomBot)}
BOT_NAMES: tuple[str, ...] = tuple(BOTS)
FAMILIES: tuple[str, ...] = ("bidding", "poker")
assert set(POKER_BOTS) == set(BOTS)


@overload
def make_bot(name: str, rng: random.Random, family: Literal["bidding"] = "bidding") -> Bot: ...
@overload
def make_bot(name: str, rng: random.Random, family: Literal["poker"]) -> PokerBot: ...
@overload
def make_bot(name: str, rng: random.Random, family: str) -> Bot | PokerBot: ...
def make_bot(name: str, rng: random.Random, family: str = "bidding") -> Bot | PokerBot:
    """A new bot of kind ``name`` for rule ``family`` (``"bidding"`` or ``"poker"``),
    drawing its randomness from ``rng``."""
    if family not in FAMILIES:
        raise ValueError(f"unknown rule family {family!r}; families: {', '.join(FAMILIES)}")
    registry: dict[str, type[Bot]] | dict[str, type[PokerBot]] = (
        POKER_BOTS if family == "poker" else BOTS
    )
    key = name.strip().lower()
    if key not in registry:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")
    return registry[key](rng)
