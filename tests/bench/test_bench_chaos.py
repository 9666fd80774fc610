"""bench/chaos.py in smoke mode, so that the chaos bench cannot rot: a real `liarsdice serve`
subprocess on SQLite (and on PostgreSQL), a few rooms over real WebSockets, three SIGKILL and
restart cycles, a store fault, some fuzzing and a short attack; nothing acknowledged is lost.
Also: the bench's audit does see a lost, duplicated or diverging move."""

from __future__ import annotations

import asyncio
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from bench_util import load_bench


def _check(chaos: ModuleType, s: dict[str, Any], backend: str) -> None:
    assert s["backend"] == backend
    assert s["cycles"] == 3 and s["kills"] == 4 and s["restarts"] == 4
    assert s["moves_acknowledged"] > 0 and s["moves_acknowledged"] <= s["moves_sent"]
    assert s["lost"] == 0 and s["duplicated"] == 0 and s["mismatched"] == 0
    assert s["diverged_rooms"] == 0, s["diverged"]
    assert s["failed_restarts"] == 0, s["failed_restart_reasons"]
    assert s["server_crashes"] == 0 and s["server_tracebacks"] == 0
    assert s["bench_client_errors"] == 0, s["bench_client_error_reasons"]
    assert s["events_compared"] > 0 and s["log_gaps"] == 0
    assert s["store_faults"] == 1
    assert s["fuzz"]["frames"] > 0 and s["fuzz"]["errors_by_code"]
    attack = s["attack"]
    assert attack["attackers_sent"] > 0 and attack["unaffected_attack_ms"]["n"] > 0
    assert attack["unaffected_baseline_ms"]["n"] > 0
    assert s["ok"] is True and not chaos.failures(s)
    assert "RESULT             ok" in chaos.render_text(s)


@pytest.mark.slow
def test_chaos_smoke_sqlite() -> None:
    chaos = load_bench("chaos")
    # (latency is reported, not checked: it depends on what else the machine runs)
    cfg, as_json = chaos.parse_args(["--quick", "--db", "sqlite", "--p99-limit", "0", "--json"])
    assert as_json and cfg.rooms == 3 and cfg.cycles == 3 and cfg.n_faults == 1
    assert cfg.p99_limit_ms == 0
    [s] = asyncio.run(chaos.run(cfg, log=lambda line: None))
    _check(chaos, s, "sqlite")


@pytest.mark.slow
def test_chaos_smoke_postgres(pg_url: str) -> None:
    pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")
    chaos = load_bench("chaos")
    cfg, _ = chaos.parse_args(
        ["--quick", "--db", "postgres", "--pg-url", pg_url, "--p99-limit", "0"]
    )
    [s] = asyncio.run(chaos.run(cfg, log=lambda line: None))
    _check(chaos, s, "postgres")


def test_audit_sees_lost_duplicated_and_diverged_moves() -> None:
    chaos = load_bench("chaos")
    run = SimpleNamespace(rooms=[], fuzz_room=None, window=None, samples={})
    room = chaos.RoomClient(run, 0, "R", "classic", 1)
    run.rooms.append(room)
    for n, (seq, action) in enumerate([(3, 10), (5, 12), (7, 14)]):
        move = chaos.Move(f"m{n}", "R", 0, action, 1, acked=True, seq=seq)
        room.moves[move.id] = move
    room.saw({"seq": 1, "kind": "room_created", "preset": "classic", "options": {}})
    room.saw({"seq": 3, "kind": "action", "seat": 0, "action": 10, "text": "1x2"})
    rows: list[tuple[str, int, str, dict[str, Any]]] = [
        ("R", 1, "room_created", {"preset": "classic", "options": {}, "seed_idx": 0}),
        ("R", 2, "chance", {"value": 3}),
        ("R", 3, "action", {"seat": 0, "action": 10, "text": "1x2", "id": "m0"}),
        ("R", 4, "action", {"seat": 0, "action": 11, "text": "1x3", "id": "m0"}),
        ("R", 5, "action", {"seat": 0, "action": 13, "text": "1x4", "id": "m1"}),
    ]
    server = SimpleNamespace(broken={})
    got = chaos.audit(run, rows, server)
    # m0 applied twice, m1 logged as another move, m2 (seq 7) nowhere
    assert (got["lost"], got["duplicated"], got["mismatched"]) == (1, 1, 1)
    assert got["diverged_rooms"] == 1 and got["log_gaps"] == 0
    good = [rows[0], rows[1], rows[2], ("R", 4, "chance", {"value": 1})]
    room.moves = {"m0": room.moves["m0"]}
    assert chaos.audit(run, good, server)["diverged_rooms"] == 0
    # a client told something the log does not say, a gap, a room that did not replay
    room.saw({"seq": 4, "kind": "chat", "seat": 0, "name": "a", "text": "hi"})
    assert chaos.audit(run, good, server)["diverged_rooms"] == 1
    del room.seen[4]
    assert chaos.audit(run, [*good[:2], *good[3:]], server)["log_gaps"] == 1
    server.broken["R"] = "RuntimeError: the log's dice do not replay"
    assert chaos.audit(run, good, server)["diverged_rooms"] == 1
    # the same seq received with two contents
    server.broken.clear()
    room.saw({"seq": 1, "kind": "room_created", "preset": "perudo", "options": {}})
    assert room.anomalies and chaos.audit(run, good, server)["diverged_rooms"] == 1
