"""Both engines keep the typed contract of ``liarsdice.core.api`` (mypy checks it where the
families use them; this checks it at run time, with ``runtime_checkable``)."""

from __future__ import annotations

import random

import pytest

from liarsdice.core.api import GameAPI, ResultAPI, RulesAPI, StateAPI, ViewAPI
from liarsdice.families import FAMILIES, Family, family_of_game


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_every_engine_keeps_the_core_api(family: Family) -> None:
    rules = next(iter(family.presets.values()))
    assert isinstance(rules, RulesAPI)
    game = family.new_game(rules, ["ann", "bob"])
    assert isinstance(game, GameAPI) and family_of_game(game) is family
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.results and not state.is_terminal():
        state = state.resolve_chance(rng)
        if state.is_terminal() or state.results:
            break
        state = state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, StateAPI)
    assert isinstance(state.results[0], ResultAPI)
    assert isinstance(state.view(0), ViewAPI) and isinstance(state.view(-1), ViewAPI)
    assert game.replay(state.history()).history() == state.history()
    assert not isinstance(object(), GameAPI | StateAPI | ViewAPI | RulesAPI)
