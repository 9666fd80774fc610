"""What the OpenSpiel and PettingZoo bindings (``liarsdice.interop``) need of a game, for every
family: the dense action numbering, observation and information-state tensors and strings,
utility bounds.

An :class:`Adapter` wraps one engine game; each family gives its own
(``Family.adapter_type()``, ``Family.adapter(game)``: ``families/<family>/adapter.py``), so the
bindings never ask which family they have. NumPy is imported only with this module.

>>> from liarsdice.families import family_of
>>> family = family_of("openspiel")
>>> adapter = family.adapter(family.new_game(family.presets["openspiel"], ["a", "b"]))
>>> adapter.num_actions, adapter.observation_size, adapter.max_chance_outcomes
(20, 26, 7)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.families.sizes import CommandLineRules, Sizes
from liarsdice.families.tensors import Encoding, Floats32

__all__ = ["Adapter"]


class Adapter(ABC):
    """One engine game as the bindings see it (see the module docstring)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_players: int = game.num_players

    def __deepcopy__(self, memo: dict[int, Any]) -> Adapter:
        return self  # immutable; shared by the copies of the states that hold it

    # ------------------------------------------------------------------ sizes
    num_actions: int
    observation_size: int
    info_size: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    zero_sum: bool
    max_game_length: int
    """A bound on the number of decisions in a game (see :meth:`rounds_bound`)."""

    # ------------------------------------------------------------- rules, games
    @classmethod
    def rules(
        cls, family: CommandLineRules, preset: str, options: Mapping[str, str], sizes: Sizes
    ) -> Any:
        """The rules of ``preset`` with ``options`` (command-line texts) and ``sizes``."""
        return family.rules_from_cli(preset, options, sizes)

    # ---------------------------------------------------------------- actions
    @abstractmethod
    def to_action(self, index: int) -> int:
        """The engine action of a dense action index."""

    @abstractmethod
    def to_index(self, action: int) -> int:
        """The dense index of an engine action."""

    def legal_indices(self, state: Any) -> list[int]:
        """The legal actions of the player to act (chance outcomes at chance nodes, which
        are the engine's own), ascending."""
        if state.current_player == CHANCE:
            return list(state.legal_actions())
        if state.current_player == TERMINAL:
            return []
        return [self.to_index(a) for a in state.legal_actions()]

    # ----------------------------------------------------------- observations
    encoding: Encoding
    """The family's tensors of this game."""

    def observation(self, state: Any, player: int) -> Floats32:
        """``player``'s observation tensor (``observation_size`` floats)."""
        return self.encoding.observation(state, player)

    def information_state(self, state: Any, player: int) -> Floats32:
        """``player``'s information-state tensor (``info_size`` floats)."""
        return self.encoding.information_state(state, player)

    @abstractmethod
    def observation_string(self, state: Any, player: int) -> str:
        """What ``player`` sees now, as one line."""

    def slices(self, history: bool) -> dict[str, slice]:
        """The named blocks of the observation (``history``: the information state)."""
        return self.encoding.blocks(history)

    @abstractmethod
    def observation_bounds(self) -> tuple[float, float]:
        """The least and greatest value of any entry of the tensors."""

    def recall_key(self, state: Any, player: int) -> str:
        """What ``player`` observes now beyond the moves themselves (which every player
        sees): the information-state strings record it whenever it changes. By default the
        whole observation string."""
        return self.observation_string(state, player)
