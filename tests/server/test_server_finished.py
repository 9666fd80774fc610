"""A finished game is a value (issue 40): its result, ranking, views, record, replay and
analysis belong to the players who played it, never to today's seat positions. After a game,
the seats change in every way a room allows (a host change, a kick, a ban, a bot removed and
another added, a newcomer, a lock): every page and frame of the finished game reads the same,
byte for byte, for each of its players and for a watcher."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_util import client, create, hello, join, msg, until


def _reply(ws: Any, kind: str, ref: str, **data: Any) -> dict[str, Any]:
    ws.send_json(msg(kind, id=ref, **data))
    f: dict[str, Any] = until(ws, lambda f: f["data"].get("reply_to") == ref)
    assert f["type"] != "error", f
    return f


def _finished(c: TestClient, rid: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        data: dict[str, Any] = c.get(f"/api/rooms/{rid}").json()["data"]
        if data["room"]["status"] == "finished" and data["room"].get("ranking"):
            return data
        time.sleep(0.05)
    raise AssertionError("the game did not finish")


def _seats(data: dict[str, Any], key: str) -> list[Any]:
    """Each seat's ``key`` on a room's page, in seat order."""
    return [s[key] for s in data["room"]["seats"]]


def _pages(c: TestClient, rid: str, tokens: dict[str, str]) -> dict[str, str]:
    """Every page and frame of game 1: its record (JSON and text), its analysis, and each
    player's and a watcher's view of it, with the ranking by name."""
    out = {}
    for fmt in ("json", "text"):
        out[fmt] = c.get(f"/api/rooms/{rid}/games/1/record?format={fmt}").text
    out["analysis"] = c.get(f"/api/rooms/{rid}/games/1/analysis").text
    for name, token in [*tokens.items(), ("watcher", None)]:
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            _, snap = hello(ws, token)
        data = snap["data"]
        view = data["view"]
        ranking = [view["names"][p] for p in data["room"]["ranking"]]
        out[name] = json.dumps({"view": view, "ranking": ranking}, sort_keys=True)
    return out


@pytest.mark.parametrize("preset", ["poker-dice", "classic"])
def test_a_finished_game_reads_the_same_after_any_seat_change(tmp_path: Path, preset: str) -> None:
    with client(tmp_path, grace_period=0.0) as c:
        ann = create(c, preset=preset)
        rid = ann["room"]
        ben = join(c, rid, "ben")
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, ann["token"])
            _reply(ws, "add_bot", "b1", level="random")
            _reply(ws, "add_bot", "b2", level="prob")
            _reply(ws, "start", "s")
        # nobody is connected: after the (zero) grace period computers play every seat
        data = _finished(c, rid)
        assert _seats(data, "name") == ["ann", "ben", "random-bot-1", "prob-bot-1"]
        tokens = {"ann": ann["token"], "ben": ben["token"]}
        before = _pages(c, rid, tokens)
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, ann["token"])
            _reply(ws, "make_host", "h", seat=1)
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, ben["token"])
            _reply(ws, "remove_seat", "r1", seat=2)  # the random bot goes: prob moves up
            _reply(ws, "ban", "r2", seat=0)  # ann is banned: ben moves to seat 0
            _reply(ws, "add_bot", "b3", level="random")
        cy = join(c, rid, "cy")
        with c.websocket_connect(f"/ws/rooms/{rid}") as ws:
            hello(ws, ben["token"])
            _reply(ws, "lock", "l", locked=True)
        after = _finished(c, rid)
        assert _seats(after, "name") == ["ben", "prob-bot-1", "random-bot-1", "cy"]
        # who played the game, by their seat now: ben played position 1, the newcomers nothing
        assert _seats(after, "position") == [1, 3, None, None]
        # ann is banned (her token seats her no more: she would watch)
        now = _pages(c, rid, {"ben": ben["token"], "cy": cy["token"]})
        for page, text in before.items():
            if page != "ann":
                assert now[page] == text, page
        # the newcomer did not play game 1: she sees it as a watcher does
        assert now["cy"] == before["watcher"]
        ben_view = json.loads(now["ben"])["view"]
        assert ben_view["viewer"] == 1 and ben_view["names"][1] == "ben"
