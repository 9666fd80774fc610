"""The HTTP/WebSocket boundary under abuse: streamed body limits, deeply nested JSON,
cross-site requests and origins, rate limits per seat and per IP, byte budgets, caps on rooms
and connections per IP, and the room list's order and paging."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from server_util import (
    create,
    hello,
    is_reply,
    join,
    msg,
    serving,
    start_with_bot,
    until,
    websocket_refused,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from liarsdice.server.app import create_app
from liarsdice.server.config import Settings

try:
    from liarsdice.server.limits import Limits
except ImportError:  # before the limits existed: the app's defaults
    Limits = None  # type: ignore[assignment,misc]


def _app(tmp_path: Path, limits: dict[str, Any] | None = None, **settings: Any) -> Any:
    opts: dict[str, Any] = {
        "db_url": f"sqlite+aiosqlite:///{tmp_path / 'test.db'}",
        "bot_delay": 0.0,
    }
    opts.update(settings)
    if Limits is not None and limits:
        return create_app(Settings(**opts), Limits(**limits))
    return create_app(Settings(**opts))


@contextmanager
def _client(tmp_path: Path, limits: dict[str, Any] | None = None, **settings: Any) -> Iterator[Any]:
    with TestClient(_app(tmp_path, limits, **settings)) as c:
        yield c


def _closed(ws: Any, code: str, close_code: int, last: str | None = None) -> dict[str, Any]:
    """Read until an error frame (or the answer to ``last``, the last message sent: then the
    limit did not hold), expect ``code``, then the close ``close_code``."""
    err = until(ws, lambda f: f["type"] == "error" or (last and f["data"].get("reply_to") == last))
    assert err["type"] == "error" and err["data"]["code"] == code, err
    with pytest.raises(WebSocketDisconnect) as exc:
        for _ in range(50):
            ws.receive_json()
    assert exc.value.code == close_code
    return err


# ----------------------------------------------------------------------- 1. HTTP bodies
def _post_raw(
    app: Any, headers: list[tuple[bytes, bytes]], chunks: int, size: int = 65536
) -> tuple[int, int]:
    """POST /api/rooms straight through ASGI with a body of ``chunks`` chunks of ``size``
    bytes; returns (status, chunks the app read)."""
    read = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks:
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": b" " * size, "more_body": read < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/rooms",
        "raw_path": b"/api/rooms",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return status, read


def test_body_refused_by_content_length_before_reading(tmp_path: Path) -> None:
    app = _app(tmp_path)
    status, read = _post_raw(app, [(b"content-length", str(200 * 65536).encode())], 200)
    assert status == 413
    assert read == 0  # refused from the headers alone


def test_chunked_body_stops_at_the_limit(tmp_path: Path) -> None:
    app = _app(tmp_path)
    status, read = _post_raw(app, [(b"transfer-encoding", b"chunked")], 200, size=1024)
    assert status == 413
    assert read <= 5  # 4096 bytes: the fifth 1 KiB chunk is one too many; nothing after it


# ----------------------------------------------------------------- 2. deeply nested JSON
def test_deep_json_is_malformed_and_the_socket_stays_open(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        host = create(c)
        with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
            hello(ws, host["token"])
            ws.send_text("[" * 2000 + "]" * 2000)
            err = until(ws, lambda f: f["type"] == "error")
            assert err["data"]["code"] == "malformed"
            deep = '{"type": "chat", "version": 1, "data": {"text": "hi", "x": '
            ws.send_text(deep + "[" * 1000 + "]" * 1000 + "}}")
            assert until(ws, lambda f: f["type"] == "error")["data"]["code"] == "malformed"
            ws.send_json(msg("ping", id="p"))
            assert until(ws, is_reply("p"))["type"] == "pong"
        r = c.post(
            "/api/rooms",
            content=("[" * 1500 + "]" * 1500).encode(),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 400 and r.json()["data"]["code"] == "malformed"


# ------------------------------------------------------------------ 3. cross-site requests
def test_state_changing_requests_need_json_and_an_allowed_origin(tmp_path: Path) -> None:
    with _client(tmp_path, origins=("https://dice.example",)) as c:
        body = json.dumps({"preset": "classic", "name": "ann"})
        blind = c.post(
            "/api/rooms",
            content=body,
            headers={"content-type": "text/plain", "origin": "https://evil.example"},
        )
        assert blind.status_code == 403  # a web page's blind cross-site POST
        plain = c.post("/api/rooms", content=body, headers={"content-type": "text/plain"})
        assert plain.status_code == 415
        assert plain.json()["data"]["code"] == "unsupported_media_type"
        assert c.post("/api/rooms", content=body).status_code == 415  # no Content-Type
        for origin in ("https://evil.example", "https://testserver", "http://testserver:8080"):
            r = c.post("/api/rooms", content=body, headers=_json_from(origin))
            assert r.status_code == 403, origin
            assert r.json()["data"]["code"] == "bad_origin"
        for origin in ("http://testserver", "https://dice.example", "https://DICE.example:443"):
            r = c.post("/api/rooms", content=body, headers=_json_from(origin))
            assert r.status_code == 201, (origin, r.text)
        room = r.json()["room"]
        r = c.post(
            f"/api/rooms/{room}/join",
            content=json.dumps({"name": "bob"}),
            headers=_json_from("https://evil.example"),
        )
        assert r.status_code == 403
        r = c.post(f"/api/rooms/{room}/join", content=json.dumps({"name": "bob"}))
        assert r.status_code == 415
        assert c.post(f"/api/rooms/{room}/join", json={"name": "bob"}).status_code == 201


def _json_from(origin: str) -> dict[str, str]:
    return {"content-type": "application/json", "origin": origin}


def test_websocket_origin_checks_the_scheme(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        assert websocket_refused(c, url, origin="https://testserver") == 4403


@contextmanager
def _real_server(tmp_path: Path) -> Iterator[int]:
    """The app under uvicorn on a free loopback port, in a thread."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(_app(tmp_path), host="127.0.0.1", port=port, log_level="error")
    with serving(uvicorn.Server(config)):
        yield port


