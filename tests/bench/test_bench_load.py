"""bench/load.py in smoke mode, so that the load benchmark cannot rot: a real `liarsdice serve`
subprocess, two rooms of five seats over real WebSockets for a couple of seconds."""

from __future__ import annotations

import asyncio

import pytest

from bench_util import load_bench


@pytest.mark.slow
def test_load_smoke() -> None:
    load = load_bench("load")
    cfg, as_json = load.parse_args(
        ["--rooms", "2", "--seconds", "2", "--warmup", "0.5", "--think-ms", "60", "--json"]
    )
    assert as_json and cfg.rooms == 2 and cfg.seats == 5
    stats = asyncio.run(load.run(cfg))
    s = load.summary(cfg, stats)
    assert s["connections"] == 10
    assert s["actions"] > 0 and s["frames"] >= s["actions"]
    assert s["errors"] == 0, s["error_codes"]
    # every action's broadcast reached all five seats of its room
    assert s["broadcast_ms"]["n"] == s["actions"] == s["ack_ms"]["n"]
    assert 0 < s["ack_ms"]["p50"] <= s["broadcast_ms"]["p50"]
    assert s["server_cpu"] is not None
    assert "broadcast" in load.render_text(s)
