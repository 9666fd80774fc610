"""Settings for every test, doctests included: the solver's disk cache in a directory of the
test session's own, so that no result depends on what a user has solved into theirs
(``liarsdice solve --cache`` makes the expert play the equilibrium of larger games)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from liarsdice.solve.cache import CACHE_ENV

# liarsdice.jax needs the optional `jax` extra (`dev` has it): without JAX, neither its
# doctests nor its tests (tests/jax/) are collected
_NO_JAX = ["src/liarsdice/jax/*", "tests/jax/*"]
collect_ignore_glob = [] if importlib.util.find_spec("jax") else _NO_JAX


@pytest.fixture(autouse=True, scope="session")
def _session_policy_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("policy-cache")))
        yield
