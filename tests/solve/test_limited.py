"""Tests for liarsdice.solve.limited: depth-limited re-solving with leaf values, the exact leaf
oracle, their agreement with the full solve and the exact best response, argument errors."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from liarsdice.solve.limited import (
    ExactLeaf,
    LimitedError,
    _Forest,
    exact_leaf,
    exact_leaf_values,
    resolve,
)
from liarsdice.solve.policy import policy_exploitability
from liarsdice.solve.tree import PublicTree, make_game

Floats = np.ndarray


@cache
def _tree(dice: tuple[int, int], faces: int) -> PublicTree:
    return PublicTree(make_game("openspiel", dice, faces))


@cache
def _full(dice: tuple[int, int], faces: int) -> tuple[_Forest, Floats, Floats]:
    """The whole game solved with perfect recall (no leaves) to exploitability 1e-5."""
    tree = _tree(dice, faces)
    ra, rb = tree.chance
    forest = _Forest(tree.true_bid.astype(float), np.array([-1]), (ra[None], rb[None]), None, None)
    while forest.exploitability().max() > 1e-5:
        for _ in range(20):
            forest.iterate()
    va, vb = forest.values()
    return forest, va[0], vb[0]


def test_full_solve_matches_exact_best_response_and_value() -> None:
    """The forest's own best response is the seq module's, and its value the game's."""
    tree = _tree((1, 1), 3)
    forest, va, vb = _full((1, 1), 3)
    ra, rb = tree.chance
    sc, se = forest.average()
    index: dict[tuple[int, ...], tuple[int, int]] = {(): (0, 0)}
    hist: list[list[tuple[int, ...]]] = [[()]]
    for t in range(1, len(forest.levels)):
        lv = forest.levels[t]
        hist.append([hist[t - 1][lv.parent[i]] + (int(lv.last[i]),) for i in range(lv.n)])
        for i, h in enumerate(hist[t]):
            index[h] = (t, i)
    space = tree.game.space

    def fn(view):  # type: ignore[no-untyped-def]
        t, i = index[tuple(space.ids[b] for _, b in view.bids)]
        r = tree.roll_index[t % 2][tuple(sorted(view.my_dice))]
        lv = forest.levels[t]
        kids = se[t][lv.start[i] : lv.start[i] + lv.count[i], r]
        return np.concatenate(([sc[t][i, r]], kids)) if lv.call[i] else kids

    ours = float(forest.exploitability()[0])
    assert ours <= 1e-5
    assert abs(policy_exploitability(tree.game, fn) - ours) < 1e-12
    assert abs(float(ra @ va) - 1 / 9) < 1e-4  # openspiel 1,1 with 3 faces: 1/9
    assert abs(float(ra @ va + rb @ vb)) < 1e-12


def _tiny() -> tuple[Floats, Floats]:
    """The doctest's game: one die each, two faces, no wilds (hand = the face)."""
    faces = np.array([[1, 0], [0, 1]])
    bids = [(1, 1), (1, 2), (2, 1), (2, 2)]
    truth = np.array(
        [
            [[faces[a, f - 1] + faces[b, f - 1] >= q for b in range(2)] for a in range(2)]
            for q, f in bids
        ],
        dtype=float,
    )
    return truth, np.ones(2) / 2


def test_depth_one_with_exact_leaves_agrees_with_full_solve() -> None:
    tree = _tree((1, 1), 3)
    ra, rb = tree.chance
    _, va, _ = _full((1, 1), 3)
    truth = tree.true_bid.astype(float)
    leaf = ExactLeaf(truth, tol=1e-3)
    r = resolve(truth, opened=False, range_a=ra, range_b=rb, depth=1, leaf=leaf, iterations=60)
    assert abs(r.value - float(ra @ va)) < 1e-2
    assert abs(float(ra @ r.values_a + rb @ r.values_b)) < 1e-12  # zero-sum
    assert r.policy.shape == (3, tree.num_bids)
    assert np.allclose(r.policy.sum(axis=1), 1.0)
    assert r.leaf_calls == r.iterations + 1  # depth 1: only A acts, one call per iteration
    assert leaf.iterations > 0


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_opened_subgame_with_other_ranges(depth: int) -> None:
    """From a PBS with a standing bid and ranges far from the prior, depth-limited solves with
    exact leaves agree with the rest of the round solved without leaves."""
    truth, _ = _tiny()
    ra, rb = np.array([0.8, 0.2]), np.array([0.3, 0.7])
    full = resolve(truth, opened=True, range_a=ra, range_b=rb, depth=None, iterations=400)
    leaf = exact_leaf(truth, tol=1e-4)
    r = resolve(truth, opened=True, range_a=ra, range_b=rb, depth=depth, leaf=leaf, iterations=80)
    assert abs(r.value - full.value) < 1e-2
    assert r.policy.shape == (2, truth.shape[0])  # liar + the raises
    assert abs(float(ra @ r.values_a + rb @ r.values_b)) < 1e-12


