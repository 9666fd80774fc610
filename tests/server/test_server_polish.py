"""The polish found by a player's walk through the site: guest names have a budget of their
own, the open-room list shows only live rooms, unknown addresses get a friendly 404, watchers
may chat, and the poker hint's odds are honest about a bid made blind."""

from __future__ import annotations

from pathlib import Path

from server_util import client, create

from liarsdice.server.config import Limits


# ----------------------------------------------------------- 4. guest names: their own budget
def test_new_players_do_not_use_the_room_budget(tmp_path: Path) -> None:
    with client(tmp_path, Limits(rooms_per_ip=2, players_per_ip=5)) as c:
        for i in range(5):  # more players than rooms allowed: a household on one address
            r = c.post("/api/players", json={"name": f"guest{i}"})
            assert r.status_code == 201, r.text
        create(c)  # rooms are still possible: the players did not use their budget
        create(c)
        r = c.post("/api/rooms", json={"preset": "classic", "name": "ann"})
        assert r.status_code == 429
        err = r.json()["data"]
        assert err["code"] == "too_many_rooms"
        assert err["message"] == "at most 2 rooms per 60 minutes from one address"
        assert "players" not in err["message"]
        r = c.post("/api/players", json={"name": "guest5"})
        assert r.status_code == 429 and "Retry-After" in r.headers
        err = r.json()["data"]
        assert err["code"] == "too_many_players"
        assert err["message"] == "at most 5 new players per 60 minutes from one address"


def test_the_default_player_budget_is_larger_than_the_rooms(tmp_path: Path) -> None:
    lim = Limits()
    assert lim.players_per_ip > lim.rooms_per_ip
    with client(tmp_path) as c:
        for i in range(lim.rooms_per_ip + 10):
            r = c.post("/api/players", json={"name": f"guest{i}"})
            assert r.status_code == 201, r.text
        create(c)


# ------------------------------------------------------------- 14. unknown addresses: a 404
def test_an_unknown_page_is_a_friendly_html_404(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path in ("/nowhere", "/r", "/rooms/abc/def", "/leaderboard/x"):
            r = c.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html")
            assert 'href="/"' in r.text and "Back to the lobby" in r.text
            assert "detail" not in r.text


def test_an_unknown_api_address_keeps_the_error_envelope(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path, accept in (
            ("/api/nowhere", "text/html"),
            ("/api/rooms/x/y/z", "*/*"),
            ("/nowhere", "application/json"),
        ):
            r = c.get(path, headers={"Accept": accept})
            assert r.status_code == 404, path
            body = r.json()
            assert body["type"] == "error" and body["version"] == 1, body
            assert body["data"]["code"] == "not_found"
            assert "detail" not in body
        r = c.delete("/api/rooms")
        assert r.status_code == 405
        assert r.json()["data"]["code"] == "method_not_allowed"
        # the endpoints' own errors are unchanged
        r = c.get("/api/rooms/nope", headers={"Accept": "text/html"})
        assert r.status_code == 404 and r.json()["data"]["code"] == "no_room"
        r = c.get("/static/nope.js", headers={"Accept": "text/html"})
        assert r.status_code == 404 and r.json()["data"]["code"] == "not_found"
