"""A cluster for tests: several real ``liarsdice serve`` processes on one PostgreSQL database
and one Redis, and a small WebSocket player (``tests/server/test_server_cluster.py``,
``bench/cluster.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from apt_util import free_port

SERVE = (sys.executable, "-c", "from liarsdice.cli.main import main; main()", "serve")


class Nodes:
    """``n`` nodes of one cluster, each a ``liarsdice serve`` process on a port of its own."""

    def __init__(self, tmp: Path, db_url: str, redis_url: str, n: int, bot_delay: float) -> None:
        self.tmp, self.db_url, self.redis_url = tmp, db_url, redis_url
        self.bot_delay = bot_delay
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * n

    def base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def ws(self, i: int, room: str) -> str:
        return f"ws://127.0.0.1:{self.ports[i]}/ws/rooms/{room}"

    def start(self, i: int) -> None:
        self.spawn(i)
        self.ready(i)

    def spawn(self, i: int) -> None:
        """Start node ``i``'s process (:meth:`ready` waits until it answers)."""
        cmd = [*SERVE, "--port", str(self.ports[i])]
        cmd += [
            "--db",
            self.db_url,
            "--redis",
            self.redis_url,
            "--node",
            f"n{i}",
            "--bot-delay",
            str(self.bot_delay),
            "--reveal",  # no pause after a call: these tests time play across nodes
            "0",
            "--exempt-loopback",
            "--rooms-per-ip",
            "100000",
            "--joins-per-ip",
            "100000",
            "--joins-per-room",
            "100000",
            "--max-ws-per-ip",
            "100000",
            "--max-conns-per-ip",
            "100000",
            "--ip-rate",
            "100000",
            "--ip-burst",
            "100000",
        ]
        log = open(self.tmp / f"node{i}.log", "ab")  # noqa: SIM115  (the process keeps it)
        self.procs[i] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    def start_all(self) -> None:
        """Start every node at once (as a cluster is deployed; their migrations take turns
        by a lock) and wait until each answers."""
        for i in range(len(self.procs)):
            self.spawn(i)
        for i in range(len(self.procs)):
            self.ready(i)

    def ready(self, i: int) -> None:
        """Wait until node ``i`` answers its health check (30 s at most)."""
        proc = self.procs[i]
        assert proc is not None
        wait_ready(self.base(i), proc, lambda: self.log(i), f"node {i}", 30.0)

    def log(self, i: int) -> str:
        return (self.tmp / f"node{i}.log").read_text(errors="replace")

    def signal(self, i: int, sig: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        proc.send_signal(sig)

    def kill(self, i: int) -> None:
        self.signal(i, signal.SIGKILL)
        proc = self.procs[i]
        assert proc is not None
        proc.wait(10)

    def wait(self, i: int, timeout: float) -> int:
        proc = self.procs[i]
        assert proc is not None
        return proc.wait(timeout)

    def stop(self) -> None:
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)

    def health(self, i: int) -> dict[str, Any]:
        r = httpx.get(self.base(i) + "/api/health", timeout=5, trust_env=False)
        out: dict[str, Any] = r.json()
        return out


def wait_ready(
    base: str, proc: subprocess.Popen[bytes], log: Callable[[], str], name: str, timeout: float
) -> None:
    """Wait until the server at ``base`` (the process ``proc``) answers its health check;
    an error with the end of its ``log()`` when it exits or takes over ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited:\n{log()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/api/health", timeout=1, trust_env=False).is_success:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not come up:\n{log()[-3000:]}")
        time.sleep(0.1)


@contextlib.contextmanager
def nodes(
    tmp: Path, db_url: str, redis_url: str, n: int = 3, bot_delay: float = 0.05
) -> Iterator[Nodes]:
    cluster = Nodes(tmp, db_url, redis_url, n, bot_delay)
    try:
        cluster.start_all()
        yield cluster
    finally:
        cluster.stop()


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(base + path, json=body, timeout=10, trust_env=False)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


class Player:
    """A WebSocket client that records every frame and the room's events in seq order."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url, self.token = url, token
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}  # seq -> event
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.status = ""
        self.arrivals: list[float] = []  # monotonic time of each frame
        self.closed: int | None = None
        self._reader: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()

    async def open(self) -> None:
        self.ws = await connect(self.url, proxy=None, ping_interval=None, open_timeout=10)
        hello: dict[str, Any] = {} if self.token is None else {"token": self.token}
        await self.send("hello", **hello)
        self._reader = asyncio.create_task(self._read())

    async def send(self, type_: str, **data: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": type_, "version": 1, "data": data}))

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                self.arrivals.append(time.monotonic())
                self._take(frame)
                self.changed.set()
        except ConnectionClosed as err:
            self.closed = err.rcvd.code if err.rcvd is not None else 1006
        else:
            self.closed = 1000
        self.changed.set()

    def _take(self, frame: dict[str, Any]) -> None:
        data = frame.get("data", {})
        if frame["type"] == "update":
            for ev in data.get("events", []):
                if "seq" in ev:  # (presence notes have none)
                    self.events[int(ev["seq"])] = ev
        if frame["type"] in ("update", "snapshot", "welcome") and "seq" in data:
            self.seq = max(self.seq, int(data["seq"]))
        if "view" in data and data["view"] is not None:
            self.view = data["view"]
        if "room" in data and isinstance(data["room"], dict):
            self.status = data["room"].get("status", self.status)

    async def until(self, pred: Any, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"waited {timeout} s; last frames: {self.frames[-3:]}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    def my_turn(self, seat: int) -> bool:
        v = self.view
        return bool(v and self.status == "playing" and v.get("to_move") == seat and v.get("legal"))

    async def play_first_legal(self, seat: int) -> None:
        """Make a move: the first legal bid, or a call once the bid is high."""
        assert self.view is not None
        legal = self.view["legal"]
        calls = [a for a in legal if a["text"] == "liar"]
        bids = [a for a in legal if a["text"] not in ("liar", "exact")]
        pick = calls[0] if calls and (len(self.view.get("bids", [])) >= 2 or not bids) else bids[0]
        await self.send("action", action=pick["action"], seq=self.seq)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._reader, 5)


def node_env() -> dict[str, str]:
    return dict(os.environ)
