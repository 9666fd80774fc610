"""One server per database: a second server (or store) on a database in use is refused at
startup with a clear error, two started at once on a fresh database never race their
migrations, and ``liarsdice serve`` turns the refusal into one line and exit status 1.

The outcome of a start is read as text (``"ok"`` or the error's class and message), so that
against a server without the claim these tests fail on the behaviour, not on an import."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from liarsdice.server.store import Store
from pg_util import Cluster

ROOT = Path(__file__).resolve().parents[2]


async def _outcome(store: Store) -> str:
    try:
        await store.start()
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    return "ok"


def _sqlite(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


# ------------------------------------------------------------------ in one process
async def _second_store_is_refused(url: str, database: str) -> None:
    first, second = Store(url), Store(url)
    assert await _outcome(first) == "ok"
    try:
        refused = await _outcome(second)
        assert refused.startswith("StoreInUse: "), refused
        assert database in refused and "one server per database" in refused
        # a reader (no claim, no migrations) reads beside the server
        reader = Store.reader(url)
        assert await _outcome(reader) == "ok"
        assert await reader.events("nope") == []
        await reader.close()
    finally:
        await first.close()
    assert await _outcome(second) == "ok"  # released on close: now it starts
    await second.close()


def test_a_second_store_on_a_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    asyncio.run(_second_store_is_refused(_sqlite(db), str(db)))
    assert (tmp_path / "one.db.lock").is_file()


def test_a_second_store_on_postgres_is_refused(pg_url: str) -> None:
    asyncio.run(_second_store_is_refused(pg_url, pg_url.rsplit("/", 1)[1]))


def test_in_memory_databases_are_not_claimed() -> None:
    async def run() -> list[str]:
        stores = [Store("sqlite+aiosqlite:///:memory:") for _ in range(2)]
        out = [await _outcome(s) for s in stores]
        for s in stores:
            await s.close()
        return out

    assert asyncio.run(run()) == ["ok", "ok"]


async def _start_and_close(url: str) -> str:
    store = Store(url)
    out = await _outcome(store)
    await store.close()
    return out


async def _concurrent(url: str) -> list[str]:
    stores = [Store(url) for _ in range(3)]
    out = list(await asyncio.gather(*(_outcome(s) for s in stores)))
    for s, result in zip(stores, out, strict=True):
        if result == "ok":
            await s.close()
    return out


def test_stores_started_at_once_in_one_process(tmp_path: Path) -> None:
    out = asyncio.run(_concurrent(_sqlite(tmp_path / "fresh.db")))
    assert out.count("ok") == 1, out
    assert all(o.startswith("StoreInUse: ") for o in out if o != "ok"), out


# ------------------------------------------------------------------ across processes
_RACER = textwrap.dedent(
    """
    import asyncio, os, sys, time
    from liarsdice.server import claim
    from liarsdice.server.store import Store

    async def main(url, go, hold):
        store = Store(url)
        print("ready", flush=True)
        while not os.path.exists(go):
            time.sleep(0.002)
        try:
            await store.start()
        except Exception as err:
            print("refused", type(err).__name__, str(err).replace(chr(10), " "), flush=True)
            return
        print("ok", flush=True)
        await asyncio.sleep(hold)
        await store.close()

    if len(sys.argv) > 4:  # a refused start tries again for this long (PG_WAIT)
        claim.PG_WAIT = float(sys.argv[4])
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
    """
)


def _race(
    tmp_path: Path, url: str, n: int = 3, hold: float = 1.5, pg_wait: float = 1.0
) -> list[str]:
    """``n`` processes start a store on ``url`` at the same moment; each one's outcome (a
    refused PostgreSQL start tries again for ``pg_wait`` s, less than the winner's ``hold``)."""
    go = tmp_path / f"go-{time.monotonic_ns()}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, url, str(go), str(hold), str(pg_wait)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        for _ in range(n)
    ]
    for p in procs:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready"
    go.touch()
    outs = []
    for p in procs:
        out, _ = p.communicate(timeout=120)
        outs.append(out.strip())
    return outs


def _check_race(outs: list[str]) -> None:
    text = "\n".join(outs)
    assert "already exists" not in text and "Traceback" not in text, text
    assert sorted(o.split()[0] for o in outs) == ["ok", "refused", "refused"], text
    assert all(o.startswith("refused StoreInUse") for o in outs if o != "ok"), text


@pytest.mark.slow
def test_servers_started_at_once_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    for n in range(2):  # (the race of old failed one try in three)
        _check_race(_race(tmp_path, _sqlite(tmp_path / f"fresh{n}.db")))


@pytest.mark.slow
def test_servers_started_at_once_on_a_fresh_postgres_database(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    for _ in range(2):  # (a refused start keeps trying for PG_WAIT: the winner holds longer)
        url = pg_cluster.url(pg_cluster.new_database())
        _check_race(_race(tmp_path, url, hold=2.5, pg_wait=1.0))


def test_a_store_held_by_another_process_is_refused_with_its_pid(tmp_path: Path) -> None:
    db = tmp_path / "held.db"
    go = tmp_path / "go"
    go.touch()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    holder = subprocess.Popen(
        [sys.executable, "-c", _RACER, _sqlite(db), str(go), "60"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        assert holder.stdout.readline().strip() == "ok"
        refused = asyncio.run(_outcome(Store(_sqlite(db))))
        assert refused.startswith("StoreInUse: "), refused
        assert f"pid {holder.pid}" in refused and str(db) in refused
    finally:
        holder.kill()
        holder.wait()
    # the kernel dropped the lock with the process, however it ended
    assert asyncio.run(_start_and_close(_sqlite(db))) == "ok"


# ------------------------------------------------------------------ liarsdice serve
@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_serve_on_a_database_in_use_is_one_clear_error(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        db = tmp_path / "busy.db"
        url, name = _sqlite(db), str(db)
    else:
        url = request.getfixturevalue("pg_url")
        name = url.rsplit("@", 1)[1]

    async def hold_and_serve() -> subprocess.CompletedProcess[str]:
        store = Store(url)
        await store.start()
        try:
            cmd = [sys.executable, "-m", "liarsdice.cli.main", "serve", "--port", "0"]
            cmd += ["--db", url]
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
            return await asyncio.to_thread(
                subprocess.run, cmd, capture_output=True, text=True, timeout=30, env=env
            )
        finally:
            await store.close()

    out = asyncio.run(hold_and_serve())
    assert out.returncode == 1, (out.returncode, out.stderr)
    assert f"the database {name} is in use by another server" in out.stderr.lower(), out.stderr
    assert "--db" in out.stderr and "one server per database" in out.stderr
    assert "Traceback" not in out.stderr and "serving on" not in out.stderr
