"""The room as a value (issue 21): ``fold`` and ``decide`` are pure, the dice are drawn once,
memory and startup do not grow with the games played, seats that never connect go away, the
host can lock the room or ban a squatter, and a paused room resumes only when a real write
fits."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, select, update

from liarsdice.server import fair
from liarsdice.server.config import Limits
from liarsdice.server.faults import sqlite_cap
from liarsdice.server.protocol import (
    ActionMsg,
    AddBotMsg,
    ChatMsg,
    CreateRoomBody,
    StartMsg,
)
from liarsdice.server.room import CommandError, Room, RoomState, decide, fold
from liarsdice.server.room.actor import RECORDS_KEPT
from liarsdice.server.room.commands import CreateRoom, Join
from liarsdice.server.room.state import GAMES_LISTED
from liarsdice.server.schema import events_table, room_snapshots_table
from server_util import (
    Fixed,
    Sink,
    assert_replays,
    client,
    create,
    hello,
    join,
    msg,
    room_manager,
    until,
)


def _room_with(names: list[str], entropy: Fixed) -> RoomState:
    state = RoomState(room_id="r")
    body = CreateRoomBody(preset="classic", options={"dice": 2}, name=names[0])
    for m in [CreateRoom(body), *(Join(n) for n in names[1:])]:
        d = decide(state, -1, m, entropy)
        assert not isinstance(d, CommandError)
        state = d.after
    return state


def test_decide_and_fold_are_pure_and_replay() -> None:
    state = _room_with(["ann", "bob"], Fixed())
    before = state.facts()
    d = decide(state, 0, StartMsg(), Fixed())
    assert not isinstance(d, CommandError)
    assert state.facts() == before  # the old value is untouched: rollback is keeping it
    assert d.after.status == "playing" and d.after.seq == state.seq + len(d.events)
    again = state
    for ev in d.events:
        again = fold(again, ev)
    assert again.facts() == replace(d.after, seeds=again.seeds).facts()
    # a refused command is a value too: no events, nothing changed
    refused = decide(d.after, 1, StartMsg(), Fixed())
    assert isinstance(refused, CommandError) and refused.code == "not_host"
    idle = 1 - d.after.state.current_player
    wrong = decide(d.after, idle, ActionMsg(action=0), Fixed())
    assert isinstance(wrong, CommandError) and wrong.code == "not_your_turn"


def test_the_dice_are_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = fair.draw_at

    def counting(*args: Any) -> Any:
        calls.append(args[-1])
        return real(*args)

    monkeypatch.setattr(fair, "draw_at", counting)
    state = _room_with(["ann", "bob", "cy"], Fixed())
    rng = random.Random(3)
    d = decide(state, 0, StartMsg(), Fixed())
    assert not isinstance(d, CommandError)
    events = list(d.events)
    state = d.after
    while state.status == "playing":
        seat = state.state.current_player
        d = decide(state, seat, ActionMsg(action=rng.choice(state.state.legal_actions())))
        assert not isinstance(d, CommandError)
        events += d.events
        state = d.after
    draws = sum(1 for e in events if e.kind == "chance")
    draws += sum(1 for e in events if e.kind == "game_started" and e.data.get("opener_draw"))
    assert draws > 10 and len(calls) == draws  # every die drawn once, in decide, not in fold
    assert all("at" in e.data for e in events if e.kind == "chance")


async def _play_games(room: Room, ann: Sink, games: int, rng: random.Random) -> None:
    await room.submit(lambda: room.handle(ann, "start", StartMsg()))
    for g in range(games):
        while room.status == "playing":
            st = room.state
            if st.current_player != 0:
                await asyncio.sleep(0.002)  # the bot's move
                continue
            move = ActionMsg(action=rng.choice(st.legal_actions()))
            await room.submit(lambda m=move: room.handle(ann, "action", m))
        if g + 1 < games:
            await room.submit(lambda: room.handle(ann, "rematch", StartMsg()))


async def _many_games(tmp: Path) -> None:
    games = GAMES_LISTED + 5
    async with room_manager(tmp) as (store, manager):
        body = CreateRoomBody(preset="classic", options={"dice": 1}, name="ann")
        room, _, _ = await manager.create(body)
        ann = Sink(0)
        await room.submit(lambda: room.connect(ann, None, None, None))
        await room.submit(lambda: room.handle(ann, "add_bot", AddBotMsg(level="random")))
        await _play_games(room, ann, games, random.Random(5))
        assert room.value.game_no == games
        # memory: the latest few records, not every game's
        assert len(room.records) <= RECORDS_KEPT
        # frames: the latest GAMES_LISTED games' numbers, not every game's
        listed = ann.frames[-1]["data"]["room"]["games"]
        assert listed == list(range(games - GAMES_LISTED + 1, games + 1))
        first = await manager.record(room.id, 1)  # an old record: from the store
        assert first is not None and first["rounds"]
        await assert_replays(store, manager.settings, room)
        total = len(await store.events(room.id))
        seq, rid = room.seq, room.id
    # startup reads the room from its latest snapshot, not its whole history
    async with room_manager(tmp) as (store, manager):
        (stored,) = [r for r in await store.load() if r.room_id == rid]
        assert stored.snapshot is not None and len(stored.events) < total / 5
        again = manager.get(rid)
        assert again is not None and again.seq == seq and again.value.game_no == games
        assert await manager.record(rid, 1) == first
        facts = again.value.facts()
        assert store.engine is not None
        async with store.engine.begin() as conn:  # a database from before snapshots ...
            await conn.execute(delete(room_snapshots_table))
            rows = await conn.execute(select(events_table.c.id, events_table.c.data))
            for row_id, data in list(rows):  # ... and before events carried the dice cursor
                old = {k: v for k, v in json.loads(data).items() if k != "at"}
                await conn.execute(
                    update(events_table)
                    .where(events_table.c.id == row_id)
                    .values(data=json.dumps(old))
                )
    async with room_manager(tmp) as (store, manager):  # replays the whole log, stores a snapshot
        legacy = manager.get(rid)
        assert legacy is not None and legacy.value.facts() == facts
    async with room_manager(tmp) as (store, manager):  # ... which the next start reads from
        (stored,) = [r for r in await store.load() if r.room_id == rid]
        assert stored.snapshot is not None and len(stored.events) < total / 5
        again = manager.get(rid)
        assert again is not None and again.value.facts() == facts


def test_memory_frames_and_startup_do_not_grow_with_games(tmp_path: Path) -> None:
    asyncio.run(_many_games(tmp_path))


def test_a_seat_that_never_connects_goes_away_and_a_bot_plays_it(tmp_path: Path) -> None:
    with client(tmp_path, grace_period=0.2) as c:
        room = create(c, "ann", options={"dice": 1})
        join(c, room["room"], "squatter")  # joins over HTTP, never connects
        with c.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            hello(ws, room["token"])
            note = until(
                ws,
                lambda f: any(
                    e.get("kind") == "presence" and e.get("seat") == 1 and e.get("away")
                    for e in f["data"].get("events", [])
                ),
            )
            assert note["type"] == "update"
            ws.send_json(msg("start", id="go"))
            # the squatter's turns are played for it: the game does not wait at its turn
            # (ann plays her own: the first legal move each time)
            for _ in range(500):
                f = ws.receive_json()
                events = f["data"].get("events", [])
                if any(e.get("kind") == "action" and e.get("seat") == 1 for e in events):
                    assert all(e.get("auto") for e in events if e.get("seat") == 1)
                    break
                view = f["data"].get("view") or {}
                if f["type"] == "update" and view.get("to_move") == 0 and view.get("legal"):
                    ws.send_json(msg("action", action=view["legal"][0]["action"]))
            else:
                raise AssertionError("the squatter's seat never moved")


def test_the_host_locks_the_room_and_bans_a_squatter(tmp_path: Path) -> None:
    with client(tmp_path, Limits(joins_per_ip=100)) as c:  # (joins from one test address)
        room = create(c, "ann")
        rid = room["room"]
        join(c, rid, "squat")
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, room["token"])
            ws.send_json(msg("ban", seat=1, id="ban"))
            reply = until(ws, lambda f: f["data"].get("reply_to") == "ban")
            assert reply["type"] == "update" and [
                s["name"] for s in reply["data"]["room"]["seats"]
            ] == ["ann"]
            for name in ("squat", "SQUAT", "squаt"):  # and look-alikes
                r = c.post(f"/api/rooms/{rid}/join", json={"name": name})
                assert r.status_code == 403 and r.json()["data"]["code"] == "banned", name
            ws.send_json(msg("lock", locked=True, id="lock"))
            reply = until(ws, lambda f: f["data"].get("reply_to") == "lock")
            assert reply["data"]["room"]["locked"] is True
            r = c.post(f"/api/rooms/{rid}/join", json={"name": "bob"})
            assert r.status_code == 403 and r.json()["data"]["code"] == "room_locked"
            ws.send_json(msg("lock", locked=False, id="open"))
            until(ws, lambda f: f["data"].get("reply_to") == "open")
            assert c.post(f"/api/rooms/{rid}/join", json={"name": "bob"}).status_code == 201
            # only the host
            bob = join(c, rid, "cy")
            with c.websocket_connect(f"/ws/rooms/{rid}") as ws2:
                hello(ws2, bob["token"])
                ws2.send_json(msg("lock", id="no"))
                reply = until(ws2, lambda f: f["data"].get("reply_to") == "no")
                assert reply["data"]["code"] == "not_host"


async def _nearly_full(tmp: Path) -> None:
    async with room_manager(tmp, store_retry=0.05, store_timeout=2.0) as (store, manager):
        room, _, _ = await manager.create(CreateRoomBody(name="ann"))
        ann = Sink(0)
        await room.submit(lambda: room.connect(ann, None, None, None))
        await sqlite_cap(store, spare_bytes=8 * 1024)  # a disk with a few pages left
        for i in range(400):  # real writes fill it
            await room.submit(lambda i=i: room.handle(ann, "chat", ChatMsg(text="x" * 190)))
            if room.paused:
                break
        assert room.paused
        resumed = lambda: [  # noqa: E731
            e
            for f in ann.frames
            for e in f["data"].get("events", [])
            if e.get("code") == "store_ok"
        ]
        await asyncio.sleep(1.0)  # many probe periods: a tiny write would fit, a real one not
        assert room.paused and not resumed()
        await sqlite_cap(store, spare_bytes=None)  # space again
        for _ in range(300):
            if not room.paused:
                break
            await asyncio.sleep(0.02)
        assert not room.paused and len(resumed()) == 1
        await room.submit(lambda: room.handle(ann, "chat", ChatMsg(text="back")))
        assert ann.frames[-1]["type"] == "update"
        await assert_replays(store, manager.settings, room)


def test_a_paused_room_resumes_only_when_a_real_write_fits(tmp_path: Path) -> None:
    asyncio.run(_nearly_full(tmp_path))


def test_a_broadcast_frame_is_the_json_of_its_dict() -> None:
    """Frames are spliced from texts encoded once per update: each is exactly what
    ``json.dumps`` makes of the frame's dict (non-ASCII and ``reply_to`` included)."""
    from liarsdice.server.views import Broadcast, Live

    state = _room_with(["ann", "bob", "cy"], Fixed())
    d = decide(state, 0, StartMsg(), Fixed())
    assert not isinstance(d, CommandError)
    live = Live(((True, False), (False, True), (True, False)), 2, (1, 5.5), (None, 7, None))
    out = Broadcast(d.after, live, state.seq, d.events, ({"kind": "notice", "note": "é"},), 9.0)
    for seat in (0, 1, 2, -1):
        for frame in (out.frame(seat), out.frame(seat, reply_to="r1")):
            assert frame.text == json.dumps(frame, separators=(",", ":"))
            assert frame.size == len(frame.text.encode())
    assert out.frame(-1) is out.frame(-1)  # one frame per viewer, shared by its connections


