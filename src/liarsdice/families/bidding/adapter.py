"""The bidding family's adapter for the research bindings (see
:mod:`liarsdice.families.adapter`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import (
    Economy,
    ExactCall,
    FirstOpener,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
)
from liarsdice.families.adapter import Adapter
from liarsdice.families.base import own
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.families.sizes import CommandLineRules, Sizes

__all__ = ["BiddingAdapter"]


class BiddingAdapter(Adapter):
    """The bidding family (:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`)."""

    game: Game
    encoding: BiddingEncoding

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.encoding = enc = BiddingEncoding(game)
        rules = game.rules
        P = self.num_players
        self.num_actions = enc.num_actions
        self.observation_size = enc.size
        self.info_size = enc.info_size
        self.max_chance_outcomes = max(rules.faces + 1, P)  # faces 1..F, or a random seat
        if rules.scoring is Scoring.ROOM:
            # -1 for going out, then -1 more when another seat's bid stands; +1 for a bid
            self.min_utility, self.max_utility, self.zero_sum = -2.0, 1.0, False
        else:
            self.min_utility, self.max_utility, self.zero_sum = -1.0 / (P - 1), 1.0, True
        self._single_round = (
            rules.scoring is Scoring.SINGLE_ROUND
            and (rules.first_opener is FirstOpener.GIVEN or game.opener is not None)
            and rules.show_reroll is ShowReroll.OFF
            and rules.stash is Stash.NONE
        )
        # per bid at most: the other seats' calls, a show (and no-show), a die bought
        per_bid = P + (2 if rules.show_reroll is not ShowReroll.OFF else 0)
        per_bid += 1 if rules.economy is Economy.RICH_MAN else 0
        self.max_game_length = self.rounds_bound() * (enc.num_bids * per_bid + P)

    def observation_bounds(self) -> tuple[float, float]:
        rules = self.game.rules
        low = -2.0 if rules.scoring is Scoring.ROOM else 0.0
        high = self.game.max_quantity  # dice, counts, the pile
        if rules.economy is not Economy.NONE:
            high = max(high, self.num_players * rules.chips)  # money only changes hands
        return low, float(high)

    def rounds_bound(self) -> int:
        """Rounds a game lasts at most: each costs a die, but a right calza wins one back,
        so with calza this is a generous practical bound (three times the dice), not a
        hard one."""
        dice = sum(self.game.start_dice)
        return dice * (3 if self.game.rules.exact is ExactCall.CALZA else 1) + 1

    @classmethod
    def rules(
        cls, family: CommandLineRules, preset: str, options: Mapping[str, str], sizes: Sizes
    ) -> Any:
        base = own(family.rules_from_cli(preset, {}, Sizes()), Rules)
        changed = dict(options)
        if sizes.faces is not None and "wild" not in changed and base.wild == base.faces:
            changed["wild"] = str(sizes.faces)  # the highest face stays wild (OpenSpiel)
        return family.rules_from_cli(preset, changed, sizes)

    def to_action(self, index: int) -> int:
        return self.encoding.to_action(index)

    def to_index(self, action: int) -> int:
        return self.encoding.to_index(action)

    def recall_key(self, state: Any, player: int) -> str:
        """Single-round games with a given opener: only the player's own dice are observed
        beyond the moves (the round's roll is the only chance event), so they make the key,
        without building a view."""
        if self._single_round:
            hand = "" if state.is_chance_node() else "".join(map(str, state.hand(player)))
            return f"mine {hand or '-'}"
        return self.observation_string(state, player)

    def observation_string(self, state: Any, player: int) -> str:
        v = state.view(player)
        parts = [
            f"p{player}",
            f"round {v.round}",
            f"{v.phase}",
            f"opener {v.opener}",
            f"to_move {v.to_move}",
            "dice " + ",".join(map(str, v.dice_counts)),
            "mine " + ("".join(map(str, v.my_dice)) or "-"),
        ]
        if v.current_bid is not None:
            parts.append(f"bid {v.current_bid} by {v.bidder}")
        if any(v.shown):
            parts.append("shown " + "/".join("".join(map(str, s)) or "-" for s in v.shown))
        if v.stash is not None:
            parts.append("stash " + ("".join(map(str, v.stash)) or "-"))
        if v.callers:
            parts.append("callers " + ",".join(map(str, v.callers)))
        if v.palifico:
            parts.append("palifico")
        enc = self.encoding
        if "must_raise" in enc.slices and enc.must_raise(state, v):
            parts.append("must-raise")
        if "scores" in enc.slices:
            parts.append("scores " + ",".join(map(str, v.scores)))
        if "chips" in enc.slices:
            parts.append(f"chips {','.join(map(str, v.chips))} pots {v.round_pot},{v.game_pot}")
        if "pile" in enc.slices:
            parts.append(f"pile {v.pile}")
        if v.results:
            last = v.results[-1]
            hands = "/".join("".join(map(str, h)) or "-" for h in last.hands)
            parts.append(f"revealed {hands}")
        return " ".join(parts)
