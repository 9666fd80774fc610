"""Family-agnostic bot tests, written once and run for every rule family through
:data:`liarsdice.families.FAMILIES`: every level plays legally, reproducibly, from its own view
only; the registry answers the same way for every family."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot_util import Spy, play_spied
from liarsdice import bots
from liarsdice.families import FAMILIES, Family

# Small games per family: (preset, players); the bots' legality must hold in each.
GAMES: dict[str, list[tuple[str, int]]] = {
    "bidding": [("openspiel", 2), ("perudo", 3), ("spot-on", 2)],
    "poker": [("poker-dice", 2), ("poker-dice", 3)],
}
FAST = ("random", "prob", "bayes")  # levels without a time budget at their defaults
PARAMS = [pytest.param(f, id=f.name) for f in FAMILIES]


def _bot(family: Family, name: str, seed: Any) -> Any:
    rng = random.Random(seed)
    if name == "expert":  # no time budget: a fixed amount of search, so reproducible
        return family.bot_registry()[name](rng, think=None)
    return family.make_bot(name, rng)


def _rules(family: Family, preset: str, players: int) -> Any:
    rules = family.presets[preset]
    if family.name == "bidding":
        return rules.replace(players=players, dice=min(rules.dice, 2))
    return rules.replace(players=players, lives=2)


def _own_view_only(state: Any, view: Any) -> None:
    """The bot is handed exactly its own seat's view, never the state."""
    assert view == state.view(view.player)
    assert view != state.view(-1) or not view.legal_actions  # a spectator cannot move


def _play(family: Family, rules: Any, kinds: list[str], seed: int) -> tuple[Any, list[Spy]]:
    game = family.new_game(rules, [f"p{i + 1}" for i in range(len(kinds))])
    bots = [_bot(family, k, f"{seed}:{i}") for i, k in enumerate(kinds)]
    return play_spied(game, bots, seed, _own_view_only)


@pytest.mark.parametrize("family", PARAMS)
def test_every_level_plays_legally_from_its_own_view(family: Family) -> None:
    levels = [n for n in family.bot_names() if n != "nash"]
    for preset, players in GAMES[family.name]:
        rules = _rules(family, preset, players)
        for seed in range(len(levels)):
            kinds = [levels[(seed + i) % len(levels)] for i in range(players)]
            state, spies = _play(family, rules, kinds, seed)
            assert state.is_terminal() and state.winner is not None
            assert sum(s.calls for s in spies) > 0
            assert state.game.replay(state.history()).history() == state.history()


@pytest.mark.parametrize("family", PARAMS)
@pytest.mark.parametrize("kind", [*FAST, "expert"])
def test_bots_are_reproducible_by_seed(family: Family, kind: str) -> None:
    preset, players = GAMES[family.name][-1]
    rules = _rules(family, preset, players)
    a, _ = _play(family, rules, [kind] * players, 11)
    b, _ = _play(family, rules, [kind] * players, 11)
    assert a.history() == b.history()
    c, _ = _play(family, rules, [kind] * players, 12)
    assert c.history() != a.history()


@pytest.mark.parametrize("family", PARAMS)
def test_bots_refuse_when_it_is_not_their_turn(family: Family) -> None:
    game = family.new_game(_rules(family, *GAMES[family.name][0]), ["a", "b"])
    state = game.new_initial_state().resolve_chance(random.Random(3))
    idle = 1 - state.current_player
    for kind in family.bot_names():
        if kind == "nash":
            continue
        with pytest.raises(ValueError, match="no legal action"):
            _bot(family, kind, 0).choose(game, state.view(idle))


@pytest.mark.parametrize("family", PARAMS)
def test_registry_per_family(family: Family) -> None:
    names = family.bot_names()
    assert names[:4] == bots.BOT_NAMES == ("random", "prob", "bayes", "expert")
    registry = family.bot_registry()
    assert tuple(registry) == names
    assert tuple(registry) == tuple(bots.bot_registry(family.name))
    for name in bots.BOT_NAMES:
        bot = family.make_bot(f" {name.title()} ", random.Random(0))
        assert type(bot) is registry[name] and bot.name == name
    expert = family.make_bot("expert", random.Random(0), think=0.3)
    assert expert.think == 0.3
    with pytest.raises(ValueError, match=r"unknown bot 'oracle'; bots: random, prob"):
        family.make_bot("oracle", random.Random(0))


def test_nash_is_a_bidding_level_only() -> None:
    bidding, poker = FAMILIES
    assert "nash" in bidding.bot_names() and "nash" not in poker.bot_names()
    assert bots.bot_names("poker") == bots.BOT_NAMES
    with pytest.raises(ValueError, match="unknown rule family 'chess'; families: bidding, poker"):
        bots.make_bot("prob", random.Random(0), family="chess")
