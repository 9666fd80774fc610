"""Re-solving the rest of a two-player bidding round: CFR over the remaining bids.

The exact solver (:mod:`liarsdice.solve.cfr`) covers whole games up to a few dice. Beyond
that a player can still solve, at each decision, the part of the round that is left: both
players' *ranges* (how likely each of their hands is, given the bids so far) at the root, the
current bid, and every raise above it. To make that small, players recall only the last bid
(an imperfect-recall abstraction, as in Neller and Hnath's fixed-strategy iteration CFR for
Dudo): a node is (last bid, whose turn), so ``K`` remaining bids give ``2(K + 1)`` nodes
instead of ``2^K``. Each iteration is one forward pass (each player's reach per hand, summed
over the paths into a node) and one backward pass (the first player's value for every pair
of hands), both vectorised over hands; regrets are CFR+ (simultaneous updates, linear
averaging).

Payoffs are a single round's: the loser of the challenge gets -1, the winner +1.

>>> import numpy as np
>>> # One die each, two faces, no wilds: bids 1x1 1x2 2x1 2x2; hand = the face.
>>> faces = np.array([[1, 0], [0, 1]])          # counts[hand, face-1]
>>> bids = [(1, 1), (1, 2), (2, 1), (2, 2)]
>>> truth = np.array([[[faces[a, f - 1] + faces[b, f - 1] >= q for b in range(2)]
...                    for a in range(2)] for q, f in bids], dtype=float)
>>> g = BidSubgame(truth, opened=False, range_a=np.ones(2) / 2, range_b=np.ones(2) / 2)
>>> g.solve(iterations=2000)
>>> abs(round(g.value(), 2))                     # the game's value (exact solver: 0)
0.0
>>> g.root_policy(0).shape                       # the opener's four bids
(4,)
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

__all__ = ["BidSubgame"]

Floats = npt.NDArray[np.float64]


class BidSubgame:
    """The rest of a round from a decision of player A (the root's player) against B.

    ``truth[k, a, b]`` is 1 when bid ``k`` (in raise order) is true with A holding hand ``a``
    and B hand ``b``. With ``opened`` the root's last bid is bid 0 (B's, which A may call or
    raise); otherwise A opens with any of the bids. ``range_a`` and ``range_b`` are the
    hands' probabilities at the root. Actions at a node: ``liar`` first (when there is a bid
    to call), then the raises in order. ``payoff``, when given, is A's payoff of a call on
    bid ``k`` by A and by B (each ``(K, HA, HB)``; constant-sum, e.g. a chance of winning the
    game); otherwise +1 for the challenge's winner and -1 for its loser.
    """

    def __init__(
        self,
        truth: Floats,
        *,
        opened: bool,
        range_a: Floats,
        range_b: Floats,
        honest_b: float = 0.0,
        safe: float = 0.75,
        payoff: tuple[Floats, Floats] | None = None,
    ) -> None:
        self.truth = np.asarray(truth, dtype=np.float64)
        k, ha, hb = self.truth.shape
        self.K: int = int(k)
        self.HA: int = int(ha)
        self.HB: int = int(hb)
        self.opened = opened
        # A restricted Nash response: B plays an honest bidder's move with probability
        # ``honest_b`` (calls when the bid is likelier false than its best raise is true, else
        # the highest raise at least ``safe`` likely, judged from A's reach), else freely.
        self.honest_b = honest_b
        self.safe = safe
        self.range = (np.asarray(range_a, dtype=np.float64), np.asarray(range_b, dtype=np.float64))
        # Node j (0..K) for each actor: j = last bid + 1 (j = 0: nothing bid yet).
        self.root = 1 if opened else 0
        K = self.K
        # The payoff of a call at node j, for A, by the calling actor: A calls B's bid (wins
        # when it is false), B calls A's (A wins when it is true).
        if payoff is None:
            self.call = (1.0 - 2.0 * self.truth, 2.0 * self.truth - 1.0)
        else:
            self.call = (np.asarray(payoff[0], float), np.asarray(payoff[1], float))
        self.regret: list[list[Floats]] = [[], []]
        self.total: list[list[Floats]] = [[], []]
        for p in (0, 1):
            size = (self.HA, self.HB)[p]
            for j in range(K + 1):
                n = self._actions(j)
                self.regret[p].append(np.zeros((size, n)))
                self.total[p].append(np.zeros((size, n)))
        self.iterations = 0

    def _actions(self, j: int) -> int:
        """Actions at node j: a call when a bid stands (j > 0), then raises j..K-1."""
        return (1 if j > 0 else 0) + (self.K - j)

    # ------------------------------------------------------------------ strategies
    def _current(self, p: int, j: int) -> Floats:
        r = np.maximum(self.regret[p][j], 0.0)
        s = r.sum(axis=1, keepdims=True)
        n = r.shape[1]
        out: Floats = np.where(s > 0, r / np.where(s > 0, s, 1.0), 1.0 / n)
        return out

    def average(self, p: int, j: int) -> Floats:
        """The average strategy of actor ``p`` at node ``j`` (hands x actions)."""
        t = self.total[p][j]
        s = t.sum(axis=1, keepdims=True)
        n = t.shape[1]
        out: Floats = np.where(s > 0, t / np.where(s > 0, s, 1.0), 1.0 / n)
        return out

    def root_policy(self, hand: int) -> Floats:
        """A's average strategy at the root for ``hand``: [liar] + raises, as in the node."""
        out: Floats = self.average(0, self.root)[hand]
        return out

    # ------------------------------------------------------------------ iteration
    def _iterate(self, strategies: list[list[Floats]] | None = None) -> Floats:
        """One CFR+ iteration (or, given ``strategies``, just the root's value matrix)."""
        K, HA, HB = self.K, self.HA, self.HB
        sigma = strategies or [[self._current(p, j) for j in range(K + 1)] for p in (0, 1)]
        free = [list(sigma[0]), list(sigma[1])]  # the strategies the regrets belong to
        mix = self.honest_b
        # Forward: each player's reach per hand at node (j, actor), summed over the paths.
        reach = [np.zeros((2, K + 1, HA)), np.zeros((2, K + 1, HB))]
        reach[0][0, self.root] = 1.0
        reach[1][0, self.root] = 1.0
        for j in range(self.root, K + 1):
            for p in (0, 1):
                own = reach[p][p, j]
                other = reach[1 - p][p, j]
                if not own.any() or not other.any():
                    continue
                if p == 1 and mix > 0 and j > 0:
                    honest = self._honest(j, reach[0][1, j])
                    sigma[1][j] = (1 - mix) * sigma[1][j] + mix * honest
                s = sigma[p][j]
                first = 1 if j > 0 else 0
                if j < K:
                    # Bid m (node m + 1) by p hands the turn to the other actor.
                    reach[p][1 - p, j + 1 :] += (own[:, None] * s[:, first:]).T
                    reach[1 - p][1 - p, j + 1 :] += other
        # Backward: A's value for every pair of hands at each node, and the regrets. The
        # values of actor p's nodes are kept hands-of-the-other-actor first, so that a
        # parent's children are one contiguous (its hands, bids, other hands) block.
        value = [np.zeros((HB, K + 1, HA)), np.zeros((HA, K + 1, HB))]
        for j in range(K, self.root - 1, -1):
            for p in (0, 1):
                s = sigma[p][j]
                call = j > 0
                sign = 1.0 if p == 0 else -1.0
                opp = reach[1 - p][p, j] * self.range[1 - p]
                # Payoff (for A) of each action, own hands first: (own, actions, other hands).
                here = np.zeros((s.shape[0], (HB, HA)[p]))
                cv = np.zeros_like(s)
                if call:
                    payoff = self.call[p][j - 1] if p == 0 else self.call[p][j - 1].T
                    here += s[:, :1] * payoff
                    cv[:, 0] = payoff @ opp
                if j < K:
                    kids = value[1 - p][:, j + 1 :, :]
                    first = 1 if call else 0
                    here += np.matmul(s[:, None, first:], kids)[:, 0, :]
                    cv[:, first:] = kids @ opp
                value[p][:, j, :] = here.T
                if strategies is not None or not opp.any():
                    continue
                cv *= sign
                own_s = free[p][j]
                reg = self.regret[p][j]
                reg += cv - (own_s * cv).sum(axis=1, keepdims=True)
                np.maximum(reg, 0.0, out=reg)
                weight = (self.iterations + 1) * reach[p][p, j] * self.range[p]
                self.total[p][j] += weight[:, None] * own_s
        if strategies is None:
            self.iterations += 1
        out: Floats = value[0][:, self.root, :].T
        return out

    def _honest(self, j: int, reach_a: Floats) -> Floats:
        """B's honest move at node ``j`` per hand: A's hands weighted by their reach."""
        w = reach_a * self.range[0]
        total = w.sum()
        w = w / total if total > 0 else self.range[0]
        p: Floats = np.einsum("a,kab->bk", w, self.truth[j - 1 :])  # (HB, 1 + raises)
        out: Floats = np.zeros_like(p)
        rows = np.arange(p.shape[0])
        if p.shape[1] == 1:
            out[:, 0] = 1.0
            return out
        raises = p[:, 1:]
        best = raises.max(axis=1)
        call = 1.0 - p[:, 0] > best
        ok = raises >= self.safe
        highest = np.where(ok.any(axis=1), raises.shape[1] - 1 - ok[:, ::-1].argmax(axis=1), -1)
        pick = np.where(highest >= 0, highest, raises.argmax(axis=1))
        out[rows[call], 0] = 1.0
        out[rows[~call], 1 + pick[~call]] = 1.0
        return out

    def solve(self, iterations: int = 200, seconds: float | None = None) -> None:
        """Run CFR+ for ``iterations``, or until ``seconds`` pass (at least ten)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        for i in range(iterations):
            self._iterate()
            if deadline is not None and i >= 9 and time.perf_counter() >= deadline:
                break

    def value(self) -> float:
        """A's expected payoff at the root under both average strategies."""
        avg = [[self.average(p, j) for j in range(self.K + 1)] for p in (0, 1)]
        v = self._iterate(avg)
        return float(self.range[0] @ v @ self.range[1])
