"""Fencing a room's writes (several nodes on one database): ``room_leases`` (migration 0006),
:meth:`Store.take_lease` and ``Batch.epoch``, on SQLite and on a real PostgreSQL server.

A node takes a room by raising its fence to a new epoch; a batch carrying an epoch commits only
while the fence holds exactly that epoch, so an old owner (paused, partitioned) can never
write. On PostgreSQL ``take_lease`` waits for the old owner's write transactions that have read
the fence, so once it returns their writes are either in the log or refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from liarsdice.server import store as store_module
from liarsdice.server.schema import room_leases_table, rooms_table
from liarsdice.server.store import Batch, Fenced, Store, _now, _write_group

ROOM = {"preset": "classic", "options": {}, "status": "lobby", "game_no": 0, "seq": 0}


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or a database of the throwaway PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'fence.db'}"
    pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")
    url: str = request.getfixturevalue("pg_url")
    return url


def _run(url: str, body: Callable[[Store], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        store = Store(url)
        await store.start()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(main())


def _created(room_id: str, epoch: int | None) -> Batch:
    return Batch(room_id, [(1, "room_created", {"preset": "classic"})], dict(ROOM), epoch=epoch)


def _chat(room_id: str, seq: int, epoch: int | None) -> Batch:
    return Batch(room_id, [(seq, "chat", {"text": f"#{seq}"})], epoch=epoch)


async def _room_row(store: Store, room_id: str) -> tuple[Any, ...]:
    assert store.engine is not None
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                select(rooms_table.c.seq, rooms_table.c.updated_at).where(
                    rooms_table.c.id == room_id
                )
            )
        ).one()
    return tuple(row)


def test_take_lease_raises_the_fence_and_refuses_lower_or_equal(db_url: str) -> None:
    async def body(store: Store) -> None:
        assert await store.lease_epoch("r1") is None
        await store.take_lease("r1", 1, "node-a")
        assert await store.lease_epoch("r1") == 1
        for epoch in (1, 0):  # equal, lower: refused, nothing changed
            with pytest.raises(Fenced) as refused:
                await store.take_lease("r1", epoch, "node-b")
            assert (refused.value.room_id, refused.value.epoch) == ("r1", epoch)
            assert refused.value.current == 1
            assert isinstance(refused.value, RuntimeError)
        await store.take_lease("r1", 5, "node-b")  # epochs may skip
        await store.take_lease("r2", 1, "node-a")  # another room: a fence of its own
        assert (await store.lease_epoch("r1"), await store.lease_epoch("r2")) == (5, 1)
        assert store.engine is not None
        async with store.engine.connect() as conn:
            rows = await conn.execute(
                select(room_leases_table.c.room_id, room_leases_table.c.node).order_by(
                    room_leases_table.c.room_id
                )
            )
            assert rows.all() == [("r1", "node-b"), ("r2", "node-a")]

    _run(db_url, body)


def test_only_the_fences_epoch_writes(db_url: str) -> None:
    async def body(store: Store) -> None:
        await store.take_lease("r1", 1, "old")
        await store.write(_created("r1", 1))  # the current epoch commits
        await store.write(_chat("r1", 2, 1))
        await store.take_lease("r1", 2, "new")
        before = await _room_row(store, "r1")
        stale = _chat("r1", 3, 1)
        stale.room_update = {"status": "playing"}
        stale.snapshot = (3, {"stale": True})
        with pytest.raises(Fenced) as refused:
            await store.write(stale)  # the old owner: nothing written
        assert (refused.value.epoch, refused.value.current) == (1, 2)
        with pytest.raises(Fenced):
            await store.write(_chat("r1", 3, 3))  # a future epoch is not the fence either
        with pytest.raises(Fenced) as unleased:
            await store.write(_created("r2", 1))  # no lease at all: fenced when an epoch is set
        assert unleased.value.current is None
        assert [seq for seq, _, _ in await store.events("r1")] == [1, 2]
        assert await _room_row(store, "r1") == before
        assert await store.load_room("r2") is None
        loaded = await store.load_room("r1")
        assert loaded is not None and loaded.snapshot is None
        await store.write(_chat("r1", 3, 2))  # the new owner writes on
        assert [seq for seq, _, _ in await store.events("r1")] == [1, 2, 3]
        assert (await _room_row(store, "r1"))[0] == 3

    _run(db_url, body)


def test_a_fenced_batch_fails_alone_in_its_group(db_url: str) -> None:
    async def body(store: Store) -> None:
        for room_id in ("a", "b", "c"):
            await store.take_lease(room_id, 1, "old")
            await store.write(_created(room_id, 1))
        await store.take_lease("b", 2, "new")
        groups: list[list[str]] = []
        transaction = store._transaction

        async def spy(batches: list[Batch]) -> None:
            groups.append([b.room_id for b in batches])
            await transaction(batches)

        store._transaction = spy  # type: ignore[method-assign]
        results = await asyncio.gather(
            store.write(_chat("a", 2, 1)),
            store.write(_chat("b", 2, 1)),  # fenced: room b is at epoch 2 now
            store.write(_chat("c", 2, None)),  # no epoch: not checked
            store.write(_chat("a", 3, 1)),
            return_exceptions=True,
        )
        assert groups[0] == ["a", "b", "c", "a"]  # one group, then batch by batch
        assert groups[1:] == [["a"], ["b"], ["c"], ["a"]]
        assert results[0] is None and results[2] is None and results[3] is None
        assert isinstance(results[1], Fenced)
        assert [seq for seq, _, _ in await store.events("a")] == [1, 2, 3]
        assert [seq for seq, _, _ in await store.events("b")] == [1]
        assert [seq for seq, _, _ in await store.events("c")] == [1, 2]

    _run(db_url, body)


def test_batches_without_an_epoch_never_read_the_fence(tmp_path: Path) -> None:
    """The single-server default: no ``room_leases`` query, and no lease needed."""
    statements: list[str] = []

    async def body(store: Store) -> None:
        assert store._sync_engine is not None  # (a SQLite file: the writer's own connection)
        event.listen(
            store._sync_engine,
            "before_cursor_execute",
            lambda _c, _cur, sql, *_: statements.append(sql),
        )
        store._close_sync()
        store._open_sync()
        await store.write(_created("r1", None))
        await store.write(_chat("r1", 2, None))
        assert [seq for seq, _, _ in await store.events("r1")] == [1, 2]
        assert statements and not any("room_leases" in s for s in statements)
        await store.take_lease("r1", 1, "node")
        await store.write(_chat("r1", 3, 1))
        assert any("room_leases" in s for s in statements)

    _run(f"sqlite+aiosqlite:///{tmp_path / 'single.db'}", body)


def test_sqlite_reads_the_fence_again_under_the_write_lock(tmp_path: Path) -> None:
    """SQLite's driver begins a transaction at its first write, so a lease taken between the
    first read of the fence and the writes is caught by the read after them."""
    path = tmp_path / "race.db"

    async def body(store: Store) -> None:
        await store.take_lease("r1", 1, "old")
        await store.write(_created("r1", 1))
        assert store._sync_engine is not None
        taken: list[bool] = []

        def new_owner(_c: Any, _cur: Any, sql: str, *_: Any) -> None:
            if sql.startswith("INSERT INTO events") and not taken:
                taken.append(True)  # the new owner's lease commits just before the writes
                with contextlib.closing(sqlite3.connect(path)) as other, other:
                    other.execute("UPDATE room_leases SET epoch = 2 WHERE room_id = 'r1'")

        event.listen(store._sync_engine, "before_cursor_execute", new_owner)
        store._close_sync()
        store._open_sync()
        with pytest.raises(Fenced):
            await store.write(_chat("r1", 2, 1))
        assert taken
        assert [seq for seq, _, _ in await store.events("r1")] == [1]

    _run(f"sqlite+aiosqlite:///{path}", body)


def test_migrations_match_the_metadata(db_url: str) -> None:
    """The migrations (0006: ``room_leases``; 0007: ``player_ratings``) create the schema as
    ``schema.py`` declares it."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from liarsdice.server.schema import metadata

    def compare(conn: Connection) -> tuple[list[Any], str]:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        head = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        return compare_metadata(context, metadata), head

    async def body(store: Store) -> tuple[list[Any], str]:  # (started: migrated to head)
        assert store.engine is not None
        async with store.engine.connect() as conn:
            return await conn.run_sync(compare)

    assert _run(db_url, body) == ([], "0007")  # (0007: ratings per family)


