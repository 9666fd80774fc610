"""Chaos bench of ``liarsdice serve``: SIGKILLs, store faults and hostile frames, nothing lost.

Starts a real ``liarsdice serve`` subprocess on a fresh database (a SQLite file, or a
throwaway PostgreSQL cluster from Debian's packages, ``tests/pg_util.py``), creates ``--rooms``
rooms of scripted players over HTTP and plays them over real WebSockets on loopback, while:

* **kill cycles** (``--cycles``): after ``--cycle-seconds`` of play (random) the server is
  killed with SIGKILL and started again on the same database and port. Its clients
  reconnect with their seat tokens (``hello {token, last_seq}``), catch up, send again the
  move that had no answer (same ``id``, same move: the server applies it at most once) and
  play on. A restart that is not healthy within ``--restart-timeout`` seconds, or whose
  ``/api/health`` lists ``broken_rooms`` (a log that does not replay) or misses a room, is a
  *failed restart*; a server that exits without being killed is a *crash*.
* **store faults** (``--faults``, spread over the cycles): the bench holds the database's
  real write lock from another connection for the server's ``--store-timeout`` plus
  0.3-1.0 s (SQLite: ``liarsdice.server.faults.sqlite_lock``, ``BEGIN EXCLUSIVE``;
  PostgreSQL: ``LOCK TABLE events, rooms IN EXCLUSIVE MODE``). Rooms that write meanwhile
  pause (``error store_unavailable``) and resume by themselves (a ``store_ok`` notice);
  a move refused with ``store_unavailable`` is sent again after the resume, same ``id``.
  Half of these cycles end with the kill after the resume, half with the kill during the
  fault (the lock is released before the restart).
* **fuzzing** (``--fuzzers`` connections from their own address): hostile frames of every
  client message type (``hello``, ``action``, ``chat``, ``add_bot``, ``settings``,
  ``start``, ``rematch``, ``client_seed``, ``resync``, ``back``, ``ping``): bad JSON, wrong
  types, unknown fields and types, huge numbers, deep nesting, oversized frames, wrong
  versions, binary frames, moves out of turn or illegal, resyncs with absurd ``last_seq``;
  and hostile handshakes (bad token, no such room, a foreign ``Origin``, no hello, a first
  frame that is not a hello). They play a room of their own (host seat + bots) and watch
  the others as spectators. Answers are counted by error code and close code.

Each room has 1-2 human seats (each a WebSocket client that moves from its view's ``legal``
list, as ``bench/load.py`` does, every move with a unique ``id``), 1-2 bots (``add_bot``),
and one spectator; the host starts, and offers a rematch when a game is over (not while a
seat of the room still waits for an answer). Each room's players connect from their own
loopback address (127.0.J.I): the server's per-address limits apply to each room alone.

After the cycles comes the **attack** phase (``--attack-seconds``; no kills, no faults, no
fuzzing): first a baseline window, then a window during which ``--attackers`` (20)
connections, spectators of ``--attacked-rooms`` rooms, flood ``resync`` with a far-back
``last_seq`` (snapshots; or 60 events back), ``chat`` and ``ping``, each at ``--attack-rate``
(9.5/s, just under the per-connection limit). They run in a separate process and all come
from one address (127.0.0.2), so together they meet the server's per-address budget (50
messages a second) and are cut off (``rate_limited``, close 4429) and reconnect after
``--attack-reconnect`` seconds; the figures say what they achieved. Measured: the p99
*frame gap* of the rooms not under attack, i.e. the action-to-broadcast latency (from just
before a human sends a move until every connection of its room has the ``update`` with it),
in the baseline window and under attack, side by side (``--p99-limit``, 100 ms, is the
target).

Then the clients stop (a move without an answer is sent again until answered, up to
``--drain`` s), the server is killed once more and restarted to check that every room
replays (this last restart counts like the others), stopped, and the ``events`` table is read
from the database itself:

* **moves acknowledged**: moves whose sender got the ``update`` with ``reply_to`` = its id
  (the server sends it only once the move is committed);
* **lost**: acknowledged moves whose ``id`` is not in the log (must be 0);
* **duplicated**: ids applied more than once (must be 0);
* **diverged rooms**: rooms whose log has a gap in ``seq``, or disagrees with an event a
  client received (kind and public fields at that ``seq``), or logs an acknowledged move at
  another ``seq`` or as another move, or that a client saw change (one ``seq`` received
  with two contents, an ``update`` that does not follow the last ``seq``, a ``seq`` going
  back), or that did not replay at a restart (must be 0);
* **failed restarts** and **server crashes** (must be 0); **server tracebacks**: unhandled
  exceptions in the server's log (must be 0);
* liveness (must be 0): **unresolved** moves (sent, never answered nor refused, after the
  drain), **slow reconnects** (restarts after which some client was not back and caught up
  within 20 s), **stalled rooms** (no new event in the attack phase's two windows).

The exit status is 1 when any of these is not 0 (or, with an attack phase, when the
unaffected rooms' p99 under attack is over ``--p99-limit``; ``--p99-limit 0`` checks nothing).

    python bench/chaos.py --quick --db sqlite                 # a smoke run, ~20 s
    python bench/chaos.py --db sqlite --json                  # 200 kill cycles, ~15 min
    python bench/chaos.py --db postgres                       # a throwaway cluster
    python bench/chaos.py --db postgres --pg-url postgresql+asyncpg://u@host/db
    python bench/chaos.py --db both --cycles 300 --seed 7 --keep /tmp/chaos

Measured on a 2-core VM shared with other jobs (Python 3.11; PostgreSQL 15 from Debian):
``--db sqlite|postgres --cycles 200 --attack-seconds 30 --seed 1`` (8 rooms, 40 store faults,
2 fuzzers), one backend after the other:

                                      SQLite                    PostgreSQL
    kill cycles / restarts            200 / 201                 200 / 201
    moves acknowledged                8368                      8862
      resent / of which no-op acks    776 / 163                 858 / 139
    lost / duplicated                 0 / 0                     0 / 0
    diverged rooms (events checked)   0 (66816 of 66965)        0 (67854 of 67943)
    failed restarts / crashes         0 / 0                     0 / 0
    server tracebacks                 0                         0
    restart healthy p50 / max         1.9 / 14.8 s              2.4 / 11.0 s
    store faults (pauses / resumes)   40 (252 / 161)            40 (216 / 143)
    fuzz frames (connections)         3000 (784)                2939 (789)
    wall time                         892 s                     950 s
    unaffected p99 baseline / attack  140 / 453 ms (load 4-6)   20.1 / 68.6 ms (load 1-1.5)

The honest clients got no error but ``store_unavailable`` (780 and 776) and no close but 1006
(the kills) and 1000. The attackers were cut off 1482 and 1609 times (``rate_limited``, 4429)
and still got ~150 frames a second (about 1300 snapshots in each 30 s window). The SQLite
attack figures came from a busy machine (load 4-6 from other jobs: at that load a server was
seen waiting for a CPU longer than it ran, and the bench's own event loop stalled up to 200 ms
here), and the slowest restarts (10-15 s) also fell in busy periods. With ``--cycles 5 --seed
2`` on a quieter machine (load 1-2.5) the p99 was 13.7 ms baseline and
86.0 ms under attack on SQLite, and 19.4 / 82.3 ms on PostgreSQL: the attack (1600 reconnects
in 30 s) adds stalls of ~150 ms that hit several rooms at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from liarsdice.server.faults import sqlite_lock

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"


def _sibling(name: str) -> ModuleType:
    """``bench/NAME.py`` as a module (``bench/`` is not a package)."""
    key = f"bench_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


load = _sibling("load")  # choose (the move policy), percentile, _free_port

_FRAME_TYPE = re.compile(r'\{"type":"(\w+)"')
_FRAME_SEQ = re.compile(r'"seq":(\d+)')
ATTACKER_IP = "127.0.0.2"
FUZZ_IP = "127.0.0.3"
BOT_LEVELS = ("prob", "random")
# Close codes an honest client must never get (rate limits, bad frames, tokens, rooms).
HOSTILE_CLOSES = {1009, 4400, 4401, 4403, 4404, 4408, 4429}


@dataclass
class Config:
    """The bench's parameters (the command-line options)."""

    db: str = "both"
    pg_url: str | None = None
    rooms: int = 8
    cycles: int = 200
    cycle_min: float = 0.5
    cycle_max: float = 1.5
    faults: int | None = None  # None: one cycle in five
    fuzzers: int = 2
    fuzz_rate: float = 8.0
    attack_seconds: float = 15.0
    attackers: int = 20
    attacked_rooms: int = 1
    attack_rate: float = 9.5
    attack_reconnect: float = 0.2
    store_timeout: float = 1.0
    store_retry: float = 0.1
    bot_delay: float = 0.05
    think_ms: float = 150.0
    liar: float = 0.3
    presets: tuple[str, ...] = ("classic", "perudo")
    restart_timeout: float = 30.0
    drain: float = 15.0
    seed: int = 1
    port: int = 0
    p99_limit_ms: float = 100.0
    keep: str | None = None

    @property
    def n_faults(self) -> int:
        return self.cycles // 5 if self.faults is None else self.faults


QUICK = {
    "rooms": 3,
    "cycles": 3,
    "cycle_min": 0.4,
    "cycle_max": 0.8,
    "faults": 1,
    "fuzzers": 1,
    "attack_seconds": 1.0,
    "drain": 8.0,
}


# --------------------------------------------------------------------------- bookkeeping
@dataclass
class Move:
    """A human's move: sent with a unique id, answered (acknowledged) or not."""

    id: str
    room: str
    seat: int
    action: int
    game_no: int
    acked: bool = False
    seq: int | None = None  # the seq of its event, from the acknowledgement
    sends: int = 0
    refused: str | None = None
    wait_resume: bool = False  # refused with store_unavailable: resend after store_ok


