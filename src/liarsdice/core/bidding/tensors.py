"""The observation and information-state tensors of a bidding-family game, in pure Python.

Written once here and used by everything that encodes a bidding state: the core's own
:meth:`State.observation_tensor <liarsdice.core.bidding.state.State.observation_tensor>` and
:meth:`State.information_state_tensor
<liarsdice.core.bidding.state.State.information_state_tensor>` (lists of floats, as OpenSpiel's
Python API returns them: :class:`FloatTensor`), the families' NumPy encoding
(:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`, which the OpenSpiel and
PettingZoo bindings use) and the batched simulator, whose vectorised encoder fills the same
blocks (:attr:`TensorLayout.slices`). The layout is documented in
:mod:`liarsdice.families.bidding.encoding` and ``docs/RESEARCH.md``.

>>> from liarsdice.core.bidding import Game, preset
>>> game = Game(preset("openspiel"))
>>> layout = game.tensor_layout()
>>> layout.size, layout.info_size, [name for name, _ in layout.blocks]
(26, 50, ['seat', 'to_move', 'bid', 'bidder', 'my_dice', 'dice'])
>>> s = game.new_initial_state().apply_action(3).apply_action(6).apply_action(8 + 4)
>>> t = s.information_state_tensor(1)
>>> t[layout.slices["my_dice"]], t[layout.slices["bidder"]]
([0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.0, 1.0])

Each tensor is a :class:`FloatTensor`: the floats in a float32 C buffer, so that NumPy reads
one in a single copy (``np.asarray(t)``, as a learner's loop does at every step), that otherwise
behave as the lists of floats OpenSpiel's Python API returns:

>>> import numpy as np
>>> np.asarray(t, dtype=np.float32)[layout.slices["bidder"]]
array([0., 1.], dtype=float32)
>>> t == t.tolist(), len(t), t[layout.slices["seat"]]
(True, 50, [0.0, 1.0])
"""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, SupportsIndex, overload

from liarsdice.core.bidding.actions import BID_BASE, BUY, SHOW_BASE
from liarsdice.core.bidding.ladder import BidSpace
from liarsdice.core.bidding.records import Phase
from liarsdice.core.bidding.rules import Economy, Resolution, Rules, Scoring, ShowReroll, Stash
from liarsdice.core.bidding.tables import GameTables
from liarsdice.core.bidding.view import PlayerView

__all__ = ["Encoder", "FloatTensor", "TensorLayout"]

if TYPE_CHECKING:
    _Floats = array.array[float]
else:
    _Floats = array.array


class FloatTensor(_Floats):
    """A tensor: its floats in a C buffer of float32 (``array.array("f")``: every value of
    these tensors is a small integer, exact in float32, the type of OpenSpiel's C++ tensors
    and of the project's NumPy encodings), which NumPy reads in one copy through the buffer
    protocol instead of one Python float at a time, with a list's ways where they differ: it
    equals a list (or tuple) of the same floats, its slices are lists, it prints as a list,
    and its items are Python floats. ``np.asarray(t)`` is ``float32``. (Not JSON:
    ``tolist()`` is.)

    >>> t = FloatTensor("f", [0.0, 1.0, 2.0])
    >>> t, t[1:], t[2], t == [0.0, 1.0, 2.0], [0.0, 1.0, 2.0] == t, t != (0.0, 1.0, 2.0)
    ([0.0, 1.0, 2.0], [1.0, 2.0], 2.0, True, True, False)
    """

    __slots__ = ()

    # (slices are lists: the superclass's are arrays)
    @overload  # type: ignore[override]
    def __getitem__(self, key: SupportsIndex) -> float: ...
    @overload
    def __getitem__(self, key: slice) -> list[float]: ...
    def __getitem__(self, key: SupportsIndex | slice) -> float | list[float]:
        if isinstance(key, slice):
            return _getitem(self, key).tolist()
        return _getitem(self, key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list | tuple):
            return self.tolist() == list(other)
        return _eq(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self.tolist())

    def copy(self) -> FloatTensor:
        """A new tensor of the same floats (as ``list.copy``)."""
        return FloatTensor("f", self)


_getitem = array.array.__getitem__
_eq = array.array.__eq__

