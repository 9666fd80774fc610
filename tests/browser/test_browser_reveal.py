"""The reveal phase and the server's log in a real browser (Debian's chromium through
Playwright) against a real ``liarsdice serve --reveal 30``: after a call the page shows the
reveal and nothing of the next round (your dice are the ones revealed, no new bids, no
result in words before the count is done) until you press Continue; a page opened late shows
the game's earlier bids, from the server. Screenshot: tests/artifacts/reveal-phase.png. See
e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips these tests)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


# tests/conftest.py's server: its rooms hold the next round up to 30 s after a call
REVEAL = "30"


def _log(page: Page, rnd: int) -> list[str]:
    return page.locator(f"#log-body li.log-round[data-round='{rnd}'] li.entry").evaluate_all(
        "ls => ls.map(l => l.dataset.seq + ':' + l.dataset.text)"
    )


def test_the_reveal_holds_the_next_round_and_a_late_page_sees_the_log(
    browser: Browser, server: str
) -> None:
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 900})
    room = e2e.start_with_bots(page, server, "vera", options="dice=3", bots=("random",))
    page.wait_for_selector("#my-dice-row")
    name = "vera"
    # Play (call when possible) until a call ends the first round.
    e2e.play_to_reveal(page, limit=20)
    page.wait_for_selector("#reveal-stage[data-round='0']:not([hidden])")
    # While it counts, the result is not told yet: no text card for round 1, no result line.
    if page.get_attribute("#reveal-stage", "data-state") != "verdict":
        assert page.locator("#log-body li.log-round[data-round='0'] li.result").count() == 0
        assert page.locator("#reveal").is_hidden()
    st = e2e.state(page)
    res = st["view"]["results"][0]
    assert st["room"]["reveal"]["round"] == 0 and st["room"]["reveal"]["waiting"] == [0]
    # Nothing of the next round: no new dice (the tray shows the revealed ones), no moves.
    assert st["view"]["legal"] == []
    over = st["view"]["winner"] is not None  # (one call may end it: then the final state)
    assert over or st["view"]["my_dice"] == []
    faces = page.eval_on_selector_all("#my-dice-row svg.die", "ds => ds.map(d => +d.dataset.face)")
    assert faces == res["reveal"][name]
    assert page.locator("#log-body li.log-round[data-round='1']").count() == 0
    assert page.locator("#moves button").count() == 0
    # Skip jumps to the verdict; the round stays held.
    page.click("#reveal-skip")
    page.wait_for_selector("#reveal-stage[data-state='verdict']")
    assert page.inner_text("#reveal-skip") == "Continue"
    assert "There w" in page.inner_text("#reveal")  # the result in words, now
    if not st["view"]["winner"] and page.locator(".count-label").count():
        # the face in words agrees with the count beside it ("1 six", never "1 sixes")
        count = int(page.inner_text("#reveal-count"))
        face = int(res["bid"].split("x")[1])
        words = page.evaluate(
            "([f, n]) => import('/static/dice.js').then((m) => m.faceWords(f, n))", [face, count]
        )
        assert page.inner_text(".count-label").strip().startswith(words)
        assert words.endswith("s") == (count != 1)  # one, two ... six; ones ... sixes
    assert page.locator("#log-body li.log-round[data-round='0'] li.result").count() == 1
    page.wait_for_timeout(900)
    page.evaluate("window.scrollTo(0, 0)")
    e2e.screenshot(page, "reveal-phase.png", full_page=False)
    assert e2e.axe_serious(page) == []  # the reveal, held, is as accessible as the table
    st = e2e.state(page)
    assert st["room"].get("reveal") and (over or st["view"]["my_dice"] == [])
    assert page.locator("#reveal-stage").is_visible()
    # Continue: the next round starts (or the game ends) and the page shows it.
    page.click("#reveal-skip")
    page.wait_for_selector("#reveal-stage", state="hidden", timeout=5_000)
    st = e2e.state(page)
    assert not st["room"].get("reveal")
    if st["room"]["status"] == "playing":
        page.wait_for_function("() => window.liarsdice.state.view.my_dice.length > 0")
        page.wait_for_selector("#my-dice-row")
    round1 = _log(page, 0)
    assert len(round1) >= 2  # a bid and the call at least
    # A page opened late (a spectator, another browser) shows the same log, from the server.
    late = e2e.new_page(browser, viewport={"width": 1280, "height": 900})
    late.goto(f"{server}/r/{room}")
    late.wait_for_selector("#log-body li.log-round[data-round='0'] li.entry")
    assert _log(late, 0) == round1
    assert "not seen by this page" not in late.inner_text("#log-body")
    e2e.no_page_errors(page)
    e2e.no_page_errors(late)
    late.context.close()
    page.context.close()


def test_the_ranking_comes_after_the_last_reveal(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    e2e.start_with_bots(page, server, "wren", options="dice=1", bots=("random",))
    page.wait_for_selector("#my-dice-row")
    e2e.play_to_reveal(page, limit=20)  # one die each: one call ends it
    # The game is decided, but the server holds its end: no ranking while the reveal shows.
    page.wait_for_selector("#reveal-stage[data-state='verdict']")
    st = e2e.state(page)
    assert st["room"]["status"] == "playing" and st["room"]["ranking"] is None
    assert st["view"]["winner"] is not None
    assert page.locator("#game-over").is_hidden()
    page.click("#reveal-skip")  # Continue
    page.wait_for_selector("#ranking li")
    assert page.locator("#reveal-stage").is_hidden()
    assert e2e.state(page)["room"]["status"] == "finished"
    e2e.no_page_errors(page)
    page.context.close()


@pytest.fixture(scope="module")
def quick_away(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``liarsdice serve`` where a player who leaves the table is away after half a second."""
    tmp = tmp_path_factory.mktemp("away-server")
    with e2e.browser_server(tmp, "0", ("--grace", "0.5")) as base:
        yield base


def test_a_returning_player_reads_what_the_computer_played(
    browser: Browser, quick_away: str
) -> None:
    """Point 3: a player who left the page comes back to "While you were away ...": how many
    moves the computer played for them and how their dice went, shown once."""
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 900})
    room = e2e.start_with_bots(page, quick_away, "wanda", options="dice=5", bots=("prob", "prob"))
    page.wait_for_selector("#my-dice-row")
    url = page.url
    page.goto("about:blank")  # gone: after the grace period the computer plays for wanda
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "the computer never played for the seat"
        data = e2e.get_json(f"{quick_away}/api/rooms/{room}")["data"]
        if data["room"]["status"] == "finished" or any(
            e["seat"] == 0 and e.get("auto") for e in data.get("history", [])
        ):
            break
        time.sleep(0.2)
    page.goto(url)
    banner = page.wait_for_selector("#away-summary:not([hidden])", timeout=10_000)
    assert banner is not None
    said = banner.inner_text()
    assert said.startswith("While you were away the computer played "), said
    assert " for you" in said and ("dice" in said or "die" in said), said
    page.reload()  # once: not again on the same page's return
    page.wait_for_selector("#my-dice-row, #winner")
    page.wait_for_timeout(300)
    assert page.locator("#away-summary:not([hidden])").count() == 0
    e2e.no_page_errors(page)
    page.context.close()