@dataclass
class Tally:
    """What the honest clients (players and spectators) saw."""

    moves_sent: int = 0
    resends: int = 0
    acked: int = 0
    acked_on_resend: int = 0
    noop_acks: int = 0  # a resend acknowledged without events: it had been applied
    chats: int = 0
    client_errors: list[str] = field(default_factory=list)  # the bench's own exceptions
    cut_off: list[str] = field(default_factory=list)  # closes an honest client must not get
    connects: int = 0
    connect_failures: int = 0
    resumed_update: int = 0  # catch-ups after a reconnect: an update ...
    resumed_snapshot: int = 0  # ... or a snapshot
    pauses: int = 0  # store_unavailable broadcasts (per room, from its spectator)
    resumes: int = 0  # store_ok notices (per room, from its spectator)
    errors: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)


@dataclass
class FuzzTally:
    """What the fuzzers sent and what they got back."""

    connections: int = 0
    connect_failures: int = 0
    frames: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    by_mutation: Counter[str] = field(default_factory=Counter)
    handshakes: Counter[str] = field(default_factory=Counter)
    replies: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    client_errors: int = 0  # the fuzzers' own exceptions (a bench bug)


def _ms(values: Sequence[float]) -> dict[str, float]:
    return {
        "p50": round(load.percentile(values, 50) * 1000, 2),
        "p90": round(load.percentile(values, 90) * 1000, 2),
        "p99": round(load.percentile(values, 99) * 1000, 2),
        "max": round(max(values, default=0.0) * 1000, 2),
        "n": len(values),
    }


def _s(values: Sequence[float]) -> dict[str, float]:
    return {
        "p50": round(load.percentile(values, 50), 3),
        "max": round(max(values, default=0.0), 3),
        "n": len(values),
    }


def _envelope(type_: str, **data: Any) -> str:
    return json.dumps({"type": type_, "version": 1, "data": data})


async def _ws(
    url: str, ip: str, *, origin: str | None = None, compression: bool = True
) -> ClientConnection:
    """A WebSocket to ``url`` from the loopback address ``ip``."""
    kwargs: dict[str, Any] = {"local_addr": (ip, 0)}
    if origin is not None:
        kwargs["origin"] = origin
    return await connect(
        url,
        compression="deflate" if compression else None,
        proxy=None,
        ping_interval=None,
        max_size=2**22,
        open_timeout=5,
        close_timeout=1,
        **kwargs,
    )


# --------------------------------------------------------------------------- the databases
class Backend:
    """A database the server runs on, and the bench's own way into it."""

    name = "?"
    url = ""

    async def hold_lock(self, seconds: float) -> None:
        """Hold the database's write lock from another connection for ``seconds``."""
        raise NotImplementedError

    async def read_events(self) -> list[tuple[str, int, str, dict[str, Any]]]:
        """Every row of ``events``: (room_id, seq, kind, data), by room and seq."""
        raise NotImplementedError


class SqliteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite+aiosqlite:///{path}"

    async def hold_lock(self, seconds: float) -> None:
        def hold() -> None:
            with sqlite_lock(self.path):  # BEGIN EXCLUSIVE from another connection
                time.sleep(seconds)

        await asyncio.to_thread(hold)

    async def read_events(self) -> list[tuple[str, int, str, dict[str, Any]]]:
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            rows = con.execute(
                "SELECT room_id, seq, kind, data FROM events ORDER BY room_id, seq"
            ).fetchall()
        finally:
            con.close()
        return [(r, int(s), k, json.loads(d)) for r, s, k, d in rows]


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, url: str) -> None:
        self.url = url
        self.dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)

    async def hold_lock(self, seconds: float) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.dsn)
        try:
            async with conn.transaction():
                await conn.execute("LOCK TABLE events, rooms IN EXCLUSIVE MODE")
                await asyncio.sleep(seconds)
        finally:
            await conn.close()

    async def read_events(self) -> list[tuple[str, int, str, dict[str, Any]]]:
        import asyncpg

        conn = await asyncpg.connect(self.dsn)
        try:
            rows = await conn.fetch(
                "SELECT room_id, seq, kind, data FROM events ORDER BY room_id, seq"
            )
        finally:
            await conn.close()
        return [(r["room_id"], int(r["seq"]), r["kind"], json.loads(r["data"])) for r in rows]


