"""A search on the learned strategies: one decision deep, valued by the learned play after it.

The learned strategies (:class:`~liarsdice.nets.rounds.RoundPolicies`) are the
**blueprint**. At a decision of a two-player round:

1. **Ranges.** The other player's range is their chance prior times the blueprint's
   probability of every bid they made, on the whole history (perfect recall: the blueprint
   itself recalls only the last bids, :mod:`liarsdice.nets.recall`), blended with the
   caller's own reading (the expert's bid model) by ``mix``.
2. **Values.** Each move is valued exactly against that range: a call by the dice, a raise by
   the value of the position it makes when both players follow the blueprint from there, the
   other mixed with an honest bidder by ``exploit`` (a restricted Nash response in the
   leaves; :meth:`~liarsdice.nets.recall.RecallRound.values`: the value of every pair of
   hands at every node of the blueprint's abstraction, worked out once per pair of dice
   counts and seat, and kept). What a player does after a move depends only on the bids it
   recalls, so a node's value is exact for every history that leads to it.
3. **Policy.** Regret matching against the blueprint: each move is played in proportion to
   how much it beats the blueprint's own mix of moves for this hand (their value, averaged by
   the blueprint's probabilities); when none does, the blueprint's move. So it keeps the
   blueprint's mixing where the blueprint is right, and leaves it where the history shows a
   better move.

>>> import random
>>> from liarsdice.nets.rounds import packaged_round_policies
>>> pol = packaged_round_policies("snyd-joker", 6)
>>> look = Lookahead.of(pol, (3, 4))  # strategies that recall the last bid (as from 3 v 4 on)
>>> probs = look.policy(1, hand=(1, 4, 4, 6), bids=[5], mix_range=None, mix=0.0)
>>> len(probs) == 1 + look.tables.num_bids - 6, round(float(probs.sum()), 6)
(True, 1.0)
>>> look = Lookahead.of(pol, (3, 3))  # the last two bids
>>> probs = look.policy(0, hand=(2, 2, 5), bids=[3, 7], mix_range=None, mix=0.0)
>>> look.tree.recall, len(probs) == look.tables.num_bids - 7, round(float(probs.sum()), 6)
(2, True, 1.0)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from liarsdice.nets.recall import RecallRound
from liarsdice.nets.rounds import PairTables, RoundPolicies

__all__ = ["Lookahead"]

Floats = npt.NDArray[np.float64]


class Lookahead:
    """One pair of dice counts' blueprint, ready to search on (module docstring)."""

    #: The pairs' value arrays kept: about 30 MB a way of playing on at five dice each (6 MB
    #: at four), one for the blueprint and one a seat for each honest share of the menu.
    KEEP = 4
    _kept: ClassVar[OrderedDict[tuple[int, tuple[int, int], float, bool], Lookahead]] = (
        OrderedDict()
    )

    def __init__(
        self,
        policies: RoundPolicies,
        dice: tuple[int, int],
        *,
        exploit: float = 0.0,
        reads_bids: bool = False,
    ) -> None:
        self.dice = dice
        self.exploit = exploit
        self.reads_bids = reads_bids
        self.tables: PairTables = policies.tables(dice)
        self.strategies = [policies.strategy(dice, 0), policies.strategy(dice, 1)]
        t = self.tables
        self.tree = policies.tree(dice)
        self._round = RecallRound(
            t.truth, range_a=t.probs[0], range_b=t.probs[1], recall=self.tree.recall
        )
        self._values: dict[
            tuple[int, float], tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
        ] = {}
        self._honest_moves: dict[int, Floats] = {}  # per actor: the same for every share

    def values(
        self, me: int, share: float | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The opener's value at the opener's nodes (the other's hands first) and at the
        other actor's nodes (the opener's hands first), :class:`RecallRound`'s layout, in
        float32, when actor ``me`` follows the blueprint and the other follows it mixed with
        an honest bidder by ``share`` (default ``exploit``)."""
        share = self.exploit if share is None else share
        key = (me, share) if share > 0 else (-1, 0.0)
        hit = self._values.get(key)
        if hit is None:
            sigma = list(self.strategies)
            if share > 0:
                other = 1 - me
                if other not in self._honest_moves:
                    self._honest_moves[other] = self._honest(other)
                honest = self._honest_moves[other][self.tree.last + 1]  # by each node's last bid
                sigma[other] = (1 - share) * sigma[other] + share * honest
            (at_opener, at_other), _ = self._round.values(sigma)
            hit = self._values[key] = (at_opener.astype(np.float32), at_other.astype(np.float32))
        return hit

    def _mine(self, actor: int, share: float, nodes: list[int]) -> npt.NDArray[np.float32]:
        """Actor ``actor``'s value at the other actor's ``nodes``: ``(its hands, nodes, the
        other's hands)``, the other's play mixed with the honest bidder by ``share``."""
        at_opener, at_other = self.values(actor, share)
        if actor == 0:
            return at_other[:, nodes, :]
        out: npt.NDArray[np.float32] = -at_opener[:, nodes, :]
        return out

    def _reach_of(self, me: int) -> Floats:
        """Actor ``me``'s blueprint reach per hand at the other actor's nodes, summed over the
        paths there and over the nodes of each last bid, times its prior and normalised (the
        padded layout: row ``j`` after bid ``j - 1``): how a reader of bids who knows the
        blueprint and recalls only the standing bid sees ``me``'s hand there."""
        t = self.tables
        at = self._round.reach(self.strategies)[me][1 - me]  # (nodes, me's hands)
        other = np.zeros((t.num_bids + 1, at.shape[1]))
        np.add.at(other, self.tree.last + 1, at)
        w = other * t.probs[me]
        total = w.sum(axis=1, keepdims=True)
        out: Floats = np.where(total > 0, w / np.where(total > 0, total, 1.0), t.probs[me])
        return out

    def _honest(self, actor: int, safe: float = 0.75) -> Floats:
        """An honest bidder's moves for ``actor`` at every node (the padded layout): it calls
        a bid likelier false than its best raise is true, else raises to the highest bid at
        least ``safe`` likely (else the likeliest), judged from its own dice and the other's
        prior, or (``reads_bids``) the other's blueprint reach there."""
        t = self.tables
        K = t.num_bids
        me = 1 - actor
        beliefs = self._reach_of(me) if self.reads_bids else np.tile(t.probs[me], (K + 1, 1))
        truth = t.truth if actor == 0 else t.truth.transpose(0, 2, 1)  # (bids, its, other's)
        hands = truth.shape[1]
        rows = np.arange(hands)
        out = np.zeros((K + 1, hands, K + 1))
        for j in range(K + 1):
            first = max(j, 1)
            if j == K:
                out[j, :, K] = 1.0  # only the call is left
                continue
            p_true = np.einsum("kho,o->hk", truth, beliefs[j])
            raises = p_true[:, j:]  # bids j..K-1: columns j+1..K
            ok = raises >= safe
            highest = np.where(
                ok.any(axis=1), raises.shape[1] - 1 - ok[:, ::-1].argmax(axis=1), raises.argmax(1)
            )
            pick = j + 1 + highest
            if j > 0:
                call = 1.0 - p_true[:, j - 1] > raises.max(axis=1)
                out[j, rows[call], first] = 1.0
                out[j, rows[~call], pick[~call]] = 1.0
            else:
                out[j, rows, pick] = 1.0
        return out

    @classmethod
    def of(
        cls,
        policies: RoundPolicies,
        dice: tuple[int, int],
        *,
        exploit: float = 0.0,
        reads_bids: bool = False,
    ) -> Lookahead:
        """The lookahead of ``dice`` (opener's first) under ``policies``, kept for reuse."""
        key = (id(policies), dice, exploit, reads_bids)
        hit = cls._kept.get(key)
        if hit is None:
            hit = cls(policies, dice, exploit=exploit, reads_bids=reads_bids)
            cls._kept[key] = hit
            while len(cls._kept) > cls.KEEP:
                cls._kept.popitem(last=False)
        else:
            cls._kept.move_to_end(key)
        return hit

    def reading(self, actor: int, bids: list[int]) -> Floats:
        """Actor ``actor``'s range after the round's ``bids`` (indices into the pair's bids,
        in order, the opener's first): the prior times the blueprint's probability of each
        bid it made."""
        t = self.tables
        r = t.probs[actor].copy()
        for i, bid in enumerate(bids):
            if i % 2 == actor:
                r *= self.strategies[actor][self.tree.node(bids[:i]), :, bid + 1]
        total = r.sum()
        out: Floats = r / total if total > 0 else t.probs[actor].copy()
        return out

    def move_values(
        self,
        actor: int,
        hand: int,
        bids: list[int],
        other: Floats,
        menu: tuple[float, ...] = (),
    ) -> Floats:
        """The value to actor ``actor`` holding hand ``hand`` of each move after ``bids``
        against the other's range ``other``: the call first when there is a bid, then the
        raises in order; both play the blueprint after the move, the other's mixed with an
        honest bidder by ``exploit``.

        With a ``menu`` of honest shares (depth-limited solving's multi-valued leaves), the
        other picks, for each of its hands, the continuation after each raise that is worst
        for this actor, as it sees this actor's hands then: the blueprint's reading of the
        bids so far and of the raise. A raise is then worth what it is against an opponent
        who plays whichever of those ways suits its hand, not only the blueprint's."""
        t = self.tables
        last = bids[-1] if bids else -1
        # The other actor's node after each raise: what it recalls then.
        raises = [self.tree.node([*bids, n]) for n in range(last + 1, t.num_bids)]
        if len(menu) <= 1:
            mine = self._mine(actor, menu[0] if menu else self.exploit, raises)
            q_raise = mine[hand] @ other
        else:
            node = self.tree.node(bids)
            seen = self.reading(actor, bids)[:, None] * self.strategies[actor][node, :, last + 2 :]
            total = seen.sum(axis=0, keepdims=True)
            seen = np.where(total > 0, seen / np.where(total > 0, total, 1.0), 1.0 / len(seen))
            # The other's pick per hand and raise: the way worst for this actor as it sees
            # this actor's hands (``judged``); this hand's value under that pick (``picked``).
            judged = picked = None
            for share in menu:
                v = self._mine(actor, share, raises)  # (its hands, raises, the other's hands)
                seen_v = np.einsum("hr,hro->ro", seen, v)
                if judged is None or picked is None:
                    judged, picked = seen_v, v[hand].astype(np.float64)
                else:
                    pick = seen_v < judged
                    judged = np.where(pick, seen_v, judged)
                    picked = np.where(pick, v[hand], picked)
            assert picked is not None
            q_raise = picked @ other
        if last < 0:
            return np.asarray(q_raise, dtype=np.float64)
        truth = t.truth[last]  # (opener's hands, other's hands)
        stands = truth[hand, :] if actor == 0 else truth[:, hand]
        q_call = float((1.0 - 2.0 * stands) @ other)  # the caller wins when the bid is false
        return np.concatenate(([q_call], q_raise)).astype(np.float64)

    def policy(
        self,
        actor: int,
        *,
        hand: tuple[int, ...],
        bids: list[int],
        mix_range: Floats | None,
        mix: float,
        prior: float = 0.0,
        greedy: bool = False,
        other_values: tuple[float, Floats] | None = None,
        menu: tuple[float, ...] = (),
    ) -> Floats:
        """The probabilities of actor ``actor``'s moves holding ``hand`` after ``bids`` (the
        call first when there is a bid, then the raises in order): regret matching on the
        moves' values against the blueprint's mix (module docstring). ``mix_range``, when
        given, is blended into the other's blueprint reading with weight ``mix``, and their
        chance prior (no reading of their bids) with weight ``prior``; ``greedy`` plays the
        best move instead. ``other_values`` = ``(w, v)``: each move's value is blended with
        ``v`` (another judge's chance to win after each move, NaN where it has none) by
        weight ``w``, on the scale of a chance to win. ``menu``: the other's ways of playing
        on after a raise (:meth:`move_values`)."""
        t = self.tables
        other = self.reading(1 - actor, bids)
        if mix_range is not None and mix > 0:
            given = np.asarray(mix_range, dtype=np.float64)
            other = (1 - mix) * other + mix * given / given.sum()
        if prior > 0:
            other = (1 - prior) * other + prior * t.probs[1 - actor]
        h = t.roll_index(actor, hand)
        last = bids[-1] if bids else -1
        q = self.move_values(actor, h, bids, other, menu)
        if other_values is not None and other_values[0] > 0:
            w, v = other_values
            chance = (q + 1.0) / 2.0
            q = np.where(np.isnan(v), chance, (1 - w) * chance + w * v)
        if greedy:
            best: Floats = np.zeros_like(q)
            best[int(q.argmax())] = 1.0
            return best
        blueprint = self.strategies[actor][self.tree.node(bids), h, max(last + 1, 1) :]
        gain = np.maximum(q - float(blueprint @ q), 0.0)
        total = gain.sum()
        if total <= 1e-12:
            return np.asarray(blueprint, dtype=np.float64)
        out: Floats = gain / total
        return out
