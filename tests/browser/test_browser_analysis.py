"""The analysis view (static/analysis.js) in a real browser against a real ``liarsdice
serve``: a one-die game against a bot, then the analysis opened from the game-over screen and
from the replay viewer; a table per player and per move with headers, the numbers of the
server's analysis, axe-core's check (no serious or critical violations) and a screenshot
(tests/artifacts/analysis.png). See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips it)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from e2e_util import (
    axe_serious,
    get_json,
    my_turn,
    new_page,
    no_page_errors,
    screenshot,
    start_with_bots,
    state,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_the_analysis_of_a_finished_game(browser: Browser, server: str) -> None:
    page = new_page(browser, reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    room = start_with_bots(page, server, "ann", options="dice=1")
    page.wait_for_selector("#my-dice-row")
    deadline = time.monotonic() + 15
    while (state(page)["view"] or {}).get("winner") is None:
        assert time.monotonic() < deadline, "the game did not end in time"
        if my_turn(page):
            liar = page.locator("#moves button[data-move='liar']")
            if liar.count():
                liar.click()
            else:
                page.locator("#moves .face-row button:not(:disabled)").first.click()
        page.wait_for_timeout(50)

    page.click("#analysis-over-1")  # from the game-over screen
    page.wait_for_selector("#analysis-moves tbody tr")
    expected = get_json(f"{server}/api/rooms/{room}/games/1/analysis")
    assert page.inner_text("#analysis-h") == "Analysis of game 1"
    heads = page.locator("#analysis-moves thead th").all_inner_texts()
    assert heads[:3] == ["#", "Round", "Player"] and "Chance true (as known)" in heads
    assert "Expert's move" in heads and "Win chance lost" in heads
    rows = page.locator("#analysis-moves tbody tr")
    assert rows.count() == len(expected["moves"]) >= 2
    last = expected["moves"][-1]
    cells = rows.nth(rows.count() - 1).locator("td").all_inner_texts()
    assert cells[1] == last["player"] and cells[2] == last["played"]
    assert cells[4] == f"{round(100 * last['p_known'])}%"  # the bid faced, as the caller knew it
    assert cells[5] == f"{round(100 * last['p_actual'])}%"
    players = page.locator("#analysis-players tbody th").all_inner_texts()
    assert sorted(players) == sorted(expected["players"])
    assert page.evaluate("() => document.activeElement.id") == "analysis-h"
    assert axe_serious(page) == []
    screenshot(page, "analysis.png")
    page.click("#analysis-close")
    assert page.locator("#analysis").is_hidden()

    page.click("#replay-1")  # and from the replay viewer
    page.click("#replay-analysis")
    page.wait_for_selector("#analysis-moves tbody tr")
    assert page.locator("#analysis-moves tbody tr").count() == len(expected["moves"])
    no_page_errors(page)
