"""The HTTP/WebSocket boundary against a hostile client, on a real uvicorn server where the
transport matters (server/transport.py): ping floods, clients that never read, half-open
requests, huge headers, too many connections; and over HTTP: request rates, joins, reads that
must not wait behind a room's commands, cached records, store failures (503), health, a seat's
rate bucket that must not pass to the next holder, a binary hello."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import json
import os
import socket
import struct
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from server_util import create, hello, is_reply, join, msg, serving, start_with_bot, until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from liarsdice.server.app import create_app
from liarsdice.server.config import Settings
from liarsdice.server.limits import Limits


def _settings(tmp_path: Path, **settings: Any) -> Settings:
    opts: dict[str, Any] = {"db_url": f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", "bot_delay": 0.0}
    opts.update(settings)
    return Settings(**opts)


def _limits(**limits: Any) -> Limits:
    known = {f.name for f in dataclasses.fields(Limits)}
    return Limits(**{k: v for k, v in limits.items() if k in known})


def _app(tmp_path: Path, limits: dict[str, Any] | None = None, **settings: Any) -> Any:
    return create_app(_settings(tmp_path, **settings), _limits(**(limits or {})))


@contextmanager
def _client(tmp_path: Path, limits: dict[str, Any] | None = None, **settings: Any) -> Iterator[Any]:
    with TestClient(_app(tmp_path, limits, **settings), raise_server_exceptions=False) as c:
        yield c


@contextmanager
def _server(
    tmp_path: Path, limits: dict[str, Any] | None = None, **settings: Any
) -> Iterator[tuple[int, Any]]:
    """The app under uvicorn, configured as ``liarsdice serve`` configures it, on a free
    loopback port in a thread: (port, app)."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf, lim = _settings(tmp_path, **settings), _limits(**(limits or {}))
    app = create_app(conf, lim)
    opts: dict[str, Any] = {"host": "127.0.0.1", "port": port, "log_level": "critical"}
    try:
        from liarsdice.server.transport import uvicorn_config
    except ImportError:  # before the guarded transport
        config = uvicorn.Config(app, ws_max_size=4096, **opts)
    else:
        config = uvicorn_config(app, conf, lim, **opts)
    server = uvicorn.Server(config)
    app.state.uvicorn = server
    with serving(server):
        yield port, app


# ------------------------------------------------------------------ a raw WebSocket client
def _upgrade(port: int, path: str, rcvbuf: int | None = None) -> tuple[socket.socket, bytes]:
    """A WebSocket handshake by hand (so that nothing reads for us); (socket, bytes after)."""
    s = socket.socket()
    if rcvbuf is not None:  # a small window: what the server sends piles up on its side
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    s.settimeout(5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(4096)
    head, rest = buf.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s, rest


def _room(port: int) -> str:
    r = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"name": "ann"})
    room: str = r.json()["room"]
    return room


def _closed_by_server(app: Any, seconds: float = 10.0) -> bool:
    """Whether the server has no connection left open within ``seconds`` (the tests' HTTP
    requests each close theirs)."""
    connections = app.state.uvicorn.server_state.connections
    deadline = time.monotonic() + seconds
    while connections and time.monotonic() < deadline:
        time.sleep(0.05)
    return not connections


