"""Game-tree counts ("perft") of tiny configurations, stored in tests/core/golden/core_perft.json.

Each count is checked three ways: the engine's full tree walk, the golden file, and an
independent reference (a closed formula, or a brute-force enumerator written here from the
rules text that shares no code with the engine's bid tables or resolution).

Regenerate the golden file after an intended rules change with::

    CORE_PERFT_UPDATE=1 .venv/bin/pytest tests/core/test_core_perft.py
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from core_util import ref_beats, ref_count, ref_resolve
from liarsdice.core.bidding import CHANCE, EXACT, LIAR, Bid, ExactCall, Game, Scoring, State, preset

GOLDEN = Path(__file__).parent / "golden" / "core_perft.json"

# name -> (preset, overrides); every game is two seats, seat 0 opens.
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "openspiel-1v1-f2": ("openspiel", {"faces": 2, "wild": 2}),
    "openspiel-1v1-f3": ("openspiel", {"faces": 3, "wild": 3}),
    "openspiel-1v1-f4": ("openspiel", {"faces": 4, "wild": 4}),
    "snyd-normal-1v1-f2": ("snyd-normal", {"faces": 2}),
    "snyd-normal-1v1-f3": ("snyd-normal", {"faces": 3}),
    "snyd-joker-1v1-f2": ("snyd-joker", {"faces": 2}),
    "snyd-joker-1v1-f3": ("snyd-joker", {"faces": 3}),
    "openspiel-spot-on-1v1-f3": ("openspiel", {"faces": 3, "wild": 3, "exact": "spot-on"}),
    "classic-1v1-f3": ("classic", {"faces": 3, "dice": 1, "first_opener": "given"}),
    "classic-2v1-f2": ("classic", {"faces": 2, "dice": (2, 1), "first_opener": "given"}),
    # the challenge winner opens (show-and-reroll off: the reference does not model it)
    "milton-bradley-2v1-f2": (
        "milton-bradley",
        {"faces": 2, "dice": (2, 1), "first_opener": "given", "show_reroll": "off"},
    ),
    "perudo-order-1v1-f3": (
        "classic",
        {"faces": 3, "dice": 1, "ordering": "perudo", "open_on_wild": False},
    ),
    "spot-on-2v1-f2": ("spot-on", {"faces": 2, "dice": (2, 1)}),
    "room-1v1-f3": ("room", {"faces": 3, "dice": 1, "face_order": (2, 3, 1)}),
    "room-2v1-f2": ("room", {"faces": 2, "dice": (2, 1), "face_order": (2, 1)}),
    "face-order-1v1-f3": ("snyd-normal", {"faces": 3, "ordering": "face"}),
}


@dataclass
class Counts:
    """Tree counts: every node, terminal histories, terminals won by seat 0, and terminals
    where the last challenge went to the bidder (the challenged bid stood)."""

    nodes: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    wins0: int = 0
    bid_stood: int = 0
    by_depth: list[int] = field(default_factory=list)

    def add(self, other: Counts, shift: int = 0) -> None:
        self.nodes += other.nodes
        self.terminals += other.terminals
        self.chance_nodes += other.chance_nodes
        self.wins0 += other.wins0
        self.bid_stood += other.bid_stood
        for d, k in enumerate(other.by_depth):
            while len(self.by_depth) <= d + shift:
                self.by_depth.append(0)
            self.by_depth[d + shift] += k


def make_game(name: str) -> Game:
    base, over = CONFIGS[name]
    return Game(preset(base, **over), 2, opener=0)


# ------------------------------------------------------------------------ engine walk


def engine_counts(state: State) -> Counts:
    """Walk the whole tree below ``state`` through the public API."""
    c = Counts(nodes=1, by_depth=[1])
    if state.is_terminal():
        c.terminals = 1
        c.wins0 = int(state.winner == 0)
        last = state.results[-1]
        c.bid_stood = int(last.winner == last.bidder)
        return c
    if state.player == CHANCE:
        c.chance_nodes = 1
        children = [a for a, _ in state.chance_outcomes()]
    else:
        children = list(state.legal_actions())
    for a in children:
        c.add(engine_counts(state.apply_action(a)), shift=1)
    return c


# -------------------------------------------------------------------- reference walk


def reference_counts(game: Game) -> Counts:
    """Brute force from the rules text: deals x bid chains x calls, round after round."""
    rules = game.rules
    faces = rules.faces
    calls = [LIAR] + ([EXACT] if rules.exact is not ExactCall.NONE else [])
    start = game.start_dice

    @functools.cache
    def round_counts(dice: tuple[int, int], opener: int) -> Counts:
        total = sum(dice)
        bids = [Bid(q, f) for q in range(1, total + 1) for f in range(1, faces + 1)]
        out = Counts()
        for k in range(total):  # chance nodes before each die of the deal
            out.add(Counts(nodes=faces**k, chance_nodes=faces**k, by_depth=[faces**k]), shift=k)
        for deal in itertools.product(range(1, faces + 1), repeat=total):
            hands = [deal[: dice[0]], deal[dice[0] :]]
            if dice[0] == 0:
                hands = [(), deal]
            out.add(bidding(hands, dice, opener, bids), shift=total)
        return out

    def bidding(
        hands: list[tuple[int, ...]], dice: tuple[int, int], opener: int, bids: list[Bid]
    ) -> Counts:
        every = [d for h in hands for d in h]

        def walk(last: Bid | None, bidder: int, to_move: int) -> Counts:
            c = Counts(nodes=1, by_depth=[1])
            for b in bids:
                if ref_beats(rules, b, last):
                    c.add(walk(b, to_move, 1 - to_move), shift=1)
            if last is not None:
                for call in calls:
                    c.add(resolve(last, bidder, to_move, call), shift=1)
            return c

        def resolve(bid: Bid, bidder: int, caller: int, call: int) -> Counts:
            count = ref_count(rules, every, bid.face)
            if rules.scoring is Scoring.ROOM:
                if count >= bid.quantity:
                    return terminal(bidder, stood=True)
                new = list(dice)
                new[bidder] -= 1
                if new[bidder] == 0:
                    return terminal(caller, stood=False)
                return round_counts((new[0], new[1]), bidder)  # the loser opens
            exp = ref_resolve(
                rules,
                call=call,
                bid=bid,
                count=count,
                bidder=bidder,
                caller=caller,
                dice=dice,
                start=start,
                pile=0,
            )
            stood = exp.winner == bidder
            if rules.scoring is Scoring.SINGLE_ROUND:
                return terminal(exp.winner, stood)
            new = [dice[p] + exp.gains.get(p, 0) for p in (0, 1)]
            for p, k in exp.losses.items():
                new[p] = max(0, new[p] - k)
            alive = [p for p in (0, 1) if new[p] > 0]
            if len(alive) == 1:
                return terminal(alive[0], stood)
            rule = rules.next_opener.value
            loser = next(iter(exp.losses), caller)
            opener = {"winner": exp.winner, "bidder": bidder, "loser": loser}[rule]
            return round_counts((new[0], new[1]), opener)

        return walk(None, -1, opener)

    def terminal(winner: int, stood: bool) -> Counts:
        return Counts(
            nodes=1, terminals=1, wins0=int(winner == 0), bid_stood=int(stood), by_depth=[1]
        )

    return round_counts((start[0], start[1]), 0)


# ------------------------------------------------------------------------------ tests


def load_golden() -> dict[str, Any]:
    with GOLDEN.open() as fh:
        data: dict[str, Any] = json.load(fh)
    return data


@pytest.fixture(scope="module")
def engine_results() -> dict[str, Counts]:
    results = {name: engine_counts(make_game(name).new_initial_state()) for name in CONFIGS}
    if os.environ.get("CORE_PERFT_UPDATE"):
        GOLDEN.parent.mkdir(exist_ok=True)
        data = {
            name: {"preset": CONFIGS[name][0], "overrides": CONFIGS[name][1], **asdict(c)}
            for name, c in results.items()
        }
        data["openspiel-1v1-f6-infosets"] = {"infosets": openspiel_infosets()}
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()]
        GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    return results


@pytest.mark.parametrize("name", list(CONFIGS))
def test_perft_matches_golden_and_reference(name: str, engine_results: dict[str, Counts]) -> None:
    got = engine_results[name]
    golden = load_golden()[name]
    assert golden["preset"] == CONFIGS[name][0]
    assert asdict(got) == {k: golden[k] for k in asdict(got)}
    ref = reference_counts(make_game(name))
    assert asdict(got) == asdict(ref)
    assert got.nodes == sum(got.by_depth)


def bids_in_total_order(name: str) -> int:
    g = make_game(name)
    return len(g.space)


@pytest.mark.parametrize("faces", [2, 3, 4])
def test_openspiel_closed_formulas(faces: int, engine_results: dict[str, Counts]) -> None:
    """One die each: B = 2F bids in a total order. Per deal, every subset of bids is one bid
    sequence (2^B decision nodes) and each non-empty one ends in a call (2^B - 1 terminals);
    at k actions into the bidding there are C(B, k) decision nodes and C(B, k-1) terminals."""
    got = engine_results[f"openspiel-1v1-f{faces}"]
    b = 2 * faces
    deals = faces**2
    assert bids_in_total_order(f"openspiel-1v1-f{faces}") == b
    assert got.terminals == deals * (2**b - 1)
    assert got.chance_nodes == 1 + faces
    assert got.nodes == 1 + faces + deals * (2**b + 2**b - 1)
    depth = [1, faces] + [
        deals * (math.comb(b, k) + (math.comb(b, k - 1) if k >= 2 else 0)) for k in range(b + 2)
    ]
    assert got.by_depth == depth


def test_spot_on_doubles_the_terminals(engine_results: dict[str, Counts]) -> None:
    got = engine_results["openspiel-spot-on-1v1-f3"]
    assert got.terminals == 9 * 2 * (2**6 - 1)
    assert got.nodes == 1 + 3 + 9 * (2**6 + 2 * (2**6 - 1))


def test_snyd_wild_changes_only_who_wins(engine_results: dict[str, Counts]) -> None:
    for f in (2, 3):
        normal = engine_results[f"snyd-normal-1v1-f{f}"]
        joker = engine_results[f"snyd-joker-1v1-f{f}"]
        assert normal.nodes == joker.nodes and normal.terminals == joker.terminals
        assert normal.terminals == f * f * (2 ** (2 * f) - 1)
        assert joker.bid_stood > normal.bid_stood  # jokers make bids true more often


def test_ladder_one_die_each(engine_results: dict[str, Counts]) -> None:
    """Ladder with faces 1..3 and two dice in play: 1x2 1x3 1x1 2x2 2x3 2x1 (2x1 sits after
    3x3, which the cap removes): a total order of 6, so 2^6 - 1 bid sequences per deal; any
    challenge takes a player's only die, so there is one round."""
    got = engine_results["classic-1v1-f3"]
    g = make_game("classic-1v1-f3")
    assert [str(b) for b in g.space.bids if b.quantity <= 2] == [
        "1x2",
        "1x3",
        "1x1",
        "2x2",
        "2x3",
        "2x1",
    ]
    assert got.terminals == 9 * (2**6 - 1)
    assert got.nodes == 1 + 3 + 9 * (2**6 + 2**6 - 1)