@contextlib.asynccontextmanager
async def postgres(cfg: Config) -> AsyncIterator[PostgresBackend]:
    """``--pg-url``, or a new database on a throwaway cluster (``tests/pg_util.py``).

    Raises :class:`Skip` when PostgreSQL or asyncpg cannot be had."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise Skip("asyncpg is not installed (pip install 'liarsdice[postgres]')") from None
    if cfg.pg_url is not None:
        yield PostgresBackend(cfg.pg_url)
        return
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    try:
        import pg_util

        gen = pg_util.start_cluster()
        cluster = await asyncio.to_thread(next, gen)
    except (KeyboardInterrupt, SystemExit, asyncio.CancelledError):
        raise
    except BaseException as err:  # pytest.fail's Failed is a BaseException
        raise Skip(f"PostgreSQL could not be installed or started: {err}") from None
    try:
        db = await asyncio.to_thread(cluster.new_database)
        yield PostgresBackend(cluster.url(db))
    finally:
        await asyncio.to_thread(gen.close)


class Skip(Exception):
    """A backend that cannot run here (PostgreSQL missing): reported, not a failure."""


# --------------------------------------------------------------------------- the server
class Server:
    """The ``liarsdice serve`` subprocess: started, SIGKILLed and restarted on one database,
    always on the same port; its output goes to one log, a marker line before each start."""

    def __init__(self, cfg: Config, db_url: str, port: int, log_path: Path) -> None:
        self.cfg = cfg
        self.db_url = db_url
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.expected_exit = True
        self.healthy = False  # up and answering (the fuzzers wait for it)
        self.generation = 0  # bumped at each start: clients' welcomes carry it
        self.starts = 0
        self.start_s: list[float] = []
        self.start_at: list[int] = []  # the start number of each of start_s
        self.failures: list[str] = []  # failed restarts, with the reason
        self.crashes: list[str] = []
        self.broken: dict[str, str] = {}  # rooms any start reported in broken_rooms
        self.lock = asyncio.Lock()

    def command(self) -> list[str]:
        c = self.cfg
        return [
            sys.executable, "-c", "from liarsdice.cli.main import main; main()", "serve",
            "--port", str(self.port), "--db", self.db_url,
            "--store-timeout", str(c.store_timeout), "--store-retry", str(c.store_retry),
            "--bot-delay", str(c.bot_delay), "--grace", "3600", "--reveal", "0",
            # every simulated client connects from loopback: lift the per-address caps (but not
            # the message rate per address: the attackers' flood is measured against it)
            "--rooms-per-ip", "100000", "--max-ws-per-ip", "100000",
            "--max-conns-per-ip", "100000", "--joins-per-ip", "100000",
            "--joins-per-room", "100000", "--http-rate", "0",
        ]  # fmt: skip

    def tail(self, n: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    async def _health(self, proc: subprocess.Popen[bytes]) -> dict[str, Any] | None:
        deadline = time.monotonic() + self.cfg.restart_timeout
        async with httpx.AsyncClient(trust_env=False) as http:
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    return None
                try:
                    r = await http.get(f"{self.base}/api/health", timeout=1)
                    if r.status_code == 200:
                        out: dict[str, Any] = r.json()
                        return out
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.03)
        return None

    async def start(self, expected_rooms: int | None) -> float:
        """Start the server and wait until it is healthy; returns the seconds it took. A start
        that fails is recorded and tried again (three times in all)."""
        for _ in range(3):
            self.starts += 1
            self.generation += 1
            with self.log_path.open("ab") as log:
                log.write(f"\n=== chaos: start {self.starts} ===\n".encode())
                log.flush()
                self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
            self.expected_exit = False
            t0 = time.monotonic()
            health = await self._health(self.proc)
            took = time.monotonic() - t0
            if health is None:
                status = self.proc.poll()
                self.failures.append(
                    f"start {self.starts}: not healthy after {took:.1f} s "
                    f"(exit status {status}); log:\n{self.tail(1500)}"
                )
                self.kill()
                continue
            self.start_s.append(took)
            self.start_at.append(self.starts)
            self.healthy = True
            problems = []
            broken = health.get("broken_rooms") or {}
            if broken:
                self.broken.update(broken)
                problems.append(f"broken rooms {broken}")
            if expected_rooms is not None and health.get("rooms") != expected_rooms:
                problems.append(f"{health.get('rooms')} rooms loaded, {expected_rooms} expected")
            if problems:
                self.failures.append(f"start {self.starts}: " + "; ".join(problems))
            return took
        raise RuntimeError(f"the server did not start, three times:\n{self.tail()}")

    def schedstat(self) -> tuple[float, float] | None:
        """(CPU seconds, seconds waiting for a CPU) of the server's threads so far (Linux)."""
        if self.proc is None:
            return None
        cpu = wait = 0.0
        try:
            for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
                fields = (task / "schedstat").read_text().split()
                cpu, wait = cpu + int(fields[0]) / 1e9, wait + int(fields[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return None
        return cpu, wait

    def kill(self) -> None:
        """SIGKILL."""
        self.expected_exit, self.healthy = True, False
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait()

    def stop(self) -> None:
        """A graceful stop (SIGINT), SIGKILL after 15 s."""
        self.expected_exit, self.healthy = True, False
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    async def monitor(self, expected_rooms: Callable[[], int]) -> None:
        """Notice a server that exits on its own (a crash), record it and start it again."""
        while True:
            await asyncio.sleep(0.2)
            async with self.lock:
                p = self.proc
                if p is None or self.expected_exit or p.poll() is None:
                    continue
                self.healthy = False
                self.crashes.append(
                    f"exit status {p.returncode} after start {self.starts}; log:\n{self.tail(2000)}"
                )
                await self.start(expected_rooms())

    def log_report(self) -> dict[str, Any]:
        text = self.tail(10**9)
        marker = "Traceback (most recent call last)"
        excerpts: list[str] = []
        at = text.find(marker)
        while at >= 0 and len(excerpts) < 3:
            excerpts.append(text[max(0, at - 300) : at + 1500])
            at = text.find(marker, at + 1)
        lines = text.splitlines()
        return {
            "tracebacks": text.count(marker),
            "paused_lines": sum(1 for ln in lines if "store failed" in ln and "paused" in ln),
            "resumed_lines": sum(1 for ln in lines if "answers again" in ln),
            "traceback_excerpts": excerpts,
        }


# --------------------------------------------------------------------------- the clients
class RoomClient:
    """One room: its connections, what they received, its moves and the latency bookkeeping."""

    def __init__(self, chaos: Chaos, index: int, room_id: str, preset: str, bots: int) -> None:
        self.chaos = chaos
        self.index = index
        self.id = room_id
        self.preset = preset
        self.bots = bots
        self.conns: list[Conn] = []
        self.attacked = False
        self.seen: dict[int, dict[str, Any]] = {}  # seq -> the event as received (no seq)
        self.anomalies: list[str] = []
        self.moves: dict[str, Move] = {}
        self.counter = 0
        self.waiting: dict[int, tuple[float, str, int]] = {}  # seq -> (sent, window, conns)
        self.sent_info: dict[str, tuple[float, str, int]] = {}  # move id -> the same
        self.arrivals: dict[int, list[float]] = {}

    def anomaly(self, what: str) -> None:
        if len(self.anomalies) < 20:
            self.anomalies.append(what)
        else:
            self.anomalies[-1] = f"... and more ({what})"

    def next_id(self, seat: int) -> str:
        self.counter += 1
        return f"m{self.index}.{seat}.{self.counter}"

    def saw(self, ev: dict[str, Any]) -> None:
        seq = int(ev["seq"])
        body = {k: v for k, v in ev.items() if k != "seq"}
        old = self.seen.get(seq)
        if old is None:
            self.seen[seq] = body
        elif old != body:
            self.anomaly(f"seq {seq} received as {old} and as {body}")

    def idle(self) -> bool:
        """No seat of the room waits for an answer to a move."""
        return all(c.pending is None for c in self.conns)

    def poke(self) -> None:
        for c in self.conns:
            c.consider()

    def live(self) -> int:
        return sum(1 for c in self.conns if c.caught_up)

    # latency: from a move's send until every connection of the room has its event
    def sent(self, move: Move, t: float) -> None:
        window = self.chaos.window
        if window is not None:
            self.sent_info[move.id] = (t, window, self.live())

    def acked_at(self, move: Move) -> None:
        info = self.sent_info.pop(move.id, None)
        if info is not None and move.seq is not None:
            self.waiting[move.seq] = info
            self._check(move.seq)

    def arrived(self, seq: int, t: float) -> None:
        self.arrivals.setdefault(seq, []).append(t)
        self._check(seq)

    def _check(self, seq: int) -> None:
        times = self.arrivals.get(seq)
        if not times:
            return
        w = self.waiting.get(seq)
        if w is None:
            if len(times) >= self.live():  # a bot's move, or one not measured
                del self.arrivals[seq]
            return
        if len(times) >= w[2]:
            label = f"{w[1]}:attacked" if self.attacked else w[1]
            self.chaos.samples.setdefault(label, []).append(max(times) - w[0])
            self.chaos.sample_at.setdefault(label, []).append(w[0] - self.chaos.window_start)
            del self.arrivals[seq], self.waiting[seq]

    def forget_latency(self) -> None:
        self.waiting.clear()
        self.sent_info.clear()
        self.arrivals.clear()


class Conn:
    """One honest client: a human seat (``seat``) or the room's spectator (``seat`` None).

    Reconnects whenever its WebSocket closes (``hello {token, last_seq}``), checks that what
    it receives follows on from what it had, and (a seat) plays its turns."""

    def __init__(
        self, room: RoomClient, seat: int | None, token: str | None, ip: str, rng: random.Random
    ) -> None:
        self.room = room
        self.chaos = room.chaos
        self.seat = seat
        self.token = token
        self.ip = ip
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.conn_no = 0
        self.generation = 0  # the server generation that welcomed this connection
        self.caught_up = False
        self.last_seq: int | None = None
        self.max_seq = 0
        self.seq = 0
        self.status = "lobby"
        self.view: dict[str, Any] | None = None
        self.moved_at = -1
        self.rematched = 0
        self.rematch_failed = False
        self.pending: Move | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.first = asyncio.Event()

    @property
    def host(self) -> bool:
        return self.seat == 0

    def spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self) -> None:
        chaos = self.chaos
        url = f"{chaos.ws_base}/ws/rooms/{self.room.id}"
        delay = 0.05
        while not chaos.closing:
            try:
                ws = await _ws(url, self.ip)
            except Exception:
                self.chaos.tally.connect_failures += 1
                await asyncio.sleep(delay)
                delay = min(0.4, delay * 2)
                continue
            delay = 0.05
            self.chaos.tally.connects += 1
            self.conn_no += 1
            self.ws, self.caught_up, self.moved_at, self.rematched = ws, False, -1, 0
            try:
                await ws.send(
                    _envelope("hello", token=self.token, last_seq=self.last_seq, id="hello")
                )
                async for raw in ws:
                    self.frame(json.loads(raw), time.monotonic())
            except ConnectionClosed:
                pass
            except Exception as err:  # a bench bug (or a frame it cannot read): a failure
                self.chaos.tally.client_errors.append(f"room {self.room.id}: {err!r}")
            finally:
                self.ws, self.caught_up = None, False
                code = ws.close_code
                self.chaos.tally.closes[str(code)] += 1
                if code in HOSTILE_CLOSES:  # an honest client cut off: a server defect
                    self.chaos.tally.cut_off.append(
                        f"room {self.room.id}: {code} {ws.close_reason}"
                    )
                with contextlib.suppress(Exception):
                    await ws.close()

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)

    # ---------------------------------------------------------------- receiving
    def frame(self, frame: dict[str, Any], t: float) -> None:
        kind = frame.get("type")
        data = frame.get("data") or {}
        if kind == "welcome":
            self.generation = self.chaos.server_generation
            return
        if kind == "error":
            self.error(data)
            return
        if kind == "update":
            self.update(data, t)
        elif kind == "snapshot":
            self.snapshot(data)
        else:
            return
        if not self.caught_up:  # the catch-up that follows the welcome
            self.caught_up = True
            self.first.set()
            if self.conn_no > 1:
                if kind == "update":
                    self.chaos.tally.resumed_update += 1
                else:
                    self.chaos.tally.resumed_snapshot += 1
            if self.pending is not None:
                self.resend()
        self.consider()

    def _follow(self, seq: int) -> None:
        if seq < self.max_seq:
            self.room.anomaly(f"seq went back from {self.max_seq} to {seq}")
        self.max_seq = max(self.max_seq, seq)
        self.last_seq = self.seq = seq

    def update(self, data: dict[str, Any], t: float) -> None:
        room = self.room
        seq, from_seq = int(data["seq"]), int(data["from_seq"])
        if self.last_seq is not None and from_seq != self.last_seq:
            room.anomaly(f"an update from seq {from_seq} reached a client at {self.last_seq}")
        events = data.get("events") or []
        ref = data.get("reply_to")
        pending = self.pending
        if pending is not None and ref == pending.id:
            self.acked(pending, events)
        expect = from_seq
        for ev in events:
            if "seq" not in ev:  # presence, notices: not logged
                if ev.get("kind") == "notice" and ev.get("code") == "store_ok":
                    self.resumed()
                continue
            s = int(ev["seq"])
            if s != expect + 1:
                room.anomaly(f"update events jump from {expect} to {s}")
            expect = s
            room.saw(ev)
            if ev.get("kind") == "action":
                room.arrived(s, t)
        if expect != seq:
            room.anomaly(f"an update's events end at {expect}, its seq is {seq}")
        self._follow(seq)
        self.status = data["room"]["status"]
        self.view = data.get("view")

    def snapshot(self, data: dict[str, Any]) -> None:
        for ev in data.get("chat") or []:
            if "seq" in ev:
                self.room.saw(ev)
        self._follow(int(data["seq"]))
        self.status = data["room"]["status"]
        self.view = data.get("view")

    def error(self, data: dict[str, Any]) -> None:
        code = str(data.get("code"))
        ref = data.get("reply_to")
        tally = self.chaos.tally
        tally.errors[code] += 1
        pending = self.pending
        if pending is not None and ref == pending.id:
            if code == "store_unavailable":
                pending.wait_resume = True
            else:
                pending.refused = code
                tally.refused[code] += 1
                self.pending = None
                self.room.poke()
        elif code == "store_unavailable":
            if ref is None and self.seat is None:
                tally.pauses += 1
            if isinstance(ref, str) and ref.startswith("rematch"):
                self.rematch_failed = True

    def acked(self, move: Move, events: list[dict[str, Any]]) -> None:
        tally = self.chaos.tally
        self.pending = None
        move.acked = True
        tally.acked += 1
        if move.sends > 1:
            tally.acked_on_resend += 1
        mine = [e for e in events if e.get("kind") == "action" and e.get("seat") == self.seat]
        if mine:
            move.seq = int(mine[0]["seq"])
            if mine[0].get("action") != move.action:
                self.room.anomaly(f"move {move.id} acknowledged as {mine[0]}")
            self.room.acked_at(move)
        elif move.sends > 1:
            tally.noop_acks += 1
        else:
            self.room.anomaly(f"move {move.id} acknowledged (first send) without its event")
        if not self.chaos.stopping and self.rng.random() < 0.03:
            tally.chats += 1
            self.spawn(self._send(_envelope("chat", text=f"gg {move.id}", id=f"c{move.id}")))
        self.room.poke()

    def resumed(self) -> None:
        if self.seat is None:
            self.chaos.tally.resumes += 1
        if self.pending is not None and self.pending.wait_resume:
            self.resend()
        if self.rematch_failed:
            self.rematch_failed, self.rematched = False, 0

    # ---------------------------------------------------------------- playing
    def consider(self) -> None:
        """Move (after a think time) when it is this seat's turn; the host offers rematches."""
        if self.seat is None or not self.caught_up or self.chaos.stopping or self.view is None:
            return
        view = self.view
        if (
            self.status == "playing"
            and view.get("to_move") == self.seat
            and view.get("legal")
            and self.seq > self.moved_at
            and self.pending is None
        ):
            self.moved_at = self.seq
            self.spawn(self.move_later(self.conn_no, self.seq, view["legal"], view["game_no"]))
        elif (
            self.host
            and self.status == "finished"
            and int(view.get("game_no", 0)) > self.rematched
            and self.room.idle()
        ):
            self.rematched = int(view["game_no"])
            self.spawn(self.rematch_later(self.conn_no, self.rematched))

    def think(self) -> float:
        return self.chaos.cfg.think_ms * (0.5 + self.rng.random()) / 1000

    async def move_later(
        self, conn_no: int, seq: int, legal: list[dict[str, Any]], game_no: int
    ) -> None:
        await asyncio.sleep(self.think())
        if (
            self.chaos.stopping
            or conn_no != self.conn_no
            or not self.caught_up
            or self.pending is not None
            or self.seq != seq
        ):
            return
        assert self.seat is not None
        choice = load.choose(legal, self.rng, self.chaos.cfg.liar)
        move = Move(
            self.room.next_id(self.seat), self.room.id, self.seat, choice["action"], game_no
        )
        self.pending = move
        self.room.moves[move.id] = move
        self.chaos.tally.moves_sent += 1
        self.room.sent(move, time.monotonic())
        await self.send_move(move)

    async def send_move(self, move: Move) -> None:
        move.sends += 1
        await self._send(_envelope("action", action=move.action, id=move.id))

    def resend(self) -> None:
        move = self.pending
        assert move is not None
        move.wait_resume = False
        self.chaos.tally.resends += 1
        self.spawn(self.send_move(move))

    async def rematch_later(self, conn_no: int, game_no: int) -> None:
        await asyncio.sleep(self.think())
        view = self.view
        if (
            self.chaos.stopping
            or conn_no != self.conn_no
            or self.status != "finished"
            or view is None
            or view.get("game_no") != game_no
            or not self.room.idle()
        ):
            self.rematched = 0 if conn_no == self.conn_no else self.rematched
            return
        await self._send(_envelope("rematch", id=f"rematch{game_no}"))

    async def _send(self, text: str) -> None:
        ws = self.ws
        if ws is None:
            return  # the move stays pending: sent again after the reconnect
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)


