"""Helpers for the browser end-to-end tests (not a test module): Debian's chromium, a real
``liarsdice serve`` process, and small Playwright helpers.

The tests drive ``/usr/bin/chromium`` through Playwright for Python (``pip install
'liarsdice[dev]'``); Playwright's own browser download is never used. When chromium is
missing it is installed with apt (as root, or with ``sudo -n``); when that fails the tests
fail with the reason. ``LIARSDICE_SKIP_BROWSER=1`` skips them instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from websockets.sync.client import connect

from apt_util import ensure_installed, free_port

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def skip_requested() -> bool:
    return os.environ.get("LIARSDICE_SKIP_BROWSER") == "1"


def ensure_chromium() -> str:
    """The chromium executable, installing Debian's package when it is missing.

    Fails the test (never skips, unless ``LIARSDICE_SKIP_BROWSER=1``) when it can't be had.
    """
    if skip_requested():
        pytest.skip("LIARSDICE_SKIP_BROWSER=1: browser tests skipped")

    def find() -> str | None:
        return str(CHROMIUM) if CHROMIUM.exists() else None

    return ensure_installed("chromium", "LIARSDICE_SKIP_BROWSER", find, str(CHROMIUM))


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read().decode())


def post_json(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read().decode())


def finished_game(
    server: str,
    preset: str = "classic",
    options: Any = None,
    *,
    name: str = "ann",
    level: str = "random",
    **body: Any,
) -> str:
    """A room (``options``: three dice unless given; ``body``: more of the create request,
    such as a ``player_token``) whose game 1 is over: ``name`` and two bots of ``level``;
    ``name`` leaves at the start and a computer plays the seat. The room's id."""
    opts = {"dice": 3} if options is None else options
    room = post_json(
        f"{server}/api/rooms", {"preset": preset, "name": name, "options": opts, **body}
    )
    rid: str = room["room"]
    ws_url = server.replace("http://", "ws://") + f"/ws/rooms/{rid}"
    with connect(ws_url, origin=server) as ws:  # type: ignore[arg-type]

        def send(type_: str, **data: Any) -> None:
            ws.send(json.dumps({"type": type_, "version": 1, "data": data}))
            while json.loads(ws.recv(timeout=10))["data"].get("reply_to") != data["id"]:
                pass

        ws.send(json.dumps({"type": "hello", "version": 1, "data": {"token": room["token"]}}))
        send("add_bot", level=level, id="b1")
        send("add_bot", level=level, id="b2")
        send("start", id="s")
        ws.send(json.dumps({"type": "leave", "version": 1, "data": {}}))  # a bot plays on
        time.sleep(0.2)
    deadline = time.monotonic() + 30
    while get_json(f"{server}/api/rooms/{rid}")["data"]["room"]["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.1)
    return rid


@contextlib.contextmanager
def live_server(
    tmp: Path,
    bot_delay: float = 0.05,
    *,
    db: bool = True,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    args: tuple[str, ...] = (),
) -> Iterator[str]:
    """Run ``liarsdice serve`` on a free port with its own database (``db=False``: the
    default one) and any further ``args``; yields the base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp / "server.log"
    cmd = [
        sys.executable,
        "-c",
        "from liarsdice.cli.main import main; main()",
        "serve",
        "--port",
        str(port),
        *(["--db", f"sqlite+aiosqlite:///{tmp / 'e2e.db'}"] if db else []),
        "--bot-delay",
        str(bot_delay),
        *args,
    ]
    full_env = None if env is None else {**os.environ, **env}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=full_env, cwd=cwd)
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    pytest.fail(f"the server exited ({proc.returncode}):\n{log_path.read_text()}")
                try:
                    if get_json(base + "/api/health")["ok"]:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not come up:\n{log_path.read_text()}")
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextlib.contextmanager
def browser_server(
    tmp: Path, reveal: str | None = "0", more: tuple[str, ...] = ()
) -> Iterator[str]:
    """The browser tests' ``liarsdice serve`` (see :func:`live_server`), with quick bots: every
    page is a new browser, so a new guest player and rooms, all from 127.0.0.1 (no per-address
    HTTP request rate or join limits for loopback). ``reveal``: the seconds a reveal may hold
    the next round after a call (``--reveal``; None: the server's default); ``more``: further
    arguments. Skips
    (``LIARSDICE_SKIP_BROWSER=1``) before starting it."""
    ensure_chromium()
    args = ("--rooms-per-ip", "1000", "--exempt-loopback")
    if reveal is not None:
        args += ("--reveal", reveal)
    with live_server(tmp, bot_delay=0.05, args=args + more) as base:
        yield base


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector`` (fails after ``limit``)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def horizontal_overflow(page: Page) -> int:
    """How many CSS pixels the page is wider than the viewport (0: no horizontal scroll).

    Measured with motion reduced for the moment: the layout, not where a die happens to be in
    the middle of a roll (the table clips its animations; this keeps the check deterministic
    on a loaded machine)."""
    reduced = page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.emulate_media(reduced_motion="reduce")
    try:
        width: int = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    finally:
        page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    return width


# Every die with a face drawn on the page that this page's view does not hold as its own:
# held dice ("svg.die" without "glyph": pictures of a face in a bid or on a button don't
# count) outside the player's own dice ("data-src=mine"), the public reveal, shown dice and
# the replay. In games without shown dice or an open stash this must be empty.
FOREIGN_DICE_JS = """() => {
  const dice = [...document.querySelectorAll("svg.die:not(.glyph)")];
  const pub = new Set(["mine", "reveal", "shown", "outside", "stash", "replay", "cup"]);
  const foreign = dice.filter((d) => !pub.has(d.dataset.src) && !d.closest("#replay"));
  const hidden = dice.filter((d) => d.dataset.src === "mine" || d.dataset.src === "cup")
    .filter((d) => !d.closest("#my-dice"));
  const rows = [...document.querySelectorAll("#my-dice [data-seat]")];
  return {foreign: foreign.length + hidden.length, seats: rows.map((r) => Number(r.dataset.seat))};
}"""

# The dice this page shows as its own: {seat, game, round, faces} or null.
MY_DICE_JS = """() => {
  const row = document.getElementById("my-dice-row");
  if (!row) return null;
  return {seat: Number(row.dataset.seat), game: Number(row.dataset.game),
          round: Number(row.dataset.round),
          faces: [...row.querySelectorAll("svg.die")].map((d) => Number(d.dataset.face))};
}"""


# Screenshots (not committed). The browser and server fixtures are in conftest.py.
ARTIFACTS = Path(__file__).parent / "artifacts"


# Uncaught JavaScript errors, per page: tests end by checking there were none.
PAGE_ERRORS: dict[Any, list[str]] = {}


def new_page(browser: Any, **context: Any) -> Page:
    """A page in a fresh context (its own localStorage), recording uncaught errors. The
    browser's language is English (``locale="en-US"``: the page speaks the browser's language,
    docs/I18N.md) unless ``locale`` says otherwise."""
    context.setdefault("locale", "en-US")
    page: Page = browser.new_context(**context).new_page()
    page.set_default_timeout(10_000)
    errors = PAGE_ERRORS.setdefault(page, [])
    page.on("pageerror", lambda err: errors.append(str(err)))
    return page


def no_page_errors(page: Page) -> None:
    assert not PAGE_ERRORS.get(page), PAGE_ERRORS.get(page)


def create_room(
    page: Page,
    base: str,
    name: str,
    options: str = "dice=2",
    preset: str = "classic",
    private: bool = False,
) -> str:
    """Create a room through the lobby form; returns the room id."""
    page.goto(base + "/")
    page.wait_for_selector("#create-preset option", state="attached")
    page.fill("#my-name", name)
    page.select_option("#create-preset", preset)
    if options:
        page.click(".more-options summary")
        page.fill("#create-options", options)
    if private:
        page.check("#create-private")
    page.click("#create-button")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("#host-controls:not([hidden])")
    return page.url.rsplit("/r/", 1)[1].split("#")[0]


def start_with_bots(
    page: Page, base: str, name: str, bots: tuple[str, ...] = ("random",), **room_opts: Any
) -> str:
    """Create a room through the lobby (``room_opts``: :func:`create_room`'s), seat bots of
    the levels ``bots`` and start the game; returns the room id."""
    room = create_room(page, base, name, **room_opts)
    for level in bots:
        add_bot(page, level)
    page.click("#start")
    return room


def seat_count(page: Page) -> int:
    return page.locator("#seats > li").count()


def wait_seats(page: Page, n: int) -> None:
    page.wait_for_function("(n) => document.querySelectorAll('#seats > li').length === n", arg=n)


def add_bot(page: Page, level: str) -> None:
    n = seat_count(page)
    page.select_option("#bot-level", level)
    page.click("#add-bot")
    wait_seats(page, n + 1)


def my_turn(page: Page) -> bool:
    result: bool = page.evaluate(
        "() => !document.getElementById('moves').hidden"
        " && !document.getElementById('moves-fieldset').disabled"
    )
    return result


def set_timer(page: Page, seconds: int) -> None:
    """As the host: set the room's turn timer and wait until the room shows it."""
    page.fill("#timer", str(seconds))
    page.click("#set-timer")
    page.wait_for_function(
        "(s) => document.getElementById('room-meta').textContent.includes(s + ' s per move')",
        arg=seconds,
    )


def wait_my_turn(page: Page, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "() => !document.getElementById('moves').hidden"
        " && !document.getElementById('moves-fieldset').disabled",
        timeout=timeout,
    )


def call_or_bid(page: Page) -> str:
    """On the player's turn: call liar when possible, else the least bid; the move's notation."""
    liar = page.locator("#moves button[data-move='liar']")
    if liar.count():
        liar.click()
        return "liar"
    return least_bid(page)


def play_to_reveal(page: Page, limit: float = 30) -> dict[str, Any]:
    """Call (or bid the least) on every turn until the server holds a round's reveal (fails
    after ``limit`` seconds); the room's reveal phase."""
    deadline = time.monotonic() + limit
    while not (state(page)["room"] or {}).get("reveal"):
        assert time.monotonic() < deadline, "no call in time"
        if my_turn(page):
            call_or_bid(page)
        page.wait_for_timeout(30)
    phase: dict[str, Any] = state(page)["room"]["reveal"]
    return phase


def least_bid(page: Page) -> str:
    """Click the first enabled face at the selected quantity; returns the move's notation."""
    button = page.locator("#moves .face-row button:not(:disabled)").first
    text: str = button.get_attribute("data-move") or ""
    button.click()
    return text


def state(page: Page) -> Any:
    """What the page knows (window.liarsdice.state: only what the server sent it)."""
    return page.evaluate(
        "() => JSON.parse(JSON.stringify({seat: window.liarsdice.state.seat,"
        " room: window.liarsdice.state.room, view: window.liarsdice.state.view}))"
    )


def axe_serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, as readable lines."""
    from axe_playwright_python.sync_playwright import Axe

    # Judge the settled page: finish the finite animations running now (a number fading
    # in has a low contrast for a moment).
    page.evaluate(
        "() => document.getAnimations().forEach(a => {"
        " if (a.effect && a.effect.getTiming().iterations !== Infinity) a.finish(); })"
    )
    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"]][:5]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} {targets}")
    return out


def screenshot(page: Page, name: str, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=full_page)
    return path
