"""The rules core's structure (issue 42): every state reads its game's precomputed tables
through one public frozen record, no module of the core reads another object's private
attributes, and the names other packages import from the core's modules stay where they are
imported from (the records and the games moved below or beside the states)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

from liarsdice.core.bidding import Game, preset
from liarsdice.core.bidding.tables import GameTables

CORE = Path(__file__).resolve().parents[2] / "src" / "liarsdice" / "core"

# module -> the names other packages (and the tests) import from it
IMPORTED = {
    "liarsdice.core.bidding.state": [
        "Game", "Phase", "Question", "RoundResult", "State", "Table", "game_winner_after",
        "settle_challenge", "_BOUGHT", "_MUST_RAISE", "_next_seats", "_single_round_table",
        "_start_round",
    ],
    "liarsdice.core.bidding.game": [
        "BID_BASE", "BUY", "CHANCE", "EXACT", "LIAR", "NO_SHOW", "SHOW_BASE", "TERMINAL", "Game",
    ],
    "liarsdice.core.bidding.view": ["PlayerView"],
    "liarsdice.core.bidding.tensors": ["Encoder", "FloatTensor", "TensorLayout", "must_raise"],
    "liarsdice.core.poker.state": ["FIVE_ROLLS", "Phase", "PokerRoundResult", "PokerState"],
    "liarsdice.core.poker.game": ["ACCEPT", "LIAR", "PokerGame"],
    "liarsdice.core.poker.view": ["PokerView"],
}  # fmt: skip


@pytest.mark.parametrize("module", sorted(IMPORTED))
def test_names_other_packages_import_stay_importable(module: str) -> None:
    loaded = importlib.import_module(module)
    assert [name for name in IMPORTED[module] if not hasattr(loaded, name)] == []


def test_the_game_and_its_states_are_one_class_each_wherever_imported() -> None:
    from liarsdice.core.bidding import game, state
    from liarsdice.core.poker import game as poker_game
    from liarsdice.core.poker import state as poker_state

    assert game.Game is state.Game and poker_game.PokerGame is poker_state.PokerGame


def test_the_tables_are_one_frozen_record() -> None:
    tables = Game(preset("classic"), 3).tables
    assert isinstance(tables, GameTables)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tables.faces = 5  # type: ignore[misc]
    assert tables.next_seats((1, 0, 2)) == (2, 2, 0)


def private_reads(source: str) -> list[str]:
    """``obj._name`` read where ``obj`` is not ``self`` or ``cls`` (dunders aside)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def test_no_core_module_reads_another_objects_private_attributes() -> None:
    found = {
        str(path.relative_to(CORE)): reads
        for path in sorted(CORE.rglob("*.py"))
        if (reads := private_reads(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_private_read_check_catches_one() -> None:
    assert private_reads("def f(game):\n    return game._faces + self._ok\n") == ["2: game._faces"]
