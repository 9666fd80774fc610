"""The bidding-family game: rules + seats, precomputed tables, and action encoding.

Actions are integers (as in OpenSpiel) so that search and solvers stay fast; use
:meth:`Game.action_to_string` / :meth:`Game.string_to_action` for people.

>>> from liarsdice.core.rules import preset
>>> g = Game(preset("openspiel"))
>>> g.action_to_string(g.bid_action(Bid(2, 6)))
'2x6'
>>> g.string_to_action("liar") == LIAR
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from liarsdice.core.bid import Bid
from liarsdice.core.errors import IllegalActionError, RulesError
from liarsdice.core.ladder import BidSpace
from liarsdice.core.rules import MAX_PLAYERS, MIN_PLAYERS, Economy, Rules, ShowReroll, Stash

if TYPE_CHECKING:
    from liarsdice.core.state import State

# Player ids with a special meaning.
CHANCE = -1
TERMINAL = -4

# Player actions that are not bids.
LIAR = 0
EXACT = 1
NO_SHOW = 2  # 'before' show-and-reroll: decline to show after raising
BUY = 3  # Rich Man's Dice: buy a die
BID_BASE = 8
SHOW_BASE = 1 << 20  # show actions encode a multiset of faces, 6 bits per face
_SHOW_BITS = 6


def default_names(n: int) -> tuple[str, ...]:
    """Default seat names: ``p1``, ``p2``, ..."""
    return tuple(f"p{i + 1}" for i in range(n))


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


class Game:
    """A bidding-family game: rules, seat names and the precomputed bid space.

    A game is immutable and may be shared by any number of states.
    """

    family = "bidding"  # the rule family's name (liarsdice.families finds it by this)

    def __init__(
        self,
        rules: Rules,
        players: int | Sequence[str] | None = None,
        *,
        opener: int | None = None,
    ) -> None:
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
        self.start_dice = rules.start_dice(self.num_players)
        self.opener = opener
        stash = self.num_players if rules.stash is not Stash.NONE else 0
        self.max_quantity = (
            sum(self.start_dice) + stash + _bought_dice_bound(rules, self.num_players)
        )
        self.space = BidSpace(rules, self.max_quantity)
        self._root: State | None = None
        # Legal actions depend only on (bid, cap, mode, flags) unless dice can be shown or
        # bought; then they also depend on the hand, so nothing is cached.
        simple = rules.show_reroll is ShowReroll.OFF and rules.economy is not Economy.RICH_MAN
        self.legal_cache: dict[tuple[int, int, int, int], tuple[int, ...]] | None = (
            {} if simple else None
        )

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r}, {list(self.names)!r})"

    # ----------------------------------------------------------------- states
    def new_initial_state(self) -> State:
        """The state before anything happened (shared: states are immutable)."""
        if self._root is None:
            from liarsdice.core.state import initial_state

            self._root = initial_state(self)
        return self._root

    def replay(self, events: Iterable[tuple[int, int]]) -> State:
        """Rebuild a state from an event log of ``(player, action)`` pairs."""
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
        """The faces a show action shows (sorted), or None when it is not a show."""
        if action < SHOW_BASE:
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
        from liarsdice.notation.bids import parse_bid

        return self.bid_action(parse_bid(t, faces=self.rules.faces))
