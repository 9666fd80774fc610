"""Guards against a hostile client: names that look like a seated one through invisible
characters (default-ignorable code points, blanks, stacked combining marks), and private rooms
leaking through the public player pages."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from liarsdice.server.names import confusable_with, normalize_name
from server_util import client, create

# Invisible tails and stand-ins: each drawn as "ann" (or as nothing).
INVISIBLE = ["\u2800", "\u1160", "\u115f", "\u034f", "\ufe0f", "\u3164", "\uffa0", "\u00ad"]
INVISIBLE += ["\u200b", "\u2060", "\ufeff", "\u17b4", "\u180b", "\U000e0041", "\U0001d173"]


@pytest.mark.parametrize("tail", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_characters_do_not_make_a_name_new(tmp_path: Path, tail: str) -> None:
    with client(tmp_path) as c:
        room = create(c, "ann")["room"]
        inside = [] if tail == "\u2800" else [f"a{tail}nn"]  # (a blank inside is a space)
        for name in [f"ann{tail}", f"{tail}ann{tail}{tail}", *inside]:
            r = c.post(f"/api/rooms/{room}/join", json={"name": name})
            # a format character (zero width space, soft hyphen, tags...) is refused as
            # unprintable when the body is read; the rest are removed, leaving "ann": taken
            expect = (422, "invalid") if unicodedata.category(tail) == "Cf" else (409, "name_taken")
            assert (r.status_code, r.json()["data"]["code"]) == expect, (name, r.text)
        seats = c.get(f"/api/rooms/{room}").json()["data"]["room"]["seats"]
        assert [s["name"] for s in seats] == ["ann"]


@pytest.mark.parametrize(
    "name",
    [
        "\u1160",
        "\u1160\u1160\u1160",
        "\u2800",
        "\u2800 \u2800",
        "\u3164",
        "\u115f\u1160",
        "\u034f\ufe0f",
        "\u3000\u2003\u00a0",
        "a" + "\u0301" * 20,
        "a" + "\u0300\u0301\u0302",
        "\u0301ann",
        "!!!",
        "\u2800.\u2800",
    ],
    ids=repr,
)
def test_blank_and_smeared_names_are_refused(tmp_path: Path, name: str) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/rooms", json={"name": name})
        assert r.status_code == 422 and r.json()["data"]["code"] == "invalid", r.text
        room = create(c, "ann")["room"]
        r = c.post(f"/api/rooms/{room}/join", json={"name": name})
        assert r.status_code == 422 and r.json()["data"]["code"] == "invalid", r.text
        r = c.post("/api/players", json={"name": name})
        assert r.status_code == 422, r.text


def test_visible_names_are_still_welcome(tmp_path: Path) -> None:
    """Accents (two marks on a letter), scripts with marks, spaces inside a name and digits."""
    with client(tmp_path) as c:
        room = create(c, "ann")["room"]
        for name, seated in [
            ("an\u2800n", "an n"),  # a blank inside a name is a space
            ("cy\u0301\u0323", "c\u1ef5\u0301"),  # two marks on a letter
            ("\u0e01\u0e35\u0e48", "\u0e01\u0e35\u0e48"),  # Thai: a consonant, a vowel and a tone
            ("7", "7"),
        ]:
            r = c.post(f"/api/rooms/{room}/join", json={"name": name})
            assert r.status_code == 201, (name, r.text)
            seats = c.get(f"/api/rooms/{room}").json()["data"]["room"]["seats"]
            assert seats[-1]["name"] == seated


def test_names_are_compared_as_drawn() -> None:
    assert normalize_name("\u2800ann\u3164\u2800") == "ann"
    assert normalize_name("a\u034f\u0301nn") == "\u00e1nn"  # the mark joins its letter again
    # seated names from before the rules (in an old log) are compared as drawn too
    assert confusable_with("ann", ["ann\u2800", "bob"]) == "ann\u2800"
    assert confusable_with("\u0430nn", ["a\u200bnn"]) == "a\u200bnn"
    assert confusable_with("ann\ufe0f", ["ann"]) == "ann"
    assert confusable_with("an n", ["ann"]) is None
    with pytest.raises(ValueError, match="combining marks"):
        normalize_name("a" + "\u0301" * 20)
    with pytest.raises(ValueError, match="letter or a digit"):
        normalize_name("\u2800-\u2800")
    with pytest.raises(ValueError, match="empty"):
        normalize_name("\u1160\u115f\u2800")