def test_perudo_order_opening(engine_results: dict[str, Counts]) -> None:
    """Perudo order, faces 1..3, two dice: 1x2 1x3 2x2 2x3 1x1 2x1 (k ones sit after 2k x top).
    With no opening on ones, the bid sequences are the non-empty increasing subsets of these
    six bids whose least element is not 1x1 or 2x1: 2^6 - 1 minus the 2^2 - 1 subsets of those
    two."""
    got = engine_results["perudo-order-1v1-f3"]
    # non-empty increasing subsets of 6 bids whose least element is not 1x1 (pos 5) / 2x1 (6)
    sequences = (2**6 - 1) - (2**2 - 1)
    assert got.terminals == 9 * sequences


def test_monotone_chains(engine_results: dict[str, Counts]) -> None:
    """Monotone with quantities 1..2 and 3 ranked faces: a bid sequence is a chain in the
    product order of (quantity, rank), each step going up in one or both; the chains are
    counted by brute force over subsets of the six bids."""
    got = engine_results["room-1v1-f3"]
    points = [(q, r) for q in (1, 2) for r in range(3)]
    chains = 0
    for size in range(1, 7):
        for sub in itertools.combinations(points, size):
            s = sorted(sub)
            if all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(s)):
                chains += 1
    assert got.terminals == 9 * chains


