"""Bid and call notation: the canonical ``QxF`` form, calls, and what people type.

The canonical form of a bid is ``"QxF"`` (``"3x5"`` means "at least three dice show 5").
:func:`parse_bid` reads only that form; :func:`parse_human_bid` is a lenient reader for prompts
(``"three fives"``, ``"3 5"``, ``"2 aces"``...). :func:`bid_to_words` writes a bid in words that
:func:`parse_human_bid` reads back.

>>> format_bid(parse_human_bid("twenty-one threes"))
'21x3'
>>> bid_to_words(parse_bid("3x5"))
'three fives'
"""

from __future__ import annotations

import enum
import re

from liarsdice.core.bidding.bid import Bid, read_bid
from liarsdice.core.errors import NotationError

__all__ = [
    "Call",
    "bid_to_words",
    "format_bid",
    "parse_bid",
    "parse_call",
    "parse_human_bid",
]

# Longest run of digits read as a number; anything longer is rejected rather than handed to
# ``int`` (which refuses very long strings with a plain ValueError).
_MAX_DIGITS = 9

_DIGIT_PAIR = re.compile(r"([0-9]+)\s*(?:x|\s)\s*([0-9]+)")
_DIGIT_FACE = re.compile(r"([0-9]+)(?:'?s)?")
_DIGITS = re.compile(r"[0-9]+")
# A minus sign: "-" before a digit, at the start or after a space, "x" or a comma ("3-5" and
# "twenty-one" are not negative numbers).
_MINUS = re.compile(r"(?:^|(?<=[\sx,]))-\s*[0-9]")

_UNITS: dict[str, int] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS: dict[str, int] = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_UNIT_NAMES: dict[int, str] = {value: name for name, value in _UNITS.items()}
_TEN_NAMES: dict[int, str] = {value: name for name, value in _TENS.items()}

# Face names in bid_to_words: (singular, plural), for faces 1..12.
_FACE_NAMES: dict[int, tuple[str, str]] = {
    face: (_UNIT_NAMES[face], _UNIT_NAMES[face] + ("es" if face == 6 else "s"))
    for face in range(1, 13)
}
# Every word parse_human_bid reads as a face.
_FACE_WORDS: dict[str, int] = {
    word: face for face, names in _FACE_NAMES.items() for word in names
} | {
    "ace": 1,
    "aces": 1,
    "wild": 1,
    "wilds": 1,
    "deuce": 2,
    "deuces": 2,
    "trey": 3,
    "treys": 3,
}

_HINT = "try 3x5, '3 5' or 'three fives'"


class Call(enum.StrEnum):
    """A call that ends a round instead of bidding.

    >>> Call.LIAR
    <Call.LIAR: 'liar'>
    >>> str(Call.EXACT)
    'exact'
    """

    LIAR = "liar"
    """Challenge the previous bid."""
    EXACT = "exact"
    """Claim the previous bid is exactly right ("spot on", "calza")."""


_CALL_WORDS: dict[str, Call] = {
    "liar": Call.LIAR,
    "call": Call.LIAR,
    "challenge": Call.LIAR,
    "i challenge": Call.LIAR,
    "doubt": Call.LIAR,
    "dudo": Call.LIAR,
    "exact": Call.EXACT,
    "spot on": Call.EXACT,
    "spoton": Call.EXACT,
    "calza": Call.EXACT,
}


def format_bid(bid: Bid) -> str:
    """Write ``bid`` in canonical ``QxF`` form.

    >>> format_bid(Bid(3, 5))
    '3x5'
    >>> format_bid(Bid(2, 1))
    '2x1'
    """
    return f"{bid.quantity}x{bid.face}"


def parse_bid(text: str, *, faces: int = 6) -> Bid:
    """Read a bid in canonical ``QxF`` form (``x`` or ``X``, surrounding space ignored).

    >>> parse_bid("3x5"), parse_bid(" 10X2 ")
    (Bid(quantity=3, face=5), Bid(quantity=10, face=2))
    >>> parse_bid("three fives")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: 'three fives' is not a bid in QxF form (e.g. 3x5)
    >>> parse_bid("3x7")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: face 7 in '3x7' is out of range; faces run 1..6
    """
    return read_bid(text, faces=faces)  # the core's reader: one canonical form, one message


def parse_call(text: str) -> Call | None:
    """Read a call ("liar", "spot on", "dudo", "calza"...), or return ``None`` if it is not one.

    Case and punctuation are ignored.

    >>> parse_call("Liar!")
    <Call.LIAR: 'liar'>
    >>> parse_call("spot-on")
    <Call.EXACT: 'exact'>
    >>> parse_call("3x5") is None
    True
    """
    key = " ".join(re.sub(r"[^\w\s]|_", " ", text.lower()).split())
    return _CALL_WORDS.get(key)