Encoder = Callable[[Any, int], FloatTensor]
"""An encoder: (state, seat) -> the seat's tensor, a :class:`FloatTensor`."""

_ROLL = Phase.ROLL
_OVER = Phase.OVER
_MAX_TEMPLATES = 65536
_MAX_TABLES = 4096

#: The blocks every bidding game has; a game with only these takes the short encoder.
_PLAIN = ("seat", "to_move", "bid", "bidder", "my_dice", "dice")


class LaidOut(Protocol):
    """What a layout reads of its game (a :class:`~liarsdice.core.bidding.game.Game`)."""

    rules: Rules
    num_players: int
    space: BidSpace
    tables: GameTables


class TensorLayout:
    """The tensors' blocks of one game (``blocks``: name and width, in order; ``slices``: each
    block's slice, ``history`` last) and the encoder writing them."""

    def __init__(self, game: LaidOut) -> None:
        rules = game.rules
        self.game = game
        self.players = P = game.num_players
        self.faces = F = rules.faces
        self.num_bids = B = len(game.space)
        blocks: list[tuple[str, int]] = [
            ("seat", P),
            ("to_move", P),
            ("bid", B),
            ("bidder", P),
            ("my_dice", F),
            ("dice", P),
        ]
        if rules.show_reroll is not ShowReroll.OFF:
            blocks.append(("shown", P * F))
        if rules.stash is Stash.OPEN:
            blocks.append(("stash", F))
        if rules.stash is not Stash.NONE:
            blocks.append(("stash_size", 1))
        if rules.resolution is Resolution.ALL_CALL:
            blocks.append(("callers", P))
        if rules.palifico:
            blocks.append(("palifico", 1))
        if rules.show_reroll is ShowReroll.AFTER:
            blocks.append(("must_raise", 1))
        if rules.show_reroll is ShowReroll.BEFORE:
            blocks.append(("show_phase", 1))
        if rules.scoring is Scoring.ROOM:
            blocks.append(("scores", P))
        if rules.economy is not Economy.NONE:
            blocks += [("chips", P), ("pots", 2)]
        if rules.economy is Economy.RICH_MAN:
            blocks.append(("bought", 1))
        if rules.calling_advantage:
            blocks.append(("pile", 1))
        self.blocks = blocks
        self.slices: dict[str, slice] = {}
        at = 0
        for name, width in blocks:
            self.slices[name] = slice(at, at + width)
            at += width
        self.size = at
        self.slices["history"] = slice(at, at + P * B)
        self.info_size = at + P * B
        # The short encoder: only the plain blocks, and no house-rule questions in the log.
        self.plain = tuple(name for name, _ in blocks) == _PLAIN and not rules.house_penalties
        sl = self.slices
        self._to_move = sl["to_move"].start
        self._bid = sl["bid"].start
        self._bidder = sl["bidder"].start
        self._history = sl["history"].start
        # (viewer, hidden dice, every seat's dice, history?) -> the tensor's fixed part
        self._templates: dict[tuple[int, tuple[int, ...], tuple[int, ...], bool], FloatTensor]
        self._templates = {}
        self._recurring = game.tables.few_deals  # whether round tables recur (few deals)
        self.encoders = self._encoders()

    def __getstate__(self) -> dict[str, Any]:
        # (the encoders are closures, which do not pickle: rebuilt on loading)
        return {k: v for k, v in self.__dict__.items() if k not in ("encoders", "_templates")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._templates = {}
        self.encoders = self._encoders()

    def encode(self, state: Any, player: int, history: bool) -> FloatTensor:
        """``player``'s observation (``history``: information state) tensor of ``state``."""
        return self.encoders[history](state, player)

    def _encoders(self) -> tuple[Encoder, Encoder]:
        """The observation and the information-state encoders of this game (``state``,
        ``seat``) -> :class:`FloatTensor`."""
        if not self.plain:

            def observation(state: Any, player: int) -> FloatTensor:
                _check(player, self.players)
                return self._encode_view(state, player, False)

            def information_state(state: Any, player: int) -> FloatTensor:
                _check(player, self.players)
                return self._encode_view(state, player, True)

            return observation, information_state
        return self._plain(False), self._plain(True)

    # ------------------------------------------------------------ the short encoder
    def _template(
        self, player: int, hand: tuple[int, ...], dice: tuple[int, ...], history: bool
    ) -> FloatTensor:
        """The blocks that stay put through a round: the seat, the viewer's dice and every
        seat's dice count (the rest zeros)."""
        key = (player, hand, dice, history)
        kept = self._templates.get(key)
        if kept is not None:
            return kept
        P = self.players
        sl = self.slices
        out = [0.0] * (self.info_size if history else self.size)
        out[sl["seat"].start + player] = 1.0
        my = sl["my_dice"].start
        for f in hand:
            out[my + f - 1] += 1.0
        base = sl["dice"].start
        for seat, d in enumerate(dice):
            out[base + (seat - player) % P] = float(d)
        tensor = FloatTensor("f", out)
        if len(self._templates) >= _MAX_TEMPLATES:
            self._templates.clear()
        self._templates[key] = tensor
        return tensor

    def _plain(self, history: bool) -> Encoder:
        """The short encoder of a game with the plain blocks only (one per tensor: the
        constants are the closure's, the cheapest reads there are)."""
        P = self.players
        B = self.num_bids
        to_move = self._to_move
        bid_at = self._bid
        bidder_at = self._bidder
        history_at = self._history - BID_BASE
        assert BID_BASE == 8  # (a literal in the loop below)
        template = self._template
        # Offsets by relative seat, indexed by ``seat - viewer`` (-P < k < P: a negative
        # index wraps around, which is the modulo)
        to_move_at = [to_move + k for k in range(P)]
        bidder_of = [bidder_at + k for k in range(P)]
        history_of = [history_at + k * B for k in range(P)]
        # The fixed part, kept per round table (tables are never changed once a state
        # holds them): one list per seat, built on first use.
        by_table: dict[Any, list[FloatTensor | None]] = {}
        # (kept only where tables recur, the first deals of games with few; else only the
        # last table's, which a game's states read one round at a time)
        recurring = self._recurring
        last: list[tuple[Any, list[FloatTensor | None]]] = [(None, [])]
        # and across tables, by dice counts, seat and hand
        known: dict[tuple[int, ...], list[dict[tuple[int, ...], FloatTensor]]] = {}
        new = FloatTensor  # FloatTensor("f", base): a copy of the buffer

        def encode(state: Any, player: int) -> FloatTensor:
            if not 0 <= player < P:
                raise ValueError(f"no seat {player} to encode")
            t = state.table
            seen = last[0]
            if t is seen[0]:
                kept = seen[1]
            else:
                found = by_table.get(t) if recurring else None
                if found is not None:
                    kept = found
                else:
                    kept = [None] * P
                    if recurring:
                        if len(by_table) >= _MAX_TABLES:
                            by_table.clear()
                        by_table[t] = kept
                last[0] = (t, kept)  # one store: threads see a table with its own list
            base = kept[player]
            if base is None:
                hand = () if state.phase is _ROLL else t.hands[player]
                seats = known.get(t.dice)
                if seats is None:
                    seats = known[t.dice] = [{} for _ in range(P)]
                base = seats[player].get(hand)
                if base is None:
                    base = seats[player][hand] = template(player, hand, t.dice, history)
                kept[player] = base
            out = new("f", base)
            mover = state.player
            bid = state.bid
            if mover >= 0:
                out[to_move_at[mover - player]] = 1.0
                if bid >= 0:
                    out[bid_at + bid] = 1.0
                    out[bidder_of[state.bidder - player]] = 1.0
                    if history:
                        # The round's bids, newest first: in these games a round's moves
                        # are all bids after its rolls, so the first chance event ends them.
                        node = state.log
                        while node is not None:
                            node, p, a = node
                            if p < 0:
                                break
                            if a >= 8:  # BID_BASE
                                out[history_of[p - player] + a] = 1.0
            elif bid >= 0:  # the game is over (the round's history is no longer shown)
                out[bid_at + bid] = 1.0
                out[bidder_of[state.bidder - player]] = 1.0
            return out

        return encode

    # ---------------------------------------------------------- the general encoder
    def _encode_view(self, state: Any, player: int, history: bool) -> FloatTensor:
        """Every block, from ``player``'s view of ``state``."""
        out = [0.0] * (self.info_size if history else self.size)
        space = self.game.space
        P = self.players
        sl = self.slices
        view: PlayerView = state.view(player)

        def rel(seat: int) -> int:
            return (seat - player) % P

        out[sl["seat"].start + player] = 1.0
        if view.to_move >= 0:
            out[sl["to_move"].start + rel(view.to_move)] = 1.0
        my = sl["my_dice"].start
        for f in view.my_dice:
            out[my + f - 1] += 1.0
        dice = sl["dice"].start
        for seat, d in enumerate(view.dice_counts):
            out[dice + rel(seat)] = float(d)
        if view.current_bid is not None:
            out[sl["bid"].start + space.ids[view.current_bid]] = 1.0
            out[sl["bidder"].start + rel(view.bidder)] = 1.0
        for name, _ in self.blocks[len(_PLAIN) :]:  # the rules' own blocks
            _WRITERS[name](out, sl[name].start, Seen(state, view, rel, self.faces))
        if history:
            base = sl["history"].start
            for seat, bid in view.bids:
                out[base + rel(seat) * self.num_bids + space.ids[bid]] = 1.0
        return FloatTensor("f", out)


class Seen(NamedTuple):
    """What a block's writer reads: the state, the viewer's view of it, the seat relative
    to the viewer, the faces."""

    state: Any
    view: PlayerView
    rel: Callable[[int], int]
    faces: int


def _write_shown(out: list[float], at: int, seen: Seen) -> None:
    for seat, faces in enumerate(seen.view.shown):
        for f in faces:
            out[at + seen.rel(seat) * seen.faces + f - 1] += 1.0


def _write_stash(out: list[float], at: int, seen: Seen) -> None:
    if seen.view.stash is not None:
        for f in seen.view.stash:
            out[at + f - 1] += 1.0


def _write_callers(out: list[float], at: int, seen: Seen) -> None:
    for seat in seen.view.callers:
        out[at + seen.rel(seat)] = 1.0


def _write_by_seat(field: str) -> Callable[[list[float], int, Seen], None]:
    """A writer of the view's per-seat ``field``, by seat relative to the viewer."""

    def write(out: list[float], at: int, seen: Seen) -> None:
        for seat, value in enumerate(getattr(seen.view, field)):
            out[at + seen.rel(seat)] = float(value)

    return write


def _write_one(value: Callable[[Seen], float]) -> Callable[[list[float], int, Seen], None]:
    """A writer of the one float ``value`` finds."""

    def write(out: list[float], at: int, seen: Seen) -> None:
        out[at] = value(seen)

    return write


def _write_pots(out: list[float], at: int, seen: Seen) -> None:
    out[at] = float(seen.view.round_pot)
    out[at + 1] = float(seen.view.game_pot)


#: The writer of each block but the plain ones (``_PLAIN``), by name.
_WRITERS: dict[str, Callable[[list[float], int, Seen], None]] = {
    "shown": _write_shown,
    "stash": _write_stash,
    "stash_size": _write_one(lambda seen: float(seen.view.stash_size)),
    "callers": _write_callers,
    "palifico": _write_one(lambda seen: float(seen.view.palifico)),
    "must_raise": _write_one(lambda seen: float(must_raise(seen.state, seen.view))),
    "show_phase": _write_one(lambda seen: float(seen.view.phase == "show")),
    "scores": _write_by_seat("scores"),
    "chips": _write_by_seat("chips"),
    "pots": _write_pots,
    "bought": _write_one(lambda seen: float(last_move(seen.state, seen.view) == BUY)),
    "pile": _write_one(lambda seen: float(seen.view.pile)),
}


def _check(player: int, players: int) -> None:
    if not 0 <= player < players:
        raise ValueError(f"no seat {player} to encode")


def last_move(state: Any, view: PlayerView) -> int | None:
    """The round's last move while a seat is to bid (None otherwise, or before any)."""
    if view.phase != "bid":
        return None
    moves = [a for _, a in state.round_events() if not isinstance(a, str)]
    return moves[-1] if moves else None


def must_raise(state: Any, view: PlayerView) -> bool:
    """Whether the player to act showed and re-rolled and must now raise: the round's last
    move was a show (``after`` show-and-reroll)."""
    last = last_move(state, view)
    return last is not None and last >= SHOW_BASE
