"""Depth-limited re-solving of a two-player round from a public belief state, with leaf values.

The *public belief state* (PBS) of a two-player single round is the dice counts, the last bid
(or none), whose turn it is and both players' *ranges* (a probability per sorted hand). Bids
only increase, so the rest of the round depends on nothing else. :func:`resolve` solves the
part of the round that follows a PBS up to ``depth`` decisions with DCFR (perfect recall: a
node is the sequence of bids made inside the subgame), and values the PBS reached after
``depth`` raises with a ``leaf`` function, re-evaluated at every iteration at the ranges of
the average strategy with that iteration counted in (ReBeL's CFR-AVG).
:func:`exact_leaf_values` is such a function for small games: it solves the rest of the
round from each leaf exactly (to a certified exploitability). ``safe_values_b`` makes a
re-solve safe (DeepStack's gadget). docs/SOLVER.md has the measured agreement, speed, and
the exploitability of a policy assembled by re-solving at every state (not yet low beyond
one die each with three faces: the values promised for unplayed actions do not deter them).

**Conventions.** As in :class:`~liarsdice.solve.subgame.BidSubgame`: ``truth[k, a, b]`` is 1
when bid ``k`` (in raise order) stands with the subgame's root player A holding hand ``a``
and the other player B hand ``b``; with ``opened`` the root's standing bid is bid 0 (B's),
otherwise A opens with any bid. Payoffs are a single round's: +1 to the challenge's winner,
-1 to its loser, so the game is zero-sum.

**Leaf values.** ``leaf(bids, to_act, range_a, range_b)`` receives, for ``n`` leaves, the
standing bid of each (``bids``, indices into ``truth``), the player to act there (``to_act``:
0 for A, 1 for B, who may call that bid or raise), and both ranges there (``(n, HA)`` and
``(n, HB)``, each row summing to 1: the root range times that player's probability of the
bids that lead there, normalised; a player who never gets there keeps the range they had
before that decision). It returns ``(values_a, values_b)``, shaped as the ranges:
``values_a[i, h]`` is A's expected payoff of holding ``h`` at leaf ``i`` against B's range
there, both players following an equilibrium of the rest of the round (and, for a hand A
never holds there, the value of its own best play); ``values_b`` likewise for B, in B's own
payoff. Zero-sum: ``range_a[i] @ values_a[i] == -(range_b[i] @ values_b[i])``, the leaf's
game value for A. Inside CFR a leaf's counterfactual value for a hand is this value times the
opponent's reach mass at the leaf.

The root values :func:`resolve` returns follow the same convention, at the root PBS: the
training targets of a value network.

>>> from liarsdice.solve.tree import PublicTree, make_game
>>> tree = PublicTree(make_game("openspiel", (1, 1), faces=3))   # value 1/9 for player 0
>>> truth = tree.true_bid.astype(float)                         # (bids, 3 rolls, 3 rolls)
>>> ra, rb = tree.chance
>>> full = resolve(truth, opened=False, range_a=ra, range_b=rb, depth=None, iterations=300)
>>> r = resolve(truth, opened=False, range_a=ra, range_b=rb, depth=1,
...             leaf=exact_leaf(truth, tol=1e-3), iterations=100)
>>> round(full.value, 3), round(r.value, 3)
(0.111, 0.111)
>>> r.policy.shape                               # A's rolls x its six opening bids
(3, 6)
>>> bool(abs(ra @ r.values_a + rb @ r.values_b) < 1e-12)   # zero-sum
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "ExactLeaf",
    "LeafFn",
    "LimitedError",
    "Resolved",
    "exact_leaf",
    "exact_leaf_values",
    "resolve",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: ``leaf(bids, to_act, range_a, range_b) -> (values_a, values_b)`` (see the module docstring).
LeafFn = Callable[[Ints, Ints, Floats, Floats], tuple[Floats, Floats]]

#: A range whose mass is below this counts as unreached (the previous range is used).
MASS_FLOOR = 1e-12


class LimitedError(ValueError):
    """Wrong arguments to depth-limited re-solving: shapes, ranges, depth or leaf values."""


@dataclass(frozen=True)
class Resolved:
    """The outcome of :func:`resolve`.

    ``policy[h]``: A's average strategy at the root for hand ``h`` (``liar`` first when
    opened, then the raises in order, as :meth:`BidSubgame.root_policy`); ``values_a`` and
    ``values_b``: each hand's value at the root PBS (module docstring) under the average
    strategies, leaves valued at the ranges those give; ``value``: A's expected payoff.
    ``leaf_bids``, ``leaf_values_a`` and ``leaf_values_b``: the leaves' standing bids and
    values at those ranges (what a safe re-solve at a leaf, ``safe_values_b``, respects).
    """

    policy: Floats
    values_a: Floats
    values_b: Floats
    value: float
    iterations: int
    leaf_calls: int
    seconds: float
    leaf_bids: Ints
    leaf_values_a: Floats
    leaf_values_b: Floats

    def __post_init__(self) -> None:
        if not (np.isfinite(self.values_a).all() and np.isfinite(self.values_b).all()):
            raise LimitedError("the root values are not finite: the leaf function gave NaN or inf")

    def leaf(self, bid: int) -> tuple[Floats, Floats]:
        """A's and B's values at the leaf whose standing bid is ``bid`` (an index into the
        solve's ``truth``): what a safe re-solve there (B's ``leaf(bid)[0]`` as its
        ``safe_values_b``) is to respect."""
        hit = np.flatnonzero(self.leaf_bids == bid)
        if not len(hit):
            raise LimitedError(
                f"no leaf with standing bid {bid} (leaves: {self.leaf_bids.tolist()})"
            )
        return self.leaf_values_a[hit[0]], self.leaf_values_b[hit[0]]


class _Level:
    """The nodes ``depth`` decisions below the roots: their standing bid, parent, root."""

    def __init__(self, last: Ints, parent: Ints, root: Ints, num_bids: int) -> None:
        self.last = last
        self.parent = parent
        self.root = root
        self.n = len(last)
        self.call = last >= 0
        # Children (in the next level) of node i: rows start[i] .. start[i] + count[i] - 1.
        self.count: Ints = num_bids - 1 - last
        self.start: Ints = np.concatenate(([0], np.cumsum(self.count)[:-1])).astype(np.int64)
        self.actions = self.count + self.call
        self.nonempty: Ints = np.flatnonzero(self.count > 0)
        # Nodes by standing bid, for the payoff products of the calls.
        self.groups = [(int(m), np.flatnonzero(last == m)) for m in np.unique(last) if m >= 0]

    def children(self) -> tuple[Ints, Ints, Ints]:
        """The next level's (last, parent, root)."""
        total = int(self.count.sum())
        parent = np.repeat(np.arange(self.n), self.count)
        offset = np.arange(total) - np.repeat(self.start, self.count)
        last = self.last[parent] + 1 + offset
        return last.astype(np.int64), parent.astype(np.int64), self.root[parent]

    def group_sum(self, kids: Floats) -> Floats:
        """Per node, the sum of its children's rows of ``kids`` (next level x hands)."""
        out = np.zeros((self.n, kids.shape[1]))
        if len(self.nonempty):
            out[self.nonempty] = np.add.reduceat(kids, self.start[self.nonempty], axis=0)
        return out


