"""The core State's observation and information-state tensors: the short encoder (games with
the plain blocks only) equals the general one (from the seat's view) on random states of many
rule sets, the families' NumPy encoding is the same vectors, and on the ``openspiel`` preset
they carry what OpenSpiel's own ``liars_dice`` tensor carries (its layout differs: a one-hot
per die and one bit per bid or liar call, with no bidder; ours counts faces and keeps who
bid what). That they equal the batched simulator's rows is checked step by step in
``tests/sim/test_sim.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core_util import random_playout
from liarsdice.core.bidding import CHANCE, LIAR, Game, preset

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("openspiel", 2, {}),
    ("openspiel", 2, {"dice": 5}),
    ("openspiel", 2, {"dice": (2, 1)}),
    ("openspiel", 3, {"exact": "spot-on"}),
    ("snyd-joker", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"dice": 1}),
    ("classic", 2, {"dice": 2, "stash": "secret"}),
    ("milton-bradley", 3, {"dice": 3}),
    ("house-rules", 3, {"dice": 2}),
    ("perudo", 4, {"dice": 2}),
    ("room", 3, {"dice": 2}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_the_short_encoder_equals_the_general_one(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, over = case
    game = Game(preset(name, **over), players)
    layout = game.tensor_layout()
    rng = random.Random(repr(case))
    checked = 0
    for _ in range(30):
        for s in random_playout(game.new_initial_state(), rng, max_steps=5000, ask_rate=0.02):
            for p in range(players):
                info = s.information_state_tensor(p)
                obs = s.observation_tensor(p)
                assert len(info) == game.information_state_tensor_size() == layout.info_size
                assert len(obs) == game.observation_tensor_size() == layout.size
                assert info[: layout.size] == obs
                assert info == layout._encode_view(s, p, True)
                assert obs == layout._encode_view(s, p, False)
                assert all(type(x) is float for x in info)
                checked += 1
    assert checked > 100
    assert game.observation_tensor_shape() == [layout.size]
    assert game.information_state_tensor_shape() == [layout.info_size]


def test_the_default_player_is_the_one_to_act_and_seats_are_checked() -> None:
    game = Game(preset("openspiel"))
    s = game.new_initial_state().apply_action(2).apply_action(5)
    assert s.information_state_tensor() == s.information_state_tensor(0)
    assert s.observation_tensor() == s.observation_tensor(0)
    with pytest.raises(ValueError, match="no seat 2"):
        s.observation_tensor(2)


def test_the_families_encoding_is_the_cores() -> None:
    np = pytest.importorskip("numpy")
    from liarsdice.families.bidding.encoding import BiddingEncoding

    rng = random.Random(3)
    for name, players, over in CASES:
        game = Game(preset(name, **over), players)
        enc = BiddingEncoding(game)
        assert enc.slices == game.tensor_layout().slices
        for s in random_playout(game.new_initial_state(), rng, max_steps=5000)[::3]:
            for p in range(players):
                assert (
                    enc.information_state(s, p) == np.asarray(s.information_state_tensor(p))
                ).all()
                assert (enc.observation(s, p) == np.asarray(s.observation_tensor(p))).all()


@pytest.mark.parametrize("dice", [1, 2, 5])
def test_the_openspiel_preset_carries_what_pyspiels_tensor_carries(dice: int) -> None:
    """Random games played in lockstep on both: the seat, the own dice (per face), the bids made
    this round (any seat) and, once over, the liar call agree block by block."""
    pyspiel = pytest.importorskip("pyspiel")
    theirs_game = pyspiel.load_game("liars_dice", {"numdice": dice})
    game = Game(preset("openspiel", dice=dice))
    layout = game.tensor_layout()
    sl = layout.slices
    P, F, B = 2, game.rules.faces, layout.num_bids
    assert theirs_game.information_state_tensor_size() == P + dice * F + B + 1
    rng = random.Random(dice)
    for _ in range(200):
        ours, theirs = game.new_initial_state(), theirs_game.new_initial_state()
        while True:
            if ours.current_player != CHANCE:
                for p in range(P):
                    mine, native = (
                        ours.information_state_tensor(p),
                        theirs.information_state_tensor(p),
                    )
                    assert mine[sl["seat"]] == native[:P]
                    per_die = native[P : P + dice * F]
                    counts = [sum(per_die[k * F + f] for k in range(dice)) for f in range(F)]
                    assert mine[sl["my_dice"]] == counts
                    history = mine[sl["history"]]
                    made = [max(history[q * B + b] for q in range(P)) for b in range(B)]
                    bits = native[P + dice * F :]
                    if ours.is_terminal():
                        assert bits[B] == 1.0 and bits[:B].count(1.0) >= 1
                    else:
                        assert made == bits[:B] and bits[B] == 0.0
            if ours.is_terminal():
                assert tuple(theirs.returns()) == ours.returns()
                break
            if ours.current_player == CHANCE:
                face = rng.randint(1, F)
                ours, _ = ours.apply_action(face), theirs.apply_action(face - 1)
                continue
            action = rng.choice(ours.legal_actions())
            ours = ours.apply_action(action)
            theirs.apply_action(B if action == LIAR else action - 8)


def test_games_and_states_pickle_with_their_tensors() -> None:
    """The encoders are closures: a pickled game (OpenSpiel serialises states) rebuilds them."""
    import pickle

    for name, players, over in CASES[:6]:
        game = Game(preset(name, **over), players)
        states = random_playout(game.new_initial_state(), random.Random(5), max_steps=5000)
        for s in states[::4]:
            again = pickle.loads(pickle.dumps(s))
            for p in range(players):
                assert again.information_state_tensor(p) == s.information_state_tensor(p)
                assert again.observation_tensor(p) == s.observation_tensor(p)
            assert again.returns() == s.returns()
