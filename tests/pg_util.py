"""A real PostgreSQL server for the store's tests (not a test module).

The server is Debian's PostgreSQL: when its binaries are missing they are installed with apt
(as root, or with ``sudo -n``), as the browser tests do with chromium. Each test session starts
one throwaway cluster (``initdb`` in a temporary folder, trust authentication, a free port on
127.0.0.1) and each test gets a database of its own. ``LIARSDICE_SKIP_POSTGRES=1`` skips these
tests; when PostgreSQL cannot be installed or started the tests fail, naming what went wrong.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from apt_util import ensure_installed, free_port

SKIP = os.environ.get("LIARSDICE_SKIP_POSTGRES") == "1"


@dataclass(frozen=True)
class Cluster:
    """A running throwaway PostgreSQL cluster."""

    bin: Path
    port: int
    user: str
    data: Path | None = None  # (for restart)
    options: str = ""
    owner: str | None = None

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{self.user}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        out = subprocess.run(
            [str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user,
             "-d", database, "-v", "ON_ERROR_STOP=1", "-A", "-t", "-c", sql],
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        return out.stdout.strip()

    def restart(self, down: float = 0.0) -> None:
        """Stop the server at once (as a crash would), wait ``down`` seconds, start it again."""
        assert self.data is not None
        ctl = str(self.bin / "pg_ctl")
        run = dict(capture_output=True, text=True, timeout=120, check=True)
        subprocess.run(
            _as_owner([ctl, "-D", str(self.data), "-m", "immediate", "stop"], self.owner),
            **run,  # type: ignore[arg-type]
        )
        time.sleep(down)
        log = str(self.data.parent / "log")
        subprocess.run(
            _as_owner([ctl, "-D", str(self.data), "-o", self.options, "-l", log, "-w", "start"],
                      self.owner),
            **run,  # type: ignore[arg-type]
        )  # fmt: skip

    def new_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.psql(f"CREATE DATABASE {name}")
        return name


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def ensure_postgres() -> Path:
    """The folder of PostgreSQL's server binaries, installing Debian's package when missing."""
    what = "initdb under /usr/lib/postgresql"
    return ensure_installed("postgresql", "LIARSDICE_SKIP_POSTGRES", _bin_dir, what)


def _as_owner(cmd: list[str], owner: str | None) -> list[str]:
    """Run ``cmd`` as ``owner`` (PostgreSQL refuses to run as root)."""
    return cmd if owner is None else ["runuser", "-u", owner, "--", *cmd]


def start_cluster() -> Iterator[Cluster]:
    """Start a throwaway cluster; stop and delete it when the generator is closed."""
    bin_dir = ensure_postgres()
    owner = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="liarsdice-pg-"))
    data = root / "data"
    if owner is not None:
        shutil.chown(root, owner)
    port = free_port()
    run = dict(capture_output=True, text=True, timeout=120, check=False)
    init = subprocess.run(
        _as_owner([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                   "--no-sync", "-E", "UTF8"], owner),
        **run,  # type: ignore[arg-type]
    )  # fmt: skip
    if init.returncode != 0:
        pytest.fail(f"initdb failed: {init.stderr[-2000:]}")
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    started = subprocess.run(
        _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options,
                   "-l", str(root / "log"), "-w", "start"], owner),
        **run,  # type: ignore[arg-type]
    )  # fmt: skip
    if started.returncode != 0:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        pytest.fail(f"PostgreSQL did not start: {started.stderr[-1000:]} {log[-1000:]}")
    try:
        yield Cluster(bin_dir, port, "postgres", data, options, owner)
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                      owner),
            **run,  # type: ignore[arg-type]
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
