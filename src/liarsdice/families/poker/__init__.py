"""The poker-dice family (rules source 004, second half): one cup of five poker dice passed around,
bids of poker hands, lives."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from liarsdice.bots import BotTable, PokerBayesBot, PokerExpertBot, PokerProbBot, PokerRandomBot
from liarsdice.core.api import GameAPI, ResultAPI, RulesAPI, StateAPI
from liarsdice.core.errors import RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.core.poker.game import PokerGame
from liarsdice.core.poker.hands import HAND_SIZE, PokerBid, format_face, hand_bid
from liarsdice.core.poker.rules import POKER_OPTIONS, POKER_PRESETS, PokerRules, poker_preset
from liarsdice.core.poker.state import PokerRoundResult, PokerState
from liarsdice.families.base import Family, JSONObject, Records, Sizes, own
from liarsdice.families.poker import plain as poker_plain
from liarsdice.families.replay_text import poker_round_line
from liarsdice.families.terminal import GameTerminal
from liarsdice.i18n import _
from liarsdice.notation.poker import record as poker_record
from liarsdice.notation.poker import text as poker_text
from liarsdice.notation.text_common import option_text

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter


class PokerFamily(Family):
    """Poker hands bid on one set of five poker dice under a cup (``liarsdice.core.poker``)."""

    name = "poker"

    presets: Mapping[str, PokerRules] = POKER_PRESETS
    rules_type = PokerRules
    options: OptionCodec = POKER_OPTIONS

    # ------------------------------------------------------------------------------ rules
    def rules(
        self, preset: str, options: Mapping[str, Any], players: int | None = None
    ) -> PokerRules:
        overrides = self.room_options(options, players)
        return poker_preset(preset.strip().lower(), **overrides)

    def rules_from_cli(self, preset: str, options: Mapping[str, str], sizes: Sizes) -> PokerRules:
        players, dice, faces = sizes
        if faces is not None:
            raise RulesError("poker dice have six faces (9, 10, J, Q, K, A): drop --faces")
        overrides = POKER_OPTIONS.read_text(options)
        if players is not None:
            overrides["players"] = players
        if dice is not None:
            overrides["dice"] = POKER_OPTIONS.from_text("dice", dice)
        return poker_preset(preset.strip().lower(), **overrides)

    def rules_json(self, rules: RulesAPI) -> JSONObject:
        own(rules, PokerRules)
        return {**rules.options(), "family": "poker", "description": self.description(rules)}

    def rules_listing(self) -> list[str]:
        lines: list[str] = []
        for rules in POKER_PRESETS.values():
            lines.append(f"{rules.name}: {self.description(rules)}")
            options = (
                f"lives={rules.lives}, dice={rules.dice}, five_of_a_kind_rule="
                f"{option_text(rules.five_of_a_kind_rule, command_line=True)}"
            )
            listed = _("(poker-dice family; options: lives, dice, five_of_a_kind_rule)")
            lines.append(f"  {options} {listed}")
        return lines

    plain = poker_plain

    # ------------------------------------------------------------------------------- games
    def new_game(
        self, rules: RulesAPI, names: Sequence[str], opener: int | None = None
    ) -> PokerGame:
        return PokerGame(own(rules, PokerRules), list(names), opener=opener)

    # ----------------------------------------------------------------------------- records
    records = Records(poker_record, poker_text, PokerGame, PokerState, PokerRoundResult)

    def owns_record(self, data: Mapping[str, object]) -> bool:
        return data.get("rules") in POKER_PRESETS

    def round_line(self, number: int, summary: Mapping[str, Any]) -> str:
        return poker_round_line(number, summary)

    # -------------------------------------------------------------------------- the server
    def reveal_count(self, result: ResultAPI) -> int:
        return len(own(result, PokerRoundResult).hand)  # the hand under the cup, die by die

    def view_frame(self, state: StateAPI, seat: int) -> JSONObject:
        """The core's view, with what a page shows structured: ``current_bid_move``, each
        result's ``bid_move`` and ``reading_move`` (the claim and the hand's reading), and
        ``hand_claim``: the claim the viewer's five dice make while it sees them all (under
        the cup and outside it: the seat's own information), else null."""
        view = own(state, PokerState).view(seat)
        out = view.to_dict()
        bid = view.current_bid
        out["current_bid_move"] = None if bid is None else _claim_json(bid)
        dice = (*view.cup, *view.outside)
        known = view.cup and len(dice) == HAND_SIZE
        out["hand_claim"] = _claim_json(hand_bid(dice)) if known else None
        for result, frame in zip(view.results, out["results"], strict=True):
            frame["bid_move"] = _claim_json(result.bid)
            frame["reading_move"] = _claim_json(result.reading)
        return out

    def move_json(self, game: GameAPI, text: str) -> JSONObject:
        """``pair K A`` -> ``{"kind": "claim", "category": "pair", "ranks": ["K"], "kickers":
        ["A"]}``; ``liar``: ``{"kind": "call", "call": "liar"}``; ``accept``: ``{"kind":
        "accept"}``; ``left``: ``{"kind": "pass", "direction": "left"}``; ``out K K``:
        ``{"kind": "arrange", "outside": ["K", "K"]}``; ``shake reroll 9``: ``{"kind": "roll",
        "shake": true, "dice": ["9"]}``; ``keep Q Q``: ``{"kind": "keep", "dice": ["Q",
        "Q"]}`` (faces as their symbols, as the views write them)."""
        own(game, PokerGame)  # (the notation is the same under every rules: one reading)
        return {k: list(v) if isinstance(v, list) else v for k, v in _move_of(text).items()}

    # -------------------------------------------------------------------------------- bots
    bots = BotTable(levels=(PokerRandomBot, PokerProbBot, PokerBayesBot, PokerExpertBot))

    # ---------------------------------------------------------------- the terminal front end
    def terminal(self, game: GameAPI, *, hot_seat: bool = False) -> GameTerminal:
        from liarsdice.families.poker.terminal import PokerTerminal

        return PokerTerminal(own(game, PokerGame), hot_seat=hot_seat)

    # ------------------------------------------------------------------- the research bindings
    def adapter_type(self) -> type[Adapter]:
        from liarsdice.families.poker.adapter import PokerAdapter  # NumPy, on first use

        return PokerAdapter


