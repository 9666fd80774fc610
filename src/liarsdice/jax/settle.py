"""The JAX environment's challenges: the called bid counted, dice lost and won, the game's end
or the next round's opener and roll, for one game (batched with ``vmap``), as the engine's
``settle_challenge`` and ``State._resolve`` do.

Each step is a function of the :class:`~liarsdice.jax.bidding.JaxBiddingEnv` (static: its
rules choose the code traced; typed by its parts, :class:`~liarsdice.jax.parts.EnvParts`) and
the game's :class:`~liarsdice.jax.state.EnvState`; :func:`settle` runs them in order.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from liarsdice.core.bidding.actions import LIAR
from liarsdice.core.bidding.rules import ExactCall, ExactCount, Loss, NextOpener, Scoring
from liarsdice.jax.parts import EnvParts
from liarsdice.jax.state import EnvState

__all__ = ["settle"]

Array = jax.Array

_BIG = 10**6  # a key larger than any seat distance or dice count


class _Call(NamedTuple):
    """The called bid: its quantity, the dice that count for it (``matching``), whether the
    call is 'liar' (else exact)."""

    q: Array
    matching: Array
    liar: Array


class _Losses(NamedTuple):
    """Dice each seat loses and wins back, the challenge's winner, and (room scoring) whether
    the called bid stood (which ends the game)."""

    losses: Array
    gains: Array
    winner: Array
    stood: Array


def settle(
    env: EnvParts, s: EnvState, a: Array, key: Array, reset: bool, force: Array | None
) -> tuple[EnvState, Array, Array, Array, EnvState]:
    """The call ``a`` on the current bid, settled as the engine does: dice lost and won, the
    game's end (rewards, the next game or, without ``reset``, the end state) or the next
    round's opener and roll; ``force``: start the next game anyway. Returns the next state,
    the rewards, whether the game is over, the dice after the call, and the end state (the
    engine's terminal state) where the call ends the game."""
    rules, seats = env.rules, env._seats
    call = _called(env, s, a)
    lost = _losses(env, s, call)
    new = s.dice + lost.gains
    new = new - jnp.minimum(lost.losses, new)
    over, reward, scores = _outcome(env, s, new, lost)
    opener, palifico, used = _next_opener(env, s, new, lost)
    words = env._words(key, env._num_words)
    end = s._replace(
        dice=new,
        scores=scores,
        called=s.called | (seats == s.player),
        palifico=jnp.bool_(False),
    )
    going = s._replace(palifico=palifico, palifico_used=used, scores=scores)
    if reset:  # one roll: the next round's or (when over or forced) the next game's
        restart = over if force is None else over | force
        state = _roll_round(env, words, key, restart, going, new, opener)
    elif rules.scoring is Scoring.SINGLE_ROUND:
        state = end
    else:
        state = env._round(words, going, new, opener)
        state = jax.tree.map(lambda x, y: jnp.where(over, x, y), end, state)
    return state, reward, over, new, end


def _called(env: EnvParts, s: EnvState, a: Array) -> _Call:
    """The called bid's quantity and the dice that count for it (wilds too, but in a palifico
    round)."""
    rules = env.rules
    last = jnp.maximum(s.bid, 0)
    q, face = env._qty[last], env._face[last]
    count = s.total[face - 1]
    wild = rules.wild
    if wild is not None:
        use = face != wild
        if rules.palifico:
            use &= ~s.palifico
        count = count + jnp.where(use, s.total[wild - 1], 0)
    return _Call(q, count, a == LIAR)


def _losses(env: EnvParts, s: EnvState, c: _Call) -> _Losses:
    """Who loses dice and how many: a liar call costs the caller when the bid holds, the
    bidder when it does not (one die or the difference), everyone but the bidder on an exact
    count where the rules say so; room scoring: a false called bid costs its bidder a die;
    then the exact call, where the rules have one."""
    rules, P, seats = env.rules, env.num_players, env._seats
    caller, bidder = s.player, s.bidder
    liar, count, q = c.liar, c.matching, c.q
    dice = s.dice
    active = dice > 0
    zeros = jnp.zeros(P, dtype=jnp.int32)
    stood = jnp.bool_(False)  # room scoring: a true bid ends the game
    if rules.scoring is Scoring.ROOM:
        stood = liar & (count >= q)
        upheld = everyone = jnp.bool_(False)
        false = liar & ~stood
    elif rules.exact_count in (ExactCount.BID_STANDS, ExactCount.CALLER_LOSES_ONE):
        upheld, everyone = liar & (count >= q), jnp.bool_(False)
    else:
        upheld, everyone = liar & (count > q), liar & (count == q)
    if rules.scoring is not Scoring.ROOM:
        false = liar & (count < q)
    difference = rules.loss is Loss.DIFFERENCE and rules.scoring is not Scoring.ROOM
    up_amount = jnp.where(count > q, count - q, 1) if difference else jnp.int32(1)
    false_amount = q - count if difference else jnp.int32(1)
    losses = jnp.where(upheld & (seats == caller), up_amount, zeros)
    losses = jnp.where(false & (seats == bidder), false_amount, losses)
    lose = active & (seats != bidder)
    if rules.exact_count is ExactCount.ALL_BUT_BIDDER_SPARE_LAST:
        lose &= ~((dice == 1) & (seats != caller))
    losses = jnp.where(everyone, lose.astype(jnp.int32), losses)
    winner = jnp.where(upheld | everyone | stood, bidder, caller)
    out = _Losses(losses, zeros, winner, stood)
    return out if rules.exact is ExactCall.NONE else _exact(env, s, c, out)


def _exact(env: EnvParts, s: EnvState, c: _Call, lost: _Losses) -> _Losses:
    """An exact call: a wrong one costs the caller a die; a right one costs everyone else one
    (spot-on) or wins the caller a die back, up to the start (calza)."""
    seats, caller, dice = env._seats, s.player, s.dice
    losses, gains = lost.losses, lost.gains
    exact = ~c.liar
    right = exact & (c.matching == c.q)
    wrong = exact & (c.matching != c.q)
    winner = jnp.where(right, caller, jnp.where(wrong, s.bidder, lost.winner))
    losses = jnp.where(wrong & (seats == caller), 1, losses)
    if env.rules.exact is ExactCall.SPOT_ON:
        spot = (dice > 0) & (seats != caller)
        losses = jnp.where(right, spot.astype(jnp.int32), losses)
    else:  # calza: a right call wins a die back, up to the start
        regain = right & (dice[caller] < env._start[caller])
        gains = jnp.where(regain & (seats == caller), 1, gains)
    return _Losses(losses, gains, winner, lost.stood)


def _outcome(env: EnvParts, s: EnvState, new: Array, lost: _Losses) -> tuple[Array, Array, Array]:
    """Whether the game is over after the call, the rewards (zero if not) and the scores."""
    rules, P, seats = env.rules, env.num_players, env._seats
    live = new > 0
    scores = s.scores
    stood, winner = lost.stood, lost.winner
    if rules.scoring is Scoring.SINGLE_ROUND:
        over = jnp.bool_(True)
        champion = winner
    else:
        alive = live.sum()
        over = stood | (alive <= 1)
        champion = jnp.where(stood | (alive == 0), winner, jnp.argmax(live))
    if rules.scoring is Scoring.ROOM:
        scores = scores + jnp.where(stood, jnp.where(seats == s.bidder, 1, -1), 0)
        scores = scores - ((s.dice > 0) & ~live)
        reward = scores.astype(jnp.float32)
    else:
        reward = jnp.where(seats == champion, 1.0, -1.0 / (P - 1)).astype(jnp.float32)
    return over, jnp.where(over, reward, 0.0), scores


def _next_opener(
    env: EnvParts, s: EnvState, new: Array, lost: _Losses
) -> tuple[Array, Array, Array]:
    """The next round's opener (the rules' opener, a seat starting a palifico round first,
    the next seat with dice when the opener has none), the palifico round flag and the seats
    that have had theirs."""
    rules, P, seats = env.rules, env.num_players, env._seats
    bidder = s.bidder
    losers = lost.losses > 0
    clockwise = (seats - bidder) % P
    big = jnp.int32(_BIG)
    match rules.next_opener:
        case NextOpener.WINNER:
            opener = lost.winner
        case NextOpener.BIDDER:
            opener = bidder
        case _:
            alive_losers = losers & (new > 0)
            fewest = jnp.argmax(-jnp.where(alive_losers, new * P + clockwise, big))
            first = jnp.argmax(-jnp.where(losers, clockwise, big))
            opener = jnp.where(
                ~losers.any(), s.player, jnp.where(alive_losers.any(), fewest, first)
            )
    palifico, used = s.palifico, s.palifico_used
    if rules.palifico:
        fresh = (new == 1) & (s.dice > 1) & ~used
        has_fresh = fresh.any()
        first_fresh = jnp.argmax(-jnp.where(fresh, clockwise, big))
        opener = jnp.where(has_fresh, first_fresh, opener)
        palifico = has_fresh
        used = used | (has_fresh & (seats == first_fresh))
    opener = opener.astype(jnp.int32)
    opener = jnp.where(new[opener] == 0, env._next_seat(new, opener), opener)
    return opener, palifico, used


def _roll_round(
    env: EnvParts,
    words: Array,
    key: Array,
    restart: Array,
    going: EnvState,
    dice: Array,
    opener: Array,
) -> EnvState:
    """A new round of ``going`` with ``dice`` and ``opener`` or, where ``restart``, the next
    game's first state (the same words: a game ends or a round starts, never both), rolled
    once."""
    fresh = going._replace(
        palifico=jnp.bool_(False),
        palifico_used=jnp.zeros_like(going.palifico_used),
        scores=jnp.zeros_like(going.scores),
    )
    base = jax.tree.map(lambda x, y: jnp.where(restart, x, y), fresh, going)
    first = env._first_opener(words, key)
    return env._round(
        words, base, jnp.where(restart, env._start, dice), jnp.where(restart, first, opener)
    )
