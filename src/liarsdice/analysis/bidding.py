"""The analysis of a bidding-family game (classic, perudo, Milton Bradley, spot-on, stash...).

For each move, from the state just before it and the view of the player who made it:

* ``p_known``: the chance that the bid standing at the decision was true, from that view (own
  dice, shown dice, an open stash, the rules' wilds, a palifico round): :func:`odds.bid_odds`;
  ``p_exact_known`` the chance that it was exactly right (a spot-on call's chance);
* ``p_actual`` / ``p_exact_actual``: the same with every die known (the engine's count): 0 or 1;
* ``expert``: the move the expert bot chooses from that view (its reading of the table,
  deterministic: no solver, no re-solve, no noise, a seeded generator);
* ``loss``: the expert's value of its best move (``best``, ``best_value``) minus its value of
  the move played (``value``), both the bots' position value (the decider's chance of winning
  the game after the round, from the dice counts; under ``room`` scoring, score points),
  judged for bids and calls.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

from liarsdice.analysis.common import Measure, MoveAnalysis, analyse_moves
from liarsdice.bots.bidding.bayes import Option
from liarsdice.bots.bidding.expert import ExpertBot
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BID_BASE, EXACT, LIAR, SHOW_BASE, Game
from liarsdice.core.bidding.rules import Rules, Scoring
from liarsdice.core.bidding.state import State
from liarsdice.core.bidding.view import PlayerView
from liarsdice.notation.bidding.bids import parse_bid
from liarsdice.notation.bidding.record import FAMILY, replay_moves
from liarsdice.notation.common import LoadedRecord
from liarsdice.odds import bid_odds

__all__ = ["FAMILY", "JudgeBot", "analyse_bidding"]

_CALLS = {"liar": LIAR, "exact": EXACT}


class JudgeBot(ExpertBot):
    """The expert as a judge: deterministic (no solver, no re-solve, no noise), and it scores
    the raise that was played (``also``) among its candidates even when it would not have."""

    solve: bool = False
    cached: bool = False
    resolve: float = 0.0
    noise: float = 0.0
    also: int | None = None

    def candidate_bids(self, game: Game, view: PlayerView) -> list[tuple[int, Bid]]:
        out = super().candidate_bids(game, view)
        also = self.also
        if (
            also is not None
            and BID_BASE <= also < BID_BASE + len(game.space)  # a raise (calls are scored)
            and also in view.legal_actions
            and all(a != also for a, _ in out)
        ):
            out.append((also, game.space.bids[also - BID_BASE]))
        return out


def _text(move: Mapping[str, Any]) -> tuple[str, str]:
    """The move as a player reads it, and its kind."""
    if "ask" in move:
        return f"ask {move['ask']}", "ask"
    if "call" in move:
        return str(move["call"]), "call"
    if "buy" in move:
        return "buy", "buy"
    parts = []
    if "bid" in move:
        parts.append(str(move["bid"]))
    if move.get("show"):
        parts.append("show " + " ".join(str(f) for f in move["show"]))
    return ", ".join(parts) or "no show", "bid" if "bid" in move else "show"


def _played(game: Game, rules: Rules, move: Mapping[str, Any]) -> int | None:
    """The call or raise the move made (the action the expert's values compare), if any."""
    if "call" in move:
        return _CALLS[move["call"]]
    if "bid" in move:
        return game.bid_action(parse_bid(move["bid"], faces=rules.faces))
    return None


def _expert_text(game: Game, seat: int, action: int, best: Option | None) -> str:
    text = game.action_to_string(action, seat)
    if action >= SHOW_BASE and best is not None and best.bid is not None:
        text = f"{best.bid.quantity}x{best.bid.face}, {text}"  # the raise, with the show
    return text


def _judge(state: State, seat: int, move: Mapping[str, Any], out: MoveAnalysis) -> None:
    if out.kind == "ask":
        return  # a question out of turn: nothing to judge
    game = state.game
    view = state.view(seat)
    bid = view.current_bid
    if bid is not None and view.phase == "bid":
        out.faced = f"{bid.quantity}x{bid.face}"
        out.p_known, out.p_exact_known = bid_odds(game, view, bid)
        count = state.count(bid)
        out.p_actual = float(count >= bid.quantity)
        out.p_exact_actual = float(count == bid.quantity)
    if not view.legal_actions or view.phase != "bid":
        return
    action = _played(game, game.rules, move)
    judge = JudgeBot(random.Random(out.seed()), also=action)
    options = judge.evaluate(game, view)
    best = max(options, key=lambda o: o.value) if options else None
    chosen = judge.choose(game, view)
    out.expert = _expert_text(game, seat, chosen, best)
    value = next((o.value for o in options if o.action == action), None)
    if best is not None and value is not None:
        out.loss = max(0.0, best.value - value)
        out.agrees = best.action == action
        out.best = _expert_text(game, seat, best.action, best)
        out.value, out.best_value = value, best.value


_WIN = Measure("the expert's estimate of the win chance the move gave away", "win")
_POINTS = Measure("the expert's estimate of the points the move gave away (room scoring)", "points")


def analyse_bidding(record: LoadedRecord[Rules], computer: Collection[int] = ()) -> dict[str, Any]:
    """The analysis (``docs/ANALYSIS.md``) of a bidding-family record; its first error raised
    (:class:`~liarsdice.core.errors.RecordError`). ``computer``: the game's player actions
    the computer made for a person (:func:`~liarsdice.analysis.common.played_for`)."""
    measure = _POINTS if record.rules.scoring is Scoring.ROOM else _WIN
    return analyse_moves(record, FAMILY, replay_moves, _text, _judge, measure, computer)
