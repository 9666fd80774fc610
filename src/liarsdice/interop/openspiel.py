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
(:attr:`LiarsDiceState.engine_state`). A move costs the same at any depth: strings are built
only when asked for, from the parent state's. Room scoring is general-sum (``get_type()`` of
the loaded game); every other preset is zero-sum.

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

``python_liars_dice`` (``load("openspiel", compat=True, dice=..., faces=...)``) is the
``openspiel`` preset with exactly the interface of OpenSpiel's ``liars_dice``: its parameters
(``numdice``, ``dice_sides``), action ids (bids ``0..dice*faces-1`` as ``q-f``, ``Liar``
last), chance outcomes ``0..faces-1``, strings, tensors and sizes, so that code, networks and
policies written for ``liars_dice`` run on the engine unchanged;
:func:`liars_dice_policy` exports a project solver's policy as a ``TabularPolicy`` of it.

>>> native = pyspiel.load_game("liars_dice")
>>> same = load("openspiel", compat=True)
>>> [g.num_distinct_actions() for g in (same, native)], same.information_state_tensor_size()
([13, 13], 21)
>>> a, b = same.new_initial_state(), native.new_initial_state()
>>> for action in [2, 5, 3, 7]:
...     a.apply_action(action)
...     b.apply_action(action)
>>> str(a), a.information_state_string(1), a.legal_actions() == b.legal_actions()
('3 6 1-4 2-2', '6 1-4 2-2', True)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.families.adapter import Adapter
from liarsdice.interop.adapters import LiarsDiceCodec, make_adapter
from liarsdice.solve.policy import Policy

__all__ = [
    "COMPAT_NAME",
    "GAME_NAME",
    "LiarsDiceCompatGame",
    "LiarsDiceGame",
    "LiarsDiceState",
    "liars_dice_policy",
    "load",
]

GAME_NAME = "python_liarsdice"
_MAX_PLAYERS = 12
_MEMO_SIZE = 1 << 16
# the engine's player ids are pyspiel's: a state passes them on as they are
assert (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)) == (CHANCE, TERMINAL)

_PARAMETERS: dict[str, Any] = {
    "rules": "openspiel",
    "players": 0,
    "dice": 0,
    "faces": 0,
    "options": "",
}


def _game_type(
    zero_sum: bool,
    *,
    name: str = GAME_NAME,
    long_name: str = "Liar's Dice, every preset of the liarsdice engine",
    players: tuple[int, int] = (2, _MAX_PLAYERS),
    observation_string: bool = True,
    parameters: Mapping[str, Any] = _PARAMETERS,
) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=observation_string,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
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
    ) -> Observer | CompatObserver:
        """The observer of the observation (default) or information state (perfect
        recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.adapter, iig_obs_type)


_K = TypeVar("_K")
_V = TypeVar("_V")


def _keep(memo: dict[_K, _V], key: _K, value: _V) -> _V:
    """Keep ``value`` under ``key`` in a memo of at most :data:`_MEMO_SIZE` entries (one
    that fills up starts again)."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


