"""The lean solver: its layout and sequence-form passes against the node-ordered reference
functions, its iterates against the previous implementation's, float32, chunking, the memory
estimate, illegal openings, and published two-against-one values."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from liarsdice.core.bidding import Game, preset
from liarsdice.solve import br, seq
from liarsdice.solve.cfr import CFRSolver, choose_dtype, solve
from liarsdice.solve.lp import solve_lp
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import (
    DEFAULT_MAX_BYTES,
    PublicTree,
    SolverError,
    estimate_bytes,
    game_bytes,
    in_reach,
    make_game,
)

GiB = 2**30

CONFIGS = [
    ("openspiel", (1, 1), 3),
    ("snyd-joker", (2, 1), 3),
    ("snyd-normal", (1, 2), 2),
    ("openspiel", (1, 2), 3),
]


def _no_wild_opening(faces: int = 3) -> Game:
    rules = make_game("openspiel", (1, 1), faces).rules.replace(open_on_wild=False)
    return Game(rules)


def _trees() -> list[PublicTree]:
    return [PublicTree(make_game(*c)) for c in CONFIGS] + [PublicTree(_no_wild_opening())]


def _random_behaviour(tree: PublicTree, p: int, rng: np.random.Generator) -> np.ndarray:
    """A random behaviour array: its node-ordered weights drawn, then normalised per node."""
    beh = seq.uniform_behaviour(tree, p)
    o = 1 - p
    for mask in range(tree.num_nodes):
        if int(tree.actor[mask]) != p:
            continue
        kids = [mask | 1 << b for b in tree.bid_children(mask)]
        w = rng.random((len(kids) + (mask > 0), beh.shape[2])) ** 3
        w /= w.sum(axis=0)
        if mask:
            beh[p, mask >> 1] = w[0]
            w = w[1:]
        for kid, row in zip(kids, w, strict=True):
            beh[o, kid >> 1] = row
    return beh


def _node_weights(tree: PublicTree, p: int, beh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The node-ordered edge and call weights of a behaviour array (1 where p does not act)."""
    edge = np.ones((tree.num_nodes, beh.shape[2]))
    call = np.ones_like(edge)
    for mask in range(1, tree.num_nodes):
        if int(tree.actor[mask]) == p:
            call[mask] = beh[p, mask >> 1]
        else:
            edge[mask] = beh[1 - p, mask >> 1] if tree.legal_edge[mask] else 0.0
    call[0] = 0.0
    return edge, call


def test_layout_levels_and_conversions() -> None:
    tree = PublicTree(make_game("openspiel", (1, 2), 3))
    masks = np.arange(tree.num_nodes)
    layout = tree.to_layout(masks)
    assert (tree.from_layout(layout) == masks).all()
    assert (layout[tree.actor, masks >> 1] == masks).all()
    seen = {0}
    for lv in tree.levels:
        for q in lv.parities:
            kids = layout[q, lv.lo : lv.hi]
            parents = layout[1 - q, : lv.hi - lv.lo]
            assert (kids == parents + (1 << lv.bid)).all()
            assert (tree.top[kids] == lv.bid).all()
            seen.update(kids.tolist())
    assert seen == set(range(tree.num_nodes))
    assert [tree.root_child_row(b) for b in range(4)] == [0, 1, 2, 4]
    assert layout[1, tree.root_child_row(3)] == 1 << 3


@pytest.mark.parametrize("tree", _trees(), ids=lambda t: repr(t))
def test_sequence_passes_match_node_ordered_reference(tree: PublicTree) -> None:
    rng = np.random.default_rng(5)
    seqs, plans = [], []
    for p in (0, 1):
        beh = _random_behaviour(tree, p, rng)
        s = seq.realization(tree, p, beh)
        edge, call = _node_weights(tree, p, beh)
        x = br.reach(tree, edge)
        plan = br.Plan(x, x * call)
        got = seq.plan_of(tree, p, s)
        reachable = tree.reachable
        np.testing.assert_allclose(got.x[reachable], plan.x[reachable], atol=1e-15)
        np.testing.assert_allclose(got.xc[reachable], plan.xc[reachable], atol=1e-15)
        np.testing.assert_allclose(seq.seq_of_plan(tree, p, plan)[:, :], s, atol=1e-15)
        seqs.append(s)
        plans.append(plan)
    profile = (seqs[0], seqs[1])
    assert seq.exploitability(tree, profile) == pytest.approx(
        br.exploitability(tree, (plans[0], plans[1])), abs=1e-13
    )
    assert seq.game_value(tree, profile) == pytest.approx(
        br.game_value(tree, (plans[0], plans[1])), abs=1e-13
    )
    for p in (0, 1):  # any positive scale of the opponent's plan
        scaled = seq.best_response_value(tree, p, 7.0 * profile[1 - p], scale=7.0)
        assert scaled == pytest.approx(br.best_response_value(tree, p, plans[1 - p]), abs=1e-13)