# --------------------------------------------------------------------------- fuzzing
FUZZ_TYPES = (
    "hello", "action", "chat", "add_bot", "settings", "start", "rematch", "client_seed",
    "resync", "back", "ping",
)  # fmt: skip
BASE_DATA: dict[str, dict[str, Any]] = {
    "hello": {"token": None, "last_seq": 0},
    "action": {"action": 3},
    "chat": {"text": "hi"},
    "add_bot": {"level": "prob"},
    "settings": {"turn_timer": 30},
    "start": {},
    "rematch": {},
    "client_seed": {"seed": "fuzz-seed"},
    "resync": {"last_seq": 0},
    "back": {},
    "ping": {},
}
FIELDS = (
    "id", "token", "last_seq", "client_seed", "action", "text", "room", "seq", "level",
    "turn_timer", "seed",
)  # fmt: skip
WEIRD: list[Any] = [
    None, True, False, -1, 0, 1, 2**31, 2**63, 2**64 + 1, 10**100, -(10**100), 1.5, -0.0,
    1e308, "", " ", "x" * 65, "x" * 600, "\u0000\u001b[31m", "<script>alert(1)</script>",
    "\u202e\ud800\udfff", "\uff11\uff12", [], [1, 2, 3], {}, {"a": {"b": 1}},
]  # fmt: skip
RAW_FRAMES: list[str] = [
    "", " ", "{", "}", "null", "true", "[]", "[1,2]", "42", '"ping"', '{"type":"ping"',
    '{"type":"ping","version":1,"data":{}}garbage', "NaN", "\u0000\u0001",
    '{"type":"ping","version":1,"data":{},"type":"start"}',
    '{"type":"ping","version":1e400,"data":{}}',
    '{"type":"settings","version":1,"data":{"turn_timer":NaN}}',
    '{"type":"settings","version":1,"data":{"turn_timer":Infinity}}',
    '{"type":"resync","version":1,"data":{"last_seq":' + "9" * 3000 + "}}",
    "[" * 17 + "]" * 17, '{"a":' * 16 + "1" + "}" * 16, "[" * 2000 + "]" * 2000,
    '{"type":"ping","version":1,"data":{"id":"' + "\\u0000" * 20 + '"}}',
    '{"type":"\\ud800","version":1,"data":{}}',
]  # fmt: skip
MUTATIONS = (
    "field", "field", "extra", "id", "version", "type", "data", "deep", "big", "semantic",
    "semantic", "semantic", "raw", "binary",
)  # fmt: skip
MISSING = object()


def _nested(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _semantic(rng: random.Random, mtype: str, seq: int) -> dict[str, Any]:
    """Well-formed data that means something wrong: out of turn, illegal, absurd."""
    r = rng.random
    if mtype == "action":
        a = rng.randint(0, 400)
        return rng.choice(
            [
                {"action": a},
                {"text": rng.choice(["liar", "exact", "99x99", "1x1", "show 6,6", "buy", "0x3",
                                     "-1x2", "1x7", "pair K", "accept", "left", "shake"])},
                {"action": a, "room": "nope"},
                {"action": a, "seq": 0},
                {"action": a, "seq": seq},
                {"action": 1, "text": "liar"},
                {},
            ]
        )  # fmt: skip
    if mtype == "resync":
        return {"last_seq": rng.choice([0, 10**12, 2**53, seq, max(0, seq - 64), seq + 1])}
    if mtype == "hello":
        return {"token": "x" * 128 if r() < 0.5 else None, "last_seq": 10**12}
    if mtype == "chat":
        return {"text": rng.choice(["\u0000" * 5, "<b>x</b>", "x" * 200, "x" * 201, "\U0001f3b2",
                                    "\u202eevil", " "])}  # fmt: skip
    if mtype == "add_bot":
        return {"level": rng.choice(["god", "PROB", " prob ", "random", "x" * 16, "x" * 17])}
    if mtype == "settings":
        return {"turn_timer": rng.choice([4, 5, 3600, 3601, 1e308, -1, 0.5, None])}
    if mtype == "client_seed":
        return {"seed": rng.choice(["", "x" * 65, "bad seed!", "ok-seed", "\u00e9", "a" * 64])}
    return {"id": rng.choice(["x" * 64, "x" * 65, "", "\u0000"])}


def fuzz_frame(rng: random.Random, mtype: str, seq: int) -> tuple[str | bytes, str]:
    """One hostile frame of client message type ``mtype``, and the mutation's name."""
    mutation = rng.choice(MUTATIONS)
    data: dict[str, Any] = dict(BASE_DATA[mtype])
    env: dict[str, Any] = {"type": mtype, "version": 1, "data": data}
    if mutation == "field":
        data[rng.choice(FIELDS)] = rng.choice(WEIRD)
    elif mutation == "extra":
        data[rng.choice(["evil", "__proto__", "type", "x" * 40])] = rng.choice(WEIRD)
    elif mutation == "id":
        data["id"] = rng.choice(["x" * 65, 12, None, [], {"a": 1}, "\u0000", ""])
    elif mutation == "version":
        v = rng.choice([2, 0, -1, "1", 1.0, True, None, 10**20, MISSING])
        if v is MISSING:
            del env["version"]
        else:
            env["version"] = v
    elif mutation == "type":
        t = rng.choice(["HELLO", "hax", "", "x" * 33, 1, None, [], "ping\u0000", MISSING])
        if t is MISSING:
            del env["type"]
        else:
            env["type"] = t
    elif mutation == "data":
        d = rng.choice([[], "s", 1, None, MISSING])
        if d is MISSING:
            del env["data"]
        else:
            env["data"] = d
    elif mutation == "deep":
        data[rng.choice([*data, "x"])] = _nested(rng.randint(14, 60))
    elif mutation == "big":
        data["text"] = "x" * rng.randint(4100, 9000)
    elif mutation == "semantic":
        env["data"] = _semantic(rng, mtype, seq)
        if rng.random() < 0.5:
            env["data"]["id"] = f"f{rng.randrange(10**6)}"
    elif mutation == "raw":
        return rng.choice(RAW_FRAMES), mutation
    else:  # binary: undecodable bytes, or a valid frame sent as a binary message
        if rng.random() < 0.5:
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))), mutation
        return json.dumps(env).encode(), mutation
    return json.dumps(env), mutation


