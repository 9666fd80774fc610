"""Every preset of both families as a Python OpenSpiel game, ``python_liarsdice``.

Importing this module registers the game with ``pyspiel`` (the ``openspiel`` extra:
``pip install 'liarsdice[openspiel]'``). Its parameters:

=============  =========  ===================================================================
parameter      default    meaning
=============  =========  ===================================================================
``rules``      openspiel  any preset of ``liarsdice rules`` (bidding or poker dice)
``players``    0          seats (0: the preset's)
``dice``       0          dice per seat (0: the preset's; per seat: ``options="dice:3+2"``)
``faces``      0          faces (0: the preset's; the highest face stays wild in openspiel)
``options``    ``""``     rule options as ``--option`` takes them: ``"exact:spot-on; lives:1"``
=============  =========  ===================================================================

Actions are the dense indices of the family's adapter (:mod:`liarsdice.families.adapter`: the
engine's integers, show-and-reroll actions renumbered after the bids); chance outcomes are the
engine's (a die's face 1..F, a random opener's seat). Information-state strings recall the
player's every observation (perfect recall); the tensors are those of
:mod:`liarsdice.families.bidding.encoding` and :mod:`liarsdice.families.poker.encoding`. The
engine is the rules: each OpenSpiel state wraps an immutable engine state
(:attr:`LiarsDiceState.engine_state`).

>>> import pyspiel
>>> game = pyspiel.load_game("python_liarsdice", {"rules": "perudo", "players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.get_type().utility.name
(3, 98, 'ZERO_SUM')
>>> state = game.new_initial_state()
>>> state.chance_outcomes()[:2]                       # a random seat opens
[(0, 0.333...), (1, 0.333...)]
>>> for outcome in [1] + [3, 3, 4, 6, 6] + [1, 2, 2, 5, 6] + [2, 2, 3, 4, 5]:
...     state.apply_action(outcome)
>>> state.current_player(), state.observation_string(1)
(1, 'p1 round 0 bid opener 1 to_move 1 dice 5,5,5 mine 12256')
>>> state.apply_action(state.string_to_action("3x2"))
>>> print(state.information_state_string(2))      # perfect recall: every observation and move
p2 [p2 round 0 setup opener 0 to_move -1 dice 5,5,5 mine -] [p2 round 0 roll opener 1 to_move -1
dice 5,5,5 mine -] [p2 round 0 bid opener 1 to_move 1 dice 5,5,5 mine 22345] 1:3x2 [p2 round 0
bid opener 1 to_move 2 dice 5,5,5 mine 22345 bid 3x2 by 1]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.families.adapter import Adapter
from liarsdice.interop.adapters import make_adapter

__all__ = ["GAME_NAME", "LiarsDiceGame", "LiarsDiceState", "load"]

GAME_NAME = "python_liarsdice"
_MAX_PLAYERS = 12

_PARAMETERS: dict[str, Any] = {
    "rules": "openspiel",
    "players": 0,
    "dice": 0,
    "faces": 0,
    "options": "",
}


def _game_type(zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Liar's Dice, every preset of the liarsdice engine",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


_GAME_TYPE = _game_type(True)


def adapter_of(params: Mapping[str, Any]) -> Adapter:
    """The :class:`~liarsdice.families.adapter.Adapter` of the game ``params`` describe."""
    p = {**_PARAMETERS, **params}
    return make_adapter(
        str(p["rules"]),
        players=int(p["players"]) or None,
        dice=int(p["dice"]) or None,
        faces=int(p["faces"]) or None,
        options=str(p["options"]),
    )


class LiarsDiceGame(pyspiel.Game):  # type: ignore[misc]
    """A preset of either family as an OpenSpiel game (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.adapter = adapter = adapter_of(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=adapter.num_actions,
            max_chance_outcomes=adapter.max_chance_outcomes,
            num_players=adapter.num_players,
            min_utility=adapter.min_utility,
            max_utility=adapter.max_utility,
            utility_sum=0.0 if adapter.zero_sum else None,
            max_game_length=adapter.max_game_length,
        )
        super().__init__(_game_type(adapter.zero_sum), info, params)

    @property
    def engine_game(self) -> Any:
        """The engine's game (:class:`liarsdice.core.Game` or the poker-dice game)."""
        return self.adapter.game

    @functools.cached_property
    def root_node(self) -> _Node:
        """The first state's node (shared: nodes are immutable)."""
        adapter = self.adapter
        state = adapter.game.new_initial_state()
        seen = tuple(adapter.recall_key(state, p) for p in range(adapter.num_players))
        return _Node(state, seen, tuple((f"p{p}", f"[{s}]") for p, s in enumerate(seen)))

    def new_initial_state(self) -> LiarsDiceState:
        """The state before anything happened."""
        return LiarsDiceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        """The observer of the observation (default) or information state (perfect
        recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.adapter, iig_obs_type)


class _Node:
    """What a state holds, immutable, so that clones share it: the engine state, each
    player's latest recall key (:meth:`Adapter.recall_key`) and each player's recall (its
    seat, then its keys when they changed and every move, in order)."""

    __slots__ = ("recall", "seen", "state")

    def __init__(self, state: Any, seen: tuple[str, ...], recall: tuple[tuple[str, ...], ...]):
        self.state = state
        self.seen = seen
        self.recall = recall

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # pyspiel clones a Python state by deep-copying its attributes


class LiarsDiceState(pyspiel.State):  # type: ignore[misc]
    """One state: an immutable engine state plus each player's observation history."""

    def __init__(self, game: LiarsDiceGame) -> None:
        super().__init__(game)
        self._adapter: Adapter = game.adapter
        self._node = game.root_node

    @property
    def engine_state(self) -> Any:
        """The engine's immutable state behind this one."""
        return self._node.state

    @property
    def _state(self) -> Any:
        return self._node.state

    # ------------------------------------------------------------- the API
    def current_player(self) -> int:
        player: int = self._state.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._state.current_player:
            return []
        return self._adapter.legal_indices(self._state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes: list[tuple[int, float]] = self._state.chance_outcomes()
        return outcomes

    def _apply_action(self, action: int) -> None:
        node = self._node
        player = node.state.current_player
        adapter = self._adapter
        move = action if player == CHANCE else adapter.to_action(action)
        state = node.state.apply_action(move)
        said = () if player == CHANCE else (f"{player}:{self._action_to_string(player, action)}",)
        seen = tuple(adapter.recall_key(state, p) for p in range(adapter.num_players))
        recall = tuple(
            r + said + ((f"[{now}]",) if now != before else ())
            for r, now, before in zip(node.recall, seen, node.seen, strict=True)
        )
        self._node = _Node(state, seen, recall)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._adapter.game
        if player == CHANCE:
            return str(game.action_to_string(action, CHANCE))
        return str(game.action_to_string(self._adapter.to_action(action), player))

    def is_terminal(self) -> bool:
        return bool(self._state.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self._state.returns()]

    def information_state_string_of(self, player: int) -> str:
        """``player``'s perfect-recall information state: its seat, then what it observed
        (:meth:`~liarsdice.families.adapter.Adapter.recall_key`, when that changed) and every
        move, in order."""
        return " ".join(self._node.recall[player])

    def __str__(self) -> str:
        history = " ".join(f"{p}:{a}" for p, a in self._state.history())
        return f"{self._state!r} history {history}"


class Observer:
    """The observation (or, with perfect recall, information-state) tensor and string
    (OpenSpiel's ``PyObserver`` interface)."""

    def __init__(self, adapter: Adapter, iig_obs_type: Any) -> None:
        self.adapter = adapter
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not private or not iig_obs_type.public_info:
            raise ValueError(
                "python_liarsdice observes a player's own view (public and private "
                f"information), not {iig_obs_type}"
            )
        size = adapter.info_size if self.perfect_recall else adapter.observation_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {
            name: self.tensor[s] for name, s in adapter.slices(self.perfect_recall).items()
        }

    def set_from(self, state: LiarsDiceState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` into :attr:`tensor`."""
        adapter, engine = self.adapter, state.engine_state
        if self.perfect_recall:
            self.tensor[:] = adapter.information_state(engine, player)
        else:
            self.tensor[:] = adapter.observation(engine, player)

    def string_from(self, state: LiarsDiceState, player: int) -> str:
        """``player``'s observation (or information-state) string of ``state``."""
        if self.perfect_recall:
            return state.information_state_string_of(player)
        return self.adapter.observation_string(state.engine_state, player)


def load(rules: str = "openspiel", **params: Any) -> LiarsDiceGame:
    """``pyspiel.load_game("python_liarsdice", {"rules": rules, **params})``."""
    game: LiarsDiceGame = pyspiel.load_game(GAME_NAME, {"rules": rules, **params})
    return game


pyspiel.register_game(_GAME_TYPE, LiarsDiceGame)
