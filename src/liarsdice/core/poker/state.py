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
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from liarsdice.core.common import CHANCE, TERMINAL, StateBase
from liarsdice.core.errors import IllegalActionError
from liarsdice.core.poker import actions as act
from liarsdice.core.poker.hands import (
    ALL_BIDS,
    NUM_BIDS,
    Category,
    PokerBid,
    format_face,
    format_poker_bid,
    hand_bid,
    is_five_of_a_kind,
    satisfies,
)
from liarsdice.core.poker.view import PokerView, make_view

if TYPE_CHECKING:
    from liarsdice.core.poker.game import PokerGame

FIVE_ROLLS = 3  # rolls allowed to make five of a kind after accepting a five-of-a-kind bid


class Phase(IntEnum):
    """What the state is waiting for."""

    ROLL = 0  # chance: Player One's five dice, under the cup
    BID = 1  # the holder bids (Player One opening: any bid, junk included)
    PASS = 2  # Player One passes the cup left or right (sets the round's direction)
    RESPOND = 3  # the receiver calls liar or accepts
    ARRANGE = 4  # the accepter splits the dice between outside and under the cup
    SHAKE = 5  # the accepter decides whether to shake the cup and which outside dice to roll
    REROLL = 6  # chance: the shaken cup dice (first), then the outside dice rolled in view
    KEEP = 7  # five-of-a-kind challenge: which dice to keep before the next roll
    FIVE_ROLL = 8  # chance: the challenge's re-rolled dice
    OVER = 9


