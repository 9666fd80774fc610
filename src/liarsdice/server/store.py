"""Persistence: an append-only event log per room in SQL (SQLAlchemy 2, async).

SQLite (WAL journal) is the default, ``sqlite+aiosqlite:///liarsdice.db``; PostgreSQL works by
URL (``postgresql+asyncpg://...``). The schema is created and upgraded by Alembic
(:mod:`liarsdice.server.migrations`) at startup.

The ``events`` table is the source of truth: rows are only ever inserted, one transaction per
command, *before* anything is sent to a client, so an acknowledged move is on disk. ``rooms``,
``seats`` and ``games`` are projections kept in the same transaction (for listing and for the
finished games' records); ``fair_seeds`` holds the secret server seeds until they are revealed.
On startup every room's events are folded through the rules core again
(:meth:`liarsdice.server.rooms.Room.fold`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

DEFAULT_DB_URL = "sqlite+aiosqlite:///liarsdice.db"

metadata = MetaData()

rooms_table = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("preset", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("level", String(16), nullable=True),
)

games_table = Table(
    "games",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("players", Text, nullable=False),
    Column("started_seq", Integer, nullable=False),
    Column("finished_seq", Integer, nullable=True),
    Column("record", Text, nullable=True),
)

events_table = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(32), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),
)

fair_seeds_table = Table(
    "fair_seeds",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)


@dataclass
class Batch:
    """Everything one command writes, in one transaction."""

    room_id: str
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    new_room: dict[str, Any] | None = None
    room_update: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    game_updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    seeds: list[tuple[int, str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.events or self.new_room or self.seeds)


@dataclass
class StoredRoom:
    """A room as loaded at startup: its events in order and its server seeds."""

    room_id: str
    events: list[tuple[int, str, dict[str, Any]]]
    seeds: dict[int, str]


def _now() -> datetime:
    return datetime.now(UTC)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _upgrade(conn: Connection) -> None:
    from liarsdice.server.migrations import upgrade_head

    upgrade_head(conn)


class Store:
    """The database: open with :meth:`start`, close with :meth:`close`."""

    def __init__(self, url: str = DEFAULT_DB_URL) -> None:
        self.url = url
        self.engine: AsyncEngine | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def start(self) -> None:
        """Connect, switch SQLite to WAL, and run the migrations up to head."""
        self.engine = create_async_engine(self.url)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("the store is not started")
        return self.engine

    async def write(self, batch: Batch) -> None:
        """Append a command's events (and projections) atomically."""
        if not batch:
            return
        now = _now()
        async with self._engine().begin() as conn:
            if batch.new_room is not None:
                row = dict(batch.new_room)
                row["options"] = json.dumps(row["options"])
                await conn.execute(
                    insert(rooms_table).values(
                        id=batch.room_id, created_at=now, updated_at=now, **row
                    )
                )
            for idx, seed, commit in batch.seeds:
                await conn.execute(
                    insert(fair_seeds_table).values(
                        room_id=batch.room_id, idx=idx, server_seed=seed, commitment=commit
                    )
                )
            if batch.events:
                await conn.execute(
                    insert(events_table),
                    [
                        {
                            "room_id": batch.room_id,
                            "seq": seq,
                            "kind": kind,
                            "data": json.dumps(data, separators=(",", ":")),
                            "created_at": now,
                        }
                        for seq, kind, data in batch.events
                    ],
                )
            for seat in batch.seats:
                await conn.execute(insert(seats_table).values(room_id=batch.room_id, **seat))
            for game in batch.games:
                await conn.execute(insert(games_table).values(room_id=batch.room_id, **game))
            for game_no, values in batch.game_updates:
                await conn.execute(
                    update(games_table)
                    .where(games_table.c.room_id == batch.room_id)
                    .where(games_table.c.game_no == game_no)
                    .values(**values)
                )
            if batch.room_update or batch.events:
                values = dict(batch.room_update)
                if batch.events:
                    values["seq"] = batch.events[-1][0]
                await conn.execute(
                    update(rooms_table)
                    .where(rooms_table.c.id == batch.room_id)
                    .values(updated_at=now, **values)
                )

    async def load(self) -> list[StoredRoom]:
        """Every room with its events (in order) and server seeds."""
        async with self._engine().connect() as conn:
            ids = [r[0] for r in await conn.execute(select(rooms_table.c.id))]
            rows = await conn.execute(
                select(
                    events_table.c.room_id,
                    events_table.c.seq,
                    events_table.c.kind,
                    events_table.c.data,
                ).order_by(events_table.c.room_id, events_table.c.seq)
            )
            events: dict[str, list[tuple[int, str, dict[str, Any]]]] = {i: [] for i in ids}
            for room_id, seq, kind, data in rows:
                events.setdefault(room_id, []).append((seq, kind, json.loads(data)))
            seeds: dict[str, dict[int, str]] = {}
            for room_id, idx, seed in await conn.execute(
                select(
                    fair_seeds_table.c.room_id,
                    fair_seeds_table.c.idx,
                    fair_seeds_table.c.server_seed,
                )
            ):
                seeds.setdefault(room_id, {})[idx] = seed
        return [StoredRoom(i, events[i], seeds.get(i, {})) for i in events]

    async def events(self, room_id: str) -> list[tuple[int, str, dict[str, Any]]]:
        """One room's event log, in order (for tests and audits)."""
        async with self._engine().connect() as conn:
            rows = await conn.execute(
                select(events_table.c.seq, events_table.c.kind, events_table.c.data)
                .where(events_table.c.room_id == room_id)
                .order_by(events_table.c.seq)
            )
            return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


__all__ = [
    "DEFAULT_DB_URL",
    "Batch",
    "Store",
    "StoredRoom",
    "events_table",
    "fair_seeds_table",
    "games_table",
    "metadata",
    "rooms_table",
    "seats_table",
]
