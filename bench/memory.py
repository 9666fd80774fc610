"""A node's memory over many finished games: one ``liarsdice serve`` process (SQLite, no bot
delay, no reveal pause), ``--rooms`` rooms each of a scripted player against a bot, playing game
after game (a rematch at each end), until ``--games`` games have finished; the server's
resident memory (``VmRSS`` of its process, read from outside) is printed every ``--every``
games, and at the end the growth over the last 1,000 games (issue 43, point 5: at most 1 MB).

    python bench/memory.py [--games 3000] [--every 500] [--rooms 10] [--dice 2] [--think 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

OPEN = "1000000"
LIMITS = [
    *("--rooms-per-ip", OPEN, "--joins-per-ip", OPEN, "--joins-per-room", OPEN),
    *("--max-ws-per-ip", OPEN, "--max-conns-per-ip", OPEN, "--players-per-ip", OPEN),
    *("--ip-rate", OPEN, "--ip-burst", OPEN, "--http-rate", "0", "--exempt-loopback"),
]


def rss_kb(pid: int) -> int:
    """The resident memory of process ``pid`` (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Table:
    """One room: a scripted host against a bot, game after game."""

    def __init__(self, base: str, dice: int, think: float) -> None:
        self.base, self.dice, self.think = base, dice, think
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.status = ""
        self.seq = 0
        self.over = False

    async def open(self) -> None:
        made = httpx.post(
            self.base + "/api/rooms",
            json={"name": "ann", "options": {"dice": self.dice}},
            timeout=10,
            trust_env=False,
        ).json()
        url = self.base.replace("http", "ws") + f"/ws/rooms/{made['room']}"
        self.ws = await connect(url, proxy=None, max_size=2**22)
        await self.send("hello", token=made["token"])
        await self.send("add_bot", level="random")
        await self.send("start")

    async def send(self, kind: str, **data: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": kind, "version": 1, "data": data}))

    async def play(self, games: list[int], until: int) -> None:
        """Play (and rematch) until ``games[0]`` reaches ``until``; count each game over."""
        assert self.ws is not None
        await self._act()  # (where the last call left off: it may be this seat's turn)
        async for raw in self.ws:
            frame = json.loads(raw)
            data = frame.get("data", {})
            if frame.get("type") == "error":
                raise RuntimeError(f"the server refused a message: {data}")
            self.seq = max(self.seq, int(data.get("seq", 0) or 0))
            if data.get("view") is not None:
                self.view = data["view"]
            if isinstance(data.get("room"), dict):
                self.status = data["room"].get("status", self.status)
            if any(e.get("kind") == "game_over" for e in data.get("events", [])):
                games[0] += 1
                self.over = True
            if games[0] >= until:
                return
            await self._act()

    async def _act(self) -> None:
        if self.over:  # the next game
            self.over = False
            await asyncio.sleep(self.think)
            await self.send("rematch")
            return
        v = self.view
        if self.status != "playing" or not v or v.get("to_move") != 0 or not v.get("legal"):
            return
        legal = v["legal"]
        calls = [a for a in legal if a["text"] == "liar"]
        bids = [a for a in legal if a["text"] not in ("liar", "exact")]
        pick = calls[0] if calls and (len(v.get("bids", [])) >= 2 or not bids) else bids[0]
        await asyncio.sleep(self.think)  # (a pace under the server's per-address byte budget)
        await self.send("action", action=pick["action"])
        v["legal"] = []  # (one move per turn: the next view says when it is ours again)


async def run(args: argparse.Namespace, base: str, pid: int) -> list[tuple[int, int]]:
    games = [0]
    tables = [Table(base, args.dice, args.think) for _ in range(args.rooms)]
    for t in tables:
        await t.open()
    samples = [(0, rss_kb(pid))]
    print(f"{0:>6} games  {samples[0][1] / 1024:8.1f} MB", flush=True)
    for target in range(args.every, args.games + 1, args.every):
        await asyncio.gather(*(t.play(games, target) for t in tables))
        samples.append((games[0], rss_kb(pid)))
        print(f"{games[0]:>6} games  {samples[-1][1] / 1024:8.1f} MB", flush=True)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--dice", type=int, default=2)
    parser.add_argument(
        "--think",
        type=float,
        default=0.15,
        help="seconds before each move (the server takes 10 messages a second from a connection)",
    )
    args = parser.parse_args()
    port = free_port()
    root = Path(tempfile.mkdtemp(prefix="liarsdice-memory-"))
    cmd = [sys.executable, "-c", "from liarsdice.cli.main import main; main()", "serve",
           "--port", str(port), "--db", f"sqlite+aiosqlite:///{root / 'rooms.db'}",
           "--bot-delay", "0", "--reveal", "0", *LIMITS]  # fmt: skip
    env = {**os.environ, "LIARSDICE_DATA": str(root)}
    log = open(root / "serve.log", "ab")  # noqa: SIM115  (the process keeps it)
    server = subprocess.Popen(cmd, stdout=log, stderr=log, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1, trust_env=False).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                sys.exit(f"the server did not start: {(root / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.2)
        print(
            f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; "
            f"{args.rooms} rooms, {args.dice} dice each, a scripted player against a bot\n"
        )
        start = time.monotonic()
        samples = asyncio.run(run(args, base, server.pid))
        seconds = time.monotonic() - start
    finally:
        server.terminate()
        server.wait(10)
    last = [s for s in samples if s[0] >= samples[-1][0] - 1000]
    growth = (last[-1][1] - last[0][1]) / 1024
    print(
        f"\n{samples[-1][0]} games in {seconds:.0f} s; growth over the last "
        f"{last[-1][0] - last[0][0]} games: {growth:+.2f} MB "
        f"({growth * 1024 * 1024 / max(1, last[-1][0] - last[0][0]):+.0f} bytes a game)"
    )


if __name__ == "__main__":
    main()
