"""Fault injection for the store: writes that fail, time out or block on demand.

The server's tests (``tests/server/test_server_faults.py``) and a chaos bench use it to check that a
failing database never diverges a room's memory from its log: :class:`FaultyStore` is the real
:class:`~liarsdice.server.store.Store` whose :meth:`~liarsdice.server.store.Store.write` (and
reads, with ``reads=True``) first asks its :class:`Faults`; :func:`install` does the same to a
store already built (``app.state.store``). :func:`sqlite_lock` holds a real SQLite write lock
(``BEGIN EXCLUSIVE`` from another connection), as another process would.

Modes (``Faults.mode``):

* ``None``: no fault;
* ``"fail"``: raise :class:`StoreFault` at once (nothing is written);
* ``"hang"``: never answer (until the mode changes; the room's ``store_timeout`` gives up);
* ``"block"``: wait until :meth:`Faults.release`, then write;
* ``"fail_after"``: write (and commit), then raise: the outcome the writer cannot know.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from liarsdice.server.store import Batch, Store, StoredRoom

MODES = (None, "fail", "hang", "block", "fail_after")


class StoreFault(RuntimeError):
    """An injected store failure."""


@dataclass
class Faults:
    """What the next writes do: ``mode`` for the rooms in ``rooms`` (None: every room)."""

    mode: str | None = None
    rooms: set[str] | None = None
    reads: bool = False  # fail reads too (``load_room``, ``record``) while a mode is set
    failed: int = 0  # writes refused so far
    _gate: asyncio.Event = field(default_factory=asyncio.Event)

    def set(self, mode: str | None, rooms: set[str] | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown fault mode {mode!r}; modes: {MODES}")
        self.mode, self.rooms = mode, rooms
        if mode != "block":
            self._gate.set()
            self._gate = asyncio.Event()

    def clear(self) -> None:
        self.set(None)

    def release(self) -> None:
        """Let blocked writes go on (they are written)."""
        self._gate.set()

    def applies(self, room_id: str) -> bool:
        return self.mode is not None and (self.rooms is None or room_id in self.rooms)

    async def before(self, room_id: str) -> bool:
        """Run the fault for a write of ``room_id``; True when it must fail after writing."""
        if not self.applies(room_id):
            return False
        mode = self.mode
        if mode == "fail":
            self.failed += 1
            raise StoreFault(f"injected fault: write of room {room_id} refused")
        if mode in ("hang", "block"):
            gate = self._gate
            await gate.wait()
            if mode == "hang":
                self.failed += 1
                raise StoreFault(f"injected fault: write of room {room_id} hung")
            return False
        return mode == "fail_after"


async def _faulty_write(store: Store, faults: Faults, batch: Batch, write: Any) -> None:
    fail_after = await faults.before(batch.room_id)
    await write(batch)
    if fail_after:
        faults.failed += 1
        raise StoreFault(f"injected fault: write of room {batch.room_id} committed, then failed")


class FaultyStore(Store):
    """The real store with :class:`Faults` in front of its writes (and reads, on demand)."""

    def __init__(self, url: str, faults: Faults | None = None) -> None:
        super().__init__(url)
        self.faults = faults or Faults()

    async def write(self, batch: Batch) -> None:
        await _faulty_write(self, self.faults, batch, super().write)

    async def load_room(self, room_id: str, since: int | None = None) -> StoredRoom | None:
        if self.faults.reads and self.faults.applies(room_id):
            raise StoreFault(f"injected fault: read of room {room_id} refused")
        return await super().load_room(room_id, since)


def install(store: Store, faults: Faults | None = None) -> Faults:
    """Put :class:`Faults` in front of the writes of an existing ``store``; returns them."""
    faults = faults or Faults()
    real = store.write

    async def write(batch: Batch) -> None:
        await _faulty_write(store, faults, batch, real)

    store.write = write  # type: ignore[method-assign]
    return faults


SQLITE_MAX_PAGES = 4294967294  # SQLite's largest max_page_count


async def sqlite_cap(store: Store, spare_bytes: int | None) -> None:
    """Make a SQLite file store behave like a nearly full disk: its writer connection may
    grow the database by at most ``spare_bytes`` more (``None``: lift the cap). Writes that
    need more fail with SQLite's own "database or disk is full"."""

    def cap() -> None:
        conn = store._sync_conn
        assert conn is not None, "a SQLite file store"
        raw = conn.connection.dbapi_connection
        assert raw is not None
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
        size = raw.execute("PRAGMA page_size").fetchone()[0]
        limit = SQLITE_MAX_PAGES if spare_bytes is None else pages + spare_bytes // size
        raw.execute(f"PRAGMA max_page_count={int(limit)}")

    await store._on_thread(cap)


@contextmanager
def sqlite_lock(path: str | Path) -> Iterator[sqlite3.Connection]:
    """Hold SQLite's write lock on the database file ``path`` (``BEGIN EXCLUSIVE``)."""
    con = sqlite3.connect(str(path), timeout=5, isolation_level=None)
    try:
        con.execute("BEGIN EXCLUSIVE")
        yield con
        con.execute("ROLLBACK")
    finally:
        con.close()


__all__ = ["MODES", "Faults", "FaultyStore", "StoreFault", "install", "sqlite_cap", "sqlite_lock"]
