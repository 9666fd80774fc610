"""The reveal's one timeline, decided by the server (issue 40), in a real browser against a
real ``liarsdice serve`` (the default verdict hold, 2.5 s): the page's count fits inside the
server's reveal phase, so the verdict shows at least the hold before the next round; the
panel, its Continue and Wait are inside the viewport and not covered by a plate, on a laptop
(1280x800) and a phone (390x844); Wait holds the round until the player continues.
Screenshots: tests/artifacts/reveal-verdict-{laptop,phone}.png."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow
REVEAL = None  # the server's default verdict hold (tests/conftest.py's server)

# Times (performance.now) when the verdict appeared and when the reveal panel went away or
# went on to the next round's reveal (random bots may call at once: a frame can end one
# reveal and begin the next).
WATCH = """() => { window.__reveal = []; const stage = document.getElementById('reveal-stage');
  new MutationObserver(() => window.__reveal.push([performance.now(), !stage.hidden,
    Boolean(document.getElementById('reveal-verdict')), stage.dataset.round]))
  .observe(stage, {attributes: true, childList: true, subtree: true}); }"""

ENDED = """(round) => { const s = document.getElementById('reveal-stage');
  return s.hidden || s.dataset.round !== round; }"""

IN_VIEW = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const b = e.getBoundingClientRect(); const top = document.elementFromPoint(
    b.left + b.width / 2, b.top + b.height / 2);
  return {inside: b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth,
    uncovered: top === e || e.contains(top)}; }"""


@pytest.mark.parametrize(
    ("tag", "viewport"),
    [("laptop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})],
)
def test_the_verdict_shows_the_whole_hold_in_view(
    browser: Browser, server: str, tag: str, viewport: dict[str, int]
) -> None:
    page = e2e.new_page(browser, viewport=viewport)
    e2e.start_with_bots(page, server, "vera", options="dice=5", bots=("random",) * 3)
    page.wait_for_selector("#my-dice-row")
    page.evaluate(WATCH)
    phase = e2e.play_to_reveal(page)
    plan = phase["plan"]
    assert plan["hold"] == 2.5 and phase["seconds"] >= plan["verdict_at"] + plan["hold"]
    page.wait_for_selector("#reveal-verdict", timeout=10_000)
    page.wait_for_timeout(400)  # (the panel's entrance and the scroll into view)
    for sel in ("#reveal-stage", "#reveal-verdict", "#reveal-skip", "#reveal-wait"):
        box = page.evaluate(IN_VIEW, sel)
        assert box == {"inside": True, "uncovered": True}, (tag, sel, box)
    e2e.screenshot(page, f"reveal-verdict-{tag}.png", full_page=False)
    round_ = page.get_attribute("#reveal-stage", "data-round")
    page.wait_for_function(ENDED, arg=round_, timeout=10_000)
    seen = page.evaluate("() => window.__reveal")
    shown = next(t for t, _, verdict, r in seen if verdict and r == round_)
    gone = next(t for t, visible, _, r in seen if (not visible or r != round_) and t > shown)
    assert gone - shown >= plan["hold"] * 1000 - 50, (tag, gone - shown)
    e2e.no_page_errors(page)
    page.context.close()


def test_wait_holds_the_round_until_continue(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    e2e.start_with_bots(page, server, "wes", options="dice=5", bots=("random",))
    page.wait_for_selector("#my-dice-row")
    phase = e2e.play_to_reveal(page)
    page.click("#reveal-wait")
    page.wait_for_function("() => (window.liarsdice.state.room.reveal || {}).held_by?.length")
    held = e2e.state(page)["room"]["reveal"]
    assert held["held_by"] == [0] and held["deadline"] > phase["deadline"]
    assert page.locator("#reveal-wait").count() == 0  # once per reveal
    assert "asked the table to wait" in page.inner_text("#reveal-held")
    page.wait_for_timeout(phase["seconds"] * 1000 + 300)  # past its own time: still held
    assert e2e.state(page)["room"].get("reveal")
    page.click("#reveal-skip")  # Continue: the round goes on at once
    page.wait_for_selector("#reveal-stage", state="hidden", timeout=5_000)
    e2e.no_page_errors(page)
    page.context.close()
