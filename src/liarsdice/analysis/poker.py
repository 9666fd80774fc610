"""The analysis of a poker-dice game.

For each move, from the state just before it and the view of the player who made it:

* ``p_known``: the chance that the bid facing the player was true from what they knew of the
  five dice (the dice outside the cup, the dice they know are under it; every other die a fair
  one): :func:`~liarsdice.bots.poker.simple.reach`, no model of the bidder;
* ``p_actual``: the same with every die known. Every die is rolled before anyone answers a
  bid (a shaken cup is rolled at once, and its holder looks), so it is 0 or 1;
* ``expert``: what the poker expert bot does from that view (no noise, a seeded generator);
* ``loss`` (answers only, liar or accept): the expert's chance of losing a life by the move
  played minus by its best answer (:meth:`~liarsdice.bots.poker.levels.PokerBayesBot.
  respond_odds`: a call loses when the bid is true, an accept when no higher hand comes and
  the next player calls, or the five-of-a-kind challenge fails), times what a life is worth to
  the player (:func:`~liarsdice.analysis.common.life_worth`): a win chance given away; the
  two chances of losing a life are the move's ``value`` and its ``best_value`` (``best``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

from liarsdice.analysis.common import Measure, MoveAnalysis, analyse_moves, life_worth
from liarsdice.bots.poker.levels import PokerExpertBot
from liarsdice.bots.poker.simple import known_dice, reach
from liarsdice.core.poker import ACCEPT, LIAR, PokerRules, PokerState, format_poker_bid, satisfies
from liarsdice.notation.common import LoadedRecord
from liarsdice.notation.poker.record import FAMILY, replay_moves

__all__ = ["FAMILY", "analyse_poker"]


def _text(move: Mapping[str, Any]) -> tuple[str, str]:
    """The move as a player reads it, and its kind."""
    if "call" in move:
        return "liar", "call"
    if "attempts" in move:
        return "accept (five of a kind)", "accept"
    if move.get("accept"):
        bid = move.get("bid")
        return ("accept" if bid is None else f"accept, {bid}"), "accept"
    parts = [str(move.get("bid", ""))]
    if "pass" in move:
        parts.append(f"pass {move['pass']}")
    return ", ".join(p for p in parts if p), "open"


def _judge(state: PokerState, seat: int, move: Mapping[str, Any], out: MoveAnalysis) -> None:
    game = state.game
    view = state.view(seat)
    if not view.legal_actions:
        return
    bot = PokerExpertBot(random.Random(out.seed()), noise=0.0)
    chosen = bot.choose(game, view)
    out.expert = game.action_to_string(chosen, seat)
    bid = view.current_bid
    if bid is None or view.phase != "respond":
        return
    out.faced = format_poker_bid(bid)
    out.p_known = reach(known_dice(view), bid)
    out.p_actual = float(satisfies(state.dice, bid))
    p_true, accept_loss = bot.respond_odds(game, view)
    lose = {LIAR: p_true, ACCEPT: accept_loss}
    answers = [a for a in (LIAR, ACCEPT) if a in view.legal_actions]
    action = LIAR if out.kind == "call" else ACCEPT
    best = min(answers, key=lambda a: lose[a])
    out.loss = (lose[action] - lose[best]) * life_worth(view.lives, seat)
    out.agrees = chosen == action
    out.best = game.action_to_string(best, seat)
    out.value, out.best_value = lose[action], lose[best]


_MEASURE = Measure(
    "the expert's estimate of the win chance the answer gave away "
    "(its chance of losing a life, times a life's worth)",
    "lose_life",
)


def analyse_poker(
    record: LoadedRecord[PokerRules], computer: Collection[int] = ()
) -> dict[str, Any]:
    """The analysis (``docs/ANALYSIS.md``) of a poker-dice record; its first error raised
    (:class:`~liarsdice.core.errors.RecordError`). ``computer``: the game's player actions
    the computer made for a person (:func:`~liarsdice.analysis.common.played_for`)."""
    return analyse_moves(record, FAMILY, replay_moves, _text, _judge, _MEASURE, computer)