def _frame(opcode: int, payload: bytes) -> bytes:
    """A client frame, masked with a zero key (so the payload goes as it is)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    return head + b"\0\0\0\0" + payload


def _text(data: dict[str, Any]) -> bytes:
    return _frame(0x1, json.dumps(data).encode())


def _read_frames(s: socket.socket, buf: bytes, seconds: float) -> tuple[int | None, int, bool]:
    """Read server frames for up to ``seconds``: (close code or None, frames before it,
    whether the connection ended: a close frame, EOF or a reset)."""
    deadline = time.monotonic() + seconds
    data, at, frames = bytearray(buf), 0, 0
    while time.monotonic() < deadline:
        while len(data) - at >= 2:
            n, head = data[at + 1] & 0x7F, 2
            if n == 126:
                n, head = int.from_bytes(data[at + 2 : at + 4], "big"), 4
            elif n == 127:
                n, head = int.from_bytes(data[at + 2 : at + 10], "big"), 10
            if len(data) - at < head + n:
                break
            opcode, payload = data[at] & 0x0F, bytes(data[at + head : at + head + n])
            at += head + n
            if opcode == 0x8:
                return (struct.unpack("!H", payload[:2])[0] if payload else 1005), frames, True
            frames += 1
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(1 << 20)
        except TimeoutError:
            break
        except OSError:
            return None, frames, True
        if not chunk:
            return None, frames, True
        data += chunk
    return None, frames, False


# ------------------------------------------------------------------- 1. ping floods
def test_pings_count_against_the_message_limit(tmp_path: Path) -> None:
    """A ping flood: answered only up to the connection's message bucket, then close 4429
    (today's server answered every ping, forever)."""
    with _server(tmp_path, rate_per_second=5.0, rate_burst=10) as (port, _):
        room = _room(port)
        s, rest = _upgrade(port, f"/ws/rooms/{room}")
        with s:
            s.sendall(_frame(0x9, b"p" * 125) * 300)
            code, pongs, ended = _read_frames(s, rest, 5.0)
        assert ended and code == 4429, (code, pongs)
        assert pongs <= 12  # the burst, and an error frame or two
        s, rest = _upgrade(port, f"/ws/rooms/{room}")  # cut off: the address cools down
        with s:
            s.sendall(_text(msg("hello")))
            assert _read_frames(s, rest, 5.0) == (4429, 0, True)


def test_a_client_that_does_not_read_its_pongs_is_dropped(tmp_path: Path) -> None:
    """Pings within the rate but pongs never read: the write buffer is bounded; past it the
    connection is dropped instead of buffering megabytes."""
    with _server(
        tmp_path,
        {"send_queue_bytes": 64 << 10},
        rate_per_second=1e9,
        rate_burst=10**9,
    ) as (port, app):
        s, _ = _upgrade(port, f"/ws/rooms/{_room(port)}", rcvbuf=4096)
        with s:
            try:
                ping = _frame(0x9, b"p" * 125)
                for _ in range(60):
                    s.sendall(ping * 500)  # 60 x 65 kB of pings, about 7.6 MB of pongs
            except OSError:
                pass  # reset by the server
            assert _closed_by_server(app)


# ---------------------------------------------------------- 2. clients that never read
def test_a_spectator_that_never_reads_is_dropped_and_forgotten(tmp_path: Path) -> None:
    """A spectator asks for snapshots again and again and reads nothing: once what waits to be
    sent passes the bound, the server drops the connection and the room forgets it."""
    limits = {
        "send_queue_bytes": 64 << 10,
        "conn_bytes": 1 << 30,
        "ip_bytes": 1 << 30,
        "ip_rate": 1e6,
        "ip_burst": 10**6,
    }
    with _server(tmp_path, limits, rate_per_second=1e6, rate_burst=10**6) as (port, app):
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/rooms", json={"name": "ann"}).json()
        httpx.post(f"{base}/api/rooms/{made['room']}/join", json={"name": "bob"})
        room = app.state.manager.get(made["room"])
        s, _ = _upgrade(port, f"/ws/rooms/{made['room']}", rcvbuf=4096)
        with s:
            s.sendall(_text(msg("hello")))
            resync = _text(msg("resync", last_seq=0))
            try:
                for _ in range(40):
                    s.sendall(resync * 100)  # 4000 snapshots asked for
            except OSError:
                pass  # dropped already
            deadline = time.monotonic() + 15
            while room.spectators and time.monotonic() < deadline:
                time.sleep(0.1)
            assert room.spectators == 0  # the room forgot the connection
            assert _closed_by_server(app)  # and the socket is closed


# ------------------------------------------------------------------------ 3. slowloris
def test_half_open_requests_and_idle_connections_time_out(tmp_path: Path) -> None:
    with _server(tmp_path, {"header_timeout": 1.0}) as (port, _):
        half = socket.create_connection(("127.0.0.1", port))
        idle = socket.create_connection(("127.0.0.1", port))
        with half, idle:
            half.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            for s in (half, idle):
                s.settimeout(4.0)
                got = b""
                try:
                    while chunk := s.recv(4096):
                        got += chunk
                except TimeoutError:
                    pytest.fail("the server kept a half-open request (or an idle socket) open")
                except OSError:
                    pass
                assert got == b"" or got.startswith(b"HTTP/1.1 408"), got


def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    with _server(tmp_path, {"max_conns_per_ip": 3}) as (port, _):
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        try:
            time.sleep(0.2)
            r = httpx.get(f"http://127.0.0.1:{port}/api/health")
            assert r.status_code == 429
            assert r.json()["data"]["code"] == "too_many_connections"
        finally:
            for s in held:
                s.close()
        time.sleep(0.2)
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200


def test_serve_raises_the_open_files_limit() -> None:
    import resource

    from liarsdice.server.transport import raise_fd_limit

    soft, hard = raise_fd_limit()
    assert (soft, hard) == resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or soft == hard


# ------------------------------------------------------------------------ 4. headers
def test_huge_headers_are_431(tmp_path: Path) -> None:
    with _server(tmp_path) as (port, _):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.settimeout(10)
            big = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20)
            t0 = time.monotonic()
            with contextlib.suppress(OSError):  # refused before it was all sent
                s.sendall(big + b"\r\n\r\n")
            head = s.recv(4096)
            assert time.monotonic() - t0 < 5
        assert head.startswith(b"HTTP/1.1 431"), head[:80]


