"""A family's bots by name, and what a bot label says (``expert:cached=false#2``).

A rule family declares its bots once, as a :class:`BotTable` (``Family.bots`` in
``families/``): its levels weakest first, then its panel bots, then the bots imported on first
use (the bidding family's solver bot ``nash``, which pulls in NumPy and SciPy). The family's
one factory (``Family.make_bot``) reads a bot's options through the bot class's
:func:`option_codec` (the same kind of codec as the rule options), and passes a per-move time
budget to the bots that declare a ``think`` field (:func:`takes_think`).

>>> from liarsdice.bots.bidding.prob import ProbBot
>>> from liarsdice.bots.bidding.random_bot import RandomBot
>>> table = BotTable(levels=(RandomBot, ProbBot))
>>> list(table), table.levels, table["prob"].__name__
(['random', 'prob'], ('random', 'prob'), 'ProbBot')
>>> read_label("expert:cached=false:exploit=0.7#2")
('expert', {'cached': 'false', 'exploit': '0.7'})
>>> option_codec(ProbBot).from_text("safe", "0.9")
0.9
>>> option_codec(ProbBot).from_text("safe", "high")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option safe takes a number, not 'high'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeAlias

from liarsdice.bots.base import BaseBot
from liarsdice.core.errors import RulesError
from liarsdice.core.options import OptionCodec

__all__ = ["AnyBot", "BotTable", "option_codec", "read_label", "takes_think"]

AnyBot: TypeAlias = "BaseBot[Any, Any]"
"""A bot of some rule family (its game and view types are the family's own)."""


class BotTable(Mapping[str, type[AnyBot]]):
    """Bot classes by their ``name``: ``levels`` (weakest first), then ``panel`` (bots kept
    for measuring the levels), then ``lazy`` (name -> a function that imports the class: only
    when the class is first asked for)."""

    def __init__(
        self,
        *,
        levels: Iterable[type[AnyBot]],
        panel: Iterable[type[AnyBot]] = (),
        lazy: Mapping[str, Callable[[], type[AnyBot]]] | None = None,
    ) -> None:
        level_classes = tuple(levels)
        panel_classes = tuple(panel)
        self.levels: tuple[str, ...] = tuple(c.name for c in level_classes)
        """The levels, weakest first."""
        self.panel: tuple[str, ...] = tuple(c.name for c in panel_classes)
        """The panel bots (robustness measurements: ``liarsdice arena``)."""
        self._lazy = dict(lazy or {})
        self._loaded: dict[str, type[AnyBot]] = {c.name: c for c in level_classes + panel_classes}
        self._names = (*self.levels, *self.panel, *self._lazy)
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"bot names must be unique: {', '.join(self._names)}")

    @property
    def lazy(self) -> tuple[str, ...]:
        """The bots imported on first use (solver bots)."""
        return tuple(self._lazy)

    def __getitem__(self, name: str) -> type[AnyBot]:
        cls = self._loaded.get(name)
        if cls is None:
            cls = self._loaded[name] = self._lazy[name]()  # KeyError: not one of them
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def plus(self, *panel: type[AnyBot]) -> BotTable:
        """This table with more panel bots (tests and experiments).

        >>> from liarsdice.bots.bidding.random_bot import RandomBot
        >>> class Other(RandomBot):
        ...     name = "other"
        >>> list(BotTable(levels=(RandomBot,)).plus(Other))
        ['random', 'other']
        """
        return BotTable(
            levels=(self[n] for n in self.levels),
            panel=(*(self[n] for n in self.panel), *panel),
            lazy=self._lazy,
        )

    def __repr__(self) -> str:
        return f"BotTable({', '.join(self._names)})"


def read_label(label: str) -> tuple[str, dict[str, str]]:
    """A bot label's bot name (lower case) and the options it gives: ``name:key=value:...``,
    then perhaps ``#n`` (the arena's instance number); each value a text for the bot's
    :func:`option_codec`. A :class:`RulesError` for an item that is not ``key=value``.

    >>> read_label(" Prob ")
    ('prob', {})
    >>> read_label("expert:cached")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RulesError: bot option 'cached' of 'expert:cached' is not key=value
    """
    spec = label.split("#", 1)[0].strip()
    name, *pairs = spec.split(":")
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(f"bot option {pair!r} of {spec!r} is not key=value")
        options[key] = text.strip()
    return name.strip().lower(), options


@functools.cache
def option_codec(cls: type[AnyBot]) -> OptionCodec:
    """The options a bot class takes (its tuning parameters: the dataclass fields after
    ``rng`` of a plain type; others, such as a model object, are not options)."""
    return OptionCodec.of(cls, skip=("rng",), what="bot option", strict=False)


def takes_think(cls: type[AnyBot]) -> bool:
    """Whether bots of ``cls`` take a per-move time budget: a ``think`` field (seconds, a
    ``float | None``; see docs/ARENA.md).

    >>> from liarsdice.bots.bidding.expert import ExpertBot
    >>> from liarsdice.bots.bidding.random_bot import RandomBot
    >>> takes_think(ExpertBot), takes_think(RandomBot)
    (True, False)
    """
    return "think" in option_codec(cls).names
