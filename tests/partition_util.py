"""A cluster inside network namespaces, players that log their history, and the checker of
those histories (not a test module; ``tests/server/test_partitions.py``, ``bench/partition.py``).

PostgreSQL, Redis and three ``liarsdice serve`` nodes each run in a namespace of their own
(:mod:`netns_util`); the players are this process, on the bridge's address. Every player logs
what it sent (each move with an ``id``), what was acknowledged (an ``update`` with
``reply_to``: committed), what was refused, and every event it saw; :func:`check_room` then
holds the room's log in the database against all of it (Jepsen's way: a history, then a
checker).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from cluster_util import Player, wait_ready
from netns_util import Network
from pg_util import _as_owner, ensure_postgres
from redis_util import ensure_redis

NODES = 3
HOSTS = ["pg", "redis", *[f"n{i}" for i in range(NODES)]]
PORT = 8000
PG_PORT = 5432
REDIS_PORT = 6379
SERVE = (sys.executable, "-c", "from liarsdice.cli.main import main; main()", "serve")
OPEN = ["100000"]  # no per-address limit: every player comes from the bridge's address
LIMITS = [
    *("--rooms-per-ip", *OPEN, "--joins-per-ip", *OPEN, "--joins-per-room", *OPEN),
    *("--max-ws-per-ip", *OPEN, "--max-conns-per-ip", *OPEN, "--players-per-ip", *OPEN),
    *("--ip-rate", *OPEN, "--ip-burst", *OPEN, "--http-rate", "0"),
]


def _run(cmd: Sequence[str], timeout: float = 120) -> str:
    done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {done.stderr[-2000:]}")
    return done.stdout


class PartitionCluster:
    """PostgreSQL, Redis and :data:`NODES` nodes in the namespaces of ``net``."""

    def __init__(self, net: Network, bot_delay: float = 0.05, store_timeout: float = 2.0) -> None:
        self.net = net
        self.bot_delay, self.store_timeout = bot_delay, store_timeout
        self.root = Path(tempfile.mkdtemp(prefix="liarsdice-partition-"))
        self.owner = "postgres" if os.geteuid() == 0 else None
        self.pg_bin = ensure_postgres()
        self.redis_bin = ensure_redis()
        self.nodes: list[subprocess.Popen[bytes] | None] = [None] * NODES
        self.redis: subprocess.Popen[bytes] | None = None
        self.pg_data = self.root / "pg" / "data"

    # ------------------------------------------------------------------ starting and stopping
    def start(self) -> None:
        self._start_postgres()
        self._start_redis()
        for i in range(NODES):
            self.spawn(i)
        for i in range(NODES):
            self.ready(i)

    def _start_postgres(self) -> None:
        self.root.chmod(0o755)  # (PostgreSQL runs as its own user)
        (self.root / "pg").mkdir()
        if self.owner is not None:
            shutil.chown(self.root / "pg", self.owner)
        _run(_as_owner([str(self.pg_bin / "initdb"), "-D", str(self.pg_data), "-A", "trust",
                        "-U", "postgres", "--no-sync", "-E", "UTF8"], self.owner))  # fmt: skip
        with (self.pg_data / "pg_hba.conf").open("a") as hba:  # the nodes' and clients' subnet
            hba.write(f"host all all {self.net.ip('pg')}/24 trust\n")
        options = (
            f"-p {PG_PORT} -k {self.root / 'pg'} -c listen_addresses={self.net.ip('pg')} "
            "-c fsync=off"
        )
        ctl = [str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_data), "-o", options,
               "-l", str(self.root / "pg" / "log"), "-w", "start"]  # fmt: skip
        _run(self.net.command("pg", _as_owner(ctl, self.owner)))
        self.psql("CREATE DATABASE liarsdice")

    def psql(self, sql: str, database: str = "postgres") -> str:
        """``sql``'s rows (``|``-separated), run through the network like the nodes' own."""
        return _run([str(self.pg_bin / "psql"), "-h", self.net.ip("pg"), "-p", str(PG_PORT),
                     "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-A", "-t",
                     "-c", sql], timeout=60).strip()  # fmt: skip

    def _start_redis(self) -> None:
        ip = self.net.ip("redis")
        cmd = [self.redis_bin, "--bind", ip, "--port", str(REDIS_PORT), "--protected-mode",
               "no", "--save", "", "--appendonly", "no", "--dir", str(self.root)]  # fmt: skip
        log = open(self.root / "redis.log", "ab")  # noqa: SIM115  (the process keeps it)
        self.redis = subprocess.Popen(self.net.command("redis", cmd), stdout=log, stderr=log)

    @property
    def db_url(self) -> str:
        return f"postgresql+asyncpg://postgres@{self.net.ip('pg')}:{PG_PORT}/liarsdice"

    @property
    def redis_url(self) -> str:
        return f"redis://{self.net.ip('redis')}:{REDIS_PORT}/0"

    def spawn(self, i: int) -> None:
        """Start node ``i`` (``n{i}``) in its namespace."""
        host = f"n{i}"
        cmd = [*SERVE, "--host", self.net.ip(host), "--port", str(PORT), "--db", self.db_url,
               "--redis", self.redis_url, "--node", host, "--bot-delay", str(self.bot_delay),
               "--reveal", "0", "--store-timeout", str(self.store_timeout), *LIMITS]  # fmt: skip
        log = open(self.root / f"{host}.log", "ab")  # noqa: SIM115  (the process keeps it)
        self.nodes[i] = subprocess.Popen(self.net.command(host, cmd), stdout=log, stderr=log)

    def ready(self, i: int, timeout: float = 60.0) -> None:
        """Wait until node ``i`` answers its health check."""
        proc = self.nodes[i]
        assert proc is not None
        wait_ready(self.base(i), proc, lambda: self.log(i), f"node {i}", timeout)

    def log(self, i: int) -> str:
        return (self.root / f"n{i}.log").read_text(errors="replace")

    def stop(self) -> None:
        for proc in [*self.nodes, self.redis]:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)
        ctl = [str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_data), "-m", "immediate", "stop"]
        with contextlib.suppress(Exception):
            _run(_as_owner(ctl, self.owner))
        if os.environ.get("LIARSDICE_KEEP_LOGS") == "1":
            print(f"the cluster's logs: {self.root}")
        else:
            shutil.rmtree(self.root, ignore_errors=True)

    # ------------------------------------------------------------------ talking to it
    def base(self, i: int) -> str:
        return f"http://{self.net.ip(f'n{i}')}:{PORT}"

    def ws(self, i: int, room: str) -> str:
        return f"ws://{self.net.ip(f'n{i}')}:{PORT}/ws/rooms/{room}"

    def health(self, i: int, timeout: float = 2.0) -> dict[str, Any] | None:
        """Node ``i``'s ``/api/health``, or None when it does not answer in time."""
        try:
            r = httpx.get(self.base(i) + "/api/health", timeout=timeout, trust_env=False)
        except httpx.HTTPError:
            return None
        out: dict[str, Any] = r.json()
        return out

    def owners(self, room: str) -> list[int]:
        """The nodes that say they own ``room`` now."""
        return [
            i
            for i in range(NODES)
            if room in ((self.health(i, 1.0) or {}).get("rooms_owned") or [])
        ]

    def post(self, i: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(self.base(i) + path, json=body, timeout=10, trust_env=False)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def record(self, room: str, game_no: int) -> dict[str, Any]:
        """A finished game's JSON record, from the first node that gives it."""
        path = f"/api/rooms/{room}/games/{game_no}/record?format=json"
        for i in range(NODES):
            with contextlib.suppress(httpx.HTTPError):
                r = httpx.get(self.base(i) + path, timeout=5, trust_env=False)
                if r.status_code == 200:
                    out: dict[str, Any] = r.json()
                    return out
        raise RuntimeError(f"no node gave the record of {room} game {game_no}")

    def events(self, room: str) -> list[tuple[int, str, dict[str, Any]]]:
        """The room's log in the database: ``(seq, kind, data)`` in seq order."""
        rows = self.psql(
            f"SELECT seq, kind, data FROM events WHERE room_id = '{room}' ORDER BY seq",
            "liarsdice",
        )
        out = []
        for line in rows.splitlines():
            seq, kind, data = line.split("|", 2)
            out.append((int(seq), kind, json.loads(data)))
        return out


@contextlib.contextmanager
def partition_cluster(net: Network, **kw: Any) -> Iterator[PartitionCluster]:
    cluster = PartitionCluster(net, **kw)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


# ---------------------------------------------------------------------- players with a history
@dataclass
class History:
    """What one player sent, had acknowledged or refused, and saw."""

    sent: dict[str, int] = field(default_factory=dict)  # move id -> the engine action
    acked: set[str] = field(default_factory=set)
    refused: dict[str, str] = field(default_factory=dict)  # move id -> the last error code
    reconnects: list[tuple[float, int | None, int]] = field(default_factory=list)
    log: list[tuple[Any, ...]] = field(default_factory=list)  # (time, what, ...) in order


class HistoryPlayer(Player):
    """A seated player that moves on its turn with a fresh ``id`` per move, sends the same
    frame again when unsure (no answer in ``retry`` seconds, an error, a lost connection),
    and reconnects through the next node when its connection closes or hangs."""

    def __init__(self, cluster: PartitionCluster, room: str, token: str, seat: int, node: int):
        super().__init__(cluster.ws(node, room), token)
        self.cluster, self.room, self.seat, self.node = cluster, room, seat, node
        self.history = History()
        self.pending: tuple[str, int, float] | None = None  # (id, action, sent at)
        self.turn_since: tuple[int, float] | None = None  # (seq, when the turn was seen)
        self.count = 0
        self.rematch_sent = 0.0

    async def rematch(self) -> None:
        """Offer the next game (again every 2 s until it starts)."""
        if time.monotonic() - self.rematch_sent > 2.0:
            self.rematch_sent = time.monotonic()
            with contextlib.suppress(Exception):
                await self.send("rematch")

    def _take(self, frame: dict[str, Any]) -> None:
        super()._take(frame)
        reply = frame.get("data", {}).get("reply_to") or frame.get("reply_to")
        if reply:  # (every answer to a move, in order: what a failing check prints)
            data = frame.get("data", {})
            self.history.log.append(
                (time.monotonic(), frame["type"], reply, data.get("seq"), data.get("code"))
            )
        if reply and reply in self.history.sent:
            if frame["type"] == "update":
                self.history.acked.add(reply)
                if self.pending and self.pending[0] == reply:
                    self.pending = None
            elif frame["type"] == "error":
                code = str(frame.get("data", {}).get("code", "?"))
                self.history.refused[reply] = code
                if self.pending and self.pending[0] == reply and code not in _RETRY:
                    self.pending = None

    async def move(self, think: float = 0.0) -> None:
        """On its turn, ``think`` seconds after it came: a new move (the first legal bid, or
        a call once the bid is high)."""
        if self.pending is not None or not self.my_turn(self.seat):
            self.turn_since = None
            return
        now = time.monotonic()
        if self.turn_since is None or self.turn_since[0] != self.seq:
            self.turn_since = (self.seq, now)
        if now - self.turn_since[1] < think:
            return
        assert self.view is not None
        legal = self.view["legal"]
        calls = [a for a in legal if a["text"] == "liar"]
        bids = [a for a in legal if a["text"] not in ("liar", "exact")]
        pick = calls[0] if calls and (len(self.view.get("bids", [])) >= 2 or not bids) else bids[0]
        self.count += 1
        move_id = f"s{self.seat}m{self.count}"
        self.history.sent[move_id] = int(pick["action"])
        self.pending = (move_id, int(pick["action"]), time.monotonic())
        await self._send_move()

    async def _send_move(self) -> None:
        assert self.pending is not None
        move_id, action, _ = self.pending
        self.pending = (move_id, action, time.monotonic())
        self.history.log.append((time.monotonic(), "send", move_id, self.seq, self.node))
        with contextlib.suppress(Exception):
            await self.send("action", action=action, id=move_id)

    async def tend(self, retry: float = 2.0, hang: float = 6.0) -> None:
        """Keep the connection and the move in flight going: reconnect through the next node
        when the connection closed, or when nothing came for ``hang`` seconds while a move
        waits; send the move again after ``retry`` seconds without an answer."""
        now = time.monotonic()
        quiet = now - (self.arrivals[-1] if self.arrivals else 0.0)
        stuck = self.pending is not None and now - self.pending[2] > hang and quiet > hang
        if self.closed is not None or stuck:
            await self.reconnect()
        elif self.pending is not None and now - self.pending[2] > retry:
            await self._send_move()

    async def reconnect(self, pause: float = 0.3) -> None:
        """Reconnect through the next node (at most every ``pause`` seconds, as a browser
        backs off) and say hello from the last seq seen; then the move in flight again."""
        if self.history.reconnects and time.monotonic() - self.history.reconnects[-1][0] < pause:
            return
        code = self.closed
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(self.close(), 2)
        self.node = (self.node + 1) % NODES
        self.history.reconnects.append((time.monotonic(), code, self.node))
        self.url = self.cluster.ws(self.node, self.room)
        self.closed = None
        try:
            self.ws = await asyncio.wait_for(_connect(self.url), 5)
            await self.send("hello", token=self.token, last_seq=self.seq)
        except Exception:  # (refused at once, e.g. 1013 from a node cut off: the next one)
            self.closed = 1006
            return
        self._reader = asyncio.create_task(self._read())
        if self.pending is not None:
            await self._send_move()


_RETRY = {"moved", "store_unavailable", "stale", "internal"}


async def _connect(url: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(url, proxy=None, ping_interval=None, open_timeout=5)


# ---------------------------------------------------------------------- the faults, played


@dataclass(frozen=True)
class Fault:
    """One network fault of issue 43: what it does, and how to make it."""

    what: str
    cut: Callable[[Network], object]


FAULTS: dict[str, Fault] = {
    "a": Fault("the owner cut from Redis", lambda net: net.cut("n0", "redis")),
    "b": Fault("the owner cut from PostgreSQL", lambda net: net.cut("n0", "pg")),
    "c": Fault(
        "the owner cut from everything, its players still linked", lambda net: net.isolate("n0")
    ),
    "d": Fault(
        "Redis cut from every node", lambda net: [net.cut(f"n{i}", "redis") for i in range(NODES)]
    ),
    "e": Fault(
        "30% of what the owner sends Redis lost",
        lambda net: net.lossy("n0", "redis", 0.3, one_way=True),
    ),
    "f": Fault(
        "5% loss on every link",
        lambda net: [net.lossy(a, b, 0.05) for a in net.hosts for b in net.hosts if a < b],
    ),
    "g": Fault("the owner cut from everything, then healed", lambda net: net.isolate("n0")),
}


async def seated(c: PartitionCluster, nodes: tuple[int, int]) -> list[HistoryPlayer]:
    """A two-player room made on node 0 (its owner), the players connected through
    ``nodes``, the game started."""
    made = c.post(0, "/api/rooms", {"name": "ann", "options": {"dice": 5}})
    room = made["room"]
    joined = c.post(0, f"/api/rooms/{room}/join", {"name": "bob"})
    ann = HistoryPlayer(c, room, made["token"], 0, nodes[0])
    bob = HistoryPlayer(c, room, joined["token"], 1, nodes[1])
    for p in (ann, bob):
        await p.open()
    await ann.until(lambda: ann.seq >= 3 and bob.seq >= 3)
    await ann.send("start")
    await ann.until(lambda: ann.status == "playing")
    return [ann, bob]


THINK = 0.3  # seconds a player takes over a move (a steady, human pace)


async def play(players: list[HistoryPlayer], seconds: float) -> float:
    """Play for ``seconds`` (a rematch when a game ends); the longest time without a new
    event seen by any player."""
    end = time.monotonic() + seconds
    last, longest = time.monotonic(), 0.0
    seen = max(p.seq for p in players)
    while time.monotonic() < end:
        for p in players:
            await p.tend()
            await p.move(THINK)
        host = players[0]
        if host.status == "finished" and host.closed is None:
            await host.rematch()
        now_seen = max(p.seq for p in players)
        now = time.monotonic()
        if now_seen > seen:
            seen, last = now_seen, now
        longest = max(longest, now - last)
        await asyncio.sleep(0.02)
    return longest


LEASE_S = 2.0  # a room's lease (server/cluster/recovery.py)
TAKEOVER_S = LEASE_S + 5.0  # the longest a room may stop while the other side can take it
LEARN_S = 10.0  # the longest a cut-off node's players may take to learn it and reconnect
HEALED_S = 5.0  # the longest a healed node may take to write again


@dataclass
class Run:
    """What one fault did: the verdict, the longest stop while it held and after the heal,
    when it began, and the players (their histories)."""

    verdict: Verdict
    stopped: float
    healed: float
    at: float
    players: list[HistoryPlayer]

    def learned(self, seat: int) -> float | None:
        """Seconds from the fault to the player's first reconnect after a close (None: it
        never had to)."""
        times = [t for t, code, _ in self.players[seat].history.reconnects if code is not None]
        return min(times) - self.at if times else None


async def run_fault(
    c: PartitionCluster,
    fault: Callable[[Network], object],
    during: float = 8.0,
    after: float = 10.0,
) -> Run:
    """Steady play on a new room (owned by node 0; ann through node 0, bob through node 1),
    ``fault`` for ``during`` seconds, then healed and played on for ``after`` seconds."""
    players = await seated(c, (0, 1))
    try:
        await play(players, 2.0)
        at = time.monotonic()
        fault(c.net)
        try:
            stopped = await play(players, during)
        finally:
            c.net.heal()
        healed = await play(players, after)
        for p in players:
            await p.close()
        log = c.events(players[0].room)
        verdict = check_room(log, players)
        verdict.records, verdict.record_problems = verify_records(c, players[0].room, log)
        run = Run(verdict, stopped, healed, at, players)
        print(  # (shown with -s: what happened, for a reader of the run)
            f"\n{run.verdict}; stopped {stopped:.2f} s during the fault, {healed:.2f} s after; "
            f"reconnects {[p.history.reconnects for p in players]}; "
            f"refused {[p.history.refused for p in players]}"
        )
        if not run.verdict.ok:  # the log and every player's sends and answers, to read
            for seq, kind, data in log:
                print(seq, kind, data)
            for p in players:
                print(p.seat, p.history.log)
        return run
    finally:
        for p in players:
            await p.close()


# ---------------------------------------------------------------------- the checker
@dataclass
class Verdict:
    """What :func:`check_room` found (each list empty when all is well)."""

    events: int
    acked: int
    lost: list[str]
    applied_twice: list[str]
    gaps: list[int]
    unseen_in_log: list[str]
    records: int = 0  # finished games whose records were verified
    record_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (
            self.lost or self.applied_twice or self.gaps or self.unseen_in_log
            or self.record_problems
        )  # fmt: skip


def verify_records(
    cluster: PartitionCluster, room: str, log: list[tuple[int, str, dict[str, Any]]]
) -> tuple[int, list[str]]:
    """Each finished game's record checked as ``liarsdice verify`` does: how many, and the
    problems found."""
    from liarsdice.cli.verify import verify_record

    games = [int(data["game_no"]) for _, kind, data in log if kind == "game_over"]
    problems = []
    for game_no in games:
        try:
            found = verify_record(cluster.record(room, game_no))
        except Exception as err:
            found = [repr(err)]
        problems += [f"game {game_no}: {p}" for p in found]
    return len(games), problems


def check_room(
    log: list[tuple[int, str, dict[str, Any]]], players: Sequence[HistoryPlayer]
) -> Verdict:
    """Hold the room's log against the players' histories: one log with no gap, every
    acknowledged move in it exactly once (no move applied twice), and no event a player saw
    that the log does not hold at that seq (the same kind, and for a move the same seat and
    action)."""
    seqs = [seq for seq, _, _ in log]
    gaps = [s for s in range(1, (seqs[-1] if seqs else 0) + 1) if s not in set(seqs)]
    by_id: dict[str, list[int]] = {}
    for seq, kind, data in log:
        if kind == "action" and data.get("id"):
            by_id.setdefault(str(data["id"]), []).append(seq)
    acked = {i for p in players for i in p.history.acked}
    lost = sorted(i for i in acked if i not in by_id)
    twice = sorted(f"{i} at seqs {seqs}" for i, seqs in by_id.items() if len(seqs) > 1)
    at = {seq: (kind, data) for seq, kind, data in log}
    unseen = []
    for p in players:
        for seq, ev in p.events.items():
            kind, data = at.get(seq, ("(none)", {}))
            same = ev.get("kind") == kind
            if same and kind == "action":
                same = ev.get("seat") == data.get("seat") and ev.get("action") == data.get("action")
            if not same:
                unseen.append(f"seat {p.seat} saw seq {seq} {ev.get('kind')}: log has {kind}")
    return Verdict(len(log), len(acked), lost, twice, gaps, unseen)
