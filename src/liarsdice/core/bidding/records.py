"""The records a bidding-family state is made of: its phase, the round's table, the round's
shared facts and the results of finished rounds.

These are the values the steps of :mod:`~liarsdice.core.bidding.state` pass around; they know
nothing of the game or the state that holds them, so every module of the family can import
them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from liarsdice.core.bidding.bid import Bid

__all__ = [
    "EndTable",
    "PendingResult",
    "Phase",
    "Question",
    "RoundFacts",
    "RoundResult",
    "Table",
    "copy_table",
    "next_seats",
]


class Phase(IntEnum):
    """What the state is waiting for."""

    SETUP = 0  # chance: choosing the first opener (random seat or roll-off)
    ROLL = 1  # chance: the round's dice, seat by seat, then the stash
    BID = 2  # the current player bids, calls, shows or buys
    REROLL = 3  # chance: re-rolling hidden dice after a show
    SHOW = 4  # 'before' show-and-reroll: the bidder may now show
    BUY_ROLL = 5  # chance: rolling a die just bought (Rich Man's Dice)
    OVER = 6


class Question:
    """House-rule questions (rules source 002) that cost the asker a die."""

    TURN = "turn"  # "whose turn is it?"
    COUNT = "count"  # "how many dice are left?"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What a challenge revealed and what it cost. All of it is public after the reveal."""

    round: int
    bid: Bid
    call: str  # "liar" or "exact"
    caller: int
    callers: tuple[int, ...]  # every player who called (all-call resolution), in order
    bidder: int
    count: int
    hands: tuple[tuple[int, ...], ...]  # every seat's dice at the reveal (hidden + shown)
    stash: tuple[int, ...]
    losses: dict[int, int]  # dice lost this round (challenge and penalties), by seat
    gains: dict[int, int]  # dice gained (calza, calling advantage)
    winner: int  # the challenge winner
    dice: tuple[int, ...]  # every seat's dice after the round
    next_opener: int | None  # None when the game is over
    eliminated: tuple[int, ...]
    chips: tuple[int, ...] | None = None
    round_pot_won: int = 0
    game_pot: int = 0
    pile: int = 0
    scores: tuple[int, ...] | None = None
    palifico: bool = False  # a palifico round (wilds off, the face fixed)


