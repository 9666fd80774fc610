"""What the batched simulator's players to act see: legal-action masks and observations.

:class:`Views` computes them for every game of a :class:`~liarsdice.sim.bidding.VectorEnv` at
once, from lookup tables where they fit in memory (``limit`` bytes each).
"""

from __future__ import annotations

import itertools
from typing import cast

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.actions import BID_BASE, EXACT, LIAR, NO_SHOW
from liarsdice.core.bidding.rules import ExactCall, ShowReroll
from liarsdice.families.tensors import Floats32
from liarsdice.sim.parts import EnvParts

__all__ = ["Views"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class Views:
    """The masks and observations of a :class:`~liarsdice.sim.bidding.VectorEnv`'s games.

    The legal moves other than shows depend only on (dice in play, current bid, palifico
    round, must raise, show phase): where the table fits, they are computed once for every
    combination by :meth:`moves` itself and looked up by key afterwards (:attr:`key`: each
    game's key at the last :meth:`legal`). The shows depend on the hidden hand, the head of
    the observation on (bid, bidder, seat): tables of their own.
    """

    def __init__(self, env: EnvParts, limit: int) -> None:
        self.env = env
        self.limit = limit
        self._move_tables()
        self._show_tables()
        self._head_rows()

    def _move_tables(self) -> None:
        """The legal moves other than shows by key (see the class docstring), and where
        there are no shows, each key's legal actions listed (for sampling)."""
        env = self.env
        rules = env.rules
        B = env.num_bids
        dims = [env.game.max_quantity + 1, B + 1]
        dims += [2 if rules.palifico else 1]
        dims += [2 if env._show is ShowReroll.AFTER else 1]
        dims += [2 if env._show is ShowReroll.BEFORE else 1]
        self.key_dims = dims
        rows = int(np.prod(dims))
        self.move_table: Bools | None = None
        if rows * env.num_actions <= self.limit:
            grid = np.indices(dims).reshape(len(dims), -1).astype(np.int64)
            cap, bid, pal, must, phase = grid
            self.move_table = self.moves(
                cap, bid - 1, pal.astype(np.bool_), must.astype(np.bool_), phase.astype(np.bool_)
            )
        self.count_table: Ints | None = None
        self.list_table: Ints | None = None
        if self.move_table is not None and env._show is ShowReroll.OFF:
            table = self.move_table
            self.count_table = table.sum(1)
            # each key's legal actions, ascending, padded with its last one
            order = np.argsort(~table, axis=1, kind="stable")
            last = np.maximum(self.count_table - 1, 0)
            j = np.minimum(np.arange(env.num_actions)[None, :], last[:, None])
            self.list_table = np.take_along_axis(order, j, axis=1)
        self.key = np.zeros(env.num_envs, dtype=np.int64)

    def _show_tables(self) -> None:
        """The legal shows by hidden hand: a hand's counts per face, read as digits in base
        (most dice + 1), index a table of hand numbers, which index the shows they allow."""
        env = self.env
        self.show_table: Bools | None = None
        self.radix = (env._max_hand + 1) ** np.arange(env.faces, dtype=np.int64)
        codes = (env._max_hand + 1) ** env.faces
        if env._show is not ShowReroll.OFF and codes <= 2**20:
            hands = np.array(
                [
                    c
                    for c in itertools.product(range(env._max_hand + 1), repeat=env.faces)
                    if sum(c) <= env._max_hand
                ],
                dtype=np.int64,
            )
            if len(hands) * len(env._show_size) <= self.limit:
                self.hand_code = np.zeros(codes, dtype=np.int64)
                self.hand_code[hands @ self.radix] = np.arange(len(hands))
                self.show_table = self.fits(hands)

    def _head_rows(self) -> None:
        """The observation's head (seat, to move, bid, bidder) by (bid, bidder, seat), as
        whole rows of the observation (zeros elsewhere)."""
        env = self.env
        B, P = env.num_bids, env.num_players
        self.head_table: Floats32 | None = None
        sl, D = env.encoding.slices, env.observation_size
        if self.limit >= (B + 1) * (P + 1) * P * D * 4:
            head = np.zeros(((B + 1) * (P + 1) * P, D), dtype=np.float32)
            for b in range(-1, B):
                for bidder in range(-1, P):
                    for seat in range(P):
                        row = head[((b + 1) * (P + 1) + bidder + 1) * P + seat]
                        row[sl["seat"].start + seat] = 1.0
                        row[sl["to_move"].start] = 1.0
                        if b >= 0 and bidder >= 0:
                            row[sl["bid"].start + b] = 1.0
                            row[sl["bidder"].start + (bidder - seat) % P] = 1.0
            self.head_table = head

    def legal(self) -> Bools:
        """The legal actions of every game's player to act (games x actions)."""
        env = self.env
        if self.move_table is not None:
            d = self.key_dims
            key = env.cap * d[1] + env.bid + 1
            if d[2] > 1:
                key = key * 2 + env.palifico
            if d[3] > 1:
                key = key * 2 + env.must_raise
            if d[4] > 1:
                key = key * 2 + env.show_phase
            self.key = key
            mask: Bools = self.move_table.take(key, axis=0)
        else:
            mask = self.moves(env.cap, env.bid, env.palifico, env.must_raise, env.show_phase)
        if env._show is not ShowReroll.OFF:
            self._add_shows(mask)
        return mask

    def moves(self, cap: Ints, bid: Ints, pal: Bools, must: Bools, phase: Bools) -> Bools:
        """The legal moves other than shows, for any batch of (cap, bid, palifico round, must
        raise, show phase)."""
        env = self.env
        rules = env.rules
        B = env.num_bids
        opened = bid >= 0
        bids = env._qty[None, :] <= cap[:, None]
        if env._total_order:
            bids &= env._ids[None, :] > bid[:, None]
        else:
            last = np.maximum(bid, 0)
            above = (env._qty[None, :] >= env._qty[last][:, None]) & (
                env._rank[None, :] >= env._rank[last][:, None]
            )
            above &= env._ids[None, :] != bid[:, None]
            bids &= above | ~opened[:, None]
        if env._no_wild_open:
            no_wild = ~opened & ~pal if rules.palifico else ~opened
            bids &= ~(no_wild[:, None] & (env._face == env._wild)[None, :])
        if rules.palifico:
            r = np.flatnonzero(pal & opened)
            if len(r):
                last = bid[r]
                same = env._face[None, :] == env._face[last][:, None]
                more = env._qty[None, :] > env._qty[last][:, None]
                bids[r] &= same & more
        can_call = opened
        if env._show is ShowReroll.AFTER:
            can_call = opened & ~must
        elif env._show is ShowReroll.BEFORE:
            can_call = opened & ~phase
            bids &= ~phase[:, None]
        mask = np.zeros((len(bid), env.num_actions), dtype=np.bool_)
        mask[:, BID_BASE : BID_BASE + B] = bids
        mask[:, LIAR] = can_call
        if rules.exact is not ExactCall.NONE:
            mask[:, EXACT] = can_call
        if env._show is ShowReroll.BEFORE:
            mask[:, NO_SHOW] = phase
        return mask

    def _add_shows(self, mask: Bools) -> None:
        """Set the legal show actions in ``mask`` (they depend on the hidden hand)."""
        env = self.env
        hand = self.hand_of_player()
        hidden = hand.sum(1)
        if env._show is ShowReroll.AFTER:
            bids = mask[:, BID_BASE : env._show_base]
            may = mask[:, LIAR] & bids.any(1) & (hidden >= 2)
        else:
            may = env.show_phase
        r = np.flatnonzero(may)
        if len(r):
            hand = hand.take(r, axis=0)
            if self.show_table is not None:
                code = self.hand_code.take(hand @ self.radix)
                fits = self.show_table.take(code, axis=0)
            else:
                fits = self.fits(hand)
            mask[r, env._show_base :] = fits

    def fits(self, hand: Ints) -> Bools:
        """The show actions each hidden hand (counts per face) allows."""
        env = self.env
        fits = (env._show_counts[None, :, :] <= hand[:, None, :]).all(2)
        fits &= env._show_size[None, :] < hand.sum(1)[:, None]
        return cast(Bools, fits)

    def hand_of_player(self) -> Ints:
        """The hidden dice (counts per face) of every game's player to act."""
        env = self.env
        N, P, F = env.num_envs, env.num_players, env.faces
        out: Ints = env.hand.reshape(N * P, F).take(env._rows_p + env.player, axis=0)
        return out

    def observe(self) -> Floats32:
        """The observation of every game's player to act (games x observation size)."""
        env = self.env
        sl = env.encoding.slices
        N, P, F, B = env.num_envs, env.num_players, env.faces, env.num_bids
        p = env.player
        if self.head_table is not None:
            key = ((env.bid + 1) * (P + 1) + env.bidder + 1) * P + p
            obs: Floats32 = self.head_table.take(key, axis=0)
        else:
            obs = np.zeros((N, env.observation_size), dtype=np.float32)
            flat = obs.reshape(-1)
            flat[env._rows * env.observation_size + (sl["seat"].start + p)] = 1.0
            obs[:, sl["to_move"].start] = 1.0
            r = np.flatnonzero(env.bid >= 0)
            obs[r, sl["bid"].start + env.bid[r]] = 1.0
            obs[r, sl["bidder"].start + (env.bidder[r] - p[r]) % P] = 1.0
        obs[:, sl["my_dice"]] = self.hand_of_player()
        rel = env._rows_p[:, None] + env._rel_seats.take(p, axis=0)  # N x P flat seats
        obs[:, sl["dice"]] = env.dice.reshape(-1).take(rel)
        if "shown" in sl:
            obs[:, sl["shown"]] = env.shown.reshape(N * P, F).take(rel, axis=0).reshape(N, -1)
        if "stash" in sl:
            obs[:, sl["stash"]] = env.stash
        if "stash_size" in sl:
            obs[:, sl["stash_size"].start] = (env.dice > 0).sum(1)
        if "callers" in sl:
            obs[:, sl["callers"]] = env.called.reshape(-1).take(rel)
        if "palifico" in sl:
            obs[:, sl["palifico"].start] = env.palifico
        if "must_raise" in sl:
            obs[:, sl["must_raise"].start] = env.must_raise
        if "show_phase" in sl:
            obs[:, sl["show_phase"].start] = env.show_phase
        if "scores" in sl:
            obs[:, sl["scores"]] = env.scores.reshape(-1).take(rel)
        if env.bids_made is not None:
            made = env.bids_made.reshape(N * P, B).take(rel, axis=0)
            obs[:, sl["history"]] = made.reshape(N, P * B)
        return obs
