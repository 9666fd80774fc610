"""Load benchmark of ``liarsdice serve``: bot clients over real WebSockets on loopback.

Starts a real ``liarsdice serve`` subprocess (uvicorn, a fresh SQLite WAL database in a
temporary directory; or ``--server-url`` for a server that is already running), creates
``--rooms`` rooms of ``--seats`` human seats each over HTTP (``POST /api/rooms`` and
``/api/rooms/{id}/join``), opens one WebSocket per seat (``hello {token}``), and has every
room's host ``start`` a game. From then on each seat plays its own turns, as a browser
would: when an ``update`` (or ``snapshot``) shows ``view.to_move`` equal to its seat and a
non-empty ``legal``, it waits a think time and sends an ``action`` with an ``id``. The policy
keeps games going: a challenge (``liar``) with probability ``--liar`` when one is legal,
else one of the three lowest legal bids. When a game is over the host sends ``rematch``.

    python bench/load.py                                 # 100 rooms x 5 seats, 30 s
    python bench/load.py --rooms 2 --seconds 3           # smoke test
    python bench/load.py --think-ms 0 --seconds 20       # maximum throughput
    python bench/load.py --server-url http://127.0.0.1:8000 --server-pid PID --json

Measured, on the client side with one monotonic clock:

* **broadcast latency** (action-to-broadcast): from just before a seat sends an ``action``
  until the last seat of its room has received the ``update`` that holds that action's
  event (matched by the event's ``seq``). This is what a table of players feels.
* **ack latency**: until the sender itself has the ``update`` with ``reply_to`` (sent by the
  server only after the events are committed to the database).
* throughput: actions applied (acknowledged) per second, frames and (decompressed) bytes
  received per second, games finished; the server's CPU and memory (from ``/proc``, when the
  bench spawned the server or was given ``--server-pid``) and the clients' CPU; the client
  event loop's lag (a 10 ms ticker's oversleep), which is part of every latency measured.
* errors: ``error`` frames, unexpected closes, client exceptions, and actions sent in the
  window whose broadcast did not complete within ``--drain`` seconds. The exit status is 1
  when there were any.

Only actions *sent* in the measurement window (``--seconds`` after ``--warmup``) count;
``--moves N`` ends the window at the N-th acknowledged action (or after ``--seconds``).

Load model. ``--think-ms`` (default 750) is the mean think time before each move, drawn
uniformly from 50% to 150% of it, so 100 rooms make about 100 / 0.75 s = 133 moves a second
(each move's ``update`` goes to the 5 seats of its room; the move that ends a round carries
the reveal and the next round's dice events in the same ``update``). Real people think for
seconds, so this is several times a realistic peak for 500 players. ``--think-ms 0``
measures the maximum throughput instead (a closed loop: every room always has a move in
flight, so latency is then mostly queueing). Each connection stays under the server's rate
limit (10 messages a second): the bench sends at most ``--max-rate`` (9) a second on any
connection, whatever the think time.

All clients run in one process and one asyncio event loop by default (``--client-procs K``
splits the rooms over K processes; on a 2-core machine they compete with the server for the
same cores, and one process is enough: it uses about 20% of a core at the default load).
WebSockets offer ``permessage-deflate`` as browsers do (``--no-compression`` to turn it off).

Figures (2-core shared VM, Python 3.11, uvloop, SQLite WAL; 100 rooms x 5 seats = 500
connections, default think time; 30 s windows, three runs each):

                                  before tuning        now
    actions/s (frames/s)          124-127 (630-645)    129-130 (658-661)
    broadcast p50 / p90           8-12 / 40-111 ms     5.0-5.8 / 10.3-11.7 ms
    broadcast p99 / max           250-583 / 720-1780   19-21 / 64-83 ms
    server CPU (one core = 100%)  64-75%               43-49%
    max throughput (think 0)      177 actions/s        432-456 actions/s

"Now" is group commit in the store, the collector settings of ``liarsdice serve`` and the
rooms' event history kept out of the collector's way (with group commit alone p99 was
150-250 ms: the rest was garbage collection pauses). Ack latency
is within a millisecond of broadcast latency. A 300 s window: p50 6 ms, p99 31 ms, max
373 ms (an older-generation collection every few minutes pauses the server for 0.1-0.4 s).
The client process uses about 20% of a core; ``--client-procs 2`` and ``--no-compression``
change little. One server process uses one core: past roughly 300 actions/s queues build
up (``--think-ms 300``: p99 about 270 ms), and at ``--think-ms 0`` (a closed loop, 100 rooms
always waiting on the server) p50 is about 220 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

BID = re.compile(r"^\d+x")


@dataclass
class Config:
    """The benchmark's parameters (the command-line options)."""

    rooms: int = 100
    seats: int = 5
    seconds: float = 30.0
    moves: int | None = None
    warmup: float = 5.0
    think_ms: float = 750.0
    liar: float = 0.3
    max_rate: float = 9.0
    preset: str = "classic"
    port: int = 0
    db: str | None = None
    server_url: str | None = None
    server_pid: int | None = None
    compression: bool = True
    client_procs: int = 1
    drain: float = 5.0
    seed: int = 1
    setup_concurrency: int = 20
    timeline: float = 0.0


