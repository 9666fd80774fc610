"""Position values (:mod:`liarsdice.nets.positions`, :mod:`liarsdice.learn.positions`): the
round model's chances, the values worked out from it (checked against the problem of
points and against a direct linear solve), its file, the fit recovering a known model, and
``liarsdice learn positions`` writing a model the expert reads."""

from __future__ import annotations

import io
import math
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from liarsdice.bots.bidding.expert import ExpertBot
from liarsdice.cli.main import cli
from liarsdice.core.bidding import Game, preset
from liarsdice.core.bidding.view import PlayerView
from liarsdice.learn.positions import fit_round_model
from liarsdice.nets import PositionValues, packaged_positions
from liarsdice.nets.npz import write_npz
from liarsdice.nets.positions import (
    FEATURES,
    MAX_DICE,
    MAX_SEATS,
    PositionFormatError,
    RoundModel,
    canonical,
    rules_key,
    seat_features,
)


def model(seed: int = 0, *, gain: bool = False, spared: bool = False, sizes: int = 1,
          rules: str = "classic") -> RoundModel:  # fmt: skip
    rng = np.random.default_rng(seed)

    def w(offset: float = 0.0) -> np.ndarray:
        out = rng.normal(0, 0.5, FEATURES)
        out[3 * MAX_DICE : 3 * MAX_DICE + MAX_SEATS - 1] += offset  # once per seat
        return out

    return RoundModel(
        lose=w(),
        sizes=np.concatenate(([0.0], -rng.random(sizes - 1) * 2)),
        gain=w(-1.0) if gain else None,
        spared=w(-1.5) if spared else None,
        still=rng.normal(-3, 0.5, MAX_SEATS - 1),
        meta={"rules": rules_key(preset(rules))},
    )


def test_positions_are_read_clockwise_and_each_seat_sees_its_neighbours() -> None:
    assert canonical((3, 0, 4, 1), 0) == (3, 4, 1)
    assert canonical((3, 0, 4, 1), 3) == (1, 3, 4)
    f = seat_features(np.array([[3, 4, 1]]))[0]
    # seat 1 (4 dice): its own, the previous seat's (3), the next one's (1), three seats
    assert f[1, 3] == f[1, MAX_DICE + 2] == f[1, 2 * MAX_DICE + 0] == f[1, 3 * MAX_DICE + 1] == 1
    assert f[1, -1] == pytest.approx(4 / 8) and f[:, :-1].sum() == 3 * 4
    with pytest.raises(ValueError, match=r"2\.\.6 seats of 1\.\.5 dice"):
        seat_features(np.array([[6, 1]]))


def test_chances_add_up_to_one_equal_seats_are_equal_and_rotation_rotates() -> None:
    values = PositionValues(model(4, gain=True, spared=True, sizes=3))
    rng = random.Random(1)
    for _ in range(300):
        dice = tuple(rng.choice((0, 1, 2, 3, 4, 5)) for _ in range(rng.randint(2, 6)))
        chances = values.chances(dice)
        alive = [p for p, d in enumerate(dice) if d]
        assert all(chances[p] == 0.0 for p in range(len(dice)) if p not in alive)
        assert all(0.0 <= c <= 1.0 for c in chances)
        if alive:
            assert abs(sum(chances) - 1.0) < 1e-9
    assert values.chances((4, 4, 4)) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    a, b = values.chances((5, 2, 3, 1)), values.chances((2, 3, 1, 5))
    assert a[1:] + a[:1] == pytest.approx(b)
    assert values.chances((0, 2, 0)) == (0.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="at most 6 seats of 5"):
        values.chances((6, 1))


def test_fair_rounds_give_the_problem_of_points() -> None:
    # every round, each of two seats loses one die with chance 1/2
    fair = RoundModel(lose=np.zeros(FEATURES), sizes=np.zeros(1), gain=None, spared=None,
                      still=np.full(MAX_SEATS - 1, -50.0), meta={})  # fmt: skip
    values = PositionValues(fair)
    for a in range(1, 6):
        for b in range(1, 6):
            # the first seat wins when the other loses b dice before it loses a
            exact = sum(math.comb(b - 1 + k, k) * 0.5 ** (b + k) for k in range(a))
            assert values.chances((a, b))[0] == pytest.approx(exact, abs=1e-9), (a, b)


