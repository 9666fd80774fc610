"""Helpers shared by the server tests (not a test module)."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from liarsdice.server.app import create_app
from liarsdice.server.config import Limits, Settings
from liarsdice.server.faults import FaultyStore
from liarsdice.server.room import Room, RoomManager
from liarsdice.server.room.manager import replay
from liarsdice.server.store import Store, StoredRoom


def msg(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "version": 1, "data": data}


@contextmanager
def client(tmp_path: Path, limits: Limits | None = None, **settings: Any) -> Iterator[TestClient]:
    opts: dict[str, Any] = {
        "db_url": f"sqlite+aiosqlite:///{tmp_path / 'test.db'}",
        "bot_delay": 0.0,
        "reveal_seconds": 0.0,  # no pause after a call (test_server_reveal.py tests it)
    }
    opts.update(settings)
    with TestClient(create_app(Settings(**opts), limits)) as c:
        yield c


def create(
    c: TestClient, name: str = "ann", preset: str = "classic", **body: Any
) -> dict[str, Any]:
    r = c.post("/api/rooms", json={"preset": preset, "name": name, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(c: TestClient, room: str, name: str) -> dict[str, Any]:
    r = c.post(f"/api/rooms/{room}/join", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def hello(ws: Any, token: str | None = None, **data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Say hello; returns (welcome, snapshot-or-update)."""
    ws.send_json(msg("hello", token=token, **data))
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome, ws.receive_json()


def until(ws: Any, pred: Any, limit: int = 500) -> dict[str, Any]:
    """Read frames until ``pred(frame)``; fail after ``limit`` frames."""
    for _ in range(limit):
        f: dict[str, Any] = ws.receive_json()
        if pred(f):
            return f
    raise AssertionError("condition never met")


def is_reply(ref: str) -> Any:
    return lambda f: f["data"].get("reply_to") == ref


def start_with_bot(ws: Any, token: str, level: str = "random") -> dict[str, Any]:
    """As the host (``token``) on ``ws``, a socket to the room: hello, seat a bot of ``level``
    and start the game; the start's reply."""
    hello(ws, token)
    ws.send_json(msg("add_bot", level=level, id="b"))
    until(ws, is_reply("b"))
    ws.send_json(msg("start", id="s"))
    return until(ws, is_reply("s"))


def new_player(c: TestClient, name: str) -> dict[str, Any]:
    """A new guest identity (``POST /api/players``): its ``player`` id and ``token``."""
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def play_out(ws: Any, f: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 of ``ws`` plays to the game's end (liar when there is a bid, else the least
    bid) from frame ``f``; returns the view at the end."""
    view: dict[str, Any] = f["data"]["view"]
    while view["winner"] is None:
        if view["to_move"] == 0 and view["legal"]:
            text = "liar" if view["current_bid"] else view["legal"][0]["text"]
            ws.send_json(msg("action", text=text, id="m"))
            f = until(ws, is_reply("m"))
        else:
            f = until(ws, lambda f: f["type"] == "update" and f["data"]["events"])
        view = f["data"]["view"]
    return view


def play_with_bots(
    c: TestClient, room: dict[str, Any], levels: tuple[str, ...] = ("random", "random")
) -> dict[str, Any]:
    """The host of ``room`` (as :func:`create` answered) seats bots of ``levels``, starts and
    leaves the socket: after the (zero) grace period a bot plays the host's seat to the end.
    Returns the finished room's page (``/api/rooms/<id>``'s ``data``)."""
    rid = room["room"]
    with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
        ws.send_json(msg("hello", token=room["token"]))
        ws.receive_json(), ws.receive_json()
        for n, level in enumerate(levels, 1):
            ws.send_json(msg("add_bot", level=level, id=f"b{n}"))
            while ws.receive_json()["data"].get("reply_to") != f"b{n}":
                pass
        ws.send_json(msg("start", id="s"))
        while ws.receive_json()["data"].get("reply_to") != "s":
            pass
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        data: dict[str, Any] = c.get(f"/api/rooms/{rid}").json()["data"]
        if data["room"]["status"] == "finished" and data["room"].get("ranking"):
            break
        time.sleep(0.05)
    assert data["room"]["status"] == "finished"
    return data


def websocket_refused(c: TestClient, url: str, **headers: str) -> int:
    """The close code of a WebSocket the server refuses before its first frame."""
    from starlette.websockets import WebSocketDisconnect

    try:
        with c.websocket_connect(url, headers=headers) as ws:
            ws.receive_json()
    except WebSocketDisconnect as exc:
        return exc.code
    raise AssertionError(f"{url} was not refused")


@contextmanager
def serving(server: Any) -> Iterator[Any]:
    """Run a ``uvicorn.Server`` in a thread for the block (started when the block begins)."""
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(10)


@asynccontextmanager
async def running_manager(settings: Settings) -> AsyncIterator[tuple[FaultyStore, RoomManager]]:
    """A fault-injecting store and a room manager started on it (rooms loaded from the log)."""
    store = FaultyStore(settings.db_url)
    await store.start()
    manager = RoomManager(settings, store)
    await manager.start()
    try:
        yield store, manager
    finally:
        await manager.stop()
        await store.close()


@asynccontextmanager
async def room_manager(tmp: Path, **opts: Any) -> AsyncIterator[tuple[FaultyStore, RoomManager]]:
    """:func:`running_manager` on a database of its own in ``tmp``: bots move at once and a call
    holds nothing (no reveal), unless ``opts`` (more :class:`Settings`) say otherwise. The
    settings are the manager's ``settings``."""
    opts = {"bot_delay": 0.0, "reveal_seconds": 0.0, **opts}
    settings = Settings(db_url=f"sqlite+aiosqlite:///{tmp / 'r.db'}", **opts)
    async with running_manager(settings) as (store, manager):
        yield store, manager


async def eventually(cond: Callable[[], Any], limit: float = 10.0) -> None:
    """Wait (polling every 5 ms) until ``cond()`` is true; fail after ``limit`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not cond():
        assert loop.time() < end, "condition never met"
        await asyncio.sleep(0.005)


def async_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An ``async def`` test, run to its end in a new event loop (``asyncio.run``) when pytest
    calls it; its fixtures are the coroutine function's parameters."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


class Fixed:
    """Repeatable entropy for ``decide``."""

    def __init__(self) -> None:
        self.n = 0

    def _next(self) -> int:
        self.n += 1
        return self.n

    def server_seed(self) -> str:
        return f"{self._next():064x}"

    def client_seed(self) -> str:
        return f"c{self._next()}"

    def token(self) -> str:
        return f"t{self._next()}"


class Sink:
    """A connection stand-in for driving a Room directly: it keeps every frame pushed to it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def push(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def events(self) -> list[dict[str, Any]]:
        return [ev for f in self.frames for ev in f["data"].get("events", [])]

    def errors(self, code: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error" and f["data"]["code"] == code]


async def assert_replays(store: Store, settings: Settings, room: Room) -> None:
    """The room's value equals the replay of its stored log: from its snapshot as startup
    reads it, and from the log's first event."""
    stored = await store.load_room(room.id)
    assert stored is not None
    value = replay(stored)[0]
    assert value.facts() == room.value.facts()
    full = StoredRoom(room.id, await store.events(room.id), stored.seeds, stored.secret)
    assert replay(full)[0].facts() == room.value.facts()
