"""A cluster of ``liarsdice serve`` nodes on this machine under scripted players (issue 23).

N nodes share one PostgreSQL database and one Redis (throwaway ones are started unless
``--db``/``--redis`` are given). Rooms of scripted human players are created round-robin
over the nodes (the creating node owns the room) and each seat connects through a node chosen
so that most players sit on a node that does *not* own their room. Everyone plays (a move
``--think-ms`` after their turn comes, the host starts and rematches); then a node is killed
(SIGKILL at ``--kill-at``) and another drained (SIGTERM at ``--drain-at``). It prints:

* connections held, actions per second;
* action-to-broadcast latency (from a move sent to every seat of its room holding the update
  with it), p50/p99, for players on the room's owner and on another node (before the kill);
* takeover after the SIGKILL: per room of the killed node, from the kill to its next event
  seen by its players (max, p99; it includes the player's think time);
* drain gap: per room of the drained node, the longest wait of a move sent during the drain
  for its broadcast (max, p99), and how long the node took to exit;
* moves acknowledged, lost (acknowledged but not in the log) and duplicated (in the log more
  often than sent), and rooms diverged (players who saw different events at one seq, or
  events the log does not hold).

``--nodes 1 --single``: one server without Redis (the same database), for comparison.

    python bench/cluster.py --nodes 3 --rooms 500 --seats 4 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from cluster_util import Nodes  # noqa: E402


@dataclass
class Config:
    nodes: int = 3
    rooms: int = 500
    seats: int = 4
    seconds: float = 40.0
    think_ms: float = 800.0
    kill_at: float | None = 12.0
    drain_at: float | None = 26.0
    procs: int = 2
    db: str | None = None
    redis: str | None = None
    single: bool = False
    seed: int = 1
    dice: int = 3


@dataclass
class Move:
    room: str
    seat: int
    cross: bool  # the player's node is not the room's first owner
    sent: float  # wall clock (every process agrees on it)
    acked: float | None = None
    seq: int | None = None
    action: int = 0
    ref: str = ""
    node: int = -1  # the node the player's connection goes through


@dataclass
class Result:
    """What one client process saw."""

    connections: int = 0
    moves: list[Move] = field(default_factory=list)
    frames: dict[str, dict[int, list[float]]] = field(default_factory=dict)  # room->seat->times
    events: dict[str, dict[int, dict[int, str]]] = field(default_factory=dict)  # room->seat->log
    errors: dict[str, int] = field(default_factory=dict)
    closed: int = 0  # connections the server closed (their player reconnects elsewhere)
    reconnects: int = 0
    close_codes: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- the players
class Seat:
    def __init__(self, room: dict[str, Any], seat: int, url: str, think: float, res: Result):
        self.room, self.seat, self.url, self.think, self.res = room, seat, url, think, res
        self.rng = random.Random(f"{room['id']}:{seat}")
        self.ws: ClientConnection | None = None
        self.seq = 0
        self.moved: tuple[int, float] = (-1, 0.0)
        self.pending: dict[str, Move] = {}
        self.view: dict[str, Any] | None = None
        self.status = "lobby"
        self.rematched = 0
        self.last: Move | None = None
        self.turn = (-1, 0.0)  # (the seq our turn came at, when we move)
        self.node = -1
        self.times = res.frames.setdefault(room["id"], {}).setdefault(seat, [])
        self.log = res.events.setdefault(room["id"], {}).setdefault(seat, {})
        self.stop = False

    async def run(self, until: float) -> None:
        first = self.room["nodes"][self.seat]
        order = [first] + [n for n in range(len(self.room["all_urls"])) if n != first]
        attempt = 0
        while time.time() < until:
            self.node = order[attempt % len(order)]
            url = self.room["all_urls"][self.node]
            try:
                self.ws = await connect(url, proxy=None, ping_interval=None, open_timeout=60)
            except OSError:  # that node is gone: the next one
                attempt += 1
                await asyncio.sleep(0.1)
                continue
            if attempt == 0:
                self.res.connections += 1
            else:
                self.res.reconnects += 1
            hello: dict[str, Any] = {"token": self.room["tokens"][self.seat]}
            if attempt:
                hello["last_seq"] = self.seq
            await self.send("hello", **hello)
            reader = asyncio.create_task(self.read())
            try:
                while time.time() < until and not reader.done():
                    await asyncio.sleep(0.05)
                    await self.act()
            finally:
                if time.time() >= until:
                    self.stop = True
                with contextlib.suppress(Exception):
                    await self.ws.close()
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
            attempt += 1

    async def send(self, type_: str, **data: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": type_, "version": 1, "data": data}))

    async def read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                self.times.append(time.time())
                self.frame(json.loads(raw))
        except ConnectionClosed as err:
            if not self.stop:
                self.res.closed += 1
                code = str(err.rcvd.code if err.rcvd is not None else 1006)
                self.res.close_codes[code] = self.res.close_codes.get(code, 0) + 1

    def frame(self, frame: dict[str, Any]) -> None:
        data = frame.get("data", {})
        if frame["type"] == "error":
            code = str(data.get("code"))
            self.res.errors[code] = self.res.errors.get(code, 0) + 1
            return
        if frame["type"] not in ("update", "snapshot"):
            return
        now = time.time()
        for ev in data.get("events", []):
            if "seq" not in ev:
                continue
            seq = int(ev["seq"])
            self.log[seq] = json.dumps(_public(ev), sort_keys=True)
            if ev.get("kind") == "action" and ev.get("seat") == self.seat and self.pending:
                # our move (its answer, or a catch-up after the room changed owner)
                for move in self.pending.values():
                    move.acked, move.seq = now, seq
                self.pending.clear()
        self.seq = max(self.seq, int(data.get("seq", 0)))
        if data.get("view") is not None:
            self.view = data["view"]
        if isinstance(data.get("room"), dict):
            self.status = data["room"]["status"]

    async def act(self) -> None:
        v = self.view
        now = time.time()
        if self.status == "lobby" and self.seat == 0 and self.moved[0] != -2:
            self.moved = (-2, now)
            await self.send("start")
            return
        if self.status == "finished" and self.seat == 0 and v and v["game_no"] > self.rematched:
            self.rematched = v["game_no"]
            await self.send("rematch")
            return
        if not (v and self.status == "playing" and v.get("to_move") == self.seat and v["legal"]):
            return
        last_seq, last_time = self.moved
        if last_seq == self.seq:
            if now - last_time < 2.0 or self.last is None:
                return  # sent; its answer is on the way
            # no answer in 2 s (a move lost while its room changed owner): the same move, the
            # same id again (a repeat of an applied move is acknowledged, not applied twice)
            self.moved = (self.seq, now)
            self.pending[self.last.ref] = self.last
            await self.send("action", action=self.last.action, seq=self.seq, id=self.last.ref)
            return
        if self.turn[0] != self.seq:  # our turn came with this frame: think from now
            self.turn = (self.seq, now + self.think * (0.5 + self.rng.random()))
        if now < self.turn[1]:
            return
        legal = v["legal"]
        calls = [a for a in legal if a["text"] == "liar"]
        bids = [a for a in legal if a["text"] not in ("liar", "exact")]
        pick = calls[0] if calls and (self.rng.random() < 0.3 or not bids) else bids[0]
        ref = f"m{self.seat}-{self.seq}-{len(self.res.moves)}"
        move = Move(self.room["id"], self.seat, self.room["cross"][self.seat], now)
        move.action, move.ref, move.node = pick["action"], ref, self.node
        self.pending[ref] = self.last = move
        self.res.moves.append(move)
        self.moved = (self.seq, now)
        await self.send("action", action=pick["action"], seq=self.seq, id=ref)


def _public(ev: dict[str, Any]) -> dict[str, Any]:
    """What every player sees of an event alike (dice are each player's own)."""
    return {k: v for k, v in ev.items() if k in ("seq", "kind", "seat", "action", "text")}


async def _clients(rooms: list[dict[str, Any]], cfg: Config, until: float) -> Result:
    res = Result()
    seats = [
        Seat(room, s, room["urls"][s], cfg.think_ms / 1000, res)
        for room in rooms
        for s in range(cfg.seats)
    ]
    await asyncio.gather(*(s.run(until) for s in seats), return_exceptions=True)
    return res


def _worker(rooms: list[dict[str, Any]], cfg: Config, until: float, pipe: Connection) -> None:
    try:
        pipe.send(asyncio.run(_clients(rooms, cfg, until)))
    except BaseException as err:  # pragma: no cover
        pipe.send(RuntimeError(repr(err)))


# --------------------------------------------------------------------------- the cluster
@contextlib.contextmanager
def _backends(cfg: Config) -> Iterator[tuple[str, str]]:
    with contextlib.ExitStack() as stack:
        db, redis_url = cfg.db, cfg.redis
        if db is None:
            from pg_util import start_cluster

            pg = stack.enter_context(contextlib.contextmanager(start_cluster)())
            db = pg.url(pg.new_database())
        if redis_url is None and not cfg.single:
            from redis_util import start_redis

            server = stack.enter_context(contextlib.contextmanager(start_redis)())
            redis_url = server.url
        yield db, redis_url or ""


def _start_nodes(cfg: Config, tmp: Path, db: str, redis_url: str) -> Nodes:
    nodes = Nodes(tmp, db, redis_url, cfg.nodes, bot_delay=0.3)
    if cfg.single:
        for i in range(cfg.nodes):
            _start_single(nodes, i)
        return nodes
    nodes.start_all()
    return nodes


def _start_single(nodes: Nodes, i: int) -> None:
    """One server without Redis (for comparison)."""
    cmd = [sys.executable, "-c", "from liarsdice.cli.main import main; main()", "serve"]
    cmd += ["--port", str(nodes.ports[i]), "--db", nodes.db_url, "--exempt-loopback"]
    cmd += ["--reveal", "0"]  # as the cluster's nodes (tests/cluster_util.py)
    for flag in ("--rooms-per-ip", "--joins-per-ip", "--joins-per-room", "--max-ws-per-ip"):
        cmd += [flag, "100000"]
    cmd += ["--max-conns-per-ip", "100000", "--ip-rate", "100000", "--ip-burst", "100000"]
    log = open(nodes.tmp / f"node{i}.log", "ab")  # noqa: SIM115
    nodes.procs[i] = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(nodes.base(i) + "/api/health", trust_env=False).is_success:
                return
        time.sleep(0.1)
    raise RuntimeError(nodes.log(i))


async def _setup(cfg: Config, nodes: Nodes) -> list[dict[str, Any]]:
    sem = asyncio.Semaphore(32)
    async with httpx.AsyncClient(trust_env=False, timeout=60) as http:

        async def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
            async with sem:
                r = await http.post(base + path, json=body)
            if r.status_code != 201:
                raise RuntimeError(f"{path}: {r.status_code} {r.text}")
            out: dict[str, Any] = r.json()
            return out

        async def one(i: int) -> dict[str, Any]:
            owner = i % cfg.nodes
            base = nodes.base(owner)
            body = {"name": f"r{i}p0", "options": {"dice": cfg.dice}}
            made = await post(base, "/api/rooms", body)
            tokens = [made["token"]]
            for s in range(1, cfg.seats):
                joined = await post(base, f"/api/rooms/{made['room']}/join", {"name": f"r{i}p{s}"})
                tokens.append(joined["token"])
            where = [(owner + 1 + s) % cfg.nodes for s in range(cfg.seats)]
            return {
                "id": made["room"],
                "owner": owner,
                "tokens": tokens,
                "nodes": where,
                "urls": [nodes.ws(n, made["room"]) for n in where],
                "all_urls": [nodes.ws(n, made["room"]) for n in range(cfg.nodes)],
                "cross": [n != owner for n in where],
            }

        return list(await asyncio.gather(*(one(i) for i in range(cfg.rooms))))


def _pct(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _ms(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {
        "n": len(values),
        "p50": round(_pct(values, 50) * 1000, 1),
        "p99": round(_pct(values, 99) * 1000, 1),
        "max": round(max(values, default=float("nan")) * 1000, 1),
    }


async def _log(db: str, rooms: list[str]) -> dict[str, dict[int, dict[str, Any]]]:
    """Every room's log from the database: seq -> event."""
    from liarsdice.server.store import Store

    store = Store.reader(db)
    await store.start()
    try:
        out = {}
        for room in rooms:
            out[room] = {seq: {**d, "kind": k} for seq, k, d in await store.events(room)}
        return out
    finally:
        await store.close()


async def run(cfg: Config) -> dict[str, Any]:
    with _backends(cfg) as (db, redis_url):
        tmp = tempfile.mkdtemp(prefix="liarsdice-cluster-")  # the nodes' logs stay there
        nodes = _start_nodes(cfg, Path(tmp), db, redis_url)
        try:
            return await _measure(cfg, nodes, db)
        finally:
            nodes.stop()


async def _measure(cfg: Config, nodes: Nodes, db: str) -> dict[str, Any]:
    rooms = await _setup(cfg, nodes)
    start = time.time() + 3.0
    until = start + cfg.seconds
    ctx = multiprocessing.get_context("spawn")
    pipes, procs = [], []
    here = None  # --procs 1: the players run in this process
    if cfg.procs <= 1:
        here = asyncio.create_task(_clients(rooms, cfg, until))
    for k in range(cfg.procs if cfg.procs > 1 else 0):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(rooms[k :: cfg.procs], cfg, until, child))
        p.start()
        pipes.append(parent)
        procs.append(p)
    events: dict[str, Any] = {}
    owned_before: dict[int, list[str]] = {}
    for name, at, node in (("kill", cfg.kill_at, 0), ("drain", cfg.drain_at, 1 % cfg.nodes)):
        if at is None or cfg.single or cfg.nodes < 2:
            continue
        await asyncio.sleep(max(0.0, start + at - time.time()))
        owned_before[node] = nodes.health(node)["rooms_owned"]
        events[name] = time.time()
        if name == "kill":
            nodes.kill(node)
        else:
            nodes.signal(node, signal.SIGTERM)
            try:
                code = await asyncio.to_thread(nodes.wait, node, 60)
            except subprocess.TimeoutExpired:
                code = None
            events["drain_exit"] = time.time() - events[name]
            events["drain_code"] = code
    results = [await asyncio.to_thread(p.recv) for p in pipes]
    if here is not None:
        results.append(await here)
    for p in procs:
        p.join(30)
    for r in results:
        if isinstance(r, Exception):
            raise r
    total = Result()
    for r in results:
        total.connections += r.connections
        total.moves += r.moves
        total.frames.update(r.frames)
        total.events.update(r.events)
        total.closed += r.closed
        total.reconnects += r.reconnects
        for k, v in r.close_codes.items():
            total.close_codes[k] = total.close_codes.get(k, 0) + v
        for k, v in r.errors.items():
            total.errors[k] = total.errors.get(k, 0) + v
    log = await _log(db, [r["id"] for r in rooms])
    return _summary(cfg, total, log, events, owned_before, start)


def _summary(
    cfg: Config,
    res: Result,
    log: dict[str, dict[int, dict[str, Any]]],
    events: dict[str, Any],
    owned: dict[int, list[str]],
    start: float,
) -> dict[str, Any]:
    kill = events.get("kill", float("inf"))
    acked = [m for m in res.moves if m.acked is not None]
    # before any fault: sent and answered at least a second before the kill
    end = min(kill - 1.0, start + cfg.seconds)
    steady = [m for m in acked if start <= m.sent and m.acked is not None and m.acked < end]
    out: dict[str, Any] = {
        "config": asdict(cfg),
        "connections": res.connections,
        "actions_per_s": round(len(acked) / cfg.seconds, 1),
        "ack_same_node_ms": _ms([m.acked - m.sent for m in steady if not m.cross]),  # type: ignore[operator]
        "ack_cross_node_ms": _ms([m.acked - m.sent for m in steady if m.cross]),  # type: ignore[operator]
        "errors": res.errors,
        "connections_closed": res.closed,
        "reconnects": res.reconnects,
        "close_codes": res.close_codes,
    }
    if "kill" in events:
        takeovers = []
        for room in owned.get(0, []):
            after = [t for seat in res.frames.get(room, {}).values() for t in seat if t > kill]
            takeovers.append((min(after) if after else float("inf")) - kill)
        out["takeover_s"] = {
            "rooms": len(takeovers),
            "max": round(max(takeovers, default=0.0), 2),
            "p99": round(_pct(takeovers, 99), 2),
        }
    if "drain" in events:
        drain = events["drain"]
        node = 1 % cfg.nodes
        drained = set(owned.get(node, []))
        waits = [  # the players on the other nodes (the drained node's own reconnect)
            m.acked - m.sent
            for m in acked
            if m.room in drained and m.node != node and drain - 1 <= m.sent <= drain + 10  # type: ignore[operator]
        ]
        out["drain"] = {
            "rooms": len(drained),
            "gap_max_s": round(max(waits, default=0.0), 3),
            "gap_p99_s": round(_pct(waits, 99), 3),
            "exit_s": round(events["drain_exit"], 2) if events["drain_code"] is not None else None,
            "exit_code": events["drain_code"],
        }
    out.update(_audit(res, log))
    return out


def _audit(res: Result, log: dict[str, dict[int, dict[str, Any]]]) -> dict[str, Any]:
    acked = [m for m in res.moves if m.acked is not None]
    ids: dict[tuple[str, str], int] = {}  # (room, move id) -> times in the log
    for room, events in log.items():
        for ev in events.values():
            if ev["kind"] == "action" and ev.get("id"):
                key = (room, ev["id"])
                ids[key] = ids.get(key, 0) + 1
    lost = sum(1 for m in acked if (m.room, m.ref) not in ids)
    duplicated = sum(n - 1 for n in ids.values() if n > 1)
    diverged = 0
    examples: list[str] = []
    for room, seats in res.events.items():
        seen: dict[int, str] = {}
        bad = ""
        for per in seats.values():
            for seq, text in per.items():
                if seen.setdefault(seq, text) != text:
                    bad = f"{room} seq {seq}: {seen[seq]} vs {text}"
                ev = log.get(room, {}).get(seq)
                if ev is None or ev["kind"] != json.loads(text).get("kind"):
                    bad = f"{room} seq {seq}: {text} vs the log's {ev}"
        if bad:
            diverged += 1
            examples.append(bad)
    return {
        "moves_sent": len(res.moves),
        "moves_acknowledged": len(acked),
        "moves_lost": lost,
        "moves_duplicated": duplicated,
        "rooms_diverged": diverged,
        "diverged_examples": examples[:3],
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = Config()
    for f, value in asdict(defaults).items():
        flag = "--" + f.replace("_", "-")
        if isinstance(value, bool):
            ap.add_argument(flag, action="store_true")
        elif value is None or f in ("kill_at", "drain_at"):
            ap.add_argument(flag, default=value, type=float if "at" in f else str)
        else:
            ap.add_argument(flag, default=value, type=type(value))
    ap.add_argument("--no-faults", action="store_true", help="no kill, no drain")
    ap.add_argument("--json", action="store_true")
    args = vars(ap.parse_args(argv))
    as_json = args.pop("json")
    if args.pop("no_faults"):
        args["kill_at"] = args["drain_at"] = None
    cfg = Config(**args)
    summary = asyncio.run(run(cfg))
    print(json.dumps(summary, indent=None if as_json else 2))
    bad = (
        summary["moves_lost"]
        or summary["moves_duplicated"]
        or summary["rooms_diverged"]
        or summary.get("takeover_s", {}).get("max", 0) > 5
        or summary.get("drain", {}).get("gap_max_s", 0) > 1
        or ("drain" in summary and summary["drain"]["exit_s"] is None)
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