def test_exact_leaf_values_swap_players_and_zero_sum() -> None:
    """A leaf where B acts is the same as the transposed game with A acting."""
    tree = _tree((1, 1), 3)
    truth = tree.true_bid.astype(float)
    gen = np.random.default_rng(3)
    bids = np.array([0, 1, 3])
    ra, rb = gen.random((3, 3)) + 0.1, gen.random((3, 3)) + 0.1
    ra /= ra.sum(axis=1, keepdims=True)
    rb /= rb.sum(axis=1, keepdims=True)
    va, vb = exact_leaf_values(truth, bids, np.ones(3, dtype=int), ra, rb, tol=1e-3)
    wb, wa = exact_leaf_values(
        truth.transpose(0, 2, 1), bids, np.zeros(3, dtype=int), rb, ra, tol=1e-3
    )
    assert np.allclose(va, wa) and np.allclose(vb, wb)
    assert np.allclose((ra * va).sum(axis=1), -(rb * vb).sum(axis=1), atol=1e-12)
    # The last bid can only be called: B calls it, winning when it is false.
    top = np.array([truth.shape[0] - 1])
    va, vb = exact_leaf_values(truth, top, np.array([1]), ra[:1], rb[:1])
    want = (2 * truth[-1] - 1) @ rb[0]
    assert np.allclose(va[0], want)


def test_warm_leaf_gives_the_cold_answer() -> None:
    tree = _tree((1, 1), 3)
    truth = tree.true_bid.astype(float)
    leaf = ExactLeaf(truth, tol=1e-4)
    bids, act = np.arange(4), np.ones(4, dtype=int)
    ra = np.tile(tree.chance[0], (4, 1))
    rb = np.tile(tree.chance[1], (4, 1))
    leaf(bids, act, ra, rb)
    ra2 = ra * np.array([1.0, 0.7, 0.4])
    ra2 /= ra2.sum(axis=1, keepdims=True)
    warm = leaf(bids, act, ra2, rb)
    cold = exact_leaf_values(truth, bids, act, ra2, rb, tol=1e-4)
    game_warm = (ra2 * warm[0]).sum(axis=1)
    game_cold = (ra2 * cold[0]).sum(axis=1)
    assert np.allclose(game_warm, game_cold, atol=5e-4)


def test_leaf_sees_normalised_ranges_and_the_right_player() -> None:
    tree = _tree((1, 1), 3)
    truth = tree.true_bid.astype(float)
    seen: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def leaf(bids, to_act, ra, rb):  # type: ignore[no-untyped-def]
        seen.append((bids, to_act, ra, rb))
        return np.zeros_like(ra), np.zeros_like(rb)

    resolve(truth, opened=True, range_a=[1, 2, 1], range_b=[1, 1, 1], depth=1, leaf=leaf)
    bids, to_act, ra, rb = seen[-1]
    assert bids.tolist() == list(range(1, tree.num_bids))
    assert (to_act == 1).all()
    assert np.allclose(ra.sum(axis=1), 1.0) and np.allclose(rb, 1 / 3)
    seen.clear()
    resolve(truth, opened=True, range_a=[1, 2, 1], range_b=[1, 1, 1], depth=2, leaf=leaf)
    assert (seen[-1][1] == 0).all()
    assert min(seen[-1][0]) == 2