# --------------------------------------------------------------------------- a backend's run
class Chaos:
    """One backend's run: the rooms, the kill cycles, the faults, the fuzzers, the attack."""

    def __init__(self, cfg: Config, backend: Backend, server: Server) -> None:
        self.cfg = cfg
        self.backend = backend
        self.server = server
        self.base = server.base
        self.ws_base = server.base.replace("http://", "ws://", 1)
        self.rng = random.Random(f"{cfg.seed}:{backend.name}")
        self.rooms: list[RoomClient] = []
        self.conns: list[Conn] = []
        self.tally = Tally()
        self.fuzz = FuzzTally()
        self.fuzz_room: str | None = None
        self.fuzz_token: str | None = None
        self.window: str | None = None
        self.samples: dict[str, list[float]] = {}  # window label -> broadcast latencies
        self.sample_at: dict[str, list[float]] = {}  # ... and when they were sent (window s)
        self.window_start = 0.0
        self.server_load: dict[str, dict[str, float]] = {}  # per window: the server's CPU
        self.lag: dict[str, list[float]] = {}
        self.stopping = False  # no new moves or rematches
        self.closing = False  # the honest connections close for good
        self.fuzz_on = False
        self.kills = 0
        self.cycles_done = 0
        self.fault_holds: list[float] = []
        self.reconnect_s: list[float] = []
        self.slow_reconnects = 0
        self.attack: dict[str, Any] | None = None
        self.stalled: list[str] = []  # rooms that made no progress in the attack phase
        self.tasks: list[asyncio.Task[Any]] = []

    @property
    def server_generation(self) -> int:
        return self.server.generation

    def expected_rooms(self) -> int:
        return len(self.rooms) + (1 if self.fuzz_room is not None else 0)

    # ---------------------------------------------------------------- setup
    async def setup(self) -> None:
        cfg = self.cfg
        async with httpx.AsyncClient(base_url=self.base, trust_env=False) as http:

            async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
                r = await http.post(path, json=body, timeout=30)
                if r.status_code != 201:
                    raise RuntimeError(f"POST {path}: {r.status_code} {r.text}")
                out: dict[str, Any] = r.json()
                return out

            for i in range(cfg.rooms):
                rng = random.Random(f"{cfg.seed}:{self.backend.name}:room{i}")
                preset = cfg.presets[i % len(cfg.presets)]
                humans, bots = rng.choice((1, 2)), rng.choice((1, 2))
                created = await post("/api/rooms", {"preset": preset, "name": f"r{i}-h0"})
                room = RoomClient(self, i, created["room"], preset, bots)
                room.attacked = i < cfg.attacked_rooms and cfg.attack_seconds > 0
                tokens = [created["token"]]
                for s in range(1, humans):
                    joined = await post(f"/api/rooms/{room.id}/join", {"name": f"r{i}-h{s}"})
                    tokens.append(joined["token"])
                for s, token in enumerate(tokens):
                    room.conns.append(Conn(room, s, token, f"127.0.{s + 1}.{i + 1}", rng))
                room.conns.append(Conn(room, None, None, f"127.0.{len(tokens) + 1}.{i + 1}", rng))
                self.rooms.append(room)
                self.conns += room.conns
            fuzz = await post("/api/rooms", {"preset": "classic", "name": "fuzz-host"})
            self.fuzz_room, self.fuzz_token = fuzz["room"], fuzz["token"]
        for c in self.conns:
            self.tasks.append(asyncio.create_task(c.run()))
        await asyncio.wait_for(asyncio.gather(*(c.first.wait() for c in self.conns)), 60)
        for room in self.rooms:
            host = room.conns[0]
            for b in range(room.bots):
                await host._send(_envelope("add_bot", level=BOT_LEVELS[b % 2], id=f"bot{b}"))
            await host._send(_envelope("start", id="start"))
        await self._setup_fuzz_room()
        deadline = time.monotonic() + 60
        while any(r.conns[0].status != "playing" for r in self.rooms):
            if time.monotonic() > deadline:
                raise RuntimeError("the rooms did not start")
            await asyncio.sleep(0.05)

    async def _setup_fuzz_room(self) -> None:
        """The fuzzers' own room: their seat hosts two bots and starts."""
        ws = await _ws(f"{self.ws_base}/ws/rooms/{self.fuzz_room}", FUZZ_IP)
        try:
            await ws.send(_envelope("hello", token=self.fuzz_token))
            for frame in (
                _envelope("add_bot", level="random"),
                _envelope("add_bot", level="prob"),
                _envelope("start"),
            ):
                await ws.send(frame)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                got = json.loads(await asyncio.wait_for(ws.recv(), 30))
                room = (got.get("data") or {}).get("room")
                if isinstance(room, dict) and room.get("status") == "playing":
                    return
            raise RuntimeError("the fuzz room did not start")
        finally:
            await ws.close()

    # ---------------------------------------------------------------- kill cycles
    async def wait_clients(self, since: float) -> None:
        """Until every honest connection is back on the current server and caught up."""
        deadline = time.monotonic() + 20
        gen = self.server.generation
        while time.monotonic() < deadline:
            if all(c.caught_up and c.generation == gen for c in self.conns):
                self.reconnect_s.append(time.monotonic() - since)
                return
            await asyncio.sleep(0.02)
        self.slow_reconnects += 1

    async def fault(self, delay: float, hold: float) -> None:
        await asyncio.sleep(delay)
        self.fault_holds.append(hold)
        await self.backend.hold_lock(hold)

    async def kill_cycles(self, log: Callable[[str], None]) -> None:
        cfg = self.cfg
        rng = self.rng
        faulty = set(rng.sample(range(cfg.cycles), min(cfg.n_faults, cfg.cycles)))
        up = time.monotonic()
        for c in range(cfg.cycles):
            await self.wait_clients(up)
            fault_task: asyncio.Task[None] | None = None
            if c in faulty:
                delay = rng.uniform(0.05, 0.3)
                hold = cfg.store_timeout + rng.uniform(0.3, 1.0)
                fault_task = asyncio.create_task(self.fault(delay, hold))
                if rng.random() < 0.5:  # kill after the rooms resumed
                    play = delay + hold + rng.uniform(0.4, 1.0)
                else:  # kill during the fault: before or while the rooms are paused
                    play = delay + rng.uniform(0.2, hold)
            else:
                play = rng.uniform(cfg.cycle_min, cfg.cycle_max)
            await asyncio.sleep(play)
            async with self.server.lock:
                self.server.kill()
                self.kills += 1
                if fault_task is not None:
                    await fault_task  # the lock is released before the restart
                for room in self.rooms:
                    room.forget_latency()
                await self.server.start(self.expected_rooms())
            up = time.monotonic()
            self.cycles_done += 1
            if (c + 1) % 25 == 0:
                log(f"  {self.backend.name}: {c + 1} cycles, {self.tally.acked} moves acknowledged")
        await self.wait_clients(up)

    # ---------------------------------------------------------------- fuzzing
    async def fuzzer(self, k: int) -> None:
        rng = random.Random(f"{self.cfg.seed}:{self.backend.name}:fuzz{k}")
        f = self.fuzz
        n = 0
        while not self.closing:
            if not self.fuzz_on or not self.server.healthy:
                await asyncio.sleep(0.05)
                continue
            n += 1
            roll = rng.random()
            room = self.fuzz_room
            token: str | None = None
            origin: str | None = None
            handshake = "spectator"
            if roll < 0.4:
                token, handshake = self.fuzz_token, "fuzz_seat"
            elif roll < 0.7:
                room = rng.choice(self.rooms).id
            elif roll < 0.75:
                room, handshake = "no-such-room", "no_room"
            elif roll < 0.8:
                token, handshake = "x" * 32, "bad_token"
            elif roll < 0.84:
                origin, handshake = "https://evil.example", "bad_origin"
            elif roll < 0.88:
                handshake = "not_hello"
            elif roll < 0.92:
                handshake = "bad_hello"
            elif roll < 0.95:
                handshake = "big_hello"
            else:
                handshake = "silent"
            f.handshakes[handshake] += 1
            try:
                ws = await _ws(f"{self.ws_base}/ws/rooms/{room}", FUZZ_IP, origin=origin)
            except Exception:
                f.connect_failures += 1
                await asyncio.sleep(0.2)
                continue
            f.connections += 1
            seq = [0]
            reader = asyncio.create_task(self._fuzz_read(ws, seq))
            try:
                if handshake == "not_hello":
                    await ws.send(_envelope("ping"))
                elif handshake == "bad_hello":
                    await ws.send(_envelope("hello", token=12, last_seq=-1))
                elif handshake == "big_hello":
                    await ws.send(_envelope("hello", token=None, pad="x" * 5000))
                elif handshake != "silent":
                    await ws.send(_envelope("hello", token=token, last_seq=None))
                if handshake in ("spectator", "fuzz_seat"):
                    await asyncio.sleep(0.05)
                    for i in range(rng.randint(5, 25)):
                        if reader.done() or not self.fuzz_on or self.closing:
                            break
                        mtype = FUZZ_TYPES[(n + i) % len(FUZZ_TYPES)]
                        frame, mutation = fuzz_frame(rng, mtype, seq[0])
                        await ws.send(frame)
                        f.frames += 1
                        f.by_type[mtype] += 1
                        f.by_mutation[mutation] += 1
                        await asyncio.sleep(1 / self.cfg.fuzz_rate)
                await asyncio.sleep(0.2)
            except ConnectionClosed:
                pass
            except Exception:
                f.client_errors += 1
            finally:
                with contextlib.suppress(Exception):
                    await ws.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(reader, 2)
                reader.cancel()
                f.closes[str(ws.close_code)] += 1

    async def _fuzz_read(self, ws: ClientConnection, seq: list[int]) -> None:
        f = self.fuzz
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                frame = json.loads(raw)
                kind = str(frame.get("type"))
                f.replies[kind] += 1
                data = frame.get("data") or {}
                if kind == "error":
                    f.errors[str(data.get("code"))] += 1
                if isinstance(data.get("seq"), int):
                    seq[0] = data["seq"]

    # ---------------------------------------------------------------- the attack
    async def ticker(self) -> None:
        """The bench's own event-loop lag (a 10 ms sleep's oversleep), per window."""
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.01)
            if self.window is not None:
                self.lag.setdefault(self.window, []).append(max(0.0, time.monotonic() - t - 0.01))

    async def measure(self, label: str, seconds: float) -> None:
        for room in self.rooms:
            room.forget_latency()
        before, t0, cpu0 = self.server.schedstat(), time.monotonic(), time.process_time()
        self.window, self.window_start = label, t0
        await asyncio.sleep(seconds)
        self.window = None
        after, dt = self.server.schedstat(), time.monotonic() - t0
        if before is not None and after is not None:
            self.server_load[label] = {
                "cpu": round((after[0] - before[0]) / dt, 3),  # cores busy
                "runqueue_wait": round((after[1] - before[1]) / dt, 3),  # s waited per s
                "machine_load_average": round(os.getloadavg()[0], 2),
                "bench_cpu": round((time.process_time() - cpu0) / dt, 3),
            }
        await asyncio.sleep(0.5)  # the last broadcasts of the window

    async def attack_phase(self, log: Callable[[str], None]) -> None:
        cfg = self.cfg
        self.fuzz_on = False
        await asyncio.sleep(1.0)
        log(f"  {self.backend.name}: baseline window ({cfg.attack_seconds:g} s)")
        seqs = [max(c.max_seq for c in r.conns) for r in self.rooms]
        await self.measure("baseline", cfg.attack_seconds)
        targets = [r.id for r in self.rooms if r.attacked] or [self.rooms[0].id]
        args = {
            "base": self.ws_base,
            "rooms": targets,
            "n": cfg.attackers,
            "rate": cfg.attack_rate,
            "reconnect": cfg.attack_reconnect,
            "duration": cfg.attack_seconds + 1.0,
            "seed": cfg.seed,
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(Path(__file__).resolve()),
            "--attack-worker",
            json.dumps(args),
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        if line.strip() != b"ready":
            raise RuntimeError(f"the attack process did not start: {line!r}")
        log(f"  {self.backend.name}: attack window ({cfg.attackers} connections)")
        await self.measure("attack", cfg.attack_seconds)
        self.stalled = [
            r.id for r, seq in zip(self.rooms, seqs, strict=True)
            if max(c.max_seq for c in r.conns) <= seq
        ]  # fmt: skip
        out, _ = await asyncio.wait_for(proc.communicate(), 60)
        self.attack = json.loads(out.decode().strip().splitlines()[-1])

    # ---------------------------------------------------------------- the end
    async def drain(self) -> None:
        """No new moves; wait until every move sent has its answer (``--drain`` s at most)."""
        self.stopping = True
        deadline = time.monotonic() + self.cfg.drain
        while time.monotonic() < deadline and any(c.pending is not None for c in self.conns):
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(*(c.close() for c in self.conns))
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def attack_worker(args: dict[str, Any]) -> dict[str, Any]:
    """The attackers (a process of their own): ``n`` spectators of ``rooms`` from one address,
    each sending ``rate`` frames a second (resync from far back, chat, ping) and reconnecting
    ``reconnect`` s after the server cuts it off; prints ``ready`` once all said hello."""
    rooms: list[str] = args["rooms"]
    n, rate, duration = int(args["n"]), float(args["rate"]), float(args["duration"])
    stats: dict[str, Any] = {
        "connections": n,
        "frames_sent": 0,
        "frames_received": 0,
        "bytes_received": 0,
        "connects": 0,
        "connect_failures": 0,
        "received": Counter(),
        "errors": Counter(),
        "closes": Counter(),
    }
    welcomed = [asyncio.Event() for _ in range(n)]
    start = asyncio.Event()
    deadline = [float("inf")]

    async def read(ws: ClientConnection, seq: list[int], i: int) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                stats["frames_received"] += 1
                stats["bytes_received"] += len(raw)
                # cheap: the attackers share the machine with the server
                head = raw[:120] if isinstance(raw, str) else raw[:120].decode("utf-8", "replace")
                found = _FRAME_TYPE.match(head)
                kind = found.group(1) if found else "?"
                stats["received"][kind] += 1
                if kind == "welcome":
                    welcomed[i].set()
                elif kind == "error":
                    stats["errors"][str((json.loads(raw).get("data") or {}).get("code"))] += 1
                found = _FRAME_SEQ.search(head)
                if found:
                    seq[0] = int(found.group(1))

    async def one(i: int) -> None:
        rng = random.Random(f"{args['seed']}:attacker{i}")
        url = f"{args['base']}/ws/rooms/{rooms[i % len(rooms)]}"
        k = 0
        while time.monotonic() < deadline[0]:
            try:
                ws = await _ws(url, ATTACKER_IP)
            except Exception:
                stats["connect_failures"] += 1
                await asyncio.sleep(args["reconnect"])
                continue
            stats["connects"] += 1
            seq = [0]
            reader = asyncio.create_task(read(ws, seq, i))
            try:
                await ws.send(_envelope("hello", token=None, last_seq=0))
                stats["frames_sent"] += 1
                await start.wait()
                while time.monotonic() < deadline[0] and not reader.done():
                    k += 1
                    roll = rng.random()
                    if roll < 0.6:
                        frame = _envelope("resync", last_seq=0, id=f"a{k}")
                    elif roll < 0.8:
                        frame = _envelope("resync", last_seq=max(0, seq[0] - 60), id=f"a{k}")
                    elif roll < 0.9:
                        frame = _envelope("chat", text="spam " * 30, id=f"a{k}")
                    else:
                        frame = _envelope("ping", id=f"a{k}")
                    await ws.send(frame)
                    stats["frames_sent"] += 1
                    await asyncio.sleep(1 / rate)
            except ConnectionClosed:
                pass
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 2)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(reader, 2)
                reader.cancel()
                stats["closes"][str(ws.close_code)] += 1
            await asyncio.sleep(args["reconnect"])

    tasks = [asyncio.create_task(one(i)) for i in range(n)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(w.wait() for w in welcomed)), 20)
    deadline[0] = time.monotonic() + duration
    print("ready", flush=True)
    start.set()
    t0, cpu0 = time.monotonic(), time.process_time()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats["seconds"] = round(time.monotonic() - t0, 2)
    stats["cpu_s"] = round(time.process_time() - cpu0, 2)
    return stats