def test_values_solve_the_chain_the_model_describes() -> None:
    # two seats, a die won back at times: the values are the absorbing chain's solution
    m = model(7, gain=True, sizes=2)
    values = PositionValues(m)
    states = [(a, b) for a in range(1, 6) for b in range(1, 6)]
    where = {s: i for i, s in enumerate(states)}
    pos = np.array(states)
    p = m.probabilities(pos)
    A = np.eye(len(states))
    rhs = np.zeros(len(states))
    for c, after in enumerate(m.outcomes(pos)):
        for i, (x, y) in enumerate(after.tolist()):
            if x == 0:
                continue  # the first seat lost
            if y == 0:
                rhs[i] += p[i, c]
            else:
                A[i, where[(x, y)]] -= p[i, c]
    A[np.arange(len(states)), np.arange(len(states))] -= p[:, -1]
    exact = np.linalg.solve(A, rhs)
    got = np.array([values.chances(s)[0] for s in states])
    assert np.allclose(got, exact, atol=1e-8)


def test_a_model_file_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    m = model(2, gain=True, spared=True, sizes=4)
    path = tmp_path / "positions.npz"
    m.save(path)
    back = RoundModel.load(path)
    for name in ("lose", "sizes", "gain", "spared", "still"):
        assert np.array_equal(getattr(back, name), getattr(m, name))
    assert back.meta == m.meta
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(PositionFormatError, match="not a liarsdice-positions file"):
        RoundModel.load(tmp_path / "junk.npz")
    buf = io.BytesIO()
    write_npz(buf, {"format": "liarsdice-mlp", "version": 1}, {})
    buf.seek(0)
    with pytest.raises(PositionFormatError, match="this program reads liarsdice-positions"):
        RoundModel.load(buf)
    buf = io.BytesIO()
    small = {"lose": np.zeros(3), "sizes": np.zeros(1), "still": np.zeros(5)}
    write_npz(buf, {"format": "liarsdice-positions", "version": 2}, small)
    buf.seek(0)
    with pytest.raises(PositionFormatError, match="weights of 21 features"):
        RoundModel.load(buf)


def test_a_model_fits_only_its_own_rules_and_sizes() -> None:
    values = PositionValues(model(rules="classic"))
    assert values.fits(preset("classic"), 4) and values.fits(preset("classic"), 6)
    assert not values.fits(preset("classic"), 7)  # more seats than the model reads
    assert not values.fits(preset("classic", dice=6), 4)  # more dice than it reads
    assert not values.fits(preset("perudo"), 4)
    assert not values.fits(preset("classic", exact="spot-on"), 4)
    assert values.fits(preset("classic", first_opener="given"), 3)  # (not a position's value)
    assert packaged_positions(preset("spot-on")) is None


