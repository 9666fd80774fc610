"""A value out of range is told as details a page words in its own language (issue 40: no
"Input should be greater than or equal to 5" on the page): the field, the problem and the
limit, over the WebSocket and over HTTP."""

from __future__ import annotations

from pathlib import Path

from server_util import client, create, hello, msg, until


def test_an_out_of_range_setting_names_field_problem_and_limit(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        ann = create(c)
        with c.websocket_connect(f"/ws/rooms/{ann['room']}") as ws:
            hello(ws, ann["token"])
            ws.send_json(msg("settings", turn_timer=3, id="t"))
            err = until(ws, lambda f: f["data"].get("reply_to") == "t")
        assert err["type"] == "error" and err["data"]["code"] == "invalid"
        assert err["data"]["details"] == [
            {"field": "turn_timer", "problem": "greater_than_equal", "limit": 5}
        ]
        r = c.post("/api/rooms", json={"name": "bob", "turn_timer": 99999})
        assert r.status_code == 422
        body = r.json()["data"]
        assert body["code"] == "invalid"
        assert body["details"] == [
            {"field": "turn_timer", "problem": "less_than_equal", "limit": 3600}
        ]
        r = c.post("/api/rooms", json={"name": ""})
        assert r.json()["data"]["details"][0]["field"] == "name"
