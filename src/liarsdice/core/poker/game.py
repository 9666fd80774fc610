"""The poker-dice game: rules + seats, and the integer action encoding.

Actions are integers, as in the bidding family (:mod:`liarsdice.core.game`); use
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
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from liarsdice.core.errors import IllegalActionError, NotationError, RulesError
from liarsdice.core.game import CHANCE, TERMINAL
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

if TYPE_CHECKING:
    from liarsdice.core.poker.state import PokerState

LIAR = 0
ACCEPT = 1
LEFT = 2
RIGHT = 3
BID_BASE = 8
ARRANGE_BASE = 1000
ROLL_BASE = 2000
SHAKE_BASE = 2500
KEEP_BASE = 3000

MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    ms for k in range(6) for ms in combinations_with_replacement(range(1, 7), k)
)
MULTISET_IDS: dict[tuple[int, ...], int] = {ms: i for i, ms in enumerate(MULTISETS)}
NUM_MULTISETS = len(MULTISETS)


def default_names(n: int) -> tuple[str, ...]:
    """Default seat names: ``p1``, ``p2``, ..."""
    return tuple(f"p{i + 1}" for i in range(n))


def multiset_index(faces: Iterable[int]) -> int:
    """The index of a multiset of faces (any order) in :data:`MULTISETS`."""
    ms = tuple(sorted(faces))
    try:
        return MULTISET_IDS[ms]
    except KeyError:
        raise IllegalActionError(
            f"{list(ms)} is not up to five faces 1..6 (9, 10, J, Q, K, A)"
        ) from None


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


class PokerGame:
    """A poker-dice game: rules and seat names. Immutable; shared by any number of states.

    ``opener`` is Player One of the first round (seat 0 when not given).
    """

    family = "poker"  # the rule family's name (liarsdice.families finds it by this)

    def __init__(
        self,
        rules: PokerRules | None = None,
        players: int | Sequence[str] | None = None,
        *,
        opener: int | None = None,
    ) -> None:
        if rules is None:
            rules = POKER_PRESETS["poker-dice"]
        if players is None:
            players = rules.players
        names = default_names(players) if isinstance(players, int) else tuple(players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise RulesError(f"a game needs {MIN_PLAYERS}..{MAX_PLAYERS} players, not {len(names)}")
        if len(set(names)) != len(names) or any(not n for n in names):
            raise RulesError("player names must be distinct and non-empty")
        if opener is not None and not 0 <= opener < len(names):
            raise RulesError(f"opener must be a seat 0..{len(names) - 1}")
        self.rules = rules
        self.names = names
        self.num_players = len(names)
        self.opener = opener
        self.bids = ALL_BIDS
        self.num_bids = NUM_BIDS
        self._root: PokerState | None = None

    def __repr__(self) -> str:
        return f"PokerGame({self.rules.name!r}, {list(self.names)!r})"

    # ----------------------------------------------------------------- states
    def new_initial_state(self) -> PokerState:
        """The state before anything happened: the first opener's roll is due."""
        if self._root is None:
            from liarsdice.core.poker.state import initial_state

            self._root = initial_state(self)
        return self._root

    def replay(self, events: Iterable[tuple[int, int]]) -> PokerState:
        """Rebuild a state from an event log of ``(player, action)`` pairs (-1 = chance)."""
        state = self.new_initial_state()
        for player, action in events:
            state = state.apply_event(player, action)
        return state

    def seat(self, name: str) -> int:
        """The seat of a player by name."""
        try:
            return self.names.index(name)
        except ValueError:
            raise IllegalActionError(f"no player named {name!r}") from None

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

    def action_to_string(self, action: int, player: int = 0) -> str:
        """Notation of an action: ``liar``, ``accept``, ``left``, ``pair K``, ``out K K``,
        ``shake``, ``shake reroll 9``, ``reroll 9 10``, ``no reroll``, ``keep Q Q``, and
        ``roll Q`` for a chance outcome (``player`` = -1)."""
        if player == CHANCE:
            return f"roll {format_face(action)}" if 1 <= action <= 6 else f"roll {action}"
        fixed = {LIAR: "liar", ACCEPT: "accept", LEFT: "left", RIGHT: "right"}
        if action in fixed:
            return fixed[action]
        bid = self.action_bid(action)
        if bid is not None:
            return format_poker_bid(bid)
        out = self.action_arranged(action)
        if out is not None:
            return f"out {_faces_text(out)}"
        roll = self.action_roll(action)
        if roll is not None:
            shake, dice = roll
            if shake:
                return "shake" + (f" reroll {_faces_text(dice)}" if dice else "")
            return f"reroll {_faces_text(dice)}" if dice else "no reroll"
        kept = self.action_kept(action)
        if kept is not None:
            return f"keep {_faces_text(kept)}"
        raise IllegalActionError(f"unknown action {action}")

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
