"""Per-update server CPU of the room pipeline: what one move costs the server, transport aside.

Drives real rooms in one process, as ``liarsdice serve`` does, without sockets: each room has
five human seats whose connections are stand-ins that take every frame as the WebSocket
writer does (its JSON text and byte size); a real SQLite store (WAL, group commit) takes the
writes. Every seat plays its own turns (a challenge one time in four when one is legal, else
one of the three lowest bids) and the host asks for a rematch after each game. The figure is
the process's CPU time (all threads: the store writes on its own) per applied move, from the
moment the move is submitted until every connection of the room has its frame.

    python bench/room.py                      # 20 rooms x 5 seats, 3000 moves
    python bench/room.py --moves 500          # quicker
    python bench/room.py --src OLD_SRC NEW_SRC  # two checkouts' src/ side by side, alternating

``--src`` runs this script once per source tree (``PYTHONPATH``), alternating ``--rounds``
times, and prints each tree's figures and the ratio. The rooms of the server before issue 21
(``liarsdice.server.rooms``) and after it (``liarsdice.server.room``) are both understood.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


class Conn:
    """A connection stand-in: it takes each frame as the WebSocket writer does."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.last: dict[str, Any] | None = None
        self.bytes = 0

    def push(self, frame: dict[str, Any]) -> None:
        text = getattr(frame, "text", None)
        if not isinstance(text, str):
            text = json.dumps(frame, separators=(",", ":"))
        self.bytes += len(text.encode())
        self.last = frame

    def close(self, code: int, reason: str) -> None:
        pass


def _api() -> tuple[Any, Any, Any, Any]:
    from liarsdice.server.protocol import ActionMsg, CreateRoomBody
    from liarsdice.server.store import Store

    try:
        from liarsdice.server.config import Settings
        from liarsdice.server.room import RoomManager
    except ImportError:  # the server before the room became a value
        from liarsdice.server.rooms import RoomManager, Settings  # type: ignore[no-redef]
    return Settings, Store, RoomManager, (ActionMsg, CreateRoomBody)


def _pick(state: Any, game: Any, rng: random.Random) -> int:
    legal = list(state.legal_actions())
    bids = [a for a in legal if game.action_bid(a) is not None]
    calls = [a for a in legal if a not in bids]
    if calls and (not bids or rng.random() < 0.25):
        return int(calls[0])
    return int(rng.choice(bids[:3]))


async def _run(rooms: int, moves: int, seed: int) -> dict[str, float]:
    from liarsdice.server.protocol import EmptyMsg

    settings_cls, store_cls, manager_cls, (action_msg, body_cls) = _api()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'room.db'}"
        extra: dict[str, float] = {}  # no pause after a call (older servers have none)
        if "reveal_seconds" in getattr(settings_cls, "__dataclass_fields__", {}):
            extra["reveal_seconds"] = 0.0
        settings = settings_cls(db_url=url, grace_period=3600.0, bot_delay=3600.0, **extra)
        store = store_cls(url)
        await store.start()
        manager = manager_cls(settings, store)
        await manager.start()
        rng = random.Random(seed)
        tables = []
        for r in range(rooms):
            body = body_cls(preset="classic", name="p0", client_seed=f"s{r}")
            room, _, _ = await manager.create(body)
            for i in range(1, 5):
                await room.submit(lambda room=room, i=i: room.join(f"p{i}", None))
            conns = [Conn(i) for i in range(5)]
            for c in conns:
                await room.submit(lambda room=room, c=c: room.connect(c, None, None, None))
            await room.submit(lambda room=room, c=conns[0]: room.handle(c, "start", EmptyMsg()))
            tables.append((room, conns))

        async def play(room: Any, conns: list[Conn], quota: int) -> int:
            done = 0
            while done < quota:
                if room.status != "playing":
                    await room.submit(lambda h=conns[0]: room.handle(h, "rematch", EmptyMsg()))
                    continue
                st = room.state
                msg = action_msg(action=_pick(st, room.game, rng), seq=room.seq)
                sender = conns[st.current_player]
                await room.submit(lambda s=sender, m=msg: room.handle(s, "action", m))
                done += 1
            return done

        per_room = moves // rooms
        cpu0, wall0 = time.process_time(), time.perf_counter()
        done = sum(await asyncio.gather(*(play(r, c, per_room) for r, c in tables)))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        sent = sum(c.bytes for _, conns in tables for c in conns)
        await manager.stop()
        await store.close()
    return {
        "moves": done,
        "cpu_ms_per_move": 1000 * cpu / done,
        "wall_ms_per_move": 1000 * wall / done,
        "kb_sent_per_move": sent / done / 1024,
    }


def _compare(args: argparse.Namespace) -> None:
    figures: dict[str, list[float]] = {src: [] for src in args.src}
    for _ in range(args.rounds):
        for src in args.src:
            cmd = [sys.executable, __file__, "--rooms", str(args.rooms)]
            cmd += ["--moves", str(args.moves), "--seed", str(args.seed), "--json"]
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            figures[src].append(json.loads(out.stdout)["cpu_ms_per_move"])
    base = statistics.median(figures[args.src[0]])
    for src, runs in figures.items():
        med = statistics.median(runs)
        shown = ", ".join(f"{x:.3f}" for x in runs)
        print(f"{src}: CPU per move median {med:.3f} ms ({shown}); {med / base:.2f}x the first")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=20)
    p.add_argument("--moves", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--src", nargs="+", help="source trees (their src/) to compare")
    p.add_argument("--rounds", type=int, default=3, help="alternations with --src")
    args = p.parse_args()
    if args.src:
        _compare(args)
        return
    out = asyncio.run(_run(args.rooms, args.moves, args.seed))
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{out['moves']:.0f} moves: CPU {out['cpu_ms_per_move']:.3f} ms a move (all threads), "
        f"wall {out['wall_ms_per_move']:.3f} ms, {out['kb_sent_per_move']:.1f} KiB sent a move"
    )


if __name__ == "__main__":
    main()
