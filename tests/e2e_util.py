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
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from apt_util import apt_install

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
    if CHROMIUM.exists():
        return str(CHROMIUM)
    apt_install("chromium", "LIARSDICE_SKIP_BROWSER")
    if not CHROMIUM.exists():
        pytest.fail(f"the chromium package did not install {CHROMIUM}")
    return str(CHROMIUM)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read().decode())


@contextlib.contextmanager
def live_server(
    tmp: Path,
    bot_delay: float = 0.05,
    *,
    db: bool = True,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> Iterator[str]:
    """Run ``liarsdice serve`` on a free port with its own database (``db=False``: the
    default one); yields the base URL."""
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


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector`` (fails after ``limit``)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def horizontal_overflow(page: Page) -> int:
    """How many CSS pixels the page is wider than the viewport (0: no horizontal scroll)."""
    width: int = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return width


# Every die drawn on the page outside the player's own dice and the public reveals/replay:
# in games without shown dice or an open stash this must be empty.
FOREIGN_DICE_JS = """() => {
  const dice = [...document.querySelectorAll("svg.die")];
  const foreign = dice.filter((d) => !d.closest("#my-dice, #reveal, #history, #replay"));
  const rows = [...document.querySelectorAll("#my-dice [data-seat]")];
  return {foreign: foreign.length, seats: rows.map((r) => Number(r.dataset.seat))};
}"""

# The dice this page shows as its own: {seat, game, round, faces} or null.
MY_DICE_JS = """() => {
  const row = document.getElementById("my-dice-row");
  if (!row) return null;
  return {seat: Number(row.dataset.seat), game: Number(row.dataset.game),
          round: Number(row.dataset.round),
          faces: [...row.querySelectorAll("svg.die")].map((d) => Number(d.dataset.face))};
}"""
