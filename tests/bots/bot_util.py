"""The bot tests' shared game loop (bots of any rule family, given only their own views) and
their bidding rule cases."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from liarsdice.core import CHANCE
from liarsdice.core.bidding import PRESETS, RulesError, preset

# Two bidding tables with many options at once, which every bot level plays (test_bots.py,
# test_bots_strong.py): an open stash, rich man, palifico, calling advantage and calza; a
# secret stash, chips and spot-on.
OPEN_RICH_CALZA: dict[str, Any] = {
    "show_reroll": "before",
    "stash": "open",
    "economy": "rich-man",
    "palifico": True,
    "calling_advantage": True,
    "exact": "calza",
}
SECRET_CHIPS_SPOT_ON: dict[str, Any] = {
    "show_reroll": "after",
    "stash": "secret",
    "economy": "chips",
    "exact": "spot-on",
}


def play_bots(
    game: Any,
    bots: Sequence[Any],
    seed: int,
    *,
    before: Callable[[Any, int], None] | None = None,
) -> Any:
    """Play ``game`` out with one bot a seat (chance drawn from ``seed``), handing each bot
    only its own view; every action must be legal. ``before(state, seat)`` runs before each
    bot move (spies use it to learn the true state)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.resolve_chance(rng)
            continue
        seat = state.current_player
        view = state.view(seat)
        if before is not None:
            before(state, seat)
        action = bots[seat].choose(game, view)
        assert action in view.legal_actions, (game.action_to_string(action), view)
        assert action in state.legal_actions()
        state = state.apply_action(action)
        moves += 1
        assert moves < 5000, "the game does not end"
    return state


class Spy:
    """Wraps a bot: before it chooses, ``check(state, view)`` compares the view it is handed
    with the true state (which the spy learns from :func:`play_spied`, never the bot)."""

    def __init__(self, inner: Any, check: Callable[[Any, Any], None]) -> None:
        self.inner = inner
        self.check = check
        self.state: Any = None
        self.calls = 0

    def choose(self, game: Any, view: Any) -> int:
        assert self.state is not None and view.player == self.state.current_player
        self.check(self.state, view)
        self.calls += 1
        return int(self.inner.choose(game, view))


def play_spied(
    game: Any, bots: Sequence[Any], seed: int, check: Callable[[Any, Any], None]
) -> tuple[Any, list[Spy]]:
    """:func:`play_bots` with every bot behind a :class:`Spy` running ``check``."""
    spies = [Spy(b, check) for b in bots]
    state = play_bots(game, spies, seed, before=lambda s, seat: setattr(spies[seat], "state", s))
    assert sum(s.calls for s in spies) > 0
    return state, spies


def play_family(
    family: Any,
    game: Any,
    kinds: Sequence[str],
    seed: int,
    check: Callable[[Any, Any], None] | None = None,
) -> Any:
    """``game`` played out between ``family``'s bots of the levels ``kinds`` (seat ``i``'s
    drawing from ``seed * 1000 + i``), each given only its view; with ``check``, every bot is
    a :class:`Spy` running it. The final state."""
    bots = [family.make_bot(k, random.Random(seed * 1000 + i)) for i, k in enumerate(kinds)]
    if check is None:
        return play_bots(game, bots, seed)
    state, _ = play_spied(game, bots, seed, check)
    return state


def rolled(game: Any, rolls: list[int]) -> Any:
    """The state after the chance outcomes ``rolls`` (the dice dealt, seat by seat)."""
    state = game.new_initial_state()
    for r in rolls:
        state = state.apply_action(r)
    return state


def rules_cases(combos: Sequence[dict[str, Any]]) -> list[Any]:
    """Every preset with every option combination in ``combos`` that its rules allow (exact
    calls cannot combine with all-call resolution, for one), as ``rules`` parameters."""
    cases = []
    for name in PRESETS:
        for i, combo in enumerate(combos):
            try:
                rules = preset(name, **combo)
            except RulesError:
                continue
            cases.append(pytest.param(rules, id=f"{name}-{i}"))
    return cases
