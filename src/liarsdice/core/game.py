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

from liarsdice.core.actions import BID_BASE, BUY, EXACT, LIAR, NO_SHOW, SHOW_BASE
from liarsdice.core.actions import SHOW_BITS as _SHOW_BITS
from liarsdice.core.bid import Bid, read_bid
from liarsdice.core.common import CHANCE, TERMINAL, GameBase
from liarsdice.core.errors import IllegalActionError
from liarsdice.core.ladder import BidSpace
from liarsdice.core.rules import MAX_PLAYERS, MIN_PLAYERS, Economy, Rules, ShowReroll, Stash
from liarsdice.core.state import State, initial_state

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

    def _initial_state(self) -> State:
        return initial_state(self)

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
