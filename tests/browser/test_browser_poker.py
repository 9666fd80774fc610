"""Poker dice in the browser (Debian's chromium through Playwright against a real ``liarsdice
serve``): the claim builder (the kind of hand, then its cards; it starts from the least claim
that beats the standing one, or from your hand when you open; "My hand" when your hand beats
it, the server's reading of your dice: tests/families/test_move_frames.py; an illegal claim
can't be made), the roll step drawing all five dice, the wording around
your own claim, and a real game played through all of it at 1280x800 and 390x844 with your
dice and the builder in view together. See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips
these tests).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

import e2e_util as e2e
from liarsdice.core.poker import (
    ALL_BIDS,
    BID_BASE,
    PokerGame,
    PokerRules,
    format_poker_bid,
    hand_bid,
    parse_face,
    parse_poker_bid,
)
from liarsdice.families import family_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

POKER = family_of("poker-dice")
GAME = PokerGame(PokerRules(players=2))

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _hand(faces: list[str]) -> str:
    """The engine's reading of five poker faces, in notation."""
    return format_poker_bid(hand_bid([parse_face(f) for f in faces]))


def _claims_above(text: str | None) -> list[dict[str, Any]]:
    """The server's legal list in the bid phase: every claim above ``text`` (all when None)."""
    floor = None if text is None else parse_poker_bid(text).key
    claims = enumerate(ALL_BIDS)
    return _legal(
        [(BID_BASE + i, format_poker_bid(b)) for i, b in claims if not floor or b.key > floor]
    )


