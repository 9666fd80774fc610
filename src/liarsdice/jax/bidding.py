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

import itertools
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from liarsdice.core.bidding.actions import BID_BASE, EXACT, LIAR, NO_SHOW
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import (
    Economy,
    ExactCall,
    ExactCount,
    FirstOpener,
    Loss,
    NextOpener,
    Resolution,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
    preset,
)
from liarsdice.core.errors import RulesError
from liarsdice.families.bidding.encoding import BiddingEncoding

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
    unsupported = {
        "economy": rules.economy is not Economy.NONE,
        "calling_advantage": rules.calling_advantage,
    }
    for name, bad in unsupported.items():
        if bad:
            value = getattr(rules, name)
            value = getattr(value, "value", value)
            if isinstance(value, bool):
                value = str(value).lower()
            raise RulesError(
                f"the JAX environment does not support {name}={value} "
                "(use the NumPy simulator, liarsdice.sim.bidding, or the engine)"
            )


class EnvState(NamedTuple):
    """One game's state (a pytree of fixed-shape arrays; batch it with :func:`jax.vmap`).

    ``P`` seats, ``F`` faces, ``B`` bids. ``hand`` and ``stash`` are dice counted per face;
    ``total`` is every die in play per face; ``cap`` how many dice a bid may name; ``bid`` the
    current bid id (-1 before the opening bid) and ``bidder`` its seat; ``bids_made`` the
    round's bids per seat (only with ``history``; else ``P x 0``).
    """

    dice: Array  # (P,) int32: dice per seat, 0 once out
    hand: Array  # (P, F) int32
    stash: Array  # (F,) int32
    total: Array  # (F,) int32
    cap: Array  # () int32
    bid: Array  # () int32
    bidder: Array  # () int32
    player: Array  # () int32: the seat to act
    palifico: Array  # () bool: a palifico round
    palifico_used: Array  # (P,) bool
    called: Array  # (P,) bool: the seats that called the current bid (all-call)
    scores: Array  # (P,) int32: room scores
    shown: Array  # (P, F) int32: dice on show (show-and-reroll)
    must_raise: Array  # () bool: the player to act showed and must raise ('after')
    show_phase: Array  # () bool: the bidder may now show ('before')
    bids_made: Array  # (P, B) bool, or (P, 0)


class StepResult(NamedTuple):
    """What :meth:`JaxBiddingEnv.step` returns."""

    state: EnvState  # the next state (the next game's first state when ``done``)
    reward: Array  # (P,) float32: the engine's returns() when ``done``, else zeros
    done: Array  # () bool: the action ended the game
    dice: Array  # (P,) int32: dice per seat after the action (before a reset)


