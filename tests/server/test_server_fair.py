"""Provably fair dice: commitments, the HMAC stream, rejection sampling, and `verify`."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice.cli.main import cli
from liarsdice.cli.verify import verify_record
from liarsdice.families import replay_record
from liarsdice.server import fair
from test_server_leak import play_games


def test_commitment_and_stream_are_deterministic() -> None:
    seed = fair.new_server_seed()
    assert fair.SERVER_SEED_RE.match(seed)
    assert fair.commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()
    a = fair.DiceStream(seed, ["x", "y"])
    b = fair.DiceStream(seed, ["x", "y"])
    assert [a.draw(6) for _ in range(100)] == [b.draw(6) for _ in range(100)]
    c = fair.DiceStream(seed, ["x", "z"])
    d = fair.DiceStream(seed, ["x", "y"])
    assert [c.draw(6) for _ in range(40)] != [d.draw(6) for _ in range(40)]
    with pytest.raises(ValueError):
        fair.check_client_seed("no spaces")
    with pytest.raises(ValueError):
        a.draw(0)


def test_rejection_sampling_rejects_the_biased_tail() -> None:
    data = bytes([255, 252, 251, 5])  # 252..255 would bias a die: rejected
    assert fair.pick(data, 0, 6) == (251 % 6, 3)
    assert fair.pick(data, 3, 6) == (5, 4)
    assert fair.pick(bytes([255, 252]), 0, 6) is None
    assert fair.pick(bytes([250, 1]), 0, 5) == (0, 1)  # 256 % 5 == 1: only 255 is rejected


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 12])
def test_draws_are_uniform(n: int) -> None:
    s = fair.DiceStream(fair.new_server_seed(), ["seed"])
    k = 6000 * n
    counts = Counter(s.draw(n) for _ in range(k))
    expected = k / n
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(n))
    assert set(counts) == set(range(n))
    assert chi2 < 40  # far above the 0.9999 quantile for up to 11 degrees of freedom


@pytest.mark.parametrize("preset", ["classic", "poker-dice"])
def test_verify_re_derives_server_records(tmp_path: Path, preset: str) -> None:
    _, records = asyncio.run(play_games(tmp_path, preset, {}, ["random", "random"]))
    runner = CliRunner()
    for i, record in enumerate(records):
        assert all("fair" in r for r in record["rounds"])
        assert verify_record(record) == []
        for r in record["rounds"]:
            info = r["fair"]
            assert fair.commitment(info["server_seed"]) == info["commitment"]
        replay_record(record)  # the fair key keeps the record readable by replay
        path = tmp_path / f"game{i}.json"
        path.write_text(json.dumps(record))
        result = runner.invoke(cli, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("OK:")
        replayed = runner.invoke(cli, ["replay", str(path)])
        assert replayed.exit_code == 0, replayed.output
    # tampering: another seed, another client seed, another die
    record = records[0]
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["fair"]["server_seed"] = fair.new_server_seed()
    assert "commitment" in verify_record(bad)[0]
    bad = json.loads(json.dumps(record))
    first = next(iter(bad["rounds"][0]["fair"]["client_seeds"]))
    bad["rounds"][0]["fair"]["client_seeds"][first] = "changed"
    assert verify_record(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert runner.invoke(cli, ["verify", str(path)]).exit_code == 1
    # an unproven round: its dice changed and its seeds removed (verify names it, exit 1)
    bad = json.loads(json.dumps(record))
    last = len(bad["rounds"]) - 1
    del bad["rounds"][last]["fair"]
    assert verify_record(bad) == [f"round {last + 1}: no 'fair' seeds, so its dice are not proven"]
    path.write_text(json.dumps(bad))
    result = runner.invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1 and f"round {last + 1}" in result.output
