"""Helpers shared by the poker-dice engine tests (not a test module): moves by notation and
games of random legal play."""

from __future__ import annotations

import random

from liarsdice.core.poker import LIAR, PokerGame, PokerRules, PokerState, parse_face


def play(state: PokerState, *moves: str) -> PokerState:
    """Apply moves: ``roll K K 9`` is chance outcomes, anything else a player's move."""
    g = state.game
    for move in moves:
        if move.startswith("roll "):
            for face in move[5:].split():
                assert state.is_chance_node(), (move, state)
                state = state.apply_action(parse_face(face))
        else:
            assert not state.is_chance_node(), (move, state)
            state = state.apply_action(g.string_to_action(move))
    return state


def random_game(
    seed: int, players: int, lives: int, five_rule: bool, *, liar: float, limit: int
) -> list[PokerState]:
    """Every state of one game of random legal play (liar called with probability ``liar``
    where it is legal), at most ``limit`` states."""
    rng = random.Random(seed)
    g = PokerGame(PokerRules(players=players, lives=lives, five_of_a_kind_rule=five_rule))
    s = g.new_initial_state()
    states = [s]
    while not s.is_terminal() and len(states) < limit:
        if s.is_chance_node():
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = LIAR if LIAR in legal and rng.random() < liar else rng.choice(legal)
        s = s.apply_action(a)
        states.append(s)
    return states