@dataclass(frozen=True, slots=True)
class PokerRoundResult:
    """How a round ended. All of it is public once the cup is lifted."""

    round: int
    opener: int
    bid: PokerBid  # the bid called (or accepted, in a five-of-a-kind challenge)
    bidder: int
    call: str  # "liar", or "five": a five-of-a-kind bid accepted under five_of_a_kind_rule
    caller: int  # who called liar, or who accepted the five-of-a-kind bid
    hand: tuple[int, ...]  # the five dice when the cup was lifted (sorted)
    loser: int | None  # who lost a life (None: the five-of-a-kind challenge succeeded)
    lives: tuple[int, ...]  # every seat's lives after the round
    next_opener: int | None  # Player One of the next round (None when the game is over)
    attempts: tuple[tuple[int, ...], ...] = ()  # five-of-a-kind challenge: dice after each roll
    success: bool | None = None  # five-of-a-kind challenge outcome (None for a liar call)

    @property
    def eliminated(self) -> tuple[int, ...]:
        """The seat this round put out of the game (its last life lost), if any."""
        out = self.loser is not None and self.lives[self.loser] == 0
        return (self.loser,) if out and self.loser is not None else ()

    @property
    def reading(self) -> PokerBid:
        """The best reading of :attr:`hand`."""
        return hand_bid(self.hand)

    @property
    def stood(self) -> bool:
        """Whether :attr:`hand` satisfies the bid."""
        return satisfies(self.hand, self.bid)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (bids and dice in notation)."""
        return {
            "round": self.round,
            "opener": self.opener,
            "bid": format_poker_bid(self.bid),
            "bidder": self.bidder,
            "call": self.call,
            "caller": self.caller,
            "hand": [format_face(d) for d in self.hand],
            "reading": format_poker_bid(self.reading),
            "stood": self.stood,
            "loser": self.loser,
            "lives": list(self.lives),
            "eliminated": list(self.eliminated),
            "next_opener": self.next_opener,
            "attempts": [[format_face(d) for d in a] for a in self.attempts],
            "success": self.success,
        }


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


def _faces(dice: tuple[int, ...]) -> str:
    return " ".join(format_face(d) for d in dice) if dice else "none"


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
        if self.game is not other.game or self._n != other._n:
            return False
        return self._log is other._log or self.history() == other.history()

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
        game = self.game
        phase = self.phase
        if phase is Phase.OVER:
            return "the game is over"
        if self.player == CHANCE:
            return f"a die roll is due here: 1..6 (9, 10, J, Q, K, A), not {action}"
        try:
            what = game.action_to_string(action, self.player)
        except IllegalActionError:
            return f"unknown action {action}"
        cur = self.current_bid
        dice = self.dice
        if phase is Phase.BID:
            bid = game.action_bid(action)
            if bid is None:
                if cur is None:
                    return f"bid a poker hand now (any bid, junk included), not {what!r}"
                return f"bid a poker hand higher than {cur} now, not {what!r}"
            if bid.category is Category.JUNK:
                return "junk may only be bid by Player One to open the round"
            legal = self.legal_actions()
            least = ", ".join(game.action_to_string(a) for a in legal[:4])
            return f"{bid} does not beat {cur}; least legal bids: {least}"
        if phase is Phase.PASS:
            return "pass the cup left or right (this sets the round's direction)"
        if phase is Phase.RESPOND:
            if action == act.ACCEPT:
                return f"{cur} is the top bid: nothing beats it, so you must call liar"
            return f"first accept {cur} or call liar, not {what!r}"
        if phase in _CHOOSE_DICE:
            how, all_five = _CHOOSE_DICE[phase]
            arranging = phase is Phase.ARRANGE
            chosen = game.action_arranged(action) if arranging else game.action_kept(action)
            if chosen is None:
                return f"{how} (the dice: {_faces(dice)})"
            if len(chosen) == 5:
                return all_five
            return f"{_faces(chosen)} are not among the dice {_faces(dice)}"
        if phase is Phase.SHAKE:
            roll = game.action_roll(action)
            if roll is None:
                return (
                    "decide whether to shake the cup and which outside dice to roll, e.g. "
                    "'shake', 'shake reroll K', 'reroll K', 'no reroll'"
                )
            return f"you can only roll dice that are outside the cup: {_faces(self.outside)}"
        return f"{what!r} is not legal here"

    # --------------------------------------------------------------- applying
    def _next(self, action: int, **changes: Any) -> PokerState:
        return dataclasses.replace(
            self, _log=(self._log, self.player, action), _n=self._n + 1, **changes
        )

    def apply_action(self, action: int) -> PokerState:
        """The state after the current player (or chance) takes ``action``.

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
        if self.player == CHANCE:
            return self._apply_chance(action)
        player = self.player
        if phase is Phase.BID:
            bid = action - act.BID_BASE
            bids = (*self.bids, (player, bid))
            if self.bid < 0 and len(self.active_players()) > 2:
                return self._next(action, phase=Phase.PASS, bid=bid, bidder=player, bids=bids)
            direction = self.direction or 1
            return self._pass_cup(action, direction, bid=bid, bidder=player, bids=bids)
        if phase is Phase.PASS:
            return self._pass_cup(action, 1 if action == act.LEFT else -1)
        if phase is Phase.RESPOND:
            if action == act.LIAR:
                return self._call_liar(action)
            if ALL_BIDS[self.bid].category is Category.FIVE and self.game.rules.five_of_a_kind_rule:
                return self._lift_for_five(action)
            known = self._knowing(player, self.cup)  # the accepter looks under the cup
            return self._next(action, phase=Phase.ARRANGE, holder=player, known=known)
        if phase is Phase.ARRANGE:
            out = self.game.action_arranged(action) or ()
            cup = _minus(self.dice, out)
            known = tuple(
                cup if p == player else _still_known(k, self.outside, out)
                for p, k in enumerate(self.known)
            )
            return self._next(action, phase=Phase.SHAKE, cup=cup, outside=out, known=known)
        if phase is Phase.SHAKE:
            shake, rolled_out = self.game.action_roll(action) or (False, ())
            if not shake and not rolled_out:
                return self._next(action, phase=Phase.BID)
            known = ((),) * len(self.known) if shake else self.known  # nobody knows a shaken cup
            return self._next(
                action,
                phase=Phase.REROLL,
                player=CHANCE,
                pending=(shake, rolled_out, ()),
                known=known,
            )
        # Phase.KEEP
        kept = self.game.action_kept(action) or ()
        return self._next(action, phase=Phase.FIVE_ROLL, player=CHANCE, pending=(kept, ()))

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

    def _knowing(self, seat: int, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """``known`` with ``seat`` knowing ``dice`` under the cup (it looked)."""
        return tuple(dice if p == seat else k for p, k in enumerate(self.known))

    def _to_holder(self, action: int, phase: Phase, **changes: Any) -> PokerState:
        """The dice rolled for the holder are all in: the holder acts next, in ``phase``."""
        return self._next(action, phase=phase, player=self.holder, pending=(), **changes)

    def _pass_cup(self, action: int, direction: int, **changes: Any) -> PokerState:
        holder = self.holder
        passed = list(self.passed)
        passed[holder] = self.cup
        n = len(self.lives)
        receiver = (holder + direction) % n
        while self.lives[receiver] == 0:
            receiver = (receiver + direction) % n
        return self._next(
            action,
            phase=Phase.RESPOND,
            player=receiver,
            direction=direction,
            passed=tuple(passed),
            **changes,
        )

    def _apply_chance(self, action: int) -> PokerState:
        phase = self.phase
        if phase is Phase.ROLL:
            rolled = (*self.pending, action)
            if len(rolled) < 5:
                return self._next(action, pending=rolled)
            cup = tuple(sorted(rolled))
            return self._next(
                action,
                phase=Phase.BID,
                player=self.opener,
                cup=cup,
                pending=(),
                known=self._knowing(self.opener, cup),  # Player One looks under the cup
            )
        if phase is Phase.REROLL:
            shake, rolled_out, rolled = self.pending
            rolled = (*rolled, action)
            k = len(self.cup) if shake else 0
            if len(rolled) < k + len(rolled_out):
                return self._next(action, pending=(shake, rolled_out, rolled))
            cup = tuple(sorted(rolled[:k])) if shake else self.cup
            outside = tuple(sorted(_minus(self.outside, rolled_out) + rolled[k:]))
            return self._to_holder(
                action,
                Phase.BID,
                cup=cup,
                outside=outside,
                known=self._knowing(self.holder, cup),  # the holder looks again before bidding
            )
        # Phase.FIVE_ROLL
        kept, rolled = self.pending
        rolled = (*rolled, action)
        if len(kept) + len(rolled) < 5:
            return self._next(action, pending=(kept, rolled))
        dice = tuple(sorted(kept + rolled))
        attempts = (*self.attempts, dice)
        if is_five_of_a_kind(dice) or len(attempts) >= FIVE_ROLLS:
            return self._end_round(
                action,
                call="five",
                caller=self.holder,
                hand=self.lifted,
                loser=None if is_five_of_a_kind(dice) else self.holder,
                attempts=attempts,
                success=is_five_of_a_kind(dice),
                outside=dice,
            )
        return self._to_holder(action, Phase.KEEP, outside=dice, attempts=attempts)

    def _call_liar(self, action: int) -> PokerState:
        hand = self.dice
        stood = satisfies(hand, ALL_BIDS[self.bid])
        return self._end_round(
            action,
            call="liar",
            caller=self.player,
            hand=hand,
            loser=self.player if stood else self.bidder,
        )

    def _lift_for_five(self, action: int) -> PokerState:
        dice = self.dice
        if is_five_of_a_kind(dice):
            return self._end_round(
                action, call="five", caller=self.player, hand=dice, loser=None, success=True
            )
        return self._next(
            action,
            phase=Phase.KEEP,
            holder=self.player,
            cup=(),
            outside=dice,
            lifted=dice,
            attempts=(),
            known=((),) * len(self.known),  # the cup is lifted: every die is in view
        )

    def _end_round(
        self,
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
        lives = list(self.lives)
        if loser is not None:
            lives[loser] -= 1
        bid = ALL_BIDS[self.bid]
        result = PokerRoundResult(
            round=self.round,
            opener=self.opener,
            bid=bid,
            bidder=self.bidder,
            call=call,
            caller=caller,
            hand=hand,
            loser=loser,
            lives=tuple(lives),
            next_opener=_next_opener(lives, caller if loser is None else loser),
            attempts=attempts,
            success=success,
        )
        results = (*self.results, result)
        next_opener = result.next_opener
        if next_opener is None:
            return self._next(
                action,
                phase=Phase.OVER,
                player=TERMINAL,
                lives=tuple(lives),
                results=results,
                winner=next(p for p, k in enumerate(lives) if k > 0),
                cup=(),
                outside=self.dice if outside is None else outside,
                pending=(),
                attempts=attempts,
                known=((),) * len(self.known),
            )
        return self._next(
            action,
            lives=tuple(lives),
            round=self.round + 1,
            round_start=self._n + 1,
            results=results,
            **_new_round(next_opener, len(lives)),
        )

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


__all__ = ["FIVE_ROLLS", "Phase", "PokerRoundResult", "PokerState", "initial_state"]