class _Forest:
    """Subgames sharing one truth table, one per root (standing bid, both ranges), player A
    acting at the roots; levels up to ``depth`` (None: to the end of the round), the last of
    them leaves valued by ``leaf``. DCFR (alpha 1.5, beta 0, gamma 2; or CFR+) with
    alternating updates. Level ``t``'s nodes are ``t`` bids below the roots, its actor
    ``t % 2`` (0: A); each node's children are a contiguous block of the next level."""

    def __init__(
        self,
        truth: Floats,
        lasts: Ints,
        ranges: tuple[Floats, Floats],
        depth: int | None,
        leaf: LeafFn | None,
    ) -> None:
        self.truth = truth
        self.K, self.HA, self.HB = (int(x) for x in truth.shape)
        self.H = (self.HA, self.HB)
        self.ranges = ranges
        n = len(lasts)
        self.levels = levels = self._grow(lasts, depth, leaf)
        self.leaf = leaf
        self.leaf_calls = 0
        # Each level's ranges per node (of the root it hangs from).
        self.rng = [[r[lv.root] for r in ranges] for lv in levels]
        # Regrets and average strategy of the actor of each level: calls (nodes x hands) and
        # the raises into the next level's nodes.
        L = len(levels)
        self.reg_c = [np.zeros((lv.n, self.H[t % 2])) for t, lv in enumerate(levels)]
        self.reg_e = [np.zeros((levels[t + 1].n, self.H[t % 2])) for t in range(L - 1)]
        self.tot_c = [np.zeros_like(x) for x in self.reg_c]
        self.tot_e = [np.zeros_like(x) for x in self.reg_e]
        self.iterations = 0
        # The players with decisions above the leaves (depth 1: A alone).
        self.actors = tuple(
            p for p in (0, 1) if not self.leafy or any(t % 2 == p for t in range(L - 1))
        )
        self.algorithm = "dcfr"
        # Safe re-solving (``set_gadget``): B's values to respect at the roots, its regrets
        # and average for follow / terminate per hand, and the follow probabilities in use.
        self.gadget: Floats | None = None
        self.g_reg = np.zeros((n, self.HB, 2))
        self.g_tot = np.zeros((n, self.HB, 2))
        self.follow = np.ones((n, self.HB))
        # The leaves' values at the last evaluation of the average strategies.
        self.leaf_values: tuple[Ints, Floats, Floats] | None = None

    def _grow(self, lasts: Ints, depth: int | None, leaf: LeafFn | None) -> list[_Level]:
        """The levels below roots whose last bids are ``lasts``, down to ``depth`` (None: the
        end of the round); sets :attr:`leafy`, whether the last level holds leaves (the depth
        cut it: some of its nodes could raise)."""
        n = len(lasts)
        levels = [_Level(lasts, np.full(n, -1), np.arange(n), self.K)]
        while (depth is None or len(levels) <= depth) and levels[-1].count.sum() > 0:
            levels.append(_Level(*levels[-1].children(), self.K))
        self.leafy = depth is not None and len(levels) == depth + 1 and depth > 0
        if self.leafy and levels[-1].n and leaf is None:
            raise LimitedError("a depth-limited subgame needs a leaf function")
        if self.leafy:
            levels[-1].count = np.zeros(levels[-1].n, dtype=np.int64)
            levels[-1].call = np.zeros(levels[-1].n, dtype=bool)
            levels[-1].groups = []
        return levels

    # ------------------------------------------------------------------ strategies
    def _strategy(self, t: int, pos_c: Floats, pos_e: Floats | None) -> tuple[Floats, Floats]:
        """Level ``t``'s actor's strategy from non-negative weights (uniform where none)."""
        lv = self.levels[t]
        pos_c = pos_c * lv.call[:, None]
        denom = pos_c.copy()
        if pos_e is not None:
            denom += lv.group_sum(pos_e)
        ok = denom > 0
        uni = 1.0 / np.maximum(lv.actions, 1)[:, None]
        safe = np.where(ok, denom, 1.0)
        sc = np.where(ok, pos_c / safe, uni * lv.call[:, None])
        if pos_e is None:
            return sc, np.zeros((0, pos_c.shape[1]))
        kp = self.levels[t + 1].parent
        se = np.where(ok[kp], pos_e / safe[kp], uni[kp])
        return sc, se

    def current(self) -> tuple[list[Floats], list[Floats]]:
        """The regret-matched strategy of every level."""
        sc, se = [], []
        for t in range(len(self.levels)):
            e = np.maximum(self.reg_e[t], 0.0) if t < len(self.reg_e) else None
            c, k = self._strategy(t, np.maximum(self.reg_c[t], 0.0), e)
            sc.append(c)
            se.append(k)
        return sc, se

    def average(self) -> tuple[list[Floats], list[Floats]]:
        """The average strategy of every level."""
        sc, se = [], []
        for t in range(len(self.levels)):
            e = self.tot_e[t] if t < len(self.tot_e) else None
            c, k = self._strategy(t, self.tot_c[t], e)
            sc.append(c)
            se.append(k)
        return sc, se

    # ------------------------------------------------------------------ passes
    def _reach(self, se: list[Floats]) -> list[list[Floats]]:
        """Each player's own reach (no ranges) at every level under the raises ``se``."""
        levels = self.levels
        reach: list[list[Floats]] = [[np.ones((levels[0].n, h))] for h in self.H]
        if self.gadget is not None:
            reach[1][0] = self.follow
        for t in range(len(levels) - 1):
            par = levels[t + 1].parent
            for p in (0, 1):
                r = reach[p][t][par]
                if t % 2 == p:
                    r = r * se[t]
                reach[p].append(r)
        return reach

    def _with_current(self, sc: list[Floats], se: list[Floats]) -> list[Floats]:
        """The average raises once this iteration's strategy is counted in (CFR-AVG)."""
        reach = self._reach(se)
        w = self._weight()
        out = []
        for t in range(len(self.levels) - 1):
            kp = self.levels[t + 1].parent
            tot_e = self.tot_e[t] + w * reach[t % 2][t][kp] * se[t]
            tot_c = self.tot_c[t] + w * reach[t % 2][t] * sc[t]
            out.append(self._strategy(t, tot_c, tot_e)[1])
        return out

    def _pbs(self, reach: list[list[Floats]], p: int) -> tuple[Floats, Floats]:
        """Player ``p``'s range at the last level's nodes (normalised; an unreached one keeps
        the range of the nearest level above where it had mass) and its mass there."""
        prev = self.ranges[p] / self.ranges[p].sum(axis=1, keepdims=True)
        mass = prev.sum(axis=1)
        for t, lv in enumerate(self.levels):
            w = reach[p][t] * self.rng[t][p]
            mass = w.sum(axis=1)
            inherited = prev if t == 0 else prev[lv.parent]
            ok = mass > MASS_FLOOR
            prev = np.where(ok[:, None], w / np.where(ok, mass, 1.0)[:, None], inherited)
        return prev, mass

    def _pass(
        self,
        sc: list[Floats],
        se: list[Floats],
        mode: str,
        players: tuple[int, ...] = (0, 1),
        leaf_se: list[Floats] | None = None,
    ) -> tuple[Floats, Floats, list[Floats]]:
        """Forward and backward pass under the strategies ``sc``/``se``: each player's
        counterfactual values at the roots. ``mode``: ``"cfr"`` (update regrets and the
        average), ``"eval"`` or ``"br"`` (each player's best reply at its own nodes)."""
        levels = self.levels
        L = len(levels)
        reach = self._reach(se)
        val = self._leaf_pass(reach, mode, leaf_se)
        for t in range(L - 2 if self.leafy else L - 1, -1, -1):
            lv = levels[t]
            p, o = t % 2, 1 - t % 2
            q_c, v_oc = self._calls(t, reach, sc)
            has_kids = t + 1 < L
            q_e = val[p] if has_kids else np.zeros((0, self.H[p]))
            v_o = v_oc + (lv.group_sum(val[o]) if has_kids else 0.0)
            if mode == "br":
                v_p = self._best(t, q_c, q_e if has_kids else None)
            else:
                v_p = sc[t] * q_c + (lv.group_sum(se[t] * q_e) if has_kids else 0.0)
            if mode == "cfr" and p in players:
                weight = self._weight() * reach[p][t]
                self._regret(self.reg_c[t], (q_c - v_p) * lv.call[:, None])
                self.tot_c[t] += weight * sc[t]
                if has_kids:
                    kp = levels[t + 1].parent
                    self._regret(self.reg_e[t], q_e - v_p[kp])
                    self.tot_e[t] += weight[kp] * se[t]
            val = [v_p, v_o] if p == 0 else [v_o, v_p]
        return val[0], val[1], sc

    def _leaf_pass(
        self, reach: list[list[Floats]], mode: str, leaf_se: list[Floats] | None
    ) -> list[Floats]:
        """Both players' values at the last level: the leaf function's at its ranges there
        (under ``leaf_se`` when given), weighted by the other's mass; zeros without leaves."""
        last = self.levels[-1]
        if not (self.leafy and last.n):
            return [np.zeros((last.n, self.HA)), np.zeros((last.n, self.HB))]
        assert self.leaf is not None
        at = reach if leaf_se is None else self._reach(leaf_se)
        (ra, ma), (rb, mb) = self._pbs(at, 0), self._pbs(at, 1)
        to_act = np.full(last.n, (len(self.levels) - 1) % 2, dtype=np.int64)
        va, vb = self.leaf(last.last.copy(), to_act, ra, rb)
        self.leaf_calls += 1
        va, vb = np.asarray(va, dtype=np.float64), np.asarray(vb, dtype=np.float64)
        if va.shape != ra.shape or vb.shape != rb.shape:
            raise LimitedError(
                f"the leaf function returned values of shapes {va.shape} and {vb.shape} "
                f"for ranges of shapes {ra.shape} and {rb.shape}"
            )
        if mode == "eval":
            self.leaf_values = (last.last.copy(), va, vb)
        return [va * mb[:, None], vb * ma[:, None]]

    def _calls(self, t: int, reach: list[list[Floats]], sc: list[Floats]) -> tuple[Floats, Floats]:
        """At level ``t``: the actor's value of calling per node and hand, and the other's
        value of the actor's calls (under ``sc``)."""
        lv = self.levels[t]
        p, o = t % 2, 1 - t % 2
        w_o = reach[o][t] * self.rng[t][o]  # the opponent's weight per hand
        w_p = reach[p][t] * self.rng[t][p]
        q_c = np.zeros((lv.n, self.H[p]))
        v_oc = np.zeros((lv.n, self.H[o]))
        T = self.truth
        for m, idx in lv.groups:
            # A's payoff of a call on bid m is 1 - 2 truth when A calls, else 2 truth - 1.
            tm = T[m]
            if p == 0:
                wo = w_o[idx]
                q_c[idx] = wo.sum(axis=1)[:, None] - 2.0 * (wo @ tm.T)
                wp = w_p[idx] * sc[t][idx]
                v_oc[idx] = -(wp.sum(axis=1)[:, None] - 2.0 * (wp @ tm))
            else:
                wo = w_o[idx]
                q_c[idx] = wo.sum(axis=1)[:, None] - 2.0 * (wo @ tm)
                wp = w_p[idx] * sc[t][idx]
                v_oc[idx] = -(wp.sum(axis=1)[:, None] - 2.0 * (wp @ tm.T))
        return q_c, v_oc

    def _best(self, t: int, q_c: Floats, q_e: Floats | None) -> Floats:
        """Level ``t``'s actor's best reply value per node and hand: its best call or raise
        (``q_e``: the raises' values, None at the last level)."""
        lv = self.levels[t]
        best = np.where(lv.call[:, None], q_c, -np.inf)
        if q_e is not None:
            kid_best = np.full((lv.n, self.H[t % 2]), -np.inf)
            if len(lv.nonempty):
                kid_best[lv.nonempty] = np.maximum.reduceat(q_e, lv.start[lv.nonempty], axis=0)
            best = np.maximum(best, kid_best)
        out: Floats = np.where(np.isfinite(best), best, 0.0)
        return out

    def restart(self, ranges: tuple[Floats, Floats]) -> None:
        """New root ranges: a warm start. The regrets are scaled to one iteration's size
        (regret matching ignores their scale: the current strategy stays), the iteration
        count and the average strategy start again."""
        self.ranges = ranges
        self.rng = [[r[lv.root] for r in ranges] for lv in self.levels]
        scale = 1.0 / max(self.iterations, 1)
        for x in (*self.reg_c, *self.reg_e):
            x *= scale
        for x in (*self.tot_c, *self.tot_e):
            x[...] = 0.0
        self.iterations = 0

    def _weight(self) -> float:
        """The current iteration's weight in the average strategy."""
        t = float(self.iterations + 1)
        return t * t if self.algorithm == "dcfr" else t

    def _regret(self, reg: Floats, gain: Floats) -> None:
        """Add one iteration's regrets: DCFR (alpha 1.5, beta 0) or CFR+ (floored at 0)."""
        reg += gain
        if self.algorithm == "dcfr":
            a = float(self.iterations + 1) ** 1.5
            reg *= np.where(reg > 0, a / (a + 1.0), 0.5)
        else:
            np.maximum(reg, 0.0, out=reg)

    def iterate(self) -> None:
        """One iteration: alternating updates of the players who act above the leaves; the
        leaves valued at the ranges of the average strategy with this iteration counted in
        (ReBeL's CFR-AVG: the leaf values then change slowly)."""
        for p in self.actors:
            sc, se = self.current()
            leaf_se = None
            if self.gadget is not None:
                self.follow = self._gadget_strategy(np.maximum(self.g_reg, 0.0))
            if self.leafy:
                leaf_se = self._with_current(sc, se)
            _, vb, _ = self._pass(sc, se, "cfr", (p,), leaf_se)
            if self.gadget is not None and p == 1:
                self._gadget_update(vb)
        self.iterations += 1

    # ------------------------------------------------------------------ the gadget
    def set_gadget(self, values_b: Floats) -> None:
        """Safe re-solving (DeepStack's re-solving gadget): before the roots B may, per hand,
        *terminate* with ``values_b`` (its values per hand, normalised as the leaves', that
        an earlier solve gave it here) or *follow* into the subgame; the roots' B range is
        then its range (the chance prior) times its follow probabilities. A's strategy can
        then give no B hand more than ``values_b`` (up to the solve's error)."""
        self.gadget = values_b
        self.actors = (0, 1)
        self.follow = np.full((len(values_b), self.HB), 0.5)

    def _gadget_strategy(self, w: Floats) -> Floats:
        total = w.sum(axis=2)
        out: Floats = np.where(total > 0, w[:, :, 0] / np.where(total > 0, total, 1.0), 0.5)
        return out

    def _gadget_update(self, cfv_b: Floats) -> None:
        """B's regrets of following (its counterfactual value at the root) or terminating
        (its gadget value, weighed by A's mass), and its average."""
        assert self.gadget is not None
        ma = self.ranges[0].sum(axis=1)[:, None]
        q = np.stack([cfv_b, self.gadget * ma], axis=2)
        f = self.follow
        v = f * q[:, :, 0] + (1.0 - f) * q[:, :, 1]
        self._regret(self.g_reg, q - v[:, :, None])
        w = self._weight()
        self.g_tot[:, :, 0] += w * f
        self.g_tot[:, :, 1] += w * (1.0 - f)

    def values(self) -> tuple[Floats, Floats]:
        """Each root's per-hand values (module docstring) under the average strategies."""
        sc, se = self.average()
        if self.gadget is not None:
            self.follow = self._gadget_strategy(self.g_tot)
        ca, cb, _ = self._pass(sc, se, "eval")
        return self._normalise(ca, cb)

    def _normalise(self, ca: Floats, cb: Floats) -> tuple[Floats, Floats]:
        ma = self.ranges[0].sum(axis=1)
        mb = self.ranges[1].sum(axis=1)
        return ca / mb[:, None], cb / ma[:, None]

    def exploitability(self) -> Floats:
        """Per root (no leaves): half the sum of both best replies' gains against the average
        strategies, in the normalised payoff."""
        sc, se = self.average()
        ba, bb = self._normalise(*self._pass(sc, se, "br")[:2])
        ra = self.ranges[0] / self.ranges[0].sum(axis=1, keepdims=True)
        rb = self.ranges[1] / self.ranges[1].sum(axis=1, keepdims=True)
        out: Floats = ((ra * ba).sum(axis=1) + (rb * bb).sum(axis=1)) / 2.0
        return out

    def root_policy(self) -> Floats:
        """The average strategy of the first root's actor: [call] + raises."""
        sc, se = self.average()
        lv = self.levels[0]
        kids = se[0][lv.start[0] : lv.start[0] + lv.count[0]].T
        out: Floats = np.concatenate([sc[0][:1].T, kids], axis=1) if lv.call[0] else kids
        return out