# --------------------------------------------------------------------------- the audit
def _matches(received: dict[str, Any], kind: str, data: dict[str, Any]) -> bool:
    """Whether an event as a client received it (no seq) is the logged ``(kind, data)``."""
    if received.get("kind") != kind:
        return False
    for key, value in received.items():
        if key in ("kind", "move"):  # "move": the notation's structured form, not logged
            continue
        logged = "kind" if key == "seat_kind" else key
        if data.get(logged) != value:
            return False
    return True


def audit(
    chaos: Chaos, rows: list[tuple[str, int, str, dict[str, Any]]], server: Server
) -> dict[str, Any]:
    """Compare what the clients were told with the event log read from the database."""
    log: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}
    for room_id, seq, kind, data in rows:
        log.setdefault(room_id, []).append((seq, kind, data))
    lost = duplicated = mismatched = compared = gaps = 0
    diverged: dict[str, list[str]] = {}
    ids_in_log = 0
    games = actions = 0
    all_rooms = [r.id for r in chaos.rooms] + ([chaos.fuzz_room] if chaos.fuzz_room else [])
    for room_id in all_rooms:
        events = log.get(room_id, [])
        if [e[0] for e in events] != list(range(1, len(events) + 1)):
            gaps += 1
            diverged.setdefault(room_id, []).append("the log has a gap in seq")
        if room_id in server.broken:
            diverged.setdefault(room_id, []).append(f"did not replay: {server.broken[room_id]}")
    for room in chaos.rooms:
        why = diverged.setdefault(room.id, [])
        events = log.get(room.id, [])
        at = {seq: (kind, data) for seq, kind, data in events}
        games += sum(1 for _, kind, _ in events if kind == "game_over")
        actions += sum(1 for _, kind, _ in events if kind == "action")
        for seq, received in room.seen.items():
            compared += 1
            logged = at.get(seq)
            if logged is None or not _matches(received, *logged):
                why.append(f"seq {seq}: received {received}, logged {logged}")
        ids: dict[tuple[int, str], list[tuple[int, int]]] = {}
        for seq, kind, data in events:
            if kind == "action" and "id" in data:
                ids.setdefault((data["seat"], data["id"]), []).append((seq, data["action"]))
        ids_in_log += len(ids)
        duplicated += sum(1 for v in ids.values() if len(v) > 1)
        for move in room.moves.values():
            if not move.acked:
                continue
            found = ids.get((move.seat, move.id))
            if not found:
                lost += 1
                why.append(f"acknowledged move {move.id} ({move.action}) is not in the log")
            elif found[0][1] != move.action or (move.seq is not None and found[0][0] != move.seq):
                mismatched += 1
                why.append(f"move {move.id} ({move.action} at {move.seq}) logged as {found[0]}")
        why += room.anomalies
    bad = {k: v[:5] for k, v in diverged.items() if v}
    unresolved = sum(
        1 for r in chaos.rooms for m in r.moves.values() if not m.acked and m.refused is None
    )
    return {
        "lost": lost,
        "duplicated": duplicated,
        "mismatched": mismatched,
        "diverged_rooms": len(bad),
        "diverged": bad,
        "log_gaps": gaps,
        "events_logged": len(rows),
        "events_compared": compared,
        "client_anomalies": sum(len(r.anomalies) for r in chaos.rooms),
        "move_ids_logged": ids_in_log,
        "unresolved": unresolved,
        "games_finished": games,
        "actions_logged": actions,
    }


