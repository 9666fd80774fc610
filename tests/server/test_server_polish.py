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
