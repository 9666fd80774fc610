"""Learning two-player single rounds by self-play: fixed-strategy iteration CFR, every pair.

For every pair of dice counts up to ``max_dice`` each, the two players play the whole round
against each other by CFR+ with imperfect recall (Neller and Hnath's fixed-strategy
iteration CFR for Dudo: each player recalls their own dice and the standing bid;
:class:`~liarsdice.solve.subgame.BidSubgame` runs it, a forward pass of both players' reach
and a backward pass of the value of every pair of hands per iteration). Each pair's average
strategy is what :class:`~liarsdice.nets.rounds.RoundPolicies` stores and the ``learned``
bot plays. docs/BOTS.md says why this method, what it costs and how exploitable it is.

**Checkpoints.** The folder gets ``pair-a-b.npz`` for every pair as it finishes, and while a
pair runs ``partial-a-b.npz`` every ``checkpoint`` iterations (regrets, average strategies,
iterations done). Run again with the same folder and settings, it goes on where it stopped;
CFR+ is deterministic, so the result equals an uninterrupted run's.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     pol = train_rounds("snyd-joker", faces=3, max_dice=1, iterations=200, folder=tmp)
>>> pol.pairs, round(pol.info[1, 1]["value"], 2)  # the opener's value (the solver's: 1/3)
([(1, 1)], 0.33)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.nets.recall import RecallRound, recall_for
from liarsdice.nets.rounds import PairTables, RoundPolicies, round_game
from liarsdice.solve.br import Plan, exploitability
from liarsdice.solve.subgame import normalised
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, PublicTree

__all__ = ["RecallCFR", "learned_exploitability", "learned_plans", "solve_pair", "train_rounds"]

Floats = npt.NDArray[np.float64]

SETTINGS = "settings.json"

#: The most numbers one player's strategy of a pair may take (nodes x hands x columns): each
#: pair's players recall as many bids as fit (docs/BOTS.md: what it buys, what it costs).
RECALL_BUDGET = 2_000_000


class RecallCFR(RecallRound):
    """CFR+ on a two-player round whose players recall their own dice and the last
    ``recall`` bids (:class:`~liarsdice.nets.recall.RecallRound`: the round, its passes),
    the opener to bid first: alternating CFR+ updates and linear averaging. With
    ``recall = 1`` it is the abstraction of :class:`~liarsdice.solve.subgame.BidSubgame`'s
    unopened round; with ``recall`` at least the number of bids it is the exact game.

    >>> truth = np.array([[[1.0, 1], [1, 1]], [[0, 1], [1, 1]], [[1, 0], [0, 0]],
    ...                   [[0, 0], [0, 1]]])  # 1x1 1x2 2x1 2x2 on one two-faced die each
    >>> g = RecallCFR(truth, range_a=np.ones(2) / 2, range_b=np.ones(2) / 2, recall=4)
    >>> g.solve(2000); abs(round(g.value(), 2))  # the exact value
    0.0
    """

    def __init__(
        self, truth: npt.NDArray[np.float64], *, range_a: Floats, range_b: Floats, recall: int
    ) -> None:
        super().__init__(truth, range_a=range_a, range_b=range_b, recall=recall)
        n = len(self.tree)
        self.regret = [np.zeros((n, h, self.K + 1)) for h in self.hands]
        self.total = [np.zeros_like(r) for r in self.regret]
        self.iterations = 0

    def normalised(self, weights: Floats) -> Floats:
        """Each node's row of ``weights`` (nodes, hands, columns) as a strategy
        (:func:`~liarsdice.solve.subgame.normalised`)."""
        return normalised(weights, self.uniform)

    def _iterate(self) -> None:
        """One iteration of CFR+: each player in turn updates its regrets and average
        strategy against the other's current strategy (alternating updates converge far
        faster than simultaneous ones: at one die each with 4 faces and perfect recall,
        exploitability 0.0002 after 300 iterations, against 0.003 after 3,000)."""
        for p in (0, 1):
            sigma = [self.normalised(np.maximum(r, 0.0)) for r in self.regret]
            reach = self.reach(sigma)
            _, cv = self.values(sigma, reach, actor=p)
            # Where the other player never comes the values are zero, and so the gains.
            c = cv[p] if p == 0 else -cv[p]
            c *= self.valid[:, None, :]
            gain = (c - (sigma[p] * c).sum(axis=2, keepdims=True)) * self.valid[:, None, :]
            reg = self.regret[p]
            reg += gain
            np.maximum(reg, 0.0, out=reg)
            weight = (self.iterations + 1) * reach[p][p] * self.range[p]
            self.total[p] += weight[:, :, None] * sigma[p]
        self.iterations += 1

    def solve(self, iterations: int) -> None:
        """Run ``iterations`` of CFR+."""
        for _ in range(iterations):
            self._iterate()

    def value(self) -> float:
        """The opener's expected payoff when both play their average strategies."""
        value, _ = self.values([self.normalised(t) for t in self.total])
        return float(self.range[0] @ value[0][:, 0, :].T @ self.range[1])


