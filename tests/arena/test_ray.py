"""The arena and self-play on a local Ray (``ray_local``: started once for this module; skipped
when Ray is not installed or with ``LIARSDICE_SKIP_RAY=1``): the same results as ``--jobs``
for the same seed, whatever runs where."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from liarsdice.cli.main import cli

pytestmark = pytest.mark.usefixtures("ray_local")

ARENA = ["arena", "--rules", "classic", "--players", "3", "--bots", "prob,random,expert"]
SELFPLAY = ["selfplay", "--rules", "perudo", "--players", "3", "--bots", "prob,random"]
TIMINGS = ("ms_mean", "ms_p50", "ms_max")


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    return result.output


def table(output: str) -> dict[str, Any]:
    """The --json output without what may vary between runs: timings and the workers."""
    data: dict[str, Any] = json.loads(output)
    for key in ("jobs", "seconds", "ray"):
        del data["config"][key]
    for row in data["standings"]:
        for key in TIMINGS:
            del row[key]
    return data


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_arena_on_ray_gives_the_table_of_jobs() -> None:
    args = [*ARENA, "--games", "36", "--seed", "11", "--json"]
    on_ray = invoke(*args, "--ray", "auto")
    assert json.loads(on_ray)["config"]["ray"] == "auto"
    assert json.loads(on_ray)["config"]["jobs"] == 2  # the fixture's two CPUs
    assert table(on_ray) == table(invoke(*args, "--jobs", "2"))


@pytest.mark.parametrize("fmt", ["records", "arrays"])
def test_selfplay_on_ray_writes_what_one_job_writes(tmp_path: Path, fmt: str) -> None:
    args = [*SELFPLAY, "--games", "10", "--seed", "4", "--format", fmt, "--shard-games", "4"]
    invoke(*args, "--ray", "auto", "--out", str(tmp_path / "ray"))
    invoke(*args, "--jobs", "1", "--out", str(tmp_path / "one"))
    assert files(tmp_path / "ray") == files(tmp_path / "one")  # byte for byte
    manifest = json.loads((tmp_path / "ray" / "selfplay.json").read_text())
    assert manifest["games_written"] == 10
    if fmt == "records":
        for name in manifest["files"]:
            result = CliRunner().invoke(cli, ["replay", str(tmp_path / "ray" / name), "--json"])
            assert result.exit_code == 0 and json.loads(result.output)["ok"], result.output
    else:
        assert manifest["files"] == ["arrays-00000.npz", "arrays-00001.npz", "arrays-00002.npz"]


def test_replay_command_accepts_a_record_from_ray(tmp_path: Path) -> None:
    """The real ``liarsdice`` command (a new process) checks a record written on Ray."""
    invoke(*SELFPLAY, "--games", "2", "--ray", "auto", "--out", str(tmp_path / "r"))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "liarsdice.cli.main",
            "replay",
            str(tmp_path / "r" / "game-000001.json"),
        ],
        capture_output=True,
        text=True,
        env=os.environ,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].startswith("Winner: ")


def test_ray_local_starts_and_stops_its_own_ray(tmp_path: Path) -> None:
    """``--ray local`` in a new process: a Ray of its own (one CPU), shut down at the end; its
    workers import liarsdice from the environment the command was started in."""
    args = [*SELFPLAY, "--games", "4", "--seed", "9"]
    local = ["--ray", "local", "--jobs", "1", "--quiet", "--out", str(tmp_path / "local")]
    out = subprocess.run(
        [sys.executable, "-m", "liarsdice.cli.main", *args, *local],
        capture_output=True,
        text=True,
        env=os.environ,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    invoke(*args, "--out", str(tmp_path / "one"))
    assert files(tmp_path / "local") == files(tmp_path / "one")
