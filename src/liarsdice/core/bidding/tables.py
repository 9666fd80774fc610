"""A bidding game's precomputed tables: what its states read on every move, built once.

:class:`GameTables` is one frozen record per game (``game.tables``): the rule switches as
plain values (a bool is cheaper to test than an enum member), the chance outcomes as ready
tuples, and the caches the hot paths fill as play reaches them (dicts, bounded; their
contents change, the record never does). What changes as a whole (the root deal's table, the
last loss worked out) lives in its :class:`Memo`.

>>> from liarsdice.core.bidding.ladder import BidSpace
>>> from liarsdice.core.bidding.rules import preset
>>> rules = preset("openspiel")
>>> tables = build_tables(rules, 2, BidSpace(rules, 2))
>>> tables.roll_actions, tables.single_liar, tables.next_seats((1, 1))
((1, 2, 3, 4, 5, 6), True, (1, 0))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD, BidSpace
from liarsdice.core.bidding.records import RoundFacts, Table, next_seats
from liarsdice.core.bidding.rules import (
    Economy,
    Loss,
    NextOpener,
    Resolution,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
)

__all__ = ["MAX_DEALS", "MAX_HANDS", "GameTables", "Memo", "build_tables"]

#: The most deals (or single-round endings) a game keeps built tables of.
MAX_DEALS = 4096
#: The most sorted hands a game keeps (every roll of 5 six-sided dice: 7,776).
MAX_HANDS = 65536
#: The most dice vectors (next seats, deal plans) and rounds a game keeps.
_MAX_KEPT = 4096

Dealer = tuple[Callable[[Any], Any], int, bool]
Loss3 = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Memo:
    """What a game's tables replace as a whole as play goes on."""

    __slots__ = ("deal_root", "last_loss")

    def __init__(self) -> None:
        # the table the first round's deals are dealt from, once the root state shows it
        self.deal_root: Table | None = None
        # the dice and losses after a two-seat loss, by loser, for the last (dice, lost)
        self.last_loss: tuple[Any, Any, Any] = (None, None, ())


