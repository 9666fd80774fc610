"""A real Redis server for the cluster's tests (not a test module).

The server is Debian's ``redis-server``: when it is missing it is installed with apt (as root, or
with ``sudo -n``), as the PostgreSQL and browser tests do. Each test session starts one
throwaway server (a free port on 127.0.0.1, a temporary folder, no persistence unless asked);
a test may stop it, start it again or restart it on the same port, as a Redis failure would.
``LIARSDICE_SKIP_REDIS=1`` skips these tests; when Redis cannot be installed or started the
tests fail, naming what went wrong.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from apt_util import ensure_installed, free_port

SKIP = os.environ.get("LIARSDICE_SKIP_REDIS") == "1"
START_TIMEOUT = 20.0  # seconds for a started server to answer PING


def ensure_redis() -> str:
    """The path of ``redis-server``, installing Debian's package when missing."""

    def find() -> str | None:
        return shutil.which("redis-server") or shutil.which(
            "redis-server", path="/usr/bin:/usr/sbin"
        )

    return ensure_installed("redis-server", "LIARSDICE_SKIP_REDIS", find, "redis-server")


def ping(port: int, timeout: float = 1.0) -> bool:
    """Whether a Redis server on ``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A throwaway ``redis-server`` on 127.0.0.1:``port``, its files in ``root``.

    ``persist``: keep the data across a restart (an append-only file); by default nothing is
    written to the disk and a restart starts empty, as a lost Redis does.
    """

    def __init__(self, binary: str, root: Path, persist: bool = False) -> None:
        self.binary = binary
        self.root = root
        self.persist = persist
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start the server (on the same port as before) and wait until it answers PING."""
        if self.running:
            return
        log = self.root / "redis.log"
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
               "--dir", str(self.root), "--logfile", str(log), "--daemonize", "no",
               "--save", "", "--appendonly", "yes" if self.persist else "no"]  # fmt: skip
        self.process = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if ping(self.port):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
        text = log.read_text(errors="replace") if log.exists() else ""
        self.stop()
        pytest.fail(f"redis-server did not start on port {self.port}: {err[-1000:]} {text[-1000:]}")

    def stop(self) -> None:
        """Stop the server (SIGTERM: it closes its clients' connections and exits)."""
        self._end(crash=False)

    def kill(self) -> None:
        """Kill the server (SIGKILL: as a crash would; nothing more is written)."""
        self._end(crash=True)

    def _end(self, crash: bool) -> None:
        proc, self.process = self.process, None
        if proc is None:
            return
        if proc.poll() is None and crash:
            proc.kill()
        elif proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()

    def restart(self) -> None:
        """Stop the server and start it again on the same port."""
        self.stop()
        self.start()


def start_redis(persist: bool = False) -> Iterator[RedisServer]:
    """Start a throwaway server; stop it and delete its folder when the generator is closed."""
    binary = ensure_redis()
    root = Path(tempfile.mkdtemp(prefix="liarsdice-redis-"))
    server = RedisServer(binary, root, persist)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
