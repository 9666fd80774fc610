"""The bot tests' shared game loop: bots of any rule family, given only their own views."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from liarsdice.core import CHANCE


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