class Table:
    """Round- and game-level facts shared by every state of a bidding sequence."""

    __slots__ = (
        "cap",
        "chain",  # read and written as ``results`` (the last round's may be pending)
        "chips",
        "dice",
        "game_pot",
        "hands",
        "lost",
        "modes",
        "nxt",
        "opener",
        "out_order",
        "palifico",
        "palifico_used",
        "penalties",
        "pile",
        "round",
        "round_pot",
        "scores",
        "shown",
        "start",
        "stash",
        "winner",
    )

    dice: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    shown: tuple[tuple[int, ...], ...]
    stash: tuple[int, ...]
    start: int  # index in the event log where this round began
    opener: int
    round: int
    cap: int
    nxt: tuple[int, ...]
    modes: tuple[int, int]  # bid mode (see ladder.py) for the opening bid and for raises
    chips: tuple[int, ...]
    round_pot: int
    game_pot: int
    pile: int
    scores: tuple[int, ...]
    lost: tuple[int, ...]
    out_order: tuple[int, ...]
    palifico: bool
    palifico_used: frozenset[int]
    penalties: tuple[int, ...]
    chain: tuple[RoundResult, ...] | PendingResult
    winner: int | None

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Results of every resolved round so far."""
        r = self.chain
        if isinstance(r, PendingResult):
            r = self.chain = r.build()
        return r

    @results.setter
    def results(self, value: tuple[RoundResult, ...]) -> None:
        self.chain = value

    def copy(self, **changes: Any) -> Table:
        t: Table = copy_table(self)
        for name, value in changes.items():
            setattr(t, name, value)
        return t

    def active(self) -> list[int]:
        return [p for p, d in enumerate(self.dice) if d > 0]


class EndTable(Table):
    """The table of a single-round game once a liar call ended it: what the call changed
    (the dice, the dice lost, the winner, the results) on a table of its own, every other
    field read from the table before the call (``base``) when asked for. Building it costs a
    fraction of a whole table's copy; finished games are read seldom, and only through the
    fields a state or a record asks for."""

    __slots__ = ("base",)

    base: Table

    def __getattr__(self, name: str) -> Any:
        # (only called for the fields not set here; ``base`` itself is always set)
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)


class RoundFacts:
    """What every bid of a round reads, shared by the round's states (and by rounds alike):
    the dice in play, the bid modes, the next seats, and in games whose legal actions depend
    only on the bid (:attr:`Game.legal_cache`) the list of legal-action tuples by bid + 1,
    filled as play reaches them."""

    __slots__ = ("cap", "legal", "modes", "nxt", "top", "top_open")

    def __init__(self, t: Table, legal: list[tuple[int, ...] | None] | None) -> None:
        self.cap = t.cap
        self.modes = t.modes
        self.nxt = t.nxt
        self.legal = legal
        # The highest legal bid id where any higher bid id under the cap is a legal raise
        # (after a bid; ``top_open``: as the opening bid) and a bid goes straight to the
        # next seat; -2 where bids take the general path (GameTables.round_of sets them).
        self.top = self.top_open = -2


class PendingResult:
    """The results of a table whose last round's :class:`RoundResult` is built only when read
    (resolving a round must not pay for a record that random playouts never look at)."""

    __slots__ = ("done", "earlier", "fields", "hands", "shown", "source")

    earlier: tuple[RoundResult, ...] | PendingResult  # the results before this round
    hands: tuple[tuple[int, ...], ...]  # hidden and shown dice at the reveal, merged when built
    shown: tuple[tuple[int, ...], ...]
    fields: tuple[Any, ...] | None  # RoundResult's fields before ``hands``, then after it
    source: tuple[Any, ...]  # without ``fields``: a single-round liar call's (see build)
    done: tuple[RoundResult, ...] | None  # every result, once built

    def build(self) -> tuple[RoundResult, ...]:
        """Every result, this round's last (built once; earlier pending rounds too)."""
        chain: list[PendingResult] = []
        node: tuple[RoundResult, ...] | PendingResult = self
        while isinstance(node, PendingResult) and node.done is None:
            chain.append(node)
            node = node.earlier
        done = node.done if isinstance(node, PendingResult) else node
        assert done is not None
        for pending in reversed(chain):
            if pending.fields is None:  # a single-round game's liar call
                t, bid, caller, callers, bidder, count, loser, winner, dice, out = pending.source
                pending.fields = (
                    t.round, bid, "liar", caller, callers, bidder, count, t.stash, {loser: 1},
                    {}, winner, dice, None, out, None, 0, 0, 0, None, False,
                )  # fmt: skip
            (
                round_, bid, call, caller, callers, bidder, count, stash, losses, gains, winner,
                dice, next_opener, eliminated, chips, round_pot_won, game_pot, pile, scores,
                palifico,
            ) = pending.fields  # fmt: skip
            result = RoundResult(
                round=round_, bid=bid, call=call, caller=caller, callers=callers,
                bidder=bidder, count=count,
                hands=tuple(
                    tuple(sorted(h + s)) for h, s in zip(pending.hands, pending.shown, strict=True)
                ),
                stash=stash, losses=losses, gains=gains, winner=winner, dice=dice,
                next_opener=next_opener, eliminated=eliminated, chips=chips,
                round_pot_won=round_pot_won, game_pot=game_pot, pile=pile, scores=scores,
                palifico=palifico,
            )  # fmt: skip
            done = pending.done = (*done, result)
        return done


def _compile_copier() -> Any:
    # Straight-line attribute copies: several times faster than a getattr/setattr loop, and
    # tables are copied on every roll completion and every resolution.
    lines = ["def copy_table(src):", "    t = Table()"]
    lines += [f"    t.{name} = src.{name}" for name in Table.__slots__]
    lines.append("    return t")
    namespace: dict[str, Any] = {"Table": Table}
    exec("\n".join(lines), namespace)
    return namespace["copy_table"]


copy_table: Callable[[Table], Table] = _compile_copier()


def next_seats(dice: tuple[int, ...]) -> tuple[int, ...]:
    """For each seat, the next seat clockwise that still has dice."""
    n = len(dice)
    out = []
    for p in range(n):
        q = (p + 1) % n
        while dice[q] == 0 and q != p:
            q = (q + 1) % n
        out.append(q)
    return tuple(out)