# --------------------------------------------------------------------------- one backend
async def run_backend(
    cfg: Config, backend: Backend, workdir: Path, log: Callable[[str], None]
) -> dict[str, Any]:
    t0 = time.monotonic()
    load_before = os.getloadavg()
    port = cfg.port or load._free_port()
    log_path = workdir / f"server-{backend.name}.log"
    log_path.unlink(missing_ok=True)  # (a kept folder may hold an earlier run's log)
    server = Server(cfg, backend.url, port, log_path)
    chaos = Chaos(cfg, backend, server)
    log(f"chaos: {backend.name}: starting the server on port {port} ({backend.url})")
    await server.start(None)
    monitor = asyncio.create_task(server.monitor(chaos.expected_rooms))
    ticker = asyncio.create_task(chaos.ticker())
    fuzzers: list[asyncio.Task[None]] = []
    try:
        await chaos.setup()
        log(f"  {backend.name}: {len(chaos.rooms)} rooms playing; {cfg.cycles} kill cycles")
        chaos.fuzz_on = cfg.fuzzers > 0
        fuzzers = [asyncio.create_task(chaos.fuzzer(k)) for k in range(cfg.fuzzers)]
        await chaos.kill_cycles(log)
        if cfg.attack_seconds > 0:
            await chaos.attack_phase(log)
        chaos.fuzz_on = False
        await chaos.drain()
        await chaos.close()
        for task in fuzzers:
            task.cancel()
        await asyncio.gather(*fuzzers, return_exceptions=True)
        log(f"  {backend.name}: the last kill, and a restart to check that every room replays")
        async with server.lock:
            server.kill()
            chaos.kills += 1
            await server.start(chaos.expected_rooms())
            server.stop()
    finally:
        monitor.cancel()
        ticker.cancel()
        for task in fuzzers:
            task.cancel()
        chaos.closing = True
        await chaos.close()
        await asyncio.gather(monitor, ticker, return_exceptions=True)
        server.stop()
    rows = await backend.read_events()
    out = summary(cfg, chaos, audit(chaos, rows, server), time.monotonic() - t0)
    out["load_average"] = {"before": load_before[0], "after": os.getloadavg()[0]}
    return out


def summary(cfg: Config, chaos: Chaos, checked: dict[str, Any], wall: float) -> dict[str, Any]:
    server, tally, fuzz = chaos.server, chaos.tally, chaos.fuzz
    humans = sum(1 for c in chaos.conns if c.seat is not None)
    attack: dict[str, Any] | None = None
    if cfg.attack_seconds > 0:
        base, under = chaos.samples.get("baseline", []), chaos.samples.get("attack", [])
        a = chaos.attack or {}
        secs = float(a.get("seconds") or cfg.attack_seconds)
        attack = {
            "seconds": cfg.attack_seconds,
            "attackers": cfg.attackers,
            "attacked_rooms": sum(1 for r in chaos.rooms if r.attacked),
            "rate_per_connection": cfg.attack_rate,
            "unaffected_baseline_ms": _ms(base),
            "unaffected_attack_ms": _ms(under),
            "attacked_baseline_ms": _ms(chaos.samples.get("baseline:attacked", [])),
            "attacked_attack_ms": _ms(chaos.samples.get("attack:attacked", [])),
            "slowest": {k: _slowest(chaos, k) for k in ("baseline", "attack")},
            "bench_loop_lag_ms": {k: _ms(v) for k, v in sorted(chaos.lag.items())},
            "server_cpu": chaos.server_load,
            "p99_limit_ms": cfg.p99_limit_ms,
            "p99_ok": load.percentile(under, 99) * 1000 <= cfg.p99_limit_ms if under else False,
            "attackers_sent": a.get("frames_sent", 0),
            "attackers_received": a.get("frames_received", 0),
            "attackers_mbytes_received": round(a.get("bytes_received", 0) / 1e6, 3),
            "attackers_frames_per_s": round(a.get("frames_received", 0) / secs, 1),
            "attackers_received_by_type": dict(sorted(a.get("received", {}).items())),
            "attackers_errors": dict(sorted(a.get("errors", {}).items())),
            "attackers_closes": dict(sorted(a.get("closes", {}).items())),
            "attackers_connects": a.get("connects", 0),
            "attackers_connect_failures": a.get("connect_failures", 0),
            "attackers_cpu": round(a.get("cpu_s", 0) / secs, 3),
        }
    logs = server.log_report()
    out: dict[str, Any] = {
        "backend": chaos.backend.name,
        "seed": cfg.seed,
        "rooms": len(chaos.rooms),
        "human_seats": humans,
        "bots": sum(r.bots for r in chaos.rooms),
        "spectators": len(chaos.rooms),
        "presets": list(cfg.presets),
        "cycles": chaos.cycles_done,
        "kills": chaos.kills,
        "cycle_seconds": [cfg.cycle_min, cfg.cycle_max],
        "restarts": server.starts - 1,
        "failed_restarts": len(server.failures),
        "failed_restart_reasons": server.failures[:5],
        "server_crashes": len(server.crashes),
        "server_crash_reasons": server.crashes[:3],
        "server_tracebacks": logs["tracebacks"],
        "server_traceback_excerpts": logs["traceback_excerpts"],
        "start_s": _s(server.start_s),
        "slowest_starts": sorted(
            ((n, round(t, 2)) for n, t in zip(server.start_at, server.start_s, strict=True)),
            key=lambda p: -p[1],
        )[:5],
        "clients_back_s": _s(chaos.reconnect_s),
        "slow_reconnects": chaos.slow_reconnects,
        "stalled_rooms": len(chaos.stalled),
        "moves_sent": tally.moves_sent,
        "moves_acknowledged": tally.acked,
        "resends": tally.resends,
        "acknowledged_on_resend": tally.acked_on_resend,
        "noop_acknowledgements": tally.noop_acks,
        "refused": dict(sorted(tally.refused.items())),
        **checked,
        "store_faults": len(chaos.fault_holds),
        "fault_hold_s": [
            round(min(chaos.fault_holds, default=0), 2),
            round(max(chaos.fault_holds, default=0), 2),
        ],
        "rooms_paused": tally.pauses,
        "rooms_resumed": tally.resumes,
        "server_log_paused": logs["paused_lines"],
        "server_log_resumed": logs["resumed_lines"],
        "resumed_with_update": tally.resumed_update,
        "resumed_with_snapshot": tally.resumed_snapshot,
        "client_connects": tally.connects,
        "client_connect_failures": tally.connect_failures,
        "client_closes": dict(sorted(tally.closes.items())),
        "chats": tally.chats,
        "honest_cut_off": len(tally.cut_off),
        "honest_cut_off_reasons": tally.cut_off[:5],
        "bench_client_errors": len(tally.client_errors) + chaos.fuzz.client_errors,
        "bench_client_error_reasons": tally.client_errors[:5],
        "errors_by_code": dict(sorted(tally.errors.items())),
        "fuzz": {
            "connections": fuzz.connections,
            "connect_failures": fuzz.connect_failures,
            "frames": fuzz.frames,
            "by_type": dict(sorted(fuzz.by_type.items())),
            "by_mutation": dict(sorted(fuzz.by_mutation.items())),
            "handshakes": dict(sorted(fuzz.handshakes.items())),
            "replies": dict(sorted(fuzz.replies.items())),
            "errors_by_code": dict(sorted(fuzz.errors.items())),
            "closes": dict(sorted(fuzz.closes.items())),
        },
        "attack": attack,
        "wall_s": round(wall, 1),
    }
    out["ok"] = not failures(out)
    return out


def _slowest(chaos: Chaos, label: str, n: int = 5) -> list[tuple[float, float]]:
    """The ``n`` slowest broadcasts of a window: (seconds into the window, ms)."""
    pairs = zip(chaos.sample_at.get(label, []), chaos.samples.get(label, []), strict=True)
    worst = sorted(pairs, key=lambda p: -p[1])[:n]
    return [(round(at, 2), round(lat * 1000, 1)) for at, lat in worst]


def failures(s: dict[str, Any]) -> list[str]:
    """What makes a backend's run fail (the exit status)."""
    if s.get("skipped"):
        return []
    bad = [
        f"{key} {s[key]}"
        for key in (
            "lost", "duplicated", "diverged_rooms", "failed_restarts", "server_crashes",
            "server_tracebacks", "honest_cut_off", "bench_client_errors", "unresolved",
            "slow_reconnects", "stalled_rooms",
        )
        if s[key]
    ]  # fmt: skip
    attack = s.get("attack")
    if attack is not None and attack["p99_limit_ms"] > 0 and not attack["p99_ok"]:
        bad.append(f"unaffected p99 under attack {attack['unaffected_attack_ms']['p99']} ms")
    return bad