@dataclass
class Stats:
    """What one client process measured (picklable, merged over processes)."""

    rooms: int = 0
    connections: int = 0
    actions: int = 0
    games: int = 0
    frames: int = 0
    bytes: int = 0
    window: float = 0.0
    setup: float = 0.0
    broadcast: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # seconds into the window, per broadcast
    ack: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    client_cpu: float = 0.0
    server_cpu: float | None = None
    server_rss_mb: float | None = None

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def merge(self, other: Stats) -> None:
        self.rooms += other.rooms
        self.connections += other.connections
        self.actions += other.actions
        self.games += other.games
        self.frames += other.frames
        self.bytes += other.bytes
        self.window = max(self.window, other.window)
        self.setup = max(self.setup, other.setup)
        self.broadcast += other.broadcast
        self.sent_at += other.sent_at
        self.ack += other.ack
        self.lag += other.lag
        for k, v in other.errors.items():
            self.errors[k] = self.errors.get(k, 0) + v
        self.client_cpu += other.client_cpu
        if other.server_cpu is not None:
            self.server_cpu = other.server_cpu
        if other.server_rss_mb is not None:
            self.server_rss_mb = other.server_rss_mb


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0..100) of ``values``; 0 for none.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50)
    3.0
    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 99)
    5.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def choose(legal: list[dict[str, Any]], rng: random.Random, liar: float) -> dict[str, Any]:
    """The bench policy: challenge with probability ``liar``, else one of the lowest bids."""
    bids = [a for a in legal if BID.match(str(a["text"]))]
    calls = [a for a in legal if a["text"] == "liar"]
    if bids and (not calls or rng.random() >= liar):
        return rng.choice(bids[:3])
    if calls:
        return calls[0]
    others = [a for a in legal if a["text"] != "exact"]
    return rng.choice(others or legal)


# --------------------------------------------------------------------------- the server
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int | None) -> float | None:
    """Resident memory of process ``pid`` in MB (Linux ``/proc``), or None."""
    if pid is None:
        return None
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def _cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``), or None."""
    if pid is None:
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def server(cfg: Config) -> AsyncIterator[tuple[str, int | None]]:
    """``(base_url, pid)`` of the server: ``--server-url``, or a spawned ``liarsdice serve``."""
    if cfg.server_url is not None:
        yield cfg.server_url.rstrip("/"), cfg.server_pid
        return
    with tempfile.TemporaryDirectory(prefix="liarsdice-load-") as tmp:
        port = cfg.port or _free_port()
        db = cfg.db or f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}"
        log_path = Path(tmp) / "server.log"
        cmd = [
            sys.executable, "-c", "from liarsdice.cli.main import main; main()",
            "serve", "--port", str(port), "--db", db, "--grace", "3600",
            "--reveal", "0",  # no pause after a call: moves at the players' own pace
            # every simulated player connects from 127.0.0.1: lift the per-address limits
            "--rooms-per-ip", "100000", "--max-ws-per-ip", "100000",
            "--max-conns-per-ip", "100000", "--ip-rate", "1000000", "--ip-burst", "1000000",
            "--joins-per-ip", "100000", "--joins-per-room", "100000", "--http-rate", "0",
        ]  # fmt: skip
        with log_path.open("wb") as log:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(trust_env=False) as http:
                deadline = time.monotonic() + 30
                while True:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        tail = log_path.read_text(errors="replace")[-2000:]
                        raise RuntimeError(f"the server did not start:\n{tail}")
                    try:
                        if (await http.get(f"{base}/api/health", timeout=1)).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.05)
            yield base, proc.pid
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


# --------------------------------------------------------------------------- the clients
class Clock:
    """The measurement window, shared by every client of a process."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.start = math.inf  # window start (monotonic)
        self.end = math.inf  # window end; set early by --moves
        self.stopping = False  # no new moves after the window

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end


