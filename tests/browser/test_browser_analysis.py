"""The analysis view (static/analysis.js) in a real browser against a real ``liarsdice
serve``: a one-die game against a bot, then the analysis opened from the game-over screen and
from the replay viewer; a table per player and per move with headers, the numbers of the
server's analysis, every column explained in words, the moves in the page's words (never
``2x3``), the sentence that says why a move is marked (both families, English and Spanish),
the marks in colour with at least 4.5:1 contrast, axe-core's check (no serious or critical
violations) and a screenshot (tests/artifacts/analysis.png). See e2e_util
(``LIARSDICE_SKIP_BROWSER=1`` skips it)."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

NOTATION = re.compile(r"\b\d+x\d+\b")  # "2x3": the page says "2 × threes"

# A raise that should have been a call, a call that should have been a raise (bidding), a
# poker answer, and a move the computer made for an away player: the analysis' facts.
RAISE = {"player": "ann", "played": "2x3", "faced": "1x3", "best": "liar", "mark": "blunder",
         "value": 0.0663, "best_value": 0.6032, "p_known": 0.1667, "computer": False}  # fmt: skip
CALL = {"player": "bob", "played": "liar", "faced": "2x6", "best": "3x6", "mark": "mistake",
        "value": 0.31, "best_value": 0.48, "p_known": 0.17, "computer": False}  # fmt: skip
POKER_CALL = {"player": "cy", "played": "liar", "faced": "pair K", "best": "accept",
              "mark": "inaccuracy", "value": 0.62, "best_value": 0.35, "p_known": 0.4,
              "computer": False}  # fmt: skip
AWAY = {**RAISE, "computer": True}

WHY = """async ([moves, values, family]) => {
  const m = await import("/static/analysis.js");
  return moves.map((x) => m.whyText(x, values, family));
}"""

CONTRAST = r"""() => {
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const linear = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const [r, g, b] = rgb(c).map((v) => linear(v / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const section = document.getElementById("analysis");
  const card = getComputedStyle(section).backgroundColor;
  const page = getComputedStyle(document.body).backgroundColor;
  const out = {};
  for (const mark of ["blunder", "mistake", "inaccuracy", "best"]) {
    const el = document.createElement("span");
    el.className = `mark mark-${mark}`;
    el.textContent = mark;
    section.append(el);
    const color = getComputedStyle(el).color;
    out[mark] = [color, Math.min(ratio(color, card), ratio(color, page))];
    el.remove();
  }
  return out;
}"""


def test_the_analysis_of_a_finished_game(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    room = e2e.start_with_bots(page, server, "ann", options="dice=1")
    page.wait_for_selector("#my-dice-row")
    deadline = time.monotonic() + 15
    while (e2e.state(page)["view"] or {}).get("winner") is None:
        assert time.monotonic() < deadline, "the game did not end in time"
        if e2e.my_turn(page):
            liar = page.locator("#moves button[data-move='liar']")
            if liar.count():
                liar.click()
            else:
                page.locator("#moves .face-row button:not(:disabled)").first.click()
        page.wait_for_timeout(50)

    page.click("#analysis-over-1")  # from the game-over screen
    page.wait_for_selector("#analysis-moves tbody tr")
    expected = e2e.get_json(f"{server}/api/rooms/{room}/games/1/analysis")
    assert page.inner_text("#analysis-h") == "Analysis of game 1"
    heads = page.locator("#analysis-moves thead th").all_inner_texts()
    assert heads[:3] == ["#", "Round", "Player"] and "Chance true (as known)" in heads
    assert "Expert's move" in heads and "Win chance lost" in heads
    rows = page.locator("#analysis-moves tbody tr")
    assert rows.count() == len(expected["moves"]) >= 2
    last = expected["moves"][-1]
    cells = rows.nth(rows.count() - 1).locator("td").all_inner_texts()
    assert cells[1] == last["player"] and cells[2] == "calls liar"  # the game ends on a call
    assert re.fullmatch(r"\d+ × \w+", cells[3])  # the bid faced, in words: "2 × threes"
    assert cells[4] == f"{round(100 * last['p_known'])}%"  # the bid faced, as the caller knew it
    assert cells[5] == f"{round(100 * last['p_actual'])}%"
    # every move in the page's words, never in notation; each marked move says why
    for i, m in enumerate(expected["moves"]):
        row = rows.nth(i).locator("td").all_inner_texts()
        assert not any(NOTATION.search(t) for t in row), row
        assert (row[-1] != "") == (m["mark"] is not None), (m, row)
    # each column explained in plain words, the loss's reading of the bids said
    terms = page.locator("#analysis-columns dt").all_inner_texts()
    assert set(terms) >= {"Bid faced", "Chance true (as known)", "Win chance lost", "Why"}
    words = page.inner_text("#analysis-columns")
    assert "It does not read the bidding." in words
    assert "reads the bids made so far as well as the dice" in words
    # the marks in colour, each readable on the card and on the page (WCAG AA: 4.5:1)
    colours = page.evaluate(CONTRAST)
    assert len({c for c, _ in colours.values()}) == 4, colours  # four colours, not one
    assert all(ratio >= 4.5 for _, ratio in colours.values()), colours
    players = page.locator("#analysis-players tbody th").all_inner_texts()
    assert sorted(players) == sorted(expected["players"])
    assert page.evaluate("() => document.activeElement.id") == "analysis-h"
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "analysis.png")
    # on a phone the page keeps its width: the tables scroll sideways in their own region
    page.set_viewport_size({"width": 390, "height": 844})
    assert e2e.horizontal_overflow(page) == 0
    page.locator("#analysis-moves").scroll_into_view_if_needed()
    e2e.screenshot(page, "analysis-phone.png", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#analysis-close")
    assert page.locator("#analysis").is_hidden()

    page.click("#replay-1")  # and from the replay viewer
    page.click("#replay-analysis")
    page.wait_for_selector("#analysis-moves tbody tr")
    assert page.locator("#analysis-moves tbody tr").count() == len(expected["moves"])
    _why_sentences(page, browser, server)
    e2e.no_page_errors(page)


def _why_sentences(page: Page, browser: Browser, server: str) -> None:
    """The sentence of a marked move, from the analysis' facts: the better move and both
    values in words, the bid's chance from the player's view; both families; in Spanish."""
    raise_, call, away = page.evaluate(WHY, [[RAISE, CALL, AWAY], "win", "bidding"])
    assert raise_ == (
        "Calling liar was better than raising to 2 × threes: it wins the game 60% of the time"
        " by the expert's estimate, against 7%. The bid was true 17% of the time from the dice"
        " ann could see; the expert reads the bids made so far as well."
    )
    assert call.startswith(
        "Raising to 3 × sixes was better than calling liar: it wins the game 48%"
    )
    assert away == "The computer played this move for ann: it is not counted against them."
    (poker,) = page.evaluate(WHY, [[POKER_CALL], "lose_life", "poker"])
    assert poker.startswith(
        "Accepting the cup was better than calling liar: it loses a life 35% of the time"
    )
    unmarked = page.evaluate(WHY, [[{**CALL, "mark": None}], "win", "bidding"])
    assert unmarked == [""]  # unmarked: no word
    es = e2e.new_page(browser, locale="es-ES")
    es.goto(server + "/")
    es.wait_for_selector("#create-preset option", state="attached")
    (spanish,) = es.evaluate(WHY, [[RAISE], "win", "bidding"])
    assert spanish.startswith("Dudar era mejor que subir a 2 × treses: según el experto gana")
    e2e.no_page_errors(es)