def test_refused_origin_is_close_code_4403_in_a_real_server(tmp_path: Path) -> None:
    """A browser page only sees a close code when the upgrade succeeded: the refusal is the
    documented close 4403, not an HTTP 403 (which a page sees as 1006)."""
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with _real_server(tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        room = httpx.post(f"{base}/api/rooms", json={"name": "ann"}).json()["room"]
        url = f"ws://127.0.0.1:{port}/ws/rooms/{room}"
        with (
            connect(url, origin="http://evil.example", open_timeout=5) as ws,  # type: ignore[arg-type]
            pytest.raises(ConnectionClosed) as exc,
        ):
            ws.recv(timeout=5)
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 4403
        with connect(url, origin=f"http://127.0.0.1:{port}", open_timeout=5) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps(msg("hello")))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


# ------------------------------------------------------------ 4. rates and byte budgets
def test_one_seats_connections_share_a_bucket(tmp_path: Path) -> None:
    limits = {"seat_rate": 0.2, "seat_burst": 8}
    with _client(tmp_path, limits) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            hello(a, host["token"])
            hello(b, host["token"])
            for i in range(5):  # each connection is well within its own 20-message burst
                a.send_json(msg("ping", id=f"a{i}"))
                until(a, is_reply(f"a{i}"))
            for i in range(5):
                b.send_json(msg("ping", id=f"b{i}"))
            err = _closed(b, "rate_limited", 4429, last="b4")
            assert "seat" in err["data"]["message"]


def test_one_ips_connections_share_a_bucket(tmp_path: Path) -> None:
    limits = {"ip_rate": 0.2, "ip_burst": 10}
    with _client(tmp_path, limits) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        socks = [c.websocket_connect(url) for _ in range(3)]
        try:
            for ws in socks:
                ws.__enter__()
                hello(ws)  # spectators: no seat, one address
            for i, ws in enumerate(socks[:2]):
                for j in range(3):
                    ws.send_json(msg("ping", id=f"{i}.{j}"))
                    until(ws, is_reply(f"{i}.{j}"))
            for j in range(5):
                socks[2].send_json(msg("ping", id=f"2.{j}"))
            err = _closed(socks[2], "rate_limited", 4429, last="2.4")
            assert "address" in err["data"]["message"]
        finally:
            for ws in socks:
                ws.__exit__(None, None, None)


def test_byte_budget_per_connection(tmp_path: Path) -> None:
    """Snapshots asked for again and again: the server stops sending, and closes."""
    limits = {"conn_bytes": 6000}
    with _client(tmp_path, limits, rate_per_second=1000, rate_burst=1000) as c:
        host = create(c)
        join(c, host["room"], "bob")
        with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
            hello(ws, host["token"])
            for i in range(40):
                ws.send_json(msg("resync", last_seq=0, id=f"r{i}"))
            _closed(ws, "rate_limited", 4429, last="r39")


