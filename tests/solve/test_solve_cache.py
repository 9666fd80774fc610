"""The disk cache of solved policies: where it lives, what its key covers, atomic writes, and
files that fail a check (truncated, tampered, for another key) solved again, never trusted."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from liarsdice.core.bidding import Game, preset
from liarsdice.solve import cache
from liarsdice.solve.cache import (
    CACHE_ENV,
    cache_dir,
    cache_key,
    cache_path,
    cached_policy,
    read_policy,
    write_policy,
)
from liarsdice.solve.memo import Memo
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import PublicTree, SolverError, make_game

GAME = ("snyd-joker", (1, 2), 3)
TARGET = 1e-3


@pytest.fixture(autouse=True)
def tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(cache, "MEMORY", Memo())
    return tmp_path / "policies"


def _game() -> Game:
    return make_game(*GAME)


def _solves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the solves cached_policy runs."""
    calls: list[int] = []
    real = cache.solve

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(cache, "solve", counting)
    return calls


def test_the_process_memory_forgets_on_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    solves = _solves(monkeypatch)
    policy = cached_policy(_game(), target=TARGET, disk=False)
    assert cached_policy(_game(), target=TARGET, disk=False) is policy and len(solves) == 1
    cache.MEMORY.clear()  # as a new process: solved again (in memory only here)
    assert cached_policy(_game(), target=TARGET, disk=False) is not policy and len(solves) == 2


