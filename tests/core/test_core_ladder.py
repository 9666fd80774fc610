"""Bid orderings: rules source 002's table, the seeds' worked ladder examples, and every ordering
checked exhaustively against a reference comparison written from the rules text."""

from __future__ import annotations

import itertools

import pytest

from core_util import bids_of, deal, new_game, play, ref_beats, roll
from liarsdice.core.bidding import Bid, Game, Ordering, Rules, preset
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD, PALIFICO, BidSpace

WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
}
FACE_WORDS = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
FACE_WORDS.update({"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6})

# Rules source 002's ordering table, word for word (the "1 / one two" lines, without the numbers).
SEED_002_TABLE = """
one two / one three / one four / one five / one six / one one /
two twos / two threes / two fours / two fives / two sixes /
three twos / three threes / three fours / three fives / three sixes / two ones /
four twos / four threes / four fours / four fives / four sixes /
five twos / five threes / five fours / five fives / five sixes / three ones /
six twos / six threes / six fours / six fives / six sixes /
seven twos / seven threes / seven fours / seven fives / seven sixes / four ones /
eight twos / eight threes / eight fours / eight fives / eight sixes
"""
# ... then its quantity column goes on "9, 5, 10, 11, 6, 12, 13, 7, 14, 15, 8": a plain number
# is the five number bids of that quantity, the numbers out of sequence are bids on ones.
SEED_002_TAIL = (9, 5, 10, 11, 6, 12, 13, 7, 14, 15, 8)


def seed_002_sequence() -> list[Bid]:
    out: list[Bid] = []
    for item in SEED_002_TABLE.replace("\n", " ").split("/"):
        words = item.split()
        if words:
            out.append(Bid(WORDS[words[0]], FACE_WORDS[words[1]]))
    previous = 8
    for q in SEED_002_TAIL:
        if q > previous:
            out.extend(Bid(q, f) for f in range(2, 7))
            previous = q
        else:
            out.append(Bid(q, 1))
    return out


def test_seed_002_table_is_the_ladder_order() -> None:
    expected = seed_002_sequence()
    assert len(expected) == 8 * 5 + 4 + 7 * 5 + 4  # 8 quantities, 4 ones, then 7 more + 4
    space = Game(preset("house-rules"), 4).space  # 20 dice: room for 16x2 after 8x1
    assert list(space.bids[: len(expected)]) == expected
    assert space.bids[len(expected)] == Bid(16, 2)


def test_seed_002_table_by_legal_raises() -> None:
    """Walking the table one step at a time: each entry is the least legal raise of the one
    before it, in an actual game of house rules (3 players x 5 dice: at most 15 dice)."""
    expected = [b for b in seed_002_sequence() if b.quantity <= 15]
    g = new_game("house-rules", 3, first_opener="given")
    s = deal(g.new_initial_state(), [2, 2, 3, 3, 4], [4, 5, 5, 6, 6], [1, 1, 2, 3, 6])
    assert bids_of(s)[0] == expected[0]
    for b in expected:
        s = play(s, str(b))
        legal = bids_of(s)
        if b == expected[-1]:
            # 16x2 would come next: over 15 dice only more ones are left
            assert legal == [Bid(q, 1) for q in range(9, 16)]
        else:
            assert legal[0] == expected[expected.index(b) + 1]


@pytest.mark.parametrize(
    ("old", "least_ones"),
    [
        ("5x4", "3x1"),  # rules source 000: odd frequency, halve and round up
        ("6x5", "4x1"),  # rules source 000: even frequency, halve and add one
        ("3x6", "2x1"),  # rules source 002: two ones beat three sixes
        ("5x3", "3x1"),  # rules source 002: three ones beat five threes
        ("6x4", "4x1"),  # rules source 002: four ones beat six fours
        ("1x2", "1x1"),
        ("2x6", "2x1"),
    ],
)
@pytest.mark.parametrize("name", ["classic", "milton-bradley", "house-rules"])
def test_least_ones_bid_on_the_ladder(name: str, old: str, least_ones: str) -> None:
    g = new_game(name, 3, first_opener="given", show_reroll="off")
    s = deal(g.new_initial_state(), [1] * 5, [2] * 5, [3] * 5)
    s = play(s, old)
    ones = [b for b in bids_of(s) if b.face == 1]
    assert str(ones[0]) == least_ones
    below = Bid(int(least_ones.split("x")[0]) - 1, 1)
    if below.quantity >= 1:
        assert below not in bids_of(s)


@pytest.mark.parametrize("name", ["classic", "milton-bradley", "house-rules"])
def test_back_from_ones_needs_double(name: str) -> None:
    """Rules source 000: "four 1's" can be followed by "eight 3's" (double the frequency), or
    more 1's."""
    g = new_game(name, 3, first_opener="given", show_reroll="off")
    s = deal(g.new_initial_state(), [1] * 5, [2] * 5, [3] * 5)
    s = play(s, "4x1")
    legal = bids_of(s)
    assert Bid(8, 3) in legal and Bid(8, 2) in legal and Bid(5, 1) in legal
    assert Bid(7, 6) not in legal and Bid(4, 1) not in legal and Bid(3, 1) not in legal
    assert min((b for b in legal if b.face != 1), key=lambda b: (b.quantity, b.face)) == Bid(8, 2)


@pytest.mark.parametrize(
    ("higher", "lower"),
    [("4x5", "3x5"), ("7x3", "7x2"), ("12x6", "8x4"), ("2x1", "3x6"), ("3x1", "5x3")],
)
def test_seed_002_examples_of_higher(higher: str, lower: str) -> None:
    space = Game(preset("house-rules"), 4).space
    h, lo = (Bid(*map(int, x.split("x"))) for x in (higher, lower))
    assert space.id_of(h) > space.id_of(lo)
    assert space.beats(h, lo, 20) and not space.beats(lo, h, 20)


def test_perudo_ones() -> None:
    g = new_game("perudo", 3)
    s = deal(g.new_initial_state(), [1] * 5, [2] * 5, [3] * 5)
    assert all(b.face != 1 for b in bids_of(s)), "perudo: no opening on ones"
    after5 = bids_of(play(s, "5x4"))
    assert Bid(3, 1) in after5 and Bid(2, 1) not in after5  # ceil(5/2)
    after6 = bids_of(play(s, "6x4"))
    assert Bid(3, 1) in after6 and Bid(2, 1) not in after6  # ceil(6/2)
    back = bids_of(play(s, "5x4", "3x1"))
    assert Bid(7, 2) in back and Bid(6, 6) not in back and Bid(4, 1) in back  # 2k+1


def test_classic_opening_on_ones_allowed_unless_disabled() -> None:
    s = deal(new_game("classic", 2).new_initial_state(), [2] * 5, [3] * 5)
    assert Bid(1, 1) in bids_of(s)
    s = deal(new_game("classic", 2, open_on_wild=False).new_initial_state(), [2] * 5, [3] * 5)
    assert Bid(1, 1) not in bids_of(s) and Bid(1, 2) in bids_of(s)


def test_quantity_major_spot_on() -> None:
    """Rules source 003: a higher die number, or a higher amount with any die number; ones plain."""
    g = new_game("spot-on", 2)
    s = play(deal(g.new_initial_state(), [1] * 5, [2] * 5), "3x5")
    legal = bids_of(s)
    assert Bid(3, 6) in legal and Bid(4, 1) in legal and Bid(4, 2) in legal
    assert Bid(3, 4) not in legal and Bid(3, 1) not in legal and Bid(2, 6) not in legal


def test_room_monotone() -> None:
    """Rules source 004: raise value or quantity or both, never reduce either; 2 < ... < 6 < 1."""
    g = new_game("room", 2)
    s = play(deal(g.new_initial_state(), [2, 3, 4, 5], [6, 6, 1, 1]), "3x5")
    legal = bids_of(s)
    for ok in ("3x6", "3x1", "4x5", "4x6", "8x1"):
        assert Bid(*map(int, ok.split("x"))) in legal, ok
    for bad in ("3x5", "4x2", "4x4", "2x6", "2x1", "3x4"):
        assert Bid(*map(int, bad.split("x"))) not in legal, bad
    top = play(s, "8x1")
    assert bids_of(top) == [] and top.legal_actions() == (0,)  # LIAR only


def test_face_major() -> None:
    g = new_game("spot-on", 2, ordering="face")
    s = play(deal(g.new_initial_state(), [1] * 5, [2] * 5), "3x5")
    legal = bids_of(s)
    assert Bid(4, 5) in legal and Bid(1, 6) in legal
    assert Bid(10, 4) not in legal and Bid(2, 5) not in legal


def test_cap_is_dice_in_play_and_top_bid_forces_a_call() -> None:
    g = new_game("openspiel")
    s = roll(g.new_initial_state(), [2, 5])
    assert max(b.quantity for b in bids_of(s)) == 2
    s = play(s, "2x6")
    assert s.legal_actions() == (0,)
    assert bids_of(s) == []


# ------------------------------------------------------------------ exhaustive comparison

CONFIGS: list[tuple[str, Rules]] = [
    ("classic", preset("classic")),
    ("classic-wild3", preset("classic", wild=3)),
    ("classic-faces4", preset("classic", faces=4)),
    ("classic-no-open-wild", preset("classic", open_on_wild=False)),
    ("classic-no-wild", preset("classic", wild=None)),
    ("perudo", preset("perudo")),
    ("perudo-faces5-wild5", preset("perudo", faces=5, wild=5)),
    ("perudo-open", preset("perudo", open_on_wild=True)),
    ("spot-on", preset("spot-on")),
    ("spot-on-order", preset("spot-on", face_order=(3, 1, 6, 2, 5, 4))),
    ("face", preset("spot-on", ordering="face")),
    ("face-wild", preset("classic", ordering="face", face_order=(2, 3, 4, 5, 6, 1))),
    ("room", preset("room")),
    ("monotone-wild", preset("room", wild=6, faces=6)),
    ("openspiel", preset("openspiel")),
    ("snyd-joker", preset("snyd-joker", faces=4)),
]


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_every_raise_matches_the_reference(label: str, rules: Rules) -> None:
    """For every bid (and the opening) and every cap, the engine's legal raises are exactly the
    bids under the cap that the reference comparison accepts; in palifico mode too."""
    max_q = 7
    space = BidSpace(rules, max_q)
    bids = list(space.bids)
    assert sorted(bids) == sorted(
        Bid(q, f) for q in range(1, max_q + 1) for f in range(1, 7)[: rules.faces]
    )
    open_mode = OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD
    for cap in range(0, max_q + 1):
        for old in [None, *bids]:
            last = -1 if old is None else space.id_of(old)
            got = {
                space.bids[i]
                for i in space.raises(last, cap, open_mode if old is None else OPEN_ANY)
            }
            want = {b for b in bids if b.quantity <= cap and ref_beats(rules, b, old)}
            assert got == want, (label, cap, old)
            pal = {space.bids[i] for i in space.raises(last, cap, PALIFICO)}
            want_pal = {
                b for b in bids if b.quantity <= cap and ref_beats(rules, b, old, palifico=True)
            }
            if old is not None:
                assert pal == want_pal, (label, cap, old, "palifico")
    if rules.ordering is not Ordering.MONOTONE:
        # a total order: ids follow the ranking, every pair compares one way
        for a, b in itertools.combinations(bids, 2):
            assert ref_beats(rules, b, a) != ref_beats(rules, a, b), (a, b)
            assert ref_beats(rules, b, a) == (space.id_of(b) > space.id_of(a))