# ---------------------------------------------------------------------- checks
def _check_truth(truth: npt.ArrayLike) -> Floats:
    t = np.asarray(truth, dtype=np.float64)
    if t.ndim != 3 or min(t.shape) < 1:
        raise LimitedError(f"truth must be (bids, hands of A, hands of B), not shape {t.shape}")
    return t


def _check_range(r: npt.ArrayLike, name: str, hands: int, rows: int | None = None) -> Floats:
    a = np.asarray(r, dtype=np.float64)
    want = (hands,) if rows is None else (rows, hands)
    if a.shape != want:
        raise LimitedError(f"{name} must have shape {want} (from truth and bids), not {a.shape}")
    if not np.isfinite(a).all() or (a < 0).any():
        raise LimitedError(f"{name} must be finite and non-negative")
    if (a.sum(axis=-1) <= 0).any():
        raise LimitedError(f"{name} must have some mass (every row)")
    out: Floats = a / a.sum(axis=-1, keepdims=True)
    return out


# ---------------------------------------------------------------------- re-solving
def resolve(
    truth: npt.ArrayLike,
    *,
    opened: bool,
    range_a: npt.ArrayLike,
    range_b: npt.ArrayLike,
    depth: int | None = 1,
    leaf: LeafFn | None = None,
    iterations: int = 100,
    seconds: float | None = None,
    algorithm: str = "dcfr",
    safe_values_b: npt.ArrayLike | None = None,
) -> Resolved:
    """Re-solve the rest of the round from a PBS with DCFR, ``depth`` decisions deep.

    ``depth=1``: A's call or raise; a raise to bid ``j`` reaches a leaf (bid ``j``, B to act,
    A's range updated by A's strategy); ``depth=2`` adds B's answer before the leaves, and so
    on; ``None`` solves to the end of the round (no leaves; exact as the iterations grow).
    ``leaf`` values the leaves at every iteration (module docstring). Runs ``iterations`` of
    DCFR (``algorithm="cfr+"``: CFR+), or until ``seconds`` pass (at least ten).

    ``safe_values_b``: safe re-solving. B's values per hand here as an earlier solve gave
    them (its ``leaf_values_a`` at this leaf, when B was that solve's A); ``range_b`` is then
    B's chance prior, and a gadget lets B keep those values or enter (:meth:`_Forest.
    set_gadget`), so that the new strategy gives no B hand more than the earlier solve
    promised. Without it (unsafe re-solving) the ranges are taken as they are.
    """
    t = _check_truth(truth)
    K, HA, HB = t.shape
    ra = _check_range(range_a, "range_a", HA)
    rb = _check_range(range_b, "range_b", HB)
    _check_resolve(depth, iterations, opened and K < 1)
    start = time.perf_counter()
    forest = _Forest(
        t, np.array([0 if opened else -1], dtype=np.int64), (ra[None], rb[None]), depth, leaf
    )
    if algorithm not in ("dcfr", "cfr+"):
        raise LimitedError(f"algorithm must be 'dcfr' or 'cfr+', not {algorithm!r}")
    forest.algorithm = algorithm
    if safe_values_b is not None:
        forest.set_gadget(_safe_values(safe_values_b, HB)[None])
    deadline = None if seconds is None else start + seconds
    for i in range(iterations):
        forest.iterate()
        if deadline is not None and i >= 9 and time.perf_counter() >= deadline:
            break
    va, vb = forest.values()
    leaves = forest.leaf_values
    return Resolved(
        leaf_bids=np.zeros(0, dtype=np.int64) if leaves is None else leaves[0],
        leaf_values_a=np.zeros((0, HA)) if leaves is None else leaves[1],
        leaf_values_b=np.zeros((0, HB)) if leaves is None else leaves[2],
        policy=forest.root_policy(),
        values_a=va[0],
        values_b=vb[0],
        value=float(ra @ va[0]),
        iterations=forest.iterations,
        leaf_calls=forest.leaf_calls,
        seconds=time.perf_counter() - start,
    )


