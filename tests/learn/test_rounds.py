"""Two-player single rounds learned by self-play (:mod:`liarsdice.learn.rounds`, NumPy only),
their file (:mod:`liarsdice.nets.rounds`) and the ``learned`` bot that plays them."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice.arena import ArenaSpec, run_arena
from liarsdice.bots.bidding.learned import LearnedBot
from liarsdice.cli.main import cli
from liarsdice.core.bidding import Game, preset
from liarsdice.core.bidding.actions import LIAR
from liarsdice.core.bidding.rules import Scoring
from liarsdice.families import FAMILIES
from liarsdice.learn.rounds import RecallCFR, learned_exploitability, solve_pair, train_rounds
from liarsdice.nets.npz import write_npz
from liarsdice.nets.recall import RecallTree
from liarsdice.nets.rounds import (
    PACKAGED_ROUNDS,
    PairTables,
    RoundFormatError,
    RoundPolicies,
    packaged_round_policies,
)
from liarsdice.solve.policy import policy_exploitability
from liarsdice.solve.tree import PublicTree, make_game


@pytest.mark.parametrize(
    ("rules", "dice", "faces"), [("snyd-joker", (1, 2), 4), ("openspiel", (2, 1), 3)]
)
def test_pair_tables_agree_with_the_solver(rules: str, dice: tuple[int, int], faces: int) -> None:
    t = PairTables.of(rules, dice, faces=faces)
    tree = PublicTree(make_game(rules, dice, faces))
    assert t.moves == tree.bids and len(t.opening) == t.num_bids
    assert np.array_equal(t.truth, tree.true_bid.astype(float))
    for p in (0, 1):
        assert t.rolls[p] == tree.rolls[p] and np.allclose(t.probs[p], tree.chance[p])
        assert t.roll_index(p, tuple(reversed(t.rolls[p][-1]))) == len(t.rolls[p]) - 1


def test_a_strategies_file_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    raw = [rng.random((7, 3, 7)), rng.random((7, 3, 7))]
    raw[0][2, 1] = 0.0  # an all-zero row reads as uniform
    pol = RoundPolicies("snyd-joker", faces=3, max_dice=1, strategies={(1, 1): raw},
                        info={(1, 1): {"value": 0.25}})  # fmt: skip
    path = tmp_path / "r.npz"
    pol.save(path)
    back = RoundPolicies.load(path)
    assert back.pairs == [(1, 1)] and back.info[1, 1] == {"value": 0.25}
    for p in (0, 1):
        assert np.abs(back.strategy((1, 1), p) - pol.strategy((1, 1), p)).max() < 0.01
    row = back.probabilities((1, 1), 0, hand=(2,), history=[1])  # call, then 4 raises
    assert row.shape == (5,) and np.allclose(row, 0.2) and abs(row.sum() - 1) < 1e-9
    opening = back.probabilities((1, 1), 0, hand=(3,), history=[])
    assert opening.shape == (6,) and abs(opening.sum() - 1) < 1e-9
    (tmp_path / "junk.npz").write_bytes(b"junk")
    with pytest.raises(RoundFormatError, match="not a liarsdice-rounds file"):
        RoundPolicies.load(tmp_path / "junk.npz")
    buf = io.BytesIO()
    np.savez(buf, meta=np.array(json.dumps({"format": "liarsdice-rounds", "version": 7})))
    buf.seek(0)
    with pytest.raises(RoundFormatError, match="version 7: this program reads"):
        RoundPolicies.load(buf)


def test_recall_is_kept_in_the_file_and_version_1_files_read_as_last_bid_recall(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(1)
    nodes = len(RecallTree(num_bids=6, recall=2))  # one die each, 3 faces: 6 bids
    raw = [rng.random((nodes, 3, 7)), rng.random((nodes, 3, 7))]
    pol = RoundPolicies("snyd-joker", faces=3, max_dice=1, strategies={(1, 1): raw},
                        info={(1, 1): {"recall": 2}})  # fmt: skip
    pol.save(tmp_path / "r2.npz")
    back = RoundPolicies.load(tmp_path / "r2.npz")
    assert back.recall((1, 1)) == 2 and len(back.tree((1, 1))) == nodes == 22
    assert np.abs(back.strategy((1, 1), 1) - pol.strategy((1, 1), 1)).max() < 0.01
    row = back.probabilities((1, 1), 1, hand=(1,), history=[0, 2, 3])  # recalls (2, 3)
    node = back.tree((1, 1)).nodes.index((2, 3))
    assert np.allclose(row, back.strategy((1, 1), 1)[node, 0, 4:])
    at = back.tree((1, 1)).node([0, 2])  # the opener's third bid: raising to bid 4
    assert np.allclose(back.likelihood((1, 1), 0, history=[0, 2], bid=4),
                       back.strategy((1, 1), 0)[at, :, 5])  # fmt: skip
    old = RoundPolicies("snyd-joker", faces=3, max_dice=1,
                        strategies={(1, 1): [np.ones((7, 3, 7)), np.ones((7, 3, 7))]})  # fmt: skip
    meta = {"format": "liarsdice-rounds", "version": 1, "rules": "snyd-joker", "faces": 3,
            "max_dice": 1, "pairs": {"1,1": {}}}  # fmt: skip
    arrays = {f"s-1-1-{p}": np.full((7, 3, 7), 255, np.uint8) for p in (0, 1)}
    write_npz(tmp_path / "v1.npz", meta, arrays)
    v1 = RoundPolicies.load(tmp_path / "v1.npz")
    assert v1.recall((1, 1)) == 1
    assert np.allclose(v1.strategy((1, 1), 0), old.strategy((1, 1), 0))
    wrong = RoundPolicies("snyd-joker", faces=3, max_dice=1,
                          strategies={(1, 1): list(arrays.values())},
                          info={(1, 1): {"recall": 2}})  # fmt: skip
    with pytest.raises(RoundFormatError, match=r"shape \(7, 3, 7\) for 22 nodes"):
        wrong.strategy((1, 1), 0)


@pytest.mark.parametrize(("budget", "recall", "most"), [(10**6, 8, 0.01), (1, 1, 0.08)])
def test_self_play_learns_a_strategy_far_less_exploitable_than_uniform(
    tmp_path: Path, budget: int, recall: int, most: float
) -> None:
    pol = train_rounds("snyd-joker", faces=4, max_dice=1, iterations=300, folder=tmp_path,
                       recall_budget=budget)  # fmt: skip
    assert pol.recall((1, 1)) == recall  # 8 bids: the whole history fits the default budget
    game = make_game("snyd-joker", (1, 1), 4)
    bot = LearnedBot(random.Random(0), net=str(_save(pol, tmp_path)))
    learned = policy_exploitability(game, lambda v: bot.probabilities(game, v))
    uniform = policy_exploitability(game, lambda v: np.ones(len(v.legal_actions)))
    # Perfect recall is the exact game (0.0002 here); last-bid recall costs about 0.04
    # (docs/BOTS.md); uniform play gives away 0.5.
    assert learned < most < 0.3 < uniform
    assert abs(pol.info[1, 1]["value"]) < 0.02  # the round is about even for the opener


@pytest.mark.parametrize("recall", [1, 2, 6])
def test_the_passes_are_exact_against_a_walk_of_every_history(recall: int) -> None:
    t = PairTables.of("openspiel", (1, 1), faces=3)
    k = t.num_bids  # 6 bids: 64 histories
    g = RecallCFR(t.truth, range_a=t.probs[0], range_b=t.probs[1], recall=recall)
    rng = np.random.default_rng(recall)
    sigma = [g.normalised(rng.random(r.shape)) for r in g.regret]
    reach = g.reach(sigma)
    values, cv = g.values(sigma, reach, actor=1)
    tree, (ha, hb) = g.tree, g.hands

    def value(history: list[int], p: int) -> np.ndarray:
        """The opener's value (ha, hb) at ``history``, actor ``p`` to move, by recursion."""
        node, last = tree.node(history), (history[-1] if history else -1)
        s = sigma[p][node]
        weigh = (lambda c: s[:, c][:, None]) if p == 0 else (lambda c: s[:, c][None, :])
        out = np.zeros((ha, hb))
        if last >= 0:
            out += weigh(last + 1) * (g.calls[0][last] if p == 0 else g.calls[1][last].T)
        for n in range(last + 1, k):
            out += weigh(n + 1) * value([*history, n], 1 - p)
        return out

    summed: dict[tuple[int, int], list[np.ndarray]] = {}  # each player's reach, all paths
    walk: list[tuple[list[int], list[np.ndarray]]] = [([], [np.ones(ha), np.ones(hb)])]
    while walk:
        h, r = walk.pop()
        p, node = len(h) % 2, tree.node(h)
        got = summed.setdefault((p, node), [np.zeros(ha), np.zeros(hb)])
        got[0] += r[0]
        got[1] += r[1]
        for n in range(h[-1] + 1 if h else 0, k):
            nxt = list(r)
            nxt[p] = r[p] * sigma[p][node, :, n + 1]
            walk.append(([*h, n], nxt))
    for (p, node), (r0, r1) in summed.items():
        assert np.allclose(reach[0][p, node], r0) and np.allclose(reach[1][p, node], r1)
        want = value(list(tree.nodes[node]), p)  # any history of the node: the same future
        assert np.allclose(values[p][:, node, :].T if p == 0 else values[p][:, node, :], want)
        if p == 1:  # its counterfactual values of the raises, by the opener's summed reach
            opp = reach[0][1, node] * g.range[0]
            last = tree.nodes[node][-1]
            for n in range(last + 1, k):
                child = value([*tree.nodes[node], n], 0)
                assert np.allclose(cv[1][node, :, n + 1], child.T @ opp)


