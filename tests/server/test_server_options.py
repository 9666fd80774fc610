"""Room options from the network: any JSON value for any option of any preset gets a clear 400
(naming the option) or a room, never a server error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liarsdice.families import FAMILIES, family_of, preset_names
from liarsdice.server.app import create_app
from liarsdice.server.config import Settings
from liarsdice.server.limits import Limits
from liarsdice.server.room.state import build_game
from server_util import TestClient  # imported there without starlette's warning

# Every option name any family knows, plus a few it does not.
OPTION_NAMES = sorted(
    {name for f in FAMILIES for rules in f.presets.values() for name in rules.options()}
    | {"nonsense", "players", "name"}
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@pytest.mark.parametrize(
    ("preset", "options", "word"),
    [
        ("poker-dice", {"dice": [1, 2]}, "dice"),
        ("poker-dice", {"lives": None}, "lives"),
        ("poker-dice", {"lives": "many"}, "lives"),
        ("poker-dice", {"five_of_a_kind_rule": 3}, "five_of_a_kind_rule"),
        ("classic", {"dice": [1, "x"]}, "dice"),
        ("classic", {"wild": True}, "wild"),
    ],
)
def test_bad_options_are_named(preset: str, options: dict[str, Any], word: str) -> None:
    from liarsdice.core.errors import RulesError

    family = family_of(preset)
    with pytest.raises(RulesError, match=word):
        family.rules(preset, options, 2)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(preset_names()),
    options=st.dictionaries(st.sampled_from(OPTION_NAMES), JSON_VALUES, max_size=3),
)
def test_any_json_options_never_crash_the_rules(preset: str, options: dict[str, Any]) -> None:
    """The family's option reader: rules, or a RulesError (a ValueError) that names the option."""
    family = family_of(preset)
    try:
        rules = family.rules(preset, options, 2)
    except ValueError as err:  # a RulesError: named (one option at a time is checked above)
        assert str(err), options
        if len(options) == 1:
            assert next(iter(options)).lower() in str(err).lower(), (options, err)
        return
    game = build_game(preset, options, ["ann", "bob"], None)
    assert game.rules == rules


def test_any_json_options_get_400_not_500(tmp_path: Path) -> None:
    """Through the HTTP API: arbitrary JSON values at every option of every preset."""
    seen: set[int] = set()

    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        preset=st.sampled_from(preset_names()),
        options=st.dictionaries(st.sampled_from(OPTION_NAMES), JSON_VALUES, max_size=3),
    )
    def post(c: Any, preset: str, options: dict[str, Any]) -> None:
        r = c.post("/api/rooms", json={"preset": preset, "name": "ann", "options": options})
        seen.add(r.status_code)
        assert r.status_code in (201, 400, 422), (r.status_code, r.text)
        if r.status_code == 400:
            assert r.json()["data"]["code"] == "bad_rules"

    server = Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'o.db'}", bot_delay=0.0)
    # one test client creates every room: lift the per-IP cap on room creation
    with TestClient(create_app(server, Limits(rooms_per_ip=10**6))) as c:
        post(c)
    assert 400 in seen and 201 in seen
