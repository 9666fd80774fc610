"""The batched simulator's challenges: the called bid counted, dice lost and won, the end of a
game or the next round's opener, for many games at once (as the engine's ``settle_challenge``
and ``State._resolve`` do for one).

Each step is a function of the :class:`~liarsdice.sim.bidding.VectorEnv` (typed by its parts,
:class:`~liarsdice.sim.parts.EnvParts`) whose games ``e`` settle; :func:`settle` runs them in
order and writes the games' new state into the env.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.actions import LIAR
from liarsdice.core.bidding.rules import ExactCall, ExactCount, Loss, NextOpener, Scoring
from liarsdice.sim.parts import EnvParts

__all__ = ["settle"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

_NOT_OUT = 10**6  # a key larger than any seat distance or dice count


@dataclass
class _Challenge:
    """The called bids of games ``e``: who called and who bid, the quantity named and the
    dice that count for it, and which calls are 'liar' (the rest are exact calls)."""

    e: Ints
    caller: Ints
    bidder: Ints
    q: Ints
    count: Ints
    liar: Bools

    @classmethod
    def of(cls, env: EnvParts, e: Ints, call: Ints) -> _Challenge:
        b = env.bid.take(e)
        face = env._face.take(b)
        F = env.faces
        total = env.total.reshape(-1)
        count = total.take(e * F + face - 1)
        if env._wild is not None:
            use = face != env._wild
            if env.rules.palifico:
                use &= ~env.palifico.take(e)
            count = count + np.where(use, total.take(e * F + env._wild - 1), 0)
        caller, bidder = env.player.take(e), env.bidder.take(e)
        return cls(e, caller, bidder, env._qty.take(b), count, call == LIAR)


def settle(env: EnvParts, e: Ints, call: Ints, rewards: Floats, terminated: Bools) -> None:
    """Settle the challenge in games ``e``: dice lost and won, scores, the end of the game
    (rewards, a new game) or the next round's opener (palifico rounds first) and its roll."""
    c = _Challenge.of(env, e, call)
    if env.rules.scoring is Scoring.SINGLE_ROUND and c.liar.all():
        # the engine's fast path too: one liar call ends the game, a true bid stands
        _end_single_round(env, c, rewards, terminated)
        return
    dice = env.dice.take(e, axis=0)
    before = dice.copy()
    losses = np.zeros(dice.shape, dtype=np.int64)
    gains = np.zeros(dice.shape, dtype=np.int64)
    stood = np.zeros(len(e), dtype=np.bool_)  # room scoring: a true bid ends the game
    if env.rules.scoring is Scoring.ROOM:
        stood = c.liar & (c.count >= c.q)
        winner = _room_losses(c, stood, losses)
    else:
        winner = _liar_losses(env, c, dice, losses)
    if not c.liar.all():
        winner = _exact_losses(env, c, dice, winner, losses, gains)
    losers = losses > 0
    dice = dice + gains
    dice -= np.minimum(losses, dice)
    if env.rules.scoring is Scoring.ROOM:
        seats = env._seats[None, :]
        scores = env.scores[e]
        scores += stood[:, None] * np.where(seats == c.bidder[:, None], 1, -1)
        scores -= (before > 0) & (dice == 0)
        env.scores[e] = scores
    env.dice[e] = dice
    going = _end_games(env, e, dice, winner, stood, rewards, terminated)
    if going.any():
        opener = _next_opener(env, c, going, dice, before, losers, winner)
        env._start_round(e[going], opener)


def _end_single_round(env: EnvParts, c: _Challenge, rewards: Floats, terminated: Bools) -> None:
    """One liar call ends each game: the bidder wins when the bid is true, else the caller."""
    P = env.num_players
    champion = np.where(c.count >= c.q, c.bidder, c.caller)
    terminated[c.e] = True
    rewards[c.e] = -1.0 / (P - 1)
    rewards.reshape(-1)[c.e * P + champion] = 1.0
    env._new_games(c.e)


def _room_losses(c: _Challenge, stood: Bools, losses: Ints) -> Ints:
    """Room scoring: a false called bid costs its bidder a die (a true one ends the game).
    Returns the winners."""
    lost = c.liar & ~stood
    losses[np.flatnonzero(lost), c.bidder[lost]] = 1
    winner: Ints = np.where(stood, c.bidder, c.caller)
    return winner


