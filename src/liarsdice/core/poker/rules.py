"""Rule options of the poker-dice family: one frozen, keyword-only :class:`PokerRules`.

>>> r = POKER_PRESETS["poker-dice"]
>>> r.players, r.lives, r.dice, r.five_of_a_kind_rule
(4, 3, 5, True)
>>> r.replace(lives=1).lives
1
>>> PokerRules(lives=0)
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: lives must be 1..99, not 0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from liarsdice.core.common import preset_with
from liarsdice.core.errors import RulesError
from liarsdice.core.options import OptionCodec

MIN_PLAYERS = 2
MAX_PLAYERS = 12


@dataclass(frozen=True, kw_only=True)
class PokerRules:
    """Every rule option of poker-dice Liar's Dice (rules source 004, second half)."""

    name: str = "poker-dice"
    players: int = 4  # default number of seats (a game may be created with another count)
    lives: int = 3  # lives per player; a player with none left is out
    dice: int = 5  # the one set of poker dice shared by the table (always 5)
    five_of_a_kind_rule: bool = True  # accepting five of a kind: three rolls to make one

    def __post_init__(self) -> None:
        for name in ("players", "lives", "dice"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be a whole number, not {value!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}")
        if not 1 <= self.lives <= 99:
            raise RulesError(f"lives must be 1..99, not {self.lives}")
        if self.dice != 5:
            raise RulesError(f"poker dice use one set of 5 dice, not {self.dice}")
        if not isinstance(self.five_of_a_kind_rule, bool):
            raise RulesError(
                f"five_of_a_kind_rule must be true or false, not {self.five_of_a_kind_rule!r}"
            )

    def replace(self, **changes: Any) -> PokerRules:
        """A copy with some options changed (unknown names raise :class:`RulesError`)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = set(changes) - names
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """Every option by name (JSON-friendly)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


POKER_PRESETS: dict[str, PokerRules] = {"poker-dice": PokerRules()}

POKER_OPTIONS = OptionCodec.of(PokerRules, skip=("name",), what="rule option")
"""The one reader of the poker-dice rule options' values, from text and from JSON.

>>> POKER_OPTIONS.from_text("five_of_a_kind_rule", "1"), POKER_OPTIONS.from_json("lives", 2)
(True, 2)
>>> POKER_OPTIONS.from_json("lives", "2")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option lives takes a whole number, not '2'
"""


def poker_preset(name: str = "poker-dice", **overrides: Any) -> PokerRules:
    """A preset by name, with options overridden.

    >>> poker_preset(players=3).players
    3
    """
    return preset_with(POKER_PRESETS, name, overrides, "poker rules")


__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "POKER_OPTIONS",
    "POKER_PRESETS",
    "PokerRules",
    "poker_preset",
]
