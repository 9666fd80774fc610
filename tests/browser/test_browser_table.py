"""The browser table in a real browser (Debian's chromium through Playwright) against a real
``liarsdice serve``: the first-game walkthrough from the lobby, the reveal (animated and with
reduced motion) ending in the right state, the game log with palifico rounds, picking dice
by clicking them (show-and-reroll; poker dice are test_browser_poker.py's), sound and its
remembered mute toggle, an unknown room, and axe-core's accessibility check (no serious or
critical violations) on the lobby, the table and the reveal. Screenshots go to
tests/artifacts/. See e2e_util (``LIARSDICE_SKIP_BROWSER=1`` skips these tests).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _wait_results(page: Page, n: int, timeout: float = 15) -> Any:
    """Play (call or bid) until the view has at least ``n`` round results."""
    deadline = time.monotonic() + timeout
    while True:
        st = e2e.state(page)
        if st["view"] and len(st["view"]["results"]) >= n:
            return st
        assert time.monotonic() < deadline, "no round result in time"
        if e2e.my_turn(page):
            e2e.call_or_bid(page)
        page.wait_for_timeout(50)


def _game(browser: Browser, server: str, name: str, **room: Any) -> Page:
    """A page with reduced motion whose player started a game against a random bot (``room``:
    :func:`create_room`'s options) and sees their dice."""
    page = e2e.new_page(browser, reduced_motion="reduce")
    e2e.start_with_bots(page, server, name, **room)
    page.wait_for_selector("#my-dice-row")
    return page


def test_first_game_walkthrough_lobby_and_table(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    # The lobby: a preset's rules in plain words, no jargon.
    page.select_option("#create-preset", "perudo")
    page.click("#preset-rules summary")
    rules = page.inner_text("#preset-rules-list")
    assert "palifico" in rules.lower() and "exact" in rules.lower()
    body = page.inner_text("body")
    assert "Seed 0" not in body and "seed 0" not in body
    for name in ("classic", "milton-bradley", "spot-on", "poker-dice"):
        page.select_option("#create-preset", name)
        assert page.locator("#preset-rules-list li").count() >= 3, name
        assert "Seed" not in page.inner_text("#preset-desc")
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "lobby.png")

    # "Play your first game": a room with two computer players starts by itself, with tips.
    page.click("#first-game")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#my-dice-row", timeout=15_000)
    st = e2e.state(page)
    assert len(st["room"]["seats"]) == 3
    assert [s["kind"] for s in st["room"]["seats"]] == ["human", "bot", "bot"]
    assert st["room"]["status"] == "playing"
    page.wait_for_selector("#tips:not([hidden])")
    first_tip = page.inner_text("#tips")
    assert "your dice" in first_tip.lower()
    page.click("#tip-ok")
    page.wait_for_function("(t) => document.getElementById('tips').innerText !== t", arg=first_tip)

    # The table: the seats around the oval, each with its dice drawn, the total in play.
    e2e.wait_my_turn(page, 15_000)
    if page.locator("#reveal-skip").is_visible():  # a computer player called already
        page.click("#reveal-skip")
    st = e2e.state(page)
    counts = st["view"]["dice_counts"]
    others = [c for i, c in enumerate(counts) if i != st["seat"]]
    assert page.locator("#seats > li .stock .die-back").count() == sum(min(c, 6) for c in others)
    # My own plate shows my dice (I know them), not question marks.
    assert page.locator("#seats > li.mine .stock .die-back").count() == 0
    mine = page.eval_on_selector_all(
        "#seats > li.mine .stock .backs.own svg.die", "ds => ds.map(d => +d.dataset.face)"
    )
    assert mine == st["view"]["my_dice"][:6]
    assert page.evaluate("getComputedStyle(document.querySelector('#seats > li')).position") == (
        "absolute"
    )
    total = int(page.get_attribute("#dice-total", "data-total") or 0)
    assert total == sum(counts) and total <= 9
    # The quantity and face buttons offer exactly the legal bids.
    legal = {m["text"] for m in e2e.state(page)["view"]["legal"]}
    shown = page.eval_on_selector_all(
        "#moves .face-row button:not(:disabled)", "bs => bs.map(b => b.dataset.move)"
    )
    assert shown and set(shown) <= legal
    dom = page.evaluate(e2e.FOREIGN_DICE_JS)
    assert dom["foreign"] == 0
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "table.png")
    # Tips can be turned off altogether.
    if page.locator("#tip-off").count():
        page.click("#tip-off")
        page.wait_for_selector("#tips", state="hidden")
    e2e.no_page_errors(page)
    page.context.close()


