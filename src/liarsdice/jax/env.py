"""The bidding family in pgx's shape: :class:`Env` with ``init(key)``, ``step(state, action,
key)`` and ``observe(state, player)`` over a :class:`State` pytree, and :func:`auto_reset`.

The names and conventions are pgx's (``pgx.core.State``, ``pgx.Env``,
``pgx.experimental.auto_reset``; a key is required, as for pgx's stochastic games), so code
written against pgx's API runs on it:

* ``state.current_player`` acts next; ``state.observation`` is its view and
  ``state.legal_action_mask`` its legal actions (every action ``True`` once the game is over,
  as pgx, so that a masked softmax never divides by zero);
* ``state.rewards`` (``float32`` per seat) is what the step just gave: the engine's
  ``returns()`` on the step that ends a game, zeros on the others;
* ``state.terminated`` (the game is over) and ``state.truncated`` (``max_steps`` decisions
  were taken first; never without ``max_steps``); ``state._step_count`` counts decisions;
* stepping a finished game changes nothing but zeros ``rewards`` (pgx's rule);
* **an illegal action** (not in ``legal_action_mask``, or outside ``0 .. num_actions - 1``)
  ends the game at once: ``rewards`` is ``-1`` to the seat at fault and ``+1 / (P - 1)`` to
  every other seat (zero-sum; pgx's ``+1`` with two players), the game's internals stay as
  they were before the action;
* :func:`auto_reset` (opt-in) starts the next game inside the step and keeps the finished
  game's last observation in ``state.final_observation``.

At a game's end ``current_player`` is the seat that made the last move and the game's
internals are the engine's terminal state (the last round's hands and bid, the dice after
the call); ``observe`` shows no seat to act there, as the engine's tensors.

>>> import jax
>>> env = Env("openspiel")
>>> state = jax.jit(env.init)(jax.random.key(0))
>>> env.observation_shape, env.num_actions, state.legal_action_mask[0].item()
((26,), 20, False)
>>> state = jax.jit(env.step)(state, 0, jax.random.key(1))   # "liar" before any bid
>>> state.terminated.item(), state.rewards[state.current_player].item()
(True, -1.0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from liarsdice.core.bidding.rules import Rules
from liarsdice.jax.bidding import EnvState, JaxBiddingEnv

__all__ = ["Env", "State", "auto_reset"]

Array = jax.Array

#: pgx's reward to the seat that takes an illegal action
ILLEGAL_ACTION_PENALTY = -1.0


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """One game's state, pgx's fields first (a pytree: batch it with :func:`jax.vmap`)."""

    current_player: Array  # () int32: the seat to act (at the end: the last to act)
    observation: Array  # (observation_size,) float32: current_player's view
    legal_action_mask: Array  # (num_actions,) bool: all True once the game is over
    rewards: Array  # (P,) float32: what this step gave each seat
    terminated: Array  # () bool: the game is over
    truncated: Array  # () bool: max_steps decisions were taken before its end
    final_observation: Array  # like observation: set by auto_reset (see there)
    _step_count: Array  # () int32: decisions taken in this game
    _game: EnvState  # the game's internals (liarsdice.jax.bidding)

    def replace(self, **changes: Any) -> State:
        """This state with ``changes`` (pgx's ``state.replace``)."""
        return dataclasses.replace(self, **changes)


class Env:
    """A bidding-family rule set (a preset name or :class:`Rules`) as a pgx-style environment.

    ``options`` are :class:`JaxBiddingEnv`'s (``players``, ``opener``, ``history``: it holds
    the functions this environment steps, in ``self.core``); ``max_steps``: truncate a game
    after that many decisions (default: never; every game of the family ends by itself).
    """

    version = "v0"

    def __init__(self, rules: Rules | str, *, max_steps: int | None = None, **options: Any) -> None:
        self.core = core = JaxBiddingEnv(rules, **options)
        self.id = f"liarsdice/{rules if isinstance(rules, str) else 'custom'}"
        self.num_players = core.num_players
        self.num_actions = core.num_actions
        self.observation_shape = (core.observation_size,)
        self.max_steps = max_steps

    def init(self, key: Array) -> State:
        """A new game's first decision state (dice rolled, opener chosen) drawn from ``key``."""
        game = self.core.init(key)
        P = self.num_players
        obs = self.core.observe(game)
        return State(
            current_player=game.player,
            observation=obs,
            legal_action_mask=self.core.legal_mask(game),
            rewards=jnp.zeros(P, dtype=jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            final_observation=jnp.zeros(self.observation_shape, dtype=jnp.float32),
            _step_count=jnp.int32(0),
            _game=game,
        )

    def step(self, state: State, action: Array | int, key: Array) -> State:
        """``state.current_player`` takes ``action`` (a dense action index); ``key`` draws the
        chance that follows (a new round's dice). Illegal actions: see the module."""
        game, after = self._advance(state, action, key)
        ended = after.terminated | after.truncated
        return after.replace(
            observation=self.core.view(game, after.current_player, ~after.terminated),
            legal_action_mask=self.core.legal_mask(game) | ended,
        )

    def _advance(self, state: State, action: Array | int, key: Array) -> tuple[EnvState, State]:
        """:meth:`step` but for the observation and the mask: the game's internals after the
        action, and the state with everything else (the internals included) updated."""
        a = jnp.asarray(action, dtype=jnp.int32)
        inside = (a >= 0) & (a < self.num_actions)
        legal = inside & state.legal_action_mask[jnp.clip(a, 0, self.num_actions - 1)]
        out = self.core.transition(state._game, jnp.where(inside, a, 0), key, reset=False)
        over = state.terminated | state.truncated
        game = _select(legal & ~over, out.state, state._game)
        p = state.current_player
        terminated = state.terminated | (~over & (out.done | ~legal))
        count = state._step_count + (~over).astype(jnp.int32)
        truncated = state.truncated
        if self.max_steps is not None:
            truncated = truncated | (~terminated & (count >= self.max_steps))
        rewards = jnp.where(legal, out.reward, self._penalty(p))
        after = state.replace(
            current_player=jnp.where(terminated, p, game.player),
            rewards=jnp.where(over, 0.0, rewards),
            terminated=terminated,
            truncated=truncated,
            _step_count=count,
            _game=game,
        )
        return game, after

    def _step_with_reset(self, state: State, action: Array, key: Array) -> State:
        """``auto_reset(self.step, self.init)`` fused: the next round's or the next game's
        dice rolled once, and the observation and the mask built once, for the game that
        goes on."""
        if self.max_steps is not None:
            return self._step_then_reset(state, action, key)
        a = jnp.asarray(action, dtype=jnp.int32)
        inside = (a >= 0) & (a < self.num_actions)
        legal = inside & state.legal_action_mask[jnp.clip(a, 0, self.num_actions - 1)]
        out, end = self.core.transition_ending(
            state._game, jnp.where(inside, a, 0), key, reset=True, force=~legal
        )
        p = state.current_player
        ended = out.done | ~legal
        # the finished game's last state: the end of the game, or as it was (illegal)
        final = self.core.view(_select(legal, end, state._game), p, jnp.bool_(False))
        game = out.state
        count = jnp.where(ended, 0, state._step_count + 1)
        return State(
            current_player=game.player,
            observation=self.core.view(game, game.player, jnp.bool_(True)),
            # (`| count < 0`, always false, makes XLA build the mask once: 1.5x the speed)
            legal_action_mask=self.core.legal_mask(game) | (count < 0),
            rewards=jnp.where(legal, out.reward, self._penalty(p)),
            terminated=ended,
            truncated=jnp.bool_(False),
            final_observation=jnp.where(ended, final, 0.0),
            _step_count=count,
            _game=game,
        )

    def _step_then_reset(self, state: State, action: Array, key: Array) -> State:
        """:meth:`_step_with_reset` with ``max_steps``: the step, then the next game's first
        state (``init``) where the game ended or was cut."""
        state = state.replace(terminated=jnp.bool_(False), truncated=jnp.bool_(False))
        game, after = self._advance(state, action, key)
        ended = after.terminated | after.truncated
        final = self.core.view(game, after.current_player, ~after.terminated)
        fresh = self.core.init(key)
        game = _select(ended, fresh, game)
        player = jnp.where(ended, fresh.player, after.current_player)
        return after.replace(
            current_player=player,
            observation=self.core.view(game, player, jnp.bool_(True)),
            legal_action_mask=self.core.legal_mask(game) | (after._step_count < 0),
            final_observation=jnp.where(ended, final, 0.0),
            _step_count=jnp.where(ended, 0, after._step_count),
            _game=game,
        )

    def observe(self, state: State, player: Array | int) -> Array:
        """Seat ``player``'s observation of ``state`` (any seat; the encoding's vector, from
        that seat's view: its own hidden dice and the public facts)."""
        # a seat is to act unless the game is over: a state of auto_reset's that starts the
        # next game keeps the finished game's `terminated`, but no decision is taken in it
        acting = ~state.terminated | (state._step_count == 0)
        return self.core.view(state._game, jnp.asarray(player), acting)

    def _penalty(self, seat: Array) -> Array:
        """The rewards of an illegal action by ``seat``: -1 to it, +1/(P-1) to each other."""
        P = self.num_players
        others = -ILLEGAL_ACTION_PENALTY / (P - 1)
        seats = jnp.arange(P, dtype=jnp.int32)
        return jnp.where(seats == seat, ILLEGAL_ACTION_PENALTY, others).astype(jnp.float32)


StepFn = Callable[[State, Array, Array], State]


def auto_reset(step_fn: StepFn, init_fn: Callable[[Array], State]) -> StepFn:
    """``step_fn`` that starts the next game (``init_fn(key)``) on the step that ends one,
    as ``pgx.experimental.auto_reset``: the returned state is the next game's first, with
    the finished game's ``rewards``, ``terminated`` and ``truncated``, and its last
    observation (its ``current_player``'s view) in ``final_observation``; on every other
    step ``final_observation`` is zeros. The reset draws from the step's ``key``: a step
    that ends a game draws no chance itself.

    >>> import jax
    >>> env = Env("openspiel")
    >>> step = jax.jit(auto_reset(env.step, env.init))
    >>> state = step(env.init(jax.random.key(0)), 0, jax.random.key(1))   # illegal: ends
    >>> state.terminated.item(), state._step_count.item(), bool(state.final_observation.any())
    (True, 0, True)
    """
    env = getattr(step_fn, "__self__", None)
    if isinstance(env, Env) and step_fn == env.step and init_fn == env.init:
        return env._step_with_reset  # the same function, fused

    def step(state: State, action: Array, key: Array) -> State:
        over = state.terminated | state.truncated
        state = state.replace(
            terminated=state.terminated & ~over,
            truncated=state.truncated & ~over,
            final_observation=jnp.zeros_like(state.final_observation),
        )
        state = step_fn(state, action, key)
        ended = state.terminated | state.truncated
        fresh = init_fn(key).replace(
            rewards=state.rewards,
            terminated=state.terminated,
            truncated=state.truncated,
            final_observation=state.observation,
        )
        out: State = _select(ended, fresh, state)
        return out

    return step


def _select(pick: Array, a: Any, b: Any) -> Any:
    """The pytree ``a`` where ``pick``, else ``b`` (leaf by leaf)."""
    return jax.tree.map(lambda x, y: jnp.where(pick, x, y), a, b)
