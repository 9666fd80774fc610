"""``expert`` and ``nash`` play the solved equilibrium in every two-player single-round game
within the solver's reach: beyond 14 bids, cached on disk, with a progress bar on request."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from liarsdice.bots import ExpertBot, ExpertV1Bot
from liarsdice.bots.bidding.nash import (
    PROGRESS_ENV,
    NashBot,
    SolveBar,
    cached_policy,
    show_progress,
)
from liarsdice.core.bidding import CHANCE, Game, preset
from liarsdice.families.bidding import BIDDING
from liarsdice.solve import cache
from liarsdice.solve.cache import CACHE_ENV, cache_path
from liarsdice.solve.cfr import Progress
from liarsdice.solve.memo import Memo
from liarsdice.solve.policy import policy_exploitability
from liarsdice.solve.tree import in_reach, make_game


@pytest.fixture(autouse=True)
def tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(PROGRESS_ENV, "0")
    monkeypatch.setattr(cache, "MEMORY", Memo())
    return tmp_path / "policies"


def _play(game: Game, bots: list[NashBot | ExpertBot], seed: int) -> list[int]:
    rng = random.Random(seed)
    s = game.new_initial_state()
    actions = []
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s = s.apply_action(s.sample_chance(rng))
            continue
        action = bots[s.current_player].choose(game, s.view(s.current_player))
        assert action in s.legal_actions()
        actions.append(action)
        s = s.apply_action(action)
    return actions


def test_expert_plays_the_equilibrium_at_a_small_size() -> None:
    """The issue's target (0.005) on a small two-against-one game, measured on the expert's
    own play: exact best responses to the probabilities it plays from each view."""
    game = make_game("openspiel", (1, 2), 4)
    expert = ExpertBot(random.Random(0))
    nash = expert.equilibrium(game)
    assert isinstance(nash, NashBot)
    policy = nash.policy_for(game)
    played = policy_exploitability(game, policy.view_probabilities)
    assert played <= 0.005
    assert played == pytest.approx(policy.exploitability(), abs=1e-9)
    assert NashBot(random.Random(1)).policy_for(game) is policy  # one policy per game


def test_expert_plays_the_equilibrium_beyond_fourteen_bids(tmp_cache: Path) -> None:
    game = make_game("openspiel", (2, 1), 5)  # 15 bids, 2^15 public nodes
    assert len(game.space) > 14 and in_reach(game)
    expert = ExpertBot(random.Random(3), think=None, worlds=4)
    nash = expert.equilibrium(game)
    assert isinstance(nash, NashBot)
    policy = nash.policy_for(game)
    assert policy.exploitability() <= 1e-3
    assert cache_path(game, 1e-3).exists()  # cached on disk for the next process
    # the expert's moves are the equilibrium's draws: the same as a nash bot's on the same rng
    twin = NashBot(random.Random(3))
    for seed in range(20):
        assert _play(game, [expert, expert], seed) == _play(game, [twin, twin], seed)


def test_out_of_reach_the_expert_searches() -> None:
    assert ExpertBot(random.Random(0)).equilibrium(make_game("openspiel", (2, 2), 6)) is None
    assert ExpertBot(random.Random(0)).equilibrium(Game(preset("classic"))) is None
    unsupported = Game(preset("openspiel", exact="spot-on"))
    assert ExpertBot(random.Random(0)).equilibrium(unsupported) is None


def test_nash_bot_reads_the_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("snyd-normal", (1, 2), 5)  # 2^15 nodes
    bot = BIDDING.make_bot("nash", random.Random(0))
    assert isinstance(bot, NashBot)
    policy = bot.policy_for(game)
    monkeypatch.setattr(cache, "MEMORY", Memo())  # a new process: no solve, the file is read

    def no_solve(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("solved again")

    monkeypatch.setattr(cache, "solve", no_solve)
    again = NashBot(random.Random(0)).policy_for(game)
    assert again is not policy
    assert again.exploitability() == pytest.approx(policy.exploitability(), abs=1e-9)


def test_progress_bar_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROGRESS_ENV)
    assert show_progress(True) and not show_progress(False)
    monkeypatch.setenv(PROGRESS_ENV, "1")
    assert show_progress()
    monkeypatch.setenv(PROGRESS_ENV, "0")
    assert not show_progress()
    bar = SolveBar(make_game("openspiel", (1, 2), 4), 1e-3)
    with bar:
        for it, expl in ((1, 0.5), (10, 0.05), (100, 0.002)):
            bar(Progress(it, 0.1 * it, expl, 0.0))
        assert bar._bar is not None
        task = bar._bar.tasks[0]
        assert 0.6 < task.completed < 1.0 and "exploitability 2.00e-03" in task.fields["info"]
    assert bar._bar is None


def test_cached_policy_shows_the_bar_only_when_solving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Progress] = []
    real_call = SolveBar.__call__

    def spy(self: SolveBar, point: Progress) -> None:
        seen.append(point)
        real_call(self, point)

    monkeypatch.setattr(SolveBar, "__call__", spy)
    game = make_game("openspiel", (2, 1), 5)
    cached_policy(game, 1e-3, progress=True)
    assert seen and seen[-1].exploitability <= 1e-3
    seen.clear()
    monkeypatch.setattr(cache, "MEMORY", Memo())
    cached_policy(game, 1e-3, progress=True)  # from disk: no bar
    assert seen == []


@pytest.mark.slow
def test_beyond_first_use_the_expert_plays_a_cached_equilibrium(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game too large to solve on first use (two dice each with 6 faces: 11 GiB) is played
    from the equilibrium once ``liarsdice solve --cache`` has put it on disk."""
    from liarsdice.bots.bidding import expert as expert_module

    game = make_game("snyd-normal", (1, 2), 5)
    monkeypatch.setattr(expert_module, "EQUILIBRIUM_MAX_BYTES", 1024)
    monkeypatch.setattr(expert_module, "MEMORY", expert_module.ExpertMemory())
    expert = ExpertBot(random.Random(0))
    assert expert.equilibrium(game) is None  # not on disk: re-solve or read the table
    cache.cached_policy(game, target=1e-3, disk=True)
    monkeypatch.setattr(cache, "MEMORY", Memo())  # a new process

    def no_solve(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("solved on first use")

    monkeypatch.setattr(cache, "solve", no_solve)
    nash = expert.equilibrium(game)
    assert isinstance(nash, NashBot)
    assert ExpertV1Bot(random.Random(0)).equilibrium(game) is None  # frozen: it searches
    twin = NashBot(random.Random(5))
    expert = ExpertBot(random.Random(5))
    for seed in range(10):
        assert _play(game, [expert, expert], seed) == _play(game, [twin, twin], seed)
    # the rules of a game far beyond any cache are given up on once
    huge = Game(preset("snyd-normal", players=2, dice=5))
    assert expert.equilibrium(huge) is None
    assert (huge.rules, huge.start_dice) in expert_module.MEMORY.unsolvable
