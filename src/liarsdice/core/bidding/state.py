"""Immutable game state of the bidding family, OpenSpiel style.

A :class:`State` is never changed: :meth:`State.apply_action` returns a new state. Chance events
(die rolls, a random opener) are explicit actions taken when :attr:`State.current_player` is
:data:`~liarsdice.core.bidding.game.CHANCE`; :meth:`State.chance_outcomes` lists them with their
probabilities. Every state keeps its event log, from which it can be rebuilt exactly.

>>> import random
>>> from liarsdice.core.bidding.rules import preset
>>> from liarsdice.core.bidding.game import Game
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(6)   # p1 rolls 3, p2 rolls 6
>>> s.current_player, s.legal_actions()[:3]
(0, (8, 9, 10))
>>> s = s.apply_action(g.bid_action(Bid(2, 3)))
>>> s = s.apply_action(LIAR)           # 3 + wild 6 = two threes: the bid stands
>>> s.is_terminal(), s.returns()
(True, (1.0, -1.0))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from liarsdice.core.bidding.actions import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.ladder import OPEN_ANY, PALIFICO
from liarsdice.core.bidding.rules import (
    Economy,
    ExactCall,
    ExactCount,
    FirstOpener,
    Loss,
    NextOpener,
    Rules,
    Scoring,
    ShowReroll,
)
from liarsdice.core.bidding.view import PlayerView, make_view
from liarsdice.core.common import CHANCE, TERMINAL, StateBase
from liarsdice.core.errors import IllegalActionError

if TYPE_CHECKING:
    from liarsdice.core.bidding.game import Game
    from liarsdice.core.bidding.tensors import FloatTensor


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
        "_results",  # read and written as ``results`` (the last round's may be pending)
        "cap",
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
    _results: tuple[RoundResult, ...] | _PendingResult
    winner: int | None

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Results of every resolved round so far."""
        r = self._results
        if isinstance(r, _PendingResult):
            r = self._results = r.build()
        return r

    @results.setter
    def results(self, value: tuple[RoundResult, ...]) -> None:
        self._results = value

    def copy(self, **changes: Any) -> Table:
        t: Table = _copy_table(self)
        for name, value in changes.items():
            setattr(t, name, value)
        return t

    def active(self) -> list[int]:
        return [p for p, d in enumerate(self.dice) if d > 0]


class _EndTable(Table):
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


class _Round:
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
        # next seat; -2 where bids take the general path (Game._round_of sets them).
        self.top = self.top_open = -2


class _PendingResult:
    """The results of a table whose last round's :class:`RoundResult` is built only when read
    (resolving a round must not pay for a record that random playouts never look at)."""

    __slots__ = ("_done", "earlier", "fields", "hands", "shown", "source")

    earlier: tuple[RoundResult, ...] | _PendingResult  # the results before this round
    hands: tuple[tuple[int, ...], ...]  # hidden and shown dice at the reveal, merged when built
    shown: tuple[tuple[int, ...], ...]
    fields: tuple[Any, ...] | None  # RoundResult's fields before ``hands``, then after it
    source: tuple[Any, ...]  # without ``fields``: a single-round liar call's (see build)
    _done: tuple[RoundResult, ...] | None  # every result, once built

    def build(self) -> tuple[RoundResult, ...]:
        """Every result, this round's last (built once; earlier pending rounds too)."""
        chain: list[_PendingResult] = []
        node: tuple[RoundResult, ...] | _PendingResult = self
        while isinstance(node, _PendingResult) and node._done is None:
            chain.append(node)
            node = node.earlier
        done = node._done if isinstance(node, _PendingResult) else node
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
            done = pending._done = (*done, result)
        return done


def _compile_copier() -> Any:
    # Straight-line attribute copies: several times faster than a getattr/setattr loop, and
    # tables are copied on every roll completion and every resolution.
    lines = ["def _copy_table(src):", "    t = Table()"]
    lines += [f"    t.{name} = src.{name}" for name in Table.__slots__]
    lines.append("    return t")
    namespace: dict[str, Any] = {"Table": Table}
    exec("\n".join(lines), namespace)
    return namespace["_copy_table"]


_copy_table: Callable[[Table], Table] = _compile_copier()


def _next_seats(dice: tuple[int, ...]) -> tuple[int, ...]:
    """For each seat, the next seat clockwise that still has dice."""
    n = len(dice)
    out = []
    for p in range(n):
        q = (p + 1) % n
        while dice[q] == 0 and q != p:
            q = (q + 1) % n
        out.append(q)
    return tuple(out)


def initial_state(game: Game) -> State:
    rules = game.rules
    n = game.num_players
    chips = (rules.chips,) * n if rules.economy is not Economy.NONE else (0,) * n
    game_pot = 0
    if rules.economy is Economy.RICH_MAN:
        antes = tuple(min(c, rules.ante) for c in chips)
        chips = tuple(c - a for c, a in zip(chips, antes, strict=True))
        game_pot = sum(antes)
    t = Table()
    t.dice = game.start_dice
    t.hands = ((),) * n
    t.shown = ((),) * n
    t.stash = ()
    t.start = 0
    t.modes = (OPEN_ANY, OPEN_ANY)
    t.opener = 0
    t.round = 0
    t.cap = 0
    t.nxt = _next_seats(t.dice)
    t.chips = chips
    t.round_pot = 0
    t.game_pot = game_pot
    t.pile = 0
    t.scores = (0,) * n
    t.lost = (0,) * n
    t.out_order = ()
    t.palifico = False
    t.palifico_used = frozenset()
    t.penalties = game._no_penalties
    t.results = ()
    t.winner = None
    if game.opener is not None or rules.first_opener is FirstOpener.GIVEN:
        t.opener = game.opener or 0
        return _start_round(game, t, None, 0)
    if rules.first_opener is FirstOpener.RANDOM:
        return State._make(game, t, Phase.SETUP, CHANCE, -1, -1, (), 0, (), None, 0)
    # Roll-off: pending = (rollers, faces rolled so far)
    return State._make(game, t, Phase.SETUP, CHANCE, -1, -1, (), 0, (tuple(range(n)), ()), None, 0)


