"""Tests for the arena (:mod:`liarsdice.arena`) and ``liarsdice arena`` (through CliRunner)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from liarsdice.arena import (
    ArenaSpec,
    GameResult,
    accepts_think,
    fit_bradley_terry,
    game_seats,
    pairwise_scores,
    play_game,
    rank_seats,
    run_arena,
    seat_labels,
    wilson_interval,
)
from liarsdice.bots import Bot, RandomBot
from liarsdice.cli.arena import arena
from liarsdice.core.bidding import PRESETS, Game, PlayerView, preset
from liarsdice.core.poker import poker_preset
from liarsdice.families import FAMILIES, Family
from liarsdice.families.bidding import BIDDING, BiddingFamily


def add_bots(monkeypatch: pytest.MonkeyPatch, *classes: type[Bot]) -> None:
    """The bidding family with these bots too (in this process: one job)."""
    monkeypatch.setattr(BiddingFamily, "bots", BIDDING.bots.plus(*classes))


def cli(args: list[str]) -> Result:
    return CliRunner().invoke(arena, [*args, "--quiet"])


# ------------------------------------------------------------------------ seats and seeds
def test_labels_cycle_and_number_repeats() -> None:
    assert seat_labels(["prob", "random"], 2) == ["prob", "random"]
    assert seat_labels(["prob"], 3) == ["prob#1", "prob#2", "prob#3"]
    assert seat_labels(["prob", "prob", "random"], 3) == ["prob#1", "prob#2", "random"]
    assert seat_labels(["prob", "random", "random"], 4) == [
        "prob#1",
        "random#1",
        "random#2",
        "prob#2",
    ]


@pytest.mark.parametrize(("labels", "players"), [(4, 4), (3, 3), (5, 3), (2, 2)])
def test_every_label_sits_in_every_seat_equally_often(labels: int, players: int) -> None:
    names = [f"b{i}" for i in range(labels)]
    blocks = 7
    counts: Counter[tuple[str, int]] = Counter()
    orders = set()
    for g in range(blocks * labels):
        seats = game_seats(names, players, seed=11, index=g)
        assert len(set(seats)) == players  # nobody sits twice
        counts.update((name, s) for s, name in enumerate(seats))
        orders.add(seats)
    expected = blocks * players  # games per label in total ...
    for name in names:
        per_seat = [counts[name, s] for s in range(players)]
        assert len(set(per_seat)) == 1 and sum(per_seat) == expected
    if labels >= 3:
        assert len(orders) > labels  # the cyclic order of the table varies between blocks


def test_standings_report_balanced_seats() -> None:
    spec = ArenaSpec(preset("classic", players=4), ("prob", "random"), games=8, seed=2)
    result = run_arena(spec, bootstrap=0)
    assert {s.label for s in result.standings} == {"prob#1", "prob#2", "random#1", "random#2"}
    for s in result.standings:
        assert s.seat_games == (2, 2, 2, 2)


def test_same_seed_same_games_and_other_seed_other_games() -> None:
    spec = ArenaSpec(preset("classic", players=3), ("prob", "random"), games=12, seed=5)
    a = [g.outcome() for g in run_arena(spec, bootstrap=10).games]
    b = [g.outcome() for g in run_arena(spec, bootstrap=10).games]
    assert a == b
    other = ArenaSpec(preset("classic", players=3), ("prob", "random"), games=12, seed=6)
    assert [g.outcome() for g in run_arena(other, bootstrap=0).games] != a
    # a game alone replays the same as inside the arena
    assert play_game(spec, 7).outcome() == a[7]


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    spec = ArenaSpec(preset("perudo", players=3), ("prob", "random", "prob"), games=24, seed=9)
    one = run_arena(spec, jobs=1, bootstrap=20)
    two = run_arena(spec, jobs=2, bootstrap=20)
    assert [g.outcome() for g in one.games] == [g.outcome() for g in two.games]
    assert [g.index for g in two.games] == list(range(24))
    strip = [(s.label, s.wins, s.placement, s.elo, s.elo_error) for s in one.standings]
    assert strip == [(s.label, s.wins, s.placement, s.elo, s.elo_error) for s in two.standings]


# ------------------------------------------------------------------------------ statistics
def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson_interval(81, 263)  # Wilson (1927)-style textbook example
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(3, 20)
    assert 1 - hi == pytest.approx(wilson_interval(17, 20)[0])  # symmetric


def test_wilson_interval_covers_about_95_percent() -> None:
    rng = np.random.default_rng(3)
    p, n = 0.3, 80
    wins = rng.binomial(n, p, size=4000)
    covered = [lo <= p <= hi for lo, hi in (wilson_interval(int(w), n) for w in wins)]
    assert 0.93 <= sum(covered) / len(covered) <= 0.97


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = np.array([1.0, 0.3, 0.0, -1.3])  # log-strengths, mean zero
    rng = np.random.default_rng(7)
    k = len(truth)
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + math.exp(truth[j] - truth[i]))
            w = rng.binomial(4000, p)
            wins[i, j] += w
            wins[j, i] += 4000 - w
    fit = fit_bradley_terry(wins, prior=0.0)
    assert fit.mean() == pytest.approx(0.0, abs=1e-9)
    assert np.abs(fit - truth).max() < 0.08


def test_bradley_terry_stays_finite_when_a_bot_never_wins() -> None:
    wins = np.array([[0.0, 30.0], [0.0, 0.0]])
    theta = fit_bradley_terry(wins)
    assert np.all(np.isfinite(theta)) and theta[0] > theta[1] + 2


def test_arena_elo_follows_known_win_probabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    """Synthetic placements from known strengths: the fitted Elo gaps match them."""
    from liarsdice import arena as arena_mod

    truth = {"a": 400.0, "b": 0.0}  # a 400-point gap: a wins 10 of 11
    rng = random.Random(1)

    def fake_game(spec: ArenaSpec, index: int) -> arena_mod.GameResult:
        seats = game_seats(spec.labels, 2, spec.seed, index)
        p = 1 / (1 + 10 ** ((truth[seats[1]] - truth[seats[0]]) / 400))
        first_wins = rng.random() < p
        ranks = (1.0, 2.0) if first_wins else (2.0, 1.0)
        winner = seats[0] if first_wins else seats[1]
        return arena_mod.GameResult(index, seats, ranks, winner, 1, {})

    monkeypatch.setattr(arena_mod, "play_game", fake_game)
    monkeypatch.setattr(arena_mod, "check_spec", lambda spec: None)
    spec = ArenaSpec(preset("classic", players=2), ("a", "b"), games=4000, seed=4)
    result = run_arena(spec, bootstrap=50)
    elo = {s.label: s for s in result.standings}
    assert elo["a"].elo + elo["b"].elo == pytest.approx(3000.0)
    gap = elo["a"].elo - elo["b"].elo
    # each rating's ± is half the gap's (the mean is pinned): 95% of the gap is ± 2 * error
    assert 5 < elo["a"].elo_error < 15
    assert abs(gap - 400) < 2 * 2 * elo["a"].elo_error
    assert elo["a"].win_low < 10 / 11 < elo["a"].win_high


def test_pairwise_scores_and_tied_ranks() -> None:
    assert rank_seats([1, 0, 2, 3], winner=1, out=[3]) == [2.5, 1.0, 2.5, 4.0]
    w = pairwise_scores([2.5, 1.0, 2.5, 4.0], [0, 1, 2, 3], 4)
    assert w[0, 2] == w[2, 0] == 0.5 and w[1].sum() == 3 and w[3].sum() == 0
    assert w.sum() == 6  # one point per pair


# -------------------------------------------------------------------------- real matches
def test_prob_beats_random_head_to_head() -> None:
    spec = ArenaSpec(preset("classic", players=2), ("prob", "random"), games=40, seed=1)
    result = run_arena(spec, bootstrap=50)
    top = result.standings[0]
    assert top.label == "prob" and top.wins >= 34 and top.placement < 1.2
    assert top.elo > result.standings[1].elo
    assert result.errors == []
    assert top.decisions > 0 and top.ms_max >= top.ms_p50 > 0


def test_poker_dice_arena_runs() -> None:
    spec = ArenaSpec(poker_preset(players=3), ("prob", "random"), games=3, seed=2)
    result = run_arena(spec, bootstrap=10)
    assert result.errors == [] and len(result.games) == 3
    assert {s.label for s in result.standings} == {"prob#1", "prob#2", "random"}
    for g in result.games:
        assert sorted(g.ranks) == [1.0, 2.0, 3.0] and g.winner == g.seats[g.ranks.index(1.0)]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_runs(name: str) -> None:
    spec = ArenaSpec(preset(name), ("prob", "random"), games=2, seed=3)
    result = run_arena(spec, bootstrap=0)
    assert result.errors == []
    assert all(g.winner is not None for g in result.games)


# ------------------------------------------------------------------------------ bot errors
class CrashBot(Bot):
    name = "crash"

    def choose(self, game: Game, view: PlayerView) -> int:
        raise RuntimeError("boom")


class CheatBot(Bot):
    name = "cheat"

    def choose(self, game: Game, view: PlayerView) -> int:
        return -12345


def test_bot_errors_are_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    add_bots(monkeypatch, CrashBot, CheatBot)
    spec = ArenaSpec(preset("classic", players=3), ("crash", "cheat", "random"), games=6, seed=8)
    result = run_arena(spec, bootstrap=0)
    assert len(result.errors) == 6 and all(g.error is not None for g in result.games)
    by_bot = {s.label: s for s in result.standings}
    assert by_bot["crash"].errors + by_bot["cheat"].errors == 6
    assert by_bot["random"].errors == 0 and by_bot["random"].games == 0
    first = result.errors[0]
    assert first.game == 0 and first.seed == 8 and first.bot in ("crash", "cheat")
    messages = {e.bot: e.error for e in result.errors}
    assert messages["crash"] == "RuntimeError: boom"
    assert messages["cheat"].startswith("illegal action -12345")

    out = CliRunner().invoke(
        arena,
        ["--players", "2", "--bots", "crash,random", "--games", "2", "--seed", "8", "--quiet"],
    )
    assert out.exit_code == 0, out.output
    assert "2 games abandoned" in out.output
    assert "game 0 (seed 8): crash in seat" in out.output and "RuntimeError: boom" in out.output


# ---------------------------------------------------------------------------------- think
class Thinker(RandomBot):
    name = "thinker"
    think: float | None = None  # the convention: a ``think`` field


class KeywordThinker(RandomBot):
    """A constructor keyword alone is not the convention: no budget."""

    name = "kw-thinker"

    def __init__(self, rng: random.Random, *, think: float | None = None) -> None:
        super().__init__(rng)
        self.budget = think


def test_think_budget_reaches_bots_that_take_it(monkeypatch: pytest.MonkeyPatch) -> None:
    add_bots(monkeypatch, Thinker, KeywordThinker)
    rng = random.Random(0)
    thinker = BIDDING.make_bot("thinker", rng, think=0.5)
    assert isinstance(thinker, Thinker) and thinker.think == 0.5
    assert Thinker.think is None and BIDDING.make_bot("thinker", rng).think is None
    assert accepts_think("thinker", BIDDING) and not accepts_think("kw-thinker", BIDDING)
    assert BIDDING.make_bot("kw-thinker", rng, think=0.5).budget is None
    plain = BIDDING.make_bot("random", rng, think=0.5)
    assert not hasattr(plain, "think") and not accepts_think("random", BIDDING)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        BIDDING.make_bot("genius", rng)
    spec = ArenaSpec(preset("classic", players=2), ("thinker", "kw-thinker"), games=2, think=0.1)
    assert run_arena(spec, bootstrap=0).to_dict()["config"]["think_used_by"] == ["thinker"]


def test_labels_give_their_bots_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """``name:key=value``: the bot gets the option, the label keeps it, the budget yields."""
    add_bots(monkeypatch, ExtremeBot)
    rng = random.Random(0)
    bluffer = BIDDING.make_bot("bluffer:rate=1:floor=0#2", rng)
    assert (bluffer.rate, bluffer.floor) == (1.0, 0.0) and isinstance(bluffer.rate, float)
    expert = BIDDING.make_bot("expert:cached=false:think=0.2", rng, think=0.5)
    assert (expert.cached, expert.think) == (False, 0.2)  # the label's own budget wins
    assert BIDDING.make_bot("expert:cached=false", rng, think=0.5).think == 0.5
    with pytest.raises(ValueError, match="option cached takes true or false, not 'maybe'"):
        BIDDING.make_bot("expert:cached=maybe", rng)
    with pytest.raises(ValueError, match="bot 'random': unknown bot option 'rate'; options: "):
        BIDDING.make_bot("random:rate=1", rng)
    # An always-bluffing bluffer and the default one, side by side in one arena.
    spec = ArenaSpec(preset("classic", players=2), ("bluffer:rate=1", "bluffer"), games=40, seed=3)
    result = run_arena(spec, bootstrap=0)
    assert result.errors == []
    assert {s.label: s.bot for s in result.standings} == {
        "bluffer:rate=1": "bluffer",
        "bluffer": "bluffer",
    }
    # The option reaches the bots play_game builds (one process, so the registry patch holds).
    assert [g.moves for g in play(("extreme", "prob"))] != [
        g.moves for g in play(("extreme:last=true", "prob"))
    ]


class ExtremeBot(Bot):
    """The first legal action, or with ``last`` the last one (no randomness of its own)."""

    name = "extreme"
    last: bool = False

    def choose(self, game: Game, view: PlayerView) -> int:
        return view.legal_actions[-1 if self.last else 0]


def play(bots_: tuple[str, ...]) -> list[GameResult]:
    spec = ArenaSpec(preset("classic", players=2), bots_, games=6, seed=3)
    return run_arena(spec, bootstrap=0).games


# ------------------------------------------------------------------------------------ CLI
def test_cli_table() -> None:
    result = cli(["--players", "2", "--bots", "prob,random", "--games", "20", "--seed", "1"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Arena: classic rules (bidding family), 2 players, 20 games, seed 1" in out
    for column in ("bot", "games", "wins", "win % (95% CI)", "place", "Elo", "ms mean/p50/max"):
        assert column in out
    assert "prob" in out and "random" in out and " ± " in out


def test_cli_json_and_out_file(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    args = ["--rules", "perudo", "--players", "3", "--bots", "prob,random", "--games", "6"]
    result = cli([*args, "--seed", "4", "--json", "--out", str(path), "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert json.loads(path.read_text()) | {"config": None} == data | {"config": None}
    config = data["config"]
    assert config["rules"] == "perudo" and config["family"] == "bidding"
    assert config["players"] == 3 and config["games"] == 6 and config["seed"] == 4
    assert config["labels"] == ["prob#1", "random", "prob#2"]
    assert config["options"]["palifico"] is True
    assert {s["label"] for s in data["standings"]} == {"prob#1", "prob#2", "random"}
    row = data["standings"][0]
    for key in ("games", "wins", "win_rate", "win_ci95", "avg_placement", "elo", "elo_error"):
        assert key in row
    for key in ("errors", "ms_mean", "ms_p50", "ms_max", "seat_games"):
        assert key in row
    assert sum(s["games"] for s in data["standings"]) == 18
    assert len(data["games"]) == 6 and data["errors"] == []
    assert sum(s["elo"] for s in data["standings"]) / 3 == pytest.approx(1500)
    again = cli([*args, "--seed", "4", "--json", "--bootstrap", "20"])
    strip = [(s["label"], s["wins"], s["elo"]) for s in data["standings"]]
    assert strip == [
        (s["label"], s["wins"], s["elo"]) for s in json.loads(again.stdout)["standings"]
    ]


def test_cli_poker_dice_and_options() -> None:
    result = cli(["--rules", "poker-dice", "--players", "2", "--games", "2", "--json",
                  "--option", "lives=1", "--bootstrap", "0"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["config"]["family"] == "poker" and data["config"]["options"]["lives"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "prob,genius"], "unknown bot 'genius'"),
        (["--bots", "prob#2"], "unknown bot 'prob#2'"),
        (
            ["--bots", "prob,bluffer:ratee=0.5"],
            "bot 'bluffer': unknown bot option 'ratee'; options:",
        ),
        (["--bots", "prob,bluffer:rate=high"], "bot 'bluffer': option rate takes a number, not"),
        (["--bots", "prob,bluffer:rate"], "bot option 'rate' of 'bluffer:rate' is not key=value"),
        (["--bots", " , "], "entry 1 of ' , ' is empty"),
        (["--rules", "chess"], "unknown rules 'chess'"),
        (["--option", "wild=13"], "wild"),
        (["--option", "nonsense=1"], "nonsense"),
        (["--rules", "openspiel", "--players", "3"], "single-round scoring is for two players"),
        (["--rules", "poker-dice", "--faces", "8"], "poker dice have six faces"),
        (["--games", "0"], "0"),
        (
            ["--bots", "nash,prob", "--games", "4"],
            "bot 'nash' cannot play classic with 4 players: it plays only what the exact solver",
        ),
        (["--rules", "perudo", "--players", "2", "--bots", "prob,nash"], "'perudo' lacks"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    result = cli(args)
    assert result.exit_code == 2, result.output
    assert message[0].upper() + message[1:] in result.output or message in result.output
    said = result.output.split("\nError: ", 1)[1]
    assert said[0].isupper(), said  # a sentence: 'Error: Unknown bot ...'
    assert "Traceback" not in result.output


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_registered_bot_plays_without_errors(family: Family) -> None:
    """Whatever the family holds now (new bots appear by themselves), in both families."""
    rules = family.presets["poker-dice" if family.name == "poker" else "classic"]
    rules = rules.replace(players=2)
    # solver bots only play two-player single-round games: checked on openspiel below
    kinds = tuple(k for k in family.bots if k not in family.bots.lazy)
    assert {"prob", "random"} <= set(kinds)
    spec = ArenaSpec(rules, kinds, games=len(kinds), seed=1, players=2, think=0.005)
    result = run_arena(spec, bootstrap=0)
    assert result.errors == []
    assert all(s.games == 2 for s in result.standings)
    if family.name == "bidding":
        assert "nash" in family.bots
        spec = ArenaSpec(preset("openspiel"), ("nash", "prob"), games=20, seed=1)
        assert run_arena(spec, bootstrap=0).errors == []


def test_a_bot_that_cannot_play_the_rules_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the bot where it can play: no refusal
    assert run_arena(ArenaSpec(preset("openspiel"), ("nash", "prob"), games=2)).errors == []
    played: list[int] = []
    monkeypatch.setattr("liarsdice.arena.play_game", lambda spec, i: played.append(i))
    with pytest.raises(ValueError, match="bot 'nash' cannot play classic with 4 players"):
        run_arena(ArenaSpec(preset("classic"), ("nash", "prob"), games=4))
    assert played == []


def test_standings_rank_by_wins_then_elo_and_bounds_for_a_clean_sweep() -> None:
    from liarsdice.arena import summarize
    from liarsdice.cli.arena import elo_text

    # prob wins 3 games and is last in 3; bayes wins 2 and beats random 5 of 6: bayes has the
    # better Elo (it beats random more), prob the most wins, so prob ranks first.
    spec = ArenaSpec(preset("classic", players=3), ("prob", "bayes", "random"), games=6)
    seats = ("prob", "bayes", "random")
    ranks = [(1.0, 2.0, 3.0)] * 3 + [(3.0, 1.0, 2.0)] * 2 + [(3.0, 2.0, 1.0)]
    games = [GameResult(i, seats, r, seats[r.index(1.0)], 10, {}) for i, r in enumerate(ranks)]
    result = summarize(spec, games, bootstrap=20)
    by_label = {s.label: s for s in result.standings}
    assert by_label["bayes"].elo > by_label["prob"].elo
    assert [s.label for s in result.standings] == ["prob", "bayes", "random"]
    # a clean sweep: a bound, not "± 0"
    result = summarize(spec, [GameResult(i, seats, (1.0, 2.0, 3.0), "prob", 9, {})
                              for i in range(10)], bootstrap=20)  # fmt: skip
    texts = [elo_text(s, 3) for s in result.standings]
    assert texts[0].startswith("≥ ") and texts[2].startswith("≤ ") and "± 0" not in texts[0]


def test_cli_table_words(monkeypatch: pytest.MonkeyPatch) -> None:
    class Crash(RandomBot):
        name = "crash"

        def choose(self, game: Game, view: PlayerView) -> int:
            if len(view.bids) >= 1:
                raise RuntimeError("boom")
            return super().choose(game, view)

    add_bots(monkeypatch, Crash)
    result = cli(["--rules", "openspiel", "--bots", "crash,prob", "--games", "4", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "after 1 move:" in result.stdout and "1 moves" not in result.stdout
    assert "1 games" not in result.stdout and "game(s)" not in result.stdout
    result = cli(
        ["--rules", "openspiel", "--bots", "expert,random:plausible=false", "--games", "6"]
    )
    assert "(won all)" in result.stdout and "± 0 " not in result.stdout
