"""The bidding-family game: rules + seats, precomputed tables, and action encoding.

Actions are integers (as in OpenSpiel) so that search and solvers stay fast; use
:meth:`Game.action_to_string` / :meth:`Game.string_to_action` for people.

>>> from liarsdice.core.bidding.rules import preset
>>> g = Game(preset("openspiel"))
>>> g.action_to_string(g.bid_action(Bid(2, 6)))
'2x6'
>>> g.string_to_action("liar") == LIAR
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from liarsdice.core.bidding.actions import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE
from liarsdice.core.bidding.actions import SHOW_BITS as _SHOW_BITS
from liarsdice.core.bidding.bid import Bid, read_bid
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD, BidSpace
from liarsdice.core.bidding.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Economy,
    Loss,
    Resolution,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
)
from liarsdice.core.bidding.state import Phase, State, Table, _Round, initial_state
from liarsdice.core.bidding.state import _next_seats as next_seats
from liarsdice.core.bidding.tensors import Encoder, TensorLayout
from liarsdice.core.common import CHANCE, TERMINAL, GameBase
from liarsdice.core.errors import IllegalActionError

__all__ = ["BID_BASE", "BUY", "CHANCE", "EXACT", "LIAR", "NO_SHOW", "SHOW_BASE", "TERMINAL", "Game"]


def _bought_dice_bound(rules: Rules, players: int) -> int:
    """How many dice beyond the starting ones can be in play at once.

    None, except with Rich Man's Dice and the calling advantage together: a right exact call
    can lift a seat above its start with the pile while the others buy their dice back, so
    every die bought can be in play at once. Each buy doubles the pot, which the chips bound.
    """
    if rules.economy is not Economy.RICH_MAN or not rules.calling_advantage:
        return 0
    pot = players * min(rules.chips, rules.ante)
    total = players * rules.chips
    buys = 0
    while 0 < pot <= total:
        buys += 1
        pot *= 2
    return buys


class Game(GameBase[State]):
    """A bidding-family game: rules, seat names and the precomputed bid space.

    A game is immutable and may be shared by any number of states.
    """

    family = "bidding"  # the rule family's name (liarsdice.families finds it by this)
    rules: Rules

    def __init__(
        self,
        rules: Rules,
        players: int | Sequence[str] | None = None,
        *,
        opener: int | None = None,
    ) -> None:
        self._seat(rules, players, opener, (MIN_PLAYERS, MAX_PLAYERS))
        self.start_dice = rules.start_dice(self.num_players)
        stash = self.num_players if rules.stash is not Stash.NONE else 0
        self.max_quantity = (
            sum(self.start_dice) + stash + _bought_dice_bound(rules, self.num_players)
        )
        self.space = BidSpace(rules, self.max_quantity)
        # Legal actions depend only on (bid, cap, mode, flags) unless dice can be shown or
        # bought; then they also depend on the hand, so nothing is cached.
        simple = rules.show_reroll is ShowReroll.OFF and rules.economy is not Economy.RICH_MAN
        self.legal_cache: dict[tuple[int, int, int, int], tuple[int, ...]] | None = (
            {} if simple else None
        )
        # Hot-path tables (see State.apply_action and State.legal_actions): the chance
        # outcomes as action tuples, and in simple games one list per (cap, modes) of the
        # legal actions after each bid (index bid + 1), filled as play reaches them.
        faces = rules.faces
        self._faces = faces
        self._roll_actions: tuple[int, ...] = tuple(range(1, faces + 1))
        self._seat_actions: tuple[int, ...] = tuple(range(self.num_players))
        # and as (outcome, probability) pairs, which chance_outcomes() hands out as new lists
        self._roll_outcomes = tuple((f, 1.0 / faces) for f in self._roll_actions)
        self._seat_outcomes = tuple((p, 1.0 / self.num_players) for p in self._seat_actions)
        self._round_legal: dict[tuple[int, tuple[int, int]], list[tuple[int, ...] | None]] = {}
        self._rounds: dict[tuple[int, tuple[int, int], tuple[int, ...]], _Round] = {}
        self._simple = simple
        self._fast_bids = self.space.total_order  # with OPEN_ANY: a raise is a higher id
        self._nbids = len(self.space)
        self._quantity = self.space.quantity
        self._show_before = rules.show_reroll is ShowReroll.BEFORE
        self._first_call = rules.resolution is not Resolution.ALL_CALL
        # Single-round games with one die lost: a liar call ends the game, resolved by the
        # short path (state._single_round_over), whose dice after the loss are kept here.
        self._single_liar = rules.scoring is Scoring.SINGLE_ROUND and rules.loss is Loss.ONE
        self._quick_liar = self._single_liar and not rules.house_penalties
        self._after_loss: dict[
            tuple[tuple[int, ...], tuple[int, ...], int],
            tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
        ] = {}
        # The tables of the first round's deals, by the rolls, while the game has few
        # (``_deal_root``: the table they are dealt from, once the root state shows it).
        self._deals: dict[tuple[int, ...], Table] = {}
        self._deal_root: Table | None = None
        self._few_deals = rules.faces**self.max_quantity <= 4096
        # and there, the tables after a single-round game's liar call, by what decides them
        self._endings: dict[tuple[Table, int, int, tuple[int, ...]], Table] | None = (
            {} if self._few_deals and self._single_liar else None
        )
        self._sorted_hands: dict[tuple[int, ...], tuple[int, ...]] = {}
        # each hand's count of every face, wilds included (index = face), by hand
        self._hand_counts: dict[tuple[int, ...], tuple[int, ...]] = {}
        # the dice and losses after a two-seat loss, by loser, for the last (dice, lost)
        self._last_loss: tuple[Any, Any, Any] = (None, None, ())
        self._layout: TensorLayout | None = None
        self._encoders: tuple[Encoder, Encoder] | None = None  # the layout's, once built
        self._info_encoder: Encoder | None = None  # (the second, read by every RL step)
        # Rule switches read when a round resolves (a bool is cheaper than an enum member).
        n = self.num_players
        self._clockwise = tuple(tuple((p + i) % n for i in range(n)) for p in range(n))
        self._calling_advantage = rules.calling_advantage
        self._room = rules.scoring is Scoring.ROOM
        self._single_round = rules.scoring is Scoring.SINGLE_ROUND
        self._economy = rules.economy
        self._palifico = rules.palifico
        self._no_penalties = (0,) * n
        self._no_returns = (0.0,) * n
        self._returns = tuple(
            tuple(1.0 if p == w else -1.0 / (n - 1) for p in range(n)) for w in range(n)
        )
        self._no_hands: tuple[tuple[int, ...], ...] = ((),) * n
        self._rot = tuple((p + 1) % n for p in range(n))  # the next seat, every seat in
        self._nxt: dict[tuple[int, ...], tuple[int, ...]] = {}  # the next seats, by dice
        self._dealers: dict[tuple[int, ...], tuple[Callable[[Any], Any], int, bool]] = {}
        self._stash = rules.stash is not Stash.NONE
        self._modes = (OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD, OPEN_ANY)

    # ----------------------------------------------------------------- tensors
    def tensor_layout(self) -> TensorLayout:
        """The blocks of this game's observation and information-state tensors (built once)."""
        layout = self._layout
        if layout is None:
            layout = self._layout = TensorLayout(self)
            self._encoders = layout.encoders
            self._info_encoder = layout.encoders[1]
        return layout

    def observation_tensor_size(self) -> int:
        """Floats in :meth:`State.observation_tensor` (as OpenSpiel's game says)."""
        return self.tensor_layout().size

    def information_state_tensor_size(self) -> int:
        """Floats in :meth:`State.information_state_tensor` (as OpenSpiel's game says)."""
        return self.tensor_layout().info_size

    def observation_tensor_shape(self) -> list[int]:
        return [self.tensor_layout().size]

    def information_state_tensor_shape(self) -> list[int]:
        return [self.tensor_layout().info_size]

    def __getstate__(self) -> dict[str, Any]:
        # The caches stay behind (they fill again); the tensor encoders, closures that do
        # not pickle, come back with the layout.
        state = dict(self.__dict__)
        state["_encoders"] = state["_info_encoder"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._layout is not None:
            self._encoders = self._layout.encoders
            self._info_encoder = self._encoders[1]

    def _initial_state(self) -> State:
        root = initial_state(self)
        if self._few_deals and root.phase is Phase.ROLL:
            self._deal_root = root.table
        return root

    def _face_counts(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """How many dice of ``hand`` match a bid on each face (index = face, 0 unused),
        wilds counted unless the bid is on the wild face."""
        wild = self.rules.wild
        wilds = hand.count(wild) if wild is not None else 0
        return (
            0,
            *(hand.count(f) + (wilds if f != wild else 0) for f in range(1, self._faces + 1)),
        )

    def _next_seats(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        """For each seat, the next seat clockwise that still has dice (cached: at most 4096
        dice vectors, for games of many seats and dice)."""
        if 0 not in dice:
            return self._rot
        nxt = self._nxt.get(dice)
        if nxt is None:
            if len(self._nxt) >= 4096:
                self._nxt.clear()
            nxt = self._nxt[dice] = next_seats(dice)
        return nxt

    def _dealer(self, dice: tuple[int, ...]) -> tuple[Callable[[Any], Any], int, bool]:
        """How a deal of ``dice`` (every seat's count) splits the rolls: a getter of every
        seat's slice, where the stash begins, and whether hands need sorting. Cached (at
        most 4096 dice vectors, for games of many seats and dice)."""
        cuts = []
        i = 0
        for d in dice:
            cuts.append(slice(i, i + d))
            i += d
        dealer = (itemgetter(*cuts), i, max(dice) > 1)  # a game has 2+ seats: a tuple
        if len(self._dealers) >= 4096:
            self._dealers.clear()
        self._dealers[dice] = dealer
        return dealer

    def _round_of(self, t: Table) -> _Round:
        """The shared :class:`~liarsdice.core.bidding.state._Round` of the round on table ``t``:
        one per
        dice in play, bid modes and next seats (at most 4096 kept), whose legal-action list is
        shared by every round with the same dice in play and modes."""
        key = (t.cap, t.modes, t.nxt)
        rd = self._rounds.get(key)
        if rd is None:
            legal: list[tuple[int, ...] | None] | None = None
            if self._simple:
                legal = self._round_legal.get(key[:2])
                if legal is None:
                    legal = self._round_legal[key[:2]] = [None] * (len(self.space) + 1)
            if len(self._rounds) >= 4096:
                self._rounds.clear()
            rd = self._rounds[key] = _Round(t, legal)
            if self._fast_bids and not self._show_before:
                # the bids under the cap are the ids below the first one over it
                quantity = self._quantity
                top = next((i for i, q in enumerate(quantity) if q > t.cap), len(quantity)) - 1
                if all(q > t.cap for q in quantity[top + 1 :]):
                    if t.modes[1] == OPEN_ANY:
                        rd.top = top
                    if t.modes[0] == OPEN_ANY:
                        rd.top_open = top
        return rd

    # ---------------------------------------------------------------- actions
    def bid_action(self, bid: Bid) -> int:
        """The action id of a bid."""
        try:
            return BID_BASE + self.space.ids[bid]
        except KeyError:
            raise IllegalActionError(
                f"{bid} is not a bid in this game (faces 1..{self.rules.faces}, "
                f"at most {self.max_quantity} dice)"
            ) from None

    def action_bid(self, action: int) -> Bid | None:
        """The bid an action makes, or None when it is not a bid."""
        if BID_BASE <= action < BID_BASE + len(self.space):
            return self.space.bids[action - BID_BASE]
        return None

    def show_action(self, faces: Iterable[int]) -> int:
        """The action showing these dice (a multiset of faces)."""
        code = 0
        for f in faces:
            if not 1 <= f <= self.rules.faces:
                raise IllegalActionError(f"cannot show a {f}: faces are 1..{self.rules.faces}")
            code += 1 << (_SHOW_BITS * (f - 1))
        if code == 0:
            raise IllegalActionError("show at least one die")
        return SHOW_BASE + code

    def action_shown(self, action: int) -> tuple[int, ...] | None:
        """The faces a show action shows (sorted), or None when it is not a show (or encodes
        no dice of these rules' faces, as ``10**100`` does not)."""
        if action < SHOW_BASE or action >= SHOW_BASE + (1 << (_SHOW_BITS * self.rules.faces)):
            return None
        code = action - SHOW_BASE
        out: list[int] = []
        mask = (1 << _SHOW_BITS) - 1
        for f in range(1, self.rules.faces + 1):
            out.extend([f] * ((code >> (_SHOW_BITS * (f - 1))) & mask))
        return tuple(out)

    def action_to_string(self, action: int, player: int = 0) -> str:
        """Notation of an action: ``3x5``, ``liar``, ``exact``, ``show 6,6``, ``buy``..."""
        if player == CHANCE:
            return f"roll {action}"
        if action == LIAR:
            return "liar"
        if action == EXACT:
            return "exact"
        if action == NO_SHOW:
            return "no-show"
        if action == BUY:
            return "buy"
        shown = self.action_shown(action)
        if shown is not None:
            return "show " + ",".join(map(str, shown))
        bid = self.action_bid(action)
        if bid is not None:
            return str(bid)
        raise IllegalActionError(f"unknown action {action}")

    def string_to_action(self, text: str) -> int:
        """Parse :meth:`action_to_string` output back to an action."""
        t = text.strip().lower()
        fixed = {"liar": LIAR, "exact": EXACT, "no-show": NO_SHOW, "buy": BUY}
        if t in fixed:
            return fixed[t]
        if t.startswith("show "):
            try:
                faces = [int(x) for x in t[5:].split(",")]
            except ValueError:
                raise IllegalActionError(f"can't read {text!r} as a show") from None
            return self.show_action(faces)
        return self.bid_action(read_bid(t, faces=self.rules.faces))
