"""Dense actions and observation tensors of the bidding family, shared by the batched
simulator (:mod:`liarsdice.sim.bidding`) and the OpenSpiel and PettingZoo bindings.

**Actions.** A dense *action index* names each move of a game. It is the engine's own action
integer for every action below ``SHOW_BASE`` (``0`` liar, ``1`` exact, ``2`` no-show, ``3``
buy, ``8 + i`` bid number ``i`` of the game's :class:`~liarsdice.core.bidding.ladder.BidSpace`; 4..7
are never legal), and show-and-reroll actions (engine integers ``SHOW_BASE + code``, far above)
follow the bids, in ascending order of their engine integers. Ascending indices are ascending
engine actions, so a legal-action list keeps the engine's order.

**Observations.** One ``float32`` vector per (state, viewer), from the viewer's own view only
(own hidden dice, public facts). Seats are *relative to the viewer*: position ``k`` of a
per-seat block is seat ``(viewer + k) % players`` (position 0 is the viewer). Blocks, in order
(the bracketed ones only where the rules have the feature; :attr:`BiddingEncoding.slices`
gives each block's slice):

===============  ==========  ==============================================================
block            size        content
===============  ==========  ==============================================================
``seat``         P           one-hot of the viewer's absolute seat
``to_move``      P           one-hot of the seat to act (relative); zero at chance and end
``bid``          B           one-hot of the current bid's id; zero before the opening bid
``bidder``       P           one-hot of the current bid's bidder (relative)
``my_dice``      F           the viewer's hidden dice: how many show each face 1..F
``dice``         P           dice per seat (relative), 0 once out
[``shown``]      P*F         shown dice per seat (relative) and face (show-and-reroll)
[``stash``]      F           the stash dice per face (open stash)
[``stash_size``] 1           how many dice the stash holds (secret or open stash)
[``callers``]    P           the seats that called the current bid (relative; all-call)
[``palifico``]   1           1 in a palifico round (palifico)
[``must_raise``] 1           1 when the player to act showed and must now raise (``after``)
[``show_phase``] 1           1 when the bidder may now show (show-and-reroll ``before``)
[``scores``]     P           room scores (relative; room scoring)
[``chips``]      P           chips per seat (relative; chips or rich-man economy)
[``pots``]       2           the round pot and the game pot (chips or rich-man economy)
[``bought``]     1           1 when the player to act has just bought a die (rich-man)
[``pile``]       1           the calling-advantage pile (calling advantage)
===============  ==========  ==============================================================

The *information-state* tensor appends ``history`` (P*B): 1 at (relative seat, bid id) for
every bid of the current round. Earlier rounds appear in it only through the dice counts
(and scores); the information-state *strings* of the bindings recall everything.

>>> from liarsdice.core.bidding import Game, preset
>>> game = Game(preset("openspiel"))
>>> enc = BiddingEncoding(game)
>>> enc.num_actions, enc.size, enc.info_size
(20, 26, 50)
>>> s = game.new_initial_state().apply_action(3).apply_action(6)
>>> enc.observation(s, 0)[enc.slices["my_dice"]].tolist()
[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
>>> s = s.apply_action(enc.to_action(8 + 4))          # seat 0 bids 1x5
>>> obs = enc.observation(s, 1)
>>> obs[enc.slices["bid"]].argmax(), obs[enc.slices["bidder"]].tolist()
(np.int64(4), [0.0, 1.0])
"""

from __future__ import annotations

import itertools
from typing import Any

from liarsdice.core.bidding.actions import BID_BASE, SHOW_BITS
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import ShowReroll
from liarsdice.core.bidding.tensors import must_raise
from liarsdice.core.errors import RulesError
from liarsdice.families.tensors import Encoding, Floats32

__all__ = [
    "MAX_SHOW_ACTIONS",
    "BiddingEncoding",
    "Floats32",
    "show_multisets",
]


