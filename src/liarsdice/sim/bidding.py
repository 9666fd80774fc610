"""The batched simulator: ``N`` bidding-family games stepped at once in NumPy arrays.

:class:`VectorEnv` plays whole games (every round, multi-player elimination, palifico rounds,
calza, spot-on, show-and-reroll, stashes, all-call rooms) for ``N`` tables at once, with a
Gymnasium-style vector interface: :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return
observations of the player to act (:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`),
legal
action masks over the dense action indices, rewards and done flags. A finished game resets
itself in the same step (Gymnasium's ``SAME_STEP`` auto-reset): its row of the returned
observation is the first decision of the next game, and its result is in ``rewards``.

Chance (dice, random openers, roll-offs, re-rolls) is drawn inside the simulator from a NumPy
generator; every decision it returns is a player's. The rules are the engine's, exactly:
``tests/sim/test_sim.py`` replays batched games through
:class:`~liarsdice.core.bidding.game.Game` with the same dice and actions and compares every step.
Challenges are settled in :mod:`liarsdice.sim.settle`, masks and observations computed in
:mod:`liarsdice.sim.views`; what the simulator supports is the table of
:mod:`liarsdice.core.bidding.support`.

>>> env = VectorEnv("perudo", 8, players=3, seed=1)
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape, info["current_player"].shape
((8, 109), (8, 98), (8,))
>>> rng = np.random.default_rng(0)
>>> finished = 0
>>> for _ in range(500):
...     obs, rewards, terminated, truncated, info = env.step(env.sample_actions(rng))
...     finished += int(terminated.sum())
>>> finished > 0, sorted(set(rewards[terminated].ravel().tolist())) in ([], [-0.5, 1.0])
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.actions import BID_BASE, EXACT, NO_SHOW
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import (
    FirstOpener,
    Resolution,
    Rules,
    Scoring,
    ShowReroll,
    Stash,
    preset,
)
from liarsdice.core.bidding.support import restricted, unsupported
from liarsdice.core.errors import IllegalActionError, RulesError
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.families.tensors import Floats32
from liarsdice.sim.parts import EnvParts
from liarsdice.sim.settle import settle
from liarsdice.sim.views import Views

__all__ = ["UNSUPPORTED", "WAIT", "VectorEnv", "check_supported"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

#: Rule options the batched simulator rejects some values of (none of them in a preset; the
#: table of what each engine supports: :data:`liarsdice.core.bidding.support.SUPPORT`).
UNSUPPORTED = restricted("sim")

#: The action that leaves a game as it is in a step (:meth:`VectorEnv.step`): its player to act
#: waits while the other games move.
WAIT = -1

_WHY = {"economy": " (chips and bought dice)"}  # said beside the option refused
_TABLE_BYTES = 16 * 2**20  # the most memory a lookup table may take


def check_supported(rules: Rules) -> None:
    """Raise :class:`RulesError` naming the option when the batched simulator does not cover
    ``rules``.

    >>> check_supported(preset("perudo"))
    >>> check_supported(preset("spot-on", economy="rich-man"))
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RulesError: the batched simulator does not support economy=rich-man ...
    """
    for name, value in unsupported(rules, "sim"):
        raise RulesError(
            f"the batched simulator does not support {name}={value}{_WHY.get(name, '')}; "
            "use the engine (liarsdice.core.Game) for it"
        )


class VectorEnv(EnvParts):
    """``num_envs`` games of one bidding-family rule set, stepped together.

    ``rules``: a preset name or a :class:`~liarsdice.core.bidding.rules.Rules`; ``players``: the
    number of seats (default: the rules'); ``opener``: the first round's opener (default: the
    rules' way, e.g. a random seat or a roll-off); ``history``: observations are the
    information-state layout (with the round's bid history); ``record``: keep every chance
    outcome in :attr:`chance_log` (for replaying games through the engine; slow).

    Actions are dense indices (:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`): the
    engine's
    integers for calls and bids. ``rewards`` has one row per game and one column per seat:
    the engine's ``returns()`` in the step that ends a game, zero otherwise.
    """

    def __init__(
        self,
        rules: Rules | str,
        num_envs: int,
        *,
        players: int | None = None,
        seed: int | None = None,
        opener: int | None = None,
        history: bool = False,
        record: bool = False,
    ) -> None:
        if isinstance(rules, str):
            rules = preset(rules)
        check_supported(rules)
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.rules = rules
        self.game = Game(rules, players, opener=opener)
        self.encoding = BiddingEncoding(self.game)
        self.num_envs = N = num_envs
        self.num_players = P = self.game.num_players
        self.faces = F = rules.faces
        self.num_actions = self.encoding.num_actions
        self.history = history
        self.observation_size = self.encoding.info_size if history else self.encoding.size
        self.opener = opener
        self.rng = np.random.default_rng(seed)
        self.chance_log: list[list[int]] | None = [[] for _ in range(N)] if record else None

        space = self.game.space
        self.num_bids = B = len(space)
        self._qty = np.array(space.quantity, dtype=np.int64)
        self._face = np.array(space.face, dtype=np.int64)
        self._rank = np.array(space.rank, dtype=np.int64)
        self._ids = np.arange(B, dtype=np.int64)
        self._total_order = space.total_order
        self._wild = rules.wild
        self._no_wild_open = not rules.open_on_wild and rules.wild is not None
        self._start = np.array(self.game.start_dice, dtype=np.int64)
        self._max_hand = int(self._start.max())
        self._seats = np.arange(P, dtype=np.int64)
        self._offsets = np.arange(1, P, dtype=np.int64)
        self._rows = np.arange(N, dtype=np.int64)
        self._show = rules.show_reroll
        shows = self.encoding.shows
        self._show_counts = np.zeros((len(shows), F), dtype=np.int64)
        for j, ms in enumerate(shows):
            for f in ms:
                self._show_counts[j, f - 1] += 1
        self._show_size = self._show_counts.sum(1)
        self._show_base = BID_BASE + B

        self.dice = np.zeros((N, P), dtype=np.int64)
        self.hand = np.zeros((N, P, F), dtype=np.int64)  # hidden dice: count per face
        self.shown = np.zeros((N, P, F), dtype=np.int64)
        self.stash = np.zeros((N, F), dtype=np.int64)
        self.cap = np.zeros(N, dtype=np.int64)
        self.bid = np.full(N, -1, dtype=np.int64)
        self.bidder = np.full(N, -1, dtype=np.int64)
        self.player = np.zeros(N, dtype=np.int64)
        self.must_raise = np.zeros(N, dtype=np.bool_)
        self.show_phase = np.zeros(N, dtype=np.bool_)
        self.called = np.zeros((N, P), dtype=np.bool_)
        self.palifico = np.zeros(N, dtype=np.bool_)
        self.palifico_used = np.zeros((N, P), dtype=np.bool_)
        self.scores = np.zeros((N, P), dtype=np.int64)
        self.bids_made = np.zeros((N, P, B), dtype=np.bool_) if history else None
        self.total = np.zeros((N, F), dtype=np.int64)  # every die in play: count per face
        self._rows_p = self._rows * P
        self._rel_seats = (self._seats[:, None] + self._seats[None, :]) % P
        self._after = (self._seats[:, None] + self._offsets[None, :]) % P  # seats after each
        self._views = Views(self, _TABLE_BYTES)
        self._mask = np.zeros((N, self.num_actions), dtype=np.bool_)
        self._obs = np.zeros((N, self.observation_size), dtype=np.float32)

    # --------------------------------------------------------------- the interface
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Floats32, dict[str, Any]]:
        """Start every game afresh: ``(observations, info)``; ``info`` holds
        ``action_mask`` (N x num_actions) and ``current_player`` (N)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        if self.chance_log is not None:
            self.chance_log = [[] for _ in range(self.num_envs)]
        self._new_games(self._rows)
        self._refresh()
        return self._obs, self._info()

    def step(self, actions: npt.ArrayLike) -> tuple[Floats32, Floats, Bools, Bools, dict[str, Any]]:
        """Every game's player to act takes its action (a dense index):
        ``(observations, rewards, terminated, truncated, info)``.

        ``rewards`` is N x players (the engine's returns in the step that ends a game);
        ``terminated`` marks the games that ended (and were reset); ``truncated`` is all
        false (games always end). An action of :data:`WAIT` leaves its game as it is (no
        move, zero rewards). Raises :class:`IllegalActionError` for an illegal action.
        """
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        N = self.num_envs
        if a.shape != (N,):
            raise ValueError(f"step needs {N} actions, not {a.shape[0]}")
        A = self.num_actions
        in_range = (a >= 0) & (a < A)
        waiting = None
        if in_range.all():
            if not self._mask.reshape(-1).take(self._rows * A + a).all():
                self._refuse(a)
        else:  # games told to wait (WAIT), or an action out of range
            waiting = a == WAIT
            legal = self._mask.reshape(-1).take(self._rows * A + np.where(in_range, a, 0))
            if not (in_range & legal | waiting).all():
                self._refuse(a)
        rewards = np.zeros((N, self.num_players), dtype=np.float64)
        terminated = np.zeros(N, dtype=np.bool_)
        bids = a >= BID_BASE
        if self._show is not ShowReroll.OFF:
            bids &= a < self._show_base
        if bids.any():
            self._bid(bids, a)
        calls = a <= EXACT
        if waiting is not None:
            calls &= ~waiting
        e = np.flatnonzero(calls)
        if len(e):
            self._call(e, a.take(e), rewards, terminated)
        if self._show is not ShowReroll.OFF:
            e = np.flatnonzero(a >= self._show_base)
            if len(e):
                self._show_dice(e, a[e] - self._show_base)
            e = np.flatnonzero(a == NO_SHOW)
            if len(e):
                self.show_phase[e] = False
                self.player[e] = self._next_seat(e, self.player[e])
        self._refresh()
        truncated = np.zeros(N, dtype=np.bool_)
        return self._obs, rewards, terminated, truncated, self._info()

    def restart(self, games: npt.ArrayLike) -> tuple[Floats32, dict[str, Any]]:
        """Start new games in the rows ``games`` (indices), the others kept as they are:
        ``(observations, info)`` as :meth:`reset` returns them."""
        e = np.unique(np.asarray(games, dtype=np.int64).reshape(-1))
        if len(e) and (e[0] < 0 or e[-1] >= self.num_envs):
            raise ValueError(f"games must be rows 0..{self.num_envs - 1}")
        if len(e):
            self._new_games(e)
            self._refresh()
        return self._obs, self._info()

    def _refuse(self, a: Ints) -> None:
        """Raise :class:`IllegalActionError` for the first game whose action is illegal."""
        ok = (a >= 0) & (a < self.num_actions)
        ok[ok] = self._mask[self._rows[ok], a[ok]]
        ok |= a == WAIT
        i = int(np.flatnonzero(~ok)[0])
        raise IllegalActionError(
            f"game {i}: action {int(a[i])} is not legal (legal: "
            f"{np.flatnonzero(self._mask[i]).tolist()})"
        )

    @property
    def action_mask(self) -> Bools:
        """Legal actions of every game's player to act (N x num_actions)."""
        return self._mask

    @property
    def current_player(self) -> Ints:
        """The seat to act in every game."""
        return self.player

    def sample_actions(self, rng: np.random.Generator | None = None) -> Ints:
        """One uniformly random legal action per game."""
        rng = rng or self.rng
        u = rng.random(self.num_envs)
        views = self._views
        if views.list_table is not None and views.count_table is not None:
            key = views.key
            pick = (u * views.count_table.take(key)).astype(np.int64)
            out: Ints = views.list_table.reshape(-1).take(key * self.num_actions + pick)
            return out
        idx = np.flatnonzero(self._mask)
        counts = np.count_nonzero(self._mask, axis=1)
        first = np.cumsum(counts) - counts
        out = idx.take(first + (u * counts).astype(np.int64)) % self.num_actions
        return out

    def take_chance_log(self) -> list[list[int]]:
        """The chance outcomes drawn since the last call, per game, in the engine's order
        (``record=True``); a game that ended starts its list afresh with its next game's."""
        if self.chance_log is None:
            raise ValueError("create the VectorEnv with record=True to log chance outcomes")
        out = self.chance_log
        self.chance_log = [[] for _ in range(self.num_envs)]
        return out

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask, "current_player": self.player.copy()}

    # ------------------------------------------------------------------ moves
    def _next_seat(self, e: Ints, p: Ints) -> Ints:
        """For each game ``e``, the next seat after ``p`` clockwise that has dice."""
        if self.num_players == 2:
            out: Ints = 1 - p
            return out
        cand = self._after.take(p, axis=0)
        live = self.dice.reshape(-1).take(self._rows_p.take(e)[:, None] + cand) > 0
        nxt: Ints = np.take_along_axis(cand, live.argmax(1)[:, None], 1)[:, 0]
        return nxt

    def _bid(self, bids: Bools, a: Ints) -> None:
        """The games where ``bids`` is true bid ``a - BID_BASE`` (updated where ``bids``)."""
        p = self.player
        b = a - BID_BASE
        if self.bids_made is not None:
            e = np.flatnonzero(bids)
            self.bids_made[e, p[e], b[e]] = True
        to_show = None
        if self._show is ShowReroll.BEFORE:
            hidden = self._views.hand_of_player().sum(1)
            to_show = bids & (self.bid >= 0) & (hidden >= 2)
        np.copyto(self.bid, b, where=bids)
        np.copyto(self.bidder, p, where=bids)
        if self.rules.resolution is Resolution.ALL_CALL:
            self.called &= ~bids[:, None]
        if self._show is ShowReroll.AFTER:
            self.must_raise &= ~bids
        nxt = self._next_seat(self._rows, p)
        if to_show is not None:
            np.copyto(self.show_phase, to_show, where=bids)
            nxt = np.where(to_show, p, nxt)
        np.copyto(self.player, nxt, where=bids)

    def _show_dice(self, e: Ints, j: Ints) -> None:
        """Games ``e`` show the ``j``-th multiset of their hidden dice and re-roll the rest."""
        p = self.player[e]
        shown = self._show_counts[j]
        rest = self.hand[e, p] - shown
        self.shown[e, p] += shown
        new = self._roll_counts(rest.sum(-1)[:, None], self._max_hand)[:, 0]
        self.hand[e, p] = new
        self.total[e] += new - rest  # the shown dice stay in play
        if self.chance_log is not None:
            for i, row in zip(e.tolist(), self.hand[e, p].tolist(), strict=True):
                self.chance_log[i].extend(_faces_of(row))
        if self._show is ShowReroll.AFTER:
            self.must_raise[e] = True
        else:
            self.show_phase[e] = False
            self.player[e] = self._next_seat(e, p)

    def _call(self, e: Ints, call: Ints, rewards: Floats, terminated: Bools) -> None:
        """Games ``e`` call (liar or exact); an all-call room waits for every other seat."""
        if self.rules.resolution is Resolution.ALL_CALL:
            p = self.player[e]
            self.called[e, p] = True
            others = (self.dice[e] > 0).sum(1) - 1
            wait = self.called[e].sum(1) < others
            w = e[wait]
            self.player[w] = self._next_seat(w, p[wait])
            e, call = e[~wait], call[~wait]
            if not len(e):
                return
        settle(self, e, call, rewards, terminated)

    # ------------------------------------------------------------ chance, rounds
    def _roll_counts(self, dice: Ints, max_dice: int) -> Ints:
        """Roll ``dice[i, s]`` dice for every game ``i`` and slot ``s``: counts per face."""
        k, slots = dice.shape
        F = self.faces
        faces = self.rng.integers(0, F, size=(k, slots, max_dice))
        cell = (np.arange(k * slots, dtype=np.int64) * F).reshape(k, slots, 1) + faces
        if max_dice > 1 or not (dice == 1).all():
            cell = cell[np.arange(max_dice)[None, None, :] < dice[:, :, None]]
        counts: Ints = np.bincount(cell.reshape(-1), minlength=k * slots * F)
        return counts.reshape(k, slots, F)

    def _sum_seats(self, x: Ints) -> Ints:
        """``x`` (games x seats x faces) summed over the seats."""
        if self.num_players > 4:
            out: Ints = x.sum(1)
            return out
        out = x[:, 0].copy()
        for s in range(1, self.num_players):
            out += x[:, s]
        return out

    def _start_round(self, e: Ints, opener: Ints) -> None:
        """A new round in games ``e``: roll every seat's dice (and the stash)."""
        N, P, F = self.num_envs, self.num_players, self.faces
        k = len(e)
        dice = self.dice.take(e, axis=0)
        hands = self._roll_counts(dice, self._max_hand)
        self.hand.reshape(N, P * F)[e] = hands.reshape(k, P * F)
        total = self._sum_seats(hands)
        cap = dice.sum(1)
        if self.rules.stash is not Stash.NONE:
            active = (dice > 0).sum(1)
            stash = self._roll_counts(active[:, None], self.num_players)[:, 0]
            self.stash[e] = stash
            total += stash
            cap += active
        self.total[e] = total
        if self.chance_log is not None:
            hands_list, stash_list = self.hand[e].tolist(), self.stash[e].tolist()
            for i, h, st in zip(e.tolist(), hands_list, stash_list, strict=True):
                for row in h:
                    self.chance_log[i].extend(_faces_of(row))
                if self.rules.stash is not Stash.NONE:
                    self.chance_log[i].extend(_faces_of(st))
        self.cap[e] = cap
        self.bid[e] = -1
        self.bidder[e] = -1
        self.player[e] = opener
        if self._show is not ShowReroll.OFF:
            self.shown[e] = 0
            self.must_raise[e] = False
            self.show_phase[e] = False
        if self.rules.resolution is Resolution.ALL_CALL:
            self.called[e] = False
        if self.bids_made is not None:
            self.bids_made[e] = False

    def _new_games(self, e: Ints) -> None:
        """Start new games in ``e``: starting dice, then the first opener and round."""
        k = len(e)
        self.dice[e] = self._start
        if self.rules.scoring is Scoring.ROOM:
            self.scores[e] = 0
        if self.rules.palifico:
            self.palifico[e] = False
            self.palifico_used[e] = False
        if self.chance_log is not None:
            for i in e.tolist():
                self.chance_log[i] = []
        first = self.rules.first_opener
        if self.opener is not None or first is FirstOpener.GIVEN:
            opener = np.full(k, self.opener or 0, dtype=np.int64)
        elif first is FirstOpener.RANDOM:
            opener = self.rng.integers(0, self.num_players, size=k)
            if self.chance_log is not None:
                for i, seat in zip(e.tolist(), opener.tolist(), strict=True):
                    self.chance_log[i].append(seat)
        else:
            opener = self._roll_off(e, 1 if first is FirstOpener.ROLL_ONE else 2)
        self._start_round(e, opener)

    def _roll_off(self, e: Ints, per: int) -> Ints:
        """Every seat rolls ``per`` dice, the highest total opens; ties roll again."""
        k, P = len(e), self.num_players
        rollers = np.ones((k, P), dtype=np.bool_)
        opener = np.zeros(k, dtype=np.int64)
        todo = np.arange(k)
        while len(todo):
            rolls = self.rng.integers(1, self.faces + 1, size=(len(todo), P, per))
            sums = np.where(rollers[todo], rolls.sum(2), 0)
            top = rollers[todo] & (sums == sums.max(1, keepdims=True))
            if self.chance_log is not None:
                for t, i in enumerate(e[todo].tolist()):
                    for seat in np.flatnonzero(rollers[todo[t]]).tolist():
                        self.chance_log[i].extend(rolls[t, seat].tolist())
            rollers[todo] = top
            done = top.sum(1) == 1
            opener[todo[done]] = top[done].argmax(1)
            todo = todo[~done]
        return opener

    # ------------------------------------------------------ masks, observations
    def _refresh(self) -> None:
        self._mask = self._views.legal()
        self._obs = self._views.observe()


def _faces_of(counts: list[int]) -> list[int]:
    """The sorted faces of a row of counts per face."""
    return [f + 1 for f, c in enumerate(counts) for _ in range(c)]
