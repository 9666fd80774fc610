"""Tests for liarsdice.solve: the public tree against the engine, CFR against published values
and the sequence-form LP, exact exploitability, policies, NashBot and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice.bots.bidding.nash import NashBot
from liarsdice.cli.solve import solve as solve_cmd
from liarsdice.core.bidding import CHANCE, LIAR, Bid, Game, preset
from liarsdice.solve import (
    CFRSolver,
    Policy,
    PublicTree,
    SolverError,
    exploitability,
    game_value,
    policy_exploitability,
    solve,
)
from liarsdice.solve.br import Plan, reach
from liarsdice.solve.lp import solve_lp
from liarsdice.solve.memo import Memo
from liarsdice.solve.policy import make_player_view, uniform_weights
from liarsdice.solve.tree import make_game

CONFIGS = [
    ("openspiel", (1, 1), 6),
    ("snyd-normal", (1, 1), 6),
    ("snyd-joker", (2, 1), 4),
    ("openspiel", (1, 2), 3),
    ("snyd-joker", (2, 2), 3),
]


@pytest.fixture(scope="module")
def trees() -> dict[tuple[str, tuple[int, int], int], PublicTree]:
    return {(n, d, f): PublicTree(make_game(n, d, f)) for n, d, f in CONFIGS}


def _state_with_rolls(game: Game, roll0: tuple[int, ...], roll1: tuple[int, ...]):  # type: ignore[no-untyped-def]
    s = game.new_initial_state()
    for face in (*roll0, *roll1):
        assert s.current_player == CHANCE
        s = s.apply_action(face)
    assert s.current_player == 0
    return s


@pytest.mark.parametrize("config", CONFIGS)
def test_counts_match_engine(trees, config) -> None:  # type: ignore[no-untyped-def]
    tree = trees[config]
    game = tree.game
    for r0 in tree.rolls[0]:
        for r1 in tree.rolls[1]:
            s = _state_with_rolls(game, r0, r1)
            assert s.hand(0) == r0 and s.hand(1) == r1
            for b, bid in enumerate(tree.bids):
                assert tree.count(b, r0, r1) == s.count(bid)
                assert tree.true_bid[b, tree.roll_index[0][r0], tree.roll_index[1][r1]] == (
                    s.count(bid) >= bid.quantity
                )


@pytest.mark.parametrize("config", CONFIGS)
def test_random_paths_agree_with_engine(trees, config) -> None:  # type: ignore[no-untyped-def]
    tree = trees[config]
    game = tree.game
    rng = random.Random(7)
    for _ in range(300):
        r0 = rng.choice(tree.rolls[0])
        r1 = rng.choice(tree.rolls[1])
        s = _state_with_rolls(game, r0, r1)
        mask = 0
        while not s.is_terminal():
            p = s.current_player
            assert p == tree.actor[mask]
            assert s.legal_actions() == tree.actions(mask)
            view = make_player_view(tree, p, (r0, r1)[p], mask)
            assert view == s.view(p)
            legal = s.legal_actions()
            # call more often late so that paths end at every depth
            action = LIAR if mask and rng.random() < 0.3 else rng.choice(legal)
            s = s.apply_action(action)
            if action != LIAR:
                mask |= 1 << (action - 8)
        i0, i1 = tree.roll_index[0][r0], tree.roll_index[1][r1]
        top = int(tree.top[mask])
        joint = tree.chance[0][i0] * tree.chance[1][i1]
        u0 = tree.sign0[mask] * tree.payoff[top, i0, i1] / joint
        assert s.returns() == pytest.approx((u0, -u0))


def test_tree_shape() -> None:
    tree = PublicTree(make_game("openspiel", (2, 1), 6))
    assert tree.num_bids == 18 and tree.num_nodes == 2**18
    assert [len(r) for r in tree.rolls] == [21, 6]
    assert tree.chance[0].sum() == pytest.approx(1.0)
    assert tree.chance[0][tree.roll_index[0][(1, 2)]] == pytest.approx(2 / 36)
    opening_no_wild = PublicTree(Game(preset("openspiel", open_on_wild=False)))
    assert Bid(1, 6) not in [opening_no_wild.bids[b] for b in opening_no_wild.opening]


def test_size_and_rules_errors() -> None:
    with pytest.raises(SolverError, match=r"2\^24 = 16,777,216"):
        PublicTree(make_game("openspiel", (2, 2), 6))
    with pytest.raises(SolverError, match="single-round"):
        PublicTree(make_game("classic", (1, 1)))
    with pytest.raises(SolverError, match="exact call"):
        PublicTree(Game(preset("openspiel", exact="spot-on")))


@pytest.mark.parametrize(
    ("name", "published"),
    [("openspiel", -7 / 258), ("snyd-normal", -1 / 9), ("snyd-joker", -7 / 327)],
)
def test_published_values(name: str, published: float) -> None:
    result = solve(Game(preset(name)), target=1e-4)
    assert result.exploitability <= 1e-4
    # the value of a profile lies within 2 * exploitability (NashConv) of the game value
    assert abs(result.value - published) <= 2 * result.exploitability
    assert abs(result.value - published) < 2e-4


@pytest.mark.parametrize(
    "config",
    [("openspiel", (1, 1), 3), ("snyd-joker", (1, 1), 3), ("snyd-normal", (1, 2), 2),
     ("snyd-joker", (2, 1), 2)],
)  # fmt: skip
def test_cfr_matches_lp(config: tuple[str, tuple[int, int], int]) -> None:
    name, dice, faces = config
    tree = PublicTree(make_game(name, dice, faces))
    lp = solve_lp(tree)
    # the LP's own strategies are exact: best responses to them give back the value
    assert exploitability(tree, lp.plans) == pytest.approx(0.0, abs=1e-9)
    assert game_value(tree, lp.plans) == pytest.approx(lp.value, abs=1e-9)
    result = solve(tree, target=1e-8, max_iterations=20_000, algorithm="pcfr+")
    assert result.exploitability <= 1e-8
    assert abs(result.value - lp.value) < 1e-6


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr", "pcfr+"])
def test_algorithms_converge(algorithm) -> None:  # type: ignore[no-untyped-def]
    tree = PublicTree(make_game("snyd-joker", (1, 1), 6))
    solver = CFRSolver(tree, algorithm)
    first = solver.exploitability()
    solver.iterate(150)
    assert solver.exploitability() < min(first / 50, 2e-3)
    assert solver.value() == pytest.approx(-7 / 327, abs=5e-3)


def test_uniform_policy_exploitability_two_ways() -> None:
    game = make_game("openspiel", (1, 1), 4)
    tree = PublicTree(game)
    plans = []
    for p in (0, 1):
        edge, call = uniform_weights(tree, p)
        x = reach(tree, edge)
        plans.append(Plan(x, x * call))
    direct = exploitability(tree, (plans[0], plans[1]))
    solver = CFRSolver(tree)
    assert solver.exploitability() == pytest.approx(direct)  # the initial strategy is uniform

    def uniform(view):  # type: ignore[no-untyped-def]
        return [1.0] * len(view.legal_actions)

    assert policy_exploitability(game, uniform) == pytest.approx(direct)

    def always_call(view):  # type: ignore[no-untyped-def]
        return {view.legal_actions[0]: 1.0}

    # opening with the lowest bid and calling everything: exploitable
    assert policy_exploitability(game, always_call) > 0.3


def test_policy_roundtrip_and_bot(tmp_path: Path) -> None:
    game = make_game("snyd-joker", (1, 1), 6)
    result = solve(game, target=1e-3)
    policy = Policy.from_result(result)
    path = tmp_path / "policy.json"
    policy.save(path)
    data = json.loads(path.read_text())
    assert data["rules"] == "snyd-joker" and data["dice"] == [1, 1] and data["faces"] == 6
    assert "" in data["strategy"][0]["3"]
    loaded = Policy.load(path)
    assert loaded.exploitability() == pytest.approx(result.exploitability, abs=1e-6)
    assert loaded.value() == pytest.approx(result.value, abs=1e-6)
    assert policy_exploitability(game, loaded.view_probabilities) == pytest.approx(
        result.exploitability, abs=1e-6
    )

    bot0 = NashBot(random.Random(1), path)
    bot1 = NashBot(random.Random(2), policy)
    rng = random.Random(3)
    total = 0.0
    for _ in range(200):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s.apply_action(s.sample_chance(rng))
                continue
            bot = (bot0, bot1)[s.current_player]
            action = bot.choose(game, s.view(s.current_player))
            assert action in s.legal_actions()
            s = s.apply_action(action)
        total += s.returns()[0]
    assert abs(total / 200) < 0.3
    with pytest.raises(SolverError):
        bot0.choose(make_game("openspiel", (1, 1), 6), Game(preset("openspiel")).new_initial_state()
                    .apply_action(1).apply_action(2).view(0))  # fmt: skip


def test_nashbot_solves_on_the_fly() -> None:
    game = make_game("openspiel", (1, 1), 3)
    s = game.new_initial_state().apply_action(3).apply_action(1)
    bot = NashBot(random.Random(0), target=1e-4)
    assert bot.choose(game, s.view(0)) in s.legal_actions()
    assert bot.policy_for(game) is bot.policy_for(game)  # cached
    assert bot.policy_for(game).exploitability() <= 1e-4


def test_cli_json_and_out(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = CliRunner().invoke(
        solve_cmd,
        [
            "--rules",
            "snyd-normal",
            "--dice",
            "1,1",
            "--target",
            "1e-3",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary) == {"value", "exploitability", "iterations", "seconds"}
    assert summary["exploitability"] <= 1e-3
    assert summary["value"] == pytest.approx(-1 / 9, abs=2e-3)
    assert Policy.load(out).exploitability() == pytest.approx(summary["exploitability"], abs=1e-6)


def test_cli_text_and_errors() -> None:
    runner = CliRunner()
    result = runner.invoke(
        solve_cmd, ["--rules", "openspiel", "--faces", "3", "--max-iterations", "5"]
    )
    assert result.exit_code == 0
    assert "exploitability" in result.stdout and "value" in result.stdout
    assert "iter" in result.stdout
    big = runner.invoke(solve_cmd, ["--rules", "openspiel", "--dice", "2,2"])
    assert big.exit_code != 0 and "2^24" in big.output
    bad = runner.invoke(solve_cmd, ["--dice", "x"])
    assert bad.exit_code != 0


def test_exploitability_nonnegative_for_current_iterates() -> None:
    tree = PublicTree(make_game("openspiel", (1, 1), 6))
    solver = CFRSolver(tree, "cfr+")
    for _ in range(5):
        solver.iterate(3)
        plans = (solver.current_plan(0), solver.current_plan(1))
        assert exploitability(tree, plans) >= -1e-12
        assert np.all(plans[0].x >= 0)


def test_cli_cache_solves_once_into_the_users_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from liarsdice.solve import cache

    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(cache, "MEMORY", Memo())
    args = ["--rules", "snyd-normal", "--dice", "1,2", "--faces", "5", "--cache", "--json"]
    runner = CliRunner()
    first = runner.invoke(solve_cmd, args)
    assert first.exit_code == 0, first.output
    game = make_game("snyd-normal", (1, 2), 5)
    assert cache.is_cached(game) and "cached in" in first.stderr
    summary = json.loads(first.stdout)
    assert summary["exploitability"] <= 1e-3
    monkeypatch.setattr(cache, "MEMORY", Memo())  # a new process reads the file: no solve

    def no_solve(*a, **k):  # type: ignore[no-untyped-def]
        raise AssertionError("solved again")

    monkeypatch.setattr(cache, "solve", no_solve)
    again = runner.invoke(solve_cmd, args)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == summary
    capped = runner.invoke(solve_cmd, [*args, "--max-iterations", "5"])
    assert capped.exit_code != 0 and "--max-iterations" in capped.output
    small = runner.invoke(solve_cmd, ["--rules", "openspiel", "--dice", "1,2", "--max-gib", "0.01"])
    assert small.exit_code != 0 and "limit 0.0 GiB" in small.output
