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
        # people and bots are ranked apart: ann is first among people whatever the bot did
        board = c.get("/api/leaderboard").json()
        assert [p["player"] for p in board["players"]] == [me["player"]]
        assert board["players"][0]["kind"] == "guest" and board["players"][0]["level"] is None
        assert [(b["player"], b["kind"], b["level"]) for b in board["bots"]] == [
            ("bot-random", "bot", "random")
        ]
        bot = c.get("/api/players/bot-random").json()
        assert bot["kind"] == "bot" and bot["games"] == 1  # two seats, rated once
        assert bot["level"] == "random"  # the page names the level as the lobby does


def test_people_rank_above_bots_whatever_their_ratings(tmp_path: Path) -> None:
    """Two people and a bot level: the leaderboard ranks the people among themselves, best
    first, in pages that count people only; the bot level is listed apart, whatever its
    rating (it played three games, each person one or two)."""
    with client(tmp_path, grace_period=0.0) as c:
        ann, ben = new_player(c, "ann"), new_player(c, "ben")
        for who in (ann, ben, ann):
            room = create(c, who["name"], options={"dice": 1}, player_token=who["token"])
            play_with_bots(c, room, ("expert", "expert"))
        r = c.get("/api/leaderboard?per_page=1")
        board = r.json()
        assert r.headers["X-Total-Count"] == "2" and board["next_page"] == 2  # people only
        people = board["players"] + c.get("/api/leaderboard?per_page=1&page=2").json()["players"]
        assert {p["player"] for p in people} == {ann["player"], ben["player"]}
        assert people[0]["rating"] >= people[1]["rating"]
        assert [b["player"] for b in board["bots"]] == ["bot-expert"]
        pages = [c.get(f"/api/players/{p['player']}").json() for p in people]
        assert [p["games"] for p in pages] == (
            [2, 1] if people[0]["player"] == ann["player"] else [1, 2]
        )
