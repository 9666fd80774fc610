"""The bidding family (rules sources 000-004 and the single-round analysis games): bids on all dice,
wild ones, the ones-halving ladder, exact calls, chips, stashes, scored rooms."""

from __future__ import annotations

import functools
import weakref
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
from liarsdice.core.bidding.bid import Bid, read_bid
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import OPTIONS, PRESETS, Rules, preset
from liarsdice.core.bidding.state import Phase, RoundResult, State
from liarsdice.core.bidding.view import PlayerView
from liarsdice.core.errors import RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.families.base import Family, JSONObject, Records, Sizes, own
from liarsdice.families.bidding import plain as bidding_plain
from liarsdice.families.replay_text import bidding_round_line
from liarsdice.families.terminal import GameTerminal
from liarsdice.i18n import _
from liarsdice.notation.bidding import record as bidding_record
from liarsdice.notation.bidding import text as bidding_text
from liarsdice.notation.text_common import option_text
from liarsdice.odds import at_least_table, bid_odds, known_matches, unseen_dice

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
    """Bids of a quantity and a face on all the dice in play (``liarsdice.core``): classic
    and its variants (Milton Bradley, house rules, spot-on, the scored room, Perudo, Snyd)."""

    name = "bidding"

    presets: Mapping[str, Rules] = PRESETS
    rules_type = Rules
    options: OptionCodec = OPTIONS

    # ------------------------------------------------------------------------------ rules
    def rules(self, preset: str, options: Mapping[str, Any], players: int | None = None) -> Rules:
        parsed = self.room_options(options, players)
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

    plain = bidding_plain

    # ------------------------------------------------------------------------------- games
    def new_game(self, rules: RulesAPI, names: Sequence[str], opener: int | None = None) -> Game:
        return Game(own(rules, Rules), list(names), opener=opener)

    def needs_opener_draw(self, game: GameAPI) -> bool:
        root = own(game, Game).new_initial_state()
        return root.is_chance_node() and root.phase is Phase.SETUP

    # ----------------------------------------------------------------------------- records
    records = Records(bidding_record, bidding_text, Game, State, RoundResult)

    def owns_record(self, data: Mapping[str, object]) -> bool:
        return data.get("rules") in PRESETS or data.get("rules") == bidding_record.CUSTOM

    def round_line(self, number: int, summary: Mapping[str, Any]) -> str:
        return bidding_round_line(number, summary)

    # -------------------------------------------------------------------------- the server
    def view_frame(self, state: StateAPI, seat: int) -> JSONObject:
        """The core's view, its finished rounds with their reveals, and what a page shows of
        the bid to beat: ``current_bid_move`` (structured) and, for a seated viewer,
        ``current_bid_odds`` (the chance it is true from the seat's own dice and every die
        shown: the seat's own information)."""
        state = own(state, State)
        view = state.view(seat)
        out = view.to_dict()
        out["results"] = [self._result_frame(state, r) for r in view.results]
        bid = view.current_bid
        out["current_bid_move"] = None if bid is None else _bid_json(bid)
        seated = 0 <= seat < state.game.num_players
        odds = None if bid is None or not seated else _odds(state.game, view, bid)
        out["current_bid_odds"] = odds
        return out

    def legal_frame(self, state: StateAPI, seat: int, actions: Sequence[int]) -> list[JSONObject]:
        """The legal moves, each bid with ``chance``: how likely it is true from the seat's own
        dice and every die shown (``liarsdice.odds``, as the bots and the analysis read it).
        Built in one pass (a frame of the seat to move can hold a hundred bids): each move's
        structure is the notation's, read once and shared (:func:`_move_of`; frames are only
        encoded), and each face's chances are worked out once."""
        if not actions:
            return []
        state = own(state, State)
        game = state.game
        view = state.view(seat)
        notations = _notations(game)
        tables: dict[int, list[float]] = {}  # by face: every quantity's chance, rounded
        out: list[JSONObject] = []
        for action in actions:
            found = notations.get(action)
            if found is None:
                text = game.action_to_string(action)
                found = notations[action] = (text, _move_of(text, game.rules.faces))
            text, move = found
            entry: JSONObject = {"action": action, "text": text, "move": move}
            if move["kind"] == "bid":
                face, quantity = move["face"], move["quantity"]
                chances = tables.get(face)
                if chances is None:
                    table = at_least_table(game, view, face)
                    chances = tables[face] = [round(x, ODDS_DIGITS) for x in table]
                entry["chance"] = chances[quantity] if quantity < len(chances) else 0.0
            out.append(entry)
        return out

    def move_json(self, game: GameAPI, text: str) -> JSONObject:
        """``3x5`` -> ``{"kind": "bid", "quantity": 3, "face": 5}``; ``liar`` and ``exact``:
        ``{"kind": "call", "call": "liar"}``; ``show 6,6``: ``{"kind": "show", "dice": [6,
        6]}``; ``no-show``, ``buy``: ``{"kind": "no_show"}``, ``{"kind": "buy"}``. Read from the
        notation (not from the game's action numbers, which depend on the dice in play: an
        event of a game before a rematch reads the same)."""
        return _copy(_move_of(text, own(game, Game).rules.faces))

    def _result_frame(self, state: State, result: RoundResult) -> dict[str, Any]:
        """A finished round: the replay summary's item plus what the challenge revealed.

        ``reveal``: every seat's dice at the call (hidden and shown) by name, ``[]`` once out;
        ``stash``: the stash dice, only under rules with a stash.
        """
        game = state.game
        out = bidding_record.summarize_result(game, result)
        out["reveal"] = {name: list(result.hands[p]) for p, name in enumerate(game.names)}
        out["palifico"] = result.palifico
        out["bid_move"] = _bid_json(result.bid)
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


