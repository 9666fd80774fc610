"""The operator endpoints: ``/metrics`` (Prometheus), ``/api/health``'s node facts and
``/api/ready`` (docs/SERVER.md, "Operators: health, readiness, metrics")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.parser import text_string_to_metric_families

from liarsdice.server.metrics import SOURCES, Metrics
from liarsdice.server.room.actor import _source
from liarsdice.server.room.commands import BotMove
from server_util import client, create, hello, is_reply, join, msg, play_with_bots, until

NAMES = {
    "liarsdice_rooms",
    "liarsdice_connections",
    "liarsdice_commands",  # (the parser drops a counter's _total)
    "liarsdice_action_broadcast_seconds",
    "liarsdice_store_write_seconds",
    "liarsdice_redis_seconds",
    "liarsdice_takeovers",
}


def _scrape(c: Any) -> dict[tuple[str, str], float]:
    """``/metrics`` as {(sample name, "source/outcome" labels): value}."""
    r = c.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"] == CONTENT_TYPE_LATEST  # text/plain; version=...
    families = list(text_string_to_metric_families(r.text))
    assert {f.name for f in families} >= NAMES
    return {
        (s.name, "/".join(s.labels[k] for k in ("source", "outcome") if k in s.labels)): s.value
        for f in families
        for s in f.samples
        if not s.labels.get("le")
    }


def test_metrics_move_with_rooms_commands_and_writes(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        before = _scrape(c)
        assert before[("liarsdice_rooms", "")] == 0
        assert before[("liarsdice_connections", "")] == 0
        for source in SOURCES:
            assert before[("liarsdice_commands_total", f"{source}/ok")] == 0
            assert before[("liarsdice_commands_total", f"{source}/refused")] == 0
        host = create(c, "ann", options={"dice": 2})
        bob = join(c, host["room"], "bob")
        with (
            c.websocket_connect(f"/ws/rooms/{host['room']}") as w0,
            c.websocket_connect(f"/ws/rooms/{host['room']}") as w1,
        ):
            hello(w0, host["token"])
            hello(w1, bob["token"])
            assert _scrape(c)[("liarsdice_connections", "")] == 2
            w0.send_json(msg("start", id="s"))
            started = until(w0, is_reply("s"))
            mover = started["data"]["view"]["to_move"]
            ws = (w0, w1)
            ws[1 - mover].send_json(msg("action", text="1x2", id="o"))  # out of turn
            assert until(ws[1 - mover], is_reply("o"))["type"] == "error"
            legal = started["data"]["view"]["legal"] if mover == 0 else None
            if legal is None:
                legal = until(w1, lambda f: f["data"].get("view") and f["data"]["view"]["legal"])
                legal = legal["data"]["view"]["legal"]
            ws[mover].send_json(msg("action", action=legal[0]["action"], id="m"))
            assert until(ws[mover], is_reply("m"))["type"] == "update"
            ws[mover].send_json(msg("chat", text="gl"))  # no id: counted all the same
            until(ws[mover], lambda f: f["type"] == "update" and f["data"]["events"])
            ws[mover].send_json(msg("ping", id="p"))  # not a command
            until(ws[mover], is_reply("p"))
            after = _scrape(c)
        deadline = time.monotonic() + 5
        while _scrape(c)[("liarsdice_connections", "")] != 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _scrape(c)[("liarsdice_connections", "")] == 0
    assert after[("liarsdice_rooms", "")] == 1
    assert after[("liarsdice_commands_total", "player/ok")] == 3  # start, the move, the chat
    assert after[("liarsdice_commands_total", "player/refused")] == 1  # out of turn
    assert after[("liarsdice_commands_total", "server/ok")] == 2  # the room made, bob's join
    assert after[("liarsdice_action_broadcast_seconds_count", "")] == 4
    assert after[("liarsdice_action_broadcast_seconds_sum", "")] > 0
    # the room's creation, bob's join, the start, the move, the chat (and the startup probe)
    assert after[("liarsdice_store_write_seconds_count", "")] >= 5
    assert after[("liarsdice_takeovers_total", "")] == 0


def test_each_app_has_its_own_registry() -> None:
    one, two = Metrics(), Metrics()
    one.command("player", "ok")
    one.takeovers.inc()
    assert b'liarsdice_commands_total{outcome="ok",source="player"} 1.0' in one.exposition()[0]
    assert b'liarsdice_commands_total{outcome="ok",source="player"} 0.0' in two.exposition()[0]


def test_bot_and_server_commands_are_counted_where_the_room_runs(tmp_path: Path) -> None:
    """Every command a room decides counts, not only a WebSocket's: the bots' moves (and the
    bot that plays for a player who left), the server's own (the room made, a seat taken)."""
    with client(tmp_path, grace_period=0.0) as c:
        room = create(c, "ann", options={"dice": 1})
        play_with_bots(c, room)
        after = _scrape(c)
    bots = after[("liarsdice_commands_total", "bot/ok")]
    assert bots >= 2  # a game of 3 one-die players has at least two moves, all bots' here
    assert after[("liarsdice_commands_total", "player/ok")] == 3  # two add_bot and the start
    assert after[("liarsdice_commands_total", "server/ok")] == 1  # the room made
    assert after[("liarsdice_commands_total", "timer/ok")] == 0  # no turn timer
    assert _source(0, BotMove(3, timeout=True)) == "timer"  # a turn timer that ran out


def test_health_names_the_node_its_rooms_and_its_cluster(tmp_path: Path) -> None:
    with client(tmp_path, node_id="node-a") as c:
        empty = c.get("/api/health").json()
        assert empty["node"] == "node-a" and empty["rooms_owned"] == []
        rooms = sorted(create(c, name)["room"] for name in ("ann", "bob"))
        h = c.get("/api/health")
        assert h.status_code == 200
        body = h.json()
        assert body["ok"] is True and body["rooms"] == 2 and body["store"] == "ok"
        assert body["rooms_owned"] == rooms
        (node,) = body["cluster"]["nodes"]
        assert node["node"] == "node-a" and abs(node["heartbeat"] - time.time()) < 60


def test_the_default_node_id_is_host_and_pid(tmp_path: Path) -> None:
    import os
    import socket

    with client(tmp_path) as c:
        assert c.get("/api/health").json()["node"] == f"{socket.gethostname()}-{os.getpid()}"


def test_ready_until_draining(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.get("/api/ready")
        assert r.status_code == 200 and r.json() == {"ready": True}
        c.app.state.server.draining = True  # type: ignore[attr-defined]
        r = c.get("/api/ready")
        assert r.status_code == 503 and r.json() == {"ready": False, "reason": "draining"}
        c.app.state.server.draining = False  # type: ignore[attr-defined]
        assert c.get("/api/ready").status_code == 200
        c.app.state.server.store.engine = None  # type: ignore[attr-defined]  # as if stopped
        r = c.get("/api/ready")
        assert r.status_code == 503 and r.json()["reason"] == "store_not_started"


def test_metrics_never_break_a_connection_on_odd_frames() -> None:
    """A frame whose ``type`` or ``id`` is not a string (fuzzing) is the app's to refuse:
    the metrics' watch of the connection passes it on without raising."""
    from liarsdice.server.metrics import Metrics, _Watch

    watch = _Watch(Metrics())
    for text in ('{"type": ["x"], "data": {}}', '{"type": "chat", "data": {"id": ["a"]}}', "[]"):
        watch.received({"type": "websocket.receive", "text": text})
    watch.sent({"type": "websocket.send", "text": '{"type": [1], "data": {"reply_to": [2]}}'})
