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
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["BidSubgame", "normalised"]

Floats = npt.NDArray[np.float64]


def normalised(weights: Floats, uniform: Floats) -> Floats:
    """Each node's row of ``weights`` (nodes, hands, columns) as a strategy: uniform over the
    node's actions (``uniform``: nodes x columns, each node's uniform strategy) where it is all
    zero. CFR's regret matching and its average strategy both take this.

    >>> normalised(np.array([[[2.0, 2.0, 0.0], [0.0, 0.0, 0.0]]]), np.array([[0.0, 0.5, 0.5]]))
    array([[[0.5, 0.5, 0. ],
            [0. , 0.5, 0.5]]])
    """
    s = weights.sum(axis=2, keepdims=True)
    out: Floats = np.where(s > 0, weights / np.where(s > 0, s, 1.0), uniform[:, None, :])
    return out


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
        honest_readings: Sequence[Floats] = (),
        model_b: Mapping[int, Floats] | None = None,
        model_share: float = 0.0,
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
        # How the honest bidder reads A's hands: by A's reach (as a solver reads A's bids), or,
        # given ``honest_readings``, by each of them in turn, its moves the average of theirs.
        # A reading is a weight per A's hand after each bid k of A's (K, HA), or one for
        # every bid (HA,): what a bidder believes who judges from its own dice and the bids
        # as it reads them (the prob bot reads none, the bayes bot each as an honest one).
        self.readings = [np.broadcast_to(np.asarray(r, float), (k, ha)) for r in honest_readings]
        # A model of B's play at some nodes (node j: B's hands x its actions there, the call
        # first), which B follows with probability ``model_share`` there (the rest of B's
        # play shrinks to make room): B as a known player at those nodes, in part.
        self.model_b = {} if model_b is None else dict(model_b)
        self.model_share = model_share
        if not 0.0 <= honest_b + (model_share if self.model_b else 0.0) <= 1.0:
            raise ValueError("honest_b + model_share: at most 1")
        self._honest_fixed: dict[int, Floats] = {}
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
        # Every node's actions in one padded row of K + 1 columns: column j is the call at
        # node j > 0 (bid j - 1 stands, so it is no raise there), column m + 1 the raise to
        # bid m; node j's actions are columns max(j, 1)..K, in the order ``average`` gives.
        # One array per player for all nodes lets each iteration update them all at once.
        cols = np.arange(K + 1)
        self._first = np.maximum(cols, 1)  # node j's first column
        self._valid = (cols[None, :] >= self._first[:, None]).astype(np.float64)
        self._uniform = self._valid / self._valid.sum(axis=1, keepdims=True)
        self.regret = [np.zeros((K + 1, self.HA, K + 1)), np.zeros((K + 1, self.HB, K + 1))]
        self.total = [np.zeros_like(self.regret[0]), np.zeros_like(self.regret[1])]
        # Each actor's call payoffs, its own hands first, at node j >= 1 (bid j - 1 called).
        self._calls = (self.call[0], np.ascontiguousarray(self.call[1].transpose(0, 2, 1)))
        # (A's hands, bids x B's hands): the honest bidder's odds of every bid in one product.
        self._truth_a = np.ascontiguousarray(self.truth.transpose(1, 0, 2)).reshape(self.HA, -1)
        self.iterations = 0

    # ------------------------------------------------------------------ strategies
    def _normalised(self, weights: Floats) -> Floats:
        return normalised(weights, self._uniform)

    def average(self, p: int, j: int) -> Floats:
        """The average strategy of actor ``p`` at node ``j`` (hands x actions)."""
        t = self.total[p][j][:, self._first[j] :]
        s = t.sum(axis=1, keepdims=True)
        n = t.shape[1]
        out: Floats = np.where(s > 0, t / np.where(s > 0, s, 1.0), 1.0 / n)
        return out

    def root_policy(self, hand: int) -> Floats:
        """A's average strategy at the root for ``hand``: [liar] + raises, as in the node."""
        out: Floats = self.average(0, self.root)[hand]
        return out

    # ------------------------------------------------------------------ iteration
    def _iterate(self, strategies: list[Floats] | None = None) -> Floats:
        """One CFR+ iteration (or, given ``strategies``, each actor's padded strategy at
        every node, just the root's value matrix)."""
        K, HA, HB = self.K, self.HA, self.HB
        root = self.root
        if strategies is None:
            free = [self._normalised(np.maximum(r, 0.0)) for r in self.regret]
        else:
            free = strategies
        mix = self.honest_b
        model = self.model_b
        # B's play with the honest mix and the model's share
        sigma = [free[0], free[1].copy() if mix > 0 or model else free[1]]
        # Forward: each player's reach per hand at node (j, actor), summed over the paths;
        # a node one of them never reaches passes nothing on.
        reach = [np.zeros((2, K + 1, HA)), np.zeros((2, K + 1, HB))]
        reach[0][0, root] = 1.0
        reach[1][0, root] = 1.0
        for j in range(root, K + 1):
            for p in (0, 1):
                own = reach[p][p, j]
                other = reach[1 - p][p, j]
                if not own.any() or not other.any():
                    continue
                if p == 1 and j > 0 and (mix > 0 or j in model):
                    row = sigma[1][j]
                    w = self.model_share if j in model else 0.0
                    mixed = (1 - mix - w) * row[:, j:]
                    if mix > 0:
                        mixed += mix * self._honest(j, reach[0][1, j])
                    if w > 0:
                        mixed += w * model[j]
                    row[:, j:] = mixed
                if j < K:
                    # Bid m (node m + 1, column m + 1) by p hands the turn to the other actor.
                    reach[p][1 - p, j + 1 :] += (own[:, None] * sigma[p][j][:, j + 1 :]).T
                    reach[1 - p][1 - p, j + 1 :] += other
        value = self._backward(sigma)
        if strategies is None:
            for p in (0, 1):
                self._update(p, reach, value, free[p])
            self.iterations += 1
        out: Floats = value[0][:, root, :].T
        return out

    def _backward(self, sigma: list[Floats]) -> list[Floats]:
        """A's value for every pair of hands at each node (from the root down) when the
        actors play ``sigma``. The values of actor p's nodes are kept hands-of-the-other-actor
        first, so that a parent's children are one contiguous (its hands, bids, other hands)
        block: ``value[0][b, j, a]`` at A's node ``j``, ``value[1][a, j, b]`` at B's."""
        K, HA, HB = self.K, self.HA, self.HB
        value = [np.zeros((HB, K + 1, HA)), np.zeros((HA, K + 1, HB))]
        for j in range(K, self.root - 1, -1):
            for p in (0, 1):
                s = sigma[p][j]
                here = np.matmul(s[:, None, j + 1 :], value[1 - p][:, j + 1 :, :])[:, 0, :]
                if j > 0:
                    here += s[:, j : j + 1] * self._calls[p][j - 1]
                value[p][:, j, :] = here.T
        return value

    def _update(self, p: int, reach: list[Floats], value: list[Floats], own_s: Floats) -> None:
        """Actor ``p``'s regrets and average strategy at every node it and the other player
        reach, from the counterfactual values of its actions (its own hands first)."""
        opp = reach[1 - p][p] * self.range[1 - p]  # (nodes, other hands)
        active = opp.any(axis=1)
        active[: self.root] = False
        # The value of raising to bid m (column m + 1: the other actor's node m + 1) ...
        kids = value[1 - p]
        h, c, o = kids.shape
        cv = (kids.reshape(h * c, o) @ opp.T).reshape(h, c, -1).transpose(2, 0, 1)
        # ... and of calling at node j >= 1 (column j).
        nodes = np.arange(1, self.K + 1)
        cv[nodes, :, nodes] = np.einsum("jho,jo->jh", self._calls[p], opp[1:])
        if p == 1:
            cv = -cv
        cv *= self._valid[:, None, :]
        gain = (cv - (own_s * cv).sum(axis=2, keepdims=True)) * self._valid[:, None, :]
        gain *= active[:, None, None]
        reg = self.regret[p]
        reg += gain
        np.maximum(reg, 0.0, out=reg)
        weight = (self.iterations + 1) * reach[p][p] * self.range[p]
        weight *= active[:, None]
        self.total[p] += weight[:, :, None] * own_s

    def _honest(self, j: int, reach_a: Floats) -> Floats:
        """B's honest move at node ``j`` per hand: A's hands weighted by their reach, or the
        average of the moves the ``honest_readings`` give (fixed: worked out once)."""
        if self.readings:
            hit = self._honest_fixed.get(j)
            if hit is None:
                moves = [self._honest_from(j, r[j - 1]) for r in self.readings]
                hit = self._honest_fixed[j] = np.mean(moves, axis=0)
            return hit
        return self._honest_from(j, reach_a * self.range[0])

    def _honest_from(self, j: int, w: Floats) -> Floats:
        total = w.sum()
        w = w / total if total > 0 else self.range[0]
        # Rounded, so that float noise in the reach cannot break a tie between two moves.
        by_bid = (w @ self._truth_a).reshape(self.K, self.HB)
        p: Floats = np.round(by_bid[j - 1 :].T, 9)  # (HB, 1 + raises)
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
        v = self._iterate([self._normalised(t) for t in self.total])
        return float(self.range[0] @ v @ self.range[1])
