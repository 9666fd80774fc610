"""The typed contract every rule family's engine keeps: what its rules, games, states, views and
round results provide to the layers above (the families' records, the CLI, the server).

These are :class:`typing.Protocol` classes: an engine satisfies them by its shape, without
inheriting from them (``core/bidding`` and ``core/poker`` both do; mypy checks it where an
engine's object is used as one of these, and ``tests/test_architecture.py`` checks it at run
time). The members are the OpenSpiel-style API (``new_initial_state``, ``current_player``,
``legal_actions``, ``apply_action``, chance outcomes, ``returns``) plus what this package adds:
the event log (``history``, ``replay``), the per-player ``view`` and the finished rounds.
Anything beyond this is family-specific: a family's own modules narrow to their engine's types.

>>> from liarsdice.core.bidding import Game, preset
>>> game = Game(preset("classic"), ["ann", "bob"])
>>> isinstance(game, GameAPI), isinstance(game.new_initial_state(), StateAPI)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

__all__ = ["GameAPI", "ResultAPI", "RulesAPI", "StateAPI", "ViewAPI"]


@runtime_checkable
class RulesAPI(Protocol):
    """A family's rules: frozen, named, with a default table size and JSON-friendly options."""

    @property
    def name(self) -> str:
        """The preset's name (or the family's name for its custom rules)."""

    @property
    def players(self) -> int:
        """The default number of players."""

    def options(self) -> Mapping[str, object]:
        """Every option by name, JSON-friendly."""
        ...


@runtime_checkable
class ResultAPI(Protocol):
    """A finished round, as a state's ``results`` and a view's ``results`` hold it."""

    @property
    def round(self) -> int:
        """The round's number, from 0."""

    @property
    def call(self) -> str:
        """How the round ended (``"liar"``, ``"exact"``, a family's own)."""

    @property
    def caller(self) -> int:
        """The seat that ended the round."""

    @property
    def bidder(self) -> int:
        """The seat whose bid was called."""

    @property
    def next_opener(self) -> int | None:
        """The seat that opens the next round (None: the game is over)."""


@runtime_checkable
class ViewAPI(Protocol):
    """What one seat (-1: a spectator) may see of a state; ``to_dict`` is its JSON form."""

    @property
    def player(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def rules(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_move(self) -> int: ...
    @property
    def opener(self) -> int: ...
    @property
    def legal_actions(self) -> tuple[int, ...]: ...
    @property
    def results(self) -> Sequence[ResultAPI]: ...
    @property
    def winner(self) -> int | None: ...
    def to_dict(self) -> dict[str, object]: ...


@runtime_checkable
class StateAPI(Protocol):
    """An immutable game state: every move makes a new one; it keeps its event log."""

    @property
    def game(self) -> GameAPI:
        """The game this state belongs to."""

    @property
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` (-1) at chance nodes, ``TERMINAL`` (-4) when over."""

    @property
    def round(self) -> int:
        """The round in progress, from 0."""

    @property
    def winner(self) -> int | None:
        """The winner's seat once the game is over."""

    @property
    def results(self) -> Sequence[ResultAPI]:
        """The finished rounds."""

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats in the order they went out."""

    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> tuple[int, ...]: ...
    def explain_illegal(self, action: int) -> str: ...
    def apply_action(self, action: int) -> StateAPI: ...
    def apply_event(self, player: int, action: int) -> StateAPI: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def sample_chance(self, rng: random.Random) -> int: ...
    def resolve_chance(self, rng: random.Random) -> StateAPI: ...
    def active_players(self) -> list[int]: ...
    def returns(self) -> tuple[float, ...]: ...
    def placements(self) -> list[int]: ...
    def history(self) -> list[tuple[int, int]]:
        """The event log: ``(player, action)`` pairs from the start (player -1: chance)."""
        ...

    def view(self, player: int) -> ViewAPI:
        """What ``player`` (-1: a spectator) may see."""
        ...


@runtime_checkable
class GameAPI(Protocol):
    """Rules plus seat names; builds the first state and rebuilds any state from its log."""

    @property
    def family(self) -> str:
        """The rule family's name (``liarsdice.families`` finds the family by it)."""

    @property
    def rules(self) -> RulesAPI: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def opener(self) -> int | None: ...
    def new_initial_state(self) -> StateAPI: ...
    def replay(self, events: Iterable[tuple[int, int]]) -> StateAPI: ...
    def seat(self, name: str) -> int: ...
    def action_to_string(self, action: int, player: int = 0) -> str: ...
    def string_to_action(self, text: str) -> int: ...
