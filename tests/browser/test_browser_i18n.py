"""The browser client in Spanish (docs/I18N.md): a browser whose language is Spanish
(``locale="es-ES"``) gets the lobby and the table in Spanish (the moves panel, the game log's
bids), with no English sentence of the catalogue left on the page; the language switch in the
header changes the language and the choice is remembered; axe-core finds no serious or
critical violation in Spanish; the rules (the lobby's and the room's dialog) are the server's
sentences in Spanish. Screenshots: tests/artifacts/lobby-es.png, table-es.png, rules-es.png.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import TYPE_CHECKING

import e2e_util as e2e
from liarsdice.i18n.build import json_path

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LAPTOP = {"width": 1280, "height": 900}
CATALOGUE = json.loads(json_path("browser", "es").read_text(encoding="utf-8"))


def english_sentences() -> list[str]:
    """The catalogue's English that Spanish says otherwise, where it can't be mistaken for a
    name or notation: whole messages of at least two words, without placeholders or markup."""
    out = []
    for key, value in CATALOGUE["messages"].items():
        if "\x04" in key or "{" in key or "<" in key or not isinstance(value, str):
            continue
        if value != key and len(key) >= 10 and " " in key.strip():
            out.append(key)
    return out


def visible_english(page: Page) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    flat = re.sub(r"\s+", " ", text)
    return [s for s in english_sentences() if s in flat]


def test_the_catalogue_has_the_sentences_this_test_looks_for() -> None:
    assert CATALOGUE["language"] == "es" and CATALOGUE["plural"] == "(n != 1)"
    assert len(english_sentences()) > 200


def test_lobby_and_table_in_spanish(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, locale="es-ES", viewport=LAPTOP, reduced_motion="reduce")
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    assert page.evaluate("() => document.documentElement.lang") == "es"
    assert page.locator("#lobby-h").inner_text() == "Farolea hasta el último dado"
    assert page.locator("#create-button").inner_text() == "Crear la sala"
    assert page.locator("#nav-leaderboard").inner_text() == "Clasificación"
    assert page.locator("#language").input_value() == "es"
    assert page.locator("#create-preset option[value=classic]").inner_text() == "Clásico"
    assert page.locator("#my-name").get_attribute("placeholder") == (
        "Déjalo vacío para un nombre de invitado"
    )
    page.wait_for_timeout(300)  # the open rooms' list
    # the preset's rules are the server's (the terminal's sentences), in Spanish
    classic = e2e.get_json(f"{server}/api/rules?lang=es")["presets"]["classic"]
    assert page.locator("#preset-desc").inner_text() == classic["description"]
    page.click("#preset-rules summary")
    assert page.locator("#preset-rules-list li").all_inner_texts() == classic["rules"]
    assert visible_english(page) == []
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "lobby-es.png")

    e2e.start_with_bots(page, server, "Ana", bots=("random", "random"))
    e2e.wait_my_turn(page)
    moves = page.locator("#moves").inner_text()
    assert "¿Cuántos?" in moves and "¿De qué cara? Pulsa para apostar." in moves
    label = page.locator("#moves .face-row button").first.get_attribute("aria-label") or ""
    assert label.startswith("Apostar "), label
    bid = e2e.least_bid(page)
    # my bid in the log, in the second person, the bid in Spanish words
    page.wait_for_selector(f"#log-body .entry[data-text='{bid}']")
    mine = page.locator(f"#log-body .entry[data-text='{bid}']").first.inner_text()
    quantity, face = bid.split("x")
    assert mine.startswith("Tú apuestas "), mine
    word = ["one", "two", "three", "four", "five", "six"][int(face) - 1]
    faces = CATALOGUE["messages"][f"face\x04{word}"]
    assert faces[0 if quantity == "1" else 1] in mine, (mine, faces)
    # a computer player's move after mine: "apuesta ..." or "duda"
    page.wait_for_function(
        "(bid) => [...document.querySelectorAll('#log-body .entry')].some("
        "(e) => e.dataset.text !== bid && /(apuesta|duda|calza) /.test(e.innerText + ' '))",
        arg=bid,
        timeout=15_000,
    )
    assert page.locator("#log-body h4").first.inner_text().startswith("Ronda 1")
    assert page.locator("#room-meta").inner_text().startswith("Partida 1 en juego")
    assert visible_english(page) == []
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "table-es.png")
    # the rules dialog: the room's rules (dice=2) as the server says them, in Spanish
    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open] #rules-list li")
    shown = page.locator("#rules-list li").all_inner_texts()
    room = e2e.get_json(f"{server}/api/rules/classic?lang=es&options=%7B%22dice%22%3A%222%22%7D")
    assert shown == room["rules"]
    assert shown[0].startswith("Cada jugador empieza con 2 dados") and "5 dados" not in str(shown)
    e2e.screenshot(page, "rules-es.png")
    e2e.no_page_errors(page)


def test_spanish_fits_a_phone(browser: Browser, server: str) -> None:
    """The longer Spanish words (and the switch in the header) still fit a phone's width."""
    phone = {"width": 375, "height": 740}
    page = e2e.new_page(browser, locale="es-ES", viewport=phone, is_mobile=True, has_touch=True)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    assert page.locator("#language").is_visible()
    assert e2e.horizontal_overflow(page) == 0
    e2e.screenshot(page, "lobby-es-phone.png")
    e2e.start_with_bots(page, server, "Eva", bots=("random",))
    page.wait_for_selector("#my-dice-row")
    assert e2e.horizontal_overflow(page) == 0
    e2e.screenshot(page, "table-es-phone.png")
    e2e.no_page_errors(page)