def _liar_losses(env: EnvParts, c: _Challenge, dice: Ints, losses: Ints) -> Ints:
    """Liar calls: the caller loses when the bid holds, the bidder when it does not (one die
    or the difference), everyone but the bidder on an exact count where the rules say so.
    Returns the winners."""
    rules = env.rules
    k = len(c.e)
    rows = np.arange(k)
    liar, count, q, caller, bidder = c.liar, c.count, c.q, c.caller, c.bidder
    if rules.exact_count in (ExactCount.BID_STANDS, ExactCount.CALLER_LOSES_ONE):
        upheld, everyone = liar & (count >= q), np.zeros(k, dtype=np.bool_)
    else:
        upheld, everyone = liar & (count > q), liar & (count == q)
    false = liar & (count < q)
    difference = rules.loss is Loss.DIFFERENCE
    amount = np.where(difference & (count > q), count - q, 1)
    losses[rows[upheld], caller[upheld]] = amount[upheld]
    amount = (q - count) if difference else np.ones(k, dtype=np.int64)
    losses[rows[false], bidder[false]] = amount[false]
    if everyone.any():
        seats = env._seats[None, :]
        lose = (dice > 0) & (seats != bidder[:, None])
        if rules.exact_count is ExactCount.ALL_BUT_BIDDER_SPARE_LAST:
            lose &= ~((dice == 1) & (seats != caller[:, None]))
        losses[everyone] = lose[everyone]
    winner: Ints = np.where(upheld | everyone, bidder, caller)
    return winner


def _exact_losses(
    env: EnvParts, c: _Challenge, dice: Ints, winner: Ints, losses: Ints, gains: Ints
) -> Ints:
    """Exact calls: a wrong one costs the caller a die; a right one costs everyone else one
    (spot-on) or wins the caller a die back, up to the start (calza). Returns the winners."""
    rows = np.arange(len(c.e))
    exact = ~c.liar
    right = exact & (c.count == c.q)
    wrong = exact & (c.count != c.q)
    winner = np.where(right, c.caller, np.where(wrong, c.bidder, winner))
    losses[rows[wrong], c.caller[wrong]] = 1
    if env.rules.exact is ExactCall.SPOT_ON:
        lose = (dice > 0) & (env._seats[None, :] != c.caller[:, None])
        losses[right] = lose[right]
    else:  # calza: a right call wins a die back, up to the start
        regain = right & (dice[rows, c.caller] < env._start[c.caller])
        gains[rows[regain], c.caller[regain]] = 1
    return winner


def _end_games(
    env: EnvParts,
    e: Ints,
    dice: Ints,
    winner: Ints,
    stood: Bools,
    rewards: Floats,
    terminated: Bools,
) -> Bools:
    """End the games of ``e`` that are over (their rewards, then a new game); returns which
    games go on."""
    rules, P = env.rules, env.num_players
    if rules.scoring is Scoring.SINGLE_ROUND:
        over = np.ones(len(e), dtype=np.bool_)
        champion = winner
    else:
        live = dice > 0
        alive = live.sum(1)
        over = stood | (alive <= 1)
        champion = np.where(stood | (alive == 0), winner, live.argmax(1))
    if over.any():
        ended = e[over]
        terminated[ended] = True
        if rules.scoring is Scoring.ROOM:
            rewards[ended] = env.scores[ended]
        else:
            rewards[ended] = -1.0 / (P - 1)
            rewards[ended, champion[over]] = 1.0
        env._new_games(ended)
    going: Bools = ~over
    return going


def _next_opener(
    env: EnvParts,
    c: _Challenge,
    going: Bools,
    dice: Ints,
    before: Ints,
    losers: Bools,
    winner: Ints,
) -> Ints:
    """The next round's opener in the games of ``c`` that go on (``going``; the other arrays
    are every settled game's dice after and before, losers and winner): the rules' opener, a
    seat starting a palifico round first, the next seat with dice when the opener has none."""
    rules, P = env.rules, env.num_players
    e, dice, before = c.e[going], dice[going], before[going]
    winner, bidder, caller = winner[going], c.bidder[going], c.caller[going]
    losers = losers[going]
    clockwise = (env._seats[None, :] - bidder[:, None]) % P  # distance from the bidder
    match rules.next_opener:
        case NextOpener.WINNER:
            opener = winner
        case NextOpener.BIDDER:
            opener = bidder
        case _:
            alive_losers = losers & (dice > 0)
            fewest = np.where(alive_losers, dice * P + clockwise, _NOT_OUT).argmin(1)
            first = np.where(losers, clockwise, _NOT_OUT).argmin(1)
            opener = np.where(~losers.any(1), caller, np.where(alive_losers.any(1), fewest, first))
    if rules.palifico:
        fresh = (dice == 1) & (before > 1) & ~env.palifico_used[e]
        has_fresh = fresh.any(1)
        first_fresh = np.where(fresh, clockwise, _NOT_OUT).argmin(1)
        opener = np.where(has_fresh, first_fresh, opener)
        env.palifico[e] = has_fresh
        env.palifico_used[e[has_fresh], first_fresh[has_fresh]] = True
    out = dice[np.arange(len(e)), opener] == 0
    if out.any():
        opener[out] = env._next_seat(e[out], opener[out])
    return opener