def _check_resolve(depth: int | None, iterations: int, no_standing_bid: bool) -> None:
    """:func:`resolve`'s arguments checked (a LimitedError naming the one amiss)."""
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise LimitedError(f"depth must be a positive integer or None, not {depth!r}")
    if iterations < 1:
        raise LimitedError(f"iterations must be at least 1, not {iterations}")
    if no_standing_bid:
        raise LimitedError("an opened subgame needs its standing bid (truth[0])")


def _safe_values(values: npt.ArrayLike, hands: int) -> Floats:
    """``safe_values_b`` checked: one finite value per hand of B's."""
    gadget = np.asarray(values, dtype=np.float64)
    if gadget.shape != (hands,) or not np.isfinite(gadget).all():
        raise LimitedError(
            f"safe_values_b must be {hands} finite values (B's hands), not shape {gadget.shape}"
        )
    return gadget


# ---------------------------------------------------------------------- exact leaves
class ExactLeaf:
    """Exact leaf values for ``truth`` (:func:`exact_leaf_values`), as a ``leaf`` function.

    Warm-started: called again with the same leaves (as :func:`resolve` does at every
    iteration), it keeps each leaf's regrets scaled to one iteration's size (the same current
    strategy) and restarts the iteration count and the average strategy, so the ranges, which
    move little from one call to the next, need fewer iterations to reach ``tol`` again (100
    to 200 a call in the measured games); every answer is still certified by its own exact
    best response.
    """

    def __init__(self, truth: npt.ArrayLike, *, tol: float = 1e-5, max_iterations: int = 20000):
        self.truth = _check_truth(truth)
        self.tol = tol
        self.max_iterations = max_iterations
        self._forests: dict[tuple[bytes, int], _Forest] = {}
        self.iterations = 0  # inner CFR iterations over all calls

    def __call__(
        self, bids: Ints, to_act: Ints, range_a: Floats, range_b: Floats
    ) -> tuple[Floats, Floats]:
        t = self.truth
        K, HA, HB = t.shape
        b = np.asarray(bids)
        if b.ndim != 1 or not np.issubdtype(b.dtype, np.integer):
            raise LimitedError(f"bids must be a 1-d integer array, not {b.dtype} {b.shape}")
        n = len(b)
        if ((b < 0) | (b >= K)).any():
            raise LimitedError(f"bids must index truth's {K} bids, got {b.tolist()}")
        act = np.broadcast_to(np.asarray(to_act), (n,))
        if not np.isin(act, (0, 1)).all():
            raise LimitedError("to_act must be 0 (A) or 1 (B) for every leaf")
        ra = _check_range(range_a, "range_a", HA, n)
        rb = _check_range(range_b, "range_b", HB, n)
        va, vb = np.zeros((n, HA)), np.zeros((n, HB))
        for who in (0, 1):
            idx = np.flatnonzero(act == who)
            if not len(idx):
                continue
            ranges = (ra[idx], rb[idx]) if who == 0 else (rb[idx], ra[idx])
            key = (b[idx].astype(np.int64).tobytes(), who)
            forest = self._forests.get(key)
            if forest is None:
                tt = t if who == 0 else np.ascontiguousarray(t.transpose(0, 2, 1))
                forest = _Forest(tt, b[idx].astype(np.int64), ranges, None, None)
                self._forests[key] = forest
            else:
                forest.restart(ranges)
            x, y = self._solve(forest)
            if who == 0:
                va[idx], vb[idx] = x, y
            else:  # B was the forest's first player
                va[idx], vb[idx] = y, x
        return va, vb

    def _solve(self, forest: _Forest) -> tuple[Floats, Floats]:
        done = 0
        step = 5
        while True:
            for _ in range(step):
                forest.iterate()
            done += step
            step = 10
            gap = float(forest.exploitability().max())
            if gap <= self.tol:
                break
            if done >= self.max_iterations:
                raise LimitedError(
                    f"leaves not solved to {self.tol} in {self.max_iterations} iterations "
                    f"(exploitability {gap:.2e})"
                )
        self.iterations += done
        return forest.values()