def test_poker_dice_in_spanish(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, locale="es", viewport=LAPTOP, reduced_motion="reduce")
    e2e.start_with_bots(page, server, "Bea", options="", preset="poker-dice", bots=("random",))
    e2e.wait_my_turn(page, timeout=15_000)
    moves = page.locator("#moves").inner_text()
    assert "Canta una jugada:" in moves or "¡Dudo!" in moves or "Aceptar el cubilete" in moves, (
        moves
    )
    assert page.locator("#my-h").inner_text() == "Lo que ves del cubilete"
    assert visible_english(page) == []
    e2e.no_page_errors(page)


SPANISH_TITLE = "Farolea hasta el último dado"


def _shows(page: Page, selector: str, text: str) -> str:
    """The element's text once it reads ``text`` (the page translates itself after it loads:
    reading at once can catch the English it starts with), or what it read after 10 s."""
    with contextlib.suppress(Exception):  # the caller's assertion names what was there
        page.wait_for_function(
            "([sel, text]) => document.querySelector(sel)?.innerText === text",
            arg=[selector, text],
            timeout=10_000,
        )
    return page.locator(selector).inner_text()


def test_the_switch_changes_the_language_and_is_remembered(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser, viewport=LAPTOP)
    page.goto(server + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.locator("#lobby-h").inner_text() == "Bluff your way to the last die"
    assert page.locator("label[for=language]").inner_text() == "Language"
    with page.expect_navigation():
        page.select_option("#language", "es")
    page.wait_for_selector("#create-preset option", state="attached")
    assert page.evaluate("() => document.documentElement.lang") == "es"
    assert _shows(page, "#lobby-h", SPANISH_TITLE) == SPANISH_TITLE
    # remembered: a reload, and another page of the same browser (the leaderboard)
    page.reload()
    assert _shows(page, "#lobby-h", SPANISH_TITLE) == SPANISH_TITLE
    page.goto(server + "/leaderboard")
    page.wait_for_selector("#leaderboard-h")
    assert _shows(page, "#leaderboard-h", "Clasificación") == "Clasificación"
    page.wait_for_selector("#leaderboard-content > *")
    assert visible_english(page) == []
    assert page.locator("#language").is_visible()
    assert page.locator("#language").input_value() == "es"
    # and back to English, whatever the browser's language
    with page.expect_navigation():
        page.select_option("#language", "en")
    page.wait_for_selector("#leaderboard-h")
    assert _shows(page, "#leaderboard-h", "Leaderboard") == "Leaderboard"
    assert page.evaluate("() => document.documentElement.lang") == "en"
    e2e.no_page_errors(page)
