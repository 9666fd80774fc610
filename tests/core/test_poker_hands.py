"""Poker-dice hands and bids: ranking, satisfaction and notation (rules source 004, second half)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from liarsdice.core.errors import NotationError
from liarsdice.core.poker.hands import (
    ALL_BIDS,
    BID_IDS,
    NUM_BIDS,
    Category,
    PokerBid,
    bid_id,
    bid_key,
    format_face,
    format_poker_bid,
    hand_bid,
    hand_key,
    parse_face,
    parse_poker_bid,
    poker_bid_words,
    satisfies,
)

P = parse_poker_bid


def faces(text: str) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in text.split())


# One hand of each category, low to high (Appendix 2 of the seed).
HANDS_BY_CATEGORY = [
    (Category.HIGH, "A Q J 10 9"),
    (Category.PAIR, "9 9 10 J Q"),
    (Category.TWO_PAIR, "10 10 9 9 J"),
    (Category.THREE, "9 9 9 10 J"),
    (Category.STRAIGHT, "K Q J 10 9"),
    (Category.STRAIGHT, "A K Q J 10"),
    (Category.FULL_HOUSE, "9 9 9 10 10"),
    (Category.FOUR, "9 9 9 9 10"),
    (Category.FIVE, "9 9 9 9 9"),
]


# ----------------------------------------------------------------- ranking
def test_every_category_beats_every_lower_category() -> None:
    for (c1, h1), (c2, h2) in pairwise(HANDS_BY_CATEGORY):
        assert hand_bid(faces(h1)).category is c1
        assert hand_bid(faces(h2)).category is c2
        assert hand_key(faces(h1)) < hand_key(faces(h2))
    # and for bids: every bid of a lower category ranks below every bid of a higher one
    best: dict[Category, tuple[int, ...]] = {}
    worst: dict[Category, tuple[int, ...]] = {}
    for b in ALL_BIDS:
        best[b.category] = max(best.get(b.category, b.key), b.key)
        worst[b.category] = min(worst.get(b.category, b.key), b.key)
    cats = sorted(best)
    assert cats == list(Category)
    for lo in cats:
        for hi in cats:
            if lo < hi:
                assert best[lo] < worst[hi], (lo, hi)


def test_the_worst_hand_of_a_category_beats_the_best_of_the_one_below() -> None:
    assert hand_key(faces("9 9 10 J Q")) > hand_key(faces("A K Q J 9"))  # pair > high die
    assert hand_key(faces("10 10 9 9 J")) > hand_key(faces("A A K Q J"))  # two pair > pair
    assert hand_key(faces("9 9 9 10 J")) > hand_key(faces("A A K K Q"))  # three > two pair
    assert hand_key(faces("K Q J 10 9")) > hand_key(faces("A A A K Q"))  # straight > three
    assert hand_key(faces("9 9 9 10 10")) > hand_key(faces("A K Q J 10"))  # full house > straight
    assert hand_key(faces("9 9 9 9 10")) > hand_key(faces("A A A K K"))  # four > full house
    assert hand_key(faces("9 9 9 9 9")) > hand_key(faces("A A A A K"))  # five > four


def test_straights() -> None:
    low, high = P("low straight"), P("high straight")
    assert low.key < high.key
    assert hand_bid(faces("K Q J 10 9")) == low
    assert hand_bid(faces("A K Q J 10")) == high
    assert satisfies(faces("A K Q J 10"), low)
    assert not satisfies(faces("K Q J 10 9"), high)
    assert hand_bid(faces("A K Q J 9")).category is Category.HIGH  # no wrap-around straight
    assert P("three A K Q").key < low.key < high.key < P("full house 9 10").key


def test_kickers() -> None:
    # a bid with a kicker beats the same bid without
    assert P("four J 10").key > P("four J").key  # the seed's example
    assert P("pair K 9").key > P("pair K").key
    assert P("three Q 9").key > P("three Q").key
    assert P("two pair Q 10 9").key > P("two pair Q 10").key
    # a higher kicker beats a lower one; kickers compare highest first
    assert P("four J A").key > P("four J K").key
    assert P("pair K A").key > P("pair K Q J 10").key
    assert P("pair K Q 9").key > P("pair K J 10").key
    assert P("pair K Q J 10").key > P("pair K Q J").key
    # but the made rank comes first
    assert P("pair A").key > P("pair K A Q J").key
    assert P("two pair K 9").key > P("two pair Q J A").key
    assert P("full house 10 9").key < P("full house J 9").key
    assert P("full house A 9").key > P("full house K A").key


def test_high_die_kickers() -> None:
    assert P("high A").key > P("high K Q J 10").key
    assert P("high A K").key > P("high A").key
    assert P("high A Q").key > P("high A J 10 9").key
    assert P("high A K Q J 9").key > P("high A K Q 10 9").key
    assert P("high 9").key > P("junk").key
    with pytest.raises(NotationError, match="lower than its high die"):
        P("high K A")
    with pytest.raises(NotationError, match="high straight"):
        P("high A K Q J 10")
    with pytest.raises(NotationError, match="low straight"):
        P("high K Q J 10 9")


def test_all_bids_are_numbered_in_rank_order() -> None:
    assert NUM_BIDS == len(ALL_BIDS) == 462
    assert all(a.key < b.key for a, b in pairwise(ALL_BIDS))
    assert all(BID_IDS[b] == i == bid_id(b) for i, b in enumerate(ALL_BIDS))
    assert all(bid_key(b) == b.key and len(b.key) == 6 for b in ALL_BIDS)
    counts = Counter(b.category for b in ALL_BIDS)
    assert counts == {
        Category.JUNK: 1,
        Category.HIGH: 60,
        Category.PAIR: 156,
        Category.TWO_PAIR: 75,
        Category.THREE: 96,
        Category.STRAIGHT: 2,
        Category.FULL_HOUSE: 30,
        Category.FOUR: 36,
        Category.FIVE: 6,
    }
    assert ALL_BIDS[0] == P("junk") and ALL_BIDS[-1] == P("five A")


def test_every_hand_reading_is_a_bid_and_satisfies_itself() -> None:
    for dice in combinations_with_replacement(range(1, 7), 5):
        reading = hand_bid(dice)
        assert reading in BID_IDS
        assert reading.size == 5
        assert satisfies(dice, reading)
        assert hand_key(dice) == reading.key


def test_bid_sizes() -> None:
    sizes = {
        "junk": 0,
        "high K": 1,
        "pair K": 2,
        "pair K A": 3,
        "three J": 3,
        "two pair Q 10": 4,
        "three A K": 4,
        "four J 10": 5,
        "full house A Q": 5,
        "low straight": 5,
        "five Q": 5,
    }
    for text, size in sizes.items():
        assert P(text).size == size


# ------------------------------------------------------------ satisfaction
@pytest.mark.parametrize(
    ("dice", "bid", "ok"),
    [
        ("K K 9 10 J", "pair K", True),
        ("K K 9 10 J", "pair K J", True),
        ("K K 9 10 J", "pair K Q", False),
        ("K K 9 10 J", "pair A", False),
        ("K K 9 10 J", "high A", True),  # a pair beats any high die
        ("K K 9 10 J", "junk", True),
        ("Q Q 10 10 A", "two pair Q 10 A", True),
        ("Q Q 10 10 9", "two pair Q 10 A", False),
        ("Q Q 10 10 9", "two pair Q J", False),
        ("Q Q 10 10 9", "pair A", True),  # a better category satisfies
        ("A A A K K", "full house A K", True),
        ("A A A K K", "full house A Q", True),
        ("K K K A A", "full house A K", False),
        ("A A A K K", "high straight", True),
        ("A A A K Q", "low straight", False),
        ("K Q J 10 9", "three A K Q", True),
        ("J J J J 10", "four J 10", True),
        ("J J J J 10", "four J", True),
        ("J J J J 9", "four J 10", False),
        ("Q Q Q Q Q", "five Q", True),
        ("Q Q Q Q Q", "five K", False),
        ("Q Q Q Q A", "five 9", False),
        ("A K Q J 9", "high A K Q J", True),
        ("A K Q 10 9", "high A K Q J", False),
    ],
)
def test_satisfies(dice: str, bid: str, ok: bool) -> None:
    assert satisfies(faces(dice), P(bid)) is ok


# ---------------------------------------------------------------- notation
def test_every_bid_round_trips_through_both_notations() -> None:
    for b in ALL_BIDS:
        assert P(format_poker_bid(b)) == b
        assert P(poker_bid_words(b)) == b
        assert str(b) == format_poker_bid(b)


@given(st.sampled_from(ALL_BIDS), st.booleans(), st.booleans())
def test_notation_ignores_case_and_spacing(bid: PokerBid, upper: bool, words: bool) -> None:
    text = poker_bid_words(bid) if words else format_poker_bid(bid)
    text = text.upper() if upper else text.lower()
    assert P("  " + text.replace(" ", "   ") + " ") == bid


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("junk", "junk"),
        ("high K", "high K"),
        ("pair K", "pair K"),
        ("two pair Q 10", "two pair Q 10"),
        ("two pair 10 Q", "two pair Q 10"),
        ("three J", "three J"),
        ("three J K", "three J K"),
        ("full house A Q", "full house A Q"),
        ("low straight", "low straight"),
        ("high straight", "high straight"),
        ("four 9 A", "four 9 A"),
        ("five Q", "five Q"),
        ("pair K 9 A", "pair K A 9"),
        ("high die king", "high K"),
        ("one king", "high K"),
        ("one pair of kings", "pair K"),
        ("a pair of kings", "pair K"),
        ("two kings", "pair K"),
        ("a pair of aces and a ten", "pair A 10"),
        ("two pairs queens and tens", "two pair Q 10"),
        ("two pair - nines and tens", "two pair 10 9"),
        ("three queens", "three Q"),
        ("three jacks and a king", "three J K"),
        ("three aces and a king", "three A K"),
        ("full house aces over queens", "full house A Q"),
        ("full house - aces over queens", "full house A Q"),
        ("four nines and an ace", "four 9 A"),
        ("four jacks and a ten", "four J 10"),
        ("five queens", "five Q"),
        ("five of a kind queens", "five Q"),
        ("a pair of nines", "pair 9"),
        ("a pair of tens", "pair 10"),
        ("a pair of jacks", "pair J"),
        ("a pair of queens", "pair Q"),
        ("high die ace", "high A"),
        ("high die nine", "high 9"),
        ("one ten", "high 10"),
        ("one jack", "high J"),
        ("one queen", "high Q"),
        ("FULL HOUSE A Q", "full house A Q"),
        ("a pair of K", "pair K"),
        ("pair K A", "pair K A"),
    ],
)
def test_parse_forms(text: str, canonical: str) -> None:
    assert format_poker_bid(P(text)) == canonical


def test_word_forms() -> None:
    assert poker_bid_words(P("pair K")) == "a pair of kings"
    assert poker_bid_words(P("pair A 10")) == "a pair of aces and a ten"
    assert poker_bid_words(P("two pair Q 10")) == "two pairs, queens and tens"
    assert poker_bid_words(P("three J K")) == "three jacks and a king"
    assert poker_bid_words(P("full house A Q")) == "full house, aces over queens"
    assert poker_bid_words(P("four 9 A")) == "four nines and an ace"
    assert poker_bid_words(P("five Q")) == "five queens"
    assert poker_bid_words(P("high K")) == "high die king"
    assert poker_bid_words(P("junk")) == "junk"
    assert poker_bid_words(P("low straight")) == "low straight"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty bid"),
        ("banana", "can't read 'banana'"),
        ("pair Z", "can't read 'z'"),
        ("K Q", "which hand"),
        ("pair", "pair needs 1 rank"),
        ("two pair Q", "two pair needs 2 rank"),
        ("straight", "low straight"),
        ("low straight K", "names no faces"),
        ("pair K K", "kicker K repeats the pair rank K: that is three of a kind"),
        ("three J J", "four of a kind"),
        ("four 9 9", "five of a kind"),
        ("two pair Q 10 Q", "full house"),
        ("two pair Q Q", "two different ranks"),
        ("full house A A", "two different ranks"),
        ("pair K A A", "kickers must differ"),
        ("pair K A Q J 10", "at most 3 kicker"),
        ("four 9 A K", "at most 1 kicker"),
        ("five Q A", "takes no kickers"),
        ("full house A Q K", "takes no kickers"),
        ("pair K high", "name the hand before its faces"),
        ("six kings", "can't read 'six'"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        P(text)


def test_bid_constructor_normalises_and_validates() -> None:
    assert PokerBid(Category.TWO_PAIR, (2, 4), (1,)) == P("two pair Q 10 9")
    assert PokerBid(Category.PAIR, (5,), (1, 6)).kickers == (6, 1)
    with pytest.raises(NotationError, match=r"1\.\.6"):
        PokerBid(Category.PAIR, (7,))
    with pytest.raises(NotationError, match="names 1 rank"):
        PokerBid(Category.FIVE, ())
    with pytest.raises(NotationError, match=r"low .* or high"):
        PokerBid(Category.STRAIGHT, (4,))


def test_faces() -> None:
    assert [format_face(f) for f in range(1, 7)] == ["9", "10", "J", "Q", "K", "A"]
    for f in range(1, 7):
        assert parse_face(format_face(f)) == f
    assert parse_face("queens") == parse_face("Queen") == parse_face("q") == 4
    for bad in ("1", "0", "x", ""):
        with pytest.raises(NotationError):
            parse_face(bad)
    with pytest.raises(NotationError):
        format_face(7)
    with pytest.raises(ValueError, match="five faces"):
        hand_bid((1, 2, 3))
