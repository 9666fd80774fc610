"""``GET /api/rooms/{room}/games/{game_no}/analysis``: a finished game's analysis
(docs/ANALYSIS.md); 409 while the game is played, 404 for an unknown room or game; the moves
the computer made for a person who was away are marked and not held against them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server_util import client, create, play_out, play_with_bots, start_with_bot


def test_the_analysis_of_a_finished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from liarsdice.server.http import analysis as endpoint

    calls: list[str] = []
    real = endpoint.analyse

    def counted(record: Any, computer: Any = ()) -> Any:
        calls.append("analyse")
        return real(record, computer)

    monkeypatch.setattr(endpoint, "analyse", counted)
    with client(tmp_path) as c:
        host = create(c, "ann", "classic", options={"dice": 1})
        room = host["room"]
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            f = start_with_bot(ws, host["token"])
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
            assert m["computer"] is False  # ann played every move herself, the bot its own
        assert c.get(f"/api/rooms/{room}/games/1/analysis").content == got.content  # kept
        assert calls == ["analyse"]  # analysed once
        missing = c.get(f"/api/rooms/{room}/games/2/analysis")
        assert missing.status_code == 404 and missing.json()["data"]["code"] == "no_record"
        assert c.get("/api/rooms/nope/games/1/analysis").status_code == 404


@pytest.mark.parametrize("preset", ["classic", "poker-dice"])
def test_moves_the_computer_made_for_a_person_are_not_held_against_them(
    tmp_path: Path, preset: str
) -> None:
    with client(tmp_path, grace_period=0.0) as c:
        host = create(
            c, "ann", preset, options={"lives": 1} if preset == "poker-dice" else {"dice": 1}
        )
        # ann starts and leaves at once: after the (zero) grace period a computer plays her seat
        play_with_bots(c, host, ("prob",))
        analysis = c.get(f"/api/rooms/{host['room']}/games/1/analysis").json()
    by_player = {
        name: [m for m in analysis["moves"] if m["player"] == name] for name in analysis["seats"]
    }
    assert by_player["ann"] and all(m["computer"] for m in by_player["ann"])
    assert by_player["prob-bot-1"] and not any(m["computer"] for m in by_player["prob-bot-1"])
    ann, bot = analysis["players"]["ann"], analysis["players"]["prob-bot-1"]
    assert ann["computer"] == len(by_player["ann"]) and ann["decisions"] == ann["judged"] == 0
    assert ann["mistakes"] == ann["blunders"] == ann["inaccuracies"] == 0
    assert ann["average_loss"] is None
    assert bot["computer"] == 0 and bot["decisions"] == len(by_player["prob-bot-1"])