def test_reveal_ends_in_the_right_state(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport={"width": 1280, "height": 900})
    e2e.start_with_bots(page, server, "rita", options="dice=3", bots=("random", "random"))
    page.wait_for_selector("#my-dice-row")
    before = None
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, "no call in time"
        if e2e.my_turn(page) and page.locator("#moves button[data-move='liar']").count():
            before = e2e.state(page)["view"]
            page.click("#moves button[data-move='liar']")
            break
        if e2e.my_turn(page):
            e2e.call_or_bid(page)
        page.wait_for_timeout(30)
    # The reveal plays: the cups lift, the counted dice light up one by one, the verdict.
    rnd = len(before["results"])
    page.wait_for_selector(f"#reveal-stage[data-round='{rnd}']:not([hidden])")
    # The count as it runs, until the verdict; then everything the verdict shows, read in
    # one go inside the page (the verdict stays only a moment: a slow test machine must not
    # read half of this reveal and half of the next round). This server does not hold the
    # next round for the reveal, so quick bots may end it (and the page reveal it instead)
    # before this one's verdict: the first verdict from this round on is read, with its round.
    snapshot_js = """(rnd) => {
        const stage = document.querySelector('#reveal-stage');
        const count = document.querySelector('#reveal-count');
        if (!stage || stage.hidden || !count || +stage.dataset.round < rnd) return null;
        const shown = count.innerText;
        const counts = (window.__counts = window.__counts || {});
        if (stage.dataset.state !== 'verdict') {
            (counts[stage.dataset.round] = counts[stage.dataset.round] || new Set()).add(shown);
            return null;
        }
        const seats = {};
        for (const li of document.querySelectorAll('#seats > li[data-seat]')) {
            const dice = [...li.querySelectorAll('.dice.revealed svg.die')];
            seats[li.dataset.seat] = {
                faces: dice.map(d => +d.dataset.face),
                lost: li.querySelectorAll('.dice.revealed .die.lost').length,
            };
        }
        return {
            count: shown,
            final: count.dataset.final,
            lit: document.querySelectorAll('#seats .dice.revealed .die.lit').length,
            verdict: document.querySelector('#reveal-verdict')?.innerText ?? '',
            seats,
            round: +stage.dataset.round,
            counts: [...(counts[stage.dataset.round] || [])],
        };
    }"""
    seen = page.wait_for_function(snapshot_js, arg=rnd, polling=15, timeout=15_000).json_value()
    st = e2e.state(page)
    res = st["view"]["results"][seen["round"]]
    assert seen["final"] == str(res["count"]), (seen, res)
    assert seen["count"] == str(res["count"]), seen
    assert seen["lit"] == res["count"], seen
    # The count ran up one by one (it was seen at 0 and below the final count on the way).
    if res["count"] > 1:
        assert "0" in seen["counts"] and len(seen["counts"]) >= 2, seen["counts"]
    # Every hand in the reveal is the result's public reveal, on the right seat.
    for i, name in enumerate(st["view"]["names"]):
        assert seen["seats"][str(i)]["faces"] == res["reveal"][name], (name, seen)
    bid_quantity = int(res["bid"].split("x")[0])
    assert ("stands" in seen["verdict"]) == (res["count"] >= bid_quantity), seen
    # The loss: the loser's plate shows the lost dice.
    losers = {st["view"]["names"].index(n): k for n, k in res["losses"].items()}
    for seat, k in losers.items():
        lost = seen["seats"][str(seat)]["lost"]
        assert lost == min(k, len(res["reveal"][st["view"]["names"][seat]]))
    assert e2e.axe_serious(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    e2e.screenshot(page, "reveal.png", full_page=False)
    # The result as text, and the live region says it too.
    text = page.inner_text("#reveal")
    assert f"There {'was' if res['count'] == 1 else 'were'} {res['count']}" in text
    assert "called liar" in page.inner_text("#live").lower()
    # Then the table returns to the next round (or the game's end) with the new counts.
    page.wait_for_selector("#reveal-stage", state="hidden", timeout=8_000)
    st = e2e.state(page)
    left = " left" if st["room"]["status"] == "finished" else ""  # the game ended: its counts
    for i, n in enumerate(st["view"]["dice_counts"]):
        stock = page.inner_text(f"#seats > li[data-seat='{i}'] .stock-text")
        assert stock == ("out" if n == 0 else f"{n} {'die' if n == 1 else 'dice'}{left}")
    e2e.no_page_errors(page)
    page.context.close()


def test_reduced_motion_shows_the_final_state_at_once(browser: Browser, server: str) -> None:
    page = _game(browser, server, "remy", options="dice=1")
    st = _wait_results(page, 1)
    res = st["view"]["results"][0]
    stage = page.locator("#reveal-stage")
    if stage.is_visible():
        assert stage.get_attribute("data-state") == "verdict"  # no counting steps
        assert page.inner_text("#reveal-count") == str(res["count"])
    # No animation is running anywhere on the page.
    running = page.evaluate(
        "() => document.getAnimations().filter(a => a.playState === 'running').length"
    )
    assert running == 0
    e2e.no_page_errors(page)
    page.context.close()


def test_game_log_round_by_round_with_palifico(browser: Browser, server: str) -> None:
    page = _game(browser, server, "lou", options="dice=2", preset="perudo")
    st = _wait_results(page, 1)
    res = st["view"]["results"][0]
    # Round 1 in the log: every bid, the call and the result.
    round1 = page.locator("#log-body li.log-round[data-round='0']")
    entries = round1.locator("li.entry").all_inner_texts()
    assert entries, "round 1 has no entries"
    assert any(res["call"] in e.lower() for e in entries)
    assert "There w" in round1.locator("li.result").inner_text()
    assert res["bid"] in round1.locator("li.entry").evaluate_all(
        "ls => ls.map(l => l.dataset.text)"
    )
    # Somebody is down to one die: round 2 is a palifico round, marked in the log and on
    # the table; its reveal says so.
    if st["room"]["status"] == "playing" and st["view"]["palifico"]:
        page.wait_for_selector("#log-body li.log-round[data-round='1'][data-palifico='true']")
        if page.locator("#reveal-skip").is_visible():
            page.click("#reveal-skip")  # the reveal covers the centre until it ends
        page.wait_for_selector("#reveal-stage", state="hidden")
        assert page.locator("#centre .palifico").is_visible()
        st = _wait_results(page, 2)
        assert "Palifico" in page.inner_text("#reveal")
        # The server marks the result itself (protocol: a result may carry palifico).
        assert st["view"]["results"][1].get("palifico") is True
        assert st["view"]["results"][0].get("palifico", False) is False
        assert page.locator("#log-body li.log-round[data-round='1'] .palifico").count() == 1
    # The log is collapsible.
    page.click("#log summary")
    assert page.locator("#log-body").is_hidden()
    page.click("#log summary")
    assert page.locator("#log-body").is_visible()
    # A reload keeps the log of what this page saw.
    n = page.locator("#log-body li.entry").count()
    page.reload()
    page.wait_for_selector("#log-body li.entry")
    assert page.locator("#log-body li.entry").count() >= n
    e2e.no_page_errors(page)
    page.context.close()


def test_show_and_reroll_by_clicking_dice(browser: Browser, server: str) -> None:
    page = _game(browser, server, "milt", options="dice=3", preset="milton-bradley")
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, "never could show dice"
        if e2e.state(page)["room"]["status"] == "finished":
            page.click("#rematch")  # out of dice before a chance to show: play again
            page.wait_for_function("() => window.liarsdice.state.room.status === 'playing'")
        if e2e.my_turn(page) and page.locator("#my-dice button.die-btn").count() >= 2:
            break
        if e2e.my_turn(page):
            raises = page.locator("#moves .face-row button:not(:disabled)")
            if raises.count():
                raises.first.click()
            else:  # the top bid stands: no raise is left, only the call
                page.locator("#moves button[data-move='liar']").click()
        page.wait_for_timeout(30)
    # No dice picked: the show button says so and can't be pressed.
    assert page.locator("#show-button").is_disabled()
    first = page.locator("#my-dice button.die-btn").first
    face = first.get_attribute("data-face")
    plain = first.evaluate(
        "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).transform]"
    )
    first.click()
    assert first.get_attribute("aria-pressed") == "true"
    # A picked die is obvious: raised and filled (not just a thin ring), with a tick.
    picked = first.evaluate(
        "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).transform]"
    )
    assert picked[0] != plain[0] and picked[1] != plain[1], (plain, picked)
    assert first.evaluate("b => getComputedStyle(b, '::after').content") == '"✓"'
    e2e.screenshot(page, "polish-picked-die.png", full_page=False)
    assert page.locator("#show-button").is_enabled()
    page.click("#show-button")
    # The die is shown on my seat for everyone, and stays in my tray, marked as shown.
    page.wait_for_selector(f"#seats > li.mine .shown svg.die[data-face='{face}']")
    page.wait_for_selector(f"#my-shown svg.die[data-face='{face}']")
    assert "Shown to everyone" in page.inner_text("#my-area")
    # I must raise now (no call).
    e2e.wait_my_turn(page)
    assert page.locator("#moves button[data-move='liar']").count() == 0
    page.locator("#moves .face-row button:not(:disabled)").first.click()
    page.wait_for_selector("#log-body li.entry[data-text^='show ']")
    # The log says a die was shown ("show a four"), not a count ("show four").
    entry = page.inner_text("#log-body li.entry[data-text^='show ']")
    words = ["", "one", "two", "three", "four", "five", "six"]
    assert f"show a {words[int(face or 0)]}" in entry, entry
    e2e.no_page_errors(page)
    page.context.close()


def test_sound_mute_is_remembered(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    page.goto(server + "/")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    # Every effect plays through the Web Audio API without an error.
    page.click("#sound-toggle")  # mute
    page.click("#sound-toggle")  # unmute (a click: audio may start)
    page.evaluate(
        """async () => {
          const s = await import('/static/sound.js');
          for (const fx of ['roll', 'bid', 'turn', 'call', 'lift', 'count', 'lose', 'win', 'tick'])
            s.play(fx, 3);
        }"""
    )
    page.click("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('liarsdice:muted')") == "true"
    e2e.no_page_errors(page)
    page.context.close()


def test_unknown_room_shows_only_the_message(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    page.goto(server + "/r/nosuchroom")
    page.wait_for_selector("#no-room:not([hidden])")
    assert "There is no such room." in page.inner_text("#no-room")
    assert page.locator("#back-to-lobby").get_attribute("href") == "/"
    for hidden in ("#share-url", "#chat-input", "#games", "#seats", "#room-body"):
        assert page.locator(hidden).is_hidden(), hidden
    page.click("#back-to-lobby")
    page.wait_for_selector("#lobby:not([hidden])")
    e2e.no_page_errors(page)
    page.context.close()


def test_keyboard_play_first_game_calls_and_rules(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, reduced_motion="reduce")
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    # Everything by keyboard, with a visible focus ring on each control reached.
    e2e.tab_to(page, "#first-game")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    page.keyboard.press("Enter")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#tips:not([hidden])", timeout=15_000)
    e2e.tab_to(page, "#tip-ok")
    page.keyboard.press("Enter")
    # The rules dialog opens and closes by keyboard (Escape), focus returns to the page.
    e2e.tab_to(page, "#rules-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules-dialog[open]")
    assert page.locator("#rules-list li").count() >= 3
    assert page.evaluate("document.activeElement.id") == "rules-close"
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog:not([open])", state="attached")
    # Bid, then call liar, with Tab and Enter only.
    called = False
    deadline = time.monotonic() + 20
    while not called:
        assert time.monotonic() < deadline, "never got to call liar"
        if not e2e.my_turn(page):
            page.wait_for_timeout(30)
            continue
        if page.locator("#moves button[data-move='liar']").count():
            e2e.tab_to(page, "#moves button[data-move='liar']")
            assert page.evaluate("document.activeElement.matches(':focus-visible')")
            page.keyboard.press("Enter")
            called = True
        else:
            e2e.tab_to(page, "#moves .face-row button:not(:disabled)")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.getElementById('moves-fieldset').disabled"
                " || document.getElementById('moves').hidden"
            )
    page.wait_for_selector("#reveal-stage:not([hidden])")
    e2e.tab_to(page, "#reveal-skip")
    page.keyboard.press("Enter")
    page.wait_for_selector("#reveal-stage", state="hidden")
    # The sound toggle too.
    e2e.tab_to(page, "#sound-toggle")
    page.keyboard.press("Enter")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    e2e.no_page_errors(page)
    page.context.close()


def test_presets_carry_their_rules_in_plain_words(browser: Browser, server: str) -> None:
    """The server's own plain-language rules for every preset (``/api/presets`` ``rules``,
    the same sentences as ``/api/rules``) are what the lobby lists: the client has none."""
    presets = e2e.get_json(f"{server}/api/presets")["presets"]
    missing = [p["name"] for p in presets if not p.get("rules")]
    assert not missing, f"presets without rules from the server: {missing}"
    page = e2e.new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    for p in presets:
        assert all(isinstance(r, str) and r for r in p["rules"]), p["name"]
        page.select_option("#create-preset", p["name"])
        shown = page.locator("#preset-rules-list li").all_text_contents()
        assert shown == p["rules"], p["name"]
    e2e.no_page_errors(page)
    page.context.close()
