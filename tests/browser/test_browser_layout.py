"""The layout check of every screen (issue 40, point 4), in Debian's chromium through
Playwright against one real ``liarsdice serve``: for each phase (the lobby, your turn,
another's turn, the reveal, game over, the replay, the analysis), each family (``classic``,
``poker-dice``) and each viewport (1280x800, 1366x768, 768x1024, 390x844), the phase's
essential elements are on the page, inside the viewport all at once and neither overlapping
nor covering one another (bounding boxes, and what the browser hit-tests at their points);
axe-core finds no serious or critical violation; a screenshot of each goes to
``tests/artifacts/layout/{family}-{phase}-{w}x{h}.png``.

One game per family, four seats: the page checked (the host), two friends in pages of their
own, whose turns wait for the test (another's turn holds still while it is checked), and a
computer player; a minute per move, so that the clocks show; the server's default reveal,
held with a friend's Wait while it is checked. At each phase the same page is resized
through the four viewports, with reduced motion (the layout is checked, not the animations).
Where the page scrolls by itself (your move into view on your turn, the reveal into view,
the replay and the analysis when opened) the check scrolls as the page does; elsewhere, as a
player would, just enough to bring the essentials into view together.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow
REVEAL = None  # the server's default reveal (its verdict held 2.5 s): tests/conftest.py's server

VIEWPORTS = [(1280, 800), (1366, 768), (768, 1024), (390, 844)]
FAMILIES = {"classic": "dice=2", "poker-dice": "lives=1"}
# The friends who join the page's room (the first one's long name on a phone's plate), and
# the level of the computer player who sits with them.
FRIENDS = ("bartholomew", "cy")
BOT = "prob"
PHASES = ["lobby", "your-turn", "others-turn", "reveal", "game-over", "replay", "analysis"]

# Each phase's essential elements: a name and a selector (its first visible match).
ESSENTIAL: dict[str, list[tuple[str, str]]] = {
    "lobby": [("name field", "#my-name"), ("game", "#create-preset"), ("create", "#create-button")],
    "your-turn": [
        ("your dice", "#my-dice"),
        ("bid to beat", "#move-context"),
        ("whose turn", "#moves-h"),
        ("timer", "#my-clock"),
        ("move controls", "#moves-fieldset"),
    ],
    "others-turn": [
        ("your dice", "#my-dice"),
        ("bid to beat", "#current-bid-text"),
        ("whose turn", "#seats > li.turn .seat-name"),
        ("timer", "#seats > li.turn .clock"),
    ],
    "reveal": [
        ("reveal", "#reveal-stage"),
        ("verdict", "#reveal-verdict"),
        ("continue", "#reveal-skip"),
        ("every seat's dice", "#seats .stock"),
    ],
    "game-over": [("winner", "#winner"), ("ranking", "#ranking"), ("rematch", "#rematch")],
    "replay": [
        ("replay heading", "#replay-h"),
        ("replay controls", "#replay .replay-controls"),
        ("replay table", "#replay .felt"),
    ],
    "analysis": [
        ("analysis heading", "#analysis-h"),
        ("players' table", "#analysis-players"),
    ],
}

# Where the page scrolls by itself in a phase (what app.js does when the phase begins).
# Your turn: the move panel into view when it is below the fold (movesIntoView).
MOVES_INTO_VIEW = """() => {
  const el = document.getElementById("moves");
  const box = el.getBoundingClientRect();
  const rows = el.querySelectorAll(".move-buttons, .bid-grid, .face-row");
  const last = rows.length ? rows[rows.length - 1] : el;
  const need = Math.min(box.bottom, last.getBoundingClientRect().bottom + 8);
  if (need > innerHeight || box.top < 0)
    el.scrollIntoView({block: box.height > innerHeight ? "start" : "nearest"});
}"""
# The reveal: the table whole when it fits, else the panel's bottom at the screen's bottom
# (revealIntoView).
REVEAL_INTO_VIEW = """() => {
  const felt = document.querySelector("#table .felt");
  const stage = document.getElementById("reveal-stage");
  const box = felt.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= innerHeight) return;
  if (box.height <= innerHeight) felt.scrollIntoView({block: "center"});
  else stage.scrollIntoView({block: "end"});
}"""
# The replay and the analysis: their section's top at the top of the screen.
SECTION_INTO_VIEW = "(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})"
# Elsewhere, as a player would: when the essentials are not all in view, scroll so that
# they are (their top at the top; the first one's top when they can't all fit).
INTO_VIEW = """(sels) => {
  const boxes = sels.map((s) => document.querySelector(s)).filter(Boolean)
    .map((e) => e.getBoundingClientRect()).filter((b) => b.height > 0);
  if (!boxes.length) return;
  const top = Math.min(...boxes.map((b) => b.top));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  if (top >= 0 && bottom <= innerHeight) return;
  const fits = bottom - top <= innerHeight && top >= 0;
  window.scrollBy(0, fits ? Math.min(bottom - innerHeight + 8, top) : top - 8);
}"""
SCROLL = {
    "your-turn": (MOVES_INTO_VIEW, None),
    "reveal": (REVEAL_INTO_VIEW, None),
    "replay": (SECTION_INTO_VIEW, "#replay"),
    "analysis": (SECTION_INTO_VIEW, "#analysis"),
}

# What is wrong with the essential elements ``items`` ([name, selector]: the selector's first
# visible match; every match when the name begins with "every"): missing, outside the
# viewport (its box clipped by the boxes it scrolls in: a table wider than a phone scrolls
# sideways in its own box), its words cut short (an ellipsis), hit by something else at one
# of its points (covered), or overlapping another essential element (one holding another is
# not an overlap); and any seat's name cut short or tag wrapped onto a second line.
LAYOUT_JS = """(items) => {
  const visible = (e) => { const b = e.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== "hidden"; };
  const shown = (e) => {
    const b = e.getBoundingClientRect();
    let [left, top, right, bottom] = [b.left, b.top, b.right, b.bottom];
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a), c = a.getBoundingClientRect();
      if (st.overflowX !== "visible") {
        left = Math.max(left, c.left);
        right = Math.min(right, c.right);
      }
      if (st.overflowY !== "visible") {
        top = Math.max(top, c.top);
        bottom = Math.min(bottom, c.bottom);
      }
    }
    return {left, top, right, bottom};
  };
  const describe = (e) => e.id ? "#" + e.id
    : [e.tagName.toLowerCase(), ...(e.getAttribute("class") || "").split(/\\s+/)]
      .filter(Boolean).join(".");
  const px = (v) => v.toFixed(0);
  const found = items.flatMap(([name, sel]) => {
    const all = [...document.querySelectorAll(sel)].filter(visible);
    if (!name.startsWith("every ")) return [{name, sel, el: all[0] || null}];
    if (!all.length) return [{name, sel, el: null}];
    return all.map((el, k) => ({name: `${name} (${k + 1})`, sel, el}));
  });
  const problems = [];
  for (const {name, sel, el} of found) {
    const what = `${name} (${sel})`;
    if (!el) { problems.push(`${what}: not on the screen`); continue; }
    const b = shown(el);
    if (b.top < -0.5 || b.left < -0.5 || b.bottom > innerHeight + 0.5
        || b.right > innerWidth + 0.5) {
      problems.push(`${what} at x ${px(b.left)}..${px(b.right)}, y ${px(b.top)}..`
        + `${px(b.bottom)}: outside the ${innerWidth}x${innerHeight} viewport`);
      continue;
    }
    if (getComputedStyle(el).textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${what} cut short: "${el.textContent}"`);
    for (const [fx, fy] of [[0.5, 0.5], [0.2, 0.25], [0.8, 0.25], [0.2, 0.75], [0.8, 0.75]]) {
      const x = b.left + (b.right - b.left) * fx, y = b.top + (b.bottom - b.top) * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el)) {
        problems.push(`${what} covered at (${px(x)}, ${px(y)}) by ${describe(hit)}`);
        break;
      }
    }
  }
  // every name on a plate whole (a smaller type before an ellipsis), every tag on one line
  for (const e of [...document.querySelectorAll("#seats .seat-name")].filter(visible))
    if (e.scrollWidth > e.clientWidth + 1) problems.push(`a name cut short: "${e.textContent}"`);
  for (const e of [...document.querySelectorAll("#seats .tag")].filter(visible)) {
    const lines = e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight);
    if (lines > 1.6) problems.push(`a tag on more than one line: "${e.textContent}"`);
  }
  for (let i = 0; i < found.length; i++) for (let j = i + 1; j < found.length; j++) {
    const a = found[i].el, c = found[j].el;
    if (!a || !c || a.contains(c) || c.contains(a)) continue;
    const p = shown(a), q = shown(c);
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1)
      problems.push(`${found[i].name} and ${found[j].name} overlap (${px(w)}x${px(h)} px)`);
  }
  return problems;
}"""


@dataclass
class Results:
    """What the check found: problems per (family, phase, viewport); each family's game once
    played, with what went wrong in it ("" when nothing did)."""

    problems: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    played: dict[str, str] = field(default_factory=dict)


def _check(page: Page, results: Results, family: str, phase: str) -> None:
    """Resize the page through every viewport, scroll as the page does, and record what is
    wrong with the phase's essential elements; a screenshot and axe-core at each size."""
    items = ESSENTIAL[phase]
    scroll, arg = SCROLL.get(phase, (INTO_VIEW, None))
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate(scroll, arg if arg is not None else [sel for _, sel in items])
        page.wait_for_timeout(50)
        problems: list[str] = page.evaluate(LAYOUT_JS, [list(i) for i in items])
        (e2e.ARTIFACTS / "layout").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(e2e.ARTIFACTS / "layout" / f"{family}-{phase}-{w}x{h}.png"))
        problems += [f"axe: {v}" for v in e2e.axe_serious(page)]
        results.problems[(family, phase, f"{w}x{h}")] = problems


def _create(page: Page, family: str) -> str:
    """The lobby's form: a room of ``family`` with a minute per move; returns its address."""
    page.select_option("#create-timer", "60")
    page.click(".more-options summary")
    page.fill("#create-options", FAMILIES[family])
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#host-controls:not([hidden])")
    return page.url.split("#")[0]


def _join(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector("#seat-join-button:visible")
    page.fill("#seat-name", name)
    page.click("#seat-join-button")
    page.wait_for_selector("#seats > li.mine")


SIG_JS = """() => { const v = window.liarsdice.state.view, r = window.liarsdice.state.room;
  return JSON.stringify([r && r.status, r && Boolean(r.reveal), v && v.game_no, v && v.round,
    v && (v.bids || []).length, v && v.phase, v && v.to_move, v && v.current_bid]); }"""


def _least_bid(page: Page, legal: list[dict[str, Any]]) -> None:
    """Bid the least legal bid (bidding): its count, then its face; a call when none is left."""
    bids = [m for m in legal if re.fullmatch(r"\d+x\d+", m["text"])]
    if not bids:
        page.click("#moves button[data-move='liar']")
        return
    text = min(bids, key=lambda m: m["action"])["text"]
    page.click(f"#qty-{text.split('x')[0]}")
    page.click(f"#moves button[data-move='{text}']")


def _move(page: Page, call: bool) -> None:
    """Make ``page``'s move: a call when ``call`` and the page offers one, else the least
    bid (bidding) or the move each poker step offers first; waits until the server took it."""
    before = page.evaluate(SIG_JS)
    liar = page.locator("#moves button[data-move='liar']")
    st = e2e.state(page)
    phase = (st["view"] or {}).get("phase") if st["room"]["family"] == "poker" else None
    if call and liar.count():
        liar.click()
    elif phase is None:
        _least_bid(page, st["view"]["legal"])
    elif phase == "bid":
        page.click("#claim-button")
    elif phase == "pass":
        page.click("#moves button[data-move='left']")
    elif phase == "respond":
        page.click("#moves button[data-move='accept']")
    else:
        steps = {"arrange": "#arrange-button", "shake": "#roll-button", "keep": "#keep-button"}
        page.click(steps[phase])
    page.wait_for_function(f"(before) => ({SIG_JS})() !== before", arg=before)


def _play(page: Page, friends: list[Page], results: Results, family: str) -> None:
    """Play the game to its end: nobody calls until your turn and another's turn are checked
    (each with a bid to beat), then every player calls at once; the first reveal is checked
    (held by the friends' Wait), then the game over."""
    done: set[str] = set()
    everyone = [page, *friends]
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"{family}: the game did not end in time ({done})"
        room = e2e.state(page)["room"]
        if room.get("reveal"):
            if "reveal" not in done:
                page.wait_for_selector("#reveal-verdict")
                friends[0].click("#reveal-wait")
                page.wait_for_selector("#reveal-held")
                _check(page, results, family, "reveal")
                done.add("reveal")
            for p in everyone:
                if p.locator("#reveal-skip").count():
                    p.click("#reveal-skip")
            page.wait_for_timeout(50)
            continue
        if room["status"] == "finished":
            missing = {"your-turn", "others-turn", "reveal"} - done
            assert not missing, f"{family}: the game ended before {sorted(missing)}"
            return
        calls = {"your-turn", "others-turn"} <= done
        for p in everyone:
            if not e2e.my_turn(p):
                continue
            v = e2e.state(page)["view"]
            phase = v.get("phase") if room["family"] == "poker" else "bid"
            bid = v.get("current_bid") and phase in ("bid", "respond")
            if p is page and bid and phase == "bid" and "your-turn" not in done:
                _check(page, results, family, "your-turn")
                done.add("your-turn")
            elif p is not page and bid and "others-turn" not in done:
                _check(page, results, family, "others-turn")
                done.add("others-turn")
            _move(p, calls)
            break
        else:
            page.wait_for_timeout(30)


def _play_family(browser: Browser, server: str, results: Results, family: str) -> None:
    page = e2e.new_page(browser, reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    friends = [e2e.new_page(browser, reduced_motion="reduce") for _ in FRIENDS]
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    page.fill("#my-name", "ann")
    page.select_option("#create-preset", family)
    _check(page, results, family, "lobby")
    url = _create(page, family)
    for friend, name in zip(friends, FRIENDS, strict=True):
        _join(friend, url, name)
    e2e.add_bot(page, BOT)
    e2e.wait_seats(page, len(FRIENDS) + 2)
    page.click("#start")
    page.wait_for_selector("#my-dice .dice, #my-dice button")
    _play(page, friends, results, family)

    page.wait_for_selector("#game-over:not([hidden])")
    page.wait_for_selector("#rematch:visible")
    _check(page, results, family, "game-over")
    page.click("#replay-over-1")
    page.wait_for_selector("#replay-seats > li")
    _check(page, results, family, "replay")
    page.click("#replay-close")
    page.click("#analysis-over-1")
    page.wait_for_selector("#analysis-moves tbody tr")
    _check(page, results, family, "analysis")
    e2e.no_page_errors(page)
    for p in (page, *friends):
        p.context.close()


@pytest.fixture(scope="module")
def results() -> Results:
    return Results()


CASES = [
    pytest.param(f, p, f"{w}x{h}", id=f"{f}-{p}-{w}x{h}")
    for f in FAMILIES
    for p in PHASES
    for w, h in VIEWPORTS
]


@pytest.mark.parametrize(("family", "phase", "size"), CASES)
def test_layout(
    browser: Browser, server: str, results: Results, family: str, phase: str, size: str
) -> None:
    """The phase's essentials in view at once, apart and uncovered; no serious axe-core
    violation (the family's game is played once, at its first case)."""
    if family not in results.played:
        results.played[family] = "it stopped"
        try:
            _play_family(browser, server, results, family)
        except Exception as err:
            results.played[family] = f"{type(err).__name__}: {err}"
            raise
        results.played[family] = ""
    key = (family, phase, size)
    if key not in results.problems:
        pytest.fail(f"never reached: the {family} game failed: {results.played[family]}")
    assert results.problems[key] == []
