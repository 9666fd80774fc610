"""Bots: players that choose an action from their own view only.

>>> import random
>>> BOT_NAMES
('prob', 'random')
>>> make_bot("random", random.Random(0))
RandomBot()
>>> make_bot("genius", random.Random(0))
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: prob, random
"""

from __future__ import annotations

import random

from liarsdice.bots.base import Bot
from liarsdice.bots.prob import ProbBot
from liarsdice.bots.random_bot import RandomBot

__all__ = ["BOTS", "BOT_NAMES", "Bot", "ProbBot", "RandomBot", "make_bot"]

BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (ProbBot, RandomBot)}
BOT_NAMES: tuple[str, ...] = tuple(BOTS)


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of kind ``name`` drawing its randomness from ``rng``."""
    try:
        cls = BOTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}") from None
    return cls(rng)
