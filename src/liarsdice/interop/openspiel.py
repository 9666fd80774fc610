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
_LEGAL_MEMO_SIZE = 1 << 16
# the engine's player ids are pyspiel's: a state passes them on as they are
assert (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)) == (CHANCE, TERMINAL)

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
    def shared(self) -> _Shared:
        """What all this game's states share (:class:`_Shared`)."""
        return _Shared(self.adapter)

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
    """What a state holds, so that clones share it: the engine state, the node it came
    from, the move that led here (``(player, action)`` as the game presents them, chance
    included) and what its game shares (:class:`_Shared`). Whatever the strings and tensors
    need of the past (:attr:`memo`) is built only when asked for, from the parent's, and
    kept: applying an action costs the same at any depth."""

    __slots__ = ("memo", "move", "parent", "shared", "state")

    def __init__(
        self, state: Any, parent: _Node | None, move: tuple[int, int] | None, shared: _Shared
    ) -> None:
        self.state = state
        self.parent = parent
        self.move = move
        self.shared = shared
        self.memo: Any = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # pyspiel clones a Python state by deep-copying its attributes


class _Shared:
    """What all the states of one game share, never copied with them: the adapter, the
    engine action of each action id, the ids of each tuple of legal engine actions (few
    tuples recur), the texts of moves and the first state's node. Subclasses present the
    game otherwise (:class:`_CompatShared`)."""

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter
        self.num_players = adapter.num_players
        self.actions = [adapter.to_action(i) for i in range(adapter.num_actions)]
        self.to_index = adapter.to_index
        self.legal_memo: dict[tuple[int, ...], list[int]] = {}
        self.said: dict[tuple[int, int], str] = {}
        self.root = _Node(adapter.game.new_initial_state(), None, None, self)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self  # pyspiel clones a Python state by deep-copying its attributes

    def legal(self, actions: tuple[int, ...]) -> list[int]:
        """The ids of the engine's legal ``actions`` (kept)."""
        ids = self.legal_memo.get(actions)
        if ids is None:
            if len(self.legal_memo) >= _LEGAL_MEMO_SIZE:
                self.legal_memo.clear()
            to_index = self.to_index
            ids = self.legal_memo[actions] = [to_index(a) for a in actions]
        return ids

    def chance_move(self, outcome: int) -> int:
        """The engine's chance outcome of a presented one."""
        return outcome

    def move_string(self, player: int, action: int) -> str:
        """The text of ``player``'s ``action`` (an id; a chance outcome for chance), kept."""
        text = self.said.get((player, action))
        if text is None:
            game = self.adapter.game
            move = action if player == CHANCE else self.actions[action]
            text = self.said[(player, action)] = str(game.action_to_string(move, player))
        return text

    def info_string(self, node: _Node, player: int) -> str:
        """``player``'s information-state string: its seat, then what it observed
        (:meth:`~liarsdice.families.adapter.Adapter.recall_key`, when that changed) and
        every move, in order; built from the nearest ancestor that knows it."""
        chain: list[_Node] = []
        top: _Node | None = node
        while top is not None and (top.memo is None or top.memo[1][player] is None):
            chain.append(top)
            top = top.parent
        if top is None:  # the root
            top = chain.pop()
            self._memo(top)[1][player] = f"p{player} [{self._key(top, player)}]"
        text: str = top.memo[1][player]
        before = self._key(top, player)
        for n in reversed(chain):
            now = self._key(n, player)
            if n.move is not None and n.move[0] != CHANCE:
                text += f" {n.move[0]}:{self.move_string(*n.move)}"
            if now != before:
                text += f" [{now}]"
            self._memo(n)[1][player], before = text, now
        return text

    def _memo(self, node: _Node) -> tuple[list[str | None], list[str | None]]:
        """A node's memo: each player's recall key and string, once built."""
        if node.memo is None:
            node.memo = ([None] * self.num_players, [None] * self.num_players)
        memo: tuple[list[str | None], list[str | None]] = node.memo
        return memo

    def _key(self, node: _Node, player: int) -> str:
        keys = self._memo(node)[0]
        key = keys[player]
        if key is None:
            key = keys[player] = self.adapter.recall_key(node.state, player)
        return key


class LiarsDiceState(pyspiel.State):  # type: ignore[misc]
    """One state: an immutable engine state plus each player's observation history."""

    def __init__(self, game: LiarsDiceGame) -> None:
        super().__init__(game)
        self._node = game.shared.root

    @property
    def engine_state(self) -> Any:
        """The engine's immutable state behind this one."""
        return self._node.state

    # ------------------------------------------------------------- the API
    def current_player(self) -> int:
        player: int = self._node.state.current_player  # CHANCE, TERMINAL: pyspiel's ids
        return player

    # pyspiel's own legal_actions() and is_chance_node() reach these methods through four
    # and one C++-to-Python calls; the same answers in Python skip them (C++ algorithms still
    # take the C++ path, which ends in the methods below)
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), as pyspiel's: a
        chance node's outcomes whoever asks, none at the end or for a seat not to act."""
        state = self._node.state
        current: int = state.current_player
        if current == CHANCE:
            return [a for a, _ in state.chance_outcomes()]
        if current == TERMINAL:
            return []
        if player is None or player == current:
            return self._node.shared.legal(state.legal_actions())
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return bool(self._node.state.current_player == CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._node.state
        if player != state.current_player:
            return []
        return self._node.shared.legal(state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes: list[tuple[int, float]] = self._node.state.chance_outcomes()
        return outcomes

    def _apply_action(self, action: int) -> None:
        node = self._node
        state, shared = node.state, node.shared
        player = state.current_player
        if player == CHANCE:
            move = shared.chance_move(action)
        else:
            actions = shared.actions
            if not 0 <= action < len(actions):
                raise ValueError(f"action {action} is not in 0..{len(actions) - 1}")
            move = actions[action]
        self._node = _Node(state.apply_action(move), node, (player, action), shared)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._node.shared.move_string(player, action)

    def is_terminal(self) -> bool:
        return bool(self._node.state.current_player == TERMINAL)

    def returns(self) -> list[float]:
        return [float(r) for r in self._node.state.returns()]

    def information_state_string(self, player: int | None = None) -> str:
        """``player``'s (default: the player to act) information-state string, as pyspiel's
        own call gives it, without its two C++-to-Python calls."""
        return self.information_state_string_of(self._seat(player))

    def _seat(self, player: int | None) -> int:
        """``player`` (default: the player to act), a seat, or pyspiel's error."""
        if player is None:
            player = int(self._node.state.current_player)
        if not 0 <= player < self._node.shared.num_players:
            raise pyspiel.SpielError(f"player = {player} is not a seat")
        return player

    def information_state_string_of(self, player: int) -> str:
        """``player``'s perfect-recall information state: its seat, then what it observed
        (:meth:`~liarsdice.families.adapter.Adapter.recall_key`, when that changed) and every
        move, in order."""
        return self._node.shared.info_string(self._node, player)

    def __str__(self) -> str:
        state = self._node.state
        history = " ".join(f"{p}:{a}" for p, a in state.history())
        return f"{state!r} history {history}"


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
