"""Host controls, private rooms, guest identities and ratings in a real browser against a real
``liarsdice serve``: the host removes a bot, kicks a player and hands the host role over, a
player leaves; a private room is absent from the lobby list but reachable by its link; a
guest plays computer players to the end, sees the ranking and the scoreboard across a
rematch, and their rating changes (player page, leaderboard). Screenshots of game over and
the leaderboard go to tests/artifacts/. See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips).
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import TYPE_CHECKING

from playwright.sync_api import Error as PlaywrightError

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _ask_for_a_seat(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector("#seat-join-button:visible")
    page.fill("#seat-name", name)
    page.click("#seat-join-button")


def _join(page: Page, url: str, name: str) -> None:
    _ask_for_a_seat(page, url, name)
    page.wait_for_selector("#seats > li.mine")


def _play_to_the_end(page: Page, limit: float = 20) -> None:
    """Call liar whenever possible, else make the least bid, until the game is over."""
    deadline = time.monotonic() + limit
    while e2e.state(page)["room"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game took too long"
        if e2e.my_turn(page):
            e2e.call_or_bid(page)
        page.wait_for_timeout(40)


def test_host_removes_kicks_hands_over_and_a_player_leaves(browser: Browser, server: str) -> None:
    ann = e2e.new_page(browser)
    bob = e2e.new_page(browser)
    cat = e2e.new_page(browser)
    room = e2e.create_room(ann, server, "ann")
    e2e.add_bot(ann, "random")
    e2e.add_bot(ann, "prob")
    url = ann.input_value("#share-url")
    _join(bob, url, "bob")
    _join(cat, url, "cat")
    e2e.wait_seats(ann, 5)
    # Between games the host has a button on every other seat.
    assert ann.locator("#seats > li[data-seat='0'] button").count() == 0
    assert bob.locator("#seats button[data-act]").count() == 0  # not the host

    # Remove a bot: later seats move down one, on every page.
    ann.click("#seats > li[data-seat='1'] button[data-act='remove']")
    e2e.wait_seats(ann, 4)
    e2e.wait_seats(bob, 4)
    names = [s["name"] for s in e2e.state(bob)["room"]["seats"]]
    assert names == ["ann", "prob-bot-1", "bob", "cat"]
    assert e2e.state(bob)["seat"] == 2 and e2e.state(cat)["seat"] == 3
    assert bob.locator("#seats > li.mine .seat-name").inner_text() == "bob"

    # Kick a player: cat is told, and watches (with the offer to take a seat again).
    ann.click("#seats > li[data-seat='3'] button[data-act='remove']")
    e2e.wait_seats(ann, 3)
    cat.wait_for_selector("#error:visible")
    assert "removed you" in cat.inner_text("#error-text")
    cat.wait_for_selector("#seat-join-button:visible")
    assert cat.locator("#seats > li.mine").count() == 0
    assert cat.evaluate(f"localStorage.getItem('liarsdice:seat:{room}')") is None

    # Hand the host role to bob: his page gets the host controls, ann's loses them.
    ann.click("#seats > li[data-seat='2'] button[data-act='host']")
    bob.wait_for_selector("#host-controls:not([hidden])")
    ann.wait_for_selector("#host-controls", state="hidden")
    assert e2e.state(ann)["room"]["host"] == 2
    assert "host" in bob.inner_text("#seats > li.mine .tags")
    assert "You are now the host" in bob.inner_text("#live")

    # ann leaves (between games her seat goes) and lands in the lobby.
    ann.click("#leave-button")
    # page.url, polled: wait_for_url can fail when the lobby's load interrupts the first one
    deadline = time.monotonic() + 10
    while "/r/" in ann.url:
        assert time.monotonic() < deadline, f"ann never left the room: {ann.url}"
        ann.wait_for_timeout(50)
    e2e.wait_seats(bob, 2)
    assert [s["name"] for s in e2e.state(bob)["room"]["seats"]] == ["prob-bot-1", "bob"]
    assert e2e.state(bob)["room"]["host"] == 1 and e2e.state(bob)["seat"] == 1
    bob.wait_for_selector("#host-controls:not([hidden])")
    for page in (ann, bob, cat):
        e2e.no_page_errors(page)
        page.context.close()


def test_private_room_is_unlisted_but_reachable_by_link(browser: Browser, server: str) -> None:
    pia = e2e.new_page(browser)
    room = e2e.create_room(pia, server, "pia", private=True)
    assert "private room" in pia.inner_text("#room-meta")
    public = e2e.create_room(e2e.new_page(browser), server, "pub")
    listed = [r["id"] for r in e2e.get_json(f"{server}/api/rooms")["rooms"]]
    assert public in listed and room not in listed
    lobby = e2e.new_page(browser)
    lobby.goto(server + "/")
    lobby.wait_for_selector(f"#room-list li[data-room='{public}']")
    assert lobby.locator(f"#room-list li[data-room='{room}']").count() == 0
    # The link works: join by pasting it in the lobby.
    lobby.fill("#my-name", "quinn")
    lobby.fill("#join-room", pia.input_value("#share-url"))
    lobby.click("#join-button")
    lobby.wait_for_url(f"**/r/{room}")
    lobby.wait_for_selector("#seats > li.mine")
    e2e.wait_seats(pia, 2)
    for page in (pia, lobby):
        e2e.no_page_errors(page)
        page.context.close()


def test_guest_rating_changes_after_games_with_ranking_and_scoreboard(
    browser: Browser, server: str
) -> None:
    page = e2e.new_page(browser, reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    e2e.create_room(page, server, "rory", options="dice=1")
    me = json.loads(page.evaluate("localStorage.getItem('liarsdice:player')") or "null")
    assert me and me["player"] and me["token"], me
    before = e2e.get_json(f"{server}/api/players/{me['player']}")
    assert before["name"] == "rory" and before["games"] == 0
    e2e.add_bot(page, "random")
    e2e.add_bot(page, "random")
    assert e2e.state(page)["room"]["seats"][0]["player"] == me["player"]
    page.click("#start")
    _play_to_the_end(page)

    # Game over: the ranking (winner first) and the scoreboard of this room.
    page.wait_for_selector("#game-over:not([hidden]) #ranking li")
    st = e2e.state(page)
    ranking = page.eval_on_selector_all("#ranking li", "ls => ls.map(l => +l.dataset.seat)")
    assert ranking == st["room"]["ranking"] and ranking[0] == st["view"]["winner"]
    wins = page.eval_on_selector_all("#scoreboard tbody td", "ts => ts.map(t => +t.textContent)")
    assert wins == st["room"]["wins"] and sum(wins) == 1
    if page.locator("#reveal-skip").is_visible():
        page.click("#reveal-skip")
    page.wait_for_selector("#reveal-stage", state="hidden")
    e2e.screenshot(page, "game-over.png")

    # A rematch: the scoreboard counts both games.
    page.click("#rematch")
    page.wait_for_function("() => window.liarsdice.state.room.status === 'playing'")
    _play_to_the_end(page)
    page.wait_for_function(
        "() => document.querySelectorAll('#scoreboard tbody td').length === 3"
        " && [...document.querySelectorAll('#scoreboard tbody td')]"
        ".reduce((a, t) => a + +t.textContent, 0) === 2"
    )

    # The rating moved, and the player page and leaderboard say so.
    after = e2e.get_json(f"{server}/api/players/{me['player']}")
    assert after["games"] == 2 and after["rating"] != before["rating"]
    page.goto(f"{server}/p/{me['player']}")
    page.wait_for_selector("#player-rating")
    assert page.inner_text("#player-h") == "rory"
    assert page.inner_text("#player-rating") == str(after["rating"])
    assert page.inner_text("#player-games") == "2"
    assert page.inner_text("#player-wins") == str(after["wins"])
    page.goto(f"{server}/leaderboard")
    page.wait_for_selector(f"#leaderboard-table tr[data-player='{me['player']}']")
    row = page.inner_text(f"#leaderboard-table tr[data-player='{me['player']}']")
    assert "rory" in row and str(after["rating"]) in row
    assert page.locator("#leaderboard-bots-table tbody tr").count() >= 1  # bots: rated apart
    e2e.screenshot(page, "leaderboard.png")

    # The display name can be changed in the lobby; the identity stays.
    page.goto(server + "/")
    page.fill("#my-name", "rory-the-bold")
    page.click("#save-name")
    page.wait_for_function("() => document.getElementById('save-name').textContent === 'Saved'")
    assert e2e.get_json(f"{server}/api/players/{me['player']}")["name"] == "rory-the-bold"
    e2e.no_page_errors(page)
    page.context.close()


def test_no_host_button_on_a_plate_during_a_game(browser: Browser, server: str) -> None:
    """The host's Kick, Ban and Make host sit on other plates between games only: during a
    game nothing on the table is one mis-click from removing a player (issue 40)."""
    host = e2e.new_page(browser, reduced_motion="reduce")
    guest = e2e.new_page(browser, reduced_motion="reduce")
    e2e.create_room(host, server, "hank", options="dice=1")
    e2e.add_bot(host, "random")
    _join(guest, host.input_value("#share-url"), "gus")
    e2e.wait_seats(host, 3)
    assert host.locator("#seats > li[data-seat='2'] button[data-act]").count() == 3
    host.click("#start")
    guest.wait_for_selector("#my-dice-row")
    host.wait_for_function("() => window.liarsdice.state.room.status === 'playing'")
    assert host.locator("#seats button[data-act]").count() == 0
    assert host.locator("#host-controls").is_hidden()
    for page in (host, guest):
        e2e.no_page_errors(page)
        page.context.close()


def _refused(page: Page, url: str, name: str) -> str:
    """Try to take a seat as ``name``; the error the page shows."""
    _ask_for_a_seat(page, url, name)
    page.wait_for_selector("#error:visible")
    return page.inner_text("#error-text")


def test_host_bans_a_squatter_and_locks_the_room(browser: Browser, server: str) -> None:
    """Against squatters: the host bans a player (kicked; the name is refused from then on)
    and locks the room (nobody new takes a seat), and unlocks it again."""
    ann = e2e.new_page(browser)
    sq = e2e.new_page(browser)
    dee = e2e.new_page(browser)
    e2e.create_room(ann, server, "ann")
    url = ann.input_value("#share-url")
    _join(sq, url, "squatter")
    e2e.wait_seats(ann, 2)
    ann.click("#seats > li[data-seat='1'] button[data-act='ban']")
    sq.wait_for_selector("#error:visible")
    assert "removed you" in sq.inner_text("#error-text")
    e2e.wait_seats(ann, 1)
    assert "banned that name" in _refused(sq, url, "Squatter")  # the same name again
    ann.check("#lock-room")
    ann.wait_for_function("() => document.getElementById('lock-room').checked")
    # a locked room offers a watcher no seat, and says why
    dee.goto(url)
    dee.wait_for_function("() => window.liarsdice.state.room && window.liarsdice.state.room.locked")
    dee.wait_for_selector("#watching:visible")
    assert "locked this room" in dee.inner_text("#watching")
    assert dee.locator("#seat-join-button").is_hidden()
    ann.uncheck("#lock-room")
    dee.wait_for_selector("#seat-join-button:visible")  # the unlock reaches the watcher
    dee.fill("#seat-name", "dee")
    dee.click("#seat-join-button")
    dee.wait_for_selector("#seats > li.mine")
    e2e.wait_seats(ann, 2)
    for page in (ann, sq, dee):
        e2e.no_page_errors(page)
        page.context.close()


def _play_both(pages: list[Page], limit: float = 60) -> None:
    """Every page calls liar when it can (else the least bid) until the game is over."""
    deadline = time.monotonic() + limit
    while e2e.state(pages[0])["room"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game took too long"
        for page in pages:
            if e2e.my_turn(page):
                with contextlib.suppress(PlaywrightError):  # (the turn may pass meanwhile)
                    e2e.call_or_bid(page)
        pages[0].wait_for_timeout(50)


def test_a_finished_game_page_survives_every_seat_change(browser: Browser, server: str) -> None:
    """Issue 40: after a game, the new host removes the old one and a bot; the finished
    game's panel (winner, ranking, "you", scoreboard) reads the same, and after a reload."""
    ann = e2e.new_page(browser, reduced_motion="reduce")
    ben = e2e.new_page(browser, reduced_motion="reduce")
    e2e.create_room(ann, server, "ann", options="dice=1")
    _join(ben, ann.input_value("#share-url"), "ben")
    e2e.add_bot(ann, "expert")
    e2e.add_bot(ann, "prob")
    ann.click("#start")
    _play_both([ann, ben])
    ben.wait_for_selector("#game-over:not([hidden])")
    before = ben.inner_text("#game-over")
    assert "ben (you)" in before
    ann.click("#seats > li[data-seat='1'] button[data-act='host']")
    ben.wait_for_selector("#host-controls:not([hidden])")
    ben.click("#seats > li[data-seat='0'] button[data-act='remove']")  # ann
    e2e.wait_seats(ben, 3)
    ben.click("#seats > li[data-seat='1'] button[data-act='remove']")  # expert-bot-1
    e2e.wait_seats(ben, 2)
    ben.wait_for_timeout(300)
    assert ben.inner_text("#game-over") == before
    ben.reload()
    ben.wait_for_selector("#game-over:not([hidden])")
    ben.wait_for_function("() => window.liarsdice.state.room.seats.length === 2")
    assert ben.inner_text("#game-over") == before
    for page in (ann, ben):
        e2e.no_page_errors(page)
        page.context.close()
