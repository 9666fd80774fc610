"""The bidding family as a pure JAX environment: ``init(key)`` and ``step(state, action, key)``
over a fixed-shape :class:`EnvState` pytree, ``jit``- and ``vmap``-able.

One :class:`JaxBiddingEnv` holds one rule set (static: the rules choose the code that is
traced); its methods work on **one** game and are batched with :func:`jax.vmap`. Actions are
the dense indices of :class:`~liarsdice.families.bidding.encoding.BiddingEncoding` (the
engine's integers: ``0`` liar, ``1`` exact, ``8 + i`` bid ``i``), observations are that
encoding's vectors of the player to act (the same vector as the NumPy simulator's and the
engine's for the same state), rewards are the engine's ``returns()``.

A finished game starts the next one inside the same ``step`` (the NumPy simulator's
``SAME_STEP`` auto-reset): :class:`StepResult` carries the reward, the ``done`` flag and the
dice per seat after the call (before any reset). Chance is drawn from the ``key`` given to
``step``: the new round's dice (or the next game's dice and opener) when the action ends one.
Challenges are settled in :mod:`liarsdice.jax.settle`, observations made in
:mod:`liarsdice.jax.observe`, lookup tables built in :mod:`liarsdice.jax.tables`; what the
environment supports is the table of :mod:`liarsdice.core.bidding.support`.

>>> import jax
>>> env = JaxBiddingEnv("perudo", players=3)
>>> keys = jax.random.split(jax.random.key(0), 8)
>>> state = jax.vmap(env.init)(keys)
>>> jax.vmap(env.observe)(state).shape, jax.vmap(env.legal_mask)(state).shape
((8, 109), (8, 98))
>>> step, sample = jax.jit(jax.vmap(env.step)), jax.jit(jax.vmap(env.sample_action))
>>> done = 0
>>> for i in range(300):
...     k1, k2 = jax.random.split(jax.random.key(i))
...     out = step(state, sample(state, jax.random.split(k1, 8)), jax.random.split(k2, 8))
...     state, done = out.state, done + int(out.done.sum())
>>> done > 0
True
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from liarsdice.core.bidding.actions import BID_BASE, EXACT, LIAR, NO_SHOW
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import (
    ExactCall,
    FirstOpener,
    Resolution,
    Rules,
    ShowReroll,
    Stash,
    preset,
)
from liarsdice.core.bidding.support import unsupported
from liarsdice.core.errors import RulesError
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.jax.observe import observation
from liarsdice.jax.parts import EnvParts
from liarsdice.jax.settle import settle
from liarsdice.jax.state import EnvState
from liarsdice.jax.tables import move_tables, show_tables

__all__ = ["EnvState", "JaxBiddingEnv", "StepResult", "check_supported"]

Array = jax.Array

_TABLE_BYTES = 16 * 2**20  # the most memory a lookup table of legal actions may take


def check_supported(rules: Rules) -> None:
    """Raise :class:`RulesError` naming the option when the JAX environment does not cover
    ``rules`` (economies, the calling
    advantage).

    >>> check_supported(preset("perudo"))
    >>> check_supported(preset("house-rules"))
    >>> check_supported(preset("spot-on", economy="chips"))
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RulesError: the JAX environment does not support economy=chips ...
    """
    for name, value in unsupported(rules, "jax"):
        raise RulesError(
            f"the JAX environment does not support {name}={value} "
            "(use the NumPy simulator, liarsdice.sim.bidding, or the engine)"
        )


class StepResult(NamedTuple):
    """What :meth:`JaxBiddingEnv.step` returns."""

    state: EnvState  # the next state (the next game's first state when ``done``)
    reward: Array  # (P,) float32: the engine's returns() when ``done``, else zeros
    done: Array  # () bool: the action ended the game
    dice: Array  # (P,) int32: dice per seat after the action (before a reset)


class JaxBiddingEnv(EnvParts):
    """One bidding-family rule set (a preset name or :class:`Rules`) as pure JAX functions.

    ``players``: the number of seats (default: the rules'); ``opener``: the first round's
    opener (default: the rules' way); ``history``: observations are the information-state
    layout (with the round's bids).
    """

    def __init__(
        self,
        rules: Rules | str,
        *,
        players: int | None = None,
        opener: int | None = None,
        history: bool = False,
    ) -> None:
        if isinstance(rules, str):
            rules = preset(rules)
        check_supported(rules)
        self.rules = rules
        self.game = game = Game(rules, players, opener=opener)
        self.encoding = enc = BiddingEncoding(game)
        self.num_players = P = game.num_players
        self.faces = rules.faces
        self.num_actions = enc.num_actions
        self.num_bids = B = len(game.space)
        self.history = history
        self.observation_size = enc.info_size if history else enc.size
        self.opener = opener
        self.max_hand = max(game.start_dice)
        space = game.space
        self._qty = jnp.asarray(np.array(space.quantity, dtype=np.int32))
        self._face = jnp.asarray(np.array(space.face, dtype=np.int32))
        self._rank = jnp.asarray(np.array(space.rank, dtype=np.int32))
        self._ids = jnp.arange(B, dtype=jnp.int32)
        self._start = jnp.asarray(np.array(game.start_dice, dtype=np.int32))
        self._seats = jnp.arange(P, dtype=jnp.int32)
        self._history_bids = B if history else 0
        # random words a roll takes: P x max_hand dice, P stash dice, the first opener
        self._num_words = P * (self.max_hand + 1) + 1
        self._per = 2 if rules.first_opener is FirstOpener.ROLL_TWO else 1
        counts = np.zeros((max(len(enc.shows), 1), self.faces), dtype=np.int32)
        for k, ms in enumerate(enc.shows):
            for f in ms:
                counts[k, f - 1] += 1
        self._show_counts = jnp.asarray(counts)
        self._show_size = jnp.asarray(counts.sum(1))
        self._show_base = BID_BASE + B
        self._tables = move_tables(self, _TABLE_BYTES)
        # the calls a row lists first once a bid stands (LIAR, and EXACT where it exists)
        self._num_calls = 1 + (rules.exact is not ExactCall.NONE)
        self._shows = show_tables(self, counts, _TABLE_BYTES)

    # ------------------------------------------------------------------ helpers
    def _next_seat(self, dice: Array, p: Array) -> Array:
        """The next seat after ``p`` clockwise that has dice."""
        P = self.num_players
        if P == 2:
            return 1 - p
        cand = (p + jnp.arange(1, P, dtype=jnp.int32)) % P
        return cand[jnp.argmax(dice[cand] > 0)]

    def _words(self, key: Array, n: int, start: int | Array = 0) -> Array:
        """Random uint32 words ``start .. start + n - 1`` of ``key``'s stream (``key``: a PRNG
        key, or two uint32 words of random bits): 64 bits drawn from the key, spread by a
        counter-based mixer (cheaper than drawing every word from the key, which dominates a
        CPU step). Words ``0 .. P * (max_hand + 1)`` roll a round (and a random opener), the
        next one is :meth:`uniform`'s, and a roll-off's dice follow."""
        if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
            seed = jax.random.bits(key, (2,), jnp.uint32)
        else:
            seed = key.astype(jnp.uint32)
        counter = jnp.asarray(start, dtype=jnp.uint32) + jnp.arange(n, dtype=jnp.uint32)
        return _mix(seed[0] ^ _mix(seed[1] + counter * jnp.uint32(0x9E3779B9)))

    def rolloff_faces(self, key: Array, r: Array | int) -> Array:
        """The faces (1-based, ``P x per``) every seat rolls in round ``r`` of a roll-off for
        the first opener drawn from ``key`` (only the seats still rolling count)."""
        P, per = self.num_players, self._per
        start = self._num_words + 1 + jnp.asarray(r, dtype=jnp.uint32) * jnp.uint32(P * per)
        return self._faces(self._words(key, P * per, start)).reshape(P, per) + 1

    def _roll_off(self, key: Array) -> Array:
        """Every seat rolls ``per`` dice, the highest total opens; tied seats roll again."""

        def again(c: tuple[Array, Array]) -> Array:
            return c[0].sum() > 1

        def roll(c: tuple[Array, Array]) -> tuple[Array, Array]:
            rollers, r = c
            sums = jnp.where(rollers, self.rolloff_faces(key, r).sum(1), 0)
            return rollers & (sums == sums.max()), r + 1

        init = (jnp.ones(self.num_players, dtype=jnp.bool_), jnp.int32(0))
        rollers, _ = jax.lax.while_loop(again, roll, init)
        return jnp.argmax(rollers).astype(jnp.int32)

    def uniform(self, key: Array) -> Array:
        """A uniform float in [0, 1) from ``key`` (a PRNG key or two uint32 words), off the
        counter stream that :meth:`step` draws its chance from with the same key: pick the
        action with it (:meth:`pick_action`) and step with the same key, one draw for both."""
        word = self._words(key, 1, self._num_words)[0]  # (only the one word, not the rolls')
        u: Array = (word >> 8).astype(jnp.float32) * jnp.float32(2**-24)
        return u

    def _faces(self, words: Array) -> Array:
        """Uniform faces ``0..F-1`` from uint32 words (the high word of ``word * F``)."""
        return _mul_hi(words, self.faces).astype(jnp.int32)

    def _roll(self, words: Array, dice: Array) -> tuple[Array, Array]:
        """Every seat's hand (counts per face) for ``dice`` per seat, and the stash (one die per
        seat with dice, when the rules have one), from ``P * (max_hand + 1)`` random words."""
        P, M = self.num_players, self.max_hand
        faces = self._faces(words[: P * M]).reshape(P, M)
        keep = jnp.arange(M, dtype=jnp.int32)[None, :] < dice[:, None]
        hand = self._count(faces, keep)
        if self.rules.stash is Stash.NONE:
            return hand, jnp.zeros(self.faces, dtype=jnp.int32)
        active = (dice > 0).sum(dtype=jnp.int32)
        sf = self._faces(words[P * M : P * M + P])
        return hand, self._count(sf[None, :], (self._seats < active)[None, :])[0]

    def _count(self, faces: Array, keep: Array) -> Array:
        """Dice counted per face, row by row: ``faces`` (rows x dice) where ``keep``."""
        F = self.faces
        f = jnp.arange(F, dtype=jnp.int32)
        if F * 5 <= 32 and faces.shape[1] < 32:  # 5-bit counters, one per face, in a word
            ones = jnp.where(keep, jnp.uint32(1) << (5 * faces).astype(jnp.uint32), 0)
            packed = ones.sum(1, dtype=jnp.uint32)
            fields = packed[:, None] >> (5 * f).astype(jnp.uint32)
            counts: Array = (fields & jnp.uint32(31)).astype(jnp.int32)
            return counts
        onehot = (faces[:, :, None] == f) & keep[:, :, None]
        return onehot.sum(1, dtype=jnp.int32)

    def _round(self, words: Array, s: EnvState, dice: Array, opener: Array) -> EnvState:
        """A new round: roll the dice (and the stash); ``opener`` opens."""
        hand, stash = self._roll(words, dice)
        cap = dice.sum(dtype=jnp.int32)
        if self.rules.stash is not Stash.NONE:
            cap = cap + (dice > 0).sum(dtype=jnp.int32)
        return s._replace(
            dice=dice,
            hand=hand,
            stash=stash,
            total=hand.sum(0, dtype=jnp.int32) + stash,
            cap=cap,
            bid=jnp.int32(-1),
            bidder=jnp.int32(-1),
            player=opener.astype(jnp.int32),
            called=jnp.zeros_like(s.called),
            shown=jnp.zeros_like(s.shown),
            must_raise=jnp.bool_(False),
            show_phase=jnp.bool_(False),
            bids_made=jnp.zeros_like(s.bids_made),
        )

    def _first_opener(self, words: Array, key: Array) -> Array:
        first = self.rules.first_opener
        if self.opener is not None or first is FirstOpener.GIVEN:
            return jnp.asarray(self.opener or 0, dtype=jnp.int32)
        if first is FirstOpener.RANDOM:
            return _mul_hi(words[-1], self.num_players).astype(jnp.int32)
        return self._roll_off(key)

    # ---------------------------------------------------------------- interface
    def init(self, key: Array) -> EnvState:
        """A new game's first decision state (dice rolled, opener chosen) from ``key``."""
        P, F = self.num_players, self.faces
        blank = EnvState(
            dice=self._start,
            hand=jnp.zeros((P, F), dtype=jnp.int32),
            stash=jnp.zeros(F, dtype=jnp.int32),
            total=jnp.zeros(F, dtype=jnp.int32),
            cap=jnp.int32(0),
            bid=jnp.int32(-1),
            bidder=jnp.int32(-1),
            player=jnp.int32(0),
            palifico=jnp.bool_(False),
            palifico_used=jnp.zeros(P, dtype=jnp.bool_),
            called=jnp.zeros(P, dtype=jnp.bool_),
            scores=jnp.zeros(P, dtype=jnp.int32),
            shown=jnp.zeros((P, F), dtype=jnp.int32),
            must_raise=jnp.bool_(False),
            show_phase=jnp.bool_(False),
            bids_made=jnp.zeros((P, self._history_bids), dtype=jnp.bool_),
        )
        words = self._words(key, self._num_words)
        return self._round(words, blank, self._start, self._first_opener(words, key))

    def _table_key(self, s: EnvState) -> Array:
        key = s.cap * (self.num_bids + 1) + s.bid + 1
        return key * 2 + s.palifico if self.rules.palifico else key

    def legal_mask(self, s: EnvState) -> Array:
        """The player to act's legal actions (``num_actions`` bools, the dense indices)."""
        if self._tables is not None:
            base = self._tables.mask[self._table_key(s)]
        else:
            base = self._moves(s.cap, s.bid, s.palifico)
        show = self.rules.show_reroll
        if show is ShowReroll.OFF:
            return base
        calls, bids = base[:BID_BASE], base[BID_BASE:]
        hand = s.hand[s.player]
        hidden = hand.sum()
        if self._shows is not None:
            fits = self._shows.fits[self._hand_row(hand)]
        else:
            fits = (self._show_counts <= hand).all(1) & (self._show_size < hidden)
        if show is ShowReroll.AFTER:
            calls = calls & ~s.must_raise
            shows = fits & calls[LIAR] & bids.any() & (hidden >= 2)
        else:
            calls = (calls & ~s.show_phase).at[NO_SHOW].set(s.show_phase)
            bids = bids & ~s.show_phase
            shows = fits & s.show_phase
        return jnp.concatenate([calls, bids, shows])

    def _moves(self, cap: Array, bid: Array, palifico: Array) -> Array:
        """The legal actions for (dice a bid may name, current bid, palifico round)."""
        rules = self.rules
        qty, face, rank = self._qty, self._face, self._rank
        opened = bid >= 0
        last = jnp.maximum(bid, 0)
        bids = qty <= cap
        if self.game.space.total_order:
            bids &= self._ids > bid
        else:
            above = (qty >= qty[last]) & (rank >= rank[last]) & (self._ids != bid)
            bids &= above | ~opened
        if not rules.open_on_wild and rules.wild is not None:
            no_wild = ~opened & ~palifico if rules.palifico else ~opened
            bids &= ~(no_wild & (face == rules.wild))
        if rules.palifico:
            same = (face == face[last]) & (qty > qty[last])
            bids &= ~(palifico & opened) | same
        calls = jnp.zeros(BID_BASE, dtype=jnp.bool_).at[LIAR].set(opened)
        if rules.exact is not ExactCall.NONE:
            calls = calls.at[EXACT].set(opened)
        return jnp.concatenate([calls, bids])

    def _hand_row(self, hand: Array) -> Array:
        """The row of the show tables for ``hand`` (counts per face)."""
        assert self._shows is not None
        return self._shows.rows[(hand * self._shows.weights).sum()]

    def sample_action(self, s: EnvState, key: Array) -> Array:
        """A uniformly random legal action, drawn from ``key``."""
        return self.pick_action(s, jax.random.uniform(key))

    def pick_action(self, s: EnvState, u: Array) -> Array:
        """The legal action at ``u`` (uniform in [0, 1)): ``u``'s share of the legal actions
        listed in ascending order (a uniform ``u`` picks a uniformly random legal action)."""
        show = self.rules.show_reroll
        if self._tables is not None:
            k = self._table_key(s)
            if show is ShowReroll.OFF:
                pick = jnp.floor(u * self._tables.counts[k]).astype(jnp.int32)
                return self._tables.listed[k, pick]
            if self._shows is not None:
                return self._pick_with_shows(s, u, k)
        mask = self.legal_mask(s)
        pick = jnp.floor(u * mask.sum(dtype=jnp.int32)).astype(jnp.int32)
        rank = jax.lax.associative_scan(jnp.add, mask.astype(jnp.int32))  # log-depth cumsum
        return jnp.argmax(rank > pick).astype(jnp.int32)

    def _pick_with_shows(self, s: EnvState, u: Array, k: Array) -> Array:
        """:meth:`pick_action` under show-and-reroll, from the tables: the legal calls and
        bids of the row ``k`` (less what the show phase or a show rules out), then the shows
        the hand may make, in ascending order."""
        assert self._tables is not None and self._shows is not None
        hand = s.hand[s.player]
        row = self._hand_row(hand)
        listed = self._tables.listed[k]
        base = self._tables.counts[k]
        calls = jnp.where(s.bid >= 0, self._num_calls, 0)  # the row's calls come first
        shows = self._shows.num[row]
        if self.rules.show_reroll is ShowReroll.AFTER:
            # having shown, the player must raise (no calls); shows only where a call and a
            # raise are both open, with two hidden dice or more
            skip = jnp.where(s.must_raise, calls, 0)
            ok = ~s.must_raise & (s.bid >= 0) & (base > calls) & (hand.sum() >= 2)
            first = base - skip
            total = first + jnp.where(ok, shows, 0)
            pick = jnp.floor(u * total).astype(jnp.int32)
            early = listed[jnp.minimum(skip + pick, listed.shape[0] - 1)]
        else:  # before: in the show phase, declining (NO_SHOW) or a show; else the row
            phase = s.show_phase
            first = jnp.where(phase, 1, base)
            total = first + jnp.where(phase, shows, 0)
            pick = jnp.floor(u * total).astype(jnp.int32)
            early = jnp.where(phase, NO_SHOW, listed[jnp.minimum(pick, listed.shape[0] - 1)])
        late = self._show_base + self._shows.listed[row, jnp.clip(pick - first, 0, None)]
        return jnp.where(pick < first, early, late).astype(jnp.int32)

    def observe(self, s: EnvState) -> Array:
        """The observation (float32) of the player to act: the encoding's vector."""
        return self.view(s, s.player, jnp.bool_(True))

    def view(self, s: EnvState, viewer: Array, acting: Array) -> Array:
        """Seat ``viewer``'s observation (float32, the encoding's vector); ``acting``: a seat
        is to act (false at a game's end, where the ``to_move`` block is zero)."""
        return observation(self, s, viewer, acting)

    def step(self, s: EnvState, action: Array, key: Array) -> StepResult:
        """The player to act takes ``action`` (a legal dense index; an illegal one is not
        checked: use :meth:`legal_mask`); ``key`` draws any chance that follows. A finished
        game starts the next one in the same call."""
        return self.transition(s, action, key, reset=True)

    def transition(self, s: EnvState, action: Array, key: Array, *, reset: bool) -> StepResult:
        """:meth:`step`; with ``reset=False`` a finished game stays at its end (the last
        round's hands and bid, the dice after the call: the engine's terminal state) and the
        step draws nothing from ``key``."""
        return self.transition_ending(s, action, key, reset=reset)[0]

    def transition_ending(
        self, s: EnvState, action: Array, key: Array, *, reset: bool, force: Array | None = None
    ) -> tuple[StepResult, EnvState]:
        """:meth:`transition`, and the end state (the engine's terminal state) where the
        action ends the game; with ``reset``, ``force`` (bool) starts the next game in place of
        whatever the action leads to (the same single roll)."""
        a = jnp.asarray(action, dtype=jnp.int32)
        p = s.player
        b = a - BID_BASE
        made = s.bids_made
        if self.history:
            made = made.at[p, jnp.maximum(b, 0)].set(True)
        nxt = self._next_seat(s.dice, p)
        after_bid = s._replace(
            bid=b, bidder=p, player=nxt, bids_made=made, called=jnp.zeros_like(s.called)
        )
        show = self.rules.show_reroll
        if show is ShowReroll.AFTER:
            after_bid = after_bid._replace(must_raise=jnp.bool_(False))
        elif show is ShowReroll.BEFORE:
            to_show = (s.bid >= 0) & (s.hand[p].sum() >= 2)
            after_bid = after_bid._replace(show_phase=to_show, player=jnp.where(to_show, p, nxt))
        called, reward, done, dice, end = settle(self, s, a, key, reset, force)
        keep = jnp.bool_(True) if force is None else ~force  # bids and shows stand
        is_bid = a >= BID_BASE
        if show is not ShowReroll.OFF:
            is_bid &= a < self._show_base
        if self.rules.resolution is Resolution.ALL_CALL:
            # a call waits until every other seat with dice has called
            marked = s.called | (self._seats == p)
            wait = marked.sum() < (s.dice > 0).sum() - 1
            waiting = s._replace(called=marked, player=nxt)
            called = jax.tree.map(lambda x, y: jnp.where(wait & keep, x, y), waiting, called)
            reward = jnp.where(wait, 0.0, reward)
            done = done & ~wait
            dice = jnp.where(wait, s.dice, dice)
        state = jax.tree.map(lambda x, y: jnp.where(is_bid & keep, x, y), after_bid, called)
        if show is not ShowReroll.OFF:
            # a show, or (before) declining to show: no call, the round goes on
            other = self._show(s, a, key, nxt)
            is_bid |= a >= self._show_base
            if show is ShowReroll.BEFORE:
                declined = s._replace(show_phase=jnp.bool_(False), player=nxt)
                other = jax.tree.map(lambda x, y: jnp.where(a == NO_SHOW, x, y), declined, other)
                is_bid |= a == NO_SHOW
            moved = (a >= self._show_base) | (a == NO_SHOW)
            state = jax.tree.map(lambda x, y: jnp.where(moved & keep, x, y), other, state)
        zero = jnp.zeros_like(reward)
        out = StepResult(
            state, jnp.where(is_bid, zero, reward), done & ~is_bid, jnp.where(is_bid, s.dice, dice)
        )
        return out, end

    def _show(self, s: EnvState, a: Array, key: Array, nxt: Array) -> EnvState:
        """The player to act shows show ``a``'s dice and re-rolls the rest of its hidden dice."""
        p = s.player
        j = jnp.clip(a - self._show_base, 0, len(self.encoding.shows) - 1)
        shown = self._show_counts[j]
        rest = s.hand[p] - shown
        M = self.max_hand
        faces = self._faces(self._words(key, M))
        new = self._count(faces[None, :], (jnp.arange(M) < rest.sum())[None, :])[0]
        out = s._replace(
            hand=s.hand.at[p].set(new),
            shown=s.shown.at[p].add(shown),
            total=s.total + new - rest,
        )
        if self.rules.show_reroll is ShowReroll.AFTER:
            return out._replace(must_raise=jnp.bool_(True))
        return out._replace(show_phase=jnp.bool_(False), player=nxt)


def _mix(x: Array) -> Array:
    """A 32-bit integer hash with full avalanche (MurmurHash3's finaliser)."""
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


def _mul_hi(x: Array, m: int) -> Array:
    """``floor(x * m / 2**32)`` for uint32 ``x`` and a small ``m``, exactly, in 32-bit
    arithmetic: a uniform integer in ``0..m-1`` (bias below ``m / 2**32``)."""
    hi, lo = x >> 16, x & jnp.uint32(0xFFFF)
    out: Array = (hi * jnp.uint32(m) + ((lo * jnp.uint32(m)) >> 16)) >> 16
    return out
