"""Learned values in NumPy (:mod:`liarsdice.nets`): the network file format, positions and
their chances, and the expert reading them. Needs no training framework."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest

from liarsdice.bots.bidding.expert import ExpertBot
from liarsdice.core.bidding import Game, preset
from liarsdice.nets import MLP, NetFormatError, PositionValues, packaged_positions
from liarsdice.nets.positions import INPUTS, canonical, encode, rules_key


def random_positions_net(seed: int = 0, rules: str = "classic") -> PositionValues:
    net = MLP.create([INPUTS, 16, 1], output="sigmoid", seed=seed)
    net = MLP(net.weights, net.biases, net.output, {"rules": rules_key(preset(rules))})
    return PositionValues(net)


def test_a_network_file_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    net = MLP.create([4, 5, 3], output="softmax", seed=3)
    x = np.random.default_rng(0).random((7, 4))
    path = tmp_path / "net.npz"
    net.save(path)
    back = MLP.load(path)
    assert back.sizes == [4, 5, 3] and back.output == "softmax"
    assert np.allclose(back(x), net(x)) and np.allclose(net(x).sum(1), 1.0)
    with pytest.raises(ValueError, match=r"expected \(rows, 4\)"):
        net(np.zeros((2, 5)))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(NetFormatError, match="not a liarsdice-mlp file"):
        MLP.load(tmp_path / "junk.npz")
    buf = io.BytesIO()
    np.savez(buf, meta=np.array(json.dumps({"format": "other", "version": 9, "sizes": [1, 1]})),
             W0=np.zeros((1, 1)), b0=np.zeros(1))  # fmt: skip
    buf.seek(0)
    with pytest.raises(NetFormatError, match="this program reads liarsdice-mlp version 1"):
        MLP.load(buf)
    with pytest.raises(NetFormatError, match="layer 1 takes 3 inputs, layer 0 gives 5"):
        MLP((np.zeros((4, 5)), np.zeros((3, 2))), (np.zeros(5), np.zeros(2)))
    with pytest.raises(NetFormatError, match="output 'tanh'"):
        MLP((np.zeros((4, 5)),), (np.zeros(5),), "tanh")


def test_positions_are_read_clockwise_from_the_seat_and_encoded_one_hot() -> None:
    assert canonical((3, 0, 4, 1), 0) == (3, 4, 1)
    assert canonical((3, 0, 4, 1), 3) == (1, 3, 4)
    x = encode([(3, 4, 1)]).reshape(6, 6)
    assert x.sum() == 6 and x[0, 3] == x[1, 4] == x[2, 1] == 1 and x[3:, 0].all()
    with pytest.raises(ValueError, match=r"at most 6 seats of 1\.\.5"):
        encode([(6, 1)])


def test_chances_add_up_to_one_and_equal_seats_get_equal_chances() -> None:
    values = random_positions_net(seed=4)
    rng = random.Random(1)
    for _ in range(200):
        dice = tuple(rng.choice((0, 1, 2, 3, 4, 5)) for _ in range(rng.randint(2, 6)))
        chances = values.chances(dice)
        alive = [p for p, d in enumerate(dice) if d]
        assert all(chances[p] == 0.0 for p in range(len(dice)) if p not in alive)
        if alive:
            assert abs(sum(chances) - 1.0) < 1e-9
    assert values.chances((4, 4, 4)) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # a rotation of the table rotates the chances
    a, b = values.chances((5, 2, 3, 1)), values.chances((2, 3, 1, 5))
    assert a[1:] + a[:1] == pytest.approx(b)


def test_a_model_fits_only_its_own_rules_and_sizes() -> None:
    values = random_positions_net(rules="classic")
    assert values.fits(preset("classic"), 4) and values.fits(preset("classic"), 6)
    assert not values.fits(preset("classic"), 7)  # more seats than the model reads
    assert not values.fits(preset("classic", dice=6), 4)  # more dice than it reads
    assert not values.fits(preset("perudo"), 4)
    assert not values.fits(preset("classic", exact="spot-on"), 4)
    assert values.fits(preset("classic", first_opener="given"), 3)  # (not a position's value)
    assert packaged_positions(preset("spot-on")) is None


def test_the_expert_values_positions_with_the_shipped_model_when_told_to() -> None:
    game = Game(preset("classic"), 4)
    state = game.new_initial_state()
    while state.current_player < 0:
        state = state.apply_action(state.sample_chance(random.Random(2)))
    view = state.view(state.current_player)
    learned = ExpertBot(random.Random(0), positions="learned").situation(game, view)
    share = ExpertBot(random.Random(0)).situation(game, view)  # the default (docs/BOTS.md)
    assert share.positions is None
    assert learned.positions is packaged_positions(preset("classic"), 4)
    assert learned.positions is not None, "the classic model ships in liarsdice/nets/data"
    with pytest.raises(ValueError, match="positions 'best': one of learned, share"):
        ExpertBot(random.Random(0), positions="best")
