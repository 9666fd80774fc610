"""The architecture, checked: family-agnostic code never asks which family it has.

The layers are import-linter's job (``lint-imports`` in ``make test``, contracts in
``pyproject.toml``); this file checks what import-linter cannot: that the code outside the
families' own modules does not branch on a family's types or names, that no module imports in
a circle (``TYPE_CHECKING`` imports included), and the one shape rule for all of ``src``
(tests/code_shape.py) (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import code_shape
from liarsdice.families import FAMILIES, family_of, family_of_game, preset_names

SRC = Path(__file__).resolve().parents[1] / "src" / "liarsdice"


def _family_specific(rel: str) -> bool:
    """A module belongs to one family when a folder or file in its path is named after it
    (``core/bidding/state.py``, ``notation/poker/record.py``, ``bots/bidding/prob.py``...)."""
    parts = set(rel.removesuffix(".py").split("/"))
    return bool(parts & {f.name for f in FAMILIES})


def _shared_modules() -> list[tuple[str, str]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not _family_specific(rel) and "/migrations/" not in rel:
            out.append((rel, path.read_text(encoding="utf-8")))
    return out


FAMILY_TYPES = r"(Poker\w*|Rules|State|Game|PlayerView|RoundResult)"
BRANCHES = [
    re.compile(rf"isinstance\([^()]*,\s*\(?[^)]*\b{FAMILY_TYPES}\b"),
    re.compile(r"\bPOKER_PRESETS\b"),
    re.compile(r"""==\s*["'](poker|bidding)["']|["'](poker|bidding)["']\s*=="""),
]


def test_shared_code_never_branches_on_the_family() -> None:
    shared = _shared_modules()
    assert any(rel.startswith("server/") for rel, _ in shared)  # the check sees the server
    assert any(rel.startswith("cli/") for rel, _ in shared)
    found = [
        f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for rel, text in shared
        for pattern in BRANCHES
        for m in pattern.finditer(text)
    ]
    assert found == [], "family branching outside the families' own modules:\n" + "\n".join(found)


def test_the_check_catches_a_branch() -> None:
    sample = "if isinstance(rules, PokerRules):\n    pass\nif family == 'poker':\n    pass\n"
    hits = [p.pattern for p in BRANCHES if p.search(sample)]
    assert len(hits) == 2


# ------------------------------------------------------------------ the browser client
STATIC = SRC / "server" / "static"


def _family_script(name: str) -> bool:
    """A browser module belongs to one family when a word of its file name is the family's
    name (``family-poker.js``, ``family-bidding-moves.js``); the rest are shared."""
    return bool(set(name.removesuffix(".js").split("-")) & {f.name for f in FAMILIES})


def _shared_scripts() -> list[tuple[str, str]]:
    return [
        (path.name, path.read_text(encoding="utf-8"))
        for path in sorted(STATIC.glob("*.js"))
        if not _family_script(path.name)
    ]


def _literal(alternatives: str) -> str:
    return rf"""["'`](?:{alternatives})["'`]"""


_NAMES = "|".join(f.name for f in FAMILIES)
_PRESETS = "|".join(re.escape(name) for f in FAMILIES for name in f.presets)
JS_BRANCHES = [
    re.compile(r"\bis(?:Poker|Bidding)\b"),  # a helper that asks which family
    re.compile(rf"[!=]==?\s*{_literal(_NAMES)}|{_literal(_NAMES)}\s*[!=]==?"),
    re.compile(r"\.family\s*[!=]==?|[!=]==?\s*[\w.]+\.family\b"),  # room.family === ...
    re.compile(rf"[!=]==?\s*{_literal(_PRESETS)}|{_literal(_PRESETS)}\s*[!=]==?"),
    re.compile(rf"\bcase\s+{_literal(_NAMES + '|' + _PRESETS)}"),
]


def _js_branches(shared: list[tuple[str, str]]) -> list[str]:
    return [
        f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for name, text in shared
        for pattern in JS_BRANCHES
        for m in pattern.finditer(text)
    ]