def openspiel_infosets() -> int:
    """Information sets of OpenSpiel's liars_dice with one six-sided die each.

    The bidding tree does not depend on the dice, so each (player, own die) pair is walked once
    with any die for the other seat; an information set is (seat, own dice, public bids).
    """
    g = Game(preset("openspiel"), 2, opener=0)
    keys: set[tuple[int, tuple[int, ...], tuple[tuple[int, Bid], ...]]] = set()

    def walk(s: State, me: int) -> None:
        if s.is_terminal():
            return
        if s.player == me:
            v = s.view(me)
            keys.add((me, v.my_dice, v.bids))
        for a in s.legal_actions():
            walk(s.apply_action(a), me)

    for me in (0, 1):
        for f in range(1, 7):
            dice = [f, 1] if me == 0 else [1, f]
            walk(g.new_initial_state().apply_action(dice[0]).apply_action(dice[1]), me)
    return len(keys)


def test_openspiel_infosets_match_the_published_count() -> None:
    """OpenSpiel / the CFR literature: Liar's Dice (1,1) with six faces has 24,576
    information sets = 2 seats x 6 dice x 2^11 bid histories where that seat is to move."""
    n = openspiel_infosets()
    assert n == 24_576 == 2 * 6 * 2**11
    assert load_golden()["openspiel-1v1-f6-infosets"]["infosets"] == n