class _Node:
    """What a state holds, so that clones share it: the engine state, the node it came
    from, the move that led here (``(player, action)`` as the game presents them, chance
    included) and what its game shares (:class:`_Shared`). Whatever the strings and tensors
    need of the past (:attr:`memo`) is built only when asked for, from the parent's, and
    kept: applying an action costs the same at any depth."""

    __slots__ = ("depth", "history_text", "memo", "move", "parent", "shared", "state")

    def __init__(
        self, state: Any, parent: _Node | None, move: tuple[int, int] | None, shared: _Shared
    ) -> None:
        self.state = state
        self.parent = parent
        self.move = move
        self.shared = shared
        self.memo: Any = None
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.history_text: str | None = "" if parent is None else None

    def history_str(self) -> str:
        """The actions so far as pyspiel writes them (``"3, 5, 7"``), built from the nearest
        ancestor's and kept (OpenSpiel's Python best response keys its cache by it)."""
        chain: list[_Node] = []
        node: _Node = self
        while node.history_text is None and node.parent is not None:
            chain.append(node)
            node = node.parent
        text = node.history_text or ""
        for n in reversed(chain):
            action = str(n.move[1]) if n.move is not None else ""
            text = f"{text}, {action}" if text else action
            n.history_text = text
        return text

    def moves(self) -> list[tuple[int, int]]:
        """The moves (``(player, action)``) from the first state to this one, in order."""
        moves: list[tuple[int, int]] = []
        node = self
        while node.move is not None and node.parent is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # pyspiel clones a Python state by deep-copying its attributes

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (``state.serialize()``) as its game and moves, replayed when loaded."""
        return (_replay, (self.shared, tuple(self.moves())))


def _replay(shared: _Shared, moves: tuple[tuple[int, int], ...]) -> _Node:
    """The node that ``moves`` (as the game presents them) reach from the first state."""
    node = shared.root
    for player, action in moves:
        state = node.state.apply_action(shared.engine_move(player, action))
        node = _Node(state, node, (player, action), shared)
    return node


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
        self.same_ids = self.identity
        self.legal_memo: dict[tuple[int, ...], list[int]] = {}
        self.said: dict[tuple[int, int], str] = {}
        self.root = _Node(adapter.game.new_initial_state(), None, None, self)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self  # pyspiel clones a Python state by deep-copying its attributes

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.adapter,))  # pickled without its memos

    def engine_move(self, player: int, action: int) -> int:
        """The engine's action of ``player``'s ``action`` as the game presents it."""
        return action if player == CHANCE else self.actions[action]

    @property
    def identity(self) -> bool:
        """Whether each action's id is the engine's action (bidding without shows)."""
        return self.actions == list(range(len(self.actions)))

    def legal(self, actions: tuple[int, ...]) -> list[int]:
        """The ids of the engine's legal ``actions`` (ascending, as they are), ascending; a
        new list (the ids of each tuple are kept)."""
        if self.same_ids:
            return list(actions)
        ids = self.legal_memo.get(actions)
        if ids is None:
            ids = _keep(self.legal_memo, actions, sorted(map(self.to_index, actions)))
        return list(ids)

    def tensor(self, node: _Node, player: int, *, history: bool) -> list[float]:
        """``player``'s information-state (``history``) or observation tensor, as floats."""
        adapter = self.adapter
        make = adapter.information_state if history else adapter.observation
        values: list[float] = make(node.state, player).tolist()
        return values

    def describe(self, node: _Node) -> str:
        """The state as ``str()`` prints it."""
        history = " ".join(f"{p}:{a}" for p, a in node.state.history())
        return f"{node.state!r} history {history}"

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


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerAction:
    """One move of :meth:`LiarsDiceState.full_history` (pyspiel's ``PlayerAction`` has no
    constructor in Python; this one has its fields)."""

    player: int
    action: int


