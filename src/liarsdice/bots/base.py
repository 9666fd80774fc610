"""The bot interface: a bot sees only its own :class:`~liarsdice.core.bidding.view.PlayerView`.

A bot is given the (immutable, public) :class:`~liarsdice.core.bidding.game.Game` for its rules and
action encoding, and the view of its own seat: its own hidden dice and public facts. It never
sees a :class:`~liarsdice.core.bidding.state.State`. All of its randomness comes from the
:class:`random.Random` it was built with, so a seeded bot is reproducible.

>>> import random
>>> from liarsdice.core.bidding import Bid, Game, preset
>>> class FirstLegal(Bot):
...     name = "first"
...     def choose(self, game, view):
...         return view.legal_actions[0]
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(6)
>>> FirstLegal(random.Random(0)).choose(g, s.view(0)) == g.bid_action(Bid(1, 1))
True

A bot's tuning parameters are declared once, as annotated class attributes with their defaults
(keyword-only dataclass fields: :class:`BaseBot` makes every subclass a dataclass). They are
the constructor's keywords after ``rng`` and plain attributes of the bot; a subclass overrides
a default by declaring the field again.

>>> class Cautious(Bot):
...     name = "cautious"
...     safe: float = 0.9
...     def choose(self, game, view):
...         return view.legal_actions[-1]
>>> bot = Cautious(random.Random(0), safe=0.7)
>>> bot.safe, bot, Cautious(random.Random(0)).safe
(0.7, Cautious(), 0.9)
>>> Cautious(random.Random(0), sfe=0.7)
Traceback (most recent call last):
...
TypeError: Cautious.__init__() got an unexpected keyword argument 'sfe'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, dataclass_transform

from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.view import PlayerView

__all__ = ["BaseBot", "Bot", "sample_action"]


class _View(Protocol):
    @property
    def player(self) -> int: ...
    @property
    def legal_actions(self) -> tuple[int, ...]: ...


G = TypeVar("G")
V = TypeVar("V", bound=_View)


@dataclass_transform(kw_only_default=True, eq_default=False, field_specifiers=(field,))
@dataclass(eq=False, repr=False)
class BaseBot(ABC, Generic[G, V]):
    """Base class of every bot of every rule family: ``choose(game, view) -> action``.

    Subclasses set :attr:`name` (the registry key) and implement :meth:`choose`, which must
    return one of ``view.legal_actions``. Their annotated class attributes are their tuning
    parameters: ``Bot(rng, *, param=default, ...)`` (see the module docstring).
    """

    name: ClassVar[str] = "bot"
    rng: random.Random

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Bots compare and hash by identity; a class's own __init__ or __repr__ is kept.
        dataclass(cls, eq=False, repr=False, kw_only=True)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @staticmethod
    def legal(view: V) -> tuple[int, ...]:
        """``view.legal_actions``; a ValueError when there are none (not this seat's turn)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.player} has no legal action (is it its turn?)")
        return legal

    def cannot_play(self, game: G) -> str | None:
        """Why this bot cannot play ``game`` (its rules, seats and dice), or None when it can.

        Callers ask before the first move (``liarsdice arena`` and ``play`` refuse such a bot
        up front rather than abandon every game); most bots play anything their family
        deals, and a bot limited to some games (the solver's ``nash``) says what it plays.
        """
        del game
        return None

    @abstractmethod
    def choose(self, game: G, view: V) -> int:
        """The action this bot takes, given only its own view (its seat is ``view.player``)."""


def sample_action(
    rng: random.Random,
    actions: Sequence[int],
    probs: Sequence[float] | Any,
    allowed: Container[int] | None = None,
) -> int:
    """One of ``actions`` drawn in proportion to ``probs`` (a sequence or an array), among
    the ``allowed`` ones when given; the likeliest allowed one when no weight is left on
    any (rounding, or a strategy that puts none on the allowed moves).

    >>> sample_action(random.Random(0), [10, 20, 30], [0.0, 1.0, 0.0])
    20
    >>> sample_action(random.Random(0), [10, 20, 30], [0.0, 1.0, 0.5], allowed={10, 30})
    30
    """
    weights = [
        float(q) if allowed is None or a in allowed else 0.0
        for a, q in zip(actions, probs, strict=True)
    ]
    total = sum(weights)
    if total > 0:
        u = rng.random() * total
        for a, w in zip(actions, weights, strict=True):
            u -= w
            if u < 0 and w > 0:
                return a
    ok = [i for i, a in enumerate(actions) if allowed is None or a in allowed]
    if not ok:
        raise ValueError("no allowed action to choose from")
    return actions[max(ok, key=lambda i: (weights[i], float(probs[i])))]


class Bot(BaseBot[Game, PlayerView]):
    """Base class of bidding-family bots. Bots never ask house-rule questions."""
