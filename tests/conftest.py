"""The tests' fixtures, all here (a ``conftest.py`` in a test folder would clash with this
one: pytest's ``--doctest-modules`` imports every ``conftest.py`` outside a package under
the one name ``conftest``):

* a real PostgreSQL server for the store's tests (see ``pg_util``);
* a real Redis server for the cluster's tests (see ``redis_util``;
  ``LIARSDICE_SKIP_REDIS=1`` skips them);
* a local Ray for the tests of the arena and self-play on Ray (``arena/test_ray.py``):
  ``ray.init`` in the test process, two CPUs, one per test module (``ray_local``); skipped
  with the reason when Ray is not installed (``pip install 'liarsdice[ray]'``, in the dev
  extras); ``LIARSDICE_SKIP_RAY=1`` skips them;
* English for every command the tests run (``LANGUAGE=en``, whatever the machine's locale:
  the game speaks the environment's language, ``docs/I18N.md``);
* for the browser tests (``browser/``): Debian's chromium through Playwright and a real
  ``liarsdice serve`` process, one of each per test module (see ``e2e_util`` for the
  chromium requirement; ``LIARSDICE_SKIP_BROWSER=1`` skips these tests).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from e2e_util import CHROMIUM_ARGS, browser_server, ensure_chromium
from pg_util import SKIP as SKIP_POSTGRES
from pg_util import Cluster, start_cluster
from redis_util import SKIP as SKIP_REDIS
from redis_util import RedisServer, start_redis

if TYPE_CHECKING:
    from playwright.sync_api import Browser


BROWSER_TESTS = Path(__file__).parent / "browser"
SKIP_RAY = os.environ.get("LIARSDICE_SKIP_RAY") == "1"


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is slow (a real browser against a real server)."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests expect English: a Spanish locale on the machine must not change them (a test
    of the language choice sets its own environment)."""
    monkeypatch.setenv("LANGUAGE", "en")


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    """A local Ray (two CPUs, no dashboard) for one test module, shut down after it: the
    commands' ``--ray auto`` joins it (``liarsdice.parallel.ray_cluster``: Ray already
    initialised in the process is used as it is). ``LIARSDICE_SKIP_RAY=1`` skips."""
    if SKIP_RAY:
        pytest.skip("LIARSDICE_SKIP_RAY=1")
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is not installed: pip install 'liarsdice[ray]' (or the dev extras)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for the session (``LIARSDICE_SKIP_POSTGRES=1``
    skips the tests that use it)."""
    if SKIP_POSTGRES:
        pytest.skip("LIARSDICE_SKIP_POSTGRES=1")
    yield from start_cluster()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a new, empty PostgreSQL database (asyncpg driver)."""
    return pg_cluster.url(pg_cluster.new_database())


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One throwaway Redis server for the session: ``.url`` (``redis://127.0.0.1:PORT/0``),
    ``.stop()``, ``.start()``, ``.restart()`` (the same port), ``.kill()`` (as a crash).
    ``LIARSDICE_SKIP_REDIS=1`` skips the tests that use it. A test that stops it leaves it
    running again at its end (``start()``); the data is not kept across a restart."""
    if SKIP_REDIS:
        pytest.skip("LIARSDICE_SKIP_REDIS=1")
    yield from start_redis()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, through Playwright."""
    chromium = ensure_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install 'playwright>=1.40' (dev extras)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A ``liarsdice serve`` with its own database and quick bots; yields its base URL."""
    # No pause after a call (--reveal 0) unless the module says otherwise with ``REVEAL`` (the
    # seconds, or None for the server's default): the reveal phase has its own tests
    # (browser/test_browser_reveal*.py); the others play on at the pace they always did.
    reveal = getattr(request.module, "REVEAL", "0")
    tmp = tmp_path_factory.mktemp(request.module.__name__ + "-server")
    with browser_server(tmp, reveal) as base:
        yield base