def test_the_browser_client_never_branches_on_the_family() -> None:
    """The browser client's shared modules (``static/*.js`` but the families' own) never ask
    which family a room plays: they call its family object (``static/family.js``)."""
    shared = _shared_scripts()
    names = {name for name, _ in shared}
    assert {"app.js", "table.js", "moves.js", "reveal.js", "log.js", "tips.js"} <= names
    assert "family.js" in names and "family-poker.js" not in names
    assert {p.name for p in STATIC.glob("family-*.js")} >= {"family-bidding.js", "family-poker.js"}
    found = _js_branches(shared)
    assert found == [], "family branching outside the families' own modules:\n" + "\n".join(found)


def test_the_browser_check_catches_a_branch() -> None:
    sample = (
        "const poker = isPoker(S);\n"
        'if (S.room.family === "poker") draw();\n'
        'if ("bidding" !== name) return;\n'
        'const p = record.rules === "poker-dice";\n'
        'switch (family) { case "poker": break; }\n'
        "const f = familyOf(S); f.stock(view, seat); // a family object: fine\n"
    )
    found = _js_branches([("sample.js", sample)])
    assert sorted(int(line.split(":")[1]) for line in found) == [1, 2, 2, 3, 4, 5]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_family_is_complete_and_found_by_the_registry(family: object) -> None:
    from liarsdice.families.base import Family

    assert isinstance(family, Family)
    for name, rules in family.presets.items():
        assert family_of(name) is family and family_of(name.upper()) is family
        assert family.owns_rules(rules)
        game = family.new_game(rules.replace(players=2), ["ann", "bob"])
        assert family_of_game(game) is family
        adapter = family.adapter(game)  # the research bindings' view of the game
        assert isinstance(adapter, family.adapter_type()) and adapter.game is game
        assert family.rules_json(rules)["description"]
    assert family.bots.levels[:2] == ("random", "prob") == tuple(family.bots)[:2]


def test_presets_are_unique_across_families() -> None:
    names = preset_names()
    assert len(names) == len(set(names))


# ------------------------------------------------------------------ the shape of all of src
# The rule, its bounds and its few exceptions are in tests/code_shape.py (also run by
# ``make lint``).


def _shape_problems(source: str, where: str) -> list[str]:
    return [str(p) for p in code_shape.problems(source, where)]


def test_the_code_stays_small_enough_to_change() -> None:
    """No class in ``src`` over 400 lines, no function over 80 lines of its own (150 with the
    ones nested in it) or of cyclomatic complexity over 20, no ``if``/``elif`` chain over six
    branches, but the exceptions listed with their reasons; and no exception left that the
    code no longer needs."""
    found = code_shape.all_problems()
    assert [str(p) for p in found if p.key not in code_shape.EXCEPTIONS] == []
    assert set(code_shape.EXCEPTIONS) <= {p.key for p in found}


def test_no_module_imports_in_a_circle() -> None:
    """Imports at a module's top level, ``TYPE_CHECKING`` ones included, form no circle."""
    assert code_shape.circles(code_shape.import_graph()) == []


def test_the_circle_check_catches_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert code_shape.circles(graph) == [["a", "b", "c"]]


def test_the_shape_check_catches_a_complex_function() -> None:
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(21))
    found = _shape_problems(f"def f(x):\n{body}    return -1\n", "x.py")
    assert found == ["x.py: f complexity 22"]


def test_the_shape_check_catches_a_long_class_and_function() -> None:
    lines = "".join(f"        y{i} = {i}\n" for i in range(81))
    found = _shape_problems(f"class C:\n    def f(self):\n{lines}" + "\n" * 320, "x.py")
    assert found == ["x.py: C.f own lines 82"]


def test_the_shape_check_catches_a_long_chain() -> None:
    chain = "def f(k):\n    if k == 0:\n        pass\n" + "".join(
        f"    elif k == {i}:\n        pass\n" for i in range(1, 7)
    )
    assert _shape_problems(chain, "x.py") == ["x.py:2 if/elif branches 7"]