class RoomClient:
    """One room: its seats' connections and the latency bookkeeping."""

    def __init__(self, n: int, room_id: str, stats: Stats, clock: Clock) -> None:
        self.n = n
        self.id = room_id
        self.stats = stats
        self.clock = clock
        self.seats: list[SeatClient] = []
        self.sent: dict[str, tuple[float, int]] = {}  # action id -> (send time, seat)
        self.pending: dict[int, float] = {}  # event seq -> send time, once acknowledged
        self.arrivals: dict[int, list[float]] = {}  # event seq -> receive times
        self.counter = 0

    def next_id(self) -> str:
        self.counter += 1
        return f"a{self.counter}"

    def acked(self, ref: str, seq: int, t: float) -> None:
        sent, _ = self.sent.pop(ref)
        if self.clock.inside(sent):
            self.stats.ack.append(t - sent)
            self.stats.actions += 1
            moves = self.clock.cfg.moves
            if moves is not None and self.stats.actions >= moves:
                self.clock.end = min(self.clock.end, t)
        self.pending[seq] = sent

    def arrived(self, seq: int, t: float) -> None:
        times = self.arrivals.setdefault(seq, [])
        times.append(t)
        if len(times) < self.n:
            return
        del self.arrivals[seq]
        sent = self.pending.pop(seq, None)
        if sent is not None and self.clock.inside(sent):
            self.stats.broadcast.append(max(times) - sent)
            self.stats.sent_at.append(sent - self.clock.start)

    def outstanding(self) -> int:
        """Actions sent in the window whose broadcast is not complete."""
        inside = self.clock.inside
        return sum(1 for t, _ in self.sent.values() if inside(t)) + sum(
            1 for t in self.pending.values() if inside(t)
        )