def solve_pair(
    rules: str,
    dice: tuple[int, int],
    *,
    faces: int,
    iterations: int,
    folder: Path | None = None,
    recall: int = 1,
    checkpoint: int = 100,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[np.ndarray], dict[str, Any]]:
    """CFR+ on one pair's round for ``iterations``, its players recalling the last
    ``recall`` bids; returns both actors' average-strategy weights and what to record
    (iterations, the opener's value, seconds, the recall)."""
    t = PairTables.of(rules, dice, faces=faces)
    if len(t.opening) != t.num_bids:
        raise ValueError(f"{rules}: the round learner needs every bid open to the opener")
    game = RecallCFR(t.truth, range_a=t.probs[0], range_b=t.probs[1], recall=recall)
    a, b = dice
    partial = None if folder is None else folder / f"partial-{a}-{b}.npz"
    spent = 0.0
    if partial is not None and partial.exists():
        with np.load(partial) as data:
            game.regret = [data["regret0"], data["regret1"]]
            game.total = [data["total0"], data["total1"]]
            game.iterations = int(data["iterations"])
            spent = float(data["seconds"])
    began = time.perf_counter()
    while game.iterations < iterations:
        step = min(checkpoint, iterations - game.iterations)
        game.solve(step)
        if partial is not None:
            tmp = partial.with_suffix(".tmp.npz")
            np.savez(
                tmp,
                regret0=game.regret[0],
                regret1=game.regret[1],
                total0=game.total[0],
                total1=game.total[1],
                iterations=game.iterations,
                seconds=spent + time.perf_counter() - began,
            )
            tmp.replace(partial)  # whole or absent, never half written
        if progress is not None:
            progress(step)
    info = {
        "iterations": game.iterations,
        "value": game.value(),
        "seconds": round(spent + time.perf_counter() - began, 1),
        "recall": game.tree.recall,
    }
    return [game.total[0], game.total[1]], info


def _pairs(max_dice: int) -> list[tuple[int, int]]:
    # Smallest first: the quick pairs are done (and saved) before the long ones.
    pairs = [(a, b) for a in range(1, max_dice + 1) for b in range(1, max_dice + 1)]
    return sorted(pairs, key=lambda ab: (ab[0] + ab[1], ab))


def train_rounds(
    rules: str,
    *,
    faces: int,
    max_dice: int,
    iterations: int,
    folder: str | Path,
    recall_budget: int = RECALL_BUDGET,
    max_seconds: float | None = None,
    progress: Callable[[tuple[int, int], int], None] | None = None,
) -> RoundPolicies:
    """Learn every pair up to ``max_dice`` each (module docstring), each pair's players
    recalling as many of the last bids as fit ``recall_budget`` numbers a strategy
    (:func:`~liarsdice.nets.recall.recall_for`). With ``max_seconds`` it stops after the
    pair that runs past it: the result holds the pairs done so far, and a later call with
    the same folder goes on."""
    settings = {
        "rules": rules,
        "faces": faces,
        "max_dice": max_dice,
        "iterations": iterations,
        "recall_budget": recall_budget,
    }
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _check_settings(folder / SETTINGS, settings)
    began = time.monotonic()
    strategies: dict[tuple[int, int], list[np.ndarray]] = {}
    info: dict[tuple[int, int], dict[str, Any]] = {}
    for dice in _pairs(max_dice):
        a, b = dice
        done = folder / f"pair-{a}-{b}.npz"
        if not done.exists():
            if max_seconds is not None and time.monotonic() - began > max_seconds:
                break
            tell = None if progress is None else (lambda n, d=dice: progress(d, n))
            t = PairTables.of(rules, dice, faces=faces)
            hands = max(len(r) for r in t.rolls)
            recall = recall_for(num_bids=t.num_bids, hands=hands, budget=recall_budget)
            weights, recorded = solve_pair(
                rules, dice, faces=faces, iterations=iterations, folder=folder,
                recall=recall, progress=tell,
            )  # fmt: skip
            tmp = done.with_suffix(".tmp.npz")
            np.savez_compressed(
                tmp, s0=weights[0], s1=weights[1], info=np.array(json.dumps(recorded))
            )
            tmp.replace(done)
            (folder / f"partial-{a}-{b}.npz").unlink(missing_ok=True)
        with np.load(done) as data:
            strategies[dice] = [data["s0"], data["s1"]]
            info[dice] = json.loads(str(data["info"]))
    return RoundPolicies(
        rules,
        faces=faces,
        max_dice=max_dice,
        strategies=strategies,
        info=info,
        meta={"method": "fixed-strategy iteration CFR+, recall of the last bids", **settings},
    )


