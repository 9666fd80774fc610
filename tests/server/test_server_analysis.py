"""``GET /api/rooms/{room}/games/{game_no}/analysis``: a finished game's analysis
(docs/ANALYSIS.md); 409 while the game is played, 404 for an unknown room or game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_util import client, create, hello, is_reply, msg, play_out, until


def test_the_analysis_of_a_finished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from liarsdice.server.http import analysis as endpoint

    calls: list[str] = []
    real = endpoint.analyse

    def counted(record: Any) -> Any:
        calls.append("analyse")
        return real(record)

    monkeypatch.setattr(endpoint, "analyse", counted)
    with client(tmp_path) as c:
        host = create(c, "ann", "classic", options={"dice": 1})
        room = host["room"]
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            hello(ws, host["token"])
            ws.send_json(msg("add_bot", level="random", id="b"))
            until(ws, is_reply("b"))
            ws.send_json(msg("start", id="s"))
            f = until(ws, is_reply("s"))
            playing = c.get(f"/api/rooms/{room}/games/1/analysis")
            assert playing.status_code == 409
            assert playing.json()["data"]["code"] == "game_in_progress"
            play_out(ws, f)
        got = c.get(f"/api/rooms/{room}/games/1/analysis")
        assert got.status_code == 200 and got.headers["content-type"] == "application/json"
        analysis = got.json()
        assert analysis["format"] == "liarsdice-analysis" and analysis["version"] == 1
        record = c.get(f"/api/rooms/{room}/games/1/record").json()
        assert len(analysis["moves"]) == sum(len(r["moves"]) for r in record["rounds"])
        assert set(analysis["players"]) == {"ann", "random-bot-1"}
        assert analysis["finished"] and analysis["winner"] in record["players"]
        for m in analysis["moves"]:
            assert m["p_known"] is None or 0 <= m["p_known"] <= 1
        assert c.get(f"/api/rooms/{room}/games/1/analysis").content == got.content  # kept
        assert calls == ["analyse"]  # analysed once
        missing = c.get(f"/api/rooms/{room}/games/2/analysis")
        assert missing.status_code == 404 and missing.json()["data"]["code"] == "no_record"
        assert c.get("/api/rooms/nope/games/1/analysis").status_code == 404