class SeatClient:
    """One seat's WebSocket: reads frames, plays its turns, the host offers rematches."""

    def __init__(self, room: RoomClient, seat: int, token: str, rng: random.Random) -> None:
        self.room = room
        self.seat = seat
        self.token = token
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.moved_at = -1  # the room seq of the last view we moved (or scheduled) on
        self.rematched = 0  # the last game number we offered a rematch after
        self.next_send = 0.0
        self.tasks: set[asyncio.Task[None]] = set()
        self.welcomed = asyncio.Event()
        self.started = asyncio.Event()
        self.closing = False

    async def open(self, url: str, compression: bool) -> None:
        self.ws = await connect(
            url,
            compression="deflate" if compression else None,
            proxy=None,
            ping_interval=None,
            max_size=2**22,
            open_timeout=30,
        )
        await self.send("hello", token=self.token)

    async def pace(self) -> float:
        """Wait until this connection may send (``--max-rate``); returns the send time."""
        now = time.monotonic()
        if now < self.next_send:
            await asyncio.sleep(self.next_send - now)
            now = time.monotonic()
        self.next_send = now + 1.0 / self.room.clock.cfg.max_rate
        return now

    async def send(self, type_: str, **data: Any) -> None:
        """Send a frame, at most ``--max-rate`` a second on this connection."""
        assert self.ws is not None
        await self.pace()
        await self.ws.send(json.dumps({"type": type_, "version": 1, "data": data}))

    def spawn(self, delay: float, fn: Any) -> None:
        task = asyncio.create_task(self._later(delay, fn))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _later(self, delay: float, fn: Any) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            if not self.room.clock.stopping:
                await fn()
        except ConnectionClosed:
            if not self.closing:
                self.room.stats.error("closed")
        except Exception as err:  # pragma: no cover - counted, shown in the summary
            self.room.stats.error(f"client:{type(err).__name__}")

    def think(self) -> float:
        ms = self.room.clock.cfg.think_ms
        return ms * (0.5 + self.rng.random()) / 1000 if ms > 0 else 0.0

    async def read(self) -> None:
        assert self.ws is not None
        stats = self.room.stats
        clock = self.room.clock
        try:
            async for raw in self.ws:
                t = time.monotonic()
                if clock.inside(t):
                    stats.frames += 1
                    stats.bytes += len(raw)
                self.frame(json.loads(raw), t)
        except ConnectionClosed:
            pass
        except Exception as err:  # pragma: no cover - counted, shown in the summary
            stats.error(f"client:{type(err).__name__}")
        if not self.closing:
            stats.error("closed")

    def frame(self, frame: dict[str, Any], t: float) -> None:
        kind = frame["type"]
        data = frame["data"]
        room = self.room
        if kind == "welcome":
            self.welcomed.set()
            return
        if kind == "error":
            room.stats.error(str(data.get("code")))
            ref = data.get("reply_to")
            if ref is not None:
                room.sent.pop(ref, None)
            return
        if kind not in ("update", "snapshot"):
            return
        ref = data.get("reply_to")
        if kind == "update":
            events = data["events"]
            if ref is not None and ref in room.sent:
                mine = [e for e in events if e["kind"] == "action" and e["seat"] == self.seat]
                if mine:
                    room.acked(ref, int(mine[0]["seq"]), t)
                else:  # pragma: no cover - an ack without our move
                    room.sent.pop(ref, None)
                    room.stats.error("ack_without_action")
            for e in events:
                if e["kind"] == "action":
                    room.arrived(int(e["seq"]), t)
                elif e["kind"] == "game_over" and self.seat == 0 and room.clock.inside(t):
                    room.stats.games += 1
        status = data["room"]["status"]
        if status != "lobby":
            self.started.set()
        view = data.get("view")
        seq = int(data["seq"])
        if view is None:
            return
        if (
            status == "playing"
            and view["to_move"] == self.seat
            and view["legal"]
            and seq > self.moved_at
        ):
            self.moved_at = seq
            legal = view["legal"]
            self.spawn(self.think(), lambda: self.move(legal))
        elif status == "finished" and self.seat == 0 and view["game_no"] > self.rematched:
            self.rematched = view["game_no"]
            self.spawn(self.think(), self.rematch)

    async def move(self, legal: list[dict[str, Any]]) -> None:
        room = self.room
        choice = choose(legal, self.rng, room.clock.cfg.liar)
        ref = room.next_id()
        assert self.ws is not None
        t = await self.pace()  # the send time: just before the frame is written
        room.sent[ref] = (t, self.seat)
        frame = {"type": "action", "version": 1, "data": {"action": choice["action"], "id": ref}}
        await self.ws.send(json.dumps(frame))

    async def rematch(self) -> None:
        await self.send("rematch", id=f"r{self.rematched}")

    async def close(self) -> None:
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