#: The most show actions a game may have (show-and-reroll with many dice per seat has too
#: many multisets to number densely).
MAX_SHOW_ACTIONS = 50_000


def show_multisets(faces: int, max_hand: int) -> list[tuple[int, ...]]:
    """Every multiset of faces a seat may show: 1 to ``max_hand - 1`` dice, sorted by the
    engine's action integer.

    >>> show_multisets(2, 3)
    [(1,), (1, 1), (2,), (1, 2), (2, 2)]
    """
    out: list[tuple[int, ...]] = []
    for k in range(1, max_hand):
        out.extend(itertools.combinations_with_replacement(range(1, faces + 1), k))
    out.sort(key=lambda ms: sum(1 << (SHOW_BITS * (f - 1)) for f in ms))
    return out


def max_hand(game: Game) -> int:
    """The most dice one seat can hold in ``game`` (its start, or more with the calling
    advantage, which can lift a seat above its start)."""
    if game.rules.calling_advantage:
        return int(game.max_quantity)
    return max(game.start_dice)


class BiddingEncoding(Encoding):
    """The dense action numbering and the observation layout of one bidding-family game."""

    def __init__(self, game: Game) -> None:
        rules = game.rules
        self.game = game
        self.players = game.num_players
        self.faces = F = rules.faces
        self.num_bids = B = len(game.space)
        shows: list[tuple[int, ...]] = []
        if rules.show_reroll is not ShowReroll.OFF:
            shows = show_multisets(F, max_hand(game))
            if len(shows) > MAX_SHOW_ACTIONS:
                raise RulesError(
                    f"show_reroll={rules.show_reroll.value} with {max_hand(game)} dice per seat "
                    f"has {len(shows)} show actions, more than the {MAX_SHOW_ACTIONS} the dense "
                    "action numbering allows: use fewer dice"
                )
        self.shows: tuple[tuple[int, ...], ...] = tuple(shows)
        self.show_actions: tuple[int, ...] = tuple(game.show_action(ms) for ms in shows)
        self._show_index = {a: BID_BASE + B + j for j, a in enumerate(self.show_actions)}
        self.num_actions = BID_BASE + B + len(shows)

        # The layout and the encoder are the core's (one encoding for the core's states, the
        # bindings and the batched simulator).
        self.layout = layout = game.tensor_layout()
        self.slices = dict(layout.slices)
        self.size = layout.size
        self.info_size = layout.info_size

    # ------------------------------------------------------------------ actions
    def to_action(self, index: int) -> int:
        """The engine action of a dense action index."""
        if 0 <= index < BID_BASE + self.num_bids:
            return index
        j = index - BID_BASE - self.num_bids
        if 0 <= j < len(self.show_actions):
            return self.show_actions[j]
        raise ValueError(f"action index {index} is not in 0..{self.num_actions - 1}")

    def to_index(self, action: int) -> int:
        """The dense index of an engine action."""
        if 0 <= action < BID_BASE + self.num_bids:
            return action
        try:
            return self._show_index[action]
        except KeyError:
            raise ValueError(f"action {action} has no index in this game") from None

    def legal_indices(self, state: Any) -> list[int]:
        """The current player's legal actions as dense indices, ascending."""
        return [self.to_index(a) for a in state.legal_actions()]

    # ------------------------------------------------------------- observations
    def _fill(self, out: Floats32, state: Any, player: int, *, history: bool) -> None:
        out[:] = self.layout.encode(state, player, history)

    def must_raise(self, state: Any, view: Any) -> bool:
        """Whether the player to act showed and re-rolled and must now raise: the round's last
        move was a show (``after`` show-and-reroll)."""
        return must_raise(state, view)

    def describe(self) -> list[tuple[str, int, int]]:
        """``(block, start, stop)`` of every block of the information-state layout."""
        return [(name, s.start, s.stop) for name, s in self.slices.items()]