def _sample_rounds(m: RoundModel, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    before, after = [], []
    for _ in range(rounds):
        n = int(rng.integers(2, MAX_SEATS + 1))
        pos = rng.integers(1, MAX_DICE + 1, size=(1, n))
        p = m.probabilities(pos)[0]
        c = int(rng.choice(len(p), p=p))
        ways = m.outcomes(pos)
        out = pos[0] if c == len(p) - 1 else ways[c][0]
        before.append(np.pad(pos[0], (0, MAX_SEATS - n)))
        after.append(np.pad(out, (0, MAX_SEATS - n)))
    return np.array(before, dtype=np.int8), np.array(after, dtype=np.int8)


def test_the_fit_recovers_the_model_that_played_the_rounds() -> None:
    truth = model(11, gain=True, spared=True, sizes=3)
    before, after = _sample_rounds(truth, 6000, seed=3)
    fitted = fit_round_model(before, after, {"note": "test"})
    assert fitted.meta["rounds"] == 6000 and fitted.meta["skipped_rounds"] == 0
    assert fitted.gain is not None and fitted.spared is not None and len(fitted.sizes) == 3
    pos = np.random.default_rng(5).integers(1, MAX_DICE + 1, size=(300, 4))
    gap = np.abs(fitted.probabilities(pos) - truth.probabilities(pos)).sum(axis=1)
    assert float(gap.mean()) < 0.1, float(gap.mean())  # total variation, per position
    # and what never happens is not in the model
    plain = fit_round_model(*_sample_rounds(model(12), 500, seed=4), {})
    assert plain.gain is None and plain.spared is None and len(plain.sizes) == 1
    with pytest.raises(ValueError, match="no rounds of two seats"):
        fit_round_model(np.array([[3, 0]]), np.array([[3, 0]]), {})


def test_learn_positions_writes_a_model_the_expert_reads_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "learned"
    args = ["learn", "positions", "--rules", "classic", "--games", "2", "--out", str(out)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    path = out / "positions-classic.npz"
    values = PositionValues(RoundModel.load(path))
    assert values.fits(preset("classic"), 4) and not values.fits(preset("perudo"), 4)
    meta = values.model.meta
    assert meta["games_per_seat_count"] == 2 and meta["rounds"] > 20
    assert meta["skipped_rounds"] == 0  # every classic round is one of the model's ways
    assert values.model.spared is not None  # the exact count: all but the bidder lose one
    again = CliRunner().invoke(cli, args)  # everything is there: nothing is played again
    assert again.exit_code == 0 and "games" not in again.output.replace("Wrote", "")
    assert np.array_equal(RoundModel.load(path).lose, values.model.lose)
    bad = CliRunner().invoke(cli, [*args[:-2], "--games", "3", "--out", str(out)])
    assert bad.exit_code == 2 and "holds 2 games a seat count, not 3" in bad.output


def _first_view(game: Game, seed: int) -> PlayerView:
    """The first bidder's view of a game dealt from ``seed``."""
    state = game.new_initial_state()
    while state.current_player < 0:
        state = state.apply_action(state.sample_chance(random.Random(seed)))
    return state.view(state.current_player)


def test_the_expert_values_positions_with_the_shipped_model_when_told_to() -> None:
    game = Game(preset("classic"), 4)
    view = _first_view(game, 2)
    learned = ExpertBot(random.Random(0), positions="learned").situation(game, view)
    share = ExpertBot(random.Random(0)).situation(game, view)  # 'auto': the share in classic
    assert share.positions is None
    assert learned.positions is packaged_positions(preset("classic"), 4)
    assert learned.positions is not None, "the classic model ships in liarsdice/nets/data"
    with pytest.raises(ValueError, match="positions 'best': one of auto, learned, share"):
        ExpertBot(random.Random(0), positions="best")


def test_flatten_raises_the_learned_chances_to_a_power_and_keeps_them_a_share() -> None:
    """flatten < 1: a short stack keeps more of its worth; the seats' worths still add to 1."""
    from liarsdice.bots.bidding.bayes import position_value

    game = Game(preset("classic"), 4)
    view = _first_view(game, 2)
    steep = ExpertBot(random.Random(0), positions="learned").situation(game, view)
    flat = ExpertBot(random.Random(0), positions="learned", flatten=0.5).situation(game, view)
    assert steep.flatten == 1.0 and flat.flatten == 0.5 and flat.positions is steep.positions
    assert flat.positions is not None
    dice = (4, 5, 5, 5)
    chances = flat.positions.chances(dice)
    roots = [math.sqrt(c) for c in chances]
    for seat in range(4):
        assert position_value(steep, seat, dice, None, (0,) * 4) == chances[seat]
        expected = roots[seat] / sum(roots)
        assert position_value(flat, seat, dice, None, (0,) * 4) == pytest.approx(expected)
    worths = [position_value(flat, seat, dice, None, (0,) * 4) for seat in range(4)]
    assert sum(worths) == pytest.approx(1.0)
    assert chances[0] < worths[0] < 0.25, "flatter, still the short stack's least"
    assert position_value(flat, 1, (0, 3, 0, 0), 1, (0,) * 4) == 1.0  # a won game stays won
    with pytest.raises(ValueError, match=r"flatten 0\.0: a power above 0, at most 4"):
        ExpertBot(random.Random(0), flatten=0.0)


def test_the_expert_uses_the_learned_values_by_default_where_they_were_measured_better() -> None:
    """'auto' (the default): perudo's shipped values (docs/BOTS.md), classic's share; the
    frozen expert-v1 keeps the share everywhere."""
    from liarsdice.bots.bidding.expert import ExpertV1Bot

    for name, players, learned in (("perudo", 6, True), ("classic", 4, False)):
        game = Game(preset(name), players)
        view = _first_view(game, 3)
        sit = ExpertBot(random.Random(0)).situation(game, view)
        assert sit.positions is (packaged_positions(preset(name), players) if learned else None)
        assert ExpertV1Bot(random.Random(0)).situation(game, view).positions is None
    assert packaged_positions(preset("perudo"), 6) is not None


def test_the_shipped_models_learned_each_family_s_ways_of_ending_a_round() -> None:
    classic = packaged_positions(preset("classic"), 4)
    perudo = packaged_positions(preset("perudo"), 6)
    assert classic is not None and perudo is not None and classic is not perudo
    # classic: lose the difference, and an exact count costs every seat but the bidder one
    assert len(classic.model.sizes) > 1 and classic.model.spared is not None
    assert classic.model.gain is None
    # perudo: one die a loss, and a right calza wins one back
    assert len(perudo.model.sizes) == 1 and perudo.model.gain is not None
    assert perudo.model.spared is None
    for values in (classic, perudo):
        assert values.model.meta["skipped_rounds"] == 0 and values.model.meta["rounds"] > 10_000
        # fewer dice, less chance; and a short stack's neighbours gain from it
        assert values.chances((3, 5))[0] < values.chances((4, 5))[0] < 0.5
        assert min(values.chances((1, 5, 5, 5))[1:]) > 0.25
