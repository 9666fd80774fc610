"""Immutable game state of the bidding family, OpenSpiel style, and the game that makes it.

A :class:`State` is never changed: :meth:`State.apply_action` returns a new state. Chance events
(die rolls, a random opener) are explicit actions taken when :attr:`State.current_player` is
:data:`~liarsdice.core.bidding.game.CHANCE`; :meth:`State.chance_outcomes` lists them with their
probabilities. Every state keeps its event log, from which it can be rebuilt exactly.

A move is one small step per phase (:data:`_MOVES`); a round's end runs the named steps of
:mod:`~liarsdice.core.bidding.resolve`. What a state is made of (the table, the phases, the
results) is in :mod:`~liarsdice.core.bidding.records`, and what the game precomputed for its
states in :mod:`~liarsdice.core.bidding.tables` (``game.tables``). The :class:`Game` lives here,
beside the states it makes and that hold it (:mod:`liarsdice.core.bidding.game` names it too).

>>> import random
>>> from liarsdice.core.bidding.rules import preset
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
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from liarsdice.core.bidding.actions import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE
from liarsdice.core.bidding.actions import SHOW_BITS as _SHOW_BITS
from liarsdice.core.bidding.bid import Bid, read_bid
from liarsdice.core.bidding.ladder import OPEN_ANY, PALIFICO, BidSpace
from liarsdice.core.bidding.records import (
    Phase,
    Question,
    RoundFacts,
    RoundResult,
    Table,
    copy_table,
    next_seats,
)
from liarsdice.core.bidding.resolve import (
    count_matches,
    dealt_table,
    game_winner_after,
    resolve_round,
    settle_challenge,
    single_round_end,
    single_round_table,
)
from liarsdice.core.bidding.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Economy,
    ExactCall,
    FirstOpener,
    Rules,
    ShowReroll,
    Stash,
)
from liarsdice.core.bidding.tables import MAX_DEALS, GameTables, build_tables
from liarsdice.core.bidding.tensors import Encoder, FloatTensor, TensorLayout
from liarsdice.core.bidding.view import PlayerView
from liarsdice.core.common import CHANCE, TERMINAL, GameBase, StateBase, view_fields
from liarsdice.core.errors import IllegalActionError

__all__ = ["Game", "State", "initial_state", "make_view"]
# (the records and steps other packages import from here, where they were first)
__all__ += ["Phase", "Question", "RoundResult", "Table", "game_winner_after", "settle_challenge"]

#: (the name the expert bot imports the next seats by)
_next_seats = next_seats

# Rule values read on hot paths: a global is cheaper to read than an enum member.
_CHIPS = Economy.CHIPS
_PALIFICO_MODES = (OPEN_ANY, PALIFICO)  # a palifico round: keep the face after the opening bid

# Module-level aliases: a global lookup is cheaper than an enum attribute on hot paths.
_P_SETUP, _P_ROLL, _P_BID, _P_REROLL, _P_SHOW, _P_BUY_ROLL, _P_OVER = Phase  # in value order

# Turn flags.
_BOUGHT = 1
_MUST_RAISE = 2


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
    t.nxt = next_seats(t.dice)
    t.chips = chips
    t.round_pot = 0
    t.game_pot = game_pot
    t.pile = 0
    t.scores = (0,) * n
    t.lost = (0,) * n
    t.out_order = ()
    t.palifico = False
    t.palifico_used = frozenset()
    t.penalties = game.tables.no_penalties
    t.results = ()
    t.winner = None
    if game.opener is not None or rules.first_opener is FirstOpener.GIVEN:
        t.opener = game.opener or 0
        return _start_round(game, t, None, 0)
    if rules.first_opener is FirstOpener.RANDOM:
        return State.make(game, t, Phase.SETUP, CHANCE, -1, -1, (), 0, (), None, 0)
    # Roll-off: pending = (rollers, faces rolled so far)
    return State.make(game, t, Phase.SETUP, CHANCE, -1, -1, (), 0, (tuple(range(n)), ()), None, 0)


def _start_round(
    game: Game, t: Table, log: Any, n_events: int, nxt: tuple[int, ...] | None = None
) -> State:
    """A new round: antes, then the ROLL chance phase. ``t`` is a fresh table (a copy no state
    holds yet), which this sets up for the round in place; ``nxt``: the next seats of its
    dice, when the caller has them."""
    tables = game.tables
    t.hands = t.shown = tables.no_hands
    t.stash = ()
    # penalties are not reset here: a question asked before the first round's roll (during
    # the roll-off) counts for that round; the resolution clears them after charging them.
    dice = t.dice
    t.nxt = nxt or tables.next_seats(dice)
    t.start = n_events
    t.modes = _PALIFICO_MODES if t.palifico else tables.modes
    t.cap = sum(dice)
    if tables.stash:
        t.cap += len(t.active())
    if tables.economy is _CHIPS:
        _ante_up(t)
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
    s._rd = tables.round_of(t)  # for the bids once the dice are dealt
    return s


def _ante_up(t: Table) -> None:
    """The chips economy's antes on table ``t``, in place: each seat in puts a chip in the
    round pot, then one in the game pot, while it has chips."""
    chips = list(t.chips)
    round_pot, game_pot = 0, t.game_pot
    for p in t.active():
        if chips[p] > 0:
            chips[p] -= 1
            round_pot += 1
        if chips[p] > 0:
            chips[p] -= 1
            game_pot += 1
    t.chips, t.round_pot, t.game_pot = tuple(chips), round_pot, game_pot


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
    # What the round's bids read on every move (shared), or None (a state from make:
    # then the moves read the table and work legal actions out).
    _rd: RoundFacts | None
    if TYPE_CHECKING:
        log: Any  # the event log, ``_log`` (set below, as ``current_player``)

    @staticmethod
    def make(
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
        """The state of these fields, with no shared round facts (its moves work their legal
        actions out from the table)."""
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

    _make = make  # (its name before: bots and tests build states by it)

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
            return [*self.game.tables.roll_outcomes]
        if self.player != CHANCE:
            return []
        if self.phase is _P_SETUP and not self.pending:
            return [*self.game.tables.seat_outcomes]
        return [*self.game.tables.roll_outcomes]

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome drawn with ``rng``."""
        if self.phase is _P_SETUP and not self.pending:
            return rng.randrange(self.game.num_players)
        return int(rng.random() * self.game.rules.faces) + 1

    # ----------------------------------------------------------- legal moves
    def legal_bids(self) -> tuple[int, ...]:
        """Action ids of the bids the current player may make now."""
        if self.phase is not _P_BID:
            return ()
        space = self.game.space
        raises = space.raises(self.bid, self.table.cap, self.table.modes[self.bid >= 0])
        return tuple(BID_BASE + i for i in raises)

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions of the current player (chance outcomes at chance nodes), ascending."""
        phase = self.phase
        if phase is _P_ROLL:
            return self.game.tables.roll_actions
        if phase is _P_BID:
            rd = self._rd
            if rd is None or rd.legal is None:
                return _bid_phase_actions(self)
            hit = rd.legal[self.bid + 1]
            if hit is None:
                hit = rd.legal[self.bid + 1] = _bid_phase_actions(self)
            return hit
        if phase is _P_SHOW:
            return (NO_SHOW, *_show_actions(self))
        if self.player == CHANCE:
            if phase is _P_SETUP and not self.pending:
                return self.game.tables.seat_actions
            return self.game.tables.roll_actions
        return ()

    def explain_illegal(self, action: int) -> str:
        """Why ``action`` is not legal here (empty string when it is)."""
        if action in self.legal_actions():
            return ""
        return _why_illegal(self, action)

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
        return _why_not_bid(self, bid)

    # --------------------------------------------------------------- applying
    def apply_action(self, action: int) -> State:
        """The state after the current player (or chance) takes ``action``.

        Raises :class:`IllegalActionError` saying why when the action is not legal.
        """
        # The commonest moves, a die of the deal (the last one deals the hands) and a bid,
        # build their state inline: a method call costs as much as the rest of the step.
        # Every other move is its phase's step (_MOVES).
        phase = self.phase
        if phase is _P_ROLL:
            game = self.game
            tables = game.tables
            if not 0 < action <= tables.faces:
                raise IllegalActionError(f"a die roll must be 1..{tables.faces}, not {action}")
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
            s._rd = self._rd  # the round's, for the bids after the deal (None from make)
            if len(rolled) < t.cap:  # cap = every die in play, stash included
                s.table = t
                s.phase = phase
                s.player = CHANCE
                s.pending = rolled
                return s
            # The last die: hand the dice out seat by seat (hands sorted), the stash last.
            if t is tables.memo.deal_root:  # a game's first deal, of few possible rolls
                table = tables.deals.get(rolled)  # each built once, then shared
                s.table = table if table is not None else _keep_deal(tables, t, rolled)
            else:
                s.table = dealt_table(tables, t, rolled)
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
            # round's ``top``; -2 where not), skips the checks (_check_bid).
            if rd is None or not last < bid <= (rd.top if last >= 0 else rd.top_open):
                rd = rd or RoundFacts(self.table, None)
                shows = _check_bid(self, action, rd)
                if shows is not None:
                    return shows
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
        if phase is _P_BID:
            # A liar call ending a single-round game, inline too (rd: this state came from
            # the game's own moves, not from State.make: no question can have cost a die).
            quick = action == LIAR and self._rd is not None and self.game.tables.quick_liar
            if quick and self.bid >= 0 and not self.flags:
                return _single_round_over(self, player, (player,), log, self._n + 1)
            return self._move(action, log, self._n + 1)
        return _MOVES[phase](self, action, log, self._n + 1)

    def _move(self, action: int, log: Any, n: int) -> State:
        """The bid phase's moves but bids: a call, a purchase or a show."""
        player = self.player
        if action == LIAR and self.bid >= 0 and not self.flags:  # (flags: _MUST_RAISE)
            tables = self.game.tables
            if tables.first_call:
                return _resolve(self, LIAR, player, (player,), log, n)
            return _call(self, LIAR, log, n, self._rd)
        if action in (LIAR, EXACT):
            if self.bid < 0 or self.flags & _MUST_RAISE:
                raise IllegalActionError(self.explain_illegal(action))
            if action == EXACT and self.game.rules.exact is ExactCall.NONE:
                raise IllegalActionError(self.explain_illegal(action))
            return _call(self, action, log, n, self._rd)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        if action == BUY:
            return _buy(self, log, n)
        return _show(self, action, log, n)

    def apply_event(self, player: int, action: int) -> State:
        """Apply one event of a log: a move of the player to act, or a house-rule question."""
        if isinstance(action, str):
            return self.ask(player, action)
        if player != self.player:
            who = "chance" if self.player == CHANCE else f"seat {self.player}"
            raise IllegalActionError(f"it is {who}'s turn, not seat {player}'s")
        return self.apply_action(action)

    child = apply_action  # (states are immutable: a child is the state after the action)

    # ------------------------------------------------------------- questions
    def ask(self, player: int, question: str) -> State:
        """Rules source 002 house rule: ``player`` asks a question and forfeits a die for it.

        The die is taken when the round resolves, so the dice in play (and the bids they
        allow) stay fixed during the round. Returns the new state; the answer is public.
        """
        return _ask(self, player, question)

    # ------------------------------------------------------------ resolution
    def count(self, bid: Bid) -> int:
        """How many dice in play match ``bid`` (wilds counted unless the bid is on wilds)."""
        return count_matches(self.table, self.game.rules.wild, bid.face)

    # ---------------------------------------------------------------- returns
    def returns(self) -> tuple[float, ...]:
        """Final payoffs per seat (zeros until the game is over).

        Elimination: the winner +1, every other seat -1/(n-1). Room scoring: the scores.
        Single round: +1 to the challenge winner, -1 to the other player.
        """
        tables = self.game.tables
        if self.phase is not _P_OVER:
            return tables.no_returns
        t = self.table
        if tables.room:
            return tuple(float(s) for s in t.scores)
        w = t.winner
        return tables.no_returns if w is None else tables.returns[w]

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that are out of the game, in the order they went out."""
        return tuple(self.table.out_order)

    def placements(self) -> list[int]:
        """Seats from first place to last: the winner, then the reverse elimination order."""
        return _placements(self.table, self.game.num_players)

    # ---------------------------------------------------------------- tensors
    def information_state_tensor(self, player: int | None = None) -> FloatTensor:
        """``player``'s information-state tensor (default: the player to act), as OpenSpiel
        names it: the observation, then the round's bids by seat
        (:meth:`Game.tensor_layout`; the batched simulator's ``history=True`` rows): a
        :class:`~liarsdice.core.bidding.tensors.FloatTensor`, floats in a C buffer that NumPy
        reads in one copy, otherwise as the list of floats OpenSpiel's Python API returns."""
        encode = self.game.info_encoder
        if encode is None:
            encode = self.game.tensor_layout().encoders[1]
        return encode(self, self.player if player is None else player)

    def observation_tensor(self, player: int | None = None) -> FloatTensor:
        """``player``'s observation tensor (default: the player to act), as OpenSpiel names
        it (the batched simulator's rows)."""
        encoders = self.game.encoders or self.game.tensor_layout().encoders
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
# ``log``, the event log's cons list ``(previous, player, action)`` (newest first, what the
# tensor encoders walk back through), reads the ``_log`` slot itself likewise.
if not TYPE_CHECKING:
    State.current_player = State.__dict__["player"]
    State.log = State.__dict__["_log"]


# ------------------------------------------------------------------------ legal moves
def _bid_phase_actions(s: State) -> tuple[int, ...]:
    """Legal actions of ``s`` in the bid phase, worked out (or found in the game's cache)."""
    game = s.game
    rules = game.rules
    key = (s.bid, s.table.cap, s.table.modes[s.bid >= 0], s.flags)
    cache = game.legal_cache
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    raises = game.space.raises(s.bid, s.table.cap, s.table.modes[s.bid >= 0])
    out: list[int] = []
    if not s.flags & _MUST_RAISE:
        if s.bid >= 0:
            out.append(LIAR)
            if rules.exact is not ExactCall.NONE:
                out.append(EXACT)
        if rules.economy is Economy.RICH_MAN and _can_buy(s):
            out.append(BUY)
    out.extend(BID_BASE + i for i in raises)
    if (
        rules.show_reroll is ShowReroll.AFTER
        and s.bid >= 0
        and raises
        and not s.flags & _MUST_RAISE
    ):
        out.extend(_show_actions(s))
    result = tuple(out)
    if cache is not None:
        cache[key] = result
    return result


def _can_buy(s: State) -> bool:
    """Whether the player to act in ``s`` may buy a die (Rich Man's Dice)."""
    t, p = s.table, s.player
    return (
        not s.flags & _BOUGHT
        and t.dice[p] < s.game.start_dice[p]
        and t.game_pot > 0
        and t.chips[p] >= t.game_pot
    )


def _show_actions(s: State) -> list[int]:
    """The show actions of the player to act in ``s``: every part of its hidden dice but
    none or all."""
    hidden = s.table.hands[s.player]
    if len(hidden) < 2:
        return []
    counts = Counter(hidden)
    faces = sorted(counts)
    out: list[int] = []

    def rec(i: int, chosen: list[int]) -> None:
        if i == len(faces):
            if 0 < len(chosen) < len(hidden):
                out.append(s.game.show_action(chosen))
            return
        f = faces[i]
        for k in range(counts[f] + 1):
            rec(i + 1, chosen + [f] * k)

    rec(0, [])
    return sorted(out)


def _ask(s: State, player: int, question: str) -> State:
    """:meth:`State.ask`: ``player`` asks ``question`` in ``s``."""
    if not s.game.rules.house_penalties:
        raise IllegalActionError("question penalties are not part of these rules")
    if question not in (Question.TURN, Question.COUNT):
        raise IllegalActionError(f"unknown question {question!r}; ask 'turn' or 'count'")
    if s.phase is _P_OVER:
        raise IllegalActionError("the game is over")
    t = s.table
    if not 0 <= player < s.game.num_players or t.dice[player] == 0:
        raise IllegalActionError(f"seat {player} is not in the game")
    pen = list(t.penalties)
    pen[player] += 1
    return State.make(
        s.game, t.copy(penalties=tuple(pen)), s.phase, s.player, s.bid,
        s.bidder, s.callers, s.flags, s.pending,
        (s.log, player, question), len(s) + 1,
    )  # fmt: skip


def _check_bid(s: State, action: int, rd: RoundFacts) -> State | None:
    """Raise when the bid ``action`` is not a legal raise in ``s``; the show phase's state
    when the bidder may now show ('before' show-and-reroll), else None (the bid stands)."""
    game = s.game
    tables = game.tables
    last = s.bid
    bid = action - BID_BASE
    # (comparisons inside ``if`` tests: the interpreter specialises those)
    mode = rd.modes[1] if last >= 0 else rd.modes[0]
    if mode == OPEN_ANY and tables.fast_bids:  # a higher id, under the cap
        if bid <= last or bid >= tables.nbids or tables.quantity[bid] > rd.cap:
            raise IllegalActionError(s.explain_illegal(action))
    elif bid >= tables.nbids or bid not in game.space.raises(last, rd.cap, mode):
        raise IllegalActionError(s.explain_illegal(action))
    player = s.player
    if tables.show_before and last >= 0 and len(s.table.hands[player]) >= 2:
        return State.make(
            game, s.table, _P_SHOW, player, bid, player, (), 0, (),
            (s.log, player, action), len(s) + 1,
        )  # fmt: skip
    return None


# ------------------------------------------------------------------------- calls
def _call(s: State, action: int, log: Any, n: int, rd: RoundFacts | None) -> State:
    """The player to act in ``s`` calls (``action``: liar or exact): all-call resolution
    waits for every seat but the bidder's call (``rd``: the round's facts, which the next
    caller's state shares: legal actions do not depend on the callers)."""
    game = s.game
    player = s.player
    if game.tables.first_call:
        return _resolve(s, action, player, (player,), log, n)
    callers = (*s.callers, player)
    t = s.table
    others = sum(1 for p, d in enumerate(t.dice) if d > 0 and p != s.bidder)
    if len(callers) < others:
        nxt = State.make(game, t, _P_BID, t.nxt[player], s.bid, s.bidder, callers, 0, (), log, n)
        nxt._rd = rd
        return nxt
    return _resolve(s, action, player, callers, log, n)


def _resolve(s: State, call: int, caller: int, callers: tuple[int, ...], log: Any, n: int) -> State:
    """The round of ``s`` resolved by ``call`` (:mod:`~liarsdice.core.bidding.resolve`'s
    steps): the next round's first state, or the game's last."""
    game = s.game
    tables = game.tables
    t = s.table
    if tables.single_liar and call == LIAR and not any(t.penalties):
        return _single_round_over(s, caller, callers, log, n)
    bid = game.space.bids[s.bid]
    count = count_matches(t, game.rules.wild, bid.face)
    table, game_winner, nxt = resolve_round(
        tables, game.start_dice, t, call, caller, callers, s.bidder, bid, count
    )
    if game_winner is not None:
        return State.make(game, table, _P_OVER, TERMINAL, s.bid, s.bidder, callers, 0, (), log, n)
    return _start_round(game, table, log, n, nxt)


# ------------------------------------------------------------------ why a move is illegal
def _why_not_now(s: State) -> str:
    """Why the player to act in ``s`` may neither call nor bid now (empty when it may)."""
    if s.phase is _P_OVER:
        return "the game is over"
    if s.player == CHANCE:
        return f"a chance outcome is due here: one of {list(s.legal_actions())}"
    if s.phase is _P_SHOW:
        return "after raising you may only show dice or decline (no-show)"
    return ""


def _why_illegal(s: State, action: int) -> str:
    """Why ``action``, not a legal action, is not legal in ``s``."""
    game = s.game
    busy = _why_not_now(s)
    if busy:
        return busy
    if action in (LIAR, EXACT):
        if s.bid < 0:
            return "there is no bid to call yet: make the opening bid"
        if s.flags & _MUST_RAISE:
            return "after showing and re-rolling you must raise the bid"
        return "the exact (spot-on) call is not part of these rules"
    if action == BUY:
        return _why_no_buy(s)
    if game.action_shown(action):  # a show action of these faces
        if game.rules.show_reroll is ShowReroll.OFF:
            return "show-and-reroll is not part of these rules"
        if s.bid < 0:
            return "you may not show and re-roll on an opening bid"
        return (
            "show one or more of your hidden dice and keep at least one to re-roll "
            f"(your hidden dice: {list(s.table.hands[s.player])})"
        )
    bid = game.action_bid(action)
    if bid is None:
        return f"unknown action {action}"
    return _bid_reason(s, bid)


def _why_no_buy(s: State) -> str:
    """Why the player to act in ``s`` may not buy a die."""
    game, t, p = s.game, s.table, s.player
    if game.rules.economy is not Economy.RICH_MAN:
        return "buying dice is not part of these rules"
    if s.flags & _BOUGHT:
        return "you already bought a die this turn"
    if t.dice[p] >= game.start_dice[p]:
        return f"you already have your {game.start_dice[p]} starting dice"
    return f"a die costs the pot ({t.game_pot} chips); you have {t.chips[p]}"


def _why_not_bid(s: State, bid: Bid) -> str:
    """Why ``bid``, which has no action in this game, may not be made in ``s``."""
    faces = s.game.rules.faces
    busy = _why_not_now(s)
    if busy:
        return busy
    if not 1 <= bid.face <= faces or bid.quantity < 1:
        return f"{bid} is not a bid in this game (faces 1..{faces})"
    return _bid_reason(s, bid)


def _bid_reason(s: State, bid: Bid) -> str:
    """Why ``bid`` does not beat the current bid of ``s`` (the bidding step)."""
    game = s.game
    cur = s.current_bid
    legal = s.legal_bids()
    least = ", ".join(game.action_to_string(a) for a in legal[:4])
    if bid.quantity > s.table.cap:
        beat = f"; it must beat {cur} (least legal bids: {least or 'none; call'})" if cur else ""
        return f"{bid} needs more dice than the {s.table.cap} in play{beat}"
    if s.table.palifico and cur is not None:
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


# ----------------------------------------------------------------- the steps of each phase
def _keep_deal(tables: GameTables, t: Table, rolled: tuple[int, ...]) -> Table:
    """The table of the deal ``rolled`` on a game's first round table ``t``, built and kept
    (a game's first deals, of few possible rolls, are built once each)."""
    deals = tables.deals
    if len(deals) >= MAX_DEALS:
        deals.clear()
    table = deals[rolled] = dealt_table(tables, t, rolled)
    return table


def _buy(s: State, log: Any, n: int) -> State:
    """The player to act in ``s`` buys a die for the game pot (Rich Man's Dice): its roll
    is due."""
    t = s.table
    chips = list(t.chips)
    chips[s.player] -= t.game_pot
    table = t.copy(chips=tuple(chips), game_pot=t.game_pot * 2)
    return State.make(
        s.game, table, _P_BUY_ROLL, CHANCE, s.bid, s.bidder, s.callers, s.flags | _BOUGHT,
        (s.player,), log, n,
    )  # fmt: skip


def _show(s: State, action: int, log: Any, n: int) -> State:
    """The player to act in ``s`` shows the dice of ``action``: the rest are re-rolled."""
    shown = s.game.action_shown(action) or ()
    t, p = s.table, s.player
    rest = list(t.hands[p])
    for f in shown:
        rest.remove(f)
    hands = list(t.hands)
    hands[p] = ()
    shown_all = list(t.shown)
    shown_all[p] = tuple(sorted(shown_all[p] + shown))
    table = t.copy(hands=tuple(hands), shown=tuple(shown_all))
    # pending = (seat, dice to re-roll, faces rolled so far)
    return State.make(
        s.game, table, _P_REROLL, CHANCE, s.bid, s.bidder, s.callers, s.flags,
        (p, len(rest), ()), log, n,
    )  # fmt: skip


def _show_phase(s: State, action: int, log: Any, n: int) -> State:
    """'Before' show-and-reroll: the bidder shows dice after raising, or declines."""
    if action == NO_SHOW:
        nxt = s.table.nxt[s.player]
        return State.make(s.game, s.table, _P_BID, nxt, s.bid, s.bidder, (), 0, (), log, n)
    if action not in s.legal_actions():
        raise IllegalActionError(s.explain_illegal(action))
    return _show(s, action, log, n)


def _die(s: State, action: int) -> None:
    """Raise unless ``action`` is a die's face."""
    faces = s.game.rules.faces
    if not 1 <= action <= faces:
        raise IllegalActionError(f"a die roll must be 1..{faces}, not {action}")


def _setup(s: State, action: int, log: Any, n: int) -> State:
    """Chance chooses the first opener: a random seat, or a roll-off's die."""
    game = s.game
    if s.pending:
        return _roll_off(s, action, log, n)
    if not 0 <= action < game.num_players:
        raise IllegalActionError(f"the random opener must be a seat 0..{game.num_players}")
    table = copy_table(s.table)
    table.opener = action
    return _start_round(game, table, log, n)


def _roll_off(s: State, action: int, log: Any, n: int) -> State:
    """A die of the roll-off for the first opener: the highest roller opens, ties roll
    again."""
    _die(s, action)
    game, t = s.game, s.table
    rollers, rolled = s.pending
    rolled = (*rolled, action)
    per = 1 if game.rules.first_opener is FirstOpener.ROLL_ONE else 2
    if len(rolled) < per * len(rollers):
        return State.make(game, t, s.phase, CHANCE, -1, -1, (), 0, (rollers, rolled), log, n)
    sums = [sum(rolled[i * per : (i + 1) * per]) for i in range(len(rollers))]
    best = max(sums)
    top = tuple(r for r, total in zip(rollers, sums, strict=True) if total == best)
    if len(top) > 1:
        return State.make(game, t, s.phase, CHANCE, -1, -1, (), 0, (top, ()), log, n)
    return _start_round(game, t.copy(opener=top[0]), log, n)


def _reroll(s: State, action: int, log: Any, n: int) -> State:
    """A die re-rolled after a show; the last one hands the turn on (or back, to raise)."""
    _die(s, action)
    game, t = s.game, s.table
    seat, count, got = s.pending
    got = (*got, action)
    if len(got) < count:
        return State.make(
            game, t, s.phase, CHANCE, s.bid, s.bidder, s.callers, s.flags, (seat, count, got),
            log, n,
        )  # fmt: skip
    hands = list(t.hands)
    hands[seat] = tuple(sorted(got))
    table = t.copy(hands=tuple(hands))
    if game.rules.show_reroll is ShowReroll.AFTER:
        return State.make(
            game, table, _P_BID, seat, s.bid, s.bidder, s.callers, s.flags | _MUST_RAISE, (),
            log, n,
        )  # fmt: skip
    return State.make(game, table, _P_BID, t.nxt[seat], s.bid, s.bidder, (), 0, (), log, n)


def _buy_roll(s: State, action: int, log: Any, n: int) -> State:
    """The roll of a die just bought: it joins the buyer's hand, who acts again."""
    _die(s, action)
    t = s.table
    (seat,) = s.pending
    hands = list(t.hands)
    hands[seat] = tuple(sorted((*hands[seat], action)))
    dice = list(t.dice)
    dice[seat] += 1
    table = t.copy(hands=tuple(hands), dice=tuple(dice), cap=t.cap + 1)
    return State.make(s.game, table, _P_BID, seat, s.bid, s.bidder, s.callers, s.flags, (), log, n)


def _over(s: State, action: int, log: Any, n: int) -> State:
    raise IllegalActionError("the game is over")


#: Each phase's step but the deal's and the bids' (State.apply_action takes those inline).
_MOVES: dict[Phase, Callable[[State, int, Any, int], State]] = {
    Phase.SETUP: _setup,
    Phase.REROLL: _reroll,
    Phase.SHOW: _show_phase,
    Phase.BUY_ROLL: _buy_roll,
    Phase.OVER: _over,
}


# --------------------------------------------------------------- a single round's end
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
    tables = before.game.tables
    endings = tables.endings
    if endings is not None:
        key = (before.table, before.bid, before.bidder, callers)
        table = endings.get(key)
        if table is None:
            if len(endings) >= MAX_DEALS:
                endings.clear()
            table = endings[key] = _single_round_end(before, caller, callers)
    else:
        table = _single_round_end(before, caller, callers)
    s = State()
    s.game = before.game
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
    return single_round_end(
        before.game.tables, before.table, before.bid, before.bidder, caller, callers
    )


def _single_round_table(before: State, caller: int, callers: tuple[int, ...]) -> Table:
    """The table :func:`_single_round_end` makes, its result built at once (the tests'
    reference)."""
    bid = before.current_bid
    assert bid is not None
    return single_round_table(before.table, bid, before.bidder, caller, callers, before.count(bid))


def _placements(t: Table, players: int) -> list[int]:
    """The seats of a game of ``players`` on table ``t`` from first place to last."""
    # the winner is never placed twice (a room bidder can win while penalties take its dice)
    order = [p for p in reversed(t.out_order) if p != t.winner]
    rest = [p for p in range(players) if p not in order and p != t.winner]
    head = [] if t.winner is None else [t.winner]
    return head + rest + order


# -------------------------------------------------------------------------------- views
def make_view(state: State, player: int) -> PlayerView:
    """Build ``player``'s view of ``state``; -1 builds a spectator's view."""
    game = state.game
    t = state.table
    space = game.space
    bids: list[tuple[int, Bid]] = []
    if state.phase is not _P_OVER:
        for seat, action in state.round_events():
            if isinstance(action, str):  # a house-rule question (rules source 002), not a move
                continue
            bid = game.action_bid(action)
            if bid is not None:
                bids.append((seat, bid))
    seen = 0 <= player < game.num_players
    stash_open = game.rules.stash is Stash.OPEN
    complete = state.phase is not _P_ROLL
    return PlayerView(
        **view_fields(state, player, t.round, t.opener),
        dice_counts=t.dice,
        my_dice=t.hands[player] if seen and complete else (),
        shown=t.shown,
        stash=t.stash if stash_open and complete else None,
        stash_size=len(t.active()) if game.rules.stash is not Stash.NONE else 0,
        dice_in_play=t.cap,
        bids=tuple(bids),
        current_bid=None if state.bid < 0 else space.bids[state.bid],
        bidder=state.bidder,
        callers=state.callers,
        chips=t.chips,
        game_pot=t.game_pot,
        round_pot=t.round_pot,
        pile=t.pile,
        scores=t.scores,
        lost=t.lost,
        palifico=t.palifico,
    )


# -------------------------------------------------------------------------------- the game
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

    A game is immutable and may be shared by any number of states. ``tables``: what its
    states read on every move (:class:`~liarsdice.core.bidding.tables.GameTables`).
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
        self.tables = build_tables(rules, self.num_players, self.space)
        # Legal actions by (bid, cap, mode, flags), where they depend on nothing else (no
        # dice shown or bought); None where they also depend on the hand.
        self.legal_cache: dict[tuple[int, int, int, int], tuple[int, ...]] | None = (
            {} if self.tables.simple else None
        )
        self._layout: TensorLayout | None = None
        # the layout's encoders, once built (the second, read by every RL step, alone too)
        self.encoders: tuple[Encoder, Encoder] | None = None
        self.info_encoder: Encoder | None = None

    # ----------------------------------------------------------------- tensors
    def tensor_layout(self) -> TensorLayout:
        """The blocks of this game's observation and information-state tensors (built once)."""
        layout = self._layout
        if layout is None:
            layout = self._layout = TensorLayout(self)
            self.encoders = layout.encoders
            self.info_encoder = layout.encoders[1]
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
        state["encoders"] = state["info_encoder"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._layout is not None:
            self.encoders = self._layout.encoders
            self.info_encoder = self.encoders[1]

    def _initial_state(self) -> State:
        root = initial_state(self)
        if self.tables.few_deals and root.phase is Phase.ROLL:
            self.tables.memo.deal_root = root.table
        return root

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
        word = _WORDS.get(action)
        if word is not None:
            return word
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
        fixed = {word: action for action, word in _WORDS.items()}
        if t in fixed:
            return fixed[t]
        if t.startswith("show "):
            try:
                faces = [int(x) for x in t[5:].split(",")]
            except ValueError:
                raise IllegalActionError(f"can't read {text!r} as a show") from None
            return self.show_action(faces)
        return self.bid_action(read_bid(t, faces=self.rules.faces))


#: The actions written as a word.
_WORDS = {LIAR: "liar", EXACT: "exact", NO_SHOW: "no-show", BUY: "buy"}
