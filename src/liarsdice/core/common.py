"""What both rule families share: special player ids, seat names, and the game base class.

A game (:class:`GameBase`) is rules plus seat names; it builds its first state on demand and
rebuilds any state from an event log. The families' games subclass it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from liarsdice.core.errors import IllegalActionError, RulesError

__all__ = [
    "CHANCE",
    "TERMINAL",
    "EventState",
    "GameBase",
    "StateBase",
    "ViewBase",
    "default_names",
    "preset_with",
    "seat_names",
    "view_fields",
]

# Player ids with a special meaning.
CHANCE = -1
TERMINAL = -4


class EventState(Protocol):
    """A state that advances by ``(player, action)`` events."""

    def apply_event(self, player: int, action: int) -> Self: ...


S = TypeVar("S", bound=EventState)


class StateBase:
    """What the families' immutable states share: the player to move, the event log (a cons
    list ``(previous, player, action)``) and chance resolution. ``_OVER`` is the final phase."""

    __slots__ = ()
    _OVER: ClassVar[Any]
    phase: Any
    player: int
    _log: Any

    if TYPE_CHECKING:

        def apply_action(self, action: int) -> Self: ...
        def sample_chance(self, rng: random.Random) -> int: ...
        def legal_actions(self) -> tuple[int, ...]: ...

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at chance nodes, :data:`TERMINAL` when over."""
        return self.player

    def is_terminal(self) -> bool:
        return self.phase is self._OVER

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def history(self) -> list[tuple[int, int]]:
        """The event log: ``(player, action)`` pairs from the start (player -1 = chance)."""
        out: list[tuple[int, int]] = []
        node = self._log
        while node is not None:
            node, player, action = node
            out.append((player, action))
        out.reverse()
        return out

    def resolve_chance(self, rng: random.Random) -> Self:
        """Apply chance outcomes drawn with ``rng`` until a player must act (or the end)."""
        s = self
        while s.player == CHANCE:
            s = s.apply_action(s.sample_chance(rng))
        return s

    def __iter__(self) -> Iterator[int]:
        return iter(self.legal_actions())


class _Replaceable(Protocol):
    def replace(self, **changes: Any) -> Self: ...


R = TypeVar("R", bound=_Replaceable)


def preset_with(presets: Mapping[str, R], name: str, overrides: Mapping[str, Any], what: str) -> R:
    """The preset ``name`` of ``presets`` with ``overrides`` (names checked by its
    ``replace``); :class:`RulesError` naming ``what`` and listing the presets."""
    try:
        base = presets[name]
    except KeyError:
        raise RulesError(f"unknown {what} {name!r}; presets: {', '.join(presets)}") from None
    return base.replace(**overrides) if overrides else base


def default_names(n: int) -> tuple[str, ...]:
    """Default seat names: ``p1``, ``p2``, ..."""
    return tuple(f"p{i + 1}" for i in range(n))


def seat_names(
    players: int | Sequence[str], opener: int | None, low: int, high: int
) -> tuple[str, ...]:
    """The checked seat names of ``players`` (a count or names) for ``low..high`` players.

    >>> seat_names(2, None, 2, 6)
    ('p1', 'p2')
    >>> seat_names(["a", "a"], None, 2, 6)
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RulesError: player names must be distinct and non-empty
    """
    names = default_names(players) if isinstance(players, int) else tuple(players)
    if not low <= len(names) <= high:
        raise RulesError(f"a game needs {low}..{high} players, not {len(names)}")
    if len(set(names)) != len(names) or any(not n for n in names):
        raise RulesError("player names must be distinct and non-empty")
    if opener is not None and not 0 <= opener < len(names):
        raise RulesError(f"opener must be a seat 0..{len(names) - 1}")
    return names


class GameBase(ABC, Generic[S]):
    """Rules and seat names, shared by any number of (immutable) states."""

    family: ClassVar[str]  # the rule family's name (liarsdice.families finds it by this)
    rules: Any
    names: tuple[str, ...]
    num_players: int
    opener: int | None

    def _seat(
        self,
        rules: Any,
        players: int | Sequence[str] | None,
        opener: int | None,
        bounds: tuple[int, int],
    ) -> None:
        """Set the rules, the checked seat names and the first opener."""
        low, high = bounds
        self.rules = rules
        self.names = seat_names(rules.players if players is None else players, opener, low, high)
        self.num_players = len(self.names)
        self.opener = opener
        self._root: S | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules.name!r}, {list(self.names)!r})"

    @abstractmethod
    def _initial_state(self) -> S:
        """Build the state before anything happened."""

    def new_initial_state(self) -> S:
        """The state before anything happened (shared: states are immutable)."""
        if self._root is None:
            self._root = self._initial_state()
        return self._root

    def replay(self, events: Iterable[tuple[int, int]]) -> S:
        """Rebuild a state from an event log of ``(player, action)`` pairs (-1 = chance)."""
        state = self.new_initial_state()
        for player, action in events:
            state = state.apply_event(player, action)
        return state

    def seat(self, name: str) -> int:
        """The seat of a player by name."""
        try:
            return self.names.index(name)
        except ValueError:
            raise IllegalActionError(f"no player named {name!r}") from None


@dataclass(frozen=True, slots=True)
class ViewBase:
    """The head of every family's per-player view. ``player`` is -1 for a spectator."""

    player: int
    names: tuple[str, ...]
    rules: str
    round: int
    phase: str
    to_move: int  # seat to act; -1 chance, -4 game over
    opener: int

    def _head(self) -> dict[str, Any]:
        """The head's JSON-friendly form."""
        return {
            "player": self.player,
            "names": list(self.names),
            "rules": self.rules,
            "round": self.round,
            "phase": self.phase,
            "to_move": self.to_move,
            "opener": self.opener,
        }


def view_fields(state: Any, player: int, round: int, opener: int) -> dict[str, Any]:
    """The :class:`ViewBase` fields of ``player``'s view of ``state``, its legal actions
    (empty unless the viewer is a seat to move), the finished rounds and the winner."""
    game = state.game
    to_move: int = state.player
    seat = 0 <= player < game.num_players
    return {
        "player": player,
        "names": game.names,
        "rules": game.rules.name,
        "round": round,
        "phase": state.phase.name.lower(),
        "to_move": to_move,
        "opener": opener,
        "legal_actions": state.legal_actions() if seat and to_move == player else (),
        "results": state.results,
        "winner": state.winner,
    }
