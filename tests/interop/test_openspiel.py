"""The ``python_liarsdice`` OpenSpiel game: every preset passes OpenSpiel's random-simulation
checks, the ``openspiel`` preset is OpenSpiel's own ``liars_dice`` (CFR runs the same on
both), OpenSpiel's CFR reaches the exact game value, and OpenSpiel's exploitability of the
project solver's policy equals the project's own.

Small games keep it fast (Python games are slow in OpenSpiel); the full six-face game, where
CFR reaches -7/258, runs with ``LIARSDICE_SLOW_TESTS=1``. ``LIARSDICE_SKIP_INTEROP=1`` skips
the file (``make test`` installs OpenSpiel through the dev extra).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("LIARSDICE_SKIP_INTEROP") == "1":
    pytest.skip("LIARSDICE_SKIP_INTEROP=1", allow_module_level=True)

import pyspiel  # type: ignore[import-not-found]
from open_spiel.python import policy as os_policy  # type: ignore[import-not-found]
from open_spiel.python.algorithms import (  # type: ignore[import-not-found]
    expected_game_score,
)
from open_spiel.python.algorithms import (  # type: ignore[import-not-found]
    exploitability as os_exploitability,
)

from liarsdice.families import preset_names
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.interop import openspiel as los
from liarsdice.solve.cfr import solve
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import make_game

SLOW = os.environ.get("LIARSDICE_SLOW_TESTS") == "1"

# Small tables for the multi-round presets: random simulations replay whole games.
SMALL: dict[str, dict[str, Any]] = {
    "classic": {"players": 3, "dice": 2},
    "milton-bradley": {"players": 3, "dice": 2},
    "house-rules": {"players": 3, "dice": 1},
    "spot-on": {"players": 3, "dice": 2, "options": "stash:open"},
    "room": {"players": 3, "dice": 1},
    "perudo": {"players": 3, "dice": 2},
    "poker-dice": {"players": 3, "options": "lives:1"},
}


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_passes_openspiel_random_simulation(name: str) -> None:
    game = pyspiel.load_game(los.GAME_NAME, {"rules": name, **SMALL.get(name, {})})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("spot-on", "economy:rich-man;calling_advantage:true"),
        ("spot-on", "economy:chips;stash:secret"),
        ("classic", "show_reroll:before;exact:calza"),
    ],
)
def test_rule_options_beyond_the_presets_pass_too(name: str, options: str) -> None:
    game = pyspiel.load_game(
        los.GAME_NAME, {"rules": name, "players": 3, "dice": 2, "options": options}
    )
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_a_four_player_perudo_game_loads_with_tensors_and_strings() -> None:
    game = pyspiel.load_game(los.GAME_NAME, {"rules": "perudo", "players": 4})
    assert game.num_players() == 4
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    player = state.current_player()
    enc = BiddingEncoding(state.engine_state.game)
    assert state.observation_tensor(player) == enc.observation(state.engine_state, player).tolist()
    info = state.information_state_tensor(player)
    assert len(info) == game.information_state_tensor_size() == enc.info_size
    assert state.information_state_string(player).startswith(f"p{player} [")
    assert state.observation_string(player).startswith(f"p{player} round 0 bid")


def test_room_scoring_is_general_sum() -> None:
    game = los.load("room", players=3)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (-2.0, 1.0)


def test_show_actions_are_numbered_after_the_bids() -> None:
    game = los.load("milton-bradley", players=2, dice=3)
    enc = BiddingEncoding(game.engine_game)
    assert game.num_distinct_actions() == 8 + enc.num_bids + len(enc.shows)
    assert enc.to_index(enc.to_action(game.num_distinct_actions() - 1)) == (
        game.num_distinct_actions() - 1
    )


def test_bad_options_are_reported() -> None:
    with pytest.raises(ValueError, match="name:value"):
        pyspiel.load_game(los.GAME_NAME, {"rules": "perudo", "options": "palifico"})


def _cfr(game: Any, iterations: int) -> tuple[Any, Any]:
    """OpenSpiel's C++ CFR+ after ``iterations``: (solver, average policy); the policy
    lives in the solver, which must outlive it."""
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return solver, solver.average_policy()


def test_the_openspiel_preset_is_openspiels_liars_dice() -> None:
    """CFR+ takes the same steps on both games (the same information sets, the same
    values), which are therefore the same game."""
    ours = los.load("openspiel", faces=3)
    theirs = pyspiel.load_game("liars_dice", {"dice_sides": 3})
    assert len(os_policy.TabularPolicy(ours).states) == len(os_policy.TabularPolicy(theirs).states)
    for iterations in (1, 7):
        (_s1, mine), (_s2, native) = _cfr(ours, iterations), _cfr(theirs, iterations)
        assert pyspiel.exploitability(ours, mine) == pytest.approx(
            pyspiel.exploitability(theirs, native), abs=1e-12
        )


def _value(game: Any, policy: Any) -> float:
    """Player 0's expected return when both play a Python ``policy``."""
    return float(expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0])


def _cpp_value(game: Any, policy: Any) -> float:
    """Player 0's expected return when both play a C++ ``policy`` (OpenSpiel's own)."""
    return float(pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0])