class LiarsDiceState(pyspiel.State):  # type: ignore[misc]
    """One state: an immutable engine state plus each player's observation history."""

    def __init__(self, game: LiarsDiceGame) -> None:
        super().__init__(game)
        self._node = game.shared.root

    @property
    def engine_state(self) -> Any:
        """The engine's immutable state behind this one."""
        return self._node.state

    @property
    def node(self) -> _Node:
        """What this state holds (its engine state, its parent's node and the move)."""
        return self._node

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

    def _step(self, action: int) -> _Node:
        """The node that ``action`` leads to from this state's."""
        node = self._node
        state, shared = node.state, node.shared
        player = state.current_player
        if player == CHANCE:
            move = action
        else:
            actions = shared.actions
            if not 0 <= action < len(actions):
                raise ValueError(f"action {action} is not in 0..{len(actions) - 1}")
            move = actions[action]
        return _Node(state.apply_action(move), node, (player, action), shared)

    def _apply_action(self, action: int) -> None:
        self._node = self._step(action)  # what C++ calls when it applies an action

    # ----------------------------------------- moves and history, from Python
    # pyspiel's apply_action, child and clone reach a Python game through two to four
    # C++-to-Python calls each (most of a move's cost); from Python, the state moves here
    # instead. The node is the state's history: C++ keeps its own list only of the moves C++
    # applies, so the history calls below answer from the node.
    def apply_action(self, action: int) -> None:
        """Apply ``action`` (an id; a chance outcome at a chance node)."""
        self._node = self._step(action)

    def child(self, action: int) -> LiarsDiceState:
        """A new state: this one after ``action``."""
        new = self._blank()
        new._node = self._step(action)
        return new

    def clone(self) -> LiarsDiceState:
        """A new state equal to this one (they share their immutable node)."""
        new = self._blank()
        new._node = self._node
        return new

    def __copy__(self) -> LiarsDiceState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> LiarsDiceState:
        return self.clone()  # (pyspiel's own deep copy goes through serialize and back)

    def _blank(self) -> LiarsDiceState:
        cls = type(self)
        new: LiarsDiceState = cls.__new__(cls)
        pyspiel.State.__init__(new, self.get_game())
        return new

    def undo_action(self, player: int, action: int) -> None:
        """Go back to the state before the last move, ``player``'s ``action``."""
        node = self._node
        if node.parent is None or node.move != (player, action):
            raise pyspiel.SpielError(
                f"the last move is {node.move}, not ({player}, {action}): not undoing"
            )
        self._node = node.parent

    def history(self) -> list[int]:
        """Every action applied so far (chance outcomes included), in order."""
        return [action for _, action in self._node.moves()]

    def full_history(self) -> list[PlayerAction]:
        """Every move so far as ``(player, action)`` records, in order."""
        return [PlayerAction(player, action) for player, action in self._node.moves()]

    def history_str(self) -> str:
        return self._node.history_str()

    def is_simultaneous_node(self) -> bool:
        return False  # (every game of the binding is turn-based: no call to C++ and back)

    def is_player_node(self) -> bool:
        return bool(self._node.state.current_player >= 0)

    def move_number(self) -> int:
        return self._node.depth

    def is_initial_state(self) -> bool:
        return self._node.parent is None

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

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s (default: the player to act) information-state tensor, as pyspiel's
        own call gives it (which first builds a new state to learn the tensor's size)."""
        return self._node.shared.tensor(self._node, self._seat(player), history=True)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s (default: the player to act) observation tensor, as pyspiel's own
        call gives it."""
        return self._node.shared.tensor(self._node, self._seat(player), history=False)

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
        return self._node.shared.describe(self._node)


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


# ---------------------------------------------------------------- liars_dice's interface
COMPAT_NAME = "python_liars_dice"

_COMPAT_PARAMETERS: dict[str, Any] = {
    "players": 2,
    "numdice": 1,
    "dice_sides": 6,
    "bidding_rule": "reset-face",
}

_COMPAT_TYPE = _game_type(
    True,
    name=COMPAT_NAME,
    long_name="Liars Dice (the liarsdice engine with OpenSpiel's liars_dice interface)",
    players=(2, 2),
    observation_string=False,
    parameters=_COMPAT_PARAMETERS,
)


class _CompatShared(_Shared):
    """The ``openspiel`` preset presented as OpenSpiel's ``liars_dice``
    (:class:`~liarsdice.interop.adapters.LiarsDiceCodec`). A player's information-state
    string is its dice (kept per player and rolls) and the calls' text (kept per node)."""

    def __init__(self, adapter: Adapter) -> None:
        super().__init__(adapter)
        self.codec = codec = LiarsDiceCodec(adapter.game)
        self.actions = list(codec.actions)
        self.to_index = codec.to_index
        self.same_ids = False
        self.dice_text: dict[tuple[int, tuple[int, ...]], str] = {}
        self.dice_bits: dict[tuple[int, tuple[int, ...]], list[float]] = {}

    def engine_move(self, player: int, action: int) -> int:
        return action + 1 if player == CHANCE else self.actions[action]  # a die's face

    def move_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Roll {action + 1}"
        return self.codec.action_string(action)

    def record(self, node: _Node) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The rolls (outcomes) and calls (action ids) up to ``node``, in order."""
        rolls, calls, _ = self._calls(node)
        return rolls, calls

    def _calls(self, node: _Node) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        """A node's memo: its rolls and calls, and the calls' text (`` 1-4 2-2``), built
        from the nearest ancestor's."""
        chain: list[_Node] = []
        top: _Node | None = node
        while top is not None and top.memo is None:
            chain.append(top)
            top = top.parent
        rolls, calls, text = top.memo if top is not None else ((), (), "")
        for n in reversed(chain):
            if n.move is not None:
                player, action = n.move
                if player == CHANCE:
                    rolls += (action,)
                else:
                    calls += (action,)
                    text += " " + self.codec.action_string(action)
            n.memo = (rolls, calls, text)
        return rolls, calls, text

    def info_string(self, node: _Node, player: int) -> str:
        rolls, _, text = self._calls(node)
        dice = self.dice_text.get((player, rolls))
        if dice is None:  # the player's dice, kept per player and rolls
            dice = _keep(self.dice_text, (player, rolls), self.codec.info_string(player, rolls, ()))
        return dice + text

    def describe(self, node: _Node) -> str:
        return self.codec.to_string(*self.record(node))

    def tensor(self, node: _Node, player: int, *, history: bool) -> list[float]:
        rolls, calls, _ = self._calls(node)
        dice = self.dice_bits.get((player, rolls))
        if dice is None:  # the seat and dice part, kept per player and rolls
            bits = self.codec.tensor(player, rolls, ())[: -self.codec.num_actions]
            dice = _keep(self.dice_bits, (player, rolls), bits)
        out = dice + [0.0] * self.codec.num_actions
        base = len(dice)
        for action in calls if history else calls[-self.num_players :]:
            out[base + action] = 1.0  # the observation: only the last two calls
        return out


class LiarsDiceCompatGame(LiarsDiceGame):
    """The ``openspiel`` preset with exactly the interface of OpenSpiel's ``liars_dice``
    (its parameters, action ids, chance outcomes, strings, tensors and sizes), so that code,
    networks and policies written for ``liars_dice`` run unchanged on the engine."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = {**_COMPAT_PARAMETERS, **(params or {})}
        if int(p["players"]) != 2 or p["bidding_rule"] != "reset-face":
            raise ValueError(
                f"{COMPAT_NAME} plays liars_dice's default rules: 2 players, "
                f"bidding_rule reset-face, not {p['players']} and {p['bidding_rule']}"
            )
        dice, faces = int(p["numdice"]), int(p["dice_sides"])
        self.adapter = make_adapter("openspiel", players=2, dice=dice, faces=faces)
        codec = LiarsDiceCodec(self.adapter.game)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=faces,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=codec.max_game_length,
        )
        pyspiel.Game.__init__(self, _COMPAT_TYPE, info, p)

    @functools.cached_property
    def shared(self) -> _Shared:
        return _CompatShared(self.adapter)

    def new_initial_state(self) -> LiarsDiceCompatState:
        return LiarsDiceCompatState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every die is rolled once."""
        return sum(self.adapter.game.start_dice)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CompatObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return CompatObserver(self.shared, perfect_recall)


class LiarsDiceCompatState(LiarsDiceState):
    """A state of :class:`LiarsDiceCompatGame`: from Python, ``legal_actions(player)`` and
    ``legal_actions_mask(player)`` answer as a C++ game's do (the player to act's actions,
    none for anyone else; pyspiel's Python games give a chance node's outcomes to every
    seat and refuse other pseudo-players)."""

    # (the calls OpenSpiel's algorithms make at every node are written out here, without the
    # general binding's steps: a solver's cost is mostly theirs)
    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self._node
        current = node.state.current_player
        if player is not None and player != current:
            return []
        if current == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if current == TERMINAL:
            return []
        return node.shared.legal(node.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face - 1, p) for face, p in self._node.state.chance_outcomes()]

    def information_state_string(self, player: int | None = None) -> str:
        node = self._node
        if player is None or not 0 <= player < node.shared.num_players:
            player = self._seat(player)
        return node.shared.info_string(node, player)

    def _step(self, action: int) -> _Node:
        node = self._node
        state = node.state
        player = state.current_player
        if player == CHANCE:
            return _Node(state.apply_action(action + 1), node, (CHANCE, action), node.shared)
        actions = node.shared.actions
        if not 0 <= action < len(actions):
            raise ValueError(f"action {action} is not in 0..{len(actions) - 1}")
        return _Node(state.apply_action(actions[action]), node, (player, action), node.shared)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """One flag per action (per chance outcome for chance), 1 for the legal ones."""
        if player is None:
            player = self.current_player()
        size = self.get_game().max_chance_outcomes() if player == CHANCE else self._n_actions
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    @property
    def _n_actions(self) -> int:
        shared = self._node.shared
        return len(shared.actions)