@pytest.mark.parametrize("recall", [2, 3])
def test_longer_recall_is_less_exploitable_and_reads_the_history(recall: int) -> None:
    game = make_game("openspiel", (1, 2), 3)
    t = PairTables.of("openspiel", (1, 2), faces=3)
    exploit = {}
    for r in (1, recall):
        g = RecallCFR(t.truth, range_a=t.probs[0], range_b=t.probs[1], recall=r)
        g.solve(300)
        strategies = {(1, 2): [g.total[0], g.total[1]]}
        pol = RoundPolicies("openspiel", faces=3, max_dice=2, strategies=strategies,
                            info={(1, 2): {"recall": r}})  # fmt: skip
        exploit[r] = policy_exploitability(game, lambda v, p=pol: _play(p, game, v))
    assert exploit[recall] < exploit[1] - 0.01, exploit
    tree = pol.tree((1, 2))
    assert tree.recall == recall and tree.node([0, 2, 5]) == tree.nodes.index((0, 2, 5)[-recall:])
    # Two histories with the same last bid reach different nodes, so different strategies.
    assert tree.node([0, 5]) != tree.node([1, 5])


def _play(pol: RoundPolicies, game: Game, view: Any) -> np.ndarray:
    t = pol.tables((1, 2))
    history = [t.index[b] for _, b in view.bids]
    actor = len(history) % 2
    probs = pol.probabilities((1, 2), actor, hand=view.my_dice, history=history)
    last = history[-1] if history else -1
    moves = ([LIAR] if history else []) + [game.bid_action(b) for b in t.moves[last + 1 :]]
    by_move = dict(zip(moves, probs.tolist(), strict=True))
    return np.array([by_move[a] for a in view.legal_actions])