# Exploitability and value after 1, 6 and 36 iterations, printed by the previous solver (the
# node-ordered one this package replaced): the vectorised updates are unchanged.
PREVIOUS = {
    ("openspiel", (1, 1), 3, "dcfr"): [
        (3.7776862064e-01, 0.5354533679),
        (6.1935342420e-02, 0.0757944857),
        (4.9264611341e-04, 0.1105485784),
    ],
    ("snyd-joker", (2, 1), 3, "cfr+"): [
        (3.4719661369e-01, 0.5908628375),
        (1.1879591108e-01, 0.2706587206),
        (5.9850355077e-03, 0.3281997579),
    ],
    ("openspiel", (1, 1), 6, "dcfr"): [
        (5.9435685097e-01, 0.5716757396),
        (2.4818534154e-01, 0.0161213118),
        (1.4779606942e-02, -0.0266523276),
    ],
    ("snyd-normal", (1, 2), 2, "pcfr+"): [
        (5.2648685343e-01, 0.5437505279),
        (8.1320645885e-02, -0.0272988415),
        (1.0276850353e-03, -0.0006128523),
    ],
}


@pytest.mark.parametrize("key", list(PREVIOUS), ids=str)
def test_iterates_match_the_previous_solver(key: tuple[str, tuple[int, int], int, str]) -> None:
    name, dice, faces, algorithm = key
    solver = CFRSolver(PublicTree(make_game(name, dice, faces)), algorithm)  # type: ignore[arg-type]
    for n, (expl, value) in zip((1, 5, 30), PREVIOUS[key], strict=True):
        solver.iterate(n)
        assert solver.exploitability() == pytest.approx(expl, rel=1e-9)
        assert solver.value() == pytest.approx(value, abs=1e-9)


