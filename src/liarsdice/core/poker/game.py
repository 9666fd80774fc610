"""The poker-dice game: rules + seats, and the integer action encoding.

Actions are integers, as in the bidding family (:mod:`liarsdice.core.bidding.game`); use
:meth:`PokerGame.action_to_string` / :meth:`PokerGame.string_to_action` for people.

=====================  ===========================================================
action                 meaning
=====================  ===========================================================
``LIAR`` = 0           call the bid a lie: the cup is lifted and the hand read
``ACCEPT`` = 1         accept the bid (take the cup)
``LEFT`` = 2           Player One passes the cup left: play goes up the seats (+1)
``RIGHT`` = 3          Player One passes the cup right: play goes down the seats (-1)
``BID_BASE + i``       bid number ``i`` of :data:`~liarsdice.core.poker.hands.ALL_BIDS`
                       (8..469; a higher bid has a higher id)
``ARRANGE_BASE + m``   the holder leaves multiset ``m`` outside the cup, the rest under it
``ROLL_BASE + m``      no shake; roll the outside dice ``m`` in view (``m`` may be empty)
``SHAKE_BASE + m``     shake the cup (re-roll every die under it) and roll outside dice ``m``
``KEEP_BASE + m``      five-of-a-kind challenge: keep ``m``, re-roll the other dice
chance ``1..6``        a die comes up 9, 10, J, Q, K or A
=====================  ===========================================================

A multiset index ``m`` numbers every sorted tuple of faces 1..6 of length 0..5
(:data:`MULTISETS`, shortest first, then lexicographic; 462 of them).

>>> g = PokerGame(POKER_PRESETS["poker-dice"], 3)
>>> g.action_to_string(g.bid_action(parse_poker_bid("pair K")))
'pair K'
>>> two_pair = g.bid_action(parse_poker_bid("two pair Q 10"))
>>> g.string_to_action("two pairs queens and tens") == two_pair
True
>>> moves = (LIAR, ACCEPT, g.arrange_action((5, 5)), g.roll_action(True, ()))
>>> [g.action_to_string(a) for a in moves]
['liar', 'accept', 'out K K', 'shake']
>>> g.string_to_action("shake reroll 9") == g.roll_action(True, (1,))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from liarsdice.core.common import CHANCE, TERMINAL, GameBase
from liarsdice.core.errors import IllegalActionError, NotationError
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
    PokerBid,
    format_face,
    format_poker_bid,
    parse_face,
    parse_poker_bid,
)
from liarsdice.core.poker.rules import MAX_PLAYERS, MIN_PLAYERS, POKER_PRESETS, PokerRules
from liarsdice.core.poker.state import PokerState, initial_state


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


__all__ = [
    "ACCEPT",
    "ARRANGE_BASE",
    "BID_BASE",
    "CHANCE",
    "KEEP_BASE",
    "LEFT",
    "LIAR",
    "MULTISETS",
    "NUM_MULTISETS",
    "RIGHT",
    "ROLL_BASE",
    "SHAKE_BASE",
    "TERMINAL",
    "PokerGame",
    "multiset_index",
]
