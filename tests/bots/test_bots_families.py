"""Family-agnostic bot tests, written once and run for every rule family through
:data:`liarsdice.families.FAMILIES`: every level plays legally, reproducibly, from its own view
only; the family object finds and builds its bots the same way for every family."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from bot_util import Spy, play_spied
from liarsdice.core.errors import RulesError
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
        return family.make_bot(name, rng, options={"think": "none"})
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
    levels = [n for n in family.bots if n not in family.bots.lazy]  # lazy: two-player only
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
    for kind in family.bots:
        if kind in family.bots.lazy:
            continue
        with pytest.raises(ValueError, match="no legal action"):
            _bot(family, kind, 0).choose(game, state.view(idle))


@pytest.mark.parametrize("family", PARAMS)
def test_the_family_finds_and_makes_its_bots(family: Family) -> None:
    names = tuple(family.bots)
    assert names[:4] == family.bots.levels == ("random", "prob", "bayes", "expert")
    assert len(family.bots) == len(names) == len(set(names))
    for name in family.bots.levels:
        bot = family.make_bot(f" {name.title()} ", random.Random(0))
        assert type(bot) is family.bots[name] and bot.name == name
    expert = family.make_bot("expert", random.Random(0), think=0.3)
    assert expert.think == 0.3
    with pytest.raises(ValueError, match=rf"unknown bot 'oracle'; {family.name} bots: random, p"):
        family.make_bot("oracle", random.Random(0))


@pytest.mark.parametrize("family", PARAMS)
def test_bot_options_go_through_the_codec(family: Family) -> None:
    """``name:key=value`` and ``options``: read by the bot class's option codec."""
    rng = random.Random(0)
    bot = family.make_bot("expert:bluff=0.5#2", rng, think=0.2)
    assert (bot.bluff, bot.think) == (0.5, 0.2) and isinstance(bot.bluff, float)
    assert family.make_bot("expert:think=none", rng, think=0.2).think is None  # the label's own
    assert family.make_bot("expert", rng, options={"think": "0.1"}).think == 0.1
    assert not hasattr(family.make_bot("random", rng, think=0.2), "think")  # no think field
    with pytest.raises(RulesError, match="bot 'expert': option bluff takes a number, not 'lots'"):
        family.make_bot("expert:bluff=lots", rng)
    with pytest.raises(RulesError, match="bot 'random': unknown bot option 'rate'; options: "):
        family.make_bot("random", rng, options={"rate": "1"})
    with pytest.raises(RulesError, match="bot 'prob': unknown bot option 'ratee'; options: "):
        family.make_bot("prob:ratee=1", rng)
    with pytest.raises(RulesError, match="bot option 'bluff' of 'prob:bluff' is not key=value"):
        family.make_bot("prob:bluff", rng)


def test_nash_is_a_bidding_bot_only_imported_on_first_use() -> None:
    bidding, poker = FAMILIES
    assert (
        bidding.bots.lazy == ("nash", "learned") and tuple(bidding.bots)[-2:] == bidding.bots.lazy
    )
    assert bidding.bots.panel == ("bluffer", "expert-v1")
    assert "nash" not in poker.bots and poker.bots.lazy == poker.bots.panel == ()
    code = (
        "import sys, random; from liarsdice.families import FAMILIES; b = FAMILIES[0]; "
        "names = list(b.bots); b.make_bot('expert', random.Random(0)); "
        "assert 'liarsdice.bots.bidding.nash' not in sys.modules, 'nash'; "
        "assert 'scipy' not in sys.modules, 'scipy'; "
        "assert 'liarsdice.families.adapter' not in sys.modules, 'adapter'; "
        "print(type(b.make_bot('nash', random.Random(0))).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "NashBot"
