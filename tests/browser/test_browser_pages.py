"""The leaderboard and a player's page in a real browser against a real ``liarsdice serve``
(issue 40): people are ranked among themselves, the computer players are listed apart below
them (never ranked among people, whatever their rating), a bot level has one name everywhere
(one name, "Expert", on the leaderboard, its page and the table alike), and a player's
page lists each family's games only under that family. axe-core finds no serious or critical
violation; screenshot: tests/artifacts/leaderboard-bots.png. See e2e_util
(``LIARSDICE_SKIP_BROWSER=1`` skips it)."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import TYPE_CHECKING, Any

from websockets.sync.client import connect

from e2e_util import axe_serious, get_json, new_page, no_page_errors, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EXPERT = "Expert"  # the name of the level, everywhere (static/names.js)


def _post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read().decode())


def _rated_game(server: str, token: str, name: str) -> str:
    """A finished, rated one-die game of ``name`` against two expert bots (the player leaves
    at the start: a computer plays the seat); the room's id."""
    room = _post(
        f"{server}/api/rooms",
        {"preset": "classic", "name": name, "options": {"dice": 1}, "player_token": token},
    )
    rid: str = room["room"]
    with connect(server.replace("http://", "ws://") + f"/ws/rooms/{rid}", origin=server) as ws:  # type: ignore[arg-type]

        def send(type_: str, **data: Any) -> None:
            ws.send(json.dumps({"type": type_, "version": 1, "data": data}))
            while json.loads(ws.recv(timeout=10))["data"].get("reply_to") != data["id"]:
                pass

        ws.send(json.dumps({"type": "hello", "version": 1, "data": {"token": room["token"]}}))
        send("add_bot", level="expert", id="b1")
        send("add_bot", level="expert", id="b2")
        send("start", id="s")
        ws.send(json.dumps({"type": "leave", "version": 1, "data": {}}))
        time.sleep(0.2)
    deadline = time.monotonic() + 30
    while get_json(f"{server}/api/rooms/{rid}")["data"]["room"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.1)
    return rid


def test_people_ranked_apart_from_bots_with_one_name_per_level(
    browser: Browser, server: str
) -> None:
    pat = _post(f"{server}/api/players", {"name": "pat"})
    _rated_game(server, pat["token"], "pat")
    board = get_json(f"{server}/api/leaderboard")
    assert pat["player"] in {p["player"] for p in board["players"]}
    assert "bot-expert" in {b["player"] for b in board["bots"]}

    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/leaderboard")
    page.wait_for_selector(f"#leaderboard-table tr[data-player='{pat['player']}']")
    page.wait_for_selector("#leaderboard-bots-table tr[data-player='bot-expert']")
    ranked = page.locator("#leaderboard-table tbody tr")
    people = [ranked.nth(i).get_attribute("data-player") or "" for i in range(ranked.count())]
    assert people and not any(p.startswith("bot-") for p in people)  # people only, ranked
    assert page.inner_text("#leaderboard-table tbody tr >> nth=0 >> td") == "1st"
    bot_row = page.locator("#leaderboard-bots-table tr[data-player='bot-expert']")
    assert bot_row.locator("th").inner_text() == EXPERT  # the lobby's name, not "expert bot"
    assert bot_row.locator("td").count() == 3  # rating, games, wins: no rank
    # the bots' table comes after (below) the people's
    people_box, bots_box = (
        page.locator(sel).bounding_box() for sel in ("#leaderboard-table", "#leaderboard-bots")
    )
    assert people_box is not None and bots_box is not None
    assert bots_box["y"] >= people_box["y"] + people_box["height"]
    assert axe_serious(page) == []
    screenshot(page, "leaderboard-bots.png")

    # the level's page: the same one name, said to be a computer player
    bot_row.locator("a").click()
    page.wait_for_selector("#player-rating")
    assert page.inner_text("#player-h") == EXPERT
    assert page.inner_text("#player-tag") == "A computer player"
    # a person's page: the poker tab lists no bidding game
    page.goto(f"{server}/p/{pat['player']}?family=poker")
    page.wait_for_selector("#player-recent > *")
    assert page.locator("#player-games-table").count() == 0
    assert page.inner_text("#player-recent") == "No finished games of poker dice yet."
    page.check("#player-family input[value=bidding]")
    assert page.locator("#player-games-table .game-link").all_inner_texts() == ["Classic, game 1"]
    no_page_errors(page)
