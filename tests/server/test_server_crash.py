"""The crash test: `liarsdice serve` killed with SIGKILL mid-game resumes with nothing lost.

The server runs as a subprocess on a free loopback port with a temporary SQLite file; a
player plays through a real WebSocket client, the server is killed after some acknowledged
moves, restarted on the same file, and the game is finished. Every acknowledged move must be
in the log, and the finished game's record must equal the log folded through the rules core.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from apt_util import free_port
from liarsdice.notation.bidding.record import replay_record

BIN = Path(sys.executable).parent / "liarsdice"


def _serve(port: int, db: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [str(BIN), "serve", "--port", str(port), "--db", f"sqlite+aiosqlite:///{db}",
         "--bot-delay", "0", "--grace", "1000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


_SENT: list[float] = []


def _send(ws: ClientConnection, type_: str, **data: Any) -> None:
    """Send a message, pacing ourselves under the server's documented rate limit (10 messages
    a second, bursts of 20) as a well-behaved client does: with bots answering at once, an
    unpaced client would be rate limited on a fast machine."""
    if len(_SENT) >= 15:
        wait = 1.6 - (time.monotonic() - _SENT[-15])
        if wait > 0:
            time.sleep(wait)
    _SENT.append(time.monotonic())
    ws.send(json.dumps({"type": type_, "version": 1, "data": data}))


def _recv(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return frame


def _reply(ws: ClientConnection, ref: str) -> dict[str, Any]:
    while True:
        f = _recv(ws)
        if f["data"].get("reply_to") == ref:
            return f


def _play(ws: ClientConnection, view: dict[str, Any], moves: int, rng: random.Random,
          acked: list[tuple[int, str]]) -> dict[str, Any]:  # fmt: skip
    """Make up to ``moves`` moves (when it is our turn); returns the latest view."""
    n = 0
    while n < moves and view["winner"] is None:
        if view["to_move"] != 0:
            f = _recv(ws)
            if f["type"] in ("update", "snapshot") and f["data"]["view"] is not None:
                view = f["data"]["view"]
                _continue(ws, f)
            continue
        bids = [a for a in view["legal"] if a["text"] not in ("liar", "exact")][:6]
        choice = rng.choice(bids if bids and rng.random() < 0.5 else view["legal"])
        ref = f"m{len(acked)}"
        _send(ws, "action", action=choice["action"], id=ref)
        f = _reply(ws, ref)
        assert f["type"] == "update", f
        acked.append((f["data"]["seq"], choice["text"]))
        view = f["data"]["view"]
        _continue(ws, f)
        n += 1
    return view


_CONTINUED: set[tuple[int, int]] = set()


def _continue(ws: ClientConnection, frame: dict[str, Any]) -> None:
    """A round's reveal holds the room: press Continue (once per reveal)."""
    reveal = (frame["data"].get("room") or {}).get("reveal")
    if reveal and (reveal["game_no"], reveal["round"]) not in _CONTINUED:
        _CONTINUED.add((reveal["game_no"], reveal["round"]))
        _send(ws, "continue")


def _finished(base: str, room: str) -> None:
    """Wait until the game is over (after its last reveal, which we continued)."""
    deadline = time.monotonic() + 10
    while httpx.get(f"{base}/api/rooms/{room}", timeout=5).json()["data"]["room"]["status"] != (
        "finished"
    ):
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)


@pytest.mark.skipif(not BIN.exists(), reason="the liarsdice script is not installed")
def test_sigkill_mid_game_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"ws://127.0.0.1:{port}"
    rng = random.Random(4)
    acked: list[tuple[int, str]] = []
    proc = _serve(port, db)
    try:
        body = {"preset": "classic", "name": "ann", "options": {"dice": 3, "loss": "one"}}
        host = httpx.post(f"{base}/api/rooms", json=body, timeout=5).json()
        room, token = host["room"], host["token"]
        with connect(f"{url}/ws/rooms/{room}") as ws:
            _send(ws, "hello", token=token)
            assert _recv(ws)["type"] == "welcome"
            _send(ws, "add_bot", level="random", id="b1")
            _reply(ws, "b1")
            _send(ws, "add_bot", level="random", id="b2")
            _reply(ws, "b2")
            _send(ws, "start", id="s")
            view = _reply(ws, "s")["data"]["view"]
            view = _play(ws, view, 2, rng, acked)
        assert acked and view["winner"] is None
        last_seq = max(seq for seq, _ in acked)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    # Restart on the same database and finish the game.
    proc = _serve(port, db)
    try:
        with connect(f"{url}/ws/rooms/{room}") as ws:
            _send(ws, "hello", token=token, last_seq=last_seq)
            welcome = _recv(ws)
            assert welcome["type"] == "welcome" and welcome["data"]["seat"] == 0
            assert welcome["data"]["seq"] >= last_seq
            catchup = _recv(ws)
            assert catchup["type"] == "update" and catchup["data"]["from_seq"] == last_seq
            view = catchup["data"]["view"]
            _continue(ws, catchup)
            while view["winner"] is None:
                view = _play(ws, view, 1000, rng, acked)
            _finished(base, room)
        record = httpx.get(f"{base}/api/rooms/{room}/games/1/record", timeout=5).json()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()

    # Compare with the log.
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT seq, kind, data FROM events WHERE room_id = ? ORDER BY seq", (room,)
    ).fetchall()
    con.close()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    log = {seq: (kind, json.loads(data)) for seq, kind, data in rows}
    for seq, text in acked:  # every acknowledged move is in the log
        assert any(
            k == "action" and d["seat"] == 0 and d["text"] == text
            for s, (k, d) in log.items()
            if s <= seq
        )
    events = [
        (-1, d["value"]) if k == "chance" else (d["seat"], d["action"])
        for _, (k, d) in sorted(log.items())
        if k in ("chance", "action")
    ]
    final = replay_record(record)
    assert final.history() == events
    assert final.winner == view["winner"]
    assert os.path.getsize(db) > 0
