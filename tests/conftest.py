"""Shared fixtures: a real PostgreSQL server for the store's tests (see ``pg_util``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_util import SKIP as SKIP_POSTGRES
from pg_util import Cluster, start_cluster


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
