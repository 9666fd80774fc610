"""A failing store never diverges a room's memory from its log (server/faults.py).

Writes fail, hang, or commit and then fail (the outcome the server cannot know), and a real
SQLite write lock is held by another connection: the room pauses with ``store_unavailable``,
other rooms keep playing, the room resumes by itself, no acknowledged move is lost, the log has
no gap and the room's memory equals the replay of its log. A room whose log does not replay is
quarantined at startup and every other room starts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sqlite3
import subprocess
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from liarsdice.server.config import Settings
from liarsdice.server.faults import FaultyStore, sqlite_lock
from liarsdice.server.protocol import ActionMsg, AddBotMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.room import Room

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from liarsdice.server.app import create_app
from server_util import Sink, assert_replays, eventually, running_manager

# Holds the database's write lock for that many seconds (setting the event once it holds it:
# a loaded machine may take a while to start the holder).
Locker = Callable[[float, threading.Event], None]


@dataclasses.dataclass(frozen=True)
class Backend:
    url: str
    hold_lock: Locker


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The same fault tests on a SQLite file and on a real PostgreSQL server."""
    if request.param == "sqlite":
        path = tmp_path / "faults.db"

        def hold_sqlite(seconds: float, held: threading.Event) -> None:
            with sqlite_lock(path):  # BEGIN EXCLUSIVE from another connection
                held.set()
                time.sleep(seconds)

        return Backend(f"sqlite+aiosqlite:///{path}", hold_sqlite)
    pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")
    url: str = request.getfixturevalue("pg_url")
    cluster = request.getfixturevalue("pg_cluster")
    database = url.rsplit("/", 1)[1]

    def hold_pg(seconds: float, held: threading.Event) -> None:
        args = [str(cluster.bin / "psql"), "-h", "127.0.0.1", "-p", str(cluster.port),
                "-U", cluster.user, "-d", database, "-A", "-t"]  # fmt: skip
        with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as p:
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write("BEGIN; LOCK TABLE events, rooms IN EXCLUSIVE MODE; SELECT 'held';\n")
            p.stdin.flush()
            while p.stdout.readline().strip() != "held":
                assert p.poll() is None, "psql ended before it held the lock"
            held.set()
            time.sleep(seconds)
            p.stdin.write("COMMIT;\n")
            p.stdin.close()
            p.wait(60)

    return Backend(url, hold_pg)


def _settings(url: str) -> Settings:
    return Settings(
        db_url=url,
        bot_delay=0.0,
        reveal_seconds=0.0,
        grace_period=1000.0,
        store_timeout=2.0,  # a hung write gives up; a loaded machine still answers
        store_retry=0.05,
    )


class Player:
    """Seat 0 of a room against a bot, driven directly (no WebSocket)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.sink = Sink(0)
        self.rng = random.Random(room.id)
        self.n = 0
        self.acked: list[str] = []

    async def setup(self) -> None:
        r, s = self.room, self.sink
        await r.submit(lambda: r.connect(s, None, None, None))
        await r.submit(lambda: r.handle(s, "add_bot", AddBotMsg(level="random")))
        await r.submit(lambda: r.handle(s, "start", EmptyMsg()))

    async def my_turn(self) -> None:
        """Wait for seat 0's turn, offering a rematch when a game is over (a bounded loop: a
        rematch refused while the store is failing is simply offered again)."""
        r = self.room

        def ready() -> bool:
            return r.status == "finished" or (
                r.state is not None and r.state.current_player == 0 and r._queue.empty()
            )

        async def nothing() -> None:
            return None

        for _ in range(200):
            await eventually(ready)
            # The command that made it seat 0's turn may still be writing (its events are in
            # memory before they are committed, and a fault set now would hit that write):
            # a no-op command runs only once it is done.
            await r.submit(nothing)
            if not ready():
                continue
            if r.status != "finished":
                return
            await r.submit(lambda: r.handle(self.sink, "rematch", EmptyMsg()))
            await asyncio.sleep(0.01)
        raise AssertionError("no turn of seat 0 after 200 rematches")

    async def settle(self) -> None:
        """Wait until the room rests on seat 0's turn with no command running."""
        await self.my_turn()

    async def move(self, ref: str | None = None, action: int | None = None) -> dict[str, Any]:
        """Send a move (a new one, or ``ref`` again); returns the reply frame."""
        await self.my_turn()
        r = self.room
        assert r.state is not None
        if ref is None:
            self.n += 1
            ref = f"{r.id}-m{self.n}"
        if action is None:
            action = self.rng.choice(list(r.state.legal_actions()))
        msg = ActionMsg(action=action, id=ref)
        await r.submit(lambda: r.handle(self.sink, "action", msg))
        reply = [f for f in self.sink.frames if f["data"].get("reply_to") == ref][-1]
        if reply["type"] == "update":
            self.acked.append(ref)
        return reply