def test_chunking_does_not_change_the_iterates(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = PublicTree(make_game("openspiel", (1, 2), 4))  # 2^12 nodes
    whole = CFRSolver(tree)
    monkeypatch.setattr(seq, "CHUNK_BYTES", 1)  # chunks of 64 rows
    chunked = CFRSolver(tree)
    assert chunked._step == 64 < whole._step
    for solver in (whole, chunked):
        solver.iterate(12)
    for p in (0, 1):
        np.testing.assert_allclose(chunked.average[p], whole.average[p], rtol=1e-12, atol=1e-15)
    assert chunked.exploitability() == pytest.approx(whole.exploitability(), rel=1e-10)


def test_float32_solves_and_measures_like_float64() -> None:
    tree = PublicTree(make_game("openspiel", (1, 2), 4))
    r64 = solve(tree, target=1e-3, dtype=np.float64)
    r32 = solve(tree, target=1e-3, dtype=np.float32)
    assert r32.solver.average[0].dtype == np.float32
    assert r32.exploitability <= 1e-3 and r64.exploitability <= 1e-3
    assert abs(r32.value - r64.value) <= 2 * (r32.exploitability + r64.exploitability)
    # the float32 best response of a float32 plan is exact to about 1e-6
    seqs = r64.seqs()
    narrow = (seqs[0].astype(np.float32), seqs[1].astype(np.float32))
    assert seq.exploitability(tree, narrow) == pytest.approx(r64.exploitability, abs=2e-6)
    assert seq.game_value(tree, narrow) == pytest.approx(r64.value, abs=2e-6)


def test_dtype_choice() -> None:
    small = PublicTree(make_game("openspiel", (1, 1), 6))
    large = PublicTree(make_game("openspiel", (2, 1), 6))
    assert choose_dtype(small, 1e-3) is np.float64
    assert choose_dtype(large, 1e-3) is np.float32
    assert choose_dtype(large, 1e-6) is np.float64  # float32 cannot resolve it
    assert choose_dtype(large, 1e-6, max_bytes=200 * 2**20) is np.float32  # float64 won't fit
    with pytest.raises(ValueError, match="float32 or float64"):
        CFRSolver(small, dtype=np.float16)
    with pytest.raises(SolverError, match="GiB in float64"):
        CFRSolver(large, dtype=np.float64, max_bytes=200 * 2**20)


def test_memory_estimate() -> None:
    # openspiel 2,2 with 6 faces fits in 16 GB (float32), not in the default 3 GiB
    assert estimate_bytes(24, [21, 21], 4) <= 16 * 10**9
    with pytest.raises(SolverError, match=r"2\^24 = 16,777,216"):
        PublicTree(make_game("openspiel", (2, 2), 6))
    big = PublicTree(make_game("openspiel", (2, 2), 6), max_bytes=16 * GiB)
    assert big.num_nodes == 2**24 and "top" not in vars(big)  # no per-node arrays built
    assert not in_reach(big.game) and in_reach(big.game, 16 * GiB)
    assert in_reach(make_game("openspiel", (2, 2), 5)) and in_reach(make_game("snyd-joker", (1, 2)))
    assert not in_reach(Game(preset("classic", players=2)), 16 * GiB)
    # the solver's own arrays are what the estimate counts, plus a bounded overhead
    tree = PublicTree(make_game("openspiel", (2, 1), 4))
    solver = CFRSolver(tree, dtype=np.float32)
    arrays = sum(a.nbytes for a in (*solver.regret, *solver.strategy, *solver.average))
    arrays += solver._plan_buf.nbytes + solver._value_buf.nbytes
    rolls = [len(r) for r in tree.rolls]
    need = estimate_bytes(tree.num_bids, rolls, 4)
    assert arrays <= need <= arrays + 64 * 2**20
    assert game_bytes(tree.game) == need


def test_peak_memory_within_the_estimate() -> None:
    # VmHWM is this process's own peak; ru_maxrss would carry over the peak of the (large)
    # pytest process that forked it, since Linux keeps the larger across fork and exec.
    code = """
import json, re
import numpy as np
from liarsdice.solve.cfr import CFRSolver
from liarsdice.solve.tree import PublicTree, estimate_bytes, make_game
tree = PublicTree(make_game("openspiel", (1, 2), 6))
solver = CFRSolver(tree, dtype=np.float32)
solver.iterate(2)
solver.exploitability(), solver.value()
need = estimate_bytes(tree.num_bids, [len(r) for r in tree.rolls], 4)
hwm = re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read())
print(json.dumps([int(hwm.group(1)) * 1024, need]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    peak, need = json.loads(out.stdout)
    assert peak <= need, (peak, need)
    assert need <= DEFAULT_MAX_BYTES


def test_illegal_openings_get_nothing() -> None:
    game = _no_wild_opening(3)
    tree = PublicTree(game)
    illegal = [b for b in range(tree.num_bids) if b not in tree.opening]
    assert illegal  # the bids on the wild face
    lp = solve_lp(tree)
    result = solve(tree, target=1e-8, max_iterations=20_000, algorithm="pcfr+")
    assert result.value == pytest.approx(lp.value, abs=1e-6)
    policy = Policy.from_result(result)
    assert Policy.from_plans(tree, lp.plans).exploitability() == pytest.approx(0.0, abs=1e-9)
    for b in illegal:
        assert (policy.seqs[0][1, tree.root_child_row(b)] == 0.0).all()
        assert (result.solver.strategy[0][1, tree.root_child_row(b)] == 0.0).all()
    for r in range(len(tree.rolls[0])):
        actions, probs = tree.actions(0), policy.node_probabilities(0, 0, r)
        assert len(actions) == len(probs) == len(tree.opening)


@pytest.mark.parametrize(
    ("name", "faces", "published"),
    [("snyd-normal", 4, Fraction(345, 1696)), ("snyd-joker", 3, Fraction(1, 3))],
)
def test_published_two_against_one_values(name: str, faces: int, published: Fraction) -> None:
    """T. Ahle's tables (github.com/thomasahle/snyd): the first player holds two dice."""
    result = solve(make_game(name, (2, 1), faces), target=1e-4)
    assert result.exploitability <= 1e-4
    assert abs(result.value - float(published)) <= 2 * result.exploitability


def test_policy_keeps_sequence_form_and_plans() -> None:
    tree = PublicTree(make_game("snyd-joker", (1, 2), 3))
    result = solve(tree, target=1e-4)
    policy = Policy.from_result(result)
    back = Policy.from_plans(tree, policy.plans)
    for p in (0, 1):
        np.testing.assert_allclose(back.seqs[p], policy.seqs[p], atol=1e-15)
    assert policy.exploitability() == pytest.approx(br.exploitability(tree, policy.plans))
    assert policy.value() == pytest.approx(br.game_value(tree, policy.plans))
    with pytest.raises(SolverError, match="shape"):
        Policy(tree, (policy.seqs[1], policy.seqs[0]))
