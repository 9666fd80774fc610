"""The engine's fast paths against its general ones, over many random games.

The hot paths of :mod:`liarsdice.core.bidding.state` take shortcuts: legal actions come from shared
per-round tables (``RoundFacts``), the deal cuts the rolls with a cached plan, a single-round game
fills the tables of its deal and of its end only when read, a round's :class:`RoundResult` is
built only when read, and the next seats come from a cache. Each is checked here against the
path that works the same thing out from scratch (a twin built by :meth:`State._make`, which
takes none of the shortcuts, a replay of the log, or the multi-round resolution).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from dataclasses import astuple, replace
from pathlib import Path
from typing import Any

import pytest

from core_util import random_playout
from liarsdice.core.bidding import CHANCE, LIAR, Game, Phase, State, preset
from liarsdice.core.bidding.state import Table, _next_seats, _single_round_table

ROOT = Path(__file__).resolve().parents[2]

# (preset, players, overrides): every preset, and the options that change the hot paths.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("openspiel", 2, {}),
    ("openspiel", 2, {"dice": 5}),
    ("openspiel", 2, {"dice": (2, 1)}),
    ("openspiel", 2, {"exact": "spot-on"}),
    ("snyd-normal", 2, {"dice": 3}),
    ("snyd-joker", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"dice": 1}),
    ("classic", 2, {"dice": 1, "stash": "secret"}),
    ("milton-bradley", 3, {"dice": 3}),
    ("house-rules", 3, {"dice": 2}),
    ("spot-on", 3, {"dice": 2, "stash": "open", "economy": "rich-man", "chips": 5}),
    ("spot-on", 3, {"dice": 2, "calling_advantage": True}),
    ("room", 4, {"dice": 2}),
    ("perudo", 4, {"dice": 3}),
    ("perudo", 3, {"dice": 2, "economy": "chips", "chips": 6}),
]

GAMES = int(os.environ.get("CORE_FAST_GAMES", "40"))
FIELDS = [f for f in Table.__slots__ if f != "chain"] + ["results"]


def make(name: str, players: int, over: dict[str, Any]) -> Game:
    return Game(preset(name, **over), players)


def slow_twin(s: State, ref: Game) -> State:
    """``s`` as :meth:`State._make` builds it, in a game with no legal-action caches."""
    ref.legal_cache = None  # (a state from _make has no round tables either)
    return State._make(
        ref, s.table, s.phase, s.player, s.bid, s.bidder, s.callers, s.flags, s.pending,
        s._log, len(s),
    )  # fmt: skip


def table_fields(t: Table, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    return {f: getattr(t, f) for f in FIELDS if f not in skip}


def games(case: tuple[str, int, dict[str, Any]], count: int) -> list[list[State]]:
    name, players, over = case
    game = make(name, players, over)
    rng = random.Random(repr(case))  # (a str seed is the same in every process)
    return [
        random_playout(game.new_initial_state(), rng, max_steps=20000, ask_rate=0.02)
        for _ in range(count)
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_cached_legal_actions_match_a_fresh_computation(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    name, players, over = case
    ref = make(name, players, over)
    for states in games(case, GAMES):
        for s in states:
            legal = s.legal_actions()
            assert legal == slow_twin(s, ref).legal_actions(), s
            assert legal == tuple(sorted(legal))
            if s.player == CHANCE:
                assert legal == tuple(a for a, _ in s.chance_outcomes())
            if s.is_terminal():
                assert legal == ()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_states_match_a_replay_and_a_slow_twin(case: tuple[str, int, dict[str, Any]]) -> None:
    """Every state equals its replay from the log and the state a twin built by
    ``State._make`` (no shared tables) reaches with the same move; results read late equal
    results read at every step."""
    name, players, over = case
    game = make(name, players, over)
    ref = make(name, players, over)
    for states in games(case, GAMES // 2):
        for s, nxt in itertools.pairwise(states):
            assert s.table.nxt == _next_seats(s.table.dice)
            event = nxt.history()[-1]
            if isinstance(event[1], str):  # a house-rule question
                continue
            twin = slow_twin(s, ref).apply_action(event[1])
            assert twin.phase is nxt.phase and twin.player == nxt.player
            assert (twin.bid, twin.bidder, twin.callers, twin.flags, twin.pending) == (
                nxt.bid, nxt.bidder, nxt.callers, nxt.flags, nxt.pending,
            )  # fmt: skip
            assert table_fields(twin.table) == table_fields(nxt.table)
            assert twin.legal_actions() == nxt.legal_actions()
        final = states[-1]
        again = game.replay(final.history())
        assert table_fields(again.table) == table_fields(final.table)
        for viewer in (-1, *range(players)):
            assert again.view(viewer) == final.view(viewer)
            assert again.view(viewer).to_dict() == final.view(viewer).to_dict()
        # results read state by state (each pending record built as soon as it exists)
        # equal those of a replay read only at the end
        eager = [s.results for s in states]
        assert eager[-1] == again.results == final.results
        assert all(eager[i] == eager[i + 1][: len(eager[i])] for i in range(len(eager) - 1))


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if preset(c[0], **c[2]).scoring.value == "single-round"],
    ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}",
)
def test_single_round_end_matches_the_general_resolution(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """A single-round game ended by a liar call takes the short resolution, worked out at the
    call; its table must equal the reference builder's and the multi-round resolution's (but
    the out order, which the game-over shortcut leaves as it was)."""
    name, players, over = case
    general = make(name, players, over)
    # every call: the general resolution
    general.tables = replace(general.tables, single_liar=False, quick_liar=False)
    lazy_ends = 0
    for states in games(case, GAMES * 3):
        final = states[-1]
        full = general.replay(final.history())
        assert full.is_terminal() and type(full.table) is Table
        assert isinstance(final.table, Table)
        if final.history()[-1][1] != LIAR:  # an exact call: the general path already
            continue
        lazy_ends += 1
        before = states[-2]
        caller = before.player
        eager = _single_round_table(before, caller, (caller,))
        assert final.winner == eager.winner and final.returns() == full.returns()
        assert table_fields(final.table) == table_fields(eager)
        assert table_fields(final.table, ("out_order",)) == table_fields(full.table, ("out_order",))
        assert final.winner == full.winner and final.returns() == full.returns()
        assert final.results == full.results
        assert astuple(final.results[-1]) == astuple(full.results[-1])
        for viewer in (-1, 0, 1):
            assert final.view(viewer) == full.view(viewer)
        assert final.placements() == [final.winner, 1 - final.winner]  # type: ignore[operator]
    assert lazy_ends > 0


@pytest.mark.parametrize(
    ("name", "players", "over"),
    [("openspiel", 2, {}), ("classic", 4, {}), ("spot-on", 3, {"dice": 3, "stash": "open"})],
)
def test_the_deal_hands_out_sorted_slices_of_the_rolls(
    name: str, players: int, over: dict[str, Any]
) -> None:
    """The deal cuts the rolls seat by seat (seats out of the game get none), sorts each
    hand and leaves the rest to the stash, for any dice counts (seats with none included)."""
    game = make(name, players, over)
    rng = random.Random(11)
    root = game.new_initial_state()
    while root.phase is Phase.SETUP:  # past any opener draw
        root = root.apply_action(root.sample_chance(rng))
    for _ in range(300):
        dice = tuple(rng.choice([0, 1, 2, 3]) for _ in range(players))
        if sum(1 for d in dice if d) < 2:
            continue
        stash = sum(1 for d in dice if d) if over.get("stash") else 0
        t = root.table.copy(dice=dice, cap=sum(dice) + stash)
        s = State._make(game, t, Phase.ROLL, CHANCE, -1, -1, (), 0, (), None, 0)
        rolls = [rng.randint(1, game.rules.faces) for _ in range(t.cap)]
        for r in rolls:
            s = s.apply_action(r)
        assert s.phase is Phase.BID
        i = 0
        for p, d in enumerate(dice):
            assert s.table.hands[p] == tuple(sorted(rolls[i : i + d]))
            i += d
        assert s.table.stash == tuple(rolls[i:])
        assert s.legal_actions() == slow_twin(s, make(name, players, over)).legal_actions()


def test_next_seats_cache_is_bounded() -> None:
    game = Game(preset("classic", dice=30), 12)
    rng = random.Random(3)
    t = game.new_initial_state().table
    for _ in range(5000):
        dice = tuple(rng.choice([0, rng.randint(1, 30)]) for _ in range(12))
        if not any(dice):
            continue
        s = State._make(game, t.copy(dice=dice), Phase.BID, 0, -1, -1, (), 0, (), None, 0)
        from liarsdice.core.bidding.state import _start_round

        started = _start_round(game, s.table.copy(), None, 0)
        assert started.table.nxt == _next_seats(dice)
    assert 0 < len(game.tables.nxt) <= 4096


def test_illegal_moves_still_raise_on_the_fast_paths() -> None:
    from liarsdice.core.bidding import BID_BASE, LIAR, IllegalActionError

    game = Game(preset("openspiel", dice=2), 2)
    s = game.new_initial_state()
    with pytest.raises(IllegalActionError, match=r"die roll must be 1\.\.6"):
        s.apply_action(7)
    with pytest.raises(IllegalActionError, match=r"die roll must be 1\.\.6"):
        s.apply_action(0)
    for f in (1, 2, 3, 4):
        s = s.apply_action(f)
    with pytest.raises(IllegalActionError, match="no bid to call"):
        s.apply_action(LIAR)
    s = s.apply_action(BID_BASE + 5)
    with pytest.raises(IllegalActionError, match="does not beat"):
        s.apply_action(BID_BASE + 5)
    with pytest.raises(IllegalActionError, match="unknown action"):
        s.apply_action(BID_BASE + len(game.space))
    over = s.apply_action(LIAR)
    with pytest.raises(IllegalActionError, match="game is over"):
        over.apply_action(LIAR)


def test_bench_engine_runs() -> None:
    """``bench/engine.py`` runs end to end (our engine, a baseline worker on this checkout,
    and pyspiel when it is installed): every loop with ``--loops all``."""
    out = subprocess.run(
        [
            sys.executable, str(ROOT / "bench" / "engine.py"), "--seconds", "0.05",
            "--runs", "1", "--slice", "0.05", "--baseline", str(ROOT / "src"),
            "--loops", "all",
        ],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    assert "| loop | workload | liarsdice | pyspiel | ratio (per run) |" in out
    assert "classic, 4 players x 5 dice" in out
    assert "speed-up" in out
    assert "RL loop: chance_outcomes(), legal, NumPy info-state tensor, returns()" in out
    assert "RL loop: legal + info-state tensor" in out
    assert "OpenSpiel's loop + returns()" in out and "playout, no returns()" in out


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_returns_match_the_general_path_on_random_games(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """returns() (a per-winner tuple kept by the game) equals the general resolution's winner
    scored by the rules' formula, and the same game replayed with every shortcut off (no
    single-round short resolution, no deal tables kept)."""
    name, players, over = case
    general = make(name, players, over)
    general.tables = replace(general.tables, single_liar=False, few_deals=False, endings=None)
    for states in games(case, GAMES):
        final = states[-1]
        for s in states[:-1]:
            assert s.returns() == (0.0,) * players
        full = general.replay(final.history())
        assert final.returns() == full.returns()
        if general.rules.scoring.value == "room":
            assert final.returns() == tuple(float(x) for x in full.table.scores)
        else:
            w = full.winner
            assert final.returns() == tuple(
                1.0 if p == w else -1.0 / (players - 1) for p in range(players)
            )


def test_a_finished_single_round_state_pickles_whole() -> None:
    """The finished table reads its unchanged fields from the table before the call; a pickled
    and loaded state must still answer every field, the results and every view alike."""
    import pickle

    game = Game(preset("openspiel", dice=5), 2)
    rng = random.Random(7)
    for _ in range(20):
        s = game.new_initial_state()
        while not s.is_terminal():
            s = s.apply_action(rng.choice(s.legal_actions()))
        back = pickle.loads(pickle.dumps(s))
        for name in FIELDS:
            assert getattr(back.table, name) == getattr(s.table, name), name
        assert back.returns() == s.returns() and back.results == s.results
        assert [back.view(p) for p in (-1, 0, 1)] == [s.view(p) for p in (-1, 0, 1)]
