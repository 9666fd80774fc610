"""Shared fixtures of the record tests: one example record of each rule family (with its replay
summary, text record and ``liarsdice replay`` output), random games of any family and a runner
for ``liarsdice replay``."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import strategies as st

from liarsdice.cli.replay import replay
from liarsdice.core.bidding import (
    BUY,
    EXACT,
    LIAR,
    NO_SHOW,
    Game,
    Phase,
    RecordError,
    Scoring,
    State,
    preset,
)
from liarsdice.core.poker import PokerGame, PokerRules, PokerState
from liarsdice.families import FAMILIES, Family

FAMILY_NAMES = [f.name for f in FAMILIES]

# ---------------------------------------------------------------------------- the bidding family
BIDDING_EXAMPLE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "milton-bradley",
    "options": {"loss": "one"},
    "players": ["ann", "bob", "cy"],
    "rounds": [
        {
            "opener": "ann",
            "dice": {"ann": [1, 3, 3, 5, 6], "bob": [2, 2, 4, 6, 6], "cy": [1, 1, 5, 5, 5]},
            "moves": [
                {"player": "ann", "bid": "3x5"},
                {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2], "bid": "5x6"},
                {"player": "cy", "call": "liar"},
            ],
        }
    ],
}

BIDDING_SUMMARY: dict[str, Any] = {
    "ok": True,
    "rounds": [
        {
            "bid": "5x6",
            "count": 7,
            "call": "liar",
            "caller": "cy",
            "bidder": "bob",
            "losses": {"cy": 1},
            "dice": {"ann": 5, "bob": 5, "cy": 4},
            "next_opener": "bob",
        }
    ],
    "winner": None,
}

BIDDING_TEXT = """\
Liar's Dice record, version 1
Rules: milton-bradley
Option: loss = one
Players: ann, bob, cy

Round 1: ann opens
ann rolls 1 3 3 5 6
bob rolls 2 2 4 6 6
cy rolls 1 1 5 5 5
ann: 3x5
bob: show 6 6, reroll 1 4 2, 5x6
cy: liar
= count 7: cy loses 1 | dice ann 5, bob 5, cy 4 | bob opens next
"""

# ------------------------------------------------------------------------------ poker dice
POKER_EXAMPLE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "poker-dice",
    "options": {},
    "players": ["ann", "bob", "cy"],
    "rounds": [
        {
            "opener": "ann",
            "roll": ["K", "K", "9", "Q", "A"],
            "moves": [
                {"player": "ann", "bid": "pair K", "pass": "left"},
                {
                    "player": "bob",
                    "accept": True,
                    "out": ["9", "K", "K"],
                    "shake": True,
                    "reroll": ["9"],
                    "rolled": ["Q", "Q", "J"],
                    "bid": "two pair K Q",
                },
                {"player": "cy", "call": "liar"},
            ],
        }
    ],
}

POKER_SUMMARY: dict[str, Any] = {
    "ok": True,
    "rounds": [
        {
            "bid": "two pair K Q",
            "call": "liar",
            "caller": "cy",
            "bidder": "bob",
            "hand": ["K", "K", "Q", "Q", "J"],
            "stood": True,
            "losses": {"cy": 1},
            "lives": {"ann": 3, "bob": 3, "cy": 2},
            "next_opener": "cy",
        }
    ],
    "winner": None,
}

POKER_TEXT = """\
Liar's Dice record, version 1
Rules: poker-dice
Players: ann, bob, cy

Round 1: ann opens
Roll: K K 9 Q A
ann: pair K, pass left
bob: accept, out 9 K K, shake, reroll 9, rolled Q Q J, two pair K Q
cy: liar
= hand K K Q Q J, the bid stands: cy loses a life | lives ann 3, bob 3, cy 2 | cy opens next
"""

POKER_FIVE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "poker-dice",
    "options": {"lives": 1},
    "players": ["ann", "bob"],
    "rounds": [
        {
            "opener": "ann",
            "roll": ["Q", "9", "Q", "J", "K"],
            "moves": [
                {"player": "ann", "bid": "five Q"},
                {
                    "player": "bob",
                    "accept": True,
                    "attempts": [
                        {"keep": ["Q", "Q"], "rolled": ["Q", "9", "Q"]},
                        {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["A"]},
                        {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["J"]},
                    ],
                },
            ],
        }
    ],
}

EXAMPLES = {"bidding": BIDDING_EXAMPLE, "poker": POKER_EXAMPLE}
SUMMARIES = {"bidding": BIDDING_SUMMARY, "poker": POKER_SUMMARY}
TEXTS = {"bidding": BIDDING_TEXT, "poker": POKER_TEXT}


def example(family: str, **changes: Any) -> dict[str, Any]:
    """A deep copy of ``family``'s example record with top-level keys replaced."""
    rec = copy.deepcopy(EXAMPLES[family])
    rec.update(changes)
    return rec