def render_text(s: dict[str, Any]) -> str:
    if s.get("skipped"):
        return f"{s['backend']}: skipped: {s['skipped']}"

    def codes(d: dict[str, int]) -> str:
        return ", ".join(f"{k}={v}" for k, v in d.items()) or "none"

    def lat(d: dict[str, float]) -> str:
        return f"p50 {d['p50']:.1f}  p99 {d['p99']:.1f}  max {d['max']:.1f} ms (n={d['n']})"

    f = s["fuzz"]
    lines = [
        f"== {s['backend']}: {s['rooms']} rooms ({s['human_seats']} human seats, {s['bots']} "
        f"bots, {s['spectators']} spectators) + 1 fuzz room, seed {s['seed']}",
        f"kill cycles        {s['cycles']} (SIGKILL after {s['cycle_seconds'][0]:g}-"
        f"{s['cycle_seconds'][1]:g} s of play), restarts {s['restarts']}, "
        f"failed restarts {s['failed_restarts']}, server crashes {s['server_crashes']}",
        f"restart            healthy after p50 {s['start_s']['p50']:.2f} s (max "
        f"{s['start_s']['max']:.2f}; slowest (start, s) {s.get('slowest_starts', [])[:3]}); "
        f"clients not back within 20 s {s.get('slow_reconnects', 0)}; rooms stalled "
        f"{s.get('stalled_rooms', 0)}; "
        f"clients back p50 {s['clients_back_s']['p50']:.2f} s "
        f"(max {s['clients_back_s']['max']:.2f}); resumed with update {s['resumed_with_update']},"
        f" snapshot {s['resumed_with_snapshot']}",
        f"moves              acknowledged {s['moves_acknowledged']} (sent {s['moves_sent']}, "
        f"resent {s['resends']}, acknowledged on resend {s['acknowledged_on_resend']}, of which "
        f"no-op {s['noop_acknowledgements']}), unresolved {s['unresolved']}, refused "
        f"{codes(s['refused'])}",
        f"log                lost {s['lost']}, duplicated {s['duplicated']}, diverged rooms "
        f"{s['diverged_rooms']} (gaps {s['log_gaps']}, mismatched moves {s['mismatched']}, "
        f"client anomalies {s['client_anomalies']}); {s['events_compared']} received events "
        f"checked against {s['events_logged']} logged; {s['games_finished']} games finished",
        f"store faults       {s['store_faults']} write locks held {s['fault_hold_s'][0]:g}-"
        f"{s['fault_hold_s'][1]:g} s; rooms paused {s['rooms_paused']}, resumed "
        f"{s['rooms_resumed']} (server log: {s['server_log_paused']} pauses, "
        f"{s['server_log_resumed']} resumes; a kill during a pause ends it without a resume)",
        f"fuzz               {f['frames']} frames over {f['connections']} connections "
        f"({codes(f['by_type'])})",
        f"  answers          errors {codes(f['errors_by_code'])}",
        f"  closes           {codes(f['closes'])}; handshakes {codes(f['handshakes'])}",
        f"honest errors      {codes(s['errors_by_code'])}",
        f"honest closes      {codes(s['client_closes'])} (cut off: {s['honest_cut_off']})",
        f"server log         {s['server_tracebacks']} tracebacks",
    ]
    a = s.get("attack")
    if a is not None:
        lines += [
            f"attack             {a['attackers']} connections on {a['attacked_rooms']} room(s), "
            f"{a['rate_per_connection']:g} msgs/s each, {a['seconds']:g} s windows: sent "
            f"{a['attackers_sent']}, got {a['attackers_received']} frames "
            f"({a['attackers_mbytes_received']:.2f} MB; {codes(a['attackers_received_by_type'])})",
            f"  cut off          errors {codes(a['attackers_errors'])}; closes "
            f"{codes(a['attackers_closes'])}; connects {a['attackers_connects']}; the attack "
            f"process used {a.get('attackers_cpu', 0):.0%} of a core",
            f"  unaffected p99   baseline {a['unaffected_baseline_ms']['p99']:.1f} ms, under "
            f"attack {a['unaffected_attack_ms']['p99']:.1f} ms ("
            + (
                f"limit {a['p99_limit_ms']:g}: {'ok' if a['p99_ok'] else 'OVER'})"
                if a["p99_limit_ms"] > 0
                else "not checked)"
            ),
            f"    baseline       {lat(a['unaffected_baseline_ms'])}",
            f"    under attack   {lat(a['unaffected_attack_ms'])}",
            f"  attacked rooms   baseline {lat(a['attacked_baseline_ms'])}; under attack "
            f"{lat(a['attacked_attack_ms'])}",
            f"  slowest          (s into the window, ms) baseline {a['slowest']['baseline']}; "
            f"under attack {a['slowest']['attack']}",
            "  bench loop lag   "
            + "; ".join(f"{k} {lat(v)}" for k, v in a["bench_loop_lag_ms"].items()),
            "  server CPU       "
            + "; ".join(
                f"{k} {v['cpu']:.0%} of a core, waited {v['runqueue_wait']:.0%} of the time for"
                f" one (machine load {v['machine_load_average']:.1f}; bench clients "
                f"{v.get('bench_cpu', 0):.0%})"
                for k, v in a.get("server_cpu", {}).items()
            ),
        ]
    la = s.get("load_average") or {}
    lines.append(
        f"wall time          {s['wall_s']:.0f} s (machine load average {la.get('before', 0):.1f}"
        f" before, {la.get('after', 0):.1f} after)"
    )
    bad = failures(s)
    lines.append("RESULT             " + ("ok" if not bad else "FAILED: " + "; ".join(bad)))
    for why in list(s["diverged"].items())[:3]:
        lines.append(f"  diverged {why[0]}: {why[1]}")
    for reason in s["failed_restart_reasons"][:2] + s["server_crash_reasons"][:2]:
        lines.append("  " + reason[:1500])
    for excerpt in s["server_traceback_excerpts"][:1]:
        lines.append("  " + excerpt)
    return "\n".join(lines)


# --------------------------------------------------------------------------- the whole bench
async def run(cfg: Config, log: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Every backend of ``cfg.db`` in turn; one summary each."""
    say = log or (lambda line: print(line, file=sys.stderr, flush=True))
    names = ["sqlite", "postgres"] if cfg.db == "both" else [cfg.db]
    out: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        if cfg.keep:
            workdir = Path(cfg.keep)
            workdir.mkdir(parents=True, exist_ok=True)
        else:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chaos-")))
        for name in names:
            if name == "sqlite":
                db = workdir / "chaos.db"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{db}{suffix}").unlink(missing_ok=True)
                out.append(await run_backend(cfg, SqliteBackend(db), workdir, say))
                continue
            try:
                async with postgres(cfg) as backend:
                    out.append(await run_backend(cfg, backend, workdir, say))
            except Skip as err:
                say(f"chaos: postgres skipped: {err}")
                out.append({"backend": "postgres", "skipped": str(err), "ok": True})
    return out


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, bool]:
    p = argparse.ArgumentParser(description="Chaos bench of liarsdice serve (see the docstring).")
    d = Config()
    p.add_argument("--db", choices=("sqlite", "postgres", "both"), default=d.db)
    p.add_argument("--pg-url", help="use this PostgreSQL database (asyncpg URL), not a cluster")
    p.add_argument("--quick", action="store_true", help="a smoke run (3 rooms, 3 cycles)")
    p.add_argument("--rooms", type=int, help=f"rooms played (default {d.rooms})")
    p.add_argument("--cycles", type=int, help=f"SIGKILL/restart cycles (default {d.cycles})")
    p.add_argument(
        "--cycle-seconds",
        type=float,
        nargs="+",
        metavar="S",
        help=f"play between kills: MIN MAX, or a mean (50%%-150%%) (default {d.cycle_min:g} "
        f"{d.cycle_max:g})",
    )
    p.add_argument("--faults", type=int, help="store faults (default: one cycle in five)")
    p.add_argument("--fuzzers", type=int, help=f"fuzzing connections (default {d.fuzzers})")
    p.add_argument("--fuzz-rate", type=float, help=f"frames/s per fuzzer ({d.fuzz_rate:g})")
    p.add_argument(
        "--attack-seconds", type=float, help=f"each attack window, 0: none ({d.attack_seconds:g})"
    )
    p.add_argument("--attackers", type=int, help=f"attacking connections ({d.attackers})")
    p.add_argument("--attacked-rooms", type=int, help=f"rooms attacked ({d.attacked_rooms})")
    p.add_argument("--attack-rate", type=float, help=f"msgs/s per attacker ({d.attack_rate:g})")
    p.add_argument(
        "--attack-reconnect", type=float, help=f"attackers' reconnect delay ({d.attack_reconnect})"
    )
    p.add_argument("--store-timeout", type=float, help=f"serve --store-timeout ({d.store_timeout})")
    p.add_argument("--store-retry", type=float, help=f"serve --store-retry ({d.store_retry})")
    p.add_argument("--bot-delay", type=float, help=f"serve --bot-delay ({d.bot_delay})")
    p.add_argument("--think-ms", type=float, help=f"humans' mean think time ({d.think_ms:g})")
    p.add_argument("--presets", help=f"comma-separated ({','.join(d.presets)})")
    p.add_argument("--restart-timeout", type=float, help=f"seconds ({d.restart_timeout:g})")
    p.add_argument(
        "--drain", type=float, help=f"seconds to wait for answers at the end ({d.drain})"
    )
    p.add_argument(
        "--p99-limit", type=float, help=f"ms, under attack; 0: not checked ({d.p99_limit_ms:g})"
    )
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--port", type=int, default=d.port, help="the server's port (default: free)")
    p.add_argument("--keep", metavar="DIR", help="keep the database(s) and server logs here")
    p.add_argument("--json", action="store_true", help="one JSON object per backend")
    a = p.parse_args(argv)
    values: dict[str, Any] = dict(QUICK) if a.quick else {}
    for key in (
        "rooms", "cycles", "faults", "fuzzers", "fuzz_rate", "attack_seconds", "attackers",
        "attacked_rooms", "attack_rate", "attack_reconnect", "store_timeout", "store_retry",
        "bot_delay", "think_ms", "restart_timeout", "drain",
    ):  # fmt: skip
        if getattr(a, key) is not None:
            values[key] = getattr(a, key)
    if a.cycle_seconds is not None:
        if len(a.cycle_seconds) == 1:
            mean = a.cycle_seconds[0]
            values["cycle_min"], values["cycle_max"] = 0.5 * mean, 1.5 * mean
        elif len(a.cycle_seconds) == 2:
            values["cycle_min"], values["cycle_max"] = sorted(a.cycle_seconds)
        else:
            p.error("--cycle-seconds: MIN MAX, or one mean")
    if a.presets:
        values["presets"] = tuple(x.strip() for x in a.presets.split(",") if x.strip())
    if a.p99_limit is not None:
        values["p99_limit_ms"] = a.p99_limit
    cfg = replace(d, db=a.db, pg_url=a.pg_url, seed=a.seed, port=a.port, keep=a.keep, **values)
    if not 1 <= cfg.rooms <= 250:
        p.error("--rooms must be 1..250")
    if cfg.cycles < 0:
        p.error("--cycles must be >= 0")
    return cfg, bool(a.json)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--attack-worker"]:
        stats = asyncio.run(attack_worker(json.loads(argv[1])))
        print(json.dumps(stats), flush=True)
        return 0
    cfg, as_json = parse_args(argv)
    results = asyncio.run(run(cfg))
    for s in results:
        print(json.dumps(s) if as_json else render_text(s), flush=True)
    return 1 if any(failures(s) for s in results) else 0


if __name__ == "__main__":
    sys.exit(main())