async def _ticker(clock: Clock, stats: Stats, period: float = 0.01) -> None:
    """Measure the event loop's lag: how late a ``period`` sleep wakes up, in the window."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(period)
        late = time.monotonic() - t - period
        if clock.inside(t):
            stats.lag.append(max(0.0, late))


async def _setup_rooms(
    cfg: Config, base: str, count: int, offset: int, stats: Stats, clock: Clock
) -> list[RoomClient]:
    """Create ``count`` rooms and join their seats over HTTP."""
    sem = asyncio.Semaphore(cfg.setup_concurrency)
    limits = httpx.Limits(max_connections=cfg.setup_concurrency)
    async with httpx.AsyncClient(base_url=base, trust_env=False, limits=limits) as http:

        async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            async with sem:
                r = await http.post(path, json=body, timeout=60)
            if r.status_code != 201:
                raise RuntimeError(f"POST {path}: {r.status_code} {r.text}")
            out: dict[str, Any] = r.json()
            return out

        async def one(i: int) -> RoomClient:
            host = await post("/api/rooms", {"preset": cfg.preset, "name": f"r{i}-p0"})
            room = RoomClient(cfg.seats, host["room"], stats, clock)
            tokens = [host["token"]]
            for s in range(1, cfg.seats):
                joined = await post(f"/api/rooms/{room.id}/join", {"name": f"r{i}-p{s}"})
                assert joined["seat"] == s, joined
                tokens.append(joined["token"])
            rng = random.Random(f"{cfg.seed}:{i}")
            room.seats = [SeatClient(room, s, tok, rng) for s, tok in enumerate(tokens)]
            return room

        return list(await asyncio.gather(*(one(offset + i) for i in range(count))))


async def clients(
    cfg: Config,
    base: str,
    count: int,
    offset: int = 0,
    server_pid: int | None = None,
    barrier: Connection | None = None,
) -> Stats:
    """Run ``count`` rooms against the server at ``base``; what they measured.

    With ``barrier`` (a pipe to the parent process), report ready once every room is set up
    and connected, and start the games at the monotonic time the parent answers.
    """
    stats = Stats(rooms=count, connections=count * cfg.seats)
    clock = Clock(cfg)
    t_setup = time.monotonic()
    rooms = await _setup_rooms(cfg, base, count, offset, stats, clock)
    ws_base = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    seats = [s for r in rooms for s in r.seats]
    sem = asyncio.Semaphore(cfg.setup_concurrency)

    async def open_one(s: SeatClient) -> None:
        async with sem:
            await s.open(f"{ws_base}/ws/rooms/{s.room.id}", cfg.compression)

    await asyncio.gather(*(open_one(s) for s in seats))
    readers = [asyncio.create_task(s.read()) for s in seats]
    await asyncio.wait_for(asyncio.gather(*(s.welcomed.wait() for s in seats)), 60)
    stats.setup = time.monotonic() - t_setup

    go = time.monotonic()
    if barrier is not None:
        barrier.send("ready")
        go = await asyncio.to_thread(barrier.recv)
        await asyncio.sleep(max(0.0, go - time.monotonic()))
    clock.start = go + cfg.warmup
    clock.end = clock.start + cfg.seconds
    ticker = asyncio.create_task(_ticker(clock, stats))
    for r in rooms:
        r.seats[0].spawn(0.0, lambda s=r.seats[0]: s.send("start", id="start"))
    await asyncio.wait_for(asyncio.gather(*(s.started.wait() for s in seats)), 60)

    # the window
    await asyncio.sleep(max(0.0, clock.start - time.monotonic()))
    cpu0, server0 = time.process_time(), _cpu_seconds(server_pid)
    while time.monotonic() < clock.end:
        await asyncio.sleep(min(0.05, max(0.0, clock.end - time.monotonic())))
    clock.stopping = True
    end = clock.end
    stats.window = end - clock.start
    stats.client_cpu = (time.process_time() - cpu0) / stats.window
    server1 = _cpu_seconds(server_pid)
    if server0 is not None and server1 is not None:
        stats.server_cpu = (server1 - server0) / stats.window
    stats.server_rss_mb = _rss_mb(server_pid)

    # drain: wait for the broadcasts of actions sent in the window
    deadline = time.monotonic() + cfg.drain
    while time.monotonic() < deadline and any(r.outstanding() for r in rooms):
        await asyncio.sleep(0.02)
    for r in rooms:
        for _ in range(r.outstanding()):
            stats.error("timeout")
    ticker.cancel()
    await asyncio.gather(*(s.close() for s in seats))
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return stats


def _worker(
    cfg: Config, base: str, count: int, offset: int, pid: int | None, pipe: Connection
) -> None:
    try:
        stats = asyncio.run(clients(cfg, base, count, offset, pid, pipe))
        pipe.send(stats)
    except BaseException as err:
        pipe.send(RuntimeError(f"client process {offset}: {err!r}"))
        raise


async def _procs(cfg: Config, base: str, pid: int | None) -> Stats:
    ctx = multiprocessing.get_context("spawn")
    k = cfg.client_procs
    shares = [cfg.rooms // k + (1 if i < cfg.rooms % k else 0) for i in range(k)]
    if cfg.moves is not None:
        cfg = Config(**{**asdict(cfg), "moves": max(1, cfg.moves // k)})
    pipes: list[Connection] = []
    procs = []
    offset = 0
    for i, n in enumerate(shares):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(cfg, base, n, offset, pid if i == 0 else None, child))
        p.start()
        procs.append(p)
        pipes.append(parent)
        offset += n

    def recv(pipe: Connection) -> Any:
        got = pipe.recv()
        if isinstance(got, Exception):
            raise got
        return got

    try:
        for pipe in pipes:
            assert await asyncio.to_thread(recv, pipe) == "ready"
        go = time.monotonic() + 0.2
        for pipe in pipes:
            pipe.send(go)
        total = Stats()
        for pipe in pipes:
            total.merge(await asyncio.to_thread(recv, pipe))
        return total
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():  # pragma: no cover
                proc.kill()


async def run(cfg: Config) -> Stats:
    """The whole benchmark: the server (spawned or given), the clients, the figures."""
    async with server(cfg) as (base, pid):
        if cfg.client_procs <= 1:
            return await clients(cfg, base, cfg.rooms, 0, pid)
        return await _procs(cfg, base, pid)


# --------------------------------------------------------------------------- the report
def summary(cfg: Config, stats: Stats) -> dict[str, Any]:
    """The figures as one JSON-able object (latencies in milliseconds).

    With ``cfg.timeline`` (seconds), also the broadcast latency of each slice of the window.
    """
    timeline = cfg.timeline

    def ms(values: list[float]) -> dict[str, float]:
        return {
            "p50": round(percentile(values, 50) * 1000, 2),
            "p90": round(percentile(values, 90) * 1000, 2),
            "p99": round(percentile(values, 99) * 1000, 2),
            "max": round(max(values, default=0.0) * 1000, 2),
            "n": len(values),
        }

    w = stats.window or 1.0
    out: dict[str, Any] = {
        "rooms": stats.rooms,
        "seats": cfg.seats,
        "connections": stats.connections,
        "preset": cfg.preset,
        "think_ms": cfg.think_ms,
        "client_procs": max(1, cfg.client_procs),
        "compression": cfg.compression,
        "server": cfg.server_url or "spawned",
        "window_s": round(stats.window, 3),
        "setup_s": round(stats.setup, 2),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / w, 1),
        "games": stats.games,
        "frames": stats.frames,
        "frames_per_s": round(stats.frames / w, 1),
        "mbytes_per_s": round(stats.bytes / w / 1e6, 3),
        "broadcast_ms": ms(stats.broadcast),
        "ack_ms": ms(stats.ack),
        "loop_lag_ms": ms(stats.lag),
        "client_cpu": round(stats.client_cpu, 3),
        "server_cpu": None if stats.server_cpu is None else round(stats.server_cpu, 3),
        "server_rss_mb": None if stats.server_rss_mb is None else round(stats.server_rss_mb, 1),
        "errors": sum(stats.errors.values()),
        "error_codes": dict(sorted(stats.errors.items())),
    }
    if timeline > 0:
        slices: dict[int, list[float]] = {}
        for at, lat in zip(stats.sent_at, stats.broadcast, strict=True):
            slices.setdefault(int(at // timeline), []).append(lat)
        out["timeline"] = [
            {"from_s": round(i * timeline, 1), **ms(slices[i])} for i in sorted(slices)
        ]
    return out


def render_text(s: dict[str, Any]) -> str:
    def lat(d: dict[str, float]) -> str:
        return (
            f"p50 {d['p50']:.1f}  p90 {d['p90']:.1f}  p99 {d['p99']:.1f}  "
            f"max {d['max']:.1f} ms  (n={d['n']})"
        )

    cpu = f"client {s['client_cpu']:.0%}"
    if s["server_cpu"] is not None:
        cpu += f", server {s['server_cpu']:.0%}"
    cpu += " of one core"
    if s["server_rss_mb"] is not None:
        cpu += f"; server memory {s['server_rss_mb']:.0f} MB"
    errors = str(s["errors"])
    if s["error_codes"]:
        errors += "  " + ", ".join(f"{k}={v}" for k, v in s["error_codes"].items())
    lines = [
        f"rooms            {s['rooms']} x {s['seats']} seats ({s['preset']}), "
        f"{s['connections']} connections, {s['client_procs']} client process(es)",
        f"load             think {s['think_ms']:g} ms, window {s['window_s']:.1f} s "
        f"(setup {s['setup_s']:.1f} s), server {s['server']}",
        f"actions applied  {s['actions']}  ({s['actions_per_s']:.1f}/s), "
        f"games finished {s['games']}",
        f"frames received  {s['frames']}  ({s['frames_per_s']:.1f}/s, "
        f"{s['mbytes_per_s']:.2f} MB/s)",
        f"broadcast        {lat(s['broadcast_ms'])}",
        f"ack              {lat(s['ack_ms'])}",
        f"client loop lag  {lat(s['loop_lag_ms'])}",
        f"cpu              {cpu}",
        f"errors           {errors}",
    ]
    for t in s.get("timeline", []):
        lines.append(f"  from {t['from_s']:6.1f} s  {lat(t)}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, bool]:
    p = argparse.ArgumentParser(
        description="Load benchmark of liarsdice serve (see the module docstring)."
    )
    d = Config()
    p.add_argument("--rooms", type=int, default=d.rooms)
    p.add_argument("--seats", type=int, default=d.seats, help="human seats per room (2..12)")
    p.add_argument(
        "--seconds", type=float, help="measurement window (default 30; with --moves, 600 at most)"
    )
    p.add_argument("--moves", type=int, help="end the window at this many actions")
    p.add_argument("--warmup", type=float, default=d.warmup, help="seconds before the window")
    p.add_argument(
        "--think-ms", type=float, default=d.think_ms, help="mean think time per move (0: none)"
    )
    p.add_argument("--liar", type=float, default=d.liar, help="probability of calling liar")
    p.add_argument("--max-rate", type=float, default=d.max_rate, help="msgs/s per connection")
    p.add_argument("--preset", default=d.preset)
    p.add_argument("--port", type=int, default=d.port, help="port of the spawned server")
    p.add_argument("--db", help="database URL of the spawned server (default: temp SQLite)")
    p.add_argument("--server-url", help="use this running server instead of spawning one")
    p.add_argument("--server-pid", type=int, help="with --server-url: its pid, for its CPU")
    p.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    p.add_argument("--client-procs", type=int, default=d.client_procs)
    p.add_argument("--drain", type=float, default=d.drain)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--timeline", type=float, default=0.0, metavar="SECONDS", help="latency per time slice"
    )
    a = p.parse_args(argv)
    if not 2 <= a.seats <= 12:
        p.error("--seats must be 2..12")
    cfg = Config(
        rooms=a.rooms,
        seats=a.seats,
        seconds=a.seconds if a.seconds is not None else d.seconds if a.moves is None else 600.0,
        moves=a.moves,
        warmup=a.warmup,
        think_ms=a.think_ms,
        liar=a.liar,
        max_rate=a.max_rate,
        preset=a.preset,
        port=a.port,
        db=a.db,
        server_url=a.server_url,
        server_pid=a.server_pid,
        compression=not a.no_compression,
        client_procs=a.client_procs,
        drain=a.drain,
        seed=a.seed,
        timeline=a.timeline,
    )
    return cfg, bool(a.json)


def main(argv: Sequence[str] | None = None) -> int:
    cfg, as_json = parse_args(argv)
    stats = asyncio.run(run(cfg))
    s = summary(cfg, stats)
    print(json.dumps(s) if as_json else render_text(s))
    return 1 if s["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
