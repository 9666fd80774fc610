"""Tests for liarsdice.notation.bidding.bids: canonical bids, calls, and lenient human input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from liarsdice.core.bidding.bid import Bid
from liarsdice.core.errors import NotationError
from liarsdice.notation.bidding.bids import (
    Call,
    bid_to_words,
    format_bid,
    parse_bid,
    parse_call,
    parse_human_bid,
)

quantities = st.integers(min_value=1, max_value=99)
faces_1_to_12 = st.integers(min_value=1, max_value=12)


@st.composite
def bids_with_faces(draw: st.DrawFn) -> tuple[Bid, int]:
    """A bid with face in 1..12 and a die size (2..12) that allows it."""
    face = draw(faces_1_to_12)
    faces = draw(st.integers(min_value=max(face, 2), max_value=12))
    return Bid(draw(quantities), face), faces


# --- format_bid / parse_bid -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "text"),
    [(Bid(3, 5), "3x5"), (Bid(2, 1), "2x1"), (Bid(12, 6), "12x6"), (Bid(100, 12), "100x12")],
)
def test_format_bid(bid: Bid, text: str) -> None:
    assert format_bid(bid) == text
    assert format_bid(bid) == str(bid)


@pytest.mark.parametrize(
    ("text", "bid"),
    [
        ("3x5", Bid(3, 5)),
        ("3X5", Bid(3, 5)),
        ("  3x5\n", Bid(3, 5)),
        ("2x1", Bid(2, 1)),
        ("10x6", Bid(10, 6)),
    ],
)
def test_parse_bid(text: str, bid: Bid) -> None:
    assert parse_bid(text) == bid


def test_parse_bid_larger_dice() -> None:
    assert parse_bid("4x12", faces=12) == Bid(4, 12)
    assert parse_bid("4x8", faces=8) == Bid(4, 8)


@pytest.mark.parametrize(
    "text",
    ["", "x", "3", "3x", "x5", "3 x 5", "3 5", "3,5", "three fives", "3x5x", "03x5", "3x05",
     "-3x5", "3x-5", "3.0x5", "３x5", "3×5", "blah"],
)  # fmt: skip
def test_parse_bid_rejects_non_canonical(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_bid(text)
    assert repr(text) in str(info.value)


def test_parse_bid_rejects_zero_quantity() -> None:
    with pytest.raises(NotationError, match="at least 1") as info:
        parse_bid("0x5")
    assert "'0x5'" in str(info.value)


@pytest.mark.parametrize(("text", "faces"), [("3x7", 6), ("3x0", 6), ("2x13", 12), ("1x5", 4)])
def test_parse_bid_face_out_of_range(text: str, faces: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_bid(text, faces=faces)
    message = str(info.value)
    assert repr(text) in message
    assert f"1..{faces}" in message


def test_parse_bid_huge_number_is_notation_error() -> None:
    with pytest.raises(NotationError):
        parse_bid("9" * 5000 + "x5")


def test_notation_error_is_value_error() -> None:
    with pytest.raises(ValueError):
        parse_bid("nonsense")


@given(bids_with_faces())
def test_format_parse_round_trip(bid_and_faces: tuple[Bid, int]) -> None:
    bid, faces = bid_and_faces
    assert parse_bid(format_bid(bid), faces=faces) == bid
    assert parse_human_bid(format_bid(bid), faces=faces) == bid


@given(st.text())
def test_parse_bid_only_raises_notation_error(text: str) -> None:
    try:
        bid = parse_bid(text)
    except NotationError:
        return
    assert bid.quantity >= 1
    assert 1 <= bid.face <= 6
    assert format_bid(bid) == text.strip().lower()


# --- Call / parse_call ------------------------------------------------------------------------


def test_call_enum() -> None:
    assert Call.LIAR.value == "liar"
    assert Call.EXACT.value == "exact"
    assert isinstance(Call.LIAR, str)
    assert str(Call.LIAR) == "liar"
    assert Call("exact") is Call.EXACT
    assert list(Call) == [Call.LIAR, Call.EXACT]


@pytest.mark.parametrize(
    "text",
    ["liar", "Liar!", "LIAR!!", "call", "challenge", "doubt", "dudo", "Dudo!", "i challenge",
     "I challenge!", "  liar  ", "liar."],
)  # fmt: skip
def test_parse_call_liar(text: str) -> None:
    assert parse_call(text) is Call.LIAR


@pytest.mark.parametrize(
    "text",
    ["exact", "Exact!", "spot on", "Spot On!", "spot-on", "spoton", "SPOTON", "calza", "Calza!"],
)
def test_parse_call_exact(text: str) -> None:
    assert parse_call(text) is Call.EXACT


@pytest.mark.parametrize(
    "text", ["", "3x5", "three fives", "lie", "liars", "spot", "on", "exactly", "i", "hello"]
)
def test_parse_call_none(text: str) -> None:
    assert parse_call(text) is None


@given(st.text())
def test_parse_call_never_raises(text: str) -> None:
    assert parse_call(text) in (None, Call.LIAR, Call.EXACT)


# --- parse_human_bid --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "bid"),
    [
        ("3x5", Bid(3, 5)),
        ("3X5", Bid(3, 5)),
        ("3 x 5", Bid(3, 5)),
        ("3 5", Bid(3, 5)),
        ("3,5", Bid(3, 5)),
        ("3, 5", Bid(3, 5)),
        ("three fives", Bid(3, 5)),
        ("three 5s", Bid(3, 5)),
        ("three 5's", Bid(3, 5)),
        ("three 5", Bid(3, 5)),
        ("3 fives", Bid(3, 5)),
        ("3 5s", Bid(3, 5)),
        ("eleven sixes", Bid(11, 6)),
        ("twenty one threes", Bid(21, 3)),
        ("twenty-one threes", Bid(21, 3)),
        ("ninety-nine twos", Bid(99, 2)),
        ("forty sixes", Bid(40, 6)),
        ("a five", Bid(1, 5)),
        ("one five", Bid(1, 5)),
        ("an ace", Bid(1, 1)),
        ("two ones", Bid(2, 1)),
        ("2 aces", Bid(2, 1)),
        ("three wilds", Bid(3, 1)),
        ("a wild", Bid(1, 1)),
        ("four deuces", Bid(4, 2)),
        ("four twos", Bid(4, 2)),
        ("five treys", Bid(5, 3)),
        ("five threes", Bid(5, 3)),
        ("six fours", Bid(6, 4)),
        ("seven sixes", Bid(7, 6)),
        ("one six", Bid(1, 6)),
        ("Three Fives!", Bid(3, 5)),
        ("  three   fives.  ", Bid(3, 5)),
        ("THREE FIVES", Bid(3, 5)),
        ("a hundred sixes", Bid(100, 6)),
        ("one hundred and five twos", Bid(105, 2)),
        ("100 sixes", Bid(100, 6)),
    ],
)
def test_parse_human_bid(text: str, bid: Bid) -> None:
    assert parse_human_bid(text) == bid


@pytest.mark.parametrize(
    ("text", "faces", "bid"),
    [
        ("two sevens", 8, Bid(2, 7)),
        ("three eights", 8, Bid(3, 8)),
        ("a nine", 10, Bid(1, 9)),
        ("four tens", 10, Bid(4, 10)),
        ("five elevens", 12, Bid(5, 11)),
        ("six twelves", 12, Bid(6, 12)),
        ("2 12s", 12, Bid(2, 12)),
        ("2x12", 12, Bid(2, 12)),
    ],
)
def test_parse_human_bid_larger_dice(text: str, faces: int, bid: Bid) -> None:
    assert parse_human_bid(text, faces=faces) == bid


@pytest.mark.parametrize(
    "text",
    ["blah", "", "   ", "!", "fives", "sixes", "treys", "three", "3", "3x", "three bananas",
     "bananas fives", "3 x fives x", "twenty twenty fives", "one twenty fives", "3 4 5",
     "x 5", "three and fives"],
)  # fmt: skip
def test_parse_human_bid_garbage(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_human_bid(text)
    message = str(info.value)
    assert repr(text) in message
    assert "3x5" in message


def test_parse_human_bid_garbage_message() -> None:
    with pytest.raises(NotationError) as info:
        parse_human_bid("blah")
    assert str(info.value) == "can't read 'blah' as a bid; try 3x5, '3 5' or 'three fives'"


@pytest.mark.parametrize(
    ("text", "faces"),
    [("two sevens", 6), ("3x7", 6), ("3 0", 6), ("five sixes", 5), ("a twelve", 10), ("3 13s", 12)],
)
def test_parse_human_bid_face_out_of_range(text: str, faces: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_human_bid(text, faces=faces)
    message = str(info.value)
    assert repr(text) in message
    assert f"1..{faces}" in message


@pytest.mark.parametrize("text", ["zero fives", "0 fives", "0x5", "0 5"])
def test_parse_human_bid_zero_quantity(text: str) -> None:
    with pytest.raises(NotationError, match="at least 1") as info:
        parse_human_bid(text)
    assert repr(text) in str(info.value)


@given(st.text())
def test_parse_human_bid_only_raises_notation_error(text: str) -> None:
    try:
        bid = parse_human_bid(text)
    except NotationError:
        return
    assert bid.quantity >= 1
    assert 1 <= bid.face <= 6


# --- bid_to_words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "words"),
    [
        (Bid(3, 5), "three fives"),
        (Bid(1, 6), "one six"),
        (Bid(2, 1), "two ones"),
        (Bid(21, 3), "twenty-one threes"),
        (Bid(12, 6), "twelve sixes"),
        (Bid(20, 4), "twenty fours"),
        (Bid(99, 2), "ninety-nine twos"),
        (Bid(100, 6), "100 sixes"),
        (Bid(250, 1), "250 ones"),
        (Bid(2, 12), "two twelves"),
        (Bid(1, 1), "one one"),
    ],
)
def test_bid_to_words(bid: Bid, words: str) -> None:
    assert bid_to_words(bid) == words


@pytest.mark.parametrize("bid", [Bid(0, 5), Bid(-1, 5), Bid(3, 0)])
def test_bid_to_words_rejects_invalid(bid: Bid) -> None:
    with pytest.raises(NotationError):
        bid_to_words(bid)


@given(bids_with_faces())
def test_words_round_trip(bid_and_faces: tuple[Bid, int]) -> None:
    bid, faces = bid_and_faces
    assert parse_human_bid(bid_to_words(bid), faces=faces) == bid


@given(st.integers(min_value=100, max_value=10**6), faces_1_to_12)
def test_words_round_trip_large_quantities(quantity: int, face: int) -> None:
    bid = Bid(quantity, face)
    assert parse_human_bid(bid_to_words(bid), faces=12) == bid


@given(quantities, faces_1_to_12)
def test_words_round_trip_with_variations(quantity: int, face: int) -> None:
    words = bid_to_words(Bid(quantity, face))
    for variant in (words.upper(), f"  {words}! ", words.replace("-", " "), f"{words}."):
        assert parse_human_bid(variant, faces=12) == Bid(quantity, face)
