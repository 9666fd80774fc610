"""Immutable game state of poker-dice Liar's Dice, OpenSpiel style.

A :class:`PokerState` is never changed: :meth:`PokerState.apply_action` returns a new state.
Die rolls are explicit chance actions (1..6) taken when :attr:`PokerState.current_player` is
:data:`~liarsdice.core.bidding.game.CHANCE`. Every state keeps its event log, from which
:meth:`PokerGame.replay` rebuilds it exactly.

A round: Player One's five dice are rolled under the cup (5 chance actions); Player One bids
(any bid, junk included) and passes the cup left or right (skipped with two players left).
The receiver calls ``liar`` or accepts; the accepter splits the dice between outside and under
the cup, decides whether to shake the cup and which outside dice to roll, the re-rolls come
(cup dice first), then the accepter bids higher and the cup passes on.

>>> from liarsdice.core.poker.game import PokerGame, LIAR
>>> from liarsdice.core.poker.hands import parse_poker_bid
>>> g = PokerGame(players=2)
>>> s = g.new_initial_state()
>>> for face in (5, 5, 1, 2, 3):           # K K 9 10 J under the cup
...     s = s.apply_action(face)
>>> s.phase.name, s.current_player, s.cup
('BID', 0, (1, 2, 3, 5, 5))
>>> s = s.apply_action(g.bid_action(parse_poker_bid("pair K")))
>>> s = s.apply_action(LIAR)               # the bid is true: the caller loses a life
>>> s.lives, s.results[-1].loser, s.opener
((3, 2), 1, 1)
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from liarsdice.core.common import CHANCE, TERMINAL, GameBase, StateBase, view_fields
from liarsdice.core.errors import IllegalActionError, NotationError
from liarsdice.core.poker import actions as act
from liarsdice.core.poker.actions import (
    ACCEPT,
    ARRANGE_BASE,
    BID_BASE,
    KEEP_BASE,
    LEFT,
    LIAR,
    MULTISETS,
    NUM_MULTISETS,
    RIGHT,
    ROLL_BASE,
    SHAKE_BASE,
    multiset_index,
)
from liarsdice.core.poker.hands import (
    ALL_BIDS,
    BID_IDS,
    NUM_BIDS,
    Category,
    PokerBid,
    format_face,
    format_poker_bid,
    is_five_of_a_kind,
    parse_face,
    parse_poker_bid,
    satisfies,
)
from liarsdice.core.poker.records import Phase, PokerRoundResult
from liarsdice.core.poker.rules import MAX_PLAYERS, MIN_PLAYERS, POKER_PRESETS, PokerRules
from liarsdice.core.poker.view import PokerView

__all__ = ["FIVE_ROLLS", "PokerGame", "PokerState", "initial_state", "make_view"]
# (the records other packages import from here, where they were first)
__all__ += ["Phase", "PokerRoundResult"]

FIVE_ROLLS = 3  # rolls allowed to make five of a kind after accepting a five-of-a-kind bid


@lru_cache(maxsize=2048)
def _submultisets(dice: tuple[int, ...], max_size: int) -> tuple[tuple[int, ...], ...]:
    counts = Counter(dice)
    out: list[tuple[int, ...]] = [()]
    for f in sorted(counts):
        out = [s + (f,) * k for s in out for k in range(counts[f] + 1)]
    return tuple(s for s in out if len(s) <= max_size)


def _minus(dice: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for f in part:
        rest.remove(f)
    return tuple(rest)


def _still_known(
    known: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...]
) -> tuple[int, ...]:
    """What a player who knew ``known`` under the cup still knows after the holder changed the
    dice outside it (all in view) from ``before`` to ``after``, without shaking.

    The cup becomes ``cup + before - after`` (as multisets), so it still holds at least
    ``known + before - after`` of each face: the dice brought in from outside join what was
    known, and a face taken out may have been one of the known dice.

    >>> _still_known((2, 3, 3, 3, 5), (), (2, 5))     # 10 J J J K under; 10 K taken out
    (3, 3, 3)
    >>> _still_known((), (2, 6), (6,))                # nothing known; the 10 was put under
    (2,)
    """
    have = Counter(known)
    have.update(before)
    have.subtract(after)
    return tuple(sorted(have.elements()))


_CHANCE_PHASES = frozenset({Phase.ROLL, Phase.REROLL, Phase.FIVE_ROLL})
_LOOK_PHASES = frozenset({Phase.BID, Phase.PASS, Phase.ARRANGE, Phase.SHAKE})
# Phases choosing some of the five dice (to leave outside the cup, to keep): how to choose, and
# why not all five.
_CHOOSE_DICE = {
    Phase.ARRANGE: (
        "choose which dice stay outside the cup first, e.g. 'out K K' or 'out none'",
        "leave at least one die under the cup",
    ),
    Phase.KEEP: (
        "five-of-a-kind challenge: choose the dice to keep, e.g. 'keep Q Q Q'",
        "re-roll at least one die",
    ),
}


def _next_opener(lives: list[int], start: int) -> int | None:
    """Player One of the next round: ``start`` (the loser, or the caller when nobody lost a
    life) or the next seat round the table with lives left; None when one player is left."""
    n = len(lives)
    if sum(1 for k in lives if k > 0) <= 1:
        return None
    nxt = start
    while lives[nxt] == 0:
        nxt = (nxt + 1) % n
    return nxt


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class PokerState(StateBase):
    """An immutable poker-dice state. Create the first one with
    :meth:`PokerGame.new_initial_state`.

    ``cup`` and ``outside`` are the dice under and outside the cup (sorted); ``cup`` is hidden
    information: players get :meth:`view` instead.

    ``known`` is each seat's legitimate knowledge of the cup: the dice it knows are under it
    (a sub-multiset of ``cup``), because it saw them there (as Player One or an accepter) or
    saw them put there from outside, and the cup has not been shaken since. Dice moved out of
    the cup in view leave it (:func:`_still_known`); a shake empties everyone's knowledge until
    the holder looks again. One more entry, the last, is what everyone knows (the dice put
    under the cup in view since it was last shaken). It is derived from the event log like
    every other field, so a replay rebuilds it.
    """

    _OVER: ClassVar[Phase] = Phase.OVER
    game: PokerGame
    phase: Phase
    player: int
    lives: tuple[int, ...]
    round: int
    opener: int  # Player One of this round
    round_start: int  # index in the event log where this round began
    direction: int  # +1 (left: up the seats), -1 (right), 0 before Player One passes
    holder: int  # who last looked under the cup (Player One, or the latest accepter)
    cup: tuple[int, ...]
    outside: tuple[int, ...]
    bid: int  # id in ALL_BIDS of the current bid, -1 before the opening bid
    bidder: int
    bids: tuple[tuple[int, int], ...]  # (seat, bid id) this round, in order
    passed: tuple[tuple[int, ...] | None, ...]  # per seat: the cup as it last passed it on
    known: tuple[tuple[int, ...], ...]  # per seat, then everyone: dice known under the cup
    pending: tuple[Any, ...]  # chance phases: what is being rolled
    attempts: tuple[tuple[int, ...], ...]  # five-of-a-kind challenge: dice after each roll
    lifted: tuple[int, ...]  # five-of-a-kind challenge: the dice when the cup was lifted
    results: tuple[PokerRoundResult, ...]
    winner: int | None
    _log: Any  # cons list (previous, player, action) or None
    _n: int

    # ------------------------------------------------------------ inspection
    @property
    def current_bid(self) -> PokerBid | None:
        return None if self.bid < 0 else ALL_BIDS[self.bid]

    @property
    def dice(self) -> tuple[int, ...]:
        """All five dice, under and outside the cup (sorted). Not for players' eyes."""
        return tuple(sorted(self.cup + self.outside))

    def active_players(self) -> list[int]:
        """Seats with lives left, in seat order."""
        return [p for p, lives in enumerate(self.lives) if lives > 0]

    def round_events(self) -> list[tuple[int, int]]:
        """The events of the current round (of the last one once the game is over)."""
        return self.history()[self.round_start :]

    def rolling_under_cup(self) -> bool:
        """Whether the chance outcome due now lands hidden under the cup."""
        if self.phase is Phase.ROLL:
            return True
        if self.phase is Phase.REROLL:
            shake, _, rolled = self.pending
            return bool(shake) and len(rolled) < len(self.cup)
        return False

    def __len__(self) -> int:
        return self._n

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PokerState):
            return NotImplemented
        if self.game is not other.game or self._n != len(other):
            return False
        return self is other or self.history() == other.history()

    def __hash__(self) -> int:
        return hash((self._n, tuple(self.history())))

    def __repr__(self) -> str:
        bid = self.current_bid
        return (
            f"<PokerState round={self.round} phase={self.phase.name} player={self.player} "
            f"bid={bid} cup={list(self.cup)} outside={list(self.outside)} "
            f"lives={list(self.lives)}>"
        )

    # ---------------------------------------------------------------- chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` for each outcome at a chance node (a fair die)."""
        if self.player != CHANCE:
            return []
        return [(f, 1.0 / 6) for f in range(1, 7)]

    def sample_chance(self, rng: random.Random) -> int:
        """One chance outcome drawn with ``rng``."""
        return int(rng.random() * 6) + 1

    # ----------------------------------------------------------- legal moves
    def _can_accept(self) -> bool:
        bid = ALL_BIDS[self.bid]
        if bid.category is Category.FIVE and self.game.rules.five_of_a_kind_rule:
            return True
        return self.bid < NUM_BIDS - 1

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions of the current player (chance outcomes at chance nodes), ascending."""
        phase = self.phase
        if phase is Phase.BID:
            return tuple(range(act.BID_BASE + self.bid + 1, act.BID_BASE + NUM_BIDS))
        if phase in _CHANCE_PHASES:
            return (1, 2, 3, 4, 5, 6)
        if phase is Phase.RESPOND:
            return (act.LIAR, act.ACCEPT) if self._can_accept() else (act.LIAR,)
        if phase is Phase.PASS:
            return (act.LEFT, act.RIGHT)
        if phase is Phase.ARRANGE:
            subs = _submultisets(self.dice, 4)
            return tuple(sorted(act.ARRANGE_BASE + act.MULTISET_IDS[s] for s in subs))
        if phase is Phase.SHAKE:
            subs = _submultisets(self.outside, 5)
            ids = sorted(act.MULTISET_IDS[s] for s in subs)
            return tuple(act.ROLL_BASE + i for i in ids) + tuple(act.SHAKE_BASE + i for i in ids)
        if phase is Phase.KEEP:
            subs = _submultisets(self.outside, 4)
            return tuple(sorted(act.KEEP_BASE + act.MULTISET_IDS[s] for s in subs))
        return ()

    def explain_illegal(self, action: int) -> str:
        """Why ``action`` is not legal here (empty string when it is).

        >>> from liarsdice.core.poker.game import PokerGame
        >>> from liarsdice.core.poker.hands import parse_poker_bid
        >>> g = PokerGame(players=3)
        >>> s = g.replay([(-1, f) for f in (4, 4, 3, 2, 2)])
        >>> s = s.apply_action(g.bid_action(parse_poker_bid("two pair J 10")))
        >>> for move in ("left", "accept", "out none", "no reroll"):
        ...     s = s.apply_action(g.string_to_action(move))
        >>> print(s.explain_illegal(g.bid_action(parse_poker_bid("pair Q"))))
        pair Q does not beat two pair J 10; least legal bids: two pair J 10 9, two pair J 10 Q, ...
        """
        if action in self.legal_actions():
            return ""
        if self.phase is Phase.OVER:
            return "the game is over"
        if self.player == CHANCE:
            return f"a die roll is due here: 1..6 (9, 10, J, Q, K, A), not {action}"
        try:
            what = self.game.action_to_string(action, self.player)
        except IllegalActionError:
            return f"unknown action {action}"
        return _WHY_ILLEGAL[self.phase](self, action, what)

    # --------------------------------------------------------------- applying
    def advance(self, action: int, **changes: Any) -> PokerState:
        """This state after ``action`` (logged as the player to act's), with the fields
        ``changes`` names changed: every step of :data:`_MOVES` ends in one."""
        return dataclasses.replace(
            self, _log=(self._log, self.player, action), _n=self._n + 1, **changes
        )

    def apply_action(self, action: int) -> PokerState:
        """The state after the current player (or chance) takes ``action``: its phase's step
        (:data:`_MOVES`).

        Raises :class:`IllegalActionError` saying why when the action is not legal.
        """
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if phase is Phase.BID:
            if not act.BID_BASE + self.bid < action < act.BID_BASE + NUM_BIDS:
                raise IllegalActionError(self.explain_illegal(action))
        elif action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        return _MOVES[phase](self, action)

    def apply_event(self, player: int, action: int) -> PokerState:
        """Apply one event of a log, checking that ``player`` is the one to act."""
        if player != self.player:
            who = "chance" if self.player == CHANCE else f"seat {self.player}"
            if self.player == TERMINAL:
                who = "nobody (the game is over)"
            raise IllegalActionError(f"it is {who}'s turn, not seat {player}'s")
        return self.apply_action(action)

    def child(self, action: int) -> PokerState:
        """Alias of :meth:`apply_action` (states are immutable)."""
        return self.apply_action(action)

    # ---------------------------------------------------------------- returns
    def returns(self) -> tuple[float, ...]:
        """Final payoffs: the winner +1, every other seat -1/(n-1); zeros until the end."""
        n = len(self.lives)
        if self.phase is not Phase.OVER:
            return (0.0,) * n
        return tuple(1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n))

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that are out of the game, in the order they went out."""
        return tuple(p for r in self.results for p in r.eliminated)

    def placements(self) -> list[int]:
        """Seats from first place to last: the winner, then the reverse elimination order."""
        out_order = list(self.out_order)
        alive = [p for p in range(len(self.lives)) if p not in out_order]
        return alive + out_order[::-1]

    # ------------------------------------------------------------------ views
    def sees_cup(self, player: int) -> bool:
        """Whether ``player`` is looking under the cup now (the holder, before passing it)."""
        return player == self.holder and self.phase in _LOOK_PHASES and player >= 0

    def view(self, player: int) -> PokerView:
        """What ``player`` may see now (-1: a spectator)."""
        return make_view(self, player)


# ------------------------------------------------------------------ why a move is illegal
def _why_not_bid(s: PokerState, action: int, what: str) -> str:
    game = s.game
    cur = s.current_bid
    bid = game.action_bid(action)
    if bid is None:
        if cur is None:
            return f"bid a poker hand now (any bid, junk included), not {what!r}"
        return f"bid a poker hand higher than {cur} now, not {what!r}"
    if bid.category is Category.JUNK:
        return "junk may only be bid by Player One to open the round"
    legal = s.legal_actions()
    least = ", ".join(game.action_to_string(a) for a in legal[:4])
    return f"{bid} does not beat {cur}; least legal bids: {least}"


def _why_not_pass(s: PokerState, action: int, what: str) -> str:
    return "pass the cup left or right (this sets the round's direction)"


def _why_not_respond(s: PokerState, action: int, what: str) -> str:
    cur = s.current_bid
    if action == act.ACCEPT:
        return f"{cur} is the top bid: nothing beats it, so you must call liar"
    return f"first accept {cur} or call liar, not {what!r}"


def _why_not_choose(s: PokerState, action: int, what: str) -> str:
    how, all_five = _CHOOSE_DICE[s.phase]
    game = s.game
    dice = s.dice
    arranging = s.phase is Phase.ARRANGE
    chosen = game.action_arranged(action) if arranging else game.action_kept(action)
    if chosen is None:
        return f"{how} (the dice: {_faces_text(dice)})"
    if len(chosen) == 5:
        return all_five
    return f"{_faces_text(chosen)} are not among the dice {_faces_text(dice)}"


def _why_not_shake(s: PokerState, action: int, what: str) -> str:
    if s.game.action_roll(action) is None:
        return (
            "decide whether to shake the cup and which outside dice to roll, e.g. "
            "'shake', 'shake reroll K', 'reroll K', 'no reroll'"
        )
    return f"you can only roll dice that are outside the cup: {_faces_text(s.outside)}"


def _not_legal(s: PokerState, action: int, what: str) -> str:
    return f"{what!r} is not legal here"


#: Why a player's move, written ``what``, is not legal, by phase.
_WHY_ILLEGAL: dict[Phase, Callable[[PokerState, int, str], str]] = {
    Phase.BID: _why_not_bid,
    Phase.PASS: _why_not_pass,
    Phase.RESPOND: _why_not_respond,
    Phase.ARRANGE: _why_not_choose,
    Phase.KEEP: _why_not_choose,
    Phase.SHAKE: _why_not_shake,
    Phase.ROLL: _not_legal,
    Phase.REROLL: _not_legal,
    Phase.FIVE_ROLL: _not_legal,
    Phase.OVER: _not_legal,
}


# ------------------------------------------------------------------------ the players' steps
def _bid(s: PokerState, action: int) -> PokerState:
    """The holder bids; Player One's opening bid waits for the cup's direction when more
    than two seats play."""
    player = s.player
    bid = action - act.BID_BASE
    bids = (*s.bids, (player, bid))
    if s.bid < 0 and len(s.active_players()) > 2:
        return s.advance(action, phase=Phase.PASS, bid=bid, bidder=player, bids=bids)
    return _pass_cup(s, action, s.direction or 1, bid=bid, bidder=player, bids=bids)


def _pass(s: PokerState, action: int) -> PokerState:
    """Player One passes the cup left or right."""
    return _pass_cup(s, action, 1 if action == act.LEFT else -1)


def _respond(s: PokerState, action: int) -> PokerState:
    """The receiver calls liar, or accepts (and looks under the cup, or lifts it for a
    five-of-a-kind challenge)."""
    if action == act.LIAR:
        return _call_liar(s, action)
    if ALL_BIDS[s.bid].category is Category.FIVE and s.game.rules.five_of_a_kind_rule:
        return _lift_for_five(s, action)
    known = _knowing(s, s.player, s.cup)  # the accepter looks under the cup
    return s.advance(action, phase=Phase.ARRANGE, holder=s.player, known=known)


def _arrange(s: PokerState, action: int) -> PokerState:
    """The accepter leaves some dice outside the cup, the rest under it."""
    player = s.player
    out = s.game.action_arranged(action) or ()
    cup = _minus(s.dice, out)
    known = tuple(
        cup if p == player else _still_known(k, s.outside, out) for p, k in enumerate(s.known)
    )
    return s.advance(action, phase=Phase.SHAKE, cup=cup, outside=out, known=known)


def _shake(s: PokerState, action: int) -> PokerState:
    """The accepter shakes the cup or not, and rolls some outside dice or none."""
    shake, rolled_out = s.game.action_roll(action) or (False, ())
    if not shake and not rolled_out:
        return s.advance(action, phase=Phase.BID)
    known = ((),) * len(s.known) if shake else s.known  # nobody knows a shaken cup
    return s.advance(
        action, phase=Phase.REROLL, player=CHANCE, pending=(shake, rolled_out, ()), known=known
    )


def _keep(s: PokerState, action: int) -> PokerState:
    """Five-of-a-kind challenge: the dice kept, the others' roll due."""
    kept = s.game.action_kept(action) or ()
    return s.advance(action, phase=Phase.FIVE_ROLL, player=CHANCE, pending=(kept, ()))


def _knowing(s: PokerState, seat: int, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``known`` with ``seat`` knowing ``dice`` under the cup (it looked)."""
    return tuple(dice if p == seat else k for p, k in enumerate(s.known))


def _to_holder(s: PokerState, action: int, phase: Phase, **changes: Any) -> PokerState:
    """The dice rolled for the holder are all in: the holder acts next, in ``phase``."""
    return s.advance(action, phase=phase, player=s.holder, pending=(), **changes)


def _pass_cup(s: PokerState, action: int, direction: int, **changes: Any) -> PokerState:
    holder = s.holder
    passed = list(s.passed)
    passed[holder] = s.cup
    n = len(s.lives)
    receiver = (holder + direction) % n
    while s.lives[receiver] == 0:
        receiver = (receiver + direction) % n
    return s.advance(
        action,
        phase=Phase.RESPOND,
        player=receiver,
        direction=direction,
        passed=tuple(passed),
        **changes,
    )


# ------------------------------------------------------------------------- chance's steps
def _roll(s: PokerState, action: int) -> PokerState:
    """A die of Player One's roll under the cup; with the fifth, Player One looks."""
    rolled = (*s.pending, action)
    if len(rolled) < 5:
        return s.advance(action, pending=rolled)
    cup = tuple(sorted(rolled))
    return s.advance(
        action,
        phase=Phase.BID,
        player=s.opener,
        cup=cup,
        pending=(),
        known=_knowing(s, s.opener, cup),  # Player One looks under the cup
    )


def _reroll(s: PokerState, action: int) -> PokerState:
    """A die of the shaken cup (first) or of the outside dice rolled in view."""
    shake, rolled_out, rolled = s.pending
    rolled = (*rolled, action)
    k = len(s.cup) if shake else 0
    if len(rolled) < k + len(rolled_out):
        return s.advance(action, pending=(shake, rolled_out, rolled))
    cup = tuple(sorted(rolled[:k])) if shake else s.cup
    outside = tuple(sorted(_minus(s.outside, rolled_out) + rolled[k:]))
    return _to_holder(
        s,
        action,
        Phase.BID,
        cup=cup,
        outside=outside,
        known=_knowing(s, s.holder, cup),  # the holder looks again before bidding
    )


def _five_roll(s: PokerState, action: int) -> PokerState:
    """A die of a five-of-a-kind challenge's roll; the last ends the round or the try."""
    kept, rolled = s.pending
    rolled = (*rolled, action)
    if len(kept) + len(rolled) < 5:
        return s.advance(action, pending=(kept, rolled))
    dice = tuple(sorted(kept + rolled))
    attempts = (*s.attempts, dice)
    if is_five_of_a_kind(dice) or len(attempts) >= FIVE_ROLLS:
        return _end_round(
            s,
            action,
            call="five",
            caller=s.holder,
            hand=s.lifted,
            loser=None if is_five_of_a_kind(dice) else s.holder,
            attempts=attempts,
            success=is_five_of_a_kind(dice),
            outside=dice,
        )
    return _to_holder(s, action, Phase.KEEP, outside=dice, attempts=attempts)


# ------------------------------------------------------------------------- a round's end
def _call_liar(s: PokerState, action: int) -> PokerState:
    hand = s.dice
    stood = satisfies(hand, ALL_BIDS[s.bid])
    return _end_round(
        s, action, call="liar", caller=s.player, hand=hand, loser=s.player if stood else s.bidder
    )


def _lift_for_five(s: PokerState, action: int) -> PokerState:
    dice = s.dice
    if is_five_of_a_kind(dice):
        return _end_round(
            s, action, call="five", caller=s.player, hand=dice, loser=None, success=True
        )
    return s.advance(
        action,
        phase=Phase.KEEP,
        holder=s.player,
        cup=(),
        outside=dice,
        lifted=dice,
        attempts=(),
        known=((),) * len(s.known),  # the cup is lifted: every die is in view
    )


def _end_round(
    s: PokerState,
    action: int,
    *,
    call: str,
    caller: int,
    hand: tuple[int, ...],
    loser: int | None,
    attempts: tuple[tuple[int, ...], ...] = (),
    success: bool | None = None,
    outside: tuple[int, ...] | None = None,
) -> PokerState:
    lives = list(s.lives)
    if loser is not None:
        lives[loser] -= 1
    result = PokerRoundResult(
        round=s.round,
        opener=s.opener,
        bid=ALL_BIDS[s.bid],
        bidder=s.bidder,
        call=call,
        caller=caller,
        hand=hand,
        loser=loser,
        lives=tuple(lives),
        next_opener=_next_opener(lives, caller if loser is None else loser),
        attempts=attempts,
        success=success,
    )
    results = (*s.results, result)
    next_opener = result.next_opener
    if next_opener is None:
        return s.advance(
            action,
            phase=Phase.OVER,
            player=TERMINAL,
            lives=tuple(lives),
            results=results,
            winner=next(p for p, k in enumerate(lives) if k > 0),
            cup=(),
            outside=s.dice if outside is None else outside,
            pending=(),
            attempts=attempts,
            known=((),) * len(s.known),
        )
    return s.advance(
        action,
        lives=tuple(lives),
        round=s.round + 1,
        round_start=len(s) + 1,
        results=results,
        **_new_round(next_opener, len(lives)),
    )


#: Each phase's step.
_MOVES: dict[Phase, Callable[[PokerState, int], PokerState]] = {
    Phase.ROLL: _roll,
    Phase.BID: _bid,
    Phase.PASS: _pass,
    Phase.RESPOND: _respond,
    Phase.ARRANGE: _arrange,
    Phase.SHAKE: _shake,
    Phase.REROLL: _reroll,
    Phase.KEEP: _keep,
    Phase.FIVE_ROLL: _five_roll,
}


def initial_state(game: PokerGame) -> PokerState:
    """The first state of ``game``: Player One's roll is due."""
    n = game.num_players
    opener = game.opener or 0
    return PokerState(
        game=game,
        lives=(game.rules.lives,) * n,
        round=0,
        round_start=0,
        results=(),
        winner=None,
        _log=None,
        _n=0,
        **_new_round(opener, n),
    )


def _new_round(opener: int, n: int) -> dict[str, Any]:
    """The fields that start a round of ``n`` seats: Player One's (``opener``) roll is due."""
    return {
        "phase": Phase.ROLL,
        "player": CHANCE,
        "opener": opener,
        "direction": 0,
        "holder": opener,
        "cup": (),
        "outside": (),
        "bid": -1,
        "bidder": -1,
        "bids": (),
        "passed": (None,) * n,
        "known": ((),) * (n + 1),  # every seat, then everyone
        "pending": (),
        "attempts": (),
        "lifted": (),
    }


# -------------------------------------------------------------------------------- views
def make_view(state: PokerState, player: int) -> PokerView:
    """Build ``player``'s view of ``state``; -1 builds a spectator's view."""
    game = state.game
    seat = 0 <= player < game.num_players
    return PokerView(
        **view_fields(state, player, state.round, state.opener),
        lives=state.lives,
        direction=state.direction,
        holder=state.holder,
        cup=state.cup if seat and state.sees_cup(player) else (),
        cup_count=len(state.cup),
        outside=state.outside,
        passed_cup=state.passed[player] if seat else None,
        known_cup=state.known[player if seat else -1],
        public_cup=state.known[-1],
        cup_known_by=tuple(
            p for p, k in enumerate(state.known[:-1]) if state.cup and len(k) == len(state.cup)
        ),
        bids=tuple((p, ALL_BIDS[b]) for p, b in state.bids),
        current_bid=state.current_bid,
        bidder=state.bidder,
        five_attempts=state.attempts,
    )


# ----------------------------------------------------------------------------- the game
def _in_range(action: int, base: int) -> tuple[int, ...] | None:
    if base <= action < base + NUM_MULTISETS:
        return MULTISETS[action - base]
    return None


def _faces_text(faces: Sequence[int]) -> str:
    return " ".join(format_face(f) for f in faces) if faces else "none"


def _parse_faces(text: str) -> tuple[int, ...]:
    t = text.replace(",", " ").strip()
    if t in ("", "none", "nothing", "-"):
        return ()
    try:
        return tuple(sorted(parse_face(x) for x in t.split()))
    except NotationError as e:
        raise IllegalActionError(str(e)) from None


class PokerGame(GameBase[PokerState]):
    """A poker-dice game: rules and seat names. Immutable; shared by any number of states.

    ``opener`` is Player One of the first round (seat 0 when not given).
    """

    family = "poker"  # the rule family's name (liarsdice.families finds it by this)
    rules: PokerRules

    def __init__(
        self,
        rules: PokerRules | None = None,
        players: int | Sequence[str] | None = None,
        *,
        opener: int | None = None,
    ) -> None:
        if rules is None:
            rules = POKER_PRESETS["poker-dice"]
        self._seat(rules, players, opener, (MIN_PLAYERS, MAX_PLAYERS))
        self.bids = ALL_BIDS
        self.num_bids = NUM_BIDS

    def _initial_state(self) -> PokerState:
        """The first opener's roll is due."""
        return initial_state(self)

    # ---------------------------------------------------------------- actions
    def bid_action(self, bid: PokerBid) -> int:
        """The action id of a bid."""
        return BID_BASE + BID_IDS[bid]

    def action_bid(self, action: int) -> PokerBid | None:
        """The bid an action makes, or None when it is not a bid."""
        if BID_BASE <= action < BID_BASE + NUM_BIDS:
            return ALL_BIDS[action - BID_BASE]
        return None

    def arrange_action(self, outside: Iterable[int]) -> int:
        """The action leaving the dice ``outside`` out of the cup (the rest go under it)."""
        return ARRANGE_BASE + multiset_index(outside)

    def action_arranged(self, action: int) -> tuple[int, ...] | None:
        """The outside dice of an arrange action, or None."""
        return _in_range(action, ARRANGE_BASE)

    def roll_action(self, shake: bool, outside: Iterable[int]) -> int:
        """The action (not) shaking the cup and rolling these outside dice in view."""
        return (SHAKE_BASE if shake else ROLL_BASE) + multiset_index(outside)

    def action_roll(self, action: int) -> tuple[bool, tuple[int, ...]] | None:
        """``(shake, outside dice rolled)`` of a roll action, or None."""
        ms = _in_range(action, ROLL_BASE)
        if ms is not None:
            return False, ms
        ms = _in_range(action, SHAKE_BASE)
        if ms is not None:
            return True, ms
        return None

    def keep_action(self, kept: Iterable[int]) -> int:
        """Five-of-a-kind challenge: the action keeping ``kept`` and re-rolling the rest."""
        return KEEP_BASE + multiset_index(kept)

    def action_kept(self, action: int) -> tuple[int, ...] | None:
        """The dice a keep action keeps, or None."""
        return _in_range(action, KEEP_BASE)

    def action_move(self, action: int) -> tuple[str, Any]:
        """A player's action as ``(kind, what)``: ``("liar", None)``, ``("accept", None)``,
        ``("left", None)``, ``("right", None)``, ``("bid", bid)``, ``("arrange", outside
        dice)``, ``("roll", (shake, dice rolled))`` or ``("keep", kept dice)``; what its
        notation (:meth:`action_to_string`) and the families' structured moves write."""
        fixed = {LIAR: "liar", ACCEPT: "accept", LEFT: "left", RIGHT: "right"}
        if action in fixed:
            return fixed[action], None
        decoders = (
            ("bid", self.action_bid),
            ("arrange", self.action_arranged),
            ("roll", self.action_roll),
            ("keep", self.action_kept),
        )
        for kind, decode in decoders:
            what = decode(action)
            if what is not None:
                return kind, what
        raise IllegalActionError(f"unknown action {action}")

    def action_to_string(self, action: int, player: int = 0) -> str:
        """Notation of an action: ``liar``, ``accept``, ``left``, ``pair K``, ``out K K``,
        ``shake``, ``shake reroll 9``, ``reroll 9 10``, ``no reroll``, ``keep Q Q``, and
        ``roll Q`` for a chance outcome (``player`` = -1)."""
        if player == CHANCE:
            return f"roll {format_face(action)}" if 1 <= action <= 6 else f"roll {action}"
        kind, what = self.action_move(action)
        if kind == "bid":
            return format_poker_bid(what)
        if kind == "arrange":
            return f"out {_faces_text(what)}"
        if kind == "roll":
            shake, dice = what
            if shake:
                return "shake" + (f" reroll {_faces_text(dice)}" if dice else "")
            return f"reroll {_faces_text(dice)}" if dice else "no reroll"
        if kind == "keep":
            return f"keep {_faces_text(what)}"
        return kind  # liar, accept, left, right: the word itself

    def string_to_action(self, text: str) -> int:
        """Parse :meth:`action_to_string` output (or a bid in words) back to an action."""
        t = " ".join(text.strip().lower().split())
        fixed = {"liar": LIAR, "accept": ACCEPT, "left": LEFT, "right": RIGHT}
        if t in fixed:
            return fixed[t]
        if t == "out" or t.startswith("out "):
            return self.arrange_action(_parse_faces(t[3:]))
        if t in ("no reroll", "stay"):
            return self.roll_action(False, ())
        if t == "shake" or t.startswith("shake "):
            rest = t[5:].strip()
            if rest.startswith("reroll"):
                rest = rest[6:]
            elif rest:
                raise IllegalActionError(f"can't read {text!r}: try 'shake reroll K 9'")
            return self.roll_action(True, _parse_faces(rest))
        if t.startswith("reroll "):
            return self.roll_action(False, _parse_faces(t[7:]))
        if t == "keep" or t.startswith("keep "):
            return self.keep_action(_parse_faces(t[4:]))
        try:
            return self.bid_action(parse_poker_bid(t))
        except NotationError as e:
            raise IllegalActionError(
                f"{e}; other moves: liar, accept, left, right, out K K, shake, "
                "shake reroll 9, reroll 9, no reroll, keep Q Q"
            ) from None