class CompatObserver:
    """``liars_dice``'s tensors (and its information-state string; it has no observation
    string): the seat, each own die one-hot, a bit per call (the observation: the last two
    calls only)."""

    def __init__(self, shared: _Shared, perfect_recall: bool) -> None:
        assert isinstance(shared, _CompatShared)
        self.shared = shared
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(shared.codec.info_size, dtype=np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: LiarsDiceState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` into :attr:`tensor`."""
        self.tensor[:] = self.shared.tensor(state.node, player, history=self.perfect_recall)

    def string_from(self, state: LiarsDiceState, player: int) -> str:
        """``player``'s information-state string (``liars_dice`` has no observation
        string)."""
        if not self.perfect_recall:
            raise pyspiel.SpielError("ObservationString is not implemented.")
        return self.shared.info_string(state.node, player)


def liars_dice_policy(policy: Policy, game: Any = None) -> Any:
    """The project solver's ``policy`` (of the ``openspiel`` preset) as an OpenSpiel
    ``TabularPolicy`` of ``liars_dice`` with the policy's dice and faces (or of ``game``,
    any game with ``liars_dice``'s interface: :data:`COMPAT_NAME` too), ready for
    ``pyspiel.exploitability`` (through ``python_policy_to_pyspiel_policy``) or any OpenSpiel
    algorithm."""
    engine = policy.game
    dice, faces = int(engine.start_dice[0]), int(engine.rules.faces)
    if game is None:
        game = pyspiel.load_game("liars_dice", {"numdice": dice, "dice_sides": faces})
    ours = load("openspiel", compat=True, dice=dice, faces=faces)
    to_index = ours.shared.to_index
    tabular = os_policy.TabularPolicy(game)
    table = tabular.action_probability_array
    table[:] = 0.0
    for row, state in enumerate(tabular.states):
        mine = ours.new_initial_state()
        for action in state.history():
            mine.apply_action(action)
        now = mine.engine_state
        probs = policy.view_probabilities(now.view(now.current_player))
        for action, p in zip(now.legal_actions(), probs, strict=True):
            table[row, to_index(action)] = p
    return tabular


def load(rules: str = "openspiel", *, compat: bool = False, **params: Any) -> LiarsDiceGame:
    """``pyspiel.load_game("python_liarsdice", {"rules": rules, **params})``; with
    ``compat``, the ``openspiel`` preset as OpenSpiel's ``liars_dice``
    (``pyspiel.load_game("python_liars_dice", {"numdice": dice, "dice_sides": faces})``)."""
    if not compat:
        game: LiarsDiceGame = pyspiel.load_game(GAME_NAME, {"rules": rules, **params})
        return game
    if rules != "openspiel" or set(params) - {"dice", "faces"}:
        raise ValueError(
            "compat=True presents the openspiel preset as liars_dice: dice and faces only, "
            f"not rules {rules!r} with {sorted(params)}"
        )
    spec = {"numdice": int(params.get("dice") or 1), "dice_sides": int(params.get("faces") or 6)}
    compat_game: LiarsDiceGame = pyspiel.load_game(COMPAT_NAME, spec)
    return compat_game


pyspiel.register_game(_GAME_TYPE, LiarsDiceGame)
pyspiel.register_game(_COMPAT_TYPE, LiarsDiceCompatGame)
