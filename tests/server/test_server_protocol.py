"""Protocol tests through FastAPI's TestClient: joining, playing, illegal moves, reconnect,
spectators, chat, and the abuse limits (origin, frame size, rate)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from server_util import (
    client,
    create,
    hello,
    is_reply,
    join,
    msg,
    play_out,
    start_with_bot,
    until,
    websocket_refused,
)


def _mover(frames: dict[int, dict[str, Any]]) -> int:
    return int(next(iter(frames.values()))["data"]["view"]["to_move"])


def _start_two(c: Any, tmp: Path, preset: str = "classic", **body: Any) -> tuple[Any, ...]:
    host = create(c, "ann", preset, **body)
    bob = join(c, host["room"], "bob")
    return host, bob


def test_http_endpoints(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        page = c.get("/").text
        assert "<title>Liar's Dice</title>" in page and "/static/app.js" in page
        for path in ("/r/abc", "/leaderboard", "/p/abc"):  # client-side routes: the same page
            assert c.get(path).text == page
        presets = c.get("/api/presets").json()
        names = {p["name"]: p["family"] for p in presets["presets"]}
        assert names["classic"] == "bidding" and names["poker-dice"] == "poker"
        assert "prob" in presets["bot_levels"]
        host = create(c, "ann", "perudo")
        assert host["seat"] == 0 and len(host["token"]) >= 32
        assert host["url"].endswith("/r/" + host["room"])
        room = c.get(f"/api/rooms/{host['room']}").json()
        assert room["type"] == "snapshot" and room["version"] == 1
        assert room["data"]["room"]["seats"][0]["name"] == "ann"
        assert "token" not in str(room) and "token_hash" not in str(room)
        # validation errors are clear, with the envelope
        bad = c.post("/api/rooms", json={"preset": "classic", "name": ""})
        assert bad.status_code == 422 and bad.json()["data"]["code"] == "invalid"
        bad = c.post("/api/rooms", json={"preset": "nope", "name": "x"})
        assert bad.status_code == 400 and "unknown preset" in bad.json()["data"]["message"]
        bad = c.post("/api/rooms", json={"preset": "classic", "name": "x", "options": {"loss": 7}})
        assert bad.status_code == 400
        assert c.post("/api/rooms/nope/join", json={"name": "x"}).status_code == 404
        dup = c.post(f"/api/rooms/{host['room']}/join", json={"name": "ann"})
        assert dup.status_code == 409 and dup.json()["data"]["code"] == "name_taken"
        assert c.get(f"/api/rooms/{host['room']}/games/1/record").status_code == 404


def test_join_play_and_illegal_moves(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host, bob = _start_two(c, tmp_path, options={"dice": 2})
        room = host["room"]
        with (
            c.websocket_connect(f"/ws/rooms/{room}") as w0,
            c.websocket_connect(f"/ws/rooms/{room}") as w1,
        ):
            welcome, snap = hello(w0, host["token"])
            assert welcome["data"] == {
                "room": room,
                "seat": 0,
                "role": "player",
                "host": True,
                "seq": snap["data"]["seq"],
            }
            assert snap["type"] == "snapshot" and snap["data"]["view"] is None
            welcome, _ = hello(w1, bob["token"])
            assert welcome["data"]["seat"] == 1 and not welcome["data"]["host"]
            # only the host starts
            w1.send_json(msg("start", id="s1"))
            assert until(w1, is_reply("s1"))["data"]["code"] == "not_host"
            w0.send_json(msg("start", id="s0"))
            frames = {
                0: until(w0, is_reply("s0")),
                1: until(w1, lambda f: f["type"] == "update" and f["data"]["view"] is not None),
            }
            for seat, f in frames.items():
                v = f["data"]["view"]
                assert v["player"] == seat and len(v["my_dice"]) == 2
                assert all("value" not in e for e in f["data"]["events"])
            mover = _mover(frames)
            ws = {0: w0, 1: w1}
            other = 1 - mover
            # out of turn
            ws[other].send_json(msg("action", text="1x2", id="o"))
            err = until(ws[other], is_reply("o"))
            assert err["type"] == "error" and err["data"]["code"] == "not_your_turn"
            # wrong room
            ws[mover].send_json(msg("action", text="1x2", room="elsewhere", id="r"))
            assert until(ws[mover], is_reply("r"))["data"]["code"] == "wrong_room"
            # unreadable bid, unknown action id
            ws[mover].send_json(msg("action", text="3 bananas", id="t"))
            assert until(ws[mover], is_reply("t"))["data"]["code"] == "illegal_action"
            ws[mover].send_json(msg("action", action=999999, id="u"))
            assert until(ws[mover], is_reply("u"))["data"]["code"] == "illegal_action"
            # a legal bid
            ws[mover].send_json(msg("action", text="2x5", id="b"))
            ok = until(ws[mover], is_reply("b"))
            assert ok["type"] == "update"
            assert [e["text"] for e in ok["data"]["events"] if e["kind"] == "action"] == ["2x5"]
            upd = until(ws[other], lambda f: f["type"] == "update" and f["data"]["events"])
            assert upd["data"]["view"]["current_bid"] == "2x5"
            assert upd["data"]["seq"] == ok["data"]["seq"]
            # not higher: the engine says why
            ws[other].send_json(msg("action", text="1x3", id="n"))
            err = until(ws[other], is_reply("n"))
            assert err["data"]["code"] == "illegal_action"
            assert "does not beat" in err["data"]["message"]
            # stale seq
            ws[other].send_json(msg("action", text="liar", seq=1, id="st"))
            assert until(ws[other], is_reply("st"))["data"]["code"] == "stale"
            # malformed frames get an error and the connection stays open
            ws[other].send_text("{not json")
            assert until(ws[other], lambda f: f["type"] == "error")["data"]["code"] == "malformed"
            ws[other].send_json({"type": "action", "version": 1, "data": {"action": "x"}})
            err = until(ws[other], lambda f: f["type"] == "error")
            assert err["data"]["code"] == "invalid" and "action" in err["data"]["message"]
            ws[other].send_json({"type": "dance", "version": 1, "data": {}})
            assert (
                until(ws[other], lambda f: f["type"] == "error")["data"]["code"] == "unknown_type"
            )
            ws[other].send_json({"type": "ping", "version": 9, "data": {}})
            err = until(ws[other], lambda f: f["type"] == "error")
            assert err["data"]["code"] == "unsupported_version"
            ws[other].send_json(msg("ping", id="p"))
            assert until(ws[other], is_reply("p"))["type"] == "pong"
            # call: the round ends, the dice are revealed, the seed too
            ws[other].send_json(msg("action", text="liar", id="l"))
            done = until(ws[other], is_reply("l"))
            kinds = [e["kind"] for e in done["data"]["events"]]
            assert "fair_reveal" in kinds and ("fair_round" in kinds or "game_over" in kinds)
            results = done["data"]["view"]["results"]
            assert len(results) == 1 and results[0]["call"] == "liar"


def _error_then_close(ws: Any, code: str, close_code: int) -> None:
    """The connection gets an error frame with ``code``, then is closed with ``close_code``."""
    err = until(ws, lambda f: f["type"] == "error")
    assert err["data"]["code"] == code
    with pytest.raises(WebSocketDisconnect) as exc:
        for _ in range(10):
            ws.receive_json()
    assert exc.value.code == close_code


def test_oversized_frame_closes(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host = create(c)
        with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
            hello(ws, host["token"])
            ws.send_json(msg("chat", text="x" * 5000))
            _error_then_close(ws, "too_big", 1009)


def test_rate_limit_closes(tmp_path: Path) -> None:
    with client(tmp_path, rate_per_second=0.5, rate_burst=3) as c:
        host = create(c)
        with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
            hello(ws, host["token"])
            for i in range(5):
                ws.send_json(msg("ping", id=str(i)))
            _error_then_close(ws, "rate_limited", 4429)


def test_origin_check(tmp_path: Path) -> None:
    with client(tmp_path, origins=("https://dice.example",)) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        assert websocket_refused(c, url, origin="https://evil.example") == 4403
        for origin in ("https://dice.example", "http://testserver"):
            with c.websocket_connect(url, headers={"origin": origin}) as ws:
                assert hello(ws)[0]["data"]["role"] == "spectator"


def test_bad_hello_and_token(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host = create(c)
        url = f"/ws/rooms/{host['room']}"
        with c.websocket_connect(url) as ws:
            ws.send_json(msg("ping"))
            assert ws.receive_json()["data"]["code"] == "invalid"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4400
        with c.websocket_connect(url) as ws:
            ws.send_json(msg("hello", token="guess"))
            assert ws.receive_json()["data"]["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4401
        with c.websocket_connect("/ws/rooms/nowhere") as ws:
            assert ws.receive_json()["data"]["code"] == "no_room"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4404


def test_spectator_and_chat(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host = create(c)
        room = host["room"]
        with (
            c.websocket_connect(f"/ws/rooms/{room}") as w0,
            c.websocket_connect(f"/ws/rooms/{room}") as spec,
        ):
            hello(w0, host["token"])
            welcome, _ = hello(spec)
            assert welcome["data"]["role"] == "spectator" and welcome["data"]["seat"] is None
            w0.send_json(msg("add_bot", level="random", id="a"))
            until(w0, is_reply("a"))
            w0.send_json(msg("chat", text="<b>bluff</b> & co", id="c"))
            ack = until(w0, is_reply("c"))
            chat = next(e for e in ack["data"]["events"] if e["kind"] == "chat")
            assert chat["text"] == "&lt;b&gt;bluff&lt;/b&gt; &amp; co" and chat["name"] == "ann"
            w0.send_json(msg("chat", text="x" * 201, id="long"))
            assert until(w0, is_reply("long"))["data"]["code"] == "invalid"
            spec.send_json(msg("chat", text="hi", id="sc"))  # watchers chat too, as "watcher"
            chat = next(e for e in until(spec, is_reply("sc"))["data"]["events"])
            assert chat["kind"] == "chat" and chat["seat"] is None and chat["name"] == "watcher"
            w0.send_json(msg("add_bot", level="genius", id="g"))
            assert "unknown bot level" in until(w0, is_reply("g"))["data"]["message"]
            w0.send_json(msg("start", id="s"))
            until(w0, is_reply("s"))
            f = until(spec, lambda f: f["type"] == "update" and f["data"]["view"] is not None)
            assert f["data"]["view"]["player"] == -1 and f["data"]["view"]["my_dice"] == []
            spec.send_json(msg("action", text="liar", id="x"))
            assert until(spec, is_reply("x"))["data"]["code"] == "not_seated"
            # a spectator's snapshot shows chat history
            with c.websocket_connect(f"/ws/rooms/{room}") as late:
                _, snap = hello(late)
                assert snap["data"]["chat"][0]["text"].startswith("&lt;b&gt;")


def test_reconnect_resync_and_takeover(tmp_path: Path) -> None:
    with client(tmp_path, grace_period=0.1) as c:
        host, bob = _start_two(c, tmp_path, options={"dice": 2})
        room = host["room"]
        with c.websocket_connect(f"/ws/rooms/{room}") as w0:
            hello(w0, host["token"])
            with c.websocket_connect(f"/ws/rooms/{room}") as w1:
                hello(w1, bob["token"])
                w0.send_json(msg("start", id="s"))
                started = until(w0, is_reply("s"))
                seen = started["data"]["seq"]
                w1.send_json(msg("client_seed", seed="bobs-seed", id="cs"))
                until(w1, is_reply("cs"))
            # bob is gone: after the grace period a bot plays his seat
            view = started["data"]["view"]
            if view["to_move"] == 0:
                w0.send_json(msg("action", text="1x2", id="m"))
                until(w0, is_reply("m"))
            auto = until(
                w0,
                lambda f: (
                    f["type"] == "update"
                    and any(e.get("auto") for e in f["data"]["events"] if e["kind"] == "action")
                ),
            )
            assert auto["data"]["room"]["seats"][1]["away"]
            # bob reloads: resume from the last seq he saw
            with c.websocket_connect(f"/ws/rooms/{room}") as w1:
                welcome, catchup = hello(w1, bob["token"], last_seq=seen)
                assert welcome["data"]["seat"] == 1
                assert catchup["type"] == "update" and catchup["data"]["from_seq"] == seen
                seqs = [e["seq"] for e in catchup["data"]["events"]]
                assert seqs == list(range(seen + 1, catchup["data"]["seq"] + 1))
                assert catchup["data"]["view"]["player"] == 1
                # an impossible seq gets a fresh snapshot
                w1.send_json(msg("resync", last_seq=10_000, id="r"))
                assert until(w1, is_reply("r"))["type"] == "snapshot"
                w1.send_json(msg("resync", last_seq=seen, id="r2"))
                assert until(w1, is_reply("r2"))["type"] == "update"
                back = until(
                    w0,
                    lambda f: any(
                        e["kind"] == "presence" and e["seat"] == 1 and not e["away"]
                        for e in f["data"].get("events", [])
                    ),
                )
                assert not back["data"]["room"]["seats"][1]["away"]


def test_eliminated_seat(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host = create(c, "ann", "classic", options={"dice": 1})
        room = host["room"]
        toks = [host["token"], join(c, room, "bob")["token"], join(c, room, "cy")["token"]]
        socks = [c.websocket_connect(f"/ws/rooms/{room}") for _ in toks]
        ws = [s.__enter__() for s in socks]
        try:
            for w, t in zip(ws, toks, strict=True):
                hello(w, t)
            ws[0].send_json(msg("start", id="s0"))
            view = until(ws[0], is_reply("s0"))["data"]["view"]
            for game in range(1, 20):
                # bid, then call: somebody loses their only die and is out (when the count is
                # exactly 3, everyone but the bidder loses one: that game is over; again)
                p = view["to_move"]
                ws[p].send_json(msg("action", text="3x6", id=f"b{game}"))
                view = until(ws[p], is_reply(f"b{game}"))["data"]["view"]
                q = view["to_move"]
                ws[q].send_json(msg("action", text="liar", id=f"l{game}"))
                view = until(ws[q], is_reply(f"l{game}"))["data"]["view"]
                out = [i for i, n in enumerate(view["dice_counts"]) if n == 0]
                if len(out) == 1:
                    break
                ws[0].send_json(msg("rematch", id=f"s{game}"))
                view = until(ws[0], is_reply(f"s{game}"))["data"]["view"]
            assert len(out) == 1
            ws[out[0]].send_json(msg("action", text="1x2", id="e"))
            err = until(ws[out[0]], is_reply("e"))
            assert err["data"]["code"] == "eliminated"
        finally:
            for s in socks:
                s.__exit__(None, None, None)


def test_room_list(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        assert c.get("/api/rooms").json() == {"rooms": []}
        host = create(c, "ann", "perudo", options={"loss": "one"})
        join(c, host["room"], "bob")
        poker = create(c, "cy", "poker-dice")
        rooms = {r["id"]: r for r in c.get("/api/rooms").json()["rooms"]}
        assert set(rooms) == {host["room"], poker["room"]}
        assert rooms[host["room"]] == {
            "id": host["room"],
            "preset": "perudo",
            "family": "bidding",
            "status": "lobby",
            "game_no": 0,
            "players": 2,
            "seats": ["ann", "bob"],
            "spectators": 0,
            "turn_timer": None,
        }
        assert rooms[poker["room"]]["family"] == "poker"
        # public facts only: no tokens, no options, no game state
        text = c.get("/api/rooms").text
        assert host["token"] not in text and "token" not in text and "seed" not in text
        # a game in progress is listed as playing
        with c.websocket_connect(f"/ws/rooms/{host['room']}") as ws:
            hello(ws, host["token"])
            ws.send_json(msg("start", id="s"))
            until(ws, is_reply("s"))
        listed = {r["id"]: r for r in c.get("/api/rooms").json()["rooms"]}
        assert listed[host["room"]]["status"] == "playing"
        assert listed[host["room"]]["game_no"] == 1


def test_static_files(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        page = c.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/app.js">' in page.text
        assert c.get("/r/anything").text == page.text
        js = c.get("/static/app.js")
        assert js.status_code == 200
        assert js.headers["content-type"].startswith("text/javascript")
        assert "import" in js.text
        for name in (
            "api.js",
            "table.js",
            "dice.js",
            "replay.js",
            "family.js",
            "dom.js",
            "i18n.js",
        ):
            assert c.get(f"/static/{name}").status_code == 200, name
        spanish = c.get("/static/i18n-es.json")  # the page's Spanish (docs/I18N.md)
        assert spanish.headers["content-type"].startswith("application/json")
        assert spanish.json()["language"] == "es" and spanish.json()["messages"]["Liar!"]
        css = c.get("/static/style.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
        # revalidation: the ETag answers 304
        again = c.get("/static/app.js", headers={"if-none-match": js.headers["etag"]})
        assert again.status_code == 304
        # only the client's own files, by plain name
        for bad in ("nope.js", "../app.py", "..%2Fapp.py", "app.py", "index", ".hidden.js"):
            r = c.get(f"/static/{bad}")
            assert r.status_code == 404, bad
        assert c.get("/static/../app.py").status_code == 404


def test_reveal_rules_and_summary(tmp_path: Path) -> None:
    """What the browser client needs besides the core view: the room's public dice rules,
    every hand revealed at a call, and a finished game's replay summary."""
    with client(tmp_path) as c:
        host = create(c, "ann", "classic", options={"dice": 1})
        room = host["room"]
        assert c.get(f"/api/rooms/{room}").json()["data"]["room"]["rules"] is None
        with c.websocket_connect(f"/ws/rooms/{room}") as ws:
            f = start_with_bot(ws, host["token"])
            assert f["data"]["room"]["rules"] == {"faces": 6, "wild": 1}
            view = play_out(ws, f)
            result = view["results"][-1]
            assert set(result["reveal"]) == {"ann", "random-bot-1"}
            assert all(len(d) <= 1 for d in result["reveal"].values())
            face = int(result["bid"].split("x")[1])
            dice = [d for hand in result["reveal"].values() for d in hand]
            counted = sum(1 for d in dice if d == face or (d == 1 and face != 1))
            assert counted == result["count"]
        summary = c.get(f"/api/rooms/{room}/games/1/record?format=summary").json()
        assert summary["ok"] and summary["winner"] in ("ann", "random-bot-1")
        assert summary["rounds"][-1]["count"] == result["count"]
        bad = c.get(f"/api/rooms/{room}/games/1/record?format=xml")
        assert bad.status_code == 400 and bad.json()["data"]["code"] == "invalid"
