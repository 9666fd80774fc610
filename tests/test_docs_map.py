"""docs/ARCHITECTURE.md is the map of the code: every file, folder and module it names exists.

A name counts as found when it is a path from the repository's root or from
``src/liarsdice`` (``core/api.py``, ``server/``), the tail of such a path (``room/turns.py``),
or a dotted module (``liarsdice.families.base``, or a name defined in one:
``liarsdice.families.base.Family``).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "liarsdice"
MAP = ROOT / "docs" / "ARCHITECTURE.md"

_PATH = re.compile(r"`([\w./-]+(?:\.py|\.js|\.md|\.json|/))`")
_MODULE = re.compile(r"\bliarsdice(?:\.\w+)+")


def _known_paths() -> set[str]:
    found = {p.name + ("/" if p.is_dir() else "") for p in ROOT.iterdir()}
    for top in (SRC, ROOT / "tests", ROOT / "bench", ROOT / "docs"):
        for path in top.rglob("*"):
            for base in (ROOT, SRC):
                if path.is_relative_to(base):
                    rel = path.relative_to(base).as_posix()
                    found.add(rel + "/" if path.is_dir() else rel)
    return found


def _path_exists(name: str, known: set[str]) -> bool:
    return name in known or any(k.endswith("/" + name) for k in known)


def _module_exists(dotted: str) -> bool:
    """``dotted`` is a module, or a name (possibly ``Class.attribute``) in one."""
    first, *rest = dotted.split(".")
    thing: object = importlib.import_module(first)
    name = first
    for part in rest:
        name = f"{name}.{part}"
        if hasattr(thing, "__path__") and importlib.util.find_spec(name) is not None:
            thing = importlib.import_module(name)
        elif hasattr(thing, part):
            thing = getattr(thing, part)
        else:
            return False
    return True


def missing(text: str) -> list[str]:
    """The names of ``text`` that name nothing in the repository."""
    known = _known_paths()
    out = [name for name in _PATH.findall(text) if not _path_exists(name, known)]
    out += [name for name in _MODULE.findall(text) if not _module_exists(name)]
    return sorted(set(out))


def test_every_path_and_module_the_map_names_exists() -> None:
    assert missing(MAP.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see `core/api.py` and `room/turns.py`", []),
        ("see `core/nothing.py` and `server/`", ["core/nothing.py"]),
        ("liarsdice.families.base.Family and liarsdice.core.bidding.state", []),
        ("liarsdice.server.room.nothing", ["liarsdice.server.room.nothing"]),
    ],
)
def test_the_check_catches_a_name_that_moved(text: str, found: list[str]) -> None:
    assert missing(text) == found