def test_argument_errors_name_what_is_wrong() -> None:
    truth = _tree((1, 1), 3).true_bid.astype(float)
    ok = {"opened": False, "range_a": np.ones(3), "range_b": np.ones(3)}
    with pytest.raises(LimitedError, match="truth must be"):
        resolve(truth[0], depth=None, **ok)  # type: ignore[arg-type]
    with pytest.raises(LimitedError, match="range_b must have shape"):
        resolve(truth, opened=False, range_a=np.ones(3), range_b=np.ones(4), depth=None)
    with pytest.raises(LimitedError, match="range_a must be finite and non-negative"):
        resolve(truth, opened=False, range_a=[1, -1, 1], range_b=np.ones(3), depth=None)
    with pytest.raises(LimitedError, match="range_a must have some mass"):
        resolve(truth, opened=False, range_a=np.zeros(3), range_b=np.ones(3), depth=None)
    with pytest.raises(LimitedError, match="depth must be"):
        resolve(truth, depth=0, **ok)  # type: ignore[arg-type]
    with pytest.raises(LimitedError, match="needs a leaf function"):
        resolve(truth, depth=1, **ok)  # type: ignore[arg-type]
    with pytest.raises(LimitedError, match="iterations must be"):
        resolve(truth, depth=None, iterations=0, **ok)  # type: ignore[arg-type]

    def bad(bids, to_act, ra, rb):  # type: ignore[no-untyped-def]
        return np.zeros((len(bids), 2)), np.zeros_like(rb)

    with pytest.raises(LimitedError, match="leaf function returned values of shapes"):
        resolve(truth, depth=1, leaf=bad, **ok)  # type: ignore[arg-type]

    def nan(bids, to_act, ra, rb):  # type: ignore[no-untyped-def]
        return np.full_like(ra, np.nan), np.zeros_like(rb)

    with pytest.raises(LimitedError, match="the leaf function gave NaN"):
        resolve(truth, depth=1, leaf=nan, iterations=2, **ok)  # type: ignore[arg-type]
    r1 = np.ones((1, 3)) / 3
    with pytest.raises(LimitedError, match="bids must index"):
        exact_leaf_values(truth, np.array([9]), np.array([1]), r1, r1)
    with pytest.raises(LimitedError, match="bids must be a 1-d integer array"):
        exact_leaf_values(truth, np.array([0.5]), np.array([1]), r1, r1)
    with pytest.raises(LimitedError, match="to_act must be"):
        exact_leaf_values(truth, np.array([1]), np.array([2]), r1, r1)
    with pytest.raises(LimitedError, match=r"range_a must have shape \(2, 3\)"):
        exact_leaf_values(truth, np.array([1, 2]), np.array([1, 1]), r1, r1)
    with pytest.raises(LimitedError, match="not solved to"):
        exact_leaf_values(truth, np.array([0]), np.array([1]), r1, r1, tol=0.0, max_iterations=20)
    assert issubclass(LimitedError, ValueError)


def test_safe_resolve_respects_the_values_it_is_given() -> None:
    """A safe re-solve at a leaf of an earlier solve (DeepStack's gadget) gives none of the
    other player's hands much more than the earlier solve's leaf values for it."""
    tree = _tree((1, 1), 3)
    truth = tree.true_bid.astype(float)
    ra, rb = tree.chance
    root = resolve(
        truth, opened=False, range_a=ra, range_b=rb, leaf=exact_leaf(truth, tol=1e-3), iterations=60
    )
    assert len(root.leaf_bids) == tree.num_bids and root.leaf_values_a.shape == (6, 3)
    j = int(np.argmax(ra @ root.policy))  # the opening bid played most
    child = np.ascontiguousarray(truth[j:].transpose(0, 2, 1))  # B to act, A's values kept
    mine = rb  # B's range there is the prior (A's bid told nothing about B's hand)
    r = resolve(
        child,
        opened=True,
        range_a=mine,
        range_b=ra,
        leaf=exact_leaf(child, tol=1e-3),
        iterations=60,
        safe_values_b=root.leaf(j)[0],
    )
    with pytest.raises(LimitedError, match="no leaf with standing bid 9"):
        root.leaf(9)
    assert (r.values_b <= root.leaf_values_a[j] + 0.03).all()
    with pytest.raises(LimitedError, match="safe_values_b must be 3 finite values"):
        resolve(child, opened=True, range_a=mine, range_b=ra, depth=None, safe_values_b=[0.0])
