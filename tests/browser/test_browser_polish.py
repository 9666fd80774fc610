"""The polish a player's walk through the site asked for, in a real browser (Debian's
chromium through Playwright) against a real ``liarsdice serve``: the move panel in view on a
laptop screen, words ("your bid", "1 × six", "shows a four", one cup), the odds line, no
"(played by the computer)" after computer players' own moves, tips for Classic's surprises
and Classic by default, a watcher's page (its texts, its chat), "Waiting for the host to
start", seat names and buttons that never break mid-word, my plate with my dice, the count
after the game, and the friendly 404 page. Screenshots go to tests/artifacts/ (``polish-*``).
See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips these tests).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LAPTOP = {"width": 1280, "height": 900}


def _in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return bool(box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"])


def _play_until(page: Page, done: Any, timeout: float = 30) -> None:
    """Play (the least bid, or liar when no bid is left) until ``done(state)``."""
    deadline = time.monotonic() + timeout
    while not done(e2e.state(page)):
        assert time.monotonic() < deadline, "the game did not get there in time"
        if page.locator("#reveal-skip").is_visible():
            page.click("#reveal-skip")
        if e2e.my_turn(page):
            raises = page.locator("#moves .face-row button:not(:disabled)")
            if raises.count():
                raises.first.click()
            else:
                page.locator("#moves button[data-move='liar']").click()
        page.wait_for_timeout(40)


# ------------------------------------------------ 1. the move panel on a laptop's screen
def test_the_move_panel_is_in_view_on_a_laptop(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP)
    e2e.start_with_bots(page, server, "lapt", options="", bots=("random", "random", "random"))
    page.wait_for_selector("#my-dice-row")
    seen_liar = False
    deadline = time.monotonic() + 40
    while not seen_liar:
        assert time.monotonic() < deadline, "never had a bid to call"
        if page.locator("#reveal-skip").is_visible():
            page.click("#reveal-skip")
        if e2e.my_turn(page):
            liar = "#moves button[data-move='liar']"
            if page.locator(liar).count():
                # In view at 1280 × 900 (the layout fits, or the page scrolled it in).
                # (a smooth scroll, or the bid's own drop-in animation, may still be going)
                page.wait_for_function(
                    "(ss) => ss.every((s) => { const r = document.querySelector(s)"
                    ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })",
                    arg=[liar, "#moves .face-row", "#current-bid-text"],
                    timeout=3_000,
                )
                assert _in_viewport(page, liar)
                assert _in_viewport(page, "#moves .face-row")
                # the bid to beat is still in sight too
                assert _in_viewport(page, "#current-bid-text")
                e2e.screenshot(page, "polish-laptop-turn.png", full_page=False)
                seen_liar = True
                break
            page.locator("#moves .face-row button:not(:disabled)").first.click()
        page.wait_for_timeout(40)
    # My plate shows my own dice (no question marks); long names are cut, not broken.
    mine = e2e.state(page)["view"]["my_dice"]
    assert page.locator("#seats > li.mine .die-back").count() == 0
    assert page.locator("#seats > li.mine .backs.own svg.die").count() == min(len(mine), 6)
    style = page.eval_on_selector(
        "#seats > li:not(.mine) .seat-name",
        "e => [getComputedStyle(e).whiteSpace, getComputedStyle(e).textOverflow, e.title]",
    )
    assert style[0] == "nowrap" and style[1] == "ellipsis" and style[2].startswith("random-bot")
    name_box = page.locator("#seats > li:not(.mine) .seat-name").first.bounding_box()
    assert name_box is not None and name_box["height"] < 28  # one line
    # ... and "random-bot-1" fits whole (a smaller type): the bots are told apart, not all
    # "random-bo…"
    cut = page.eval_on_selector_all(
        "#seats > li:not(.mine) .seat-name",
        "es => es.filter((e) => e.scrollWidth > e.clientWidth).length",
    )
    assert cut == 0
    # Computer players' own moves are not "played by the computer" (that is for people).
    page.wait_for_selector("#log-body li.entry")
    assert "played by the computer" not in page.inner_text("#log-body")
    assert e2e.axe_serious(page) == []
    e2e.no_page_errors(page)
    page.context.close()


# --------------------------------------------------------- 2, 9, 10. the words, checked
WORDS_JS = """async () => {
  const { familyOf } = await import('/static/family.js');
  const { seenSentence } = await import('/static/family-bidding.js');
  const table = await import('/static/table.js');
  const bidding = familyOf('bidding');
  const seats = [{seat: 0, name: 'ann', kind: 'human'}, {seat: 1, name: 'bob', kind: 'human'}];
  const S = {seat: 0,
             room: {family: 'bidding', status: 'playing', seats, rules: {faces: 6, wild: 1}},
             view: {names: ['ann', 'bob'], game_no: 1, round: 1, results: []}};
  const bid = (quantity, face) => ({kind: 'bid', quantity, face});
  const res = {bid: '3x5', bid_move: bid(3, 5), count: 1, call: 'liar', caller: 'bob',
               bidder: 'ann',
               losses: {ann: 2}, dice: {ann: 3, bob: 5}, next_opener: 'ann',
               reveal: {ann: [1, 2, 3], bob: [5, 6, 6]}};
  const mine = table.describeResult(S, res, 0).sentences.join(' ');
  const theirs = table.describeResult({...S, seat: 1}, res, 0).sentences.join(' ');
  const poker = {seat: 0, room: {family: 'poker', status: 'playing', seats},
                 view: {names: ['ann', 'bob'], game_no: 1, round: 1,
                        results: [{bid: 'pair K', reading: 'high A', stood: false,
                                   bid_move: {kind: 'claim', category: 'pair', ranks: ['K'],
                                              kickers: []},
                                   reading_move: {kind: 'claim', category: 'high',
                                                  ranks: ['A'], kickers: []},
                                   call: 'liar', caller: 1, bidder: 0, loser: 0,
                                   hand: ['9', 'J', 'Q', 'K', 'A']}]}};
  const el = document.createElement('section');
  table.renderRevealText(el, poker);
  return {
    mine, theirs,
    pokerSays: table.describeResult(poker, poker.view.results[0], 0).sentences.join(' '),
    pokerTitle: el.querySelector('h3').textContent,
    one: bidding.bidWords(bid(1, 6)), three: bidding.bidWords(bid(1, 3)),
    many: bidding.bidWords(bid(4, 6)),
    show1: bidding.moveWords({kind: 'show', dice: [4]}),
    show2: bidding.moveWords({kind: 'show', dice: [1, 4]}),
    seen: seenSentence({known: 1, unseen: 10}),
    seenOpen: seenSentence({known: 0, unseen: 1}, true),
  };
}"""


def test_words_your_bid_one_six_a_four_one_cup(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    page.goto(server + "/")
    got = page.evaluate(WORDS_JS)
    assert "bob called liar on your bid of 3 × fives." in got["mine"], got["mine"]
    assert "you's" not in got["mine"]
    assert "You called liar on ann's bid" in got["theirs"]
    assert "called liar on your bid of a pair of kings" in got["pokerSays"], got["pokerSays"]
    assert got["pokerTitle"].endswith("what was under the cup"), got["pokerTitle"]
    assert got["one"] == "1 × six" and got["three"] == "1 × three" and got["many"] == "4 × sixes"
    assert got["show1"] == "shows a four and re-rolls the rest"
    assert got["show2"] == "shows a one and a four and re-rolls the rest"
    assert got["seen"] == "You hold 1 of them; 10 dice are hidden."
    assert got["seenOpen"] == "You can see none of them; 1 die is hidden."
    e2e.no_page_errors(page)
    page.context.close()


def test_the_odds_line_is_a_sentence(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP, reduced_motion="reduce")
    e2e.start_with_bots(page, server, "odds", options="dice=3", bots=("random", "random"))
    page.wait_for_selector("#my-dice-row")
    page.check("#odds-toggle")
    seen: list[str] = []

    def odds_shown(st: Any) -> bool:
        # Read the line as shown: during a reveal the centre is hidden and its text is
        # empty, so keep playing until a bid stands and its odds line is on screen.
        if not (st["view"] and st["view"]["current_bid"]):
            return False
        shown = page.evaluate("() => document.querySelector('#current-odds')?.innerText ?? ''")
        shown = str(shown).strip()
        seen[:] = [shown]
        return bool(shown)

    _play_until(page, odds_shown)
    text = seen[0]
    assert re.search(
        r"Chance it's true: .*\(exactly: .*\)\. You hold (none|\d+) of them; "
        r"(\d+ dice are|1 die is|no dice are) hidden\.",
        text,
    ), text
    assert "unseen" not in text
    e2e.no_page_errors(page)
    page.context.close()


# -------------------------------------------- 6. Classic by default; its surprises as tips
TIPS_JS = """async () => {
  const { Tips } = await import('/static/tips.js');
  const S = {seat: null,
             room: {preset: 'classic', family: 'bidding', status: 'playing', seats: [],
                    options: {}},
             view: {results: [{bid: '3x5'}], legal: [], my_dice: []}};
  // The tips a new page shows one after another in state s, each dismissed with its OK.
  const shown = (s) => {
    const el = document.createElement('div');
    const tips = new Tips(el, true);
    const seen = [];
    for (let i = 0; i < 4; i++) {
      tips.render(s);
      if (el.hidden) break;
      seen.push(el.textContent);
      el.querySelector('#tip-ok').click();
    }
    return seen;
  };
  const seen = shown(S);
  localStorage.clear();
  const pseen = shown({...S, room: {...S.room, preset: 'perudo'}});
  return {seen, pseen};
}"""


def test_classic_is_the_default_and_its_surprises_are_tips(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    assert page.input_value("#create-preset") == "classic"  # as the CLI's default
    got = page.evaluate(TIPS_JS)
    text = " ".join(got["seen"])
    assert "as many dice as the bid was off by" in text, got
    assert "everyone but the bidder loses a die" in text, got
    # Perudo has neither rule: no such tips there.
    other = " ".join(got["pseen"])
    assert "off by" not in other and "everyone but the bidder" not in other, got
    e2e.no_page_errors(page)
    page.context.close()


# ------------------------------------------------ 7, 8. a watcher before the game; chat
def test_a_watcher_before_the_game_and_waiting_for_the_host(browser: Browser, server: str) -> None:
    host = e2e.new_page(browser, viewport=LAPTOP)
    room = e2e.create_room(host, server, "hosta")
    friend = e2e.new_page(browser, viewport=LAPTOP)
    friend.goto(f"{server}/r/{room}")
    friend.wait_for_selector("#seat-join:not([hidden])")
    watching = friend.inner_text("#watching")
    assert "next game" not in watching and "this game" in watching, watching
    assert friend.is_visible("#seat-join-button")
    page_text = friend.inner_text("#room")
    assert "computer player" not in page_text.lower(), page_text  # a watcher can't add any
    assert "Take a seat" in friend.inner_text("#centre")
    # The host alone is told to add computer players or share the link.
    assert "computer player" in host.inner_text("#centre")
    # A watcher chats, signed as a watcher; the players read it.
    assert friend.is_enabled("#chat-input")
    friend.fill("#chat-input", "good luck!")
    friend.click("#chat-send")
    host.wait_for_function(
        "() => document.getElementById('chat-list').innerText.includes('watcher: good luck!')"
    )
    e2e.screenshot(friend, "polish-watcher.png", full_page=False)
    assert e2e.axe_serious(friend) == []
    # Enough players seated: "Waiting for the host to start", not "Waiting for players".
    host.select_option("#bot-level", "random")
    host.click("#add-bot")
    e2e.wait_seats(host, 2)
    friend.wait_for_function(
        "() => document.getElementById('centre').innerText"
        ".includes('Waiting for the host to start')"
    )
    assert "Waiting for players" not in friend.inner_text("#centre")
    assert "Ready to start" in host.inner_text("#centre-title")
    friend.fill("#seat-name", "frieda")
    friend.click("#seat-join-button")
    e2e.wait_seats(host, 3)
    friend.wait_for_selector("#seat-join", state="hidden")
    assert "Waiting for the host to start" in friend.inner_text("#centre-title")
    host.click("#start")
    friend.wait_for_function("() => window.liarsdice.state.room.status === 'playing'")
    for p in (host, friend):
        e2e.no_page_errors(p)
        p.context.close()


# ----------------------------------------------- 12. the lobby's buttons; after the game
def test_lobby_buttons_and_the_count_after_the_game(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP, reduced_motion="reduce")
    e2e.start_with_bots(page, server, "endy", options="dice=1", bots=("random",))
    page.wait_for_selector("#my-dice-row")
    _play_until(page, lambda st: st["room"]["status"] == "finished")
    if page.locator("#reveal-skip").is_visible():
        page.click("#reveal-skip")
    page.wait_for_selector("#reveal-stage", state="hidden")
    st = e2e.state(page)
    last = st["view"]["results"][-1]
    winner = st["view"]["winner"]
    left = last["dice"][st["view"]["names"][winner]]
    plate = f"#seats > li[data-seat='{winner}']"
    words = f"{left} {'die' if left == 1 else 'dice'} left"
    assert page.inner_text(f"{plate} .stock-text") == words
    assert page.locator(f"{plate} .die-back:not(.blank)").count() == 0  # no "?" after the game
    e2e.screenshot(page, "polish-game-over.png", full_page=False)
    # The lobby: its buttons never break a word ("Ope/n").
    other = e2e.new_page(browser, viewport={"width": 1024, "height": 800})
    e2e.create_room(other, server, "listy")  # a live room, for the list
    page.goto(server + "/")
    page.wait_for_selector("#room-list .room-item .button")
    for button in page.locator("#room-list .room-item .button").all()[:5]:
        box = button.bounding_box()
        assert box is not None and box["height"] < 44, box  # one line
        assert button.evaluate("b => getComputedStyle(b).whiteSpace") == "nowrap"
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "polish-lobby.png")
    for p in (page, other):
        e2e.no_page_errors(p)
        p.context.close()


# ---------------------------------------------------------------------- 14. the 404 page
def test_an_unknown_address_is_a_friendly_page(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    response = page.goto(server + "/no/such/page")
    assert response is not None and response.status == 404
    assert "There is no page here" in page.inner_text("#not-found-h")
    assert '{"detail"' not in page.content()
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "polish-404.png")
    page.click("#lobby-from-not-found")
    page.wait_for_selector("#create-preset option", state="attached")
    # in the reader's language, as every page of the app
    spanish = e2e.new_page(browser, locale="es-ES")
    response = spanish.goto(server + "/r/x/y/z")
    assert response is not None and response.status == 404
    # the page's words are translated once its catalogue has loaded (after the load event)
    spanish.wait_for_function("() => document.title.startsWith('Página no encontrada')")
    assert spanish.inner_text("#not-found-h") == "Aquí no hay ninguna página"
    e2e.no_page_errors(spanish)
    spanish.context.close()
    api = page.request.get(server + "/api/no/such/thing")
    assert api.status == 404 and api.json()["data"]["code"] == "not_found"
    e2e.no_page_errors(page)
    page.context.close()