class JaxBiddingEnv:
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
        self._setup_tables()
        self._setup_show_tables(counts)

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
        if self._mask_table is not None:
            base = self._mask_table[self._table_key(s)]
        else:
            base = self._moves(s.cap, s.bid, s.palifico)
        show = self.rules.show_reroll
        if show is ShowReroll.OFF:
            return base
        calls, bids = base[:BID_BASE], base[BID_BASE:]
        hand = s.hand[s.player]
        hidden = hand.sum()
        if self._hand_index is not None:
            fits = self._show_fits[self._hand_row(hand)]
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

    def _setup_tables(self) -> None:
        """The legal actions depend only on (cap, bid, palifico round): tabulate them (and each
        row's legal actions listed, for sampling) where that fits in ``_TABLE_BYTES``."""
        self._mask_table: Array | None = None
        self._list_table: Array | None = None
        # the calls a row lists first once a bid stands (LIAR, and EXACT where it exists)
        self._num_calls = 1 + (self.rules.exact is not ExactCall.NONE)
        self._count_table: Array | None = None
        pal = 2 if self.rules.palifico else 1
        dims = (self.game.max_quantity + 1, self.num_bids + 1, pal)
        rows = int(np.prod(dims))
        if rows * self.num_actions > _TABLE_BYTES:
            return
        cap, bid, pf = np.indices(dims).reshape(3, -1)
        table = np.asarray(
            jax.jit(jax.vmap(self._moves))(
                jnp.asarray(cap, dtype=jnp.int32),
                jnp.asarray(bid - 1, dtype=jnp.int32),
                jnp.asarray(pf.astype(bool)),
            )
        )
        count = table.sum(1)
        order = np.argsort(~table, axis=1, kind="stable")  # legal actions first, ascending
        j = np.minimum(np.arange(self.num_actions)[None, :], np.maximum(count - 1, 0)[:, None])
        self._mask_table = jnp.asarray(table)
        self._list_table = jnp.asarray(np.take_along_axis(order, j, 1).astype(np.int32))
        self._count_table = jnp.asarray(count.astype(np.int32))

    def _setup_show_tables(self, counts: np.ndarray[Any, Any]) -> None:
        """Show-and-reroll: the shows a hand may make depend only on the hand (its counts per
        face): tabulate, per hand, which shows fit, how many, and their list (for sampling),
        where the hands' code table fits in ``_TABLE_BYTES``."""
        self._hand_index: Array | None = None
        if self.rules.show_reroll is ShowReroll.OFF:
            return
        F, M = self.faces, self.max_hand
        radix = M + 1
        if radix**F * 4 > _TABLE_BYTES:
            return
        hands = [
            h for h in itertools.product(range(radix), repeat=F) if sum(h) <= M
        ]  # every hand of at most M dice, as counts per face
        code = np.zeros(radix**F, dtype=np.int32)
        weights = radix ** np.arange(F)
        hand_arr = np.array(hands, dtype=np.int32)
        code[hand_arr @ weights] = np.arange(len(hands), dtype=np.int32)
        size = counts.sum(1)
        fits = (counts[None, :, :] <= hand_arr[:, None, :]).all(2) & (
            size[None, :] < hand_arr.sum(1)[:, None]
        )
        if not len(self.encoding.shows):
            fits[:] = False
        n = fits.sum(1)
        order = np.argsort(~fits, axis=1, kind="stable")
        self._hand_weights = jnp.asarray(weights.astype(np.int32))
        self._hand_index = jnp.asarray(code)
        self._show_fits = jnp.asarray(fits)
        self._show_num = jnp.asarray(n.astype(np.int32))
        self._show_list = jnp.asarray(order.astype(np.int32))

    def _hand_row(self, hand: Array) -> Array:
        """The row of the show tables for ``hand`` (counts per face)."""
        assert self._hand_index is not None
        return self._hand_index[(hand * self._hand_weights).sum()]

    def sample_action(self, s: EnvState, key: Array) -> Array:
        """A uniformly random legal action, drawn from ``key``."""
        return self.pick_action(s, jax.random.uniform(key))

    def pick_action(self, s: EnvState, u: Array) -> Array:
        """The legal action at ``u`` (uniform in [0, 1)): ``u``'s share of the legal actions
        listed in ascending order (a uniform ``u`` picks a uniformly random legal action)."""
        show = self.rules.show_reroll
        if self._list_table is not None and self._count_table is not None:
            k = self._table_key(s)
            if show is ShowReroll.OFF:
                pick = jnp.floor(u * self._count_table[k]).astype(jnp.int32)
                return self._list_table[k, pick]
            if self._hand_index is not None:
                return self._pick_with_shows(s, u, k)
        mask = self.legal_mask(s)
        pick = jnp.floor(u * mask.sum(dtype=jnp.int32)).astype(jnp.int32)
        rank = jax.lax.associative_scan(jnp.add, mask.astype(jnp.int32))  # log-depth cumsum
        return jnp.argmax(rank > pick).astype(jnp.int32)

    def _pick_with_shows(self, s: EnvState, u: Array, k: Array) -> Array:
        """:meth:`pick_action` under show-and-reroll, from the tables: the legal calls and
        bids of the row ``k`` (less what the show phase or a show rules out), then the shows
        the hand may make, in ascending order."""
        assert self._list_table is not None and self._count_table is not None
        hand = s.hand[s.player]
        row = self._hand_row(hand)
        listed = self._list_table[k]
        base = self._count_table[k]
        calls = jnp.where(s.bid >= 0, self._num_calls, 0)  # the row's calls come first
        shows = self._show_num[row]
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
        late = self._show_base + self._show_list[row, jnp.clip(pick - first, 0, None)]
        return jnp.where(pick < first, early, late).astype(jnp.int32)

    def observe(self, s: EnvState) -> Array:
        """The observation (float32) of the player to act: the encoding's vector."""
        return self.view(s, s.player, jnp.bool_(True))

    def view(self, s: EnvState, viewer: Array, acting: Array) -> Array:
        """Seat ``viewer``'s observation (float32, the encoding's vector); ``acting``: a seat
        is to act (false at a game's end, where the ``to_move`` block is zero)."""
        sl = self.encoding.slices
        P, B = self.num_players, self.num_bids
        p = jnp.asarray(viewer, dtype=jnp.int32)
        # the one-hot head (seat, to_move, bid, bidder) as one comparison with an iota
        j = jnp.arange(sl["my_dice"].start, dtype=jnp.int32)
        bidder = sl["bidder"].start + (s.bidder - p) % P
        head = (j == p) | (acting & (j == sl["to_move"].start + (s.player - p) % P))
        head |= (s.bid >= 0) & ((j == sl["bid"].start + s.bid) | (j == bidder))
        parts: list[Array] = [
            head.astype(jnp.float32),
            s.hand[p].astype(jnp.float32),  # my_dice
            self._relative(s.dice, p).astype(jnp.float32),  # dice
        ]
        parts += self._optional_blocks(s, p)
        if self.history:
            made = self._relative(s.bids_made, p)
            parts.append(made.reshape(P * B).astype(jnp.float32))
        return jnp.concatenate(parts)

    def _optional_blocks(self, s: EnvState, p: Array) -> list[Array]:
        """The observation's blocks that only some rules have, from seat ``p``'s view."""
        sl = self.encoding.slices
        parts: list[Array] = []
        if "shown" in sl:
            parts.append(self._relative(s.shown, p).reshape(-1).astype(jnp.float32))
        if "stash" in sl:
            parts.append(s.stash.astype(jnp.float32))
        if "stash_size" in sl:
            parts.append((s.dice > 0).sum(keepdims=True).astype(jnp.float32))
        if "callers" in sl:
            parts.append(self._relative(s.called, p).astype(jnp.float32))
        if "palifico" in sl:
            parts.append(s.palifico[None].astype(jnp.float32))
        if "must_raise" in sl:
            parts.append(s.must_raise[None].astype(jnp.float32))
        if "show_phase" in sl:
            parts.append(s.show_phase[None].astype(jnp.float32))
        if "scores" in sl:
            parts.append(self._relative(s.scores, p).astype(jnp.float32))
        return parts

    def _relative(self, x: Array, p: Array) -> Array:
        """``x`` (per seat, first axis) from seat ``p``'s view: row ``k`` is seat ``p + k``."""
        twice = jnp.concatenate([x, x])
        return jax.lax.dynamic_slice_in_dim(twice, p, self.num_players)

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
        called, reward, done, dice, end = self._resolve(s, a, key, reset, force)
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

    # ------------------------------------------------------------- resolution
    def _resolve(
        self, s: EnvState, a: Array, key: Array, reset: bool, force: Array | None
    ) -> tuple[EnvState, Array, Array, Array, EnvState]:
        """The call ``a`` on the current bid, settled as the engine does: dice lost and won,
        the game's end (rewards, the next game or, without ``reset``, the end state) or the
        next round's opener and roll; ``force``: start the next game anyway. Also the end
        state (the engine's terminal state) where the call ends the game."""
        rules = self.rules
        P = self.num_players
        seats = self._seats
        caller, bidder = s.player, s.bidder
        last = jnp.maximum(s.bid, 0)
        q, face = self._qty[last], self._face[last]
        count = s.total[face - 1]
        wild = rules.wild
        if wild is not None:
            use = face != wild
            if rules.palifico:
                use &= ~s.palifico
            count = count + jnp.where(use, s.total[wild - 1], 0)
        liar = a == LIAR
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
        gains = zeros
        if rules.exact is not ExactCall.NONE:
            exact = ~liar
            right = exact & (count == q)
            wrong = exact & (count != q)
            winner = jnp.where(right, caller, jnp.where(wrong, bidder, winner))
            losses = jnp.where(wrong & (seats == caller), 1, losses)
            if rules.exact is ExactCall.SPOT_ON:
                spot = (active & (seats != caller)).astype(jnp.int32)
                losses = jnp.where(right, spot, losses)
            else:  # calza: a right call wins a die back, up to the start
                regain = right & (dice[caller] < self._start[caller])
                gains = jnp.where(regain & (seats == caller), 1, zeros)
        losers = losses > 0
        new = dice + gains
        new = new - jnp.minimum(losses, new)

        live = new > 0
        scores = s.scores
        if rules.scoring is Scoring.SINGLE_ROUND:
            over = jnp.bool_(True)
            champion = winner
        else:
            alive = live.sum()
            over = stood | (alive <= 1)
            champion = jnp.where(stood | (alive == 0), winner, jnp.argmax(live))
        if rules.scoring is Scoring.ROOM:
            scores = scores + jnp.where(stood, jnp.where(seats == bidder, 1, -1), 0)
            scores = scores - (active & ~live)
            reward = scores.astype(jnp.float32)
        else:
            reward = jnp.where(seats == champion, 1.0, -1.0 / (P - 1)).astype(jnp.float32)
        reward = jnp.where(over, reward, 0.0)

        # the next round's opener
        clockwise = (seats - bidder) % P
        big = jnp.int32(10**6)
        nxt = rules.next_opener
        if nxt is NextOpener.WINNER:
            opener = winner
        elif nxt is NextOpener.BIDDER:
            opener = bidder
        else:
            alive_losers = losers & live
            fewest = jnp.argmax(-jnp.where(alive_losers, new * P + clockwise, big))
            first = jnp.argmax(-jnp.where(losers, clockwise, big))
            opener = jnp.where(~losers.any(), caller, jnp.where(alive_losers.any(), fewest, first))
        palifico, used = s.palifico, s.palifico_used
        if rules.palifico:
            fresh = (new == 1) & (dice > 1) & ~used
            has_fresh = fresh.any()
            first_fresh = jnp.argmax(-jnp.where(fresh, clockwise, big))
            opener = jnp.where(has_fresh, first_fresh, opener)
            palifico = has_fresh
            used = used | (has_fresh & (seats == first_fresh))
        opener = opener.astype(jnp.int32)
        opener = jnp.where(new[opener] == 0, self._next_seat(new, opener), opener)
        words = self._words(key, self._num_words)
        end = s._replace(
            dice=new,
            scores=scores,
            called=s.called | (seats == caller),
            palifico=jnp.bool_(False),
        )
        going = s._replace(palifico=palifico, palifico_used=used, scores=scores)
        if reset:  # one roll: the next round's or (when over or forced) the next game's
            restart = over if force is None else over | force
            state = self._roll_round(words, key, restart, going, new, opener)
        elif rules.scoring is Scoring.SINGLE_ROUND:
            state = end
        else:
            state = self._round(words, going, new, opener)
            state = jax.tree.map(lambda x, y: jnp.where(over, x, y), end, state)
        return state, reward, over, new, end

    def _roll_round(
        self, words: Array, key: Array, restart: Array, going: EnvState, dice: Array, opener: Array
    ) -> EnvState:
        """A new round of ``going`` with ``dice`` and ``opener`` or, where ``restart``, the
        next game's first state (the same words: a game ends or a round starts, never
        both), rolled once."""
        fresh = going._replace(
            palifico=jnp.bool_(False),
            palifico_used=jnp.zeros_like(going.palifico_used),
            scores=jnp.zeros_like(going.scores),
        )
        base = jax.tree.map(lambda x, y: jnp.where(restart, x, y), fresh, going)
        first = self._first_opener(words, key)
        return self._round(
            words, base, jnp.where(restart, self._start, dice), jnp.where(restart, first, opener)
        )


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
