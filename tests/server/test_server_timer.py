"""The turn timer (issue 11, bugs 1 and 2): a timeout plays that one move for the player; only
repeated timeouts mark the seat away (then a bot plays until the player sends anything); the
frames carry the deadline, and reconnecting or chatting never restarts a countdown."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from liarsdice.server.config import Settings
from liarsdice.server.protocol import AddBotMsg, ChatMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.room import Room, RoomManager
from liarsdice.server.store import Store
from server_util import Sink, async_test, eventually

TIMER = 0.3  # the protocol's floor is 5 s; the room's own value is set directly


@asynccontextmanager
async def _room(tmp: Path, **settings: Any) -> AsyncIterator[tuple[Room, Sink]]:
    """ann (seat 0) against a prob bot, a short turn timer, the game started."""
    cfg = Settings(db_url=f"sqlite+aiosqlite:///{tmp / 't.db'}", bot_delay=0.0, reveal_seconds=0.0)
    cfg = dataclasses.replace(cfg, **settings)
    store = Store(cfg.db_url)
    await store.start()
    manager = RoomManager(cfg, store)
    try:
        body = CreateRoomBody(preset="classic", options={"dice": 5}, name="ann")
        room, _, _ = await manager.create(body)
        ann = Sink(0)
        await room.submit(lambda: room.connect(ann, None, None, None))
        await room.submit(lambda: room.handle(ann, "add_bot", AddBotMsg(level="prob")))
        room.value = dataclasses.replace(room.value, turn_timer=TIMER)  # under the 5 s minimum
        await room.submit(lambda: room.handle(ann, "start", EmptyMsg()))
        yield room, ann
    finally:
        await manager.stop()
        await store.close()


def _auto_moves(ann: Sink) -> list[dict[str, Any]]:
    return [
        ev
        for ev in ann.events()
        if ev.get("kind") == "action" and ev.get("seat") == 0 and ev.get("auto")
    ]


async def _ann_to_move(room: Room, ann: Sink) -> None:
    """Wait for ann's turn (a rematch when a quick game is over first)."""
    for _ in range(10):
        await eventually(
            lambda: (
                room.status == "finished"
                or (
                    room.state is not None
                    and room.state.current_player == 0
                    and room.deadline is not None
                    and room._queue.empty()
                )
            )
        )
        if room.status != "finished":
            return
        await room.submit(lambda: room.handle(ann, "rematch", EmptyMsg()))
    raise AssertionError("ten games without a turn of ann's")


@async_test
async def test_one_timeout_plays_one_move_and_keeps_the_seat(tmp_path: Path) -> None:
    async with _room(tmp_path) as (room, ann):
        await _ann_to_move(room, ann)
        frame = ann.frames[-1]["data"]
        timer = frame["room"]["timer"]
        assert timer["seat"] == 0 and timer["seconds"] == TIMER
        assert 0 < timer["deadline"] - frame["now"] <= TIMER + 0.01  # a countdown to show
        # ann lets the timer run out once: that one move is played for her
        await eventually(lambda: len(_auto_moves(ann)) == 1)
        (ev,) = _auto_moves(ann)
        assert ev["timeout"] is True
        assert not room.presence[0].away  # still her seat
        assert not [e for e in ann.events() if e.get("note") == "turn_timer"]
        # her next turn: she moves herself (any message resets the count)
        await _ann_to_move(room, ann)
        await room.submit(lambda: room.handle(ann, "chat", ChatMsg(text="sorry, I'm here")))
        await _ann_to_move(room, ann)
        st = room.state
        assert st is not None
        # ... and a second single timeout is again one move, not a takeover
        await eventually(lambda: len(_auto_moves(ann)) == 2)
        assert not room.presence[0].away


@async_test
async def test_two_timeouts_in_a_row_mark_the_seat_away_until_back(tmp_path: Path) -> None:
    async with _room(tmp_path) as (room, ann):
        # ann never moves: two timeouts in a row hand her seat to a bot
        for _ in range(20):
            await eventually(lambda: room.presence[0].away or room.status == "finished")
            if room.presence[0].away:
                break
            await room.submit(lambda: room.handle(ann, "rematch", EmptyMsg()))
        assert room.presence[0].away
        notes = [ev.get("note") for ev in ann.events() if ev.get("kind") == "presence"]
        assert "turn_timer" in notes
        timed_out = [e for e in _auto_moves(ann) if e.get("timeout")]
        assert timed_out and all(e["auto"] for e in timed_out)
        if room.status == "playing":
            # "I'm back" ends the takeover at once: no bot plays her seat again
            await room.submit(lambda: room.handle(ann, "back", EmptyMsg()))
            assert not room.presence[0].away
            await _ann_to_move(room, ann)
            before = len(_auto_moves(ann))
            await asyncio.sleep(TIMER / 2)
            assert len(_auto_moves(ann)) == before
            assert room.deadline is not None and room.deadline[0] == 0


@async_test
async def test_reconnecting_or_chatting_never_restarts_the_countdown(tmp_path: Path) -> None:
    async with _room(tmp_path) as (room, ann):
        await _ann_to_move(room, ann)
        assert room.deadline is not None
        first = room.deadline
        await asyncio.sleep(TIMER / 3)
        tab = Sink(0)  # another tab of ann connects, and ann chats: the deadline stays
        await room.submit(lambda: room.connect(tab, room.seq, None, None))
        await room.submit(lambda: room.handle(tab, "chat", ChatMsg(text="hi")))
        assert room.deadline == first
        assert tab.frames[1]["data"]["room"]["timer"]["deadline"] == round(first[1], 3)
