"""Drive the JAX environment and the engine with the same actions and the same dice."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from liarsdice.core.bidding import CHANCE, Rules
from liarsdice.core.bidding.actions import BID_BASE
from liarsdice.core.bidding.rules import FirstOpener, Stash
from liarsdice.jax import Env, JaxBiddingEnv, auto_reset


def case_ids(cases: list[tuple[str, int | None, dict[str, Any], int, int]]) -> list[str]:
    """pytest ids of (preset, players, options, games, steps) cases."""
    return [f"{c[0]}-{c[1]}-{'-'.join(f'{k}={v}' for k, v in c[2].items())}" for c in cases]


def _faces(counts: np.ndarray) -> list[int]:
    return [f + 1 for f, c in enumerate(counts.tolist()) for _ in range(c)]


def round_events(env: JaxBiddingEnv, st: dict[str, np.ndarray], i: int) -> list[int]:
    """The chance outcomes of game ``i``'s round as the engine takes them: each seat's dice
    (sorted), then the stash's."""
    out: list[int] = []
    for seat in range(env.num_players):
        out += _faces(st["hand"][i, seat])
    if env.rules.stash is not Stash.NONE:
        out += _faces(st["stash"][i])
    return out


def game_events(
    env: JaxBiddingEnv, st: dict[str, np.ndarray], i: int, key: Any, rolloff: Any
) -> list[int]:
    """A new game's chance outcomes: the random opener or the roll-off (where drawn, from the
    game's ``key``), then the round's."""
    out: list[int] = []
    first = env.rules.first_opener
    if env.opener is None and first is FirstOpener.RANDOM:
        out.append(int(st["player"][i]))
    elif env.opener is None and first in (FirstOpener.ROLL_ONE, FirstOpener.ROLL_TWO):
        rollers = list(range(env.num_players))
        r = 0
        while len(rollers) > 1:
            faces = np.asarray(rolloff(key, r))
            for seat in rollers:
                out += faces[seat].tolist()
            sums = {seat: int(faces[seat].sum()) for seat in rollers}
            rollers = [seat for seat in rollers if sums[seat] == max(sums.values())]
            r += 1
        assert rollers[0] == st["player"][i], (rollers, st["player"][i])
    return out + round_events(env, st, i)


def differential(
    rules: Rules, players: int | None, n: int, steps: int, seed: int, *, history: bool = False
) -> int:
    """Play ``n`` games at once for ``steps`` steps with random legal actions through the JAX
    environment and the engine, comparing every step. Returns how many games finished."""
    env = JaxBiddingEnv(rules, players=players, history=history)
    game, enc = env.game, env.encoding

    def tick(state: Any, key: Any) -> tuple[Any, ...]:
        """One compiled call a step (compiling dominates the test's time): the state's masks
        and observations, random legal actions, and the step with a key per game."""
        key, k1, k2 = jax.random.split(key, 3)
        mask = jax.vmap(env.legal_mask)(state)
        obs = jax.vmap(env.observe)(state)
        actions = jax.vmap(env.sample_action)(state, jax.random.split(k1, n))
        keys = jax.random.split(k2, n)
        return key, mask, obs, actions, keys, jax.vmap(env.step)(state, actions, keys)

    tick_jit = jax.jit(tick)
    rolloff = jax.jit(env.rolloff_faces)
    key = jax.random.key(seed)
    key, sub = jax.random.split(key)
    keys = jax.random.split(sub, n)
    state = jax.jit(jax.vmap(env.init))(keys)

    def host(s: Any) -> dict[str, np.ndarray]:
        return {k: np.asarray(v) for k, v in s._asdict().items()}

    st = host(state)
    states: list[Any] = []
    for i in range(n):
        s = game.new_initial_state()
        for o in game_events(env, st, i, keys[i], rolloff):
            s = s.apply_event(CHANCE, o)
        states.append(s)
    finished = 0
    for t in range(steps):
        key, mask, obs, actions, keys, out = tick_jit(state, key)
        mask, obs = np.asarray(mask), np.asarray(obs)
        for i, s in enumerate(states):
            where = f"step {t} game {i}"
            assert not s.is_terminal(), where
            assert s.current_player == st["player"][i], where
            legal = np.zeros(env.num_actions, dtype=bool)
            legal[enc.legal_indices(s)] = True
            assert (mask[i] == legal).all(), (where, np.flatnonzero(mask[i]), legal.nonzero())
            p = s.current_player
            want = enc.information_state(s, p) if history else enc.observation(s, p)
            assert (obs[i] == want).all(), (where, obs[i], want)
        state = out.state
        st = host(state)
        acts = np.asarray(actions)
        rewards, done, dice = (np.asarray(x) for x in (out.reward, out.done, out.dice))
        for i in range(n):
            where = f"step {t} game {i}"
            before = states[i]
            s = before.apply_action(enc.to_action(int(acts[i])))
            if done[i]:
                assert s.is_terminal(), where
                assert tuple(dice[i]) == s.dice_counts, (where, dice[i], s.dice_counts)
                np.testing.assert_allclose(rewards[i], s.returns(), rtol=1e-6, err_msg=where)
                finished += 1
                states[i] = _chance(s, [], game, game_events(env, st, i, keys[i], rolloff))
                continue
            assert not s.is_terminal(), where
            assert not rewards[i].any(), where
            if acts[i] >= env.num_bids + BID_BASE:  # a show: the re-rolled dice
                s = _chance(s, None, game, _faces(st["hand"][i, before.current_player]))
            elif s.current_player == CHANCE:  # a call settled: the round's result, a roll
                assert tuple(dice[i]) == s.dice_counts, (where, dice[i], s.dice_counts)
                s = _chance(s, None, game, round_events(env, st, i))
            states[i] = s
    return finished


