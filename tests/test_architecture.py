"""The architecture, checked: family-agnostic code never asks which family it has.

The layers and the absence of import circles are import-linter's job (``lint-imports`` in
``make test``, contracts in ``pyproject.toml``); this file checks what import-linter cannot: that
the code outside the families' own modules does not branch on a family's types or names
(docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


# ------------------------------------------------------------------ the server's shape
MAX_CLASS_LINES = 400
MAX_OWN_FUNCTION_LINES = 80  # not counting the functions and classes nested in it
MAX_FUNCTION_LINES = 150  # counting them
MAX_ELIF_BRANCHES = 6


def _shape_problems(source: str, where: str) -> list[str]:
    """Classes, functions and ``if``/``elif`` chains of ``source`` over the server's bounds."""
    import ast

    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_CLASS_LINES:
                out.append(f"{where}: class {node.name} has {lines} lines")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            total = (node.end_lineno or node.lineno) - node.lineno + 1
            inner = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            nested = sum(
                (c.end_lineno or c.lineno) - c.lineno + 1
                for c in ast.iter_child_nodes(node)
                for c in ast.walk(c)
                if isinstance(c, inner) and c is not node
            )
            if total - nested > MAX_OWN_FUNCTION_LINES or total > MAX_FUNCTION_LINES:
                out.append(f"{where}: {node.name} has {total - nested} lines ({total} in all)")
        elif isinstance(node, ast.If):
            branches, cur = 1, node
            while len(cur.orelse) == 1 and isinstance(cur.orelse[0], ast.If):
                branches, cur = branches + 1, cur.orelse[0]
            if branches > MAX_ELIF_BRANCHES:
                out.append(f"{where}:{node.lineno}: an if/elif chain of {branches} branches")
    return out


def test_the_server_stays_small_enough_to_change() -> None:
    """No class in ``server/`` over 400 lines, no function over 80 lines of its own (150 with
    the ones nested in it), no ``if``/``elif`` chain over six branches (a ``match`` or a table
    says it better): the shape issue 21 left the server in, kept."""
    problems = [
        p
        for path in sorted((SRC / "server").rglob("*.py"))
        for p in _shape_problems(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
    ]
    assert problems == []


def test_the_shape_check_catches_a_long_chain() -> None:
    chain = "def f(k):\n    if k == 0:\n        pass\n" + "".join(
        f"    elif k == {i}:\n        pass\n" for i in range(1, 7)
    )
    assert _shape_problems(chain, "x.py") == ["x.py:2: an if/elif chain of 7 branches"]