# --------------------------------------------------------------- 5. HTTP request rates
def test_http_requests_per_address_are_rate_limited(tmp_path: Path) -> None:
    with _client(tmp_path, {"http_rate": 1.0, "http_burst": 5}) as c:
        codes = [c.get("/api/health").status_code for _ in range(6)]
        assert codes[:5] == [200] * 5 and codes[5] == 429
        r = c.get("/api/rooms")
        assert r.status_code == 429 and r.json()["data"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1


def test_a_rooms_snapshot_does_not_wait_behind_its_commands(tmp_path: Path) -> None:
    with _server(tmp_path) as (port, app):
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/rooms", json={"name": "ann"}).json()
        room = app.state.manager.get(made["room"])
        gate = threading.Event()

        async def busy() -> None:  # a long command holds the room's queue
            await asyncio.get_running_loop().run_in_executor(None, gate.wait, 10)

        loop = room._task.get_loop()
        loop.call_soon_threadsafe(room.post, busy)
        try:
            r = httpx.get(f"{base}/api/rooms/{made['room']}", timeout=3)
            assert r.status_code == 200 and r.json()["type"] == "snapshot"
        finally:
            gate.set()


def _finished_game(c: Any) -> str:
    host = create(c, "ann", "classic", options={"dice": 1})
    with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
        view = start_with_bot(ws, host["token"])["data"]["view"]
        n = 0
        while view["winner"] is None:
            if view["to_move"] == 0 and view["legal"]:
                n += 1
                text = "liar" if view["current_bid"] else view["legal"][0]["text"]
                ws.send_json(msg("action", text=text, id=f"m{n}"))
                view = until(ws, is_reply(f"m{n}"))["data"]["view"]
            else:
                view = until(ws, lambda f: f["type"] == "update" and f["data"]["events"])
                view = view["data"]["view"]
    room: str = host["room"]
    return room


def test_finished_games_records_are_rendered_once(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        room = _finished_game(c)
        manager = c.app.state.manager
        real, calls = manager.record, []

        async def counted(room_id: str, game_no: int) -> Any:
            calls.append((room_id, game_no))
            return await real(room_id, game_no)

        manager.record = counted
        for fmt in ("text", "summary", "json"):
            first = c.get(f"/api/rooms/{room}/games/1/record?format={fmt}")
            assert first.status_code == 200
            for _ in range(3):
                again = c.get(f"/api/rooms/{room}/games/1/record?format={fmt}")
                assert again.content == first.content
        assert len(calls) == 3  # one per format


# -------------------------------------------------------------------- 9. joins
def test_joins_are_rate_limited_per_address_and_room(tmp_path: Path) -> None:
    with _client(tmp_path, {"joins_per_ip": 2, "joins_per_room": 3}) as c:
        room = create(c)["room"]
        join(c, room, "bob")
        join(c, room, "cat")
        r = c.post(f"/api/rooms/{room}/join", json={"name": "dan"})
        assert r.status_code == 429 and r.json()["data"]["code"] == "too_many_joins"
        assert int(r.headers["retry-after"]) >= 1
        other = create(c)["room"]  # another room: its own count
        join(c, other, "bob")


# ------------------------------------------------------------------ 11. store failures
def test_store_failures_answer_503_with_retry_after(tmp_path: Path) -> None:
    from sqlalchemy.exc import OperationalError

    from liarsdice.server.faults import install

    with _client(tmp_path) as c:
        store = c.app.state.store
        faults = install(store)
        faults.set("fail")
        for path, body in (("/api/rooms", {"name": "ann"}), ("/api/players", {"name": "ann"})):
            r = c.post(path, json=body)
            assert r.status_code == 503, (path, r.status_code, r.text)
            assert r.json()["data"]["code"] == "store_unavailable"
            assert int(r.headers["retry-after"]) >= 1
        faults.clear()

        async def broken(*args: Any) -> Any:
            raise OperationalError("SELECT", {}, Exception("disk I/O error"))

        store.leaderboard = store.player = broken
        for path in ("/api/leaderboard", "/api/players/xyz"):
            r = c.get(path)
            assert r.status_code == 503 and "retry-after" in r.headers, (path, r.status_code)


def test_a_hung_store_read_answers_503_in_time(tmp_path: Path) -> None:
    with _server(tmp_path, store_timeout=0.5) as (port, app):

        async def hang(*args: Any) -> Any:
            await asyncio.sleep(3600)

        app.state.store.leaderboard = hang
        r = httpx.get(f"http://127.0.0.1:{port}/api/leaderboard", timeout=5)
        assert r.status_code == 503 and "retry-after" in r.headers


def test_health_reports_a_read_only_store_and_paused_rooms(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        health = c.get("/api/health")
        assert health.status_code == 200 and health.json()["ok"] is True
        room = create(c)
        from liarsdice.server.faults import install

        faults = install(c.app.state.store)
        faults.set("fail")
        with c.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            hello(ws, room["token"])
            ws.send_json(msg("chat", text="hi", id="c"))
            until(ws, lambda f: f["data"].get("code") == "store_unavailable")
        h = c.get("/api/health").json()
        assert h["ok"] is False and h["paused_rooms"] == 1
        faults.clear()
    path = tmp_path / "b.db"
    url = f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true"
    with TestClient(create_app(Settings(db_url=url), Limits())) as c:
        h = c.get("/api/health")
        assert h.json()["ok"] is False and h.json()["store"] == "failing", h.text
        assert h.status_code == 503


# -------------------------------------------------------------- 12. a seat's bucket
def test_the_next_holder_of_a_seat_starts_with_a_full_bucket(tmp_path: Path) -> None:
    limits = {"seat_rate": 0.01, "seat_burst": 5}
    with _client(tmp_path, limits) as c:
        host = create(c)
        room = host["room"]
        bob = join(c, room, "bob")
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            hello(ws, bob["token"])
            for i in range(4):
                ws.send_json(msg("ping", id=f"p{i}"))
                until(ws, is_reply(f"p{i}"))
            ws.send_json(msg("leave", id="l"))  # the fifth message: bob's bucket is empty
            with pytest.raises(WebSocketDisconnect):
                for _ in range(20):
                    ws.receive_json()
        cat = join(c, room, "cat")
        assert cat["seat"] == bob["seat"]
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            hello(ws, cat["token"])
            ws.send_json(msg("ping", id="first"))
            reply = until(ws, lambda f: f["type"] in ("pong", "error"))
            assert reply["type"] == "pong", reply


# ---------------------------------------------------------------- 14. a binary hello
def test_a_binary_hello_that_is_not_json_is_4400(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        room = create(c)["room"]
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            ws.send_bytes(b"\x00\xff\x00")
            with pytest.raises(WebSocketDisconnect) as exc:
                for _ in range(5):
                    frame = ws.receive_json()
                    assert frame["type"] == "error"
            assert exc.value.code == 4400
