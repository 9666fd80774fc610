"""Guest identities and ratings (issue 11): a browser's secret player token, a changeable
display name, OpenSkill ratings over finished games (bot levels rated too), a leaderboard and a
player page with games, wins and calls; all in the same database (migration 0003)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from server_util import client, create, new_player, play_with_bots

if TYPE_CHECKING:
    pass


def test_identity_is_created_and_renamed(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        me = new_player(c, "ann")
        assert me["name"] == "ann" and len(me["token"]) >= 32 and me["player"]
        auth = {"Authorization": f"Bearer {me['token']}"}
        r = c.post("/api/players/me", json={"name": "\uff41nnie"}, headers=auth)  # NFKC
        assert r.status_code == 200 and r.json() == {"player": me["player"], "name": "annie"}
        page = c.get(f"/api/players/{me['player']}").json()
        assert page["name"] == "annie" and page["rating"] == 1000 and page["games"] == 0
        bad = c.post("/api/players/me", json={"name": "x"}, headers={"Authorization": "Bearer no"})
        assert bad.status_code == 401 and bad.json()["data"]["code"] == "bad_player"
        assert c.post("/api/players/me", json={"name": "x"}).status_code == 401
        r = c.post("/api/players", json={"name": "prob-bot-1"})
        assert r.status_code == 409 and r.json()["data"]["code"] == "name_reserved"
        r = c.post("/api/rooms", json={"name": "ann", "player_token": "nope"})
        assert r.status_code == 400 and r.json()["data"]["code"] == "bad_player"
        assert c.get("/api/players/nobody").status_code == 404
        # the token is a secret: never in a page or the leaderboard
        assert me["token"] not in c.get(f"/api/players/{me['player']}").text


def test_a_finished_game_changes_ratings(tmp_path: Path) -> None:
    with client(tmp_path, grace_period=0.0) as c:
        me = new_player(c, "ann")
        room = create(c, "ann", options={"dice": 2}, player_token=me["token"])
        rid = room["room"]
        snap_room = play_with_bots(c, room)["room"]
        assert snap_room["status"] == "finished"
        ranking = snap_room["ranking"]
        assert sorted(ranking) == [0, 1, 2]
        seats = snap_room["seats"]
        assert seats[0]["player"] == me["player"]
        assert seats[1]["player"] == seats[2]["player"] == "bot-random"
        page = c.get(f"/api/players/{me['player']}").json()
        assert page["games"] == 1 and page["rating"] != 1000
        assert page["wins"] == (1 if ranking[0] == 0 else 0)
        (game,) = page["recent"]
        assert game["room"] == rid and game["game_no"] == 1 and game["players"] == 3
        assert game["place"] == ranking.index(0) + 1 and game["rating"] == page["rating"]
        assert page["calls_made"] >= page["calls_won"] >= 0
        assert seats[0]["rating"] == page["rating"]  # the room shows the new rating
        board = c.get("/api/leaderboard").json()["players"]
        assert {p["player"] for p in board} == {me["player"], "bot-random"}
        assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
        bot = c.get("/api/players/bot-random").json()
        assert bot["kind"] == "bot" and bot["games"] == 1  # two seats, rated once
