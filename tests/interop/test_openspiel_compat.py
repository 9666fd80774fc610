"""The OpenSpiel-compatible mode: ``python_liars_dice`` (``load("openspiel", compat=True)``)
shows exactly the interface of OpenSpiel's ``liars_dice`` (the same random games, with the
same chance outcomes, give the same value for every call), the project solver's policy
exports as a ``TabularPolicy`` of ``liars_dice`` that OpenSpiel scores as the project does,
and the general binding declares room-scored games general-sum, the others zero-sum.
``LIARSDICE_SKIP_INTEROP=1`` skips the file.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("LIARSDICE_SKIP_INTEROP") == "1":
    pytest.skip("LIARSDICE_SKIP_INTEROP=1", allow_module_level=True)

import pyspiel  # type: ignore[import-not-found]
from open_spiel.python import policy as os_policy  # type: ignore[import-not-found]

from liarsdice.interop import openspiel as los
from liarsdice.solve.cfr import solve
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import make_game

SIZES = [(1, 6), (2, 6), (1, 3), (3, 4)]  # (dice each, faces)
SLOW = os.environ.get("LIARSDICE_SLOW_TESTS") == "1"


def _pair(dice: int, faces: int) -> tuple[Any, Any]:
    ours = los.load("openspiel", compat=True, dice=dice, faces=faces)
    native = pyspiel.load_game("liars_dice", {"numdice": dice, "dice_sides": faces})
    return ours, native


def _answer(call: Any, *args: Any) -> Any:
    """What a call returns, or the error it raises (pyspiel's: the same kind on both)."""
    try:
        return call(*args)
    except pyspiel.SpielError:
        return "SpielError"


def _observe(game: Any, state: Any) -> dict[str, Any]:
    """Every observable value of a state."""
    seats = range(game.num_players())
    out: dict[str, Any] = {
        "current_player": state.current_player(),
        "is_chance_node": state.is_chance_node(),
        "is_terminal": state.is_terminal(),
        "is_player_node": state.is_player_node(),
        "str": str(state),
        "history": state.history(),
        "history_str": state.history_str(),
        "move_number": state.move_number(),
        "legal_actions": state.legal_actions(),
        "legal_per_seat": [state.legal_actions(p) for p in seats],
        "mask": [state.legal_actions_mask(p) for p in seats] if not state.is_terminal() else [],
        "returns": state.returns(),
        "rewards": state.rewards(),
        "info_string": [_answer(state.information_state_string, p) for p in seats],
        "info_tensor": [_answer(state.information_state_tensor, p) for p in seats],
        "obs_tensor": [_answer(state.observation_tensor, p) for p in seats],
        "obs_string": [_answer(state.observation_string, p) for p in seats],
    }
    if state.is_chance_node():
        out["chance_outcomes"] = state.chance_outcomes()
    player = state.current_player()
    out["action_strings"] = [state.action_to_string(player, a) for a in state.legal_actions()]
    out["every_action_string"] = (
        [state.action_to_string(p, a) for p in seats for a in range(game.num_distinct_actions())]
        if not state.is_chance_node()
        else []
    )
    return out


@pytest.mark.parametrize(("dice", "faces"), SIZES)
def test_the_game_has_liars_dices_sizes_and_type(dice: int, faces: int) -> None:
    ours, native = _pair(dice, faces)
    for call in [
        "num_distinct_actions", "max_game_length", "max_chance_outcomes", "num_players",
        "min_utility", "max_utility", "utility_sum", "information_state_tensor_shape",
        "information_state_tensor_size", "observation_tensor_shape", "observation_tensor_size",
        "max_chance_nodes_in_history", "max_move_number", "max_history_length",
        "policy_tensor_shape", "get_parameters",
    ]:  # fmt: skip
        assert getattr(ours, call)() == getattr(native, call)(), call
    mine, theirs = ours.get_type(), native.get_type()
    for field in [
        "dynamics", "chance_mode", "information", "utility", "reward_model", "max_num_players",
        "min_num_players", "provides_information_state_string",
        "provides_information_state_tensor", "provides_observation_string",
        "provides_observation_tensor", "parameter_specification",
    ]:  # fmt: skip
        assert getattr(mine, field) == getattr(theirs, field), field
    assert mine.short_name == los.COMPAT_NAME


@pytest.mark.parametrize(("dice", "faces"), SIZES)
def test_the_same_random_games_look_the_same_at_every_step(dice: int, faces: int) -> None:
    ours, native = _pair(dice, faces)
    rng = np.random.default_rng(dice * 10 + faces)
    for _ in range(15):
        mine, theirs = ours.new_initial_state(), native.new_initial_state()
        while True:
            assert _observe(ours, mine) == _observe(native, theirs)
            if theirs.is_terminal():
                break
            if theirs.is_chance_node():
                actions, probs = zip(*theirs.chance_outcomes(), strict=True)
                action = int(rng.choice(actions, p=probs))
            else:
                action = int(rng.choice(theirs.legal_actions()))
            assert mine.string_to_action(theirs.action_to_string(action)) == action
            for state in (mine, theirs):
                state.apply_action(action)
        clone = mine.clone()
        assert _observe(ours, clone) == _observe(ours, mine)
        again = ours.deserialize_state(mine.serialize())
        assert _observe(ours, again) == _observe(ours, mine)


def _moves(state: Any) -> list[tuple[int, int]]:
    return [(m.player, m.action) for m in state.full_history()]


def test_moves_from_python_and_from_cpp_reach_the_same_states() -> None:
    """From Python a state moves without pyspiel's C++ path (its history kept by the
    binding); ``child``, ``clone``, ``copy.deepcopy``, ``undo_action`` and moves that C++
    applies, mixed in any order, reach what ``liars_dice`` reaches."""
    ours, native = _pair(2, 4)
    rng = np.random.default_rng(7)
    for _ in range(10):
        mine, theirs = ours.new_initial_state(), native.new_initial_state()
        assert mine.is_initial_state()
        while not theirs.is_terminal():
            action = int(rng.choice(theirs.legal_actions()))
            way = int(rng.integers(5))
            if way == 0:
                mine.apply_action(action)
            elif way == 1:
                mine = mine.child(action)
            elif way == 2:  # pyspiel's own C++ clone and apply
                mine = pyspiel.State.clone(mine)
                pyspiel.State.apply_action(mine, action)
            elif way == 3:
                mine = copy.deepcopy(mine)
                mine.apply_action(action)
            else:  # a move taken back, then made again
                before = _observe(ours, mine)
                player = mine.current_player()
                mine.apply_action(action)
                mine.undo_action(player, action)
                assert _observe(ours, mine) == before
                mine.apply_action(action)
            theirs.apply_action(action)
            assert _observe(ours, mine) == _observe(native, theirs)
            assert _moves(mine) == _moves(theirs)
            assert not mine.is_initial_state()
        with pytest.raises(pyspiel.SpielError, match="not undoing"):
            mine.undo_action(0, 99)


def test_openspiels_cfr_takes_the_same_steps_on_both() -> None:
    ours, native = _pair(1, 3)
    a, b = pyspiel.CFRPlusSolver(ours), pyspiel.CFRPlusSolver(native)
    for _ in range(3):
        a.evaluate_and_update_policy()
        b.evaluate_and_update_policy()
    assert pyspiel.exploitability(ours, a.average_policy()) == pytest.approx(
        pyspiel.exploitability(native, b.average_policy()), abs=1e-12
    )
    # a policy of liars_dice, as OpenSpiel wrote it, plays the engine's game unchanged
    native_policy = os_policy.TabularPolicy(native)
    on_ours = os_policy.TabularPolicy(ours)
    assert on_ours.state_lookup == native_policy.state_lookup


def test_only_the_openspiel_preset_has_liars_dices_interface() -> None:
    with pytest.raises(ValueError, match="openspiel preset"):
        los.load("perudo", compat=True)
    with pytest.raises(ValueError, match="dice and faces only"):
        los.load("openspiel", compat=True, players=3)


@pytest.mark.parametrize(
    "faces",
    [
        3,
        4,
        pytest.param(6, marks=pytest.mark.skipif(not SLOW, reason="LIARSDICE_SLOW_TESTS=1")),
    ],
)
def test_a_solver_policy_exports_to_liars_dice_and_scores_the_same(faces: int) -> None:
    """At one die each; a policy far from equilibrium, so that its exploitability says
    something."""
    policy = Policy.from_result(
        solve(make_game("openspiel", faces=faces), target=0.0, max_iterations=6)
    )
    ours = policy.exploitability()
    assert ours > 1e-3
    tabular = los.liars_dice_policy(policy)
    assert tabular.game.get_type().short_name == "liars_dice"
    cpp = os_policy.python_policy_to_pyspiel_policy(tabular)
    assert pyspiel.exploitability(tabular.game, cpp) == pytest.approx(ours, abs=1e-12)


@pytest.mark.parametrize(
    ("rules", "utility"),
    [
        ("room", pyspiel.GameType.Utility.GENERAL_SUM),
        ("perudo", pyspiel.GameType.Utility.ZERO_SUM),
        ("openspiel", pyspiel.GameType.Utility.ZERO_SUM),
        ("poker-dice", pyspiel.GameType.Utility.ZERO_SUM),
    ],
)
def test_room_scoring_is_general_sum_and_the_rest_zero_sum(rules: str, utility: Any) -> None:
    game = los.load(rules, players=3) if rules != "openspiel" else los.load(rules)
    assert game.get_type().utility == utility
    zero_sum = utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == (0.0 if zero_sum else None)
    # the loaded game's own type, not only the registry's (the default game's, zero-sum)
    assert pyspiel.load_game(str(game)).get_type().utility == utility


def test_openspiels_random_simulation_passes() -> None:
    game = los.load("openspiel", compat=True, dice=2, faces=4)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