def test_byte_budget_per_ip(tmp_path: Path) -> None:
    limits = {"conn_bytes": 1 << 20, "ip_bytes": 8000}
    with _client(tmp_path, limits, rate_per_second=1000, rate_burst=1000) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            hello(a)
            hello(b)
            for i in range(40):
                (a if i % 2 else b).send_json(msg("resync", last_seq=0, id=f"r{i}"))
            frames: list[dict[str, Any]] = []
            codes = []
            for ws, last in ((a, "r39"), (b, "r38")):
                try:
                    while True:
                        frames.append(ws.receive_json())
                        if frames[-1]["data"].get("reply_to") == last:
                            break  # every resync answered: no budget
                except WebSocketDisconnect as exc:
                    codes.append(exc.code)
            assert 4429 in codes
            assert any(f["data"].get("code") == "rate_limited" for f in frames)


# --------------------------------------------------------------------------- 5. caps
def test_room_creations_per_ip_are_capped(tmp_path: Path) -> None:
    with _client(tmp_path, {"rooms_per_ip": 3}) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/rooms", json={"name": "ann"})
        assert r.status_code == 429 and r.json()["data"]["code"] == "too_many_rooms"


def test_default_room_cap_is_not_unlimited(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        codes = [c.post("/api/rooms", json={"name": "ann"}).status_code for _ in range(120)]
        assert 429 in codes


def test_websockets_per_ip_are_capped(tmp_path: Path) -> None:
    with _client(tmp_path, {"ws_per_ip": 2}) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            hello(a)
            hello(b)
            with c.websocket_connect(url) as third:
                third.send_json(msg("hello", id="h"))
                _closed(third, "too_many_connections", 4429, last="h")
        with c.websocket_connect(url) as again:  # the others closed: room again
            hello(again)


def test_room_list_puts_games_in_progress_first_and_pages(tmp_path: Path) -> None:
    with _client(tmp_path, {"rooms_per_ip": 1000}) as c:
        lobby = [create(c)["room"] for _ in range(5)]
        playing = create(c)
        with c.websocket_connect(f"/ws/rooms/{playing['room']}") as ws:
            start_with_bot(ws, playing["token"])
        first = c.get("/api/rooms", params={"per_page": 2}).json()
        assert first["rooms"][0]["id"] == playing["room"]
        assert first["rooms"][0]["status"] == "playing"
        assert len(first["rooms"]) == 2 and first["next_page"] == 2
        seen = [r["id"] for r in first["rooms"]]
        page = 2
        while True:
            out = c.get("/api/rooms", params={"page": page, "per_page": 2}).json()
            seen += [r["id"] for r in out["rooms"]]
            if "next_page" not in out:
                break
            page = out["next_page"]
        assert sorted(seen) == sorted([*lobby, playing["room"]])
        assert c.get("/api/rooms", params={"per_page": 500}).status_code == 422


def test_an_address_cut_off_for_flooding_cools_down(tmp_path: Path) -> None:
    """Cut off for flooding (4429), an address may not reconnect at once: the refusal costs
    the server a handshake, not a welcome and a snapshot; the cool-down doubles with each
    cut-off in a row, and once it is over the address is welcome again."""

    limits = {"cooldown": 0.3, "cooldown_max": 5.0}
    with _client(tmp_path, limits, rate_per_second=1.0, rate_burst=3) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"

        def flood() -> None:
            with c.websocket_connect(url) as ws:
                hello(ws)
                for i in range(6):
                    ws.send_json(msg("ping", id=f"p{i}"))
                _closed(ws, "rate_limited", 4429, last="p5")

        def refused() -> str:
            with c.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as exc:
                ws.send_json(msg("hello"))
                ws.receive_json()  # no welcome: closed at once
            assert exc.value.code == 4429
            return str(exc.value.reason)

        flood()
        assert "retry in" in refused()  # at once: refused
        time.sleep(0.35)
        flood()  # back in after 0.3 s; a second cut-off in a row: 0.6 s
        time.sleep(0.35)
        assert "retry in" in refused()
        time.sleep(0.35)
        with c.websocket_connect(url) as ws:  # the cool-down is over: welcome again
            ws.send_json(msg("hello"))
            assert ws.receive_json()["type"] == "welcome"