def exact_leaf_values(
    truth: npt.ArrayLike,
    bids: npt.ArrayLike,
    to_act: npt.ArrayLike,
    range_a: npt.ArrayLike,
    range_b: npt.ArrayLike,
    *,
    tol: float = 1e-5,
    max_iterations: int = 20000,
) -> tuple[Floats, Floats]:
    """Exact leaf values (module docstring) for small games.

    The rest of the round from each leaf is solved with perfect recall (every sequence of
    bids: the public tree from that bid, with both ranges as its chance; DCFR with
    alternating updates on all leaves at once) until every leaf's exploitability, measured by
    an exact best response (checked against :mod:`liarsdice.solve.seq` in the tests), is at
    most ``tol`` in the normalised payoff. A :class:`LimitedError` when ``max_iterations`` do
    not reach it. The values are those of the average strategies; a hand with no mass in a
    range gets (close to) its best reply's value, since each hand's regrets are its own.
    """
    leaf = ExactLeaf(truth, tol=tol, max_iterations=max_iterations)
    return leaf(np.asarray(bids), np.asarray(to_act), np.asarray(range_a), np.asarray(range_b))


def exact_leaf(truth: npt.ArrayLike, *, tol: float = 1e-5) -> LeafFn:
    """A warm-started :class:`ExactLeaf` for ``truth``: a ``leaf`` function of :func:`resolve`."""
    return ExactLeaf(truth, tol=tol)
