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

# Modules that belong to one family: its engine, notation, bots, solver and family object.
BIDDING_ONLY = {
    "core/bid.py",
    "core/game.py",
    "core/ladder.py",
    "core/rules.py",
    "core/state.py",
    "core/view.py",
    "core/__init__.py",
    "notation/bids.py",
    "notation/record.py",
    "notation/text.py",
    "odds.py",
}
BIDDING_DIRS = ("solve/", "families/bidding/")
BIDDING_BOTS = ("bots/random_bot.py", "bots/prob.py", "bots/bayes.py", "bots/expert.py")


def _family_specific(rel: str) -> bool:
    return (
        "poker" in rel
        or rel in BIDDING_ONLY
        or rel.startswith(BIDDING_DIRS)
        or rel.startswith(BIDDING_BOTS)
        or rel.startswith("bots/nash")
    )


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


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_family_is_complete_and_found_by_the_registry(family: object) -> None:
    from liarsdice.families.base import Family

    assert isinstance(family, Family)
    for name, rules in family.presets.items():
        assert family_of(name) is family and family_of(name.upper()) is family
        assert family.owns_rules(rules)
        game = family.new_game(rules.replace(players=2), ["ann", "bob"])
        assert family_of_game(game) is family
        assert family.rules_json(rules)["description"]
    assert family.bot_names()[:2] == ("random", "prob")


def test_presets_are_unique_across_families() -> None:
    names = preset_names()
    assert len(names) == len(set(names))
