"""bench/cluster.py in smoke mode, so that the cluster benchmark cannot rot: three real nodes on
the tests' PostgreSQL and Redis, six rooms for a few seconds, one node killed and one drained."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bench_util import load_bench


@pytest.mark.slow
def test_cluster_smoke(pg_url: str, redis_server: Any) -> None:
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()
    bench = load_bench("cluster")
    cfg = bench.Config(
        rooms=6,
        seats=2,
        seconds=6.5,
        think_ms=100.0,
        kill_at=2.0,
        drain_at=4.0,
        procs=1,
        db=pg_url,
        redis=redis_server.url,
    )
    s = asyncio.run(bench.run(cfg))
    assert s["connections"] == 12
    assert s["moves_acknowledged"] > 0
    assert s["moves_lost"] == s["moves_duplicated"] == s["rooms_diverged"] == 0
    assert s["takeover_s"]["rooms"] >= 1 and s["takeover_s"]["max"] <= 5
    assert s["drain"]["exit_s"] is not None and s["drain"]["exit_s"] <= 10