@pytest.mark.slow
def test_openspiel_cfr_reaches_the_exact_value_of_the_game() -> None:
    exact = Policy.from_result(solve(make_game("openspiel", faces=3), target=1e-9)).value()
    assert exact == pytest.approx(1 / 9, abs=1e-8)
    game = los.load("openspiel", faces=3)
    _solver, policy = _cfr(game, 100)
    assert pyspiel.exploitability(game, policy) < 1e-3
    assert _cpp_value(game, policy) == pytest.approx(exact, abs=1e-3)


def tabular_of(game: Any, policy: Policy) -> Any:
    """The project's policy as an OpenSpiel tabular policy of the registered game."""
    tabular = os_policy.TabularPolicy(game)
    tabular.action_probability_array[:] = 0.0
    for row, state in enumerate(tabular.states):
        engine = state.engine_state
        probs = policy.view_probabilities(engine.view(engine.current_player))
        tabular.action_probability_array[row, state.legal_actions()] = probs
    return tabular


@pytest.mark.parametrize("faces", [3, 4])
def test_openspiel_exploitability_of_the_project_policy_is_the_projects(faces: int) -> None:
    # a policy far from equilibrium: its exploitability is not near zero
    result = solve(make_game("openspiel", faces=faces), target=0.0, max_iterations=6)
    policy = Policy.from_result(result)
    ours = policy.exploitability()
    assert ours > 1e-3
    game = los.load("openspiel", faces=faces)
    tabular = tabular_of(game, policy)
    assert os_exploitability.exploitability(game, tabular) == pytest.approx(ours, abs=1e-9)
    assert _value(game, tabular) == pytest.approx(policy.value(), abs=1e-9)
    if faces == 3:  # OpenSpiel's C++ best response too
        cpp = pyspiel.exploitability(game, os_policy.python_policy_to_pyspiel_policy(tabular))
        assert cpp == pytest.approx(ours, abs=1e-9)


@pytest.mark.skipif(not SLOW, reason="the six-face game takes minutes: LIARSDICE_SLOW_TESTS=1")
def test_openspiel_cfr_on_the_openspiel_preset_reproduces_minus_7_over_258() -> None:
    game = los.load("openspiel")
    _solver, policy = _cfr(game, 80)
    value = _cpp_value(game, policy)
    assert value == pytest.approx(-7 / 258, abs=1e-3)  # -0.027537 after 80 iterations
    native = pyspiel.load_game("liars_dice")
    _native_solver, native_policy = _cfr(native, 80)
    assert value == pytest.approx(_cpp_value(native, native_policy), abs=1e-12)


@pytest.mark.skipif(not SLOW, reason="the six-face game takes minutes: LIARSDICE_SLOW_TESTS=1")
def test_openspiel_exploitability_on_the_six_face_game_is_the_projects() -> None:
    policy = Policy.from_result(solve(make_game("openspiel"), target=0.0, max_iterations=20))
    game = los.load("openspiel")
    tabular = tabular_of(game, policy)
    assert len(tabular.states) == 24_576  # the published count of information sets
    ours = policy.exploitability()
    assert os_exploitability.exploitability(game, tabular) == pytest.approx(ours, abs=1e-9)


@pytest.mark.parametrize(("name", "sizes"), [("perudo", SMALL["perudo"]), ("poker-dice", {})])
def test_the_python_shortcuts_answer_as_pyspiels_own_calls(name: str, sizes: Any) -> None:
    """legal_actions, is_chance_node, information_state_string and the tensors answer in
    Python what pyspiel's C++ calls (which C++ algorithms take) answer, at every node of
    random games, for every seat, errors included."""
    game = los.load(name, **sizes)
    rng = np.random.default_rng(3)
    base = pyspiel.State
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == base.is_chance_node(state)
            for player in [None, *range(-1, game.num_players() + 1)]:
                for ours, theirs in [
                    (state.legal_actions, base.legal_actions),
                    (state.information_state_string, base.information_state_string),
                    (state.information_state_tensor, base.information_state_tensor),
                    (state.observation_tensor, base.observation_tensor),
                ]:
                    args = () if player is None else (player,)
                    try:
                        expected = theirs(state, *args)
                    except pyspiel.SpielError:
                        with pytest.raises(pyspiel.SpielError):
                            ours(*args)
                    else:
                        assert ours(*args) == expected
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", ["perudo", "poker-dice"])
def test_a_list_of_legal_actions_is_the_callers_own(name: str) -> None:
    state = los.load(name, players=3).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    legal.clear()
    assert state.legal_actions() and state.clone().legal_actions() == state.legal_actions()


def test_a_serialized_state_carries_its_moves_not_its_memos() -> None:
    game = los.load("perudo", players=3)
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        for p in range(3):
            state.information_state_string(p)
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.serialize()
    assert len(text) < 20_000  # the rules and the moves (the memos stay behind)
    again = game.deserialize_state(text)
    assert str(again) == str(state)
    assert [again.information_state_string(p) for p in range(3)] == [
        state.information_state_string(p) for p in range(3)
    ]