ODDS_DIGITS = 4
"""Decimals of the chances a view carries (0.4273: a page shows whole percents)."""


@functools.lru_cache(maxsize=4096)
def _move_of(text: str, faces: int) -> JSONObject:
    """A move's notation read once (the same texts come back in every frame); shared by the
    cache: callers get a copy (:func:`_copy`)."""
    t = text.strip().lower()
    if t in ("liar", "exact"):
        return {"kind": "call", "call": t}
    if t == "no-show":
        return {"kind": "no_show"}
    if t == "buy":
        return {"kind": "buy"}
    if t.startswith("show "):
        return {"kind": "show", "dice": [int(x) for x in t[5:].split(",")]}
    return _bid_json(read_bid(t, faces=faces))


_NOTATIONS: weakref.WeakKeyDictionary[Game, dict[int, tuple[str, JSONObject]]] = (
    weakref.WeakKeyDictionary()
)
"""Each game's actions in notation and structured, as a frame's ``legal`` list needs them (a
game's action numbers mean the same moves while it lasts)."""


def _notations(game: Game) -> dict[int, tuple[str, JSONObject]]:
    found = _NOTATIONS.get(game)
    if found is None:
        found = _NOTATIONS[game] = {}
    return found


def _copy(move: JSONObject) -> JSONObject:
    return {k: list(v) if isinstance(v, list) else v for k, v in move.items()}


def _bid_json(bid: Bid) -> JSONObject:
    return {"kind": "bid", "quantity": bid.quantity, "face": bid.face}


def _odds(game: Game, view: PlayerView, bid: Bid) -> JSONObject:
    """The chance ``bid`` is true for the viewer (at least, exactly) and what it is worked out
    from: the dice the viewer sees that count (``known``) and the dice hidden from them."""
    at_least, exactly = bid_odds(game, view, bid)
    return {
        "at_least": round(at_least, ODDS_DIGITS),
        "exactly": round(exactly, ODDS_DIGITS),
        "known": known_matches(game, view, bid),
        "unseen": unseen_dice(view),
    }


def _preset(name: str, overrides: Mapping[str, Any]) -> Rules:
    return preset(name.strip().lower(), **overrides)


BIDDING = BiddingFamily()

__all__ = ["BIDDING", "BiddingFamily"]
