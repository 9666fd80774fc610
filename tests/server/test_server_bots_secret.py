"""Bots draw their random numbers from a per-room server secret, never from public values."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from liarsdice.families.base import Family
from liarsdice.server.config import Settings
from liarsdice.server.protocol import AddBotMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.room import RoomManager
from liarsdice.server.store import Store
from server_util import Sink


async def _game(tmp: Path, made: list[tuple[Any, ...]], frames: list[str]) -> tuple[str, str]:
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp / 's.db'}",
        bot_delay=0.0,
        grace_period=0.01,
        frame_hook=lambda _r, _s, out, _st: frames.append(repr(out)),
    )
    store = Store(settings.db_url)
    await store.start()
    manager = RoomManager(settings, store)
    await manager.start()
    try:
        room, _, _ = await manager.create(CreateRoomBody(preset="classic", name="ann"))
        ann, spec = Sink(0), Sink(-1)
        for s in (ann, spec):
            await room.submit(lambda s=s: room.connect(s, None, None, None))
        await room.submit(lambda: room.handle(ann, "add_bot", AddBotMsg(level="random")))
        await room.submit(lambda: room.handle(ann, "start", EmptyMsg()))
        await room.submit(lambda: room.disconnect(ann))  # a bot plays ann's seat too
        for _ in range(2000):
            if room.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert room.status == "finished"
        return room.id, getattr(room, "secret", "no secret")
    finally:
        await manager.stop()
        await store.close()


def test_bot_rng_is_keyed_by_a_server_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[Any, ...]] = []
    frames: list[str] = []
    real = Family.make_bot

    def spy(self: Family, level: str, rng: random.Random, *args: Any, **kw: Any) -> Any:
        made.append(rng.getstate())
        return real(self, level, rng, *args, **kw)

    monkeypatch.setattr(Family, "make_bot", spy)
    room_id, secret = asyncio.run(_game(tmp_path, made, frames))
    # (the start asks each bot whether it can play the game, with a throwaway bot: not one
    # that plays)
    made = [m for m in made if m != random.Random(0).getstate()]
    assert len(made) == 2  # the bot's seat and ann's (taken over)
    # Whatever public values a spectator could combine, the rng is none of theirs.
    public = {
        random.Random(f"{room_id}:{g}:{seat}:{seq}").getstate()
        for g in (0, 1)
        for seat in (0, 1)
        for seq in range(0, 400)
    }
    assert not public & set(made)
    assert all(secret not in f for f in frames)  # never sent
    con = sqlite3.connect(tmp_path / "s.db")
    stored = con.execute("SELECT bot_secret FROM room_secrets WHERE room_id=?", (room_id,))
    assert [r[0] for r in stored] == [secret]
    for (data,) in con.execute("SELECT data FROM events WHERE room_id=?", (room_id,)):
        assert secret not in data
    con.close()


def test_the_secret_survives_a_restart(tmp_path: Path) -> None:
    async def run() -> None:
        frames: list[str] = []
        room_id, secret = await _game(tmp_path, [], frames)
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        await store.start()
        manager = RoomManager(Settings(db_url=store.url), store)
        await manager.start()
        try:
            room = manager.get(room_id)
            assert room is not None and room.secret == secret
        finally:
            await manager.stop()
            await store.close()

    asyncio.run(run())