def _start_round(
    game: Game, t: Table, log: Any, n_events: int, nxt: tuple[int, ...] | None = None
) -> State:
    """A new round: antes, then the ROLL chance phase. ``t`` is a fresh table (a copy no state
    holds yet), which this sets up for the round in place; ``nxt``: the next seats of its
    dice, when the caller has them."""
    t.hands = t.shown = game._no_hands
    t.stash = ()
    # penalties are not reset here: a question asked before the first round's roll (during
    # the roll-off) counts for that round; _resolve clears them after charging them.
    dice = t.dice
    t.nxt = nxt or game._next_seats(dice)
    t.start = n_events
    t.modes = _PALIFICO_MODES if t.palifico else game._modes
    t.cap = sum(dice)
    if game._stash:
        t.cap += len(t.active())
    if game._economy is _CHIPS:
        active = t.active()
        chips = list(t.chips)
        round_pot, game_pot = 0, t.game_pot
        for p in active:
            if chips[p] > 0:
                chips[p] -= 1
                round_pot += 1
            if chips[p] > 0:
                chips[p] -= 1
                game_pot += 1
        t.chips, t.round_pot, t.game_pot = tuple(chips), round_pot, game_pot
    s = State()
    s.game = game
    s.table = t
    s.phase = _P_ROLL
    s.player = CHANCE
    s.bid = -1
    s.bidder = -1
    s.callers = ()
    s.flags = 0
    s.pending = ()
    s._log = log
    s._n = n_events
    s._rd = game._round_of(t)  # for the bids once the dice are dealt
    return s


# Rule values read when a round resolves: a global is cheaper to read than an enum member.
_ROOM = Scoring.ROOM
_SINGLE_ROUND = Scoring.SINGLE_ROUND
_DIFFERENCE = Loss.DIFFERENCE
_BID_STOOD = (ExactCount.BID_STANDS, ExactCount.CALLER_LOSES_ONE)
_SPARE_LAST = ExactCount.ALL_BUT_BIDDER_SPARE_LAST
_SPOT_ON = ExactCall.SPOT_ON
_WINNER = NextOpener.WINNER
_BIDDER = NextOpener.BIDDER
_NO_ECONOMY = Economy.NONE
_CHIPS = Economy.CHIPS
_PALIFICO_MODES = (OPEN_ANY, PALIFICO)  # a palifico round: keep the face after the opening bid

# Module-level aliases: a global lookup is cheaper than an enum attribute on hot paths.
_P_SETUP, _P_ROLL, _P_BID, _P_REROLL, _P_SHOW, _P_BUY_ROLL, _P_OVER = Phase  # in value order

# Turn flags.
_BOUGHT = 1
_MUST_RAISE = 2


