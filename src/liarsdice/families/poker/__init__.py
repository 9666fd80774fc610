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
from liarsdice.families.poker import plain
from liarsdice.families.replay_text import poker_round_line
from liarsdice.families.terminal import GameTerminal
from liarsdice.i18n import _
from liarsdice.notation.common import Source
from liarsdice.notation.poker import record as record_module
from liarsdice.notation.poker import text as text_module
from liarsdice.notation.text_common import option_text

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter


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

    summaries = plain.SUMMARIES
    option_help = plain.OPTION_HELP
    value_help = plain.VALUE_HELP

    def plain_rules(self, rules: RulesAPI) -> list[str]:
        return plain.plain_rules(own(rules, PokerRules))

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
        return poker_round_line(number, summary)

    # -------------------------------------------------------------------------- the server
    def reveal_count(self, result: ResultAPI) -> int:
        return len(own(result, PokerRoundResult).hand)  # the hand under the cup, die by die

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

__all__ = ["POKER", "PokerFamily"]