def _chance(s: Any, fresh: list[int] | None, game: Any, events: list[int]) -> Any:
    if fresh is not None or s is None:
        s = game.new_initial_state()
    for o in events:
        s = s.apply_event(CHANCE, o)
    return s


def pgx_differential(rules: Rules, players: int | None, n: int, steps: int, seed: int) -> int:
    """:func:`differential` through the pgx-shaped :class:`~liarsdice.jax.Env` and
    :func:`~liarsdice.jax.auto_reset`: at every step the player to act, the legal mask, the
    observation and ``observe`` for every seat; at a game's end ``terminated``, the rewards,
    every seat's final observation and the kept ``final_observation``. Returns the games
    finished."""
    env = Env(rules, players=players)
    core, P = env.core, env.num_players
    game, enc = core.game, core.encoding
    reset_step = auto_reset(env.step, env.init)

    def views(state: Any) -> Any:
        return jax.vmap(lambda q: env.observe(state, q))(jnp.arange(P))

    def tick(state: Any, key: Any) -> tuple[Any, ...]:
        key, k1, k2 = jax.random.split(key, 3)
        actions = jax.vmap(core.sample_action)(state._game, jax.random.split(k1, n))
        keys = jax.random.split(k2, n)
        # the plain step, from the state with the flags auto_reset kept cleared (as it does)
        going = state.replace(terminated=state.terminated & False, truncated=state.truncated)
        ended = jax.vmap(env.step)(going, actions, keys)
        nxt = jax.vmap(reset_step)(state, actions, keys)
        return key, jax.vmap(views)(state), actions, keys, ended, jax.vmap(views)(ended), nxt

    tick_jit, rolloff = jax.jit(tick), jax.jit(core.rolloff_faces)
    key, sub = jax.random.split(jax.random.key(seed))
    keys = jax.random.split(sub, n)
    state = jax.jit(jax.vmap(env.init))(keys)
    st = {k: np.asarray(v) for k, v in state._game._asdict().items()}
    states = [_chance(None, [], game, game_events(core, st, i, keys[i], rolloff)) for i in range(n)]
    finished = 0
    for t in range(steps):
        key, seen, actions, keys, ended, last_seen, nxt = tick_jit(state, key)
        _check_decisions(enc, state, np.asarray(seen), states, t)
        acts = np.asarray(actions)
        st = {k: np.asarray(v) for k, v in nxt._game._asdict().items()}
        for i in range(n):
            where = f"step {t} game {i}"
            before = states[i]
            s = before.apply_action(enc.to_action(int(acts[i])))
            assert bool(ended.terminated[i]) == s.is_terminal() == bool(nxt.terminated[i]), where
            np.testing.assert_allclose(ended.rewards[i], nxt.rewards[i], err_msg=where)
            if s.is_terminal():
                np.testing.assert_allclose(ended.rewards[i], s.returns(), rtol=1e-6, err_msg=where)
                for q in range(P):
                    want = enc.observation(s, q)
                    assert (np.asarray(last_seen[i, q]) == want).all(), (
                        where,
                        q,
                        np.asarray(last_seen[i, q]),
                        want,
                        enc.slices,
                    )
                last = int(ended.current_player[i])
                assert (np.asarray(nxt.final_observation[i]) == last_seen[i, last]).all(), where
                finished += 1
                states[i] = _chance(s, [], game, game_events(core, st, i, keys[i], rolloff))
                continue
            assert not np.asarray(ended.rewards[i]).any(), where
            assert not np.asarray(nxt.final_observation[i]).any(), where
            if acts[i] >= core.num_bids + BID_BASE:  # a show: the re-rolled dice
                s = _chance(s, None, game, _faces(st["hand"][i, before.current_player]))
            elif s.current_player == CHANCE:
                s = _chance(s, None, game, round_events(core, st, i))
            states[i] = s
        state = nxt
    return finished


def _check_decisions(enc: Any, state: Any, seen: np.ndarray, states: list[Any], t: int) -> None:
    """Each game's player to act, legal mask, observation and every seat's view."""
    mask, obs = np.asarray(state.legal_action_mask), np.asarray(state.observation)
    player = np.asarray(state.current_player)
    for i, s in enumerate(states):
        where = f"step {t} game {i}"
        assert s.current_player == player[i], where
        legal = np.zeros(mask.shape[1], dtype=bool)
        legal[enc.legal_indices(s)] = True
        assert (mask[i] == legal).all(), where
        assert (obs[i] == enc.observation(s, s.current_player)).all(), where
        for q in range(seen.shape[1]):
            assert (seen[i, q] == enc.observation(s, q)).all(), (where, q)
