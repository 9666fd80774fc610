"""The server's store on a real PostgreSQL server: migrations, bot games to the end, records,
and a restart that rebuilds every room from the log (the same checks as on SQLite)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from liarsdice.families import replay_record
from liarsdice.server.config import Settings
from liarsdice.server.protocol import AddBotMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.room import RoomManager
from liarsdice.server.store import Store
from pg_util import Cluster
from server_util import Sink

pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")


async def _play_rooms(url: str, games: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Create one room a game, play it out with bots; returns each room's state and record."""
    settings = Settings(db_url=url, bot_delay=0.0, grace_period=0.0)
    store = Store(url)
    await store.start()
    manager = RoomManager(settings, store)
    out: dict[str, Any] = {}
    try:
        for preset, options in games:
            room, _, _ = await manager.create(
                CreateRoomBody(preset=preset, options=options, name="host")
            )
            host = Sink(0)
            await room.submit(lambda r=room, h=host: r.connect(h, None, None, None))
            for level in ("random", "prob"):
                await room.submit(
                    lambda r=room, h=host, lv=level: r.handle(h, "add_bot", AddBotMsg(level=lv))
                )
            await room.submit(lambda r=room, h=host: r.handle(h, "start", EmptyMsg()))
            await room.submit(lambda r=room, h=host: r.disconnect(h))  # a bot takes the seat
            for _ in range(4000):
                if room.status == "finished" and room.records.get(1):
                    break
                await asyncio.sleep(0.005)
            assert room.status == "finished"
            out[room.id] = (room.seq, room.state.history(), room.records[1])
    finally:
        await manager.stop()
        await store.close()
    return out


async def _reload(url: str) -> dict[str, Any]:
    settings = Settings(db_url=url, bot_delay=0.0)
    store = Store(url)
    await store.start()
    manager = RoomManager(settings, store)
    await manager.start()
    try:
        return {  # (records are read from the store on demand after a restart)
            rid: (
                room.seq,
                room.state.history() if room.state else None,
                await manager.record(rid, 1),
            )
            for rid, room in manager.rooms.items()
        }
    finally:
        await manager.stop()
        await store.close()


def test_games_on_postgres_survive_a_restart(pg_url: str, pg_cluster: Cluster) -> None:
    games = [("classic", {"dice": 2}), ("poker-dice", {"lives": 1}), ("spot-on", {"dice": 2})]
    played = asyncio.run(_play_rooms(pg_url, games))
    database = pg_url.rsplit("/", 1)[1]
    # the schema came from the migrations, and the log is complete and gap-free
    assert pg_cluster.psql("SELECT version_num FROM alembic_version", database)
    for rid, (seq, history, record) in played.items():
        seqs = pg_cluster.psql(
            f"SELECT seq FROM events WHERE room_id = '{rid}' ORDER BY seq", database
        )
        assert [int(s) for s in seqs.split()] == list(range(1, seq + 1))
        assert replay_record(record).history() == history
    # a new server on the same database rebuilds every room exactly
    assert asyncio.run(_reload(pg_url)) == played