# --------------------------------------------------------------------- PostgreSQL: the race
async def _lock_waiters(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        found = await conn.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted"))
        return int(found.scalar_one())


async def _until_blocked(engine: AsyncEngine, task: asyncio.Task[None]) -> None:
    """Wait until ``task`` is blocked on a row lock (it must not finish meanwhile)."""
    deadline = time.monotonic() + 10
    while await _lock_waiters(engine) == 0:
        assert not task.done(), "take_lease did not wait for the old owner's transaction"
        assert time.monotonic() < deadline, "take_lease never waited on a lock"
        await asyncio.sleep(0.02)


def _pg_url(request: pytest.FixtureRequest) -> str:
    pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")
    url: str = request.getfixturevalue("pg_url")
    return url


def test_take_lease_waits_for_the_old_owners_write(request: pytest.FixtureRequest) -> None:
    """The old owner's write transaction has read the fence (``FOR SHARE``) and written, not
    committed; the new owner's ``take_lease`` waits for it, so the old write lands in the log
    the new owner loads next, and the old owner's next batch is fenced."""
    url = _pg_url(request)

    async def body(store: Store) -> None:
        await store.take_lease("r1", 1, "old")
        await store.write(_created("r1", 1))
        old = create_async_engine(url)  # the old owner's node: another connection
        watcher = create_async_engine(url)
        try:
            async with old.connect() as conn:
                tx = await conn.begin()
                await conn.run_sync(_write_group, [_chat("r1", 2, 1)], _now())
                taking = asyncio.create_task(store.take_lease("r1", 2, "new"))
                await _until_blocked(watcher, taking)
                await asyncio.sleep(0.2)
                assert not taking.done()
                assert await store.lease_epoch("r1") == 1
                await tx.commit()
            await asyncio.wait_for(taking, 10)
            assert await store.lease_epoch("r1") == 2
            loaded = await store.load_room("r1")  # what the new owner loads: the old write
            assert loaded is not None and [e[0] for e in loaded.events] == [1, 2]
            with pytest.raises(Fenced):  # the old owner's next batch, through its store
                await store.write(_chat("r1", 3, 1))
            async with old.connect() as conn:  # or straight on its connection
                with pytest.raises(Fenced):
                    async with conn.begin():
                        await conn.run_sync(_write_group, [_chat("r1", 3, 1)], _now())
            assert [seq for seq, _, _ in await store.events("r1")] == [1, 2]
        finally:
            await old.dispose()
            await watcher.dispose()

    _run(url, body)


def test_a_write_waiting_on_a_new_lease_is_fenced(request: pytest.FixtureRequest) -> None:
    """The other order: the new owner's lease is in flight (its row locked, not committed);
    the old owner's write reads the fence after it commits, and is refused."""
    url = _pg_url(request)

    async def body(store: Store) -> None:
        await store.take_lease("r1", 1, "old")
        await store.write(_created("r1", 1))
        new = create_async_engine(url)
        watcher = create_async_engine(url)
        try:
            async with new.connect() as conn:
                tx = await conn.begin()
                await conn.execute(
                    room_leases_table.update()
                    .where(room_leases_table.c.room_id == "r1")
                    .values(epoch=2, node="new")
                )
                writing = asyncio.create_task(store.write(_chat("r1", 2, 1)))
                await _until_blocked(watcher, writing)
                await tx.commit()
            with pytest.raises(Fenced):
                await asyncio.wait_for(writing, 10)
            assert [seq for seq, _, _ in await store.events("r1")] == [1]
        finally:
            await new.dispose()
            await watcher.dispose()

    _run(url, body)


def test_a_paused_old_owner_does_not_hold_the_room(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An old owner paused inside its write transaction: PostgreSQL aborts the idle
    transaction (``FENCE_IDLE_MS``), so ``take_lease`` goes through and the write is lost."""
    url = _pg_url(request)
    monkeypatch.setattr(store_module, "FENCE_IDLE_MS", 300)

    async def body(store: Store) -> None:
        await store.take_lease("r1", 1, "old")
        await store.write(_created("r1", 1))
        old = create_async_engine(url)
        try:
            conn = await old.connect()
            tx = await conn.begin()
            await conn.run_sync(_write_group, [_chat("r1", 2, 1)], _now())
            started = time.monotonic()
            await asyncio.wait_for(store.take_lease("r1", 2, "new"), 10)
            assert time.monotonic() - started < 5
            with pytest.raises(Exception):  # noqa: B017 - the server ended the session
                await tx.commit()
            with contextlib.suppress(Exception):
                await conn.close()
            assert [seq for seq, _, _ in await store.events("r1")] == [1]
        finally:
            await old.dispose()

    _run(url, body)