def _legal(moves: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Legal moves as the server's view lists them: action, notation, structured move."""
    return [{"action": a, "text": t, "move": POKER.move_json(GAME, t)} for a, t in moves]


def _served(view: dict[str, Any]) -> dict[str, Any]:
    """A made-up view with what the server adds to it: the claim to beat structured, and the
    claim the seat's five dice make while it sees them (under the cup and outside)."""
    bid = view.get("current_bid")
    dice = view.get("cup", []) + view.get("outside", [])
    hand = hand_bid([parse_face(f) for f in dice]) if view.get("cup") and len(dice) == 5 else None
    return {
        **view,
        "current_bid_move": bid and POKER.move_json(GAME, bid),
        "hand_claim": hand and POKER.move_json(GAME, format_poker_bid(hand)),
    }


# A MovePicker of its own on the page, fed a made-up view of seat 0 ("me") against Ann;
# window.__poker.sent lists the moves it sent.
PICKER_JS = """async ({view, rules}) => {
  const { MovePicker } = await import('/static/moves.js');
  const { renderTray } = await import('/static/table.js');
  document.getElementById('poker-test')?.remove();
  const box = document.createElement('div');
  box.id = 'poker-test';
  box.innerHTML = '<section id="pt-tray"><h3>x</h3><div id="pt-dice"></div></section>'
    + '<section id="pt-moves"><fieldset id="pt-body"></fieldset></section>';
  document.body.prepend(box);
  const S = {seat: 0, oddsOn: false, pending: false,
    room: {family: 'poker', status: 'playing', rules, seats: [{name: 'me'}, {name: 'Ann'}]},
    view: {game_no: 1, round: 0, to_move: 0, bids: [], names: ['me', 'Ann'], cup: [],
           outside: [], passed_cup: null, current_bid: null, current_bid_move: null,
           hand_claim: null, bidder: -1, ...view}};
  const sent = [];
  const $ = (id) => document.getElementById(id);
  const tray = () => renderTray($('pt-tray'), $('pt-dice'), S, picker.selection());
  const picker = new MovePicker($('pt-moves'), $('pt-body'),
    {onMove: (m) => sent.push(m.text), onSelection: tray});
  picker.update(S);
  window.__poker = {picker, sent};
}"""


def _picker(page: Page, **view: Any) -> None:
    page.evaluate(PICKER_JS, {"view": _served(view), "rules": None})


def _claim(page: Page) -> str | None:
    """The claim the builder would make (None: its button is disabled)."""
    button = page.locator("#claim-button")
    return None if button.is_disabled() else button.get_attribute("data-move")


def _sent(page: Page) -> list[str]:
    sent: list[str] = page.evaluate("() => window.__poker.sent")
    return sent


def test_the_claim_builder(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")

    # Raising: it starts on the least claim that beats Ann's; your hand beats it too.
    cup, outside = ["K", "K", "Q"], ["A", "9"]
    legal = _claims_above("pair K A")
    _picker(
        page, phase="bid", legal=legal, current_bid="pair K A", bidder=1, cup=cup, outside=outside
    )
    assert _claim(page) == "pair K A 9" == legal[0]["text"]
    assert page.inner_text("#claim-button") == "Claim a pair of kings with an ace and a nine"
    assert page.inner_text("#move-context") == "Claim to beat: a pair of kings with an ace by Ann"
    kinds = page.eval_on_selector_all("#claim-kind option", "os => os.map((o) => o.value)")
    assert kinds == ["pair", "two pair", "three", "straight", "full house", "four", "five"]
    # A pair below kings can't beat it: those ranks are not offered.
    ranks = page.eval_on_selector_all(
        "#claim-rank-0 option", "os => os.filter((o) => !o.disabled).map((o) => o.value)"
    )
    assert ranks == ["K", "A"]
    # Without its other dice the claim is Ann's own: too low, and it can't be made.
    page.select_option("#claim-kicker-1", "")
    assert _claim(page) is None
    assert page.inner_text("#claim-button") == "Claim a pair of kings with an ace"
    assert page.inner_text("#claim-why") == (
        "Too low: your claim must beat a pair of kings with an ace."
    )
    page.click("#claim-button", force=True)
    assert _sent(page) == []
    # Another kind starts on its own least claim; a rank picked twice swaps places.
    page.select_option("#claim-kind", "full house")
    assert _claim(page) == "full house 9 10"
    page.select_option("#claim-rank-0", "10")
    assert _claim(page) == "full house 10 9"
    page.select_option("#claim-kind", "three")
    page.select_option("#claim-kicker-0", "A")
    page.select_option("#claim-kicker-1", "J")
    assert _claim(page) == "three 9 A J"
    page.select_option("#claim-kicker-1", "A")  # the ace again: the jack takes its place
    assert _claim(page) == "three 9 A J"
    page.select_option("#claim-kicker-0", "")
    assert _claim(page) == "three 9 J"
    page.select_option("#claim-kind", "straight")
    page.select_option("#claim-rank-0", "A")
    assert _claim(page) == "high straight"
    # "My hand" sets the builder to your five dice's reading; the claim button makes it.
    assert page.get_attribute("#claim-mine", "data-move") == _hand(cup + outside)
    assert (
        page.inner_text("#claim-mine") == "My hand: a pair of kings with an ace, a queen and a nine"
    )
    page.click("#claim-mine")
    page.click("#claim-button")
    assert _sent(page) == ["pair K A Q 9"]
    page.click("#claim-least")
    assert _claim(page) == "pair K A 9"

    # Opening: it starts on your hand (any claim goes); five in a row is a straight.
    cup = ["A", "K", "Q", "K", "9"]
    _picker(page, phase="bid", legal=_claims_above(None), cup=cup)
    assert _claim(page) == _hand(cup) == "pair K A Q 9"
    assert page.is_disabled("#claim-mine")  # already the claim
    assert page.inner_text("#claim-least") == "Lowest: junk"
    page.select_option("#claim-kind", "high")
    page.select_option("#claim-rank-0", "A")
    for slot, face in enumerate(["K", "Q", "J", "10"]):
        page.select_option(f"#claim-kicker-{slot}", face)
    assert _claim(page) is None
    assert page.inner_text("#claim-why") == "Five dice in a row are a straight: claim the straight."

    # A hand that doesn't beat the standing claim is not offered.
    _picker(
        page,
        phase="bid",
        legal=_claims_above("four A K"),
        current_bid="four A K",
        bidder=1,
        cup=["9", "10", "J", "Q"],
        outside=["A"],
    )
    assert page.locator("#claim-mine").count() == 0
    assert _claim(page) == "five 9"

    # Your own claim, before passing: no "bid to beat ... by you"; Ann's, to answer.
    pass_cup = {"phase": "pass", "legal": _legal([(2, "left"), (3, "right")]), "bidder": 0}
    respond = {"phase": "respond", "legal": _legal([(0, "liar"), (1, "accept")]), "bidder": 1}
    for view, context in [
        ({**pass_cup, "cup": cup}, "Your claim: a pair of kings. Pass the cup."),
        (respond, "Ann claims a pair of kings: accept the cup or call liar."),
    ]:
        _picker(page, current_bid="pair K", **view)
        assert page.inner_text("#move-context") == context
    assert e2e.axe_serious(page) == []
    e2e.no_page_errors(page)
    page.context.close()


def test_the_roll_step_draws_every_die(browser: Browser, server: str) -> None:
    """Rolling: the dice under the cup and outside it are all drawn; clicking one under the
    cup shakes the cup (all of them are picked), one outside rolls it in view."""
    game = PokerGame(PokerRules(players=3))
    s = game.new_initial_state()
    for face in ["Q", "Q", "Q", "Q", "9"]:
        s = s.apply_action(parse_face(face))
    for move in ("four Q", "left", "accept", "out 9"):
        s = s.apply_action(game.string_to_action(move))
    legal = _legal([(a, game.action_to_string(a)) for a in s.legal_actions()])
    page = e2e.new_page(browser, viewport=PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    _picker(
        page,
        phase="shake",
        legal=legal,
        current_bid="four Q",
        bidder=1,
        cup=["Q"] * 4,
        outside=["9"],
    )
    assert page.locator("#pt-dice .zone-cup button.die-btn").count() == 4
    assert page.locator("#pt-dice .zone-outside button.die-btn").count() == 1
    assert page.inner_text("#roll-button") == "Roll nothing"
    page.locator("#pt-dice .zone-cup button.die-btn").nth(2).click()
    pressed = page.eval_on_selector_all(
        "#pt-dice button.die-btn", "bs => bs.map((b) => b.getAttribute('aria-pressed'))"
    )
    assert pressed == ["true"] * 4 + ["false"]
    assert page.is_checked("#shake-toggle")
    assert (
        page.get_attribute("#pt-dice .zone-cup button.die-btn >> nth=0", "aria-label")
        == "queen, under the cup: will be shaken"
    )
    page.locator("#pt-dice .zone-outside button.die-btn").click()
    assert page.inner_text("#roll-button") == "Roll the cup and 1 outside"
    page.uncheck("#shake-toggle")  # the checkbox and the dice say the same
    assert (
        page.get_attribute("#pt-dice .zone-cup button.die-btn >> nth=0", "aria-pressed") == "false"
    )
    page.click("#roll-button")
    assert _sent(page) == ["reroll 9"]
    e2e.no_page_errors(page)
    page.context.close()


# Every box of these inside the viewport: {selector: [[top, bottom, left, right], ...]}.
BOXES_JS = """(sels) => {
  const out = {};
  for (const s of sels) out[s] = [...document.querySelectorAll(s)].map((el) => {
    const b = el.getBoundingClientRect();
    return [b.top, b.bottom, b.left, b.right];
  });
  return {boxes: out, w: innerWidth, h: innerHeight};
}"""


def _in_view(page: Page, *selectors: str) -> None:
    # The page scrolls its controls into view as they appear: judge the settled page (a
    # second at most), not a frame in the middle of the scroll.
    deadline = time.monotonic() + 1.0
    while True:
        got = page.evaluate(BOXES_JS, list(selectors))
        if _all_inside(got) or time.monotonic() > deadline:
            break
        page.wait_for_timeout(50)
    for sel, boxes in got["boxes"].items():
        assert boxes, f"{sel}: not on the page"
        for top, bottom, left, right in boxes:
            inside = top >= 0 and left >= 0 and bottom <= got["h"] and right <= got["w"]
            assert inside, (
                f"{sel} at {top:.0f}..{bottom:.0f} × {left:.0f}..{right:.0f} is out of view"
            )


def _all_inside(got: dict[str, Any]) -> bool:
    return all(
        t >= 0 and left >= 0 and b <= got["h"] and r <= got["w"]
        for boxes in got["boxes"].values()
        for t, b, left, r in boxes
    )


def _play_a_turn(page: Page, seen: set[str], tag: str) -> None:
    """Make the move the page offers, checking what it shows on the way."""
    st = e2e.state(page)
    v = st["view"]
    phase = v["phase"]
    if phase == "bid":
        hand = _hand(v["cup"] + v["outside"])
        legal = [m["text"] for m in v["legal"]]
        # The start: the least claim that beats the standing one; opening, your hand.
        start = min(v["legal"], key=lambda m: m["action"])["text"] if v["current_bid"] else hand
        assert page.get_attribute("#claim-button", "data-move") == start
        assert page.locator("#claim-mine").count() == (1 if hand in legal else 0)
        # Your five dice (under the cup and outside) and the builder, in view together.
        assert page.locator("#my-dice .zone svg.die").count() == 5
        _in_view(page, "#my-dice .zone svg.die", "#claim-builder", "#claim-button")
        kind = "raise" if v["current_bid"] else "open"
        if kind not in seen:
            e2e.screenshot(page, f"poker-claim-{kind}-{tag}.png", full_page=False)
        if not v["current_bid"]:
            # Built by hand: a pair, then its rank.
            page.select_option("#claim-kind", "pair")
            page.select_option("#claim-rank-0", "K")
            assert page.get_attribute("#claim-button", "data-move") == "pair K"
        seen.add(kind)
        page.click("#claim-button")
    elif phase == "pass":
        assert page.inner_text("#move-context").startswith("Your claim: ")
        assert "by you" not in page.inner_text("#moves")
        seen.add("pass")
        page.locator("#moves button[data-move='left']").click()
    elif phase == "respond":
        seen.add("respond")
        page.click("#moves button[data-move='accept']")
        page.wait_for_selector("#log-body li.entry[data-text='accept'] >> text=You accept the cup")
    elif phase == "arrange":
        # One die out of the cup (while two or more are under it), so the roll has both.
        cup = page.locator("#my-dice .zone-cup button.die-btn")
        outside = page.locator("#my-dice .zone-outside button.die-btn")
        if cup.count() >= 2:
            before = outside.count()
            cup.first.click()
            assert outside.count() == before + 1
        page.click("#arrange-button")
    elif phase == "shake":
        # Every die drawn: the ones under the cup and the ones outside.
        assert page.locator("#my-dice button.die-btn").count() == 5
        assert page.locator("#my-dice .zone-cup button.die-btn").count() == len(v["cup"])
        _in_view(page, "#my-dice button.die-btn", "#roll-button")
        page.locator("#my-dice .zone-cup button.die-btn").first.click()
        assert page.is_checked("#shake-toggle")
        assert page.get_attribute("#shake-toggle", "type") == "checkbox"
        if "roll" not in seen:
            e2e.screenshot(page, f"poker-roll-{tag}.png", full_page=False)
        seen.add("roll")
        page.click("#roll-button")
    elif phase == "keep":
        page.click("#keep-button")
    else:
        pytest.fail(f"unexpected phase {phase}")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_poker_game_through_the_builder(
    browser: Browser, server: str, viewport: dict[str, int]
) -> None:
    phone = viewport is PHONE
    page = e2e.new_page(
        browser, viewport=viewport, reduced_motion="reduce", is_mobile=phone, has_touch=phone
    )
    e2e.start_with_bots(
        page, server, "paula", options="", preset="poker-dice", bots=("random", "random")
    )
    seen: set[str] = set()
    deadline = time.monotonic() + 60
    while not {"open", "raise", "pass", "respond", "roll"} <= seen:
        assert time.monotonic() < deadline, f"poker moves not all made: {seen}"
        if e2e.state(page)["room"]["status"] == "finished":
            page.click("#rematch")
            page.wait_for_timeout(200)
        if not e2e.my_turn(page):
            page.wait_for_timeout(30)
            continue
        _play_a_turn(page, seen, "phone" if phone else "laptop")
        page.wait_for_timeout(60)
    e2e.no_page_errors(page)
    page.context.close()
