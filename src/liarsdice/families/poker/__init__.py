"""The poker-dice family (rules source 004, second half): one cup of five poker dice passed around,
bids of poker hands, lives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from liarsdice.bots import BotTable, PokerBayesBot, PokerExpertBot, PokerProbBot, PokerRandomBot
from liarsdice.core.api import GameAPI, ResultAPI, RulesAPI, StateAPI
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.core.poker.game import PokerGame
from liarsdice.core.poker.rules import POKER_OPTIONS, POKER_PRESETS, PokerRules, poker_preset
from liarsdice.core.poker.state import PokerRoundResult, PokerState
from liarsdice.families.base import Family, JSONObject, LoadedRecord, Sizes, own, own_record
from liarsdice.families.terminal import GameTerminal
from liarsdice.notation.common import Source
from liarsdice.notation.grammar import clause, possessive
from liarsdice.notation.poker import record as record_module
from liarsdice.notation.poker import text as text_module
from liarsdice.notation.text_common import option_text

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter

DESCRIPTION = (
    "Poker dice: one set of five poker dice and a cup go round; "
    "claim a poker hand that beats the last claim, or call liar."
)


class PokerFamily(Family):
    """Poker hands bid on one set of five poker dice under a cup (``liarsdice.core.poker``).

    The methods take the protocol types of :class:`Family` and narrow them to this engine's
    (:class:`PokerRules`, :class:`PokerGame`, :class:`PokerState`) with :func:`own`.
    """

    name = "poker"

    presets: Mapping[str, PokerRules] = POKER_PRESETS
    rules_type = PokerRules
    options: OptionCodec = POKER_OPTIONS

    # ------------------------------------------------------------------------------ rules
    def rules(
        self, preset: str, options: Mapping[str, Any], players: int | None = None
    ) -> PokerRules:
        for k in options:
            if k.strip().replace("-", "_") in ("players", "name"):
                raise RulesError(f"option {k!r} is set by the room, not by an option")
        overrides = POKER_OPTIONS.read_json(options, text_strings=True)
        if players is not None:
            overrides["players"] = players
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
        return {**own(rules, PokerRules).options(), "family": "poker", "description": DESCRIPTION}

    def rules_listing(self) -> list[str]:
        lines: list[str] = []
        for rules in POKER_PRESETS.values():
            lines.append(f"{rules.name}: {DESCRIPTION}")
            lines.append(
                f"  lives={rules.lives}, dice={rules.dice}, "
                f"five_of_a_kind_rule={option_text(rules.five_of_a_kind_rule, command_line=True)} "
                "(poker-dice family; options: lives, dice, five_of_a_kind_rule)"
            )
        return lines

    def plain_rules(self, rules: RulesAPI) -> list[str]:
        from liarsdice.families.poker.plain import plain_rules

        return plain_rules(own(rules, PokerRules))

    def description(self, rules: RulesAPI) -> str:
        return DESCRIPTION

    def preset_description(self, rules: RulesAPI) -> str:
        return ""  # the server's list has no blurb for poker presets (the browser has its own)

    # ------------------------------------------------------------------------------- games
    def new_game(
        self, rules: RulesAPI, names: Sequence[str], opener: int | None = None
    ) -> PokerGame:
        return PokerGame(own(rules, PokerRules), list(names), opener=opener)

    # ----------------------------------------------------------------------------- records
    def owns_record(self, data: Mapping[str, object]) -> bool:
        return data.get("rules") in POKER_PRESETS

    def load_record(self, data: Source) -> LoadedRecord[PokerRules]:
        return record_module.load_record(data)

    def record_from_state(self, state: StateAPI) -> LoadedRecord[PokerRules]:
        return record_module.record_from_state(own(state, PokerState))

    def replay_partial(
        self, record: LoadedRecord[RulesAPI]
    ) -> tuple[PokerState | None, RecordError | None]:
        return record_module.replay_partial(own_record(record, PokerRules))

    def replay_summary(self, record: LoadedRecord[RulesAPI]) -> JSONObject:
        return record_module.replay_summary(own_record(record, PokerRules))

    def summarize_result(self, game: GameAPI, result: ResultAPI) -> JSONObject:
        return record_module.summarize_result(own(game, PokerGame), own(result, PokerRoundResult))

    def record_to_text(self, record: LoadedRecord[RulesAPI]) -> str:
        return text_module.record_to_text(own_record(record, PokerRules))

    def text_to_record(self, text: str) -> LoadedRecord[PokerRules]:
        return text_module.text_to_record(text)

    def round_line(self, number: int, summary: Mapping[str, Any]) -> str:
        who = (
            f"{clause(summary['caller'], 'call')} liar on"
            if summary["call"] == "liar"
            else clause(summary["accepter"], "accept")
        )
        return (
            f"Round {number}: {who} {possessive(summary['bidder'])} {summary['bid']}; "
            f"{record_module.describe_poker_result(summary)}"
        )

    # -------------------------------------------------------------------------- the server
    def view_frame(self, state: StateAPI, seat: int) -> JSONObject:
        return own(state, PokerState).view(seat).to_dict()

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


POKER = PokerFamily()

__all__ = ["DESCRIPTION", "POKER", "PokerFamily"]