def rename(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A copy of a record (of any family) with its players renamed, in seat order."""
    new = dict(zip(record["players"], names, strict=True))
    rec = copy.deepcopy(record)
    rec["players"] = names
    for rnd in rec["rounds"]:
        if "opener" in rnd:
            rnd["opener"] = new[rnd["opener"]]
        if "dice" in rnd:
            rnd["dice"] = {new[k]: v for k, v in rnd["dice"].items()}
        for move in rnd["moves"]:
            move["player"] = new[move["player"]]
    return rec


def raised(function: Callable[[Any], Any], argument: Any) -> RecordError:
    """The :class:`RecordError` that ``function(argument)`` raises."""
    with pytest.raises(RecordError) as info:
        function(argument)
    return info.value


def check_text_error(
    parse: Callable[[str], Any],
    text: str,
    message: str,
    where: tuple[int | None, int | None] | None,
) -> RecordError:
    """``parse(text)`` fails with ``message`` in its error, located at ``where`` (round, move)
    unless None."""
    err = raised(parse, text)
    assert message in err.message
    if where is not None:
        assert (err.round, err.move) == where
    return err


# ---------------------------------------------------------------------------- random games
def random_state(
    family: Family,
    preset: str,
    seed: int,
    players: int = 3,
    stop: int | None = None,
    names: list[str] | None = None,
) -> Any:
    """A game of random legal play under a preset of ``family`` (chance drawn with
    ``state.sample_chance``), stopped after ``stop`` events when given."""
    rng = random.Random(seed)
    names = names[:players] if names else [f"seat{i}" for i in range(players)]
    state = family.new_game(family.presets[preset], names).new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        steps += 1
        if state.is_chance_node():
            state = state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply_action(rng.choice(legal[:8]))
    return state


def random_poker_state(
    seed: int,
    players: int,
    five: bool,
    lives: int = 2,
    cut: int | None = None,
    names: list[str] | None = None,
) -> PokerState:
    """A poker-dice game of random legal play with the five-of-a-kind rule on or off (chance
    drawn with ``state.sample_chance``), stopped after ``cut`` events when given."""
    rng = random.Random(seed)
    rules = PokerRules(five_of_a_kind_rule=five, lives=lives)
    names = names[:players] if names else [f"seat{i}" for i in range(players)]
    state = PokerGame(rules, names, opener=rng.randrange(players)).new_initial_state()
    steps = 0
    while not state.is_terminal() and (cut is None or steps < cut):
        steps += 1
        if state.is_chance_node():
            state = state.apply_action(state.sample_chance(rng))
        else:
            state = state.apply_action(rng.choice(state.legal_actions()))
    return state


# ------------------------------------------------------------------ bidding-family games
def choose(state: State, rng: random.Random) -> int:
    """A random legal move that often shows, buys and calls (so every move kind occurs)."""
    legal = state.legal_actions()
    if state.phase is Phase.SHOW:
        return NO_SHOW if rng.random() < 0.5 else rng.choice(legal)
    game = state.game
    calls = [a for a in legal if a in (LIAR, EXACT)]
    shows = [a for a in legal if game.action_shown(a) is not None]
    bids = [a for a in legal if game.action_bid(a) is not None]
    if BUY in legal and rng.random() < 0.5:
        return BUY
    if shows and rng.random() < 0.3:
        return rng.choice(shows)
    if calls and (not bids or rng.random() < 0.3):
        return rng.choice(calls)
    return rng.choice(bids[:6])


def play_bidding(name: str, over: dict[str, Any], seed: int, stop: int | None = None) -> State:
    """A random bidding-family game (stopped after ``stop`` events when given), with
    house-rule questions."""
    rng = random.Random(seed)
    rules = preset(name, **over)
    if rules.scoring is Scoring.SINGLE_ROUND:
        count = 2
    elif isinstance(rules.dice, tuple):
        count = len(rules.dice)
    else:
        count = rng.randint(2, 4)
    state = Game(rules, [f"p{i}" for i in range(count)]).new_initial_state()
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        steps += 1
        if state.is_chance_node():
            state = state.apply_action(state.sample_chance(rng))
        elif rules.house_penalties and state.phase is Phase.BID and rng.random() < 0.1:
            asker = rng.choice(state.active_players())
            state = state.ask(asker, rng.choice(["turn", "count"]))
        else:
            state = state.apply_action(choose(state, rng))
    return state


play = play_bidding
"""The random bidding-family game of the bidding record tests."""


def bidding_games(
    variants: list[tuple[str, dict[str, Any]]], max_stop: int
) -> st.SearchStrategy[State]:
    """Hypothesis' random bidding-family games (:func:`play`): a preset and its overrides of
    ``variants``, any seed, played to the end or stopped after up to ``max_stop`` events."""
    return st.builds(
        lambda variant, seed, stop: play(*variant, seed, stop),
        st.sampled_from(variants),
        st.integers(min_value=0, max_value=2**32),
        st.none() | st.integers(min_value=0, max_value=max_stop),
    )


# ---------------------------------------------------------------------------- replay CLI
def run_replay(
    tmp_path: Path, content: str, *args: str, name: str = "game.json"
) -> tuple[int, str]:
    """``liarsdice replay`` on a file holding ``content``: (exit code, output)."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(replay, [str(path), *args])
    return result.exit_code, result.output