def learned_plans(tree: PublicTree, policies: RoundPolicies) -> tuple[Plan, Plan]:
    """Both players' realization plans (:mod:`liarsdice.solve.br`) of the learned strategies
    of the tree's pair of dice counts, every public node at once.

    A history's strategy node is its last ``recall`` bids, worked out for all ``2^B`` nodes
    together (a node's last bid is the tree's ``top``, and removing it gives the history
    one bid shorter), so that the exact best response reaches the rounds where asking the
    bot view by view (:func:`~liarsdice.solve.policy.policy_plans`) would take days: two
    dice each with 6 faces, ``2^24`` histories.
    """
    dice = tree.dice
    if not policies.covers(dice):
        raise ValueError(f"no learned strategy for dice {dice[0]},{dice[1]}")
    t = policies.tables(dice)
    if tuple(t.moves) != tuple(tree.bids) or len(tree.opening) != tree.num_bids:
        raise ValueError("the learned pair's bids are not the public tree's")
    rtree = policies.tree(dice)
    n, num_bids = tree.num_nodes, tree.num_bids
    top = tree.top.astype(np.int64)
    # Each node's last `recall` bids as one number in base num_bids + 1 (0: no bid), the
    # learned tree's nodes likewise, matched by a sorted search.
    base = num_bids + 1
    key = np.zeros(n, dtype=np.int64)
    rest = np.arange(n, dtype=np.int64)
    scale = 1
    for _ in range(rtree.recall):
        last = np.where(rest > 0, top[rest], -1)
        key += (last + 1) * scale
        rest = np.where(last >= 0, rest - (np.int64(1) << np.maximum(last, 0)), 0)
        scale *= base
    node_keys = np.array(
        [sum((b + 1) * base**i for i, b in enumerate(reversed(nd))) for nd in rtree.nodes],
        dtype=np.int64,
    )
    order = np.argsort(node_keys)
    node = order[np.searchsorted(node_keys, key, sorter=order)].astype(np.int32)
    del key, rest
    actor = tree.actor
    plans = []
    for p in (0, 1):
        s = policies.strategy(dice, p).astype(np.float32)
        x = np.zeros((n, len(tree.rolls[p])), dtype=np.float32)
        x[0] = 1.0
        for b in range(num_bids):
            lo, hi = 1 << b, 2 << b
            mine = actor[:lo] == p
            x[lo:hi] = x[:lo]
            x[lo:hi][mine] *= s[node[:lo][mine], :, b + 1]  # the raise to bid b
        xc = x.copy()
        xc[0] = 0.0 if p == 0 else 1.0  # nothing to call before the opening bid
        for b in range(num_bids):
            lo, hi = 1 << b, 2 << b
            mine = np.flatnonzero(actor[lo:hi] == p) + lo
            xc[mine] *= s[node[mine], :, b + 1]  # the call on bid b
        plans.append(Plan(x, xc))
    return plans[0], plans[1]


def learned_exploitability(
    policies: RoundPolicies, dice: tuple[int, int], *, max_bytes: int = DEFAULT_MAX_BYTES
) -> float:
    """The exact exploitability (NashConv / 2, :mod:`liarsdice.solve.br`) of the learned
    strategy of one pair playing both seats, by the exact best response over the whole
    public tree (:func:`learned_plans`).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     pol = train_rounds("snyd-joker", faces=3, max_dice=1, iterations=300, folder=tmp)
    >>> learned_exploitability(pol, (1, 1)) < 0.01
    True
    """
    game = round_game(policies.rules, dice, policies.faces)
    tree = PublicTree(game, max_bytes=max_bytes)
    return exploitability(tree, learned_plans(tree, policies))


def _check_settings(path: Path, settings: dict[str, Any]) -> None:
    if path.exists():
        before = json.loads(path.read_text())
        if before != settings:
            changed = sorted(k for k in settings if before.get(k) != settings[k])
            raise ValueError(
                f"{path.parent} holds a run with other settings ({', '.join(changed)}): "
                "use another folder"
            )
    else:
        path.write_text(json.dumps(settings, indent=1, sort_keys=True))