_NOTATION = PokerGame(poker_preset("poker-dice"))
"""A game to read notation with: poker dice's actions and their notation are the same under
every rules (``core/poker/actions.py``)."""


@functools.lru_cache(maxsize=4096)
def _move_of(text: str) -> JSONObject:
    """A move's notation read once (the same texts come back in every frame); shared by the
    cache: :meth:`PokerFamily.move_json` hands out copies."""
    game = _NOTATION
    kind, what = game.action_move(game.string_to_action(text))
    if kind == "bid":
        return _claim_json(what)
    if kind == "arrange":
        return {"kind": "arrange", "outside": _faces(what)}
    if kind == "roll":
        return {"kind": "roll", "shake": what[0], "dice": _faces(what[1])}
    if kind == "keep":
        return {"kind": "keep", "dice": _faces(what)}
    if kind == "liar":
        return {"kind": "call", "call": "liar"}
    if kind == "accept":
        return {"kind": "accept"}
    return {"kind": "pass", "direction": kind}  # left, right


def _faces(dice: Sequence[int]) -> list[str]:
    return [format_face(f) for f in dice]


def _claim_json(bid: PokerBid) -> JSONObject:
    """A claim structured: its category as the notation names it, its ranks and its other
    dice (a straight's rank: its top face, K low or A high)."""
    return {
        "kind": "claim",
        "category": bid.category.name.lower().replace("_", " "),
        "ranks": _faces(bid.ranks),
        "kickers": _faces(bid.kickers),
    }


POKER = PokerFamily()

__all__ = ["POKER", "PokerFamily"]