def test_cache_dir_follows_the_environment(
    tmp_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache_dir() == tmp_cache
    monkeypatch.delenv(CACHE_ENV)
    assert cache_dir().name == "policies" and "liarsdice" in str(cache_dir())


def test_key_covers_everything_that_determines_the_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _game()
    base = cache_path(game, TARGET)
    assert base.name.startswith("snyd-joker-1x2-3f-") and base.suffix == ".npz"
    others = [
        cache_path(make_game("snyd-normal", (1, 2), 3), TARGET),
        cache_path(make_game("snyd-joker", (2, 1), 3), TARGET),
        cache_path(make_game("snyd-joker", (1, 2), 4), TARGET),
        cache_path(Game(game.rules.replace(open_on_wild=False)), TARGET),
        cache_path(game, 1e-4),
        cache_path(game, TARGET, "cfr+"),
    ]
    monkeypatch.setattr(cache, "SOLVER_VERSION", cache.SOLVER_VERSION + 1)
    others.append(cache_path(game, TARGET))
    assert len({base, *others}) == len(others) + 1
    key = cache_key(game, TARGET)
    assert key["options"] == game.rules.options() and key["dice"] == [1, 2]
    # the same game whether its dice were given per seat or as one number
    per_seat = make_game("openspiel", (2, 2), 3)
    as_one = Game(preset("openspiel", players=2, dice=2, faces=3, wild=3))
    assert per_seat.rules.options()["dice"] != as_one.rules.options()["dice"]
    assert cache_path(per_seat, TARGET) == cache_path(as_one, TARGET)


def test_solved_once_then_read_from_disk(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _solves(monkeypatch)
    game = _game()
    first = cached_policy(game, target=TARGET, disk=True)
    assert calls == [1] and first.exploitability() <= TARGET
    assert cached_policy(game, target=TARGET, disk=True) is first  # the process's copy
    assert [p.name for p in tmp_cache.iterdir()] == [cache_path(game, TARGET).name]
    monkeypatch.setattr(cache, "MEMORY", Memo())  # a new process
    again = cached_policy(game, target=TARGET, disk=True)
    assert calls == [1]
    for p in (0, 1):
        np.testing.assert_array_equal(again.seqs[p], first.seqs[p])
    assert again.info["exploitability"] == first.info["exploitability"]


def test_small_games_stay_off_disk(tmp_cache: Path) -> None:
    cached_policy(_game(), target=TARGET)  # 2^9 nodes: solved in memory only
    assert not tmp_cache.exists()


def _damage_truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _damage_garbage(path: Path) -> None:
    path.write_bytes(b"not a policy")


def _damage_array(path: Path) -> None:
    with np.load(path) as data:
        items = {k: data[k] for k in data.files}
    items["seq0"] = items["seq0"].copy()
    items["seq0"][0, 1, 0] += 0.25  # a changed number, the old checksum
    np.savez_compressed(path, **items)


def _damage_key(path: Path) -> None:
    with np.load(path) as data:
        items = {k: data[k] for k in data.files}
    meta = json.loads(str(items["meta"]))
    meta["key"]["target"] = 0.5
    items["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **items)


def _damage_shape(path: Path) -> None:
    with np.load(path) as data:
        items = {k: data[k] for k in data.files}
    items["seq0"], items["seq1"] = items["seq1"], items["seq0"]
    np.savez_compressed(path, **items)


def _damage_nan(path: Path) -> None:
    with np.load(path) as data:
        items = {k: data[k] for k in data.files}
    meta = json.loads(str(items["meta"]))
    items["seq1"] = np.full_like(items["seq1"], np.nan)
    meta["sha256"] = cache._checksum((items["seq0"], items["seq1"]))
    items["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **items)


@pytest.mark.parametrize(
    "damage",
    [_damage_truncate, _damage_garbage, _damage_array, _damage_key, _damage_shape, _damage_nan],
)
def test_a_damaged_file_is_solved_again(damage, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    game = _game()
    good = cached_policy(game, target=TARGET, disk=True)
    path = cache_path(game, TARGET)
    damage(path)
    tree = PublicTree(game)
    assert read_policy(path, cache_key(game, TARGET), tree) is None
    calls = _solves(monkeypatch)
    monkeypatch.setattr(cache, "MEMORY", Memo())
    fresh = cached_policy(game, target=TARGET, disk=True)
    assert calls == [1]
    assert fresh.exploitability() == pytest.approx(good.exploitability(), abs=1e-12)
    assert read_policy(path, cache_key(game, TARGET), tree) is not None  # replaced


def test_writes_are_atomic(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    policy = cached_policy(game, target=TARGET, disk=True)
    path = cache_path(game, TARGET)
    before = path.read_bytes()

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(OSError, match="disk full"):
        write_policy(policy, path, cache_key(game, TARGET))
    assert path.read_bytes() == before  # the old file is whole
    assert [p.name for p in tmp_cache.iterdir()] == [path.name]  # no temporary file left
    assert zipfile.is_zipfile(path)


def test_an_unwritable_cache_only_costs_a_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    policy = cached_policy(_game(), target=TARGET, disk=True)
    assert isinstance(policy, Policy) and policy.exploitability() <= TARGET


def test_a_cached_policy_is_read_beyond_the_solve_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game too large to solve under ``max_bytes`` is played once it is on disk (solved
    before with a larger limit, e.g. ``liarsdice solve --cache --max-gib 16``)."""
    game = _game()
    assert not cache.is_cached(game, TARGET)
    with pytest.raises(SolverError, match="limit"):
        cached_policy(game, target=TARGET, disk=True, max_bytes=1024)
    first = cached_policy(game, target=TARGET, disk=True)
    assert cache.is_cached(game, TARGET)
    monkeypatch.setattr(cache, "MEMORY", Memo())
    calls = _solves(monkeypatch)
    again = cached_policy(game, target=TARGET, disk=True, max_bytes=1024)
    assert calls == []
    np.testing.assert_array_equal(again.seqs[0], first.seqs[0])
    # a damaged file is not trusted, and the solve it would take is refused by the limit
    monkeypatch.setattr(cache, "MEMORY", Memo())
    cache_path(game, TARGET).write_bytes(b"not a policy")
    with pytest.raises(SolverError, match="limit"):
        cached_policy(game, target=TARGET, disk=True, max_bytes=1024)
    assert calls == []
