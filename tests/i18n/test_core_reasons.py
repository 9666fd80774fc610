"""The rules cores say in English why a move is not allowed; the terminal shows each reason in
the language in use (``families/terminal.py``: ``CORE_REASONS``, ``reason_text``). Random games
of every preset meet the reasons a player can meet: each is translated."""

from __future__ import annotations

import random

import pytest

from liarsdice.core import CHANCE, RulesError
from liarsdice.families import family_of, preset_names
from liarsdice.families.terminal import reason_text
from liarsdice.i18n import using


@pytest.mark.parametrize("preset", preset_names())
def test_every_reason_of_the_core_is_translated(preset: str) -> None:
    family = family_of(preset)
    try:
        rules = family.rules(preset, {}, players=3)
    except RulesError:  # two-player rules
        rules = family.rules(preset, {}, players=2)
    game = family.new_game(rules, [f"p{i}" for i in range(rules.players)])
    rng = random.Random(preset)
    untranslated = set()
    for _ in range(2):
        state = game.new_initial_state()
        for _step in range(150):
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                state = state.resolve_chance(rng)
                continue
            legal = set(state.legal_actions())
            for action in rng.sample(range(200), 40):
                reason = "" if action in legal else state.explain_illegal(action)
                if not reason or reason.startswith("unknown action"):
                    continue
                with using("es"):
                    if reason_text(reason) == reason:
                        untranslated.add(reason)
            state = state.apply_action(rng.choice(sorted(legal)))
    assert not untranslated


def test_english_reasons_stay_as_the_core_says_them() -> None:
    reason = "first accept pair K or call liar, not 'left'"
    assert reason_text(reason) == reason
    assert reason_text("something new") == "something new"