def test_full_recall_is_the_exact_game() -> None:
    t = PairTables.of("snyd-joker", (1, 1), faces=3)
    g = RecallCFR(t.truth, range_a=t.probs[0], range_b=t.probs[1], recall=99)
    assert g.tree.recall == t.num_bids and len(g.tree) == 2**t.num_bids
    g.solve(300)
    assert g.value() == pytest.approx(1 / 3, abs=1e-3)  # the exact solver's value


def test_an_interrupted_pair_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    whole, _ = solve_pair("openspiel", (1, 2), faces=3, iterations=120)
    steps: list[int] = []
    solve_pair("openspiel", (1, 2), faces=3, iterations=50, folder=tmp_path, checkpoint=25,
               progress=steps.append)  # fmt: skip
    assert steps == [25, 25] and (tmp_path / "partial-1-2.npz").exists()
    resumed, info = solve_pair("openspiel", (1, 2), faces=3, iterations=120, folder=tmp_path)
    assert info["iterations"] == 120
    for a, b in zip(whole, resumed, strict=True):
        assert np.allclose(a, b)


def test_a_second_run_reuses_the_pairs_and_other_settings_are_refused(tmp_path: Path) -> None:
    first = train_rounds("openspiel", faces=3, max_dice=2, iterations=40, folder=tmp_path)
    assert first.pairs == [(1, 1), (1, 2), (2, 1), (2, 2)]
    stamp = (tmp_path / "pair-2-2.npz").stat().st_mtime_ns
    again = train_rounds("openspiel", faces=3, max_dice=2, iterations=40, folder=tmp_path)
    assert (tmp_path / "pair-2-2.npz").stat().st_mtime_ns == stamp
    assert np.array_equal(again.strategy((2, 2), 1), first.strategy((2, 2), 1))
    with pytest.raises(ValueError, match=r"other settings \(iterations\)"):
        train_rounds("openspiel", faces=3, max_dice=2, iterations=41, folder=tmp_path)


def _save(pol: RoundPolicies, folder: Path) -> Path:
    path = folder / f"rounds-{pol.rules}-{pol.faces}.npz"
    pol.save(path)
    return path


def test_the_learned_bot_plays_its_strategy_from_its_own_view(tmp_path: Path) -> None:
    pol = train_rounds("openspiel", faces=3, max_dice=2, iterations=60, folder=tmp_path)
    net = str(_save(pol, tmp_path))
    pol = RoundPolicies.load(net)  # as the bot reads it: in steps of 1/255
    bot = LearnedBot(random.Random(0), net=net)
    game = make_game("openspiel", (2, 1), 3)
    state = game.new_initial_state()
    for face in (1, 3, 2):  # the opener holds 1 3, the other a 2
        state = state.apply_action(face)
    opener = state.view(0)
    probs = bot.probabilities(game, opener)
    assert len(probs) == len(opener.legal_actions) and abs(probs.sum() - 1) < 1e-9
    assert np.allclose(probs, pol.probabilities((2, 1), 0, hand=(3, 1), history=[]), atol=1e-6)
    state = state.apply_action(game.bid_action(game.space.bids[4]))
    reply = state.view(1)
    probs = bot.probabilities(game, reply)  # the call first, then the raises after bid 4
    assert np.allclose(probs, pol.probabilities((2, 1), 1, hand=(2,), history=[4]), atol=1e-6)
    assert bot.choose(game, reply) in reply.legal_actions


