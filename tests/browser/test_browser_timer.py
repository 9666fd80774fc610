"""Turn timers in a real browser against a real ``liarsdice serve``: the countdown on the seat
to move and in the tab title (with the last-five-seconds warning), one timeout plays one move
for the player without marking the seat away, two in a row do, and the "I'm back" control
ends that. See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips these tests).
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_timeout_plays_one_move_then_away_and_back(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, reduced_motion="reduce")
    actions: list[dict[str, Any]] = []
    sent: list[str] = []

    def watch(ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            frame = json.loads(payload)
            if frame["type"] == "update":
                actions.extend(e for e in frame["data"]["events"] if e["kind"] == "action")

        ws.on("framereceived", received)
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)["type"]))

    page.on("websocket", watch)
    e2e.create_room(page, server, "tim", options="dice=4\nloss=one")
    e2e.add_bot(page, "random")
    e2e.set_timer(page, 5)
    page.click("#start")
    e2e.wait_my_turn(page)

    # The countdown: on my seat (a ring and the seconds), in the tab title, and in the move
    # panel; with 5 seconds it is in its warning colours at once.
    page.wait_for_selector("#seats > li.mine .clock")
    assert re.fullmatch(r"[1-5] s", page.inner_text("#seats > li.mine .clock"))
    assert re.match(r"\([1-5] s\) Your turn", page.title()), page.title()
    assert page.locator("#seats > li.mine.warn .ring-bar").count() == 1
    assert page.locator("#my-clock.warn").is_visible()
    first = int(page.inner_text("#seats > li.mine .clock").split()[0])
    page.wait_for_function(
        "(n) => parseInt(document.querySelector('#seats > li.mine .clock').textContent) < n",
        arg=first,
    )

    # I do nothing: after 5 s the server plays one move for me (timeout: true), and my seat
    # is not away.
    n_sent = len(sent)
    deadline = time.monotonic() + 9
    while not any(a["seat"] == 0 and a.get("timeout") for a in actions):
        assert time.monotonic() < deadline, "the turn timer never ran out"
        page.wait_for_timeout(100)
    timed_out = next(a for a in actions if a["seat"] == 0 and a.get("timeout"))
    assert timed_out["auto"] is True
    page.wait_for_function(
        "() => document.getElementById('live').textContent.includes('Time ran out')"
    )
    st = e2e.state(page)
    assert st["room"]["seats"][0]["away"] is False
    assert page.locator("#away-banner").is_hidden()
    page.wait_for_selector(
        f"#log-body li.entry[data-text='{timed_out['text']}'] .note:has-text('time ran out')"
    )

    # A second timeout in a row (still not a single message from me): the seat is away and
    # a computer plays it; the page offers "I'm back".
    page.wait_for_selector("#away-banner:not([hidden])", timeout=15_000)
    assert sent[n_sent:] == [], "the page sent something while the player did nothing"
    assert e2e.state(page)["room"]["seats"][0]["away"] is True
    assert "computer" in page.inner_text("#seats > li.mine .tags")
    # "I'm back", by keyboard.
    page.focus("#back-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#away-banner", state="hidden")
    assert "back" in sent[n_sent:]
    page.wait_for_function("() => window.liarsdice.state.room.seats[0].away === false")
    e2e.no_page_errors(page)
    page.context.close()
