"""The leaderboard and a player's page in a real browser against a real ``liarsdice serve``
(issue 40): people are ranked among themselves, the computer players are listed apart below
them (never ranked among people, whatever their rating), a bot level has one name everywhere
(one name, "Expert", on the leaderboard, its page and the table alike), and a player's
page lists each family's games only under that family. axe-core finds no serious or critical
violation; screenshot: tests/artifacts/leaderboard-bots.png. See e2e_util
(``LIARSDICE_SKIP_BROWSER=1`` skips it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EXPERT = "Expert"  # the name of the level, everywhere (static/names.js)


def test_people_ranked_apart_from_bots_with_one_name_per_level(
    browser: Browser, server: str
) -> None:
    pat = e2e.post_json(f"{server}/api/players", {"name": "pat"})
    # a finished, rated one-die game of pat against two expert bots (a computer plays pat's seat)
    e2e.finished_game(
        server, options={"dice": 1}, name="pat", level="expert", player_token=pat["token"]
    )
    board = e2e.get_json(f"{server}/api/leaderboard")
    assert pat["player"] in {p["player"] for p in board["players"]}
    assert "bot-expert" in {b["player"] for b in board["bots"]}

    page = e2e.new_page(browser, viewport={"width": 1280, "height": 800})
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
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "leaderboard-bots.png")

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
    e2e.no_page_errors(page)