def test_the_learned_bot_says_what_it_cannot_play(tmp_path: Path) -> None:
    bot = LearnedBot(random.Random(0))
    three = Game(preset("snyd-joker").replace(players=3, scoring=Scoring.ELIMINATION))
    assert "two-player games only" in str(bot.cannot_play(three))
    assert "no learned strategies for classic" in str(bot.cannot_play(Game(preset("classic"))))
    big = Game(preset("snyd-joker", players=2, dice=6))
    assert "cover up to 5 dice each" in str(bot.cannot_play(big))
    with pytest.raises(ValueError, match="cannot play this game: no learned strategies"):
        classic = Game(preset("classic", players=2))
        bot.probabilities(classic, classic.new_initial_state().resolve_chance(
            random.Random(0)).view(0))  # fmt: skip


def test_the_shipped_strategies_cover_every_pair_and_play_in_the_arena() -> None:
    for (rules, faces), _ in PACKAGED_ROUNDS.items():
        pol = packaged_round_policies(rules, faces)
        assert pol is not None and pol.rules == rules and pol.faces == faces
        assert pol.pairs == [(a, b) for a in range(1, pol.max_dice + 1)
                             for b in range(1, pol.max_dice + 1)]  # fmt: skip
    assert {("snyd-joker", 6), ("openspiel", 6)} <= set(PACKAGED_ROUNDS)
    family = FAMILIES[0]
    assert type(family.make_bot("learned", random.Random(0))) is LearnedBot
    rules = preset("snyd-joker", players=2, dice=3)
    result = run_arena(ArenaSpec(rules, ("learned", "prob"), games=200, seed=3))
    assert result.errors == [] and sum(r.wins for r in result.standings) == 200
    learned = next(r for r in result.standings if r.bot == "learned")
    assert learned.win_low > 0.5, learned  # it beats the prob bot at three dice each


def test_the_shipped_strategy_is_all_but_unexploitable_at_one_die_each() -> None:
    game = make_game("snyd-joker", (1, 1))
    bot = LearnedBot(random.Random(0))
    pol = bot.policies_for(game)
    assert pol is not None and pol.recall((1, 1)) == 12  # the whole history: the exact game
    assert policy_exploitability(game, lambda v: bot.probabilities(game, v)) < 0.01


@pytest.mark.parametrize("rules", ["snyd-joker", "openspiel"])
def test_the_whole_tree_exploitability_is_the_bots_view_by_view(rules: str, tmp_path: Path) -> None:
    # A small budget leaves the players part of the history (recall 2 at one die each, the
    # last bid elsewhere), and few iterations leave something to exploit.
    trained = train_rounds(
        rules, faces=3, max_dice=2, iterations=40, folder=tmp_path, recall_budget=600
    )
    trained.save(tmp_path / "p.npz")
    pol = RoundPolicies.load(tmp_path / "p.npz")  # what the bot plays: the stored steps
    bot = LearnedBot(random.Random(0), net=str(tmp_path / "p.npz"))
    assert [pol.recall(d) for d in pol.pairs] == [2, 1, 1, 1]
    found = []
    for dice in pol.pairs:
        game = make_game(rules, dice, 3)
        by_view = policy_exploitability(game, lambda v, g=game: bot.probabilities(g, v))
        assert learned_exploitability(pol, dice) == pytest.approx(by_view, abs=1e-6)
        found.append(by_view)
    assert max(found) > 0.01  # not all at the equilibrium: the comparison has teeth
    with pytest.raises(ValueError, match="no learned strategy for dice 3,1"):
        learned_exploitability(pol, (3, 1))


def test_learn_rounds_writes_the_file_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "learned"
    args = ["learn", "rounds", "--rules", "openspiel", "--faces", "3", "--max-dice", "1",
            "--iterations", "30", "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert "rounds-openspiel-3.npz (1 of 1 pair, all pairs)" in res.output
    pol = RoundPolicies.load(out / "rounds-openspiel-3.npz")
    assert pol.info[1, 1]["iterations"] == 30
    res = CliRunner().invoke(cli, [*args[:-2], "--iterations", "31", "--out", str(out)])
    assert res.exit_code == 2 and "other settings (iterations)" in res.output
