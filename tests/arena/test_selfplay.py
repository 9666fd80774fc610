"""Tests for self-play (:mod:`liarsdice.selfplay`, ``liarsdice selfplay``) without Ray: the
records replay, the arrays are consistent, the output does not depend on ``--jobs``, and
``--ray`` without Ray installed is a usage error. The Ray runs are in ``test_ray.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from liarsdice.arena import ArenaSpec, play_game
from liarsdice.cli.main import cli
from liarsdice.core.bidding import preset
from liarsdice.families import family_of
from liarsdice.parallel import ray_cluster
from liarsdice.selfplay import SelfPlayJob, play_selfplay_game, record_name

CLASSIC = ["--rules", "classic", "--players", "3", "--bots", "prob,random,expert", "--seed", "7"]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["selfplay", *args, "--quiet"])


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def replay_ok(path: Path) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary: dict[str, object] = json.loads(result.output)
    return summary


def check_arrays(folder: Path, players: int, games: int) -> int:
    """Every shard's arrays agree with each other; the number of decisions in all."""
    total = 0
    seen: list[int] = []
    manifest = json.loads((folder / "selfplay.json").read_text())
    for name in manifest["files"]:
        with np.load(folder / name) as data:
            n = len(data["action"])
            g = len(data["games"])
            assert data["info_state"].shape[0] == data["legal"].shape[0] == n
            assert data["player"].shape == data["game"].shape == (n,)
            assert data["info_state"].dtype == np.float32 and data["legal"].dtype == np.bool_
            assert data["returns"].shape == data["seats"].shape == (g, players)
            assert data["offsets"].shape == (g + 1,) and data["offsets"][-1] == n
            assert data["legal"][np.arange(n), data["action"]].all()  # the chosen is legal
            assert 0 < int(data["observation_size"]) < data["info_state"].shape[1]
            for k, index in enumerate(data["games"]):
                rows = slice(data["offsets"][k], data["offsets"][k + 1])
                assert (data["game"][rows] == index).all()
            assert np.allclose(data["returns"].sum(axis=1), 0.0)  # zero-sum rules
            seen.extend(int(i) for i in data["games"])
            total += n
    assert seen == list(range(games))
    return total


def test_records_replay_and_match_the_arena(tmp_path: Path) -> None:
    result = run(*CLASSIC, "--games", "6", "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert "Wrote 6 games as records" in result.output
    manifest = json.loads((tmp_path / "r" / "selfplay.json").read_text())
    assert manifest["files"] == [record_name(i) for i in range(6)]
    spec = ArenaSpec(
        rules=preset("classic", players=3), bots=("prob", "random", "expert"), games=6, seed=7
    )
    for i in range(6):
        summary = replay_ok(tmp_path / "r" / record_name(i))
        assert summary["winner"] == play_game(spec, i).winner  # game i is the arena's game i


def test_arrays_are_consistent_and_jobs_do_not_matter(tmp_path: Path) -> None:
    args = [*CLASSIC, "--games", "8", "--format", "arrays", "--shard-games", "3"]
    one = run(*args, "--out", str(tmp_path / "one"))
    two = run(*args, "--out", str(tmp_path / "two"), "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert sorted(files(tmp_path / "one")) == [
        "arrays-00000.npz",
        "arrays-00001.npz",
        "arrays-00002.npz",
        "selfplay.json",
    ]
    assert files(tmp_path / "one") == files(tmp_path / "two")  # byte for byte
    assert check_arrays(tmp_path / "one", 3, 8) > 8


def test_poker_dice_arrays_and_records(tmp_path: Path) -> None:
    job = SelfPlayJob(
        ArenaSpec(
            rules=family_of("poker-dice").presets["poker-dice"], bots=("prob", "random"), games=2
        ),
        "arrays",
    )
    game = play_selfplay_game(job, 1)
    adapter = family_of("poker-dice").adapter(
        family_of("poker-dice").new_game(job.spec.rules, list(game.seats))
    )
    assert game.arrays["info_state"].shape[1] == adapter.info_size
    assert game.arrays["legal"].shape[1] == adapter.num_actions
    result = run("--rules", "poker-dice", "--games", "2", "--out", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    replay_ok(tmp_path / "p" / record_name(1))


def test_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    result = run("--games", "2", "--out", str(tmp_path / "full"))
    assert (
        result.exit_code == 2 and "Error: --out" in result.output and "not empty" in result.output
    )
    result = run(
        "--games", "2", "--out", str(tmp_path / "a"), "--ray", "10.0.0.1:6379", "--jobs", "2"
    )
    assert result.exit_code == 2
    assert "Error: --jobs sets the CPUs of a local Ray (--ray local)" in result.output
    monkeypatch.setattr(ray_cluster, "installed", lambda: False)
    for command in ("selfplay", "arena"):
        result = CliRunner().invoke(
            cli,
            [
                command,
                "--games",
                "2",
                "--ray",
                "auto",
                "--quiet",
                *(["--out", str(tmp_path / "b")] if command == "selfplay" else []),
            ],
        )
        assert result.exit_code == 2, result.output
        assert result.output.splitlines()[-1] == (
            "Error: --ray needs Ray, which is not installed: pip install 'liarsdice[ray]'"
        )


def test_no_ray_import_without_ray(tmp_path: Path) -> None:
    """liarsdice imports Ray only when --ray is used (the import contract checks the code)."""
    out_dir = str(tmp_path / "o")
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from liarsdice.cli.main import cli\n"
        f"r = CliRunner().invoke(cli, ['selfplay', '--games', '2', '--out', {out_dir!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "r = CliRunner().invoke(cli, ['arena', '--games', '2', '--quiet', '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('ray' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True
    )
    assert out.stdout.strip() == "False"