async def _check_log(store: FaultyStore, settings: Settings, room: Room, acked: list[str]) -> None:
    """No gap, every acknowledged move once, memory == the replay of the log."""
    events = await store.events(room.id)
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    ids = [d.get("id") for _, k, d in events if k == "action" and d.get("id")]
    for ref in acked:
        assert ids.count(ref) == 1, [(q, d) for q, k, d in events if d.get("id") == ref]
    await assert_replays(store, settings, room)


async def _faults(url: str) -> None:
    settings = _settings(url)
    async with running_manager(settings) as (store, manager):
        a = Player((await manager.create(CreateRoomBody(preset="classic", name="ann")))[0])
        b = Player((await manager.create(CreateRoomBody(preset="classic", name="bea")))[0])
        for p in (a, b):
            await p.setup()
            for _ in range(3):
                assert (await p.move())["type"] == "update"
        room = a.room

        # 1. writes fail: the move is refused, nothing changes, the room pauses
        await a.my_turn()
        before = room.value
        store.faults.set("fail", {room.id})
        reply = await a.move()
        assert reply["data"]["code"] == "store_unavailable"
        assert room.paused and a.sink.errors("store_unavailable")
        assert room.value is before  # the old value is kept: nothing to undo
        seq = room.seq
        for _ in range(3):  # other rooms keep playing
            assert (await b.move())["type"] == "update"
        await asyncio.sleep(0.2)
        assert room.seq == seq and room.paused  # no bot, no timer moved the paused room
        again = await a.move(ref="refused-while-paused")
        assert again["data"]["code"] == "store_unavailable"
        store.faults.clear()
        await eventually(lambda: not room.paused)
        assert any(
            ev.get("code") == "store_ok"
            for f in a.sink.frames
            for ev in f["data"].get("events", [])
        )
        assert (await a.move(ref=f"{room.id}-m{a.n}"))["type"] == "update"  # sent again: applied

        # 2. a write that hangs: store_timeout gives up, then the room resumes
        await a.my_turn()
        store.faults.set("hang", {room.id})
        rep = await a.move()
        assert rep["data"]["code"] == "store_unavailable", (
            rep,
            room.state.current_player,
            room.seq,
        )
        store.faults.clear()
        await eventually(lambda: not room.paused)
        for _ in range(2):
            assert (await a.move())["type"] == "update"

        # 3. committed, then failed: the room learns it from the log when it resumes
        await a.my_turn()
        seq = room.seq
        store.faults.set("fail_after", {room.id})
        ref = "committed-anyway"
        assert (await a.move(ref=ref))["data"]["code"] == "store_unavailable"
        assert room.seq == seq
        store.faults.clear()
        await eventually(lambda: not room.paused)
        assert room.seq > seq and (0, ref) in room.value.action_ids
        a.acked.append(ref)
        got = [ev for f in a.sink.frames for ev in f["data"].get("events", [])]
        assert any(ev.get("seq") == seq + 1 for ev in got)  # the client got the event
        for _ in range(3):
            assert (await a.move())["type"] == "update"
        for _ in range(2):
            assert (await b.move())["type"] == "update"
        for p in (a, b):
            await p.settle()
            await _check_log(store, settings, p.room, p.acked)
    # and the server starts again from that log, every room whole
    async with running_manager(settings) as (store, manager):
        assert manager.broken == {} and len(manager.rooms) == 2


def test_store_faults_pause_and_resume(backend: Backend) -> None:
    asyncio.run(_faults(backend.url))


async def _bid_turn(a: Player) -> int:
    """Play on to a turn of seat 0 where a bid is legal (a bid never ends the game)."""
    room = a.room
    for _ in range(50):
        await a.my_turn()
        assert room.state is not None and room.game is not None
        bids = [x for x in room.state.legal_actions() if room.game.action_bid(x) is not None]
        if bids:
            return min(bids)
        assert (await a.move())["type"] == "update"
    raise AssertionError("no bid turn in 50 moves")