async def _start_of_unknown_outcome(tmp: Path) -> None:
    async with room_manager(tmp, store_retry=0.05) as (store, manager):
        room, _, _ = await manager.create(CreateRoomBody(name="ann"))
        ann = Sink(0)
        await room.submit(lambda: room.connect(ann, None, None, None))
        await room.submit(lambda: room.handle(ann, "add_bot", AddBotMsg(level="random")))
        seq = room.seq
        store.faults.set("fail_after", {room.id})  # committed (with a snapshot), then failed
        await room.submit(lambda: room.handle(ann, "start", StartMsg()))
        assert room.paused and room.seq == seq
        store.faults.clear()
        for _ in range(300):
            if not room.paused:
                break
            await asyncio.sleep(0.02)
        # the probe folded the committed start: from the events after the room's own seq,
        # not from the snapshot that start wrote
        assert not room.paused and room.status in ("playing", "finished") and room.seq > seq
        await assert_replays(store, manager.settings, room)


def test_a_start_committed_while_the_room_gave_up_is_folded_on_resume(tmp_path: Path) -> None:
    asyncio.run(_start_of_unknown_outcome(tmp_path))


async def _stopped_with_work_queued(tmp: Path) -> None:
    async with room_manager(tmp) as (_store, manager):
        body = CreateRoomBody(preset="classic", options={"dice": 1}, name="ann")
        room, _, _ = await manager.create(body)
        gate = asyncio.Event()
        ran: list[str] = []
        moved: list[str] = []

        async def blocker() -> None:
            ran.append("blocker")
            await gate.wait()

        async def later(name: str) -> None:
            ran.append(name)

        running = asyncio.ensure_future(room.submit(blocker))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(room.submit(lambda: later("submitted")))
        room.post(later, "posted", moved=lambda: moved.append("posted"))
        await asyncio.sleep(0.01)
        assert ran == ["blocker"]
        await manager.unload(room)  # (a cluster's node handing the room over, or losing it)
        for fut in (running, waiting):
            with pytest.raises(CommandError) as err:
                await fut
            assert err.value.code == "moved"  # refused, never left waiting for ever
        assert moved == ["posted"] and ran == ["blocker"]  # told, not run, not dropped
        room.post(later, "too late", moved=lambda: moved.append("too late"))
        assert moved == ["posted", "too late"]


def test_a_stopped_room_refuses_what_it_had_queued(tmp_path: Path) -> None:
    """Work queued on a room that stops (unloaded, handed to another node) is refused with
    ``moved``: a caller waiting on it is answered, a posted message's sender is told, so a
    cluster's node can send a relayed message on to the room's next owner."""
    asyncio.run(_stopped_with_work_queued(tmp_path))
