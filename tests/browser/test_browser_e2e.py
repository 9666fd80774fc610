"""End-to-end tests of the browser client in a real browser (Debian's chromium, driven by
Playwright) against a real ``liarsdice serve`` process.

Two people play a whole game through the UI: ann creates a room in the lobby, bob opens the
share link and joins, ann adds two bots and starts, both play until the game is over by
clicking the quantity and face buttons and the calls (each page only ever draws its own
dice), then ann steps through the replay of game 1. A phone-width check (no horizontal
scroll at 375 px), a keyboard-only bid and reconnecting follow. The table's
motion, the reveal, the log, timers, host controls and ratings are in the other
``test_browser_*.py``. See e2e_util for the chromium requirement
(``LIARSDICE_SKIP_BROWSER=1`` skips these tests).
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

GAME_LIMIT = 60.0  # seconds for the two humans' game


def _random_bid(page: Page, rng: random.Random) -> None:
    """Pick a random legal quantity, then click a random legal face."""
    quantities = page.eval_on_selector_all(
        "#moves .qty-row button:not(:disabled)", "bs => bs.map(b => b.dataset.qty)"
    )
    page.click(f"#qty-{rng.choice(quantities)}")
    faces = page.locator("#moves .face-row button:not(:disabled)")
    faces.nth(rng.randrange(faces.count())).click()


def test_two_players_play_a_game_through_the_ui(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    t0 = time.monotonic()
    ann = e2e.new_page(browser)
    bob = e2e.new_page(browser)
    room = e2e.create_room(ann, server, "ann")
    assert ann.locator("#seats > li.mine .seat-name").inner_text() == "ann"

    # The lobby's room list shows the new room.
    lobby = e2e.new_page(browser)
    lobby.goto(server + "/")
    lobby.wait_for_selector(f"#room-list li[data-room='{room}']")
    assert "ann" in lobby.locator(f"#room-list li[data-room='{room}']").inner_text()

    # bob opens the share link and joins through the UI.
    share = ann.input_value("#share-url")
    assert share.endswith(f"/r/{room}")
    ann.click("#copy-link")
    bob.goto(share)
    bob.wait_for_selector("#seat-join-button:visible")
    bob.fill("#seat-name", "bob")
    bob.click("#seat-join-button")
    bob.wait_for_selector("#seats > li.mine")
    assert bob.locator("#seats > li.mine .seat-name").inner_text() == "bob"
    assert bob.locator("#host-controls").is_hidden()  # only the host has them
    e2e.wait_seats(ann, 2)

    # Chat: what a player types is shown as text, never as markup.
    ann.fill("#chat-input", "<b>good luck</b> & have fun")
    ann.click("#chat-send")
    bob.wait_for_selector("#chat-list li:has-text('good luck')")
    assert bob.locator("#chat-list li").last.inner_text() == "ann: <b>good luck</b> & have fun"
    assert bob.locator("#chat-list b").count() == 0

    # The host adds two bots and starts.
    e2e.add_bot(ann, "random")
    e2e.add_bot(ann, "prob")
    e2e.wait_seats(bob, 4)
    ann.click("#start")
    ann.wait_for_selector("#my-dice-row")
    bob.wait_for_selector("#my-dice-row")

    # Both play through the UI until the game is over: ann calls liar whenever she may and
    # otherwise makes the least legal bid; bob picks at random among the legal moves.
    rng = random.Random(4)
    pages = {"ann": ann, "bob": bob}
    seats = {"ann": 0, "bob": 1}
    seen: dict[str, dict[tuple[int, int], list[int]]] = {"ann": {}, "bob": {}}
    turn_announced = False
    moves = 0
    while True:
        assert time.monotonic() - t0 < GAME_LIMIT, "the game took too long"
        if all(p.locator("#game-over").is_visible() for p in pages.values()):
            break
        for who, page in pages.items():
            dom = page.evaluate(e2e.FOREIGN_DICE_JS)
            assert dom["foreign"] == 0, f"{who}'s page draws dice that are not {who}'s"
            assert set(dom["seats"]) <= {seats[who]}, dom
            mine = page.evaluate(e2e.MY_DICE_JS)
            if mine is not None:
                assert mine["seat"] == seats[who]
                seen[who][(mine["game"], mine["round"])] = mine["faces"]
            if not e2e.my_turn(page):
                continue
            assert "Your turn" in page.inner_text("#live")
            turn_announced = True
            liar = page.locator("#moves button[data-move='liar']")
            if who == "ann" and liar.count():
                liar.click()
            elif who == "ann":
                page.locator("#moves .face-row button:not(:disabled)").first.click()
            elif liar.count() and rng.random() < 0.5:
                liar.click()
            else:
                _random_bid(page, rng)
            moves += 1
        ann.wait_for_timeout(40)
    assert moves >= 2 and turn_announced

    # Game over on both pages, with the same winner; the server agrees.
    winners = {p.get_attribute("#winner", "data-seat") for p in pages.values()}
    assert len(winners) == 1 and None not in winners
    snap = e2e.get_json(f"{server}/api/rooms/{room}")["data"]
    assert snap["room"]["status"] == "finished" and snap["room"]["games"] == [1]
    assert str(snap["view"]["winner"]) in winners
    assert "wins" in ann.inner_text("#game-over") or "you win" in ann.inner_text("#game-over")
    assert ann.locator("#rematch").is_visible()
    # The final ranking lists every seat, the winner first.
    ranking = ann.eval_on_selector_all("#ranking li", "ls => ls.map(l => l.dataset.seat)")
    assert sorted(ranking) == ["0", "1", "2", "3"] and ranking[0] in winners

    # Each page showed exactly its own dice, round by round (the record reveals them all).
    record = e2e.get_json(f"{server}/api/rooms/{room}/games/1/record?format=json")
    for who, rounds in seen.items():
        assert rounds, f"{who}'s page never showed dice"
        for (game, rnd), faces in rounds.items():
            assert game == 1
            assert sorted(faces) == sorted(record["rounds"][rnd]["dice"][who]), (who, rnd)
    # The browsers contributed their own client seeds to the fair dice (128 random bits, hex);
    # the server's default for seats without one has another shape.
    for rnd in record["rounds"]:
        for who in ("ann", "bob"):
            assert re.fullmatch(r"[0-9a-f]{32}", rnd["fair"]["client_seeds"][who]), rnd["fair"]

    # The reveal of the last round, in words: every hand and the count.
    reveal = ann.inner_text("#reveal")
    assert "There w" in reveal and "called" in reveal

    # The replay viewer for game 1: buttons and arrow keys step through the moves.
    ann.click("#replay-1")
    ann.wait_for_selector("#replay-pos")
    total = int(ann.inner_text("#replay-pos").rsplit(" ", 1)[1])
    assert ann.inner_text("#replay-pos") == f"Step 1 of {total}" and total >= 3
    assert ann.locator("#replay-step svg.die").count() >= 4  # every hand of round 1
    ann.keyboard.press("ArrowRight")
    assert ann.inner_text("#replay-pos") == f"Step 2 of {total}"
    ann.click("#replay-next")
    assert ann.inner_text("#replay-pos") == f"Step 3 of {total}"
    ann.keyboard.press("ArrowLeft")
    assert ann.inner_text("#replay-pos") == f"Step 2 of {total}"
    ann.keyboard.press("End")
    assert ann.inner_text("#replay-pos") == f"Step {total} of {total}"
    assert ann.locator("#replay-result").is_visible()
    assert "wins the game" in ann.inner_text("#replay-step")
    for link, kind in (("#replay-json", "json"), ("#replay-text", "text")):
        href = ann.get_attribute(link, "href")
        assert href is not None and href.endswith(f"format={kind}")
        got = ann.request.get(server + href)
        assert got.ok
        if kind == "json":
            assert got.json()["liarsdice"] == 1
        else:
            assert got.text().startswith("Liar's Dice record")
    ann.click("#replay-close")
    assert ann.locator("#replay").is_hidden()

    # The host offers a rematch: game 2 starts on both pages.
    ann.click("#rematch")
    for page in pages.values():
        page.wait_for_selector("#my-dice-row[data-game='2']")
        assert page.locator("#game-over").is_hidden()

    for page in [*pages.values(), lobby]:
        e2e.no_page_errors(page)
        page.context.close()


def test_phone_width_has_no_horizontal_scroll(browser: Browser, server: str) -> None:
    page = e2e.new_page(
        browser, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    assert e2e.horizontal_overflow(page) == 0
    e2e.create_room(page, server, "pat-with-a-long-name")
    assert e2e.horizontal_overflow(page) == 0
    e2e.add_bot(page, "random")
    e2e.add_bot(page, "random")
    # The host's turn timer setting reaches the room.
    e2e.set_timer(page, 30)
    page.click("#start")
    # The move picker once it is pat's turn (a bot may open and move first).
    page.wait_for_selector("#moves .face-row button", state="visible", timeout=20_000)
    # Compact table: the seats sit in a grid, not on the oval.
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#seats > li')).position")
        == "static"
    )
    assert e2e.horizontal_overflow(page) == 0, "horizontal scroll at 375 px during play"
    e2e.screenshot(page, "phone.png")
    e2e.no_page_errors(page)
    page.context.close()


def test_keyboard_only_bid(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    # The lobby by keyboard: name, more options, the rule change, then Enter on "Create".
    e2e.tab_to(page, "#my-name")
    page.keyboard.type("kay")
    e2e.tab_to(page, ".more-options summary")
    page.keyboard.press("Enter")
    e2e.tab_to(page, "#create-options")
    page.keyboard.type("dice=2")
    e2e.tab_to(page, "#create-button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#host-controls:not([hidden])")
    e2e.tab_to(page, "#add-bot")
    page.keyboard.press("Enter")
    e2e.wait_seats(page, 2)
    e2e.tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('moves').hidden")
    # Tab to the quantity row (one stop: the arrows pick the quantity), step up one,
    # then Tab to the first face that bids and press Enter.
    e2e.tab_to(page, "#moves .qty-row button[aria-checked='true']")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    before = int(page.get_attribute("#moves .qty-row button[aria-checked='true']", "data-qty") or 0)
    page.keyboard.press("ArrowRight")
    # (the panel redraws after the key: wait for the checked quantity, do not read at once)
    page.wait_for_function(
        "b => Number(document.querySelector(\"#moves .qty-row button[aria-checked='true']\")"
        "?.dataset.qty) === b + 1",
        arg=before,
    )
    qty = int(page.get_attribute("#moves .qty-row button[aria-checked='true']", "data-qty") or 0)
    assert qty == before + 1
    assert page.evaluate("document.activeElement.dataset.qty") == str(qty)
    e2e.tab_to(page, "#moves .face-row button:not(:disabled)")
    move = page.evaluate("document.activeElement.dataset.move")
    assert move.startswith(f"{qty}x")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('live').textContent.includes('Your move')"
    )
    face = int(move.split("x")[1])
    names = ["", "ones", "twos", "threes", "fours", "fives", "sixes"]
    assert f"Your move: {qty} × {names[face]}" in page.inner_text("#live")
    e2e.no_page_errors(page)
    page.context.close()


def test_reconnect_and_reload_resume_the_seat(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    hellos: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        def sent(payload: str | bytes) -> None:
            frame = json.loads(payload)
            if frame["type"] == "hello":
                hellos.append(frame["data"])

        ws.on("framesent", sent)

    page.on("websocket", watch)
    room = e2e.create_room(page, server, "rex")
    e2e.add_bot(page, "random")
    page.click("#start")
    page.wait_for_selector("#my-dice-row")
    assert hellos and hellos[0]["token"] and hellos[0]["last_seq"] is None
    seq = page.evaluate("window.liarsdice.conn.seq")
    assert seq > 0

    # The socket drops: the client reconnects by itself and resumes from the last seq.
    page.evaluate("window.liarsdice.conn.ws.close()")
    page.wait_for_function("(n) => window.liarsdice.conn.seq >= n", arg=seq)
    page.wait_for_function(
        "() => document.getElementById('conn').textContent === 'connected'"
        " && window.liarsdice.conn.ws !== null"
    )
    deadline = time.monotonic() + 10
    while len(hellos) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(hellos) >= 2, hellos
    assert hellos[1]["token"] == hellos[0]["token"] and hellos[1]["last_seq"] >= seq

    # A reload finds the seat token in localStorage and takes the seat again.
    page.reload()
    page.wait_for_selector("#my-dice-row")
    assert page.locator("#seats > li.mine .seat-name").inner_text() == "rex"
    assert hellos[-1]["token"] == hellos[0]["token"]
    assert page.evaluate(f"localStorage.getItem('liarsdice:seat:{room}') !== null")

    # A refused message's error is shown on the page as a sentence, without its code.
    page.evaluate("window.liarsdice.conn.send('action', {text: 'dance'})")
    page.wait_for_selector("#error:visible")
    text = page.inner_text("#error-text")
    assert text.endswith((".", "!", "?")), text
    assert not re.search(r"\((illegal_action|invalid|[a-z]+_[a-z_]+)\)", text), text
    e2e.no_page_errors(page)
    page.context.close()