async def _locked(backend: Backend) -> None:
    settings = dataclasses.replace(_settings(backend.url), store_timeout=1.0)
    loop = asyncio.get_running_loop()
    async with running_manager(settings) as (store, manager):
        a = Player((await manager.create(CreateRoomBody(preset="classic", name="ann")))[0])
        await a.setup()
        for _ in range(3):
            assert (await a.move())["type"] == "update"
        room = a.room
        # 1. Another connection holds the write lock for less than the store timeout: the
        # move waits for the lock and is written once; the room never pauses.
        action = await _bid_turn(a)
        held = threading.Event()
        holder = loop.run_in_executor(None, backend.hold_lock, 0.3, held)
        assert await loop.run_in_executor(None, held.wait, 30)
        reply = await a.move(ref="under-lock", action=action)
        await holder
        assert reply["type"] == "update" and not room.paused
        assert a.acked.count("under-lock") == 1
        # 2. Held past the store timeout: the move is refused and the room pauses, but the
        # write is still queued and commits when the lock goes. The probe's own write queues
        # behind it, so the room resumes with that move folded in; the client's resend (same
        # id, same move) is acknowledged and not applied again.
        for i in range(3):
            action = await _bid_turn(a)
            seq = room.seq
            held = threading.Event()
            holder = loop.run_in_executor(None, backend.hold_lock, 1.6 + 0.2 * i, held)
            assert await loop.run_in_executor(None, held.wait, 30)
            ref = f"late-{i}"
            reply = await a.move(ref=ref, action=action)
            assert reply["data"]["code"] == "store_unavailable" and room.paused
            assert room.seq == seq
            await holder
            await eventually(lambda: not room.paused)
            assert room.seq > seq and (0, ref) in room.value.action_ids
            msg = ActionMsg(action=action, id=ref)
            await room.submit(lambda msg=msg: room.handle(a.sink, "action", msg))
            again = [f for f in a.sink.frames if f["data"].get("reply_to") == ref][-1]
            assert again["type"] == "update" and again["data"]["events"] == []
            a.acked.append(ref)
        for _ in range(3):
            assert (await a.move())["type"] == "update"
        await a.settle()
        await _check_log(store, settings, room, a.acked)


@pytest.mark.slow
def test_database_locked_by_another_connection(backend: Backend) -> None:
    asyncio.run(_locked(backend))


def _msg(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "version": 1, "data": data}


def test_broken_log_is_quarantined(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", bot_delay=0.0)
    rooms: dict[str, str] = {}
    with TestClient(create_app(settings)) as c:
        for name in ("bad", "gap", "good"):
            r = c.post("/api/rooms", json={"preset": "classic", "name": name})
            assert r.status_code == 201
            rooms[name] = r.json()["room"]
            with c.websocket_connect(f"/ws/rooms/{rooms[name]}") as ws:
                ws.send_json(_msg("hello", token=r.json()["token"]))
                ws.receive_json(), ws.receive_json()
                ws.send_json(_msg("add_bot", level="random", id="b"))
                while ws.receive_json()["data"].get("reply_to") != "b":
                    pass
    con = sqlite3.connect(tmp_path / "b.db")
    with con:
        (last,) = con.execute("SELECT max(seq) FROM events WHERE room_id=?", (rooms["bad"],))
        con.execute(
            "INSERT INTO events (room_id, seq, kind, data, created_at) VALUES (?, ?, ?, ?, ?)",
            (rooms["bad"], last[0] + 1, "action", '{"seat":0,"action":999999}', "2025-01-01"),
        )
        con.execute("DELETE FROM events WHERE room_id=? AND seq=2", (rooms["gap"],))
    con.close()
    with TestClient(create_app(settings)) as c:  # the server starts
        manager = c.app.state.manager  # type: ignore[attr-defined]
        assert set(manager.broken) == {rooms["bad"], rooms["gap"]}
        assert all(manager.broken.values())
        assert c.get(f"/api/rooms/{rooms['bad']}").status_code == 404
        good = rooms["good"]
        assert c.get(f"/api/rooms/{good}").status_code == 200
        tok = c.post(f"/api/rooms/{good}/join", json={"name": "zed"}).json()["token"]
        assert tok
        r = c.post("/api/rooms", json={"preset": "classic", "name": "new"})
        assert r.status_code == 201


def test_giving_up_on_a_write_cancels_nothing() -> None:
    """``within`` gives up on a slow write without cancelling it (it still reaches the store)
    or the caller; a stray cancellation of a room's owner task does not end the room."""
    from liarsdice.server.room.actor import within

    async def run() -> None:
        done: list[str] = []

        async def slow_write() -> str:
            await asyncio.sleep(0.2)
            done.append("written")
            return "ok"

        try:
            await within(slow_write(), 0.05)
        except TimeoutError:
            pass
        else:
            raise AssertionError("no timeout")
        await asyncio.sleep(0.3)  # the caller was not cancelled, and the write went on
        assert done == ["written"]
        assert await within(slow_write(), 1.0) == "ok"

        settings = Settings(db_url="sqlite+aiosqlite:///:memory:")
        room = Room("r", settings, FaultyStore(settings.db_url))
        room.start()
        assert room._task is not None
        await asyncio.sleep(0.01)  # the owner task waits for its first command
        room._task.cancel()  # nobody stops the room: this cancellation is a stray one
        await asyncio.sleep(0.01)

        async def answer() -> int:
            return 42

        assert await asyncio.wait_for(room.submit(answer), 1.0) == 42
        await room.stop()
        assert room._task.done()

    asyncio.run(run())