@dataclass(frozen=True, slots=True)
class GameTables:
    """A game's precomputed tables and caches (see the module's docstring)."""

    rules: Rules
    players: int
    space: BidSpace
    # chance outcomes: as actions, and as (outcome, probability) pairs
    faces: int
    roll_actions: tuple[int, ...]
    seat_actions: tuple[int, ...]
    roll_outcomes: tuple[tuple[int, float], ...]
    seat_outcomes: tuple[tuple[int, float], ...]
    # bids: whether a raise is a higher id (OPEN_ANY), the ids, each id's quantity
    fast_bids: bool
    nbids: int
    quantity: tuple[int, ...]
    # rule switches
    simple: bool  # legal actions depend only on (bid, cap, modes, flags)
    show_before: bool
    first_call: bool  # the first call resolves the round (not all-call)
    single_liar: bool  # a single-round game losing one die: a liar call ends it
    quick_liar: bool  # ... with no house penalties either, its first call resolving it
    few_deals: bool  # few enough deals that their tables are kept
    calling_advantage: bool
    room: bool
    single_round: bool
    economy: Economy
    palifico: bool
    stash: bool
    next_opener: NextOpener
    modes: tuple[int, int]  # the bid modes of a plain round (opening bid, raises)
    # per-seat constants
    clockwise: tuple[tuple[int, ...], ...]  # every seat clockwise from each seat
    rot: tuple[int, ...]  # the next seat, every seat in
    no_penalties: tuple[int, ...]
    no_returns: tuple[float, ...]
    returns: tuple[tuple[float, ...], ...]  # by winner
    no_hands: tuple[tuple[int, ...], ...]
    # caches, filled as play reaches them
    memo: Memo = field(default_factory=Memo)
    round_legal: dict[tuple[int, tuple[int, int]], list[tuple[int, ...] | None]] = field(
        default_factory=dict
    )
    rounds: dict[tuple[int, tuple[int, int], tuple[int, ...]], RoundFacts] = field(
        default_factory=dict
    )
    after_loss: dict[tuple[tuple[int, ...], tuple[int, ...], int], Loss3] = field(
        default_factory=dict
    )
    deals: dict[tuple[int, ...], Table] = field(default_factory=dict)
    # the tables after a single-round game's liar call, by what decides them (None: not kept)
    endings: dict[tuple[Table, int, int, tuple[int, ...]], Table] | None = None
    sorted_hands: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    # each hand's count of every face, wilds included (index = face), by hand
    hand_counts: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    nxt: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)  # by dice
    dealers: dict[tuple[int, ...], Dealer] = field(default_factory=dict)

    def face_counts(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """How many dice of ``hand`` match a bid on each face (index = face, 0 unused),
        wilds counted unless the bid is on the wild face."""
        wild = self.rules.wild
        wilds = hand.count(wild) if wild is not None else 0
        return (
            0,
            *(hand.count(f) + (wilds if f != wild else 0) for f in range(1, self.faces + 1)),
        )

    def next_seats(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        """For each seat, the next seat clockwise that still has dice (cached: at most 4096
        dice vectors, for games of many seats and dice)."""
        if 0 not in dice:
            return self.rot
        nxt = self.nxt.get(dice)
        if nxt is None:
            if len(self.nxt) >= _MAX_KEPT:
                self.nxt.clear()
            nxt = self.nxt[dice] = next_seats(dice)
        return nxt

    def dealer(self, dice: tuple[int, ...]) -> Dealer:
        """How a deal of ``dice`` (every seat's count) splits the rolls: a getter of every
        seat's slice, where the stash begins, and whether hands need sorting. Cached (at
        most 4096 dice vectors, for games of many seats and dice)."""
        cuts = []
        i = 0
        for d in dice:
            cuts.append(slice(i, i + d))
            i += d
        dealer = (itemgetter(*cuts), i, max(dice) > 1)  # a game has 2+ seats: a tuple
        if len(self.dealers) >= _MAX_KEPT:
            self.dealers.clear()
        self.dealers[dice] = dealer
        return dealer

    def round_of(self, t: Table) -> RoundFacts:
        """The shared :class:`~liarsdice.core.bidding.records.RoundFacts` of the round on table
        ``t``: one per dice in play, bid modes and next seats (at most 4096 kept), whose
        legal-action list is shared by every round with the same dice in play and modes."""
        key = (t.cap, t.modes, t.nxt)
        rd = self.rounds.get(key)
        if rd is None:
            legal: list[tuple[int, ...] | None] | None = None
            if self.simple:
                legal = self.round_legal.get(key[:2])
                if legal is None:
                    legal = self.round_legal[key[:2]] = [None] * (self.nbids + 1)
            if len(self.rounds) >= _MAX_KEPT:
                self.rounds.clear()
            rd = self.rounds[key] = RoundFacts(t, legal)
            if self.fast_bids and not self.show_before:
                self._set_tops(rd, t)
        return rd

    def _set_tops(self, rd: RoundFacts, t: Table) -> None:
        """Where every bid id under the cap is a legal raise: the highest such id."""
        quantity = self.quantity
        top = next((i for i, q in enumerate(quantity) if q > t.cap), len(quantity)) - 1
        if all(q > t.cap for q in quantity[top + 1 :]):
            if t.modes[1] == OPEN_ANY:
                rd.top = top
            if t.modes[0] == OPEN_ANY:
                rd.top_open = top


def build_tables(rules: Rules, players: int, space: BidSpace) -> GameTables:
    """The tables of a game of ``rules`` with ``players`` seats and bid space ``space``."""
    faces = rules.faces
    n = players
    roll_actions = tuple(range(1, faces + 1))
    seat_actions = tuple(range(n))
    single_liar = rules.scoring is Scoring.SINGLE_ROUND and rules.loss is Loss.ONE
    first_call = rules.resolution is not Resolution.ALL_CALL
    # Legal actions depend only on (bid, cap, mode, flags) unless dice can be shown or
    # bought; then they also depend on the hand, so nothing is cached.
    simple = rules.show_reroll is ShowReroll.OFF and rules.economy is not Economy.RICH_MAN
    few_deals = faces**space.max_quantity <= 4096
    return GameTables(
        rules=rules,
        players=n,
        space=space,
        faces=faces,
        roll_actions=roll_actions,
        seat_actions=seat_actions,
        roll_outcomes=tuple((f, 1.0 / faces) for f in roll_actions),
        seat_outcomes=tuple((p, 1.0 / n) for p in seat_actions),
        fast_bids=space.total_order,  # with OPEN_ANY: a raise is a higher id
        nbids=len(space),
        quantity=space.quantity,
        simple=simple,
        show_before=rules.show_reroll is ShowReroll.BEFORE,
        first_call=first_call,
        single_liar=single_liar,
        quick_liar=single_liar and not rules.house_penalties and first_call,
        few_deals=few_deals,
        calling_advantage=rules.calling_advantage,
        room=rules.scoring is Scoring.ROOM,
        single_round=rules.scoring is Scoring.SINGLE_ROUND,
        economy=rules.economy,
        palifico=rules.palifico,
        stash=rules.stash is not Stash.NONE,
        next_opener=rules.next_opener,
        modes=(OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD, OPEN_ANY),
        clockwise=tuple(tuple((p + i) % n for i in range(n)) for p in range(n)),
        rot=tuple((p + 1) % n for p in range(n)),
        no_penalties=(0,) * n,
        no_returns=(0.0,) * n,
        returns=tuple(tuple(1.0 if p == w else -1.0 / (n - 1) for p in range(n)) for w in range(n)),
        no_hands=((),) * n,
        endings={} if few_deals and single_liar else None,
    )
