"""Poker-dice hands and bids: ranking keys, satisfaction and notation (rules source 004, second
half).

Faces are the ints 1..6 standing for 9, 10, J, Q, K, A (Appendix 1 of the seed, low to high).
A :class:`PokerBid` names a category, its made ranks and optional kickers. Every bid and every
hand has a fixed-length comparable :attr:`~PokerBid.key` ``(category, v1, ..., v5)``: the made
ranks, then the kickers highest first, padded with 0 ("unspecified", lower than any face).
A hand satisfies a bid when the hand's full reading ranks at least as high as the bid.

>>> b = parse_poker_bid("two pairs queens and tens")
>>> format_poker_bid(b), poker_bid_words(b)
('two pair Q 10', 'two pairs, queens and tens')
>>> satisfies((4, 4, 2, 2, 6), b), satisfies((4, 4, 2, 2, 1), parse_poker_bid("two pair Q 10 A"))
(True, False)
>>> format_poker_bid(hand_bid((6, 5, 4, 2, 1)))
'high A K Q 10 9'
>>> len(ALL_BIDS), format_poker_bid(ALL_BIDS[0]), format_poker_bid(ALL_BIDS[-1])
(462, 'junk', 'five A')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import combinations

from liarsdice.core.errors import LiarsDiceError, NotationError

FACES = (1, 2, 3, 4, 5, 6)
NINE, TEN, JACK, QUEEN, KING, ACE = FACES
FACE_SYMBOLS = ("9", "10", "J", "Q", "K", "A")
FACE_WORDS = ("nine", "ten", "jack", "queen", "king", "ace")
FACE_PLURALS = ("nines", "tens", "jacks", "queens", "kings", "aces")
HAND_SIZE = 5
LOW_STRAIGHT = KING  # K-Q-J-10-9, named by its top face
HIGH_STRAIGHT = ACE  # A-K-Q-J-10


class Category(IntEnum):
    """Poker-dice hand categories, low to high (Appendix 2 of the seed)."""

    JUNK = 0
    HIGH = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE = 4
    STRAIGHT = 5
    FULL_HOUSE = 6
    FOUR = 7
    FIVE = 8


_RANKS = {
    Category.JUNK: 0,
    Category.HIGH: 1,
    Category.PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE: 1,
    Category.STRAIGHT: 1,
    Category.FULL_HOUSE: 2,
    Category.FOUR: 1,
    Category.FIVE: 1,
}
_MAX_KICKERS = {
    Category.JUNK: 0,
    Category.HIGH: 4,
    Category.PAIR: 3,
    Category.TWO_PAIR: 1,
    Category.THREE: 2,
    Category.STRAIGHT: 0,
    Category.FULL_HOUSE: 0,
    Category.FOUR: 1,
    Category.FIVE: 0,
}
_MADE_DICE = {
    Category.JUNK: 0,
    Category.HIGH: 1,
    Category.PAIR: 2,
    Category.TWO_PAIR: 4,
    Category.THREE: 3,
    Category.STRAIGHT: 5,
    Category.FULL_HOUSE: 5,
    Category.FOUR: 4,
    Category.FIVE: 5,
}
_SHORT = {
    Category.JUNK: "junk",
    Category.HIGH: "high",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "two pair",
    Category.THREE: "three",
    Category.STRAIGHT: "straight",
    Category.FULL_HOUSE: "full house",
    Category.FOUR: "four",
    Category.FIVE: "five",
}
# What a kicker equal to the made rank would turn the bid into.
_BETTER = {
    Category.HIGH: "a pair",
    Category.PAIR: "three of a kind",
    Category.THREE: "four of a kind",
    Category.FOUR: "five of a kind",
    Category.TWO_PAIR: "a full house",
}


def format_face(face: int) -> str:
    """Short symbol of a face: 1..6 -> ``9 10 J Q K A``.

    >>> [format_face(f) for f in FACES]
    ['9', '10', 'J', 'Q', 'K', 'A']
    """
    if not isinstance(face, int) or not 1 <= face <= 6:
        raise NotationError(f"a poker die face is 1..6 (9, 10, J, Q, K, A), not {face!r}")
    return FACE_SYMBOLS[face - 1]


_FACE_TOKENS: dict[str, int] = {}
for _f in FACES:
    for _tok in (FACE_SYMBOLS[_f - 1], FACE_WORDS[_f - 1], FACE_PLURALS[_f - 1]):
        _FACE_TOKENS[_tok.lower()] = _f
_FACE_TOKENS["t"] = TEN
_WORD_FACE_TOKENS = frozenset(FACE_WORDS) | frozenset(FACE_PLURALS)


def parse_face(text: str) -> int:
    """Parse a face symbol or word (``9``, ``10``, ``J``, ``queen``, ``aces``...) to 1..6.

    >>> parse_face("10"), parse_face("Kings"), parse_face("a")
    (2, 5, 6)
    """
    face = _FACE_TOKENS.get(text.strip().lower())
    if face is None:
        raise NotationError(f"can't read {text!r} as a face: faces are 9, 10, J, Q, K, A")
    return face


def _faces(values: Iterable[int]) -> str:
    return " ".join(FACE_SYMBOLS[v - 1] for v in values)


@dataclass(frozen=True, slots=True)
class PokerBid:
    """A poker-dice bid: a category, its made ranks and optional kickers (faces 1..6).

    Construction normalises (kickers highest first, two pair's ranks highest first) and
    validates, raising :class:`~liarsdice.core.errors.NotationError` with the reason.
    ``ranks`` holds: nothing for junk; the high die; the pair, three or four rank; the two
    pair ranks; full house (three rank, pair rank); the straight's top face (K low, A high).

    >>> PokerBid(Category.PAIR, (5,), (3, 6)).key
    (2, 5, 6, 3, 0, 0)
    >>> PokerBid(Category.PAIR, (5,), (5,))
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: kicker K repeats the pair rank K: that is three of a kind
    """

    category: Category
    ranks: tuple[int, ...] = ()
    kickers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        try:
            cat = Category(self.category)
        except ValueError:
            raise NotationError(f"unknown bid category {self.category!r}") from None
        ranks = tuple(self.ranks)
        kickers = tuple(sorted(self.kickers, reverse=True))
        if cat is Category.TWO_PAIR:
            ranks = tuple(sorted(ranks, reverse=True))
        object.__setattr__(self, "category", cat)
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "kickers", kickers)
        _validate(cat, ranks, kickers)

    @property
    def key(self) -> tuple[int, ...]:
        """Comparable key ``(category, ranks..., kickers..., 0...)`` of length 6."""
        vals = (*self.ranks, *self.kickers)
        return (int(self.category), *vals) + (0,) * (HAND_SIZE - len(vals))

    @property
    def size(self) -> int:
        """How many dice the bid names (0 for junk, 5 for a full hand)."""
        return _MADE_DICE[self.category] + len(self.kickers)

    def __str__(self) -> str:
        return format_poker_bid(self)


def _validate(cat: Category, ranks: tuple[int, ...], kickers: tuple[int, ...]) -> None:
    """Raise :class:`NotationError` with the first reason the bid is not one."""
    name = _SHORT[cat]
    _validate_counts(cat, name, ranks, kickers)
    _validate_ranks(cat, ranks)
    _validate_kickers(cat, name, ranks, kickers)
    if cat is Category.HIGH:
        _validate_high(ranks[0], kickers)


def _validate_counts(
    cat: Category, name: str, ranks: tuple[int, ...], kickers: tuple[int, ...]
) -> None:
    """Faces 1..6, as many ranks as the category names and no more kickers than it takes."""
    for v in (*ranks, *kickers):
        if not isinstance(v, int) or not 1 <= v <= 6:
            raise NotationError(f"faces are 1..6 (9, 10, J, Q, K, A), not {v!r}")
    need = _RANKS[cat]
    if len(ranks) != need:
        raise NotationError(f"{name} names {need} rank(s), not {len(ranks)}")
    most = _MAX_KICKERS[cat]
    if len(kickers) > most:
        if most == 0:
            raise NotationError(f"{name} takes no kickers")
        raise NotationError(f"{name} takes at most {most} kicker(s), not {len(kickers)}")


def _validate_ranks(cat: Category, ranks: tuple[int, ...]) -> None:
    """A straight's top face, and two different ranks where the category names two."""
    if cat is Category.STRAIGHT and ranks[0] not in (LOW_STRAIGHT, HIGH_STRAIGHT):
        raise NotationError("a straight is low (K Q J 10 9) or high (A K Q J 10)")
    if cat is Category.TWO_PAIR and ranks[0] == ranks[1]:
        raise NotationError(
            f"two pair needs two different ranks: two pairs of {_faces(ranks[:1])} are four "
            "of a kind"
        )
    if cat is Category.FULL_HOUSE and ranks[0] == ranks[1]:
        raise NotationError("a full house needs two different ranks: that would be five of a kind")


def _validate_kickers(
    cat: Category, name: str, ranks: tuple[int, ...], kickers: tuple[int, ...]
) -> None:
    """Kickers that differ from the ranks and from each other (else a better hand)."""
    for k in kickers:
        if k in ranks:
            what = "pair" if cat is Category.TWO_PAIR else name
            what = "high die" if cat is Category.HIGH else what
            raise NotationError(
                f"kicker {format_face(k)} repeats the {what} rank {format_face(k)}: "
                f"that is {_BETTER[cat]}"
            )
    if len(set(kickers)) != len(kickers):
        dup = next(k for k in kickers if kickers.count(k) > 1)
        raise NotationError(
            f"kickers must differ from each other: {_faces((dup, dup))} would be a pair"
        )


def _validate_high(high: int, kickers: tuple[int, ...]) -> None:
    """A high-die bid's other dice lower than its high die, and not a straight."""
    if kickers and kickers[0] > high:
        raise NotationError(
            f"a high-die bid's other dice must be lower than its high die {format_face(high)}"
        )
    if len(kickers) == 4 and high - kickers[-1] == 4:
        which = "high" if high == HIGH_STRAIGHT else "low"
        raise NotationError(
            f"high {_faces((high, *kickers))} is the {which} straight: bid '{which} straight'"
        )


# ------------------------------------------------------------------ all bids, ranked
def _all_bids() -> tuple[PokerBid, ...]:
    out: list[PokerBid] = [PokerBid(Category.JUNK), *_high_bids(), *_made_bids()]
    for lo, hi in combinations(FACES, 2):
        others = [f for f in FACES if f not in (lo, hi)]
        out.append(PokerBid(Category.TWO_PAIR, (hi, lo)))
        out.extend(PokerBid(Category.TWO_PAIR, (hi, lo), (k,)) for k in others)
    out.append(PokerBid(Category.STRAIGHT, (LOW_STRAIGHT,)))
    out.append(PokerBid(Category.STRAIGHT, (HIGH_STRAIGHT,)))
    out.extend(PokerBid(Category.FULL_HOUSE, (t, p)) for t in FACES for p in FACES if t != p)
    out.extend(PokerBid(Category.FIVE, (r,)) for r in FACES)
    out.sort(key=lambda b: b.key)
    return tuple(out)


def _high_bids() -> list[PokerBid]:
    """Every high-die bid: a high die and up to four lower ones, straights left out."""
    out: list[PokerBid] = []
    for h in FACES:
        lower = [f for f in FACES if f < h]
        for k in range(5):
            for ks in combinations(lower, k):
                if k == 4 and h - min(ks) == 4:
                    continue
                out.append(PokerBid(Category.HIGH, (h,), ks))
    return out


def _made_bids() -> list[PokerBid]:
    """Every pair, three and four of a kind bid, with every choice of kickers."""
    out: list[PokerBid] = []
    for cat in (Category.PAIR, Category.THREE, Category.FOUR):
        for r in FACES:
            others = [f for f in FACES if f != r]
            for k in range(_MAX_KICKERS[cat] + 1):
                out.extend(PokerBid(cat, (r,), ks) for ks in combinations(others, k))
    return out


ALL_BIDS: tuple[PokerBid, ...] = _all_bids()
"""Every legal bid, lowest first: the index is the bid id ("higher bid" = "higher id")."""
NUM_BIDS = len(ALL_BIDS)
BID_IDS: dict[PokerBid, int] = {b: i for i, b in enumerate(ALL_BIDS)}
assert len(BID_IDS) == NUM_BIDS and len({b.key for b in ALL_BIDS}) == NUM_BIDS


def bid_key(bid: PokerBid) -> tuple[int, ...]:
    """The comparable key of a bid (same as ``bid.key``)."""
    return bid.key


def bid_id(bid: PokerBid) -> int:
    """The rank of ``bid`` among :data:`ALL_BIDS` (0 = junk, 461 = five aces)."""
    return BID_IDS[bid]


# ------------------------------------------------------------------ hands
@lru_cache(maxsize=512)
def _reading(dice: tuple[int, ...]) -> PokerBid:
    counts = Counter(dice)
    groups = sorted(counts.items(), key=lambda fc: (fc[1], fc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    faces = tuple(f for f, _ in groups)
    if shape == (5,):
        return PokerBid(Category.FIVE, faces)
    if shape == (4, 1):
        return PokerBid(Category.FOUR, faces[:1], faces[1:])
    if shape == (3, 2):
        return PokerBid(Category.FULL_HOUSE, faces)
    if shape == (3, 1, 1):
        return PokerBid(Category.THREE, faces[:1], faces[1:])
    if shape == (2, 2, 1):
        return PokerBid(Category.TWO_PAIR, faces[:2], faces[2:])
    if shape == (2, 1, 1, 1):
        return PokerBid(Category.PAIR, faces[:1], faces[1:])
    if faces[0] - faces[-1] == 4:
        return PokerBid(Category.STRAIGHT, faces[:1])
    return PokerBid(Category.HIGH, faces[:1], faces[1:])


def hand_bid(dice: Iterable[int]) -> PokerBid:
    """The best reading of five dice as a (full, kickers included) bid.

    >>> format_poker_bid(hand_bid((1, 2, 3, 4, 5))), format_poker_bid(hand_bid((6, 6, 1, 1, 6)))
    ('low straight', 'full house A 9')
    """
    hand = tuple(sorted(dice))
    if len(hand) != HAND_SIZE or any(not isinstance(d, int) or not 1 <= d <= 6 for d in hand):
        raise LiarsDiceError(f"a poker hand is five faces 1..6, not {list(hand)}")
    return _reading(hand)


def hand_key(dice: Iterable[int]) -> tuple[int, ...]:
    """The comparable key of five dice (the key of their best reading)."""
    return hand_bid(dice).key


def satisfies(dice: Iterable[int], bid: PokerBid) -> bool:
    """Whether the five ``dice`` are equal to or better than ``bid``.

    >>> satisfies((5, 5, 1, 2, 3), parse_poker_bid("pair K"))
    True
    >>> satisfies((5, 5, 1, 2, 3), parse_poker_bid("pair K A"))
    False
    """
    return hand_key(dice) >= bid.key


def is_five_of_a_kind(dice: Iterable[int]) -> bool:
    """Whether the dice all show one face."""
    return len(set(dice)) == 1


# ------------------------------------------------------------------ notation
def format_poker_bid(bid: PokerBid) -> str:
    """Canonical short notation: ``pair K``, ``two pair Q 10``, ``three J K``, ``high straight``.

    >>> format_poker_bid(PokerBid(Category.FOUR, (1,), (6,)))
    'four 9 A'
    """
    cat = bid.category
    if cat is Category.JUNK:
        return "junk"
    if cat is Category.STRAIGHT:
        return "high straight" if bid.ranks[0] == HIGH_STRAIGHT else "low straight"
    return f"{_SHORT[cat]} {_faces((*bid.ranks, *bid.kickers))}"


def _a(face: int) -> str:
    word = FACE_WORDS[face - 1]
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _join(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def poker_bid_words(bid: PokerBid) -> str:
    """Long form in words, as a person says it (parsed back by :func:`parse_poker_bid`).

    >>> poker_bid_words(parse_poker_bid("three J K"))
    'three jacks and a king'
    >>> poker_bid_words(parse_poker_bid("full house A Q"))
    'full house, aces over queens'
    >>> poker_bid_words(parse_poker_bid("high A K Q"))
    'high die ace, a king and a queen'
    """
    cat = bid.category
    r = bid.ranks
    plural = [FACE_PLURALS[f - 1] for f in r]
    if cat is Category.JUNK:
        return "junk"
    if cat is Category.STRAIGHT:
        return format_poker_bid(bid)
    if cat is Category.HIGH:
        main = f"high die {FACE_WORDS[r[0] - 1]}"
    elif cat is Category.PAIR:
        main = f"a pair of {plural[0]}"
    elif cat is Category.TWO_PAIR:
        main = f"two pairs, {plural[0]} and {plural[1]}"
    elif cat is Category.FULL_HOUSE:
        main = f"full house, {plural[0]} over {plural[1]}"
    else:
        main = f"{_SHORT[cat]} {plural[0]}"
    return _join([main, *(_a(k) for k in bid.kickers)])


_FILLERS = frozenset({"of", "and", "with", "plus", "die", "dice", "card", "over", "the", "&"})
_KEYWORDS = frozenset(
    {"junk", "nothing", "high", "low", "one", "two", "pair", "pairs", "three", "four", "five"}
    | {"full", "house", "straight"}
)
_CATEGORY_WORDS: dict[tuple[str, ...], tuple[Category, int | None]] = {
    ("junk",): (Category.JUNK, None),
    ("nothing",): (Category.JUNK, None),
    ("high",): (Category.HIGH, None),
    ("one",): (Category.HIGH, None),
    ("pair",): (Category.PAIR, None),
    ("one", "pair"): (Category.PAIR, None),
    ("two",): (Category.PAIR, None),
    ("two", "pair"): (Category.TWO_PAIR, None),
    ("two", "pairs"): (Category.TWO_PAIR, None),
    ("three",): (Category.THREE, None),
    ("full", "house"): (Category.FULL_HOUSE, None),
    ("four",): (Category.FOUR, None),
    ("five",): (Category.FIVE, None),
    ("low", "straight"): (Category.STRAIGHT, LOW_STRAIGHT),
    ("high", "straight"): (Category.STRAIGHT, HIGH_STRAIGHT),
}
_HELP = (
    "bids look like: junk, high K, pair K, two pair Q 10, three J K, low straight, "
    "high straight, full house A Q, four 9 A, five Q (or in words: 'a pair of kings')"
)


def parse_poker_bid(text: str) -> PokerBid:
    """Parse a bid in short notation or in words (case and punctuation are ignored).

    >>> [format_poker_bid(parse_poker_bid(t)) for t in (
    ...     "a pair of kings", "three jacks and a king", "full house aces over queens",
    ...     "four nines and an ace", "one king", "high die ace, a king and a queen")]
    ['pair K', 'three J K', 'full house A Q', 'four 9 A', 'high K', 'high A K Q']
    >>> parse_poker_bid("pair K K")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: 'pair K K': kicker K repeats ... that is three of a kind
    """
    keywords, faces = _read_tokens(text)
    cat, straight = _category(text, keywords)
    try:
        if straight is not None:
            if faces:
                raise NotationError("a straight names no faces")
            return PokerBid(cat, (straight,))
        need = _RANKS[cat]
        if len(faces) < need:
            raise NotationError(
                f"{_SHORT[cat]} needs {need} rank(s), e.g. "
                f"{format_poker_bid(next(b for b in ALL_BIDS if b.category is cat))!r}"
            )
        return PokerBid(cat, tuple(faces[:need]), tuple(faces[need:]))
    except NotationError as e:
        if str(e).startswith(repr(text)):
            raise
        raise NotationError(f"{text!r}: {e}") from None


def _read_tokens(text: str) -> tuple[list[str], list[int]]:
    """The hand's keywords and the faces of a bid's ``text``, fillers and articles left out."""
    cleaned = re.sub(r"[,;:.!()\-–—]", " ", text.strip().lower())
    cleaned = re.sub(r"\bof a kind\b", " ", cleaned)
    tokens = cleaned.split()
    if not tokens:
        raise NotationError(f"empty bid; {_HELP}")
    wordy = any(t in _WORD_FACE_TOKENS for t in tokens)
    keywords: list[str] = []
    faces: list[int] = []
    for i, tok in enumerate(tokens):
        if tok in _FILLERS or tok == "an":
            continue
        if tok == "a":
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if wordy or nxt in _KEYWORDS:
                continue  # the article, as in "a pair of kings"
        if tok in _KEYWORDS:
            if faces:
                raise NotationError(f"{text!r}: name the hand before its faces; {_HELP}")
            keywords.append(tok)
            continue
        face = _FACE_TOKENS.get(tok)
        if face is None:
            raise NotationError(f"{text!r}: can't read {tok!r}; {_HELP}")
        faces.append(face)
    return keywords, faces


def _category(text: str, keywords: list[str]) -> tuple[Category, int | None]:
    """The category the ``keywords`` of a bid's ``text`` name (and a straight's top face)."""
    if not keywords:
        raise NotationError(f"{text!r}: which hand? {_HELP}")
    found = _CATEGORY_WORDS.get(tuple(keywords))
    if found is None:
        if keywords == ["straight"]:
            raise NotationError(
                f"{text!r}: say 'low straight' (K high) or 'high straight' (A high)"
            )
        raise NotationError(f"{text!r}: unknown hand {' '.join(keywords)!r}; {_HELP}")
    return found


__all__ = [
    "ACE",
    "ALL_BIDS",
    "BID_IDS",
    "FACES",
    "FACE_SYMBOLS",
    "FACE_WORDS",
    "HIGH_STRAIGHT",
    "JACK",
    "KING",
    "LOW_STRAIGHT",
    "NINE",
    "NUM_BIDS",
    "QUEEN",
    "TEN",
    "Category",
    "PokerBid",
    "bid_id",
    "bid_key",
    "format_face",
    "format_poker_bid",
    "hand_bid",
    "hand_key",
    "is_five_of_a_kind",
    "parse_face",
    "parse_poker_bid",
    "poker_bid_words",
    "satisfies",
]
