"""One server per database: the *claim* a server holds on its database while it runs.

A server keeps its rooms in memory and is the only writer of their logs: a second server on the
same database would keep the log consistent but serve rooms that flap, views that diverge and
rooms that are 404 on one of them, and two servers starting at once on a fresh database race
each other's migrations. So a server claims its database for its lifetime and a second one is
refused at startup (:class:`StoreInUse`), until there is a cluster mode.

* SQLite file: an exclusive ``flock`` on ``<database>.lock`` next to the database file (the
  lock file holds the owner's pid, for the message; it is left in place). The kernel drops the
  lock when the process ends, however it ends.
* PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) held on a dedicated
  connection, kept by a thread of its own (so a claim taken before the server's event loop
  exists, by ``liarsdice serve``, lives on into it). PostgreSQL drops it when that connection
  ends. Migrations also take a transaction-level advisory lock (:data:`PG_MIGRATE_KEY`, in
  :func:`liarsdice.server.migrations.upgrade_head`).
* In-memory SQLite (one database per connection) and other databases: nothing to claim.

:func:`claim_database` takes a claim and registers it in this process; a :class:`Store`
started afterwards on the same database *adopts* it instead of claiming again (one store at a
time); a store that finds no claim takes its own and releases it on close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import URL, make_url

# Advisory lock keys (in the current database's lock space): "LDS1" and "LDSM".
PG_CLAIM_KEY = 0x4C445331
PG_MIGRATE_KEY = 0x4C44534D
PG_WAIT = 5.0  # seconds to retry: a killed server's backend may outlive it for a moment
PG_PING = 30.0  # seconds between checks that the claim's connection is alive

log = logging.getLogger("liarsdice.server")


class StoreInUse(RuntimeError):
    """Another server holds the database (or another store in this process does)."""


def database_key(url: str | URL) -> tuple[str, str] | None:
    """What identifies the database of ``url``: ``("sqlite", absolute path)`` or
    ``("postgresql", "host:port/database")``; None when there is nothing to claim.

    >>> database_key("sqlite+aiosqlite:///:memory:") is None
    True
    >>> database_key("postgresql+asyncpg://u:secret@db.example/dice")
    ('postgresql', 'db.example:5432/dice')
    """
    u = make_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        if not u.database or u.database == ":memory:" or "memory" in str(u.query):
            return None
        path = u.database
        if path.startswith("file:"):  # a SQLite URI (``?uri=true``): file:PATH
            path = path.removeprefix("file:").split("?", 1)[0]
        return "sqlite", str(Path(path).expanduser().resolve())
    if backend == "postgresql":
        return "postgresql", f"{u.host or 'localhost'}:{u.port or 5432}/{u.database or ''}"
    return None


class Claim:
    """A database claimed by this process; :meth:`release` (or ``with``) gives it up."""

    def __init__(self, key: tuple[str, str] | None, name: str) -> None:
        self.key = key
        self.name = name  # the database, for messages
        self.user: object | None = None  # the store running under it
        self.owner: object | None = None  # the store that took it (None: taken beforehand)
        self._released = False

    @property
    def released(self) -> bool:
        return self._released

    def release(self) -> None:
        """Give the database up (idempotent)."""
        if self._released:
            return
        self._released = True
        if self.key is not None and _claims.get(self.key) is self:
            del _claims[self.key]
        self._unlock()

    def _unlock(self) -> None:
        pass

    def __enter__(self) -> Claim:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        self.release()


_claims: dict[tuple[str, str], Claim] = {}
_claims_lock = threading.Lock()


def claim_database(url: str | URL, wait: float | None = None) -> Claim:
    """Claim the database of ``url`` for this process, or raise :class:`StoreInUse` (whose
    message names the database, the holder when known, and what to do).

    ``wait``: seconds to keep trying while it is held (default: 0 for SQLite, whose lock goes
    with its process, :data:`PG_WAIT` for PostgreSQL). Blocking: from a coroutine, run it in a
    thread (:func:`asyncio.to_thread`). Connection errors are raised as they are.
    """
    return _take(url, wait, None)


def _take(url: str | URL, wait: float | None, user: object | None) -> Claim:
    key = database_key(url)
    if key is None:
        return Claim(None, "")
    with _claims_lock:
        found = _claims.get(key)
        if found is not None:
            if user is None or found.user is not None:
                raise StoreInUse(_in_use(key[1], "another store in this process"))
            found.user = user  # taken beforehand (liarsdice serve): adopted
            return found
        claim: Claim
        if key[0] == "sqlite":
            claim = _SqliteClaim(key, wait or 0.0)
        else:
            claim = _PgClaim(key, make_url(url), PG_WAIT if wait is None else wait)
        claim.user = claim.owner = user
        _claims[key] = claim
        return claim


def claim_for(url: str | URL, user: object) -> Claim:
    """The claim ``user`` (a store) runs under: the one this process already holds on
    ``url``'s database when no other store uses it (adopted: it stays with its taker, and
    ``claim.owner`` is not ``user``), else a new one (owned by ``user``). :class:`StoreInUse`
    when another store or server has it. Blocking, like :func:`claim_database`."""
    return _take(url, None, user)


def _in_use(database: str, holder: str) -> str:
    return (
        f"the database {database} is in use by {holder}: one server per database. "
        "Stop the other server, or start this one with another --db."
    )


class _SqliteClaim(Claim):
    def __init__(self, key: tuple[str, str], wait: float) -> None:
        super().__init__(key, key[1])
        self.path = Path(key[1] + ".lock")
        self._fd: int | None = None
        if sys.platform == "win32":  # pragma: no cover - no flock: nothing is claimed
            return
        import fcntl

        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = _read_pid(fd)
                    os.close(fd)
                    who = f"another server (pid {holder})" if holder else "another server"
                    raise StoreInUse(_in_use(key[1], who)) from None
                time.sleep(0.05)
            except BaseException:
                os.close(fd)
                raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def _unlock(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # (closing the file drops the flock)
            self._fd = None


def _read_pid(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        return str(int(os.pread(fd, 32, 0).decode().strip()))
    return ""


class _PgClaim(Claim):
    """The advisory lock on a dedicated connection, kept by a thread with its own event loop."""

    def __init__(self, key: tuple[str, str], url: URL, wait: float) -> None:
        super().__init__(key, key[1])
        self.url = url.set(drivername="postgresql+asyncpg")  # (the lock's own loop: async)
        self.wait = wait
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="liarsdice-db-claim", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise self._error

    def _run(self) -> None:
        asyncio.run(self._keep())

    async def _keep(self) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine
        from sqlalchemy.pool import NullPool

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        engine = create_async_engine(self.url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        conn: Any = None
        try:
            try:
                conn = await self._lock(engine, self.wait)
            except BaseException as err:
                self._error = err
                return
            finally:
                self._ready.set()
            while not self._stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), PG_PING)
                    break
                conn = await self._check(engine, conn)
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": PG_CLAIM_KEY})
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
            await engine.dispose()

    async def _lock(self, engine: Any, wait: float) -> Any:
        """A connection holding the claim's lock; StoreInUse after ``wait`` seconds."""
        conn = await engine.connect()
        try:
            await conn.execute(text("SET application_name = 'liarsdice server (claim)'"))
            deadline = time.monotonic() + wait
            while True:
                got = await conn.scalar(
                    text("SELECT pg_try_advisory_lock(:k)"), {"k": PG_CLAIM_KEY}
                )
                if got:
                    return conn
                if time.monotonic() >= deadline:
                    raise StoreInUse(await self._refusal(conn))
                await asyncio.sleep(0.1)
        except BaseException:
            await conn.close()
            raise

    async def _refusal(self, conn: Any) -> str:
        """The message of a refusal, naming the holding connection when it can be seen."""
        row = None
        with contextlib.suppress(Exception):
            row = (
                await conn.execute(
                    text(
                        "SELECT a.pid, a.client_addr, a.application_name FROM pg_locks l"
                        " JOIN pg_stat_activity a ON a.pid = l.pid"
                        " WHERE l.locktype = 'advisory' AND l.granted"
                        " AND l.database = (SELECT oid FROM pg_database"
                        " WHERE datname = current_database())"
                        " AND l.classid = 0 AND l.objid = :k AND l.objsubid = 1"
                    ),
                    {"k": PG_CLAIM_KEY},
                )
            ).first()
        if row is None:
            return _in_use(self.name, "another server")
        pid, addr, app = row
        return _in_use(
            self.name, f"another server (PostgreSQL backend pid {pid}, client {addr}, {app!r})"
        ) + (
            f" If that server is gone and its connection lingers, end it with "
            f"SELECT pg_terminate_backend({pid})."
        )

    async def _check(self, engine: Any, conn: Any) -> Any:
        """Every :data:`PG_PING` seconds: the connection (and so the lock) is still there;
        if it was lost, take the lock again (or say loudly that it could not be)."""
        if conn is not None:
            try:
                await conn.execute(text("SELECT 1"))
                return conn
            except Exception:
                log.error("the claim on the database %s was lost with its connection", self.name)
                with contextlib.suppress(Exception):
                    await conn.close()
        try:
            conn = await self._lock(engine, 0.0)
        except Exception as err:
            log.error("the claim on the database %s could not be taken again: %s", self.name, err)
            return None
        log.warning("the claim on the database %s was taken again", self.name)
        return conn

    def _unlock(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):  # (the loop already closed)
                self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=10)


__all__ = [
    "PG_CLAIM_KEY",
    "PG_MIGRATE_KEY",
    "Claim",
    "StoreInUse",
    "claim_database",
    "claim_for",
    "database_key",
]
