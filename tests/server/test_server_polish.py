"""The polish found by a player's walk through the site: guest names have a budget of their
own, the open-room list shows only live rooms, unknown addresses get a friendly 404, watchers
may chat, and the poker hint's odds are honest about a bid made blind."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from liarsdice.server.config import Limits
from liarsdice.server.listing import LIVE_FOR
from server_util import client, create, hello, is_reply, msg, play_with_bots, until


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
            # the app's page, which shows its "no page here" section for a path it does not know
            assert 'id="not-found"' in r.text and "Back to the lobby" in r.text
            assert '{"detail"' not in r.text  # never the framework's bare error


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


# ------------------------------------------------------------ 13. the open rooms: live only
def _listed(c: Any) -> set[str]:
    return {r["id"] for r in c.get("/api/rooms", params={"per_page": 200}).json()["rooms"]}


def test_the_room_list_shows_only_live_rooms(tmp_path: Path) -> None:
    # (a short grace: play_with_bots leaves the host's seat to a bot)
    with client(tmp_path, Limits(rooms_per_ip=100), grace_period=0.05) as c:
        rooms = c.app.state.manager.rooms  # type: ignore[attr-defined]
        fresh = create(c)["room"]  # just made: listed while its creator comes to the table
        abandoned = create(c)["room"]
        rooms[abandoned].last_active -= LIVE_FOR + 1  # nobody came back for ten minutes
        kept = create(c)
        emptied = create(c)
        played = create(c)
        assert {fresh, kept["room"], emptied["room"]} <= _listed(c)
        assert abandoned not in _listed(c)
        with c.websocket_connect(f"/ws/rooms/{kept['room']}") as ws:
            hello(ws, kept["token"])  # someone at the table: listed however long it waits
            rooms[kept["room"]].last_active -= LIVE_FOR + 1
            assert kept["room"] in _listed(c)
        deadline = time.monotonic() + 5  # gone (the disconnect lands), and idle
        while time.monotonic() < deadline and rooms[kept["room"]].presence[0].connections:
            time.sleep(0.02)
        rooms[kept["room"]].last_active -= LIVE_FOR + 1
        assert kept["room"] not in _listed(c)
        with c.websocket_connect(f"/ws/rooms/{emptied['room']}") as ws:
            hello(ws, emptied["token"])
            ws.send_json(msg("add_bot", level="random", id="b"))
            until(ws, is_reply("b"))
            ws.send_json(msg("leave", id="l"))  # only the computer player is left
            until(ws, lambda f: f["type"] == "error" or f["data"].get("reply_to") == "l")
        assert emptied["room"] not in _listed(c)
        play_with_bots(c, played)  # finished, and its player has gone
        assert played["room"] not in _listed(c)
        assert fresh in _listed(c)


# ------------------------------------------------------------------- 7. watchers may chat
def test_a_watcher_chats_as_a_watcher_and_is_rate_limited(tmp_path: Path) -> None:
    with client(tmp_path, rate_per_second=1.0, rate_burst=5) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        with c.websocket_connect(url) as player, c.websocket_connect(url) as spec:
            hello(player, host["token"])
            welcome, _ = hello(spec)
            assert welcome["data"]["role"] == "spectator"
            spec.send_json(msg("chat", text="<i>good luck</i>", id="w"))
            ack = until(spec, is_reply("w"))
            assert ack["type"] == "update", ack
            chat = next(e for e in ack["data"]["events"] if e["kind"] == "chat")
            assert chat == {
                "seq": chat["seq"],
                "kind": "chat",
                "seat": None,
                "name": "watcher",
                "text": "&lt;i&gt;good luck&lt;/i&gt;",
            }
            seen = until(
                player, lambda f: any(e.get("kind") == "chat" for e in f["data"].get("events", []))
            )
            assert seen["data"]["events"][-1]["name"] == "watcher"
            snap = c.get(f"/api/rooms/{host['room']}").json()["data"]
            assert snap["chat"][-1]["name"] == "watcher"
            assert snap["view"] is None or snap["view"].get("my_dice") in (None, [])
            for i in range(10):  # a watcher's messages are rate-limited like a player's
                spec.send_json(msg("chat", text=f"spam {i}"))
            err = until(spec, lambda f: f["type"] == "error")
            assert err["data"]["code"] == "rate_limited"


# ------------------------------------------------- 3. the poker hint: the dice's own chance
def test_the_poker_hint_states_the_dice_chance_of_a_bid() -> None:
    """Four nines outside, one die shaken under the cup, and the bid four 10 9: only a fifth
    nine makes it (1 in 6). The hint said "about 50%", leaning on a model of the bidder."""
    from liarsdice.bots.poker.simple import accept_odds
    from liarsdice.core.poker import PokerGame
    from liarsdice.families.poker.terminal import PokerTerminal

    g = PokerGame(players=2)
    s = g.replay([(-1, f) for f in (1, 1, 1, 1, 4)])  # 9 9 9 9 Q
    for move in ("four 9 Q", "accept", "out 9 9 9 9", "shake"):
        s = s.apply_action(g.string_to_action(move))
    s = s.apply_action(5).apply_action(g.string_to_action("four 10 9"))
    p, loss = accept_odds(s.view(0), five_rule=False, bidder_model=False)
    assert abs(p - 1 / 6) < 1e-9 and 0 < loss < 1
    hint = "\n".join(PokerTerminal(g).hint(s, 0))
    assert "four 10 9 is true about 17%" in hint, hint
    assert "bluffs" not in hint and "50%" not in hint


# ----------------------------------------------- a bot that cannot play is refused at start
def test_a_room_refuses_to_start_with_a_bot_that_cannot_play(tmp_path: Path) -> None:
    """``nash`` plays only what the exact solver solves: a room of three in classic refuses
    to start with it (naming it and why) instead of letting it abandon the game; without it
    the room starts."""
    with client(tmp_path) as c:
        room = create(c, "ann", options={"dice": 5})
        with c.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
            hello(ws, room["token"])
            for n, level in enumerate(("nash", "prob")):
                ws.send_json(msg("add_bot", level=level, id=f"b{n}"))
                assert until(ws, is_reply(f"b{n}"))["type"] == "update"
            ws.send_json(msg("start", id="s"))
            refused = until(ws, is_reply("s"))
            assert refused["type"] == "error" and refused["data"]["code"] == "bad_rules"
            said = refused["data"]["message"]
            assert said.startswith("nash-bot-1 cannot play this game: ") and "solver" in said
            ws.send_json(msg("remove_seat", seat=1, id="r"))
            assert until(ws, is_reply("r"))["type"] == "update"
            ws.send_json(msg("start", id="s2"))
            assert until(ws, is_reply("s2"))["type"] == "update"