def parse_human_bid(text: str, *, faces: int = 6) -> Bid:
    """Read a bid the way people type it at a prompt.

    Accepts the canonical form and its loose variants (``3 x 5``, ``3 5``, ``3,5``) as well as
    words: ``three fives``, ``three 5s``, ``3 fives``, ``twenty-one threes``, ``a five``,
    ``2 aces``, ``three wilds`` (wilds are ones), ``four deuces``, ``five treys``...
    Case, extra spaces and a trailing ``!`` or ``.`` are ignored.

    >>> parse_human_bid("three fives")
    Bid(quantity=3, face=5)
    >>> parse_human_bid("Twenty one THREES!")
    Bid(quantity=21, face=3)
    >>> parse_human_bid("a five")
    Bid(quantity=1, face=5)
    >>> parse_human_bid("2 aces")
    Bid(quantity=2, face=1)
    >>> parse_human_bid("3,5")
    Bid(quantity=3, face=5)
    >>> parse_human_bid("blah")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: can't read 'blah' as a bid; try 3x5, '3 5' or 'three fives'
    >>> parse_human_bid("two sevens")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: face 7 in 'two sevens' is out of range; faces run 1..6

    A minus sign is refused, not dropped (a hyphen joins number words only):

    >>> parse_human_bid("-3x2")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.NotationError: quantity in '-3x2' must be at least 1, without a minus sign
    """
    cleaned = text.strip().lower().rstrip("!.").strip()
    minus = _MINUS.search(cleaned)
    if minus is not None:  # the first number is the quantity, a later one the face
        if minus.start() == 0:
            raise NotationError(
                f"quantity in {text.strip()!r} must be at least 1, without a minus sign"
            )
        raise NotationError(
            f"face in {text.strip()!r} must not have a minus sign; faces run 1..{faces}"
        )
    cleaned = " ".join(cleaned.replace(",", " ").replace("-", " ").split())

    match = _DIGIT_PAIR.fullmatch(cleaned)
    if match is not None:
        quantity = _to_int(match.group(1), text)
        face = _to_int(match.group(2), text)
        return _checked(quantity, face, text, faces)

    tokens = cleaned.split()
    if len(tokens) < 2:
        raise _unreadable(text)
    face_or_none = _read_face(tokens[-1], text)
    quantity_or_none = _read_quantity(tokens[:-1], text)
    if face_or_none is None or quantity_or_none is None:
        raise _unreadable(text)
    return _checked(quantity_or_none, face_or_none, text, faces)


def bid_to_words(bid: Bid) -> str:
    """Write ``bid`` in words; :func:`parse_human_bid` reads the result back.

    Quantities of 100 or more are written in digits.

    >>> bid_to_words(Bid(3, 5))
    'three fives'
    >>> bid_to_words(Bid(1, 6))
    'one six'
    >>> bid_to_words(Bid(21, 3))
    'twenty-one threes'
    >>> bid_to_words(Bid(100, 6))
    '100 sixes'
    """
    quantity, face = bid
    if quantity < 1:
        raise NotationError(f"quantity must be at least 1, got {quantity} in {bid}")
    if face < 1:
        raise NotationError(f"face must be at least 1, got {face} in {bid}")
    names = _FACE_NAMES.get(face)
    if names is None:
        face_word = f"{face}s" if quantity != 1 else str(face)
    else:
        face_word = names[0] if quantity == 1 else names[1]
    return f"{_number_to_words(quantity)} {face_word}"


def _number_to_words(n: int) -> str:
    """Name ``n`` (1..99) in words, or write it in digits when it is 100 or more."""
    if n < 20:
        return _UNIT_NAMES[n]
    if n >= 100:
        return str(n)
    tens, units = divmod(n, 10)
    name = _TEN_NAMES[tens * 10]
    return name if units == 0 else f"{name}-{_UNIT_NAMES[units]}"


def _read_face(token: str, text: str) -> int | None:
    """Read a face token (``fives``, ``5``, ``5s``, ``5's``, ``ace``), or ``None``."""
    word_face = _FACE_WORDS.get(token)
    if word_face is not None:
        return word_face
    match = _DIGIT_FACE.fullmatch(token)
    if match is not None:
        return _to_int(match.group(1), text)
    return None


def _read_quantity(tokens: list[str], text: str) -> int | None:
    """Read a quantity from digits, ``a``/``an``, or number words (below 1000), or ``None``."""
    if len(tokens) == 1:
        if _DIGITS.fullmatch(tokens[0]):
            return _to_int(tokens[0], text)
        if tokens[0] in ("a", "an"):
            return 1
    return _words_to_number(tokens)


def _words_to_number(tokens: list[str]) -> int | None:
    """Read number words such as ``twenty one`` or ``a hundred and five``, or ``None``."""
    if not tokens:
        return None
    total = 0
    if "hundred" in tokens:
        at = tokens.index("hundred")
        head, tokens = tokens[:at], tokens[at + 1 :]
        if head in (["a"], ["one"]):
            hundreds = 1
        elif len(head) == 1 and 1 <= _UNITS.get(head[0], 0) <= 9:
            hundreds = _UNITS[head[0]]
        else:
            return None
        total = hundreds * 100
        if tokens[:1] == ["and"]:
            tokens = tokens[1:]
            if not tokens:
                return None
        if not tokens:
            return total
    below = _below_hundred(tokens)
    if below is None or (total and below == 0):
        return None
    return total + below


def _below_hundred(tokens: list[str]) -> int | None:
    """Read 0..99 from one or two number words, or ``None``."""
    if len(tokens) == 1:
        word = tokens[0]
        if word in _UNITS:
            return _UNITS[word]
        return _TENS.get(word)
    if len(tokens) == 2 and tokens[0] in _TENS and 1 <= _UNITS.get(tokens[1], 0) <= 9:
        return _TENS[tokens[0]] + _UNITS[tokens[1]]
    return None


def _to_int(digits: str, text: str) -> int:
    """Convert an ASCII digit string, refusing absurdly long ones."""
    if len(digits) > _MAX_DIGITS:
        raise NotationError(f"number {digits[:12]}... in {text!r} is too large")
    return int(digits)


def _checked(quantity: int, face: int, text: str, faces: int) -> Bid:
    """Build the bid, checking the quantity is positive and the face in ``1..faces``."""
    if quantity < 1:
        raise NotationError(f"quantity in {text!r} must be at least 1")
    if not 1 <= face <= faces:
        raise NotationError(f"face {face} in {text!r} is out of range; faces run 1..{faces}")
    return Bid(quantity, face)


def _unreadable(text: str) -> NotationError:
    return NotationError(f"can't read {text!r} as a bid; {_HINT}")