class State(StateBase):
    """An immutable game state. Create the first one with :meth:`Game.new_initial_state`."""

    __slots__ = (
        "_log",
        "_n",
        "_rd",
        "bid",
        "bidder",
        "callers",
        "flags",
        "game",
        "pending",
        "phase",
        "player",
        "table",
    )
    _OVER = Phase.OVER

    game: Game
    table: Table
    phase: Phase
    player: int
    bid: int  # id in the game's bid space, -1 before the opening bid
    bidder: int
    callers: tuple[int, ...]
    flags: int
    pending: tuple[Any, ...]
    _log: Any  # cons list (previous, player, action) or None
    _n: int
    # What the round's bids read on every move (shared), or None (a state from _make:
    # then the moves read the table and work legal actions out).
    _rd: _Round | None

    @staticmethod
    def _make(
        game: Game,
        table: Table,
        phase: Phase,
        player: int,
        bid: int,
        bidder: int,
        callers: tuple[int, ...],
        flags: int,
        pending: tuple[Any, ...],
        log: Any,
        n: int,
    ) -> State:
        s = State()  # no __init__: calling the class is the cheapest way to a bare instance
        s.game = game
        s.table = table
        s.phase = phase
        s.player = player
        s.bid = bid
        s.bidder = bidder
        s.callers = callers
        s.flags = flags
        s.pending = pending
        s._log = log
        s._n = n
        s._rd = None
        return s

    # ------------------------------------------------------------ inspection
    def is_terminal(self) -> bool:
        return self.phase is _P_OVER

    @property
    def round(self) -> int:
        return self.table.round

    @property
    def dice_counts(self) -> tuple[int, ...]:
        """Every seat's dice (hidden + shown) this round; 0 once out."""
        return self.table.dice

    @property
    def current_bid(self) -> Bid | None:
        return None if self.bid < 0 else self.game.space.bids[self.bid]

    @property
    def winner(self) -> int | None:
        return self.table.winner

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Results of every resolved round so far."""
        return self.table.results

    def hand(self, player: int) -> tuple[int, ...]:
        """A seat's hidden dice (sorted). Not for other players' eyes: see :meth:`view`."""
        return self.table.hands[player]

    def shown(self, player: int) -> tuple[int, ...]:
        return self.table.shown[player]

    def active_players(self) -> list[int]:
        return self.table.active()

    def __len__(self) -> int:
        return self._n

    def __repr__(self) -> str:
        bid = self.current_bid
        return (
            f"<State round={self.table.round} phase={self.phase.name} player={self.player} "
            f"bid={bid} dice={list(self.table.dice)}>"
        )

    # ---------------------------------------------------------------- chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` for each outcome at a chance node."""
        if self.phase is _P_ROLL:  # (the commonest: the deal)
            return [*self.game._roll_outcomes]
        if self.player != CHANCE:
            return []
        if self.phase is _P_SETUP and not self.pending:
            return [*self.game._seat_outcomes]
        return [*self.game._roll_outcomes]

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome drawn with ``rng``."""
        if self.phase is _P_SETUP and not self.pending:
            return rng.randrange(self.game.num_players)
        return int(rng.random() * self.game.rules.faces) + 1

    # ----------------------------------------------------------- legal moves
    def _bid_mode(self) -> int:
        return self.table.modes[self.bid >= 0]

    def legal_bids(self) -> tuple[int, ...]:
        """Action ids of the bids the current player may make now."""
        if self.phase is not _P_BID:
            return ()
        space = self.game.space
        raises = space.raises(self.bid, self.table.cap, self._bid_mode())
        return tuple(BID_BASE + i for i in raises)

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions of the current player (chance outcomes at chance nodes), ascending."""
        phase = self.phase
        if phase is _P_ROLL:
            return self.game._roll_actions
        if phase is _P_BID:
            rd = self._rd
            if rd is None or rd.legal is None:
                return self._bid_phase_actions()
            hit = rd.legal[self.bid + 1]
            if hit is None:
                hit = rd.legal[self.bid + 1] = self._bid_phase_actions()
            return hit
        if phase is _P_SHOW:
            return (NO_SHOW, *self._show_actions())
        if self.player == CHANCE:
            if phase is _P_SETUP and not self.pending:
                return self.game._seat_actions
            return self.game._roll_actions
        return ()

    def _bid_phase_actions(self) -> tuple[int, ...]:
        """Legal actions in the bid phase, worked out (or found in the game's cache)."""
        game = self.game
        rules = game.rules
        key = (self.bid, self.table.cap, self.table.modes[self.bid >= 0], self.flags)
        cache = game.legal_cache
        if cache is not None:
            hit = cache.get(key)
            if hit is not None:
                return hit
        raises = game.space.raises(self.bid, self.table.cap, self._bid_mode())
        out: list[int] = []
        if not self.flags & _MUST_RAISE:
            if self.bid >= 0:
                out.append(LIAR)
                if rules.exact is not ExactCall.NONE:
                    out.append(EXACT)
            if rules.economy is Economy.RICH_MAN and self._can_buy():
                out.append(BUY)
        out.extend(BID_BASE + i for i in raises)
        if (
            rules.show_reroll is ShowReroll.AFTER
            and self.bid >= 0
            and raises
            and not self.flags & _MUST_RAISE
        ):
            out.extend(self._show_actions())
        result = tuple(out)
        if cache is not None:
            cache[key] = result
        return result

    def _can_buy(self) -> bool:
        t, p = self.table, self.player
        return (
            not self.flags & _BOUGHT
            and t.dice[p] < self.game.start_dice[p]
            and t.game_pot > 0
            and t.chips[p] >= t.game_pot
        )

    def _show_actions(self) -> list[int]:
        hidden = self.table.hands[self.player]
        if len(hidden) < 2:
            return []
        counts = Counter(hidden)
        faces = sorted(counts)
        out: list[int] = []

        def rec(i: int, chosen: list[int]) -> None:
            if i == len(faces):
                if 0 < len(chosen) < len(hidden):
                    out.append(self.game.show_action(chosen))
                return
            f = faces[i]
            for k in range(counts[f] + 1):
                rec(i + 1, chosen + [f] * k)

        rec(0, [])
        return sorted(out)

    def explain_illegal(self, action: int) -> str:
        """Why ``action`` is not legal here (empty string when it is)."""
        if action in self.legal_actions():
            return ""
        game = self.game
        if self.phase is _P_OVER:
            return "the game is over"
        if self.player == CHANCE:
            return f"a chance outcome is due here: one of {list(self.legal_actions())}"
        bid = game.action_bid(action)
        cur = self.current_bid
        if self.phase is _P_SHOW:
            return "after raising you may only show dice or decline (no-show)"
        if action in (LIAR, EXACT):
            if cur is None:
                return "there is no bid to call yet: make the opening bid"
            if self.flags & _MUST_RAISE:
                return "after showing and re-rolling you must raise the bid"
            return "the exact (spot-on) call is not part of these rules"
        if action == BUY:
            t, p = self.table, self.player
            if game.rules.economy is not Economy.RICH_MAN:
                return "buying dice is not part of these rules"
            if self.flags & _BOUGHT:
                return "you already bought a die this turn"
            if t.dice[p] >= game.start_dice[p]:
                return f"you already have your {game.start_dice[p]} starting dice"
            return f"a die costs the pot ({t.game_pot} chips); you have {t.chips[p]}"
        if game.action_shown(action):  # a show action of these faces
            if game.rules.show_reroll is ShowReroll.OFF:
                return "show-and-reroll is not part of these rules"
            if cur is None:
                return "you may not show and re-roll on an opening bid"
            return (
                "show one or more of your hidden dice and keep at least one to re-roll "
                f"(your hidden dice: {list(self.table.hands[self.player])})"
            )
        if bid is None:
            return f"unknown action {action}"
        return self._bid_reason(bid)

    def explain_bid(self, bid: Bid) -> str:
        """Why ``bid`` may not be made now (empty string when it may), for any bid, even one
        with more dice than the game will ever hold (which has no action), in the words
        :meth:`explain_illegal` uses for a bid.

        >>> from liarsdice.core.bidding.game import Game
        >>> from liarsdice.core.bidding.rules import preset
        >>> s = Game(preset("classic", players=2), opener=0).new_initial_state()
        >>> while s.current_player == CHANCE:
        ...     s = s.apply_action(1)
        >>> print(s.explain_bid(Bid(11, 6)))
        11x6 needs more dice than the 10 in play
        >>> print(s.explain_bid(Bid(99, 6)))
        99x6 needs more dice than the 10 in play
        >>> s.explain_bid(Bid(3, 6))
        ''
        """
        game = self.game
        if bid in game.space.ids:
            return self.explain_illegal(game.bid_action(bid))
        if self.phase is _P_OVER:
            return "the game is over"
        if self.player == CHANCE:
            return f"a chance outcome is due here: one of {list(self.legal_actions())}"
        if self.phase is _P_SHOW:
            return "after raising you may only show dice or decline (no-show)"
        if not 1 <= bid.face <= game.rules.faces or bid.quantity < 1:
            return f"{bid} is not a bid in this game (faces 1..{game.rules.faces})"
        return self._bid_reason(bid)

    def _bid_reason(self, bid: Bid) -> str:
        """Why ``bid`` does not beat the current bid (the bidding step)."""
        game = self.game
        cur = self.current_bid
        legal = self.legal_bids()
        least = ", ".join(game.action_to_string(a) for a in legal[:4])
        if bid.quantity > self.table.cap:
            beat = (
                f"; it must beat {cur} (least legal bids: {least or 'none; call'})" if cur else ""
            )
            return f"{bid} needs more dice than the {self.table.cap} in play{beat}"
        if self.table.palifico and cur is not None:
            return (
                f"palifico round: keep the face and raise the quantity: "
                f"{bid} does not beat {cur} (least legal bids: {least or 'none; call'})"
            )
        if cur is None:
            if not game.rules.open_on_wild and bid.face == game.rules.wild:
                return f"the opening bid may not be on wilds ({bid.face}s)"
            return f"{bid} is not a legal opening bid"
        if not legal:
            return f"{cur} is the top bid: you must call"
        return f"{bid} does not beat {cur}; least legal bids: {least}"

    # --------------------------------------------------------------- applying
    def apply_action(self, action: int) -> State:
        """The state after the current player (or chance) takes ``action``.

        Raises :class:`IllegalActionError` saying why when the action is not legal.
        """
        # The commonest moves, a die of the deal (the last one deals the hands) and a bid,
        # build their state inline: a method call costs as much as the rest of the step.
        phase = self.phase
        if phase is _P_ROLL:
            game = self.game
            if not 0 < action <= game._faces:
                raise IllegalActionError(f"a die roll must be 1..{game._faces}, not {action}")
            rolled = self.pending + (action,)  # noqa: RUF005  (twice as fast as unpacking)
            t = self.table
            s = State()
            s.game = game
            s.bid = -1
            s.bidder = -1
            s.callers = ()
            s.flags = 0
            s._log = (self._log, CHANCE, action)
            s._n = self._n + 1
            s._rd = self._rd  # the round's, for the bids after the deal (None from _make)
            if len(rolled) < t.cap:  # cap = every die in play, stash included
                s.table = t
                s.phase = phase
                s.player = CHANCE
                s.pending = rolled
                return s
            # The last die: hand the dice out seat by seat (hands sorted), the stash last.
            if t is game._deal_root:  # a game's first deal, of few possible rolls
                deals = game._deals
                table = deals.get(rolled)
                if table is None:  # each deal's table is built once, then shared
                    if len(deals) >= _MAX_DEALS:
                        deals.clear()
                    table = deals[rolled] = _dealt_table(game, t, rolled)
            else:
                table = _dealt_table(game, t, rolled)
            s.table = table
            s.phase = _P_BID
            s.player = t.opener
            s.pending = ()
            return s
        player = self.player
        if phase is _P_BID and BID_BASE <= action < SHOW_BASE:
            rd = self._rd
            last = self.bid
            bid = action - BID_BASE
            # A raise above the bid and under the cap, where any such raise is legal (the
            # round's ``top``; -2 where not), skips the checks below.
            if rd is None or not last < bid <= (rd.top if last >= 0 else rd.top_open):
                if rd is None:
                    rd = _Round(self.table, None)
                game = self.game
                # (comparisons inside ``if`` tests: the interpreter specialises those)
                mode = rd.modes[1] if last >= 0 else rd.modes[0]
                if mode == OPEN_ANY and game._fast_bids:  # a higher id, under the cap
                    if bid <= last or bid >= game._nbids or game._quantity[bid] > rd.cap:
                        raise IllegalActionError(self.explain_illegal(action))
                elif bid >= game._nbids or bid not in game.space.raises(last, rd.cap, mode):
                    raise IllegalActionError(self.explain_illegal(action))
                if game._show_before and last >= 0 and len(self.table.hands[player]) >= 2:
                    return State._make(
                        game, self.table, _P_SHOW, player, bid, player, (), 0, (),
                        (self._log, player, action), self._n + 1,
                    )  # fmt: skip
            s = State()
            s.game = self.game
            s.table = self.table
            s.phase = phase
            s.player = rd.nxt[player]
            s.bid = bid
            s.bidder = player
            s.callers = ()
            s.flags = 0
            s.pending = ()
            s._log = (self._log, player, action)
            s._n = self._n + 1
            s._rd = self._rd
            return s
        log = (self._log, player, action)
        n = self._n + 1
        if phase is _P_BID:
            if action == LIAR and self.bid >= 0 and not self.flags:  # (flags: _MUST_RAISE)
                game = self.game
                if game._first_call:
                    # (no question can have cost a die when they are off and rd says this
                    # state came from the game's own moves, not from State._make)
                    if game._quick_liar and self._rd is not None:
                        return _single_round_over(self, player, (player,), log, n)
                    if game._single_liar and not any(self.table.penalties):
                        return _single_round_over(self, player, (player,), log, n)
                    return self._resolve(LIAR, player, (player,), log, n)
                return self._apply_call(LIAR, log, n)
            if action in (LIAR, EXACT):
                if self.bid < 0 or self.flags & _MUST_RAISE:
                    raise IllegalActionError(self.explain_illegal(action))
                if action == EXACT and self.game.rules.exact is ExactCall.NONE:
                    raise IllegalActionError(self.explain_illegal(action))
                return self._apply_call(action, log, n)
            if action not in self.legal_actions():
                raise IllegalActionError(self.explain_illegal(action))
            if action == BUY:
                t = self.table
                chips = list(t.chips)
                chips[player] -= t.game_pot
                table = t.copy(chips=tuple(chips), game_pot=t.game_pot * 2)
                return State._make(
                    self.game, table, _P_BUY_ROLL, CHANCE, self.bid, self.bidder,
                    self.callers, self.flags | _BOUGHT, (player,), log, n,
                )  # fmt: skip
            return self._apply_show(action, log, n)
        if phase is _P_SHOW:
            if action == NO_SHOW:
                nxt = self.table.nxt[player]
                return State._make(
                    self.game, self.table, _P_BID, nxt, self.bid, self.bidder, (), 0, (),
                    log, n,
                )  # fmt: skip
            if action not in self.legal_actions():
                raise IllegalActionError(self.explain_illegal(action))
            return self._apply_show(action, log, n)
        if player == CHANCE:
            return self._apply_chance(action, log, n)
        raise IllegalActionError("the game is over")

    def apply_event(self, player: int, action: int) -> State:
        """Apply one event of a log: a move of the player to act, or a house-rule question."""
        if isinstance(action, str):
            return self.ask(player, action)
        if player != self.player:
            who = "chance" if self.player == CHANCE else f"seat {self.player}"
            raise IllegalActionError(f"it is {who}'s turn, not seat {player}'s")
        return self.apply_action(action)

    def child(self, action: int) -> State:
        """Alias of :meth:`apply_action` (states are immutable)."""
        return self.apply_action(action)

    def _apply_show(self, action: int, log: Any, n: int) -> State:
        shown = self.game.action_shown(action) or ()
        t, p = self.table, self.player
        rest = list(t.hands[p])
        for f in shown:
            rest.remove(f)
        hands = list(t.hands)
        hands[p] = ()
        shown_all = list(t.shown)
        shown_all[p] = tuple(sorted(shown_all[p] + shown))
        table = t.copy(hands=tuple(hands), shown=tuple(shown_all))
        # pending = (seat, dice to re-roll, faces rolled so far)
        return State._make(
            self.game, table, _P_REROLL, CHANCE, self.bid, self.bidder, self.callers,
            self.flags, (p, len(rest), ()), log, n,
        )  # fmt: skip

    def _apply_call(self, action: int, log: Any, n: int) -> State:
        game = self.game
        player = self.player
        if not game._first_call:
            callers = (*self.callers, player)
            t = self.table
            others = sum(1 for p, d in enumerate(t.dice) if d > 0 and p != self.bidder)
            if len(callers) < others:
                s = State._make(
                    game, t, _P_BID, t.nxt[player], self.bid, self.bidder, callers, 0, (),
                    log, n,
                )  # fmt: skip
                s._rd = self._rd  # legal actions do not depend on the callers
                return s
            return self._resolve(action, player, callers, log, n)
        return self._resolve(action, player, (player,), log, n)

    def _apply_chance(self, action: int, log: Any, n: int) -> State:
        game = self.game
        t = self.table
        phase = self.phase
        faces = game.rules.faces
        if phase is _P_SETUP and not self.pending:
            if not 0 <= action < game.num_players:
                raise IllegalActionError(f"the random opener must be a seat 0..{game.num_players}")
            table = _copy_table(t)
            table.opener = action
            return _start_round(game, table, log, n)
        if not 1 <= action <= faces:
            raise IllegalActionError(f"a die roll must be 1..{faces}, not {action}")
        if phase is _P_REROLL:
            seat, count, got = self.pending
            got = (*got, action)
            if len(got) < count:
                return State._make(
                    game, t, phase, CHANCE, self.bid, self.bidder, self.callers, self.flags,
                    (seat, count, got), log, n,
                )  # fmt: skip
            hands = list(t.hands)
            hands[seat] = tuple(sorted(got))
            table = t.copy(hands=tuple(hands))
            if game.rules.show_reroll is ShowReroll.AFTER:
                return State._make(
                    game, table, _P_BID, seat, self.bid, self.bidder, self.callers,
                    self.flags | _MUST_RAISE, (), log, n,
                )  # fmt: skip
            return State._make(
                game, table, _P_BID, t.nxt[seat], self.bid, self.bidder, (), 0, (), log, n
            )
        if phase is _P_BUY_ROLL:
            (seat,) = self.pending
            hands = list(t.hands)
            hands[seat] = tuple(sorted((*hands[seat], action)))
            dice = list(t.dice)
            dice[seat] += 1
            table = t.copy(hands=tuple(hands), dice=tuple(dice), cap=t.cap + 1)
            return State._make(
                game, table, _P_BID, seat, self.bid, self.bidder, self.callers, self.flags,
                (), log, n,
            )  # fmt: skip
        # Roll-off for the first opener.
        rollers, rolled = self.pending
        rolled = (*rolled, action)
        per = 1 if game.rules.first_opener is FirstOpener.ROLL_ONE else 2
        if len(rolled) < per * len(rollers):
            return State._make(game, t, phase, CHANCE, -1, -1, (), 0, (rollers, rolled), log, n)
        sums = [sum(rolled[i * per : (i + 1) * per]) for i in range(len(rollers))]
        best = max(sums)
        top = tuple(r for r, s in zip(rollers, sums, strict=True) if s == best)
        if len(top) > 1:
            return State._make(game, t, phase, CHANCE, -1, -1, (), 0, (top, ()), log, n)
        return _start_round(game, t.copy(opener=top[0]), log, n)

    # ------------------------------------------------------------- questions
    def ask(self, player: int, question: str) -> State:
        """Rules source 002 house rule: ``player`` asks a question and forfeits a die for it.

        The die is taken when the round resolves, so the dice in play (and the bids they
        allow) stay fixed during the round. Returns the new state; the answer is public.
        """
        if not self.game.rules.house_penalties:
            raise IllegalActionError("question penalties are not part of these rules")
        if question not in (Question.TURN, Question.COUNT):
            raise IllegalActionError(f"unknown question {question!r}; ask 'turn' or 'count'")
        if self.phase is _P_OVER:
            raise IllegalActionError("the game is over")
        t = self.table
        if not 0 <= player < self.game.num_players or t.dice[player] == 0:
            raise IllegalActionError(f"seat {player} is not in the game")
        pen = list(t.penalties)
        pen[player] += 1
        return State._make(
            self.game, t.copy(penalties=tuple(pen)), self.phase, self.player, self.bid,
            self.bidder, self.callers, self.flags, self.pending,
            (self._log, player, question), self._n + 1,
        )  # fmt: skip

    # ------------------------------------------------------------ resolution
    def count(self, bid: Bid) -> int:
        """How many dice in play match ``bid`` (wilds counted unless the bid is on wilds)."""
        t = self.table
        wild = None if t.palifico else self.game.rules.wild
        face = bid.face
        dice = sum(t.hands, t.stash)  # every die in one tuple (a few short tuples)
        if any(t.shown):
            dice = sum(t.shown, dice)
        if wild is None or wild == face:
            return dice.count(face)
        return dice.count(face) + dice.count(wild)

    def _resolve(self, call: int, caller: int, callers: tuple[int, ...], log: Any, n: int) -> State:
        game = self.game
        t = self.table
        if game._single_liar and call == LIAR and not any(t.penalties):
            return _single_round_over(self, caller, callers, log, n)
        rules = game.rules
        bid = game.space.bids[self.bid]
        count = self.count(bid)
        bidder = self.bidder
        dice = list(t.dice)
        pile = t.pile
        advantage = game._calling_advantage
        n_seats = game.num_players

        winner, losses, gains, game_over = settle_challenge(
            rules, call, caller, bidder, bid.quantity, count, dice, game.start_dice, pile
        )
        scores = t.scores
        if game_over:  # room scoring: the bid stood
            scores = tuple(score + (1 if p == bidder else -1) for p, score in enumerate(scores))
        if advantage and call != LIAR and winner == caller:
            pile = 0  # a right exact call takes the pile
        challenge_losers = list(losses)  # (settle_challenge's losses are all positive)
        if t.penalties is not game._no_penalties and any(t.penalties):
            for p, k in enumerate(t.penalties):
                if k:
                    losses[p] = losses.get(p, 0) + k

        before = tuple(dice)
        if gains:
            for p, k in gains.items():
                dice[p] += k
            gains = {p: k for p, k in gains.items() if k > 0}
        lost = list(t.lost)
        capped = False
        for p, k in losses.items():
            if k > dice[p]:  # no seat loses more dice than it has
                k = losses[p] = dice[p]
                capped = True
            dice[p] -= k
            lost[p] += k
            if advantage:
                pile += k
        if capped:
            losses = {p: k for p, k in losses.items() if k > 0}
        if not any(dice):  # penalties emptied the table: the challenge winner keeps a die
            dice[winner] = 1
            losses[winner] -= 1
            lost[winner] -= 1
            if advantage:  # that die never went to the pile
                pile -= 1
            if not losses[winner]:
                del losses[winner]
        # Seats out of the game this round, clockwise from the bidder (only losers lose dice).
        eliminated: tuple[int, ...] = ()
        out = dice.count(0)
        if out:
            gone = [p for p in losses if dice[p] == 0 and before[p] > 0]
            if len(gone) > 1:
                gone.sort(key=lambda p: (p - bidder) % n_seats)
            eliminated = tuple(gone)
            if eliminated and game._room:
                scores = tuple(score - (p in eliminated) for p, score in enumerate(scores))
        chips: list[int] | tuple[int, ...] = t.chips
        economy = game._economy
        if economy is _CHIPS:
            chips = list(chips)
            chips[winner] += t.round_pot
        # Who wins the game (as game_winner_after finds): a single round or a bid that won
        # a room ends it; else the last seat with dice.
        game_winner: int | None = None
        if game_over or game._single_round:
            game_winner = winner
        elif out >= n_seats - 1:
            game_winner = next((p for p, d in enumerate(dice) if d > 0), winner)
        game_over = game_winner is not None
        game_pot = t.game_pot
        if game_over and game_winner is not None and economy is not _NO_ECONOMY:
            chips = list(chips)
            chips[game_winner] += game_pot
            game_pot = 0
        chips = tuple(chips)
        new_dice = tuple(dice)

        next_opener: int | None = None
        palifico = False
        palifico_used = t.palifico_used
        nxt = game._rot
        if not game_over:
            if out:
                nxt = game._next_seats(new_dice)
            fresh = None
            if game._palifico:
                for p in game._clockwise[bidder]:
                    if dice[p] == 1 and before[p] > 1 and p not in palifico_used:
                        fresh = p
                        break
            if fresh is not None:
                next_opener = fresh
                palifico = True
                palifico_used = palifico_used | {fresh}
            else:
                next_opener = _pick_opener(
                    rules.next_opener, winner, bidder, caller, challenge_losers, dice,
                    game._clockwise[bidder],
                )  # fmt: skip
            if dice[next_opener] == 0:  # the next seat clockwise that still has dice
                next_opener = nxt[next_opener]

        # RoundResult's fields but the hands, which the pending result merges when read.
        fields = (
            t.round, bid, "liar" if call == LIAR else "exact", caller, callers, bidder, count,
            t.stash, losses, gains, winner, new_dice, next_opener, eliminated,
            chips if economy is not _NO_ECONOMY else None,
            t.round_pot if economy is _CHIPS else 0,
            game_pot, pile, scores if game._room else None, t.palifico,
        )  # fmt: skip
        table = _copy_table(t)
        table.dice = new_dice
        table.chips = chips
        table.round_pot = 0
        table.game_pot = game_pot
        table.pile = pile
        table.scores = scores
        table.lost = tuple(lost)
        if eliminated:
            table.out_order = t.out_order + eliminated
        table.palifico = palifico
        table.palifico_used = palifico_used
        table.penalties = game._no_penalties
        pending = table._results = _PendingResult()
        pending.earlier = t._results
        pending.hands = t.hands
        pending.shown = t.shown
        pending.fields = fields
        pending._done = None
        if game_over:
            table.winner = game_winner
            return State._make(game, table, _P_OVER, TERMINAL, self.bid, bidder, callers, 0,
                               (), log, n)  # fmt: skip
        table.round = t.round + 1
        table.opener = next_opener if next_opener is not None else 0
        return _start_round(game, table, log, n, nxt)

    # ---------------------------------------------------------------- returns
    def returns(self) -> tuple[float, ...]:
        """Final payoffs per seat (zeros until the game is over).

        Elimination: the winner +1, every other seat -1/(n-1). Room scoring: the scores.
        Single round: +1 to the challenge winner, -1 to the other player.
        """
        game = self.game
        if self.phase is not _P_OVER:
            return game._no_returns
        t = self.table
        if game._room:
            return tuple(float(s) for s in t.scores)
        w = t.winner
        return game._no_returns if w is None else game._returns[w]

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that are out of the game, in the order they went out."""
        return tuple(self.table.out_order)

    def placements(self) -> list[int]:
        """Seats from first place to last: the winner, then the reverse elimination order."""
        t = self.table
        # the winner is never placed twice (a room bidder can win while penalties take its dice)
        order = [p for p in reversed(t.out_order) if p != t.winner]
        rest = [p for p in range(self.game.num_players) if p not in order and p != t.winner]
        head = [] if t.winner is None else [t.winner]
        return head + rest + order

    # ---------------------------------------------------------------- tensors
    def information_state_tensor(self, player: int | None = None) -> FloatTensor:
        """``player``'s information-state tensor (default: the player to act), as OpenSpiel
        names it: the observation, then the round's bids by seat
        (:meth:`Game.tensor_layout`; the batched simulator's ``history=True`` rows): a
        :class:`~liarsdice.core.bidding.tensors.FloatTensor`, floats in a C buffer that NumPy
        reads in one copy, otherwise as the list of floats OpenSpiel's Python API returns."""
        encode = self.game._info_encoder
        if encode is None:
            encode = self.game.tensor_layout().encoders[1]
        return encode(self, self.player if player is None else player)

    def observation_tensor(self, player: int | None = None) -> FloatTensor:
        """``player``'s observation tensor (default: the player to act), as OpenSpiel names
        it (the batched simulator's rows)."""
        encoders = self.game._encoders or self.game.tensor_layout().encoders
        return encoders[0](self, self.player if player is None else player)

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> PlayerView:
        """What ``player`` may see now: own hidden dice and everything public."""
        return make_view(self, player)

    def round_events(self) -> list[tuple[int, int]]:
        """The player events (no chance) of the current round, or of the last one once over."""
        return [(p, a) for p, a in self.history()[self.table.start :] if p != CHANCE]


# ``current_player`` reads the ``player`` slot itself (no property call: the RL loop reads it
# at every node, and OpenSpiel's is a C++ call).
if not TYPE_CHECKING:
    State.current_player = State.__dict__["player"]


def _single_round_over(
    before: State, caller: int, callers: tuple[int, ...], log: Any, n: int
) -> State:
    """``caller`` calls liar on the bid of ``before`` in a single-round game that loses one die
    (no penalties): the game is over, and the challenge winner takes it, without the
    multi-round bookkeeping (the next opener, the out order, chips, scores). The outcome is
    worked out here (the dice counted, the winner, every seat's dice and losses); only the
    round's :class:`RoundResult` is built when ``results`` is read, as in every game.

    The table after the call depends only on the table before it, the bid, the bidder and the
    callers: in games with few deals (whose tables recur) each one is built once, then kept."""
    game = before.game
    endings = game._endings
    if endings is not None:
        key = (before.table, before.bid, before.bidder, callers)
        table = endings.get(key)
        if table is None:
            if len(endings) >= _MAX_DEALS:
                endings.clear()
            table = endings[key] = _single_round_end(before, caller, callers)
    else:
        table = _single_round_end(before, caller, callers)
    s = State()
    s.game = game
    s.table = table
    s.phase = _P_OVER
    s.player = TERMINAL
    s.bid = before.bid
    s.bidder = before.bidder
    s.callers = callers
    s.flags = 0
    s.pending = ()
    s._log = log
    s._n = n
    s._rd = None
    return s


def _single_round_end(before: State, caller: int, callers: tuple[int, ...]) -> Table:
    """The table after ``caller`` calls liar on the bid of ``before`` (see
    :func:`_single_round_over`)."""
    game = before.game
    t = before.table
    bidder = before.bidder
    bid = game.space.bids[before.bid]
    quantity, face = bid
    if t.palifico or t.stash or any(t.shown):
        count = before.count(bid)
    else:  # hands only: each hand's count of every face (wilds in) is kept per hand
        counts = game._hand_counts
        count = 0
        for hand in t.hands:
            got = counts.get(hand)
            if got is None:
                if len(counts) >= _MAX_HANDS:
                    counts.clear()
                got = counts[hand] = game._face_counts(hand)
            count += got[face]
    if count >= quantity:
        winner, loser = bidder, caller
    else:
        winner, loser = caller, bidder
    # the dice after the loss, by loser, kept for the last dice and losses seen (the
    # first round of every game starts from the same ones)
    seen = game._last_loss
    if seen[0] is t.dice and seen[1] is t.lost:
        after = seen[2][loser]
    else:
        key = (t.dice, t.lost, loser)
        after = game._after_loss.get(key)
        if after is None:
            if len(game._after_loss) >= _MAX_DEALS:
                game._after_loss.clear()
            after = game._after_loss[key] = _after_loss(t.dice, t.lost, loser)
        if len(t.dice) == 2:
            other = _after_loss(t.dice, t.lost, 1 - loser)
            game._last_loss = (t.dice, t.lost, (after, other) if loser == 0 else (other, after))
    dice, lost, eliminated = after
    table = _EndTable()
    table.base = t
    table.dice = dice
    table.lost = lost
    table.winner = winner
    pending = table._results = _PendingResult()
    pending.earlier = t._results
    pending.hands = t.hands
    pending.shown = t.shown
    pending.fields = None  # the record's fields, from these when read:
    pending.source = (t, bid, caller, callers, bidder, count, loser, winner, dice, eliminated)
    pending._done = None
    return table


def _after_loss(
    dice: tuple[int, ...], lost: tuple[int, ...], loser: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Every seat's dice and dice lost once ``loser`` loses one die, and the seats that went
    out."""
    after = list(dice)
    after[loser] -= 1
    total = list(lost)
    total[loser] += 1
    return tuple(after), tuple(total), (loser,) if after[loser] == 0 else ()


def _single_round_table(before: State, caller: int, callers: tuple[int, ...]) -> Table:
    """The table after ``caller`` calls liar on the bid of ``before`` in a single-round game
    that loses one die (no penalties): the challenge winner takes the game, without the
    multi-round bookkeeping (the next opener, the out order, chips, scores)."""
    game = before.game
    t = before.table
    bidder = before.bidder
    bid = game.space.bids[before.bid]
    count = before.count(bid)
    winner = bidder if count >= bid.quantity else caller
    loser = caller if winner == bidder else bidder
    dice = list(t.dice)
    dice[loser] -= 1
    lost = list(t.lost)
    lost[loser] += 1
    result = RoundResult(
        round=t.round, bid=bid, call="liar", caller=caller, callers=callers,
        bidder=bidder, count=count,
        hands=tuple(tuple(sorted(h + s)) for h, s in zip(t.hands, t.shown, strict=True)),
        stash=t.stash, losses={loser: 1}, gains={}, winner=winner, dice=tuple(dice),
        next_opener=None, eliminated=(loser,) if dice[loser] == 0 else (),
    )  # fmt: skip
    table = t.copy(dice=tuple(dice), lost=tuple(lost), results=(*t.results, result))
    table.winner = winner
    return table


def _dealt_table(game: Game, t: Table, rolled: tuple[int, ...]) -> Table:
    """The round table ``t`` with the dice of the deal ``rolled`` handed out: every seat's
    hand, sorted, and the stash."""
    table = _copy_table(t)
    dealer = game._dealers.get(t.dice)
    if dealer is None:
        dealer = game._dealer(t.dice)
    cut, split, sort = dealer
    hands = cut(rolled)  # each seat's slice of the rolls, in seat order
    if sort:  # a sorted hand per roll of a seat's dice, kept (sorting costs more)
        known = game._sorted_hands
        if len(known) >= _MAX_HANDS:
            known.clear()
        out = []
        for h in hands:
            got = known.get(h)
            if got is None:
                got = known[h] = tuple(sorted(h))
            out.append(got)
        hands = tuple(out)
    table.hands = hands
    if game._stash:  # (else the table's stash is already empty)
        table.stash = rolled[split:]
    return table


#: The most deals (or single-round endings) a game keeps built tables of.
_MAX_DEALS = 4096
#: The most sorted hands a game keeps (every roll of 5 six-sided dice: 7,776).
_MAX_HANDS = 65536


def settle_challenge(
    rules: Rules,
    call: int,
    caller: int,
    bidder: int,
    q: int,
    count: int,
    dice: Sequence[int],
    start_dice: Sequence[int],
    pile: int,
) -> tuple[int, dict[int, int], dict[int, int], bool]:
    """How a challenge settles, house penalties aside: ``(winner, losses, gains, over)``.

    ``caller`` calls ``call`` (:data:`LIAR` or :data:`EXACT`) on ``bidder``'s bid of
    quantity ``q`` when ``count`` dice match; ``dice`` are every seat's dice, ``start_dice``
    their dice at the start (a calza wins a die back up to it), ``pile`` the calling-advantage
    pile (a right exact call wins it). ``losses`` and ``gains``: dice per seat, not yet capped
    at the seat's dice. ``over``: a room-scoring bid that stood ends the game (no dice change).

    >>> from liarsdice.core.bidding.rules import preset
    >>> settle_challenge(preset("classic"), LIAR, 1, 0, 4, 6, [5, 5], (5, 5), 0)
    (0, {1: 2}, {}, False)
    >>> settle_challenge(preset("perudo"), EXACT, 1, 0, 4, 4, [5, 3], (5, 5), 0)
    (1, {}, {1: 1}, False)
    """
    losses: dict[int, int] = {}
    gains: dict[int, int] = {}
    if call == LIAR:
        if rules.scoring is _ROOM:
            if count >= q:
                return bidder, losses, gains, True
            winner = caller
            losses[bidder] = 1
        elif count > q or (count == q and rules.exact_count in _BID_STOOD):
            winner = bidder
            losses[caller] = count - q if rules.loss is _DIFFERENCE and count > q else 1
        elif count < q:
            winner = caller
            losses[bidder] = q - count if rules.loss is _DIFFERENCE else 1
        else:  # exact count, everyone but the bidder loses one
            winner = bidder
            spare = rules.exact_count is _SPARE_LAST
            for p in _active(dice):
                if p == bidder or (spare and dice[p] == 1 and p != caller):
                    continue
                losses[p] = 1
    elif count == q:
        winner = caller
        if rules.calling_advantage:
            gains[caller] = pile
            for p in _active(dice):
                if p != caller:
                    losses[p] = 1
        elif rules.exact is _SPOT_ON:
            for p in _active(dice):
                if p != caller:
                    losses[p] = 1
        elif dice[caller] < start_dice[caller]:  # calza
            gains[caller] = 1
    else:
        winner = bidder
        losses[caller] = 1
    return winner, losses, gains, False


def _active(dice: Sequence[int]) -> list[int]:
    return [p for p, d in enumerate(dice) if d > 0]


def game_winner_after(
    rules: Rules, dice: Sequence[int], winner: int, over: bool = False
) -> int | None:
    """Who wins the game once ``winner``'s challenge leaves ``dice`` (None: it goes on).

    A single-round game, or one already ``over``, goes to the challenge winner; otherwise the
    game ends when at most one seat has dice left.

    >>> from liarsdice.core.bidding.rules import preset
    >>> rules = preset("classic")
    >>> game_winner_after(rules, [0, 2, 1], 1), game_winner_after(rules, [0, 2, 0], 1)
    (None, 1)
    """
    if rules.scoring is _SINGLE_ROUND or over:
        return winner
    remaining = [p for p, d in enumerate(dice) if d > 0]
    if len(remaining) <= 1:
        return remaining[0] if remaining else winner
    return None


def _clockwise(start: int, n: int) -> tuple[int, ...]:
    return tuple((start + i) % n for i in range(n))


def _pick_opener(
    rule: NextOpener,
    winner: int,
    bidder: int,
    caller: int,
    losers: list[int],
    dice: list[int],
    clockwise: Sequence[int],
) -> int:
    if rule is _WINNER:
        return winner
    if rule is _BIDDER:
        return bidder
    if not losers:
        return caller
    if len(losers) == 1:
        return losers[0]  # the loser opens, whether or not they are still in
    order = [p for p in clockwise if p in losers]
    alive = [p for p in order if dice[p] > 0]
    if not alive:
        return order[0]
    fewest = min(dice[p] for p in alive)
    return next(p for p in alive if dice[p] == fewest)
