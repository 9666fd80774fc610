"""The bidding family (rules sources 000-004 and the single-round analysis games): bids on all dice,
wild ones, the ones-halving ladder, exact calls, chips, stashes, scored rooms."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from liarsdice.bots import (
    BayesBot,
    BlufferBot,
    Bot,
    BotTable,
    ExpertBot,
    ExpertV1Bot,
    ProbBot,
    RandomBot,
)
from liarsdice.core.api import GameAPI, ResultAPI, RulesAPI, StateAPI
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import OPTIONS, PRESETS, Rules, preset
from liarsdice.core.bidding.state import Phase, RoundResult, State
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.families.base import Family, JSONObject, LoadedRecord, Sizes, own, own_record
from liarsdice.families.bidding import plain
from liarsdice.families.replay_text import bidding_round_line
from liarsdice.families.terminal import GameTerminal
from liarsdice.i18n import _
from liarsdice.notation.bidding import record as record_module
from liarsdice.notation.bidding import text as text_module
from liarsdice.notation.common import Source
from liarsdice.notation.text_common import option_text

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter


def _nash_bot() -> type[Bot]:
    """The solver bot, imported on first use (NumPy and SciPy)."""
    from liarsdice.bots.bidding.nash import NashBot

    return NashBot


def _learned_bot() -> type[Bot]:
    """The learned bot, imported on first use (NumPy)."""
    from liarsdice.bots.bidding.learned import LearnedBot

    return LearnedBot


class BiddingFamily(Family):
    """Bids of a quantity and a face on all the dice in play (``liarsdice.core``).

    The methods take the protocol types of :class:`Family` and narrow them to this engine's
    (:class:`Rules`, :class:`Game`, :class:`State`) with :func:`own`.
    """

    name = "bidding"

    presets: Mapping[str, Rules] = PRESETS
    rules_type = Rules
    options: OptionCodec = OPTIONS

    # ------------------------------------------------------------------------------ rules
    def rules(self, preset: str, options: Mapping[str, Any], players: int | None = None) -> Rules:
        for k in options:
            if k.strip().replace("-", "_") in ("players", "name"):
                raise RulesError(f"option {k!r} is set by the room, not by an option")
        parsed = OPTIONS.read_json(options, text_strings=True)
        if players is not None:
            parsed["players"] = players
        try:
            return _preset(preset, parsed)
        except RulesError as err:  # a combination: say which of the given options led to it
            given = [k for k in options if k.lower() in str(err).lower()]
            if given or not options:
                raise
            said = ", ".join(f"{k}={v!r}" for k, v in options.items())
            raise RulesError(f"{err} (with the option {said})") from None

    def rules_from_cli(self, preset: str, options: Mapping[str, str], sizes: Sizes) -> Rules:
        players, dice, faces = sizes
        overrides = OPTIONS.read_text(options)
        if players is not None:
            overrides["players"] = players
        if dice is not None:
            overrides["dice"] = OPTIONS.from_text("dice", dice)
        if faces is not None:
            overrides["faces"] = faces
        return _preset(preset, overrides)

    def rules_json(self, rules: RulesAPI) -> JSONObject:
        rules = own(rules, Rules)
        return {**rules.options(), "description": self.description(rules)}

    def rules_listing(self) -> list[str]:
        lines: list[str] = []
        defaults = Rules()
        for n, r in PRESETS.items():
            lines.append(f"{n}: {self.description(r)}")
            diff = r.diff(defaults)
            if diff:
                lines.append(
                    "  "
                    + ", ".join(f"{k}={option_text(v, command_line=True)}" for k, v in diff.items())
                )
            else:
                lines.append("  " + _("(the default options)"))
        return lines

    summaries = plain.SUMMARIES
    option_help = plain.OPTION_HELP
    value_help = plain.VALUE_HELP

    def plain_rules(self, rules: RulesAPI) -> list[str]:
        return plain.plain_rules(own(rules, Rules))

    # ------------------------------------------------------------------------------- games
    def new_game(self, rules: RulesAPI, names: Sequence[str], opener: int | None = None) -> Game:
        return Game(own(rules, Rules), list(names), opener=opener)

    def needs_opener_draw(self, game: GameAPI) -> bool:
        root = own(game, Game).new_initial_state()
        return root.is_chance_node() and root.phase is Phase.SETUP

    # ----------------------------------------------------------------------------- records
    def owns_record(self, data: Mapping[str, object]) -> bool:
        return data.get("rules") in PRESETS or data.get("rules") == record_module.CUSTOM

    def load_record(self, data: Source) -> LoadedRecord[Rules]:
        return record_module.load_record(data)

    def record_from_state(self, state: StateAPI) -> LoadedRecord[Rules]:
        return record_module.record_from_state(own(state, State))

    def replay_partial(
        self, record: LoadedRecord[RulesAPI]
    ) -> tuple[State | None, RecordError | None]:
        return record_module.replay_partial(own_record(record, Rules))

    def replay_summary(self, record: LoadedRecord[RulesAPI]) -> JSONObject:
        return record_module.replay_summary(own_record(record, Rules))

    def summarize_result(self, game: GameAPI, result: ResultAPI) -> JSONObject:
        return record_module.summarize_result(own(game, Game), own(result, RoundResult))

    def record_to_text(self, record: LoadedRecord[RulesAPI]) -> str:
        return text_module.record_to_text(own_record(record, Rules))

    def text_to_record(self, text: str) -> LoadedRecord[Rules]:
        return text_module.text_to_record(text)

    def round_line(self, number: int, summary: Mapping[str, Any]) -> str:
        return bidding_round_line(number, summary)

    # -------------------------------------------------------------------------- the server
    def view_frame(self, state: StateAPI, seat: int) -> JSONObject:
        state = own(state, State)
        view = state.view(seat)
        out = view.to_dict()
        out["results"] = [self._result_frame(state, r) for r in view.results]
        return out

    def _result_frame(self, state: State, result: RoundResult) -> dict[str, Any]:
        """A finished round: the replay summary's item plus what the challenge revealed.

        ``reveal``: every seat's dice at the call (hidden and shown) by name, ``[]`` once out;
        ``stash``: the stash dice, only under rules with a stash.
        """
        game = state.game
        out = record_module.summarize_result(game, result)
        out["reveal"] = {name: list(result.hands[p]) for p, name in enumerate(game.names)}
        out["palifico"] = result.palifico
        if result.stash:
            out["stash"] = list(result.stash)
        return out

    def public_rules(self, rules: RulesAPI) -> JSONObject | None:
        rules = own(rules, Rules)
        return {"faces": rules.faces, "wild": rules.wild}

    def reveal_count(self, result: ResultAPI) -> int:
        return own(result, RoundResult).count  # the dice that count for the bid

    # -------------------------------------------------------------------------------- bots
    bots = BotTable(
        levels=(RandomBot, ProbBot, BayesBot, ExpertBot),
        panel=(BlufferBot, ExpertV1Bot),
        lazy={"nash": _nash_bot, "learned": _learned_bot},
    )

    # ---------------------------------------------------------------- the terminal front end
    def terminal(self, game: GameAPI, *, hot_seat: bool = False) -> GameTerminal:
        from liarsdice.families.bidding.terminal import BiddingTerminal

        return BiddingTerminal(own(game, Game), hot_seat=hot_seat)

    # ------------------------------------------------------------------- the research bindings
    def adapter_type(self) -> type[Adapter]:
        from liarsdice.families.bidding.adapter import BiddingAdapter  # NumPy, on first use

        return BiddingAdapter


def _preset(name: str, overrides: Mapping[str, Any]) -> Rules:
    return preset(name.strip().lower(), **overrides)


BIDDING = BiddingFamily()

__all__ = ["BIDDING", "BiddingFamily"]
