"""Display names: NFKC normalisation, names reserved for bots, and look-alike names.

A human may not take a bot's name (``LEVEL-bot-N``, any case, or one that looks like it), nor a
name that looks like one already seated: names are compared by their *skeleton* (Unicode
Technical Standard #39: every character replaced by the prototype of its confusable class,
from the Unicode confusables data shipped with ``confusable-homoglyphs``), with and without
case.

Invisible characters are not part of a name: the Unicode default-ignorable code points (zero
width spaces and joiners, variation selectors, the Hangul fillers, the combining grapheme
joiner, bidi controls, tags...) are removed, and blank characters (the braille blank U+2800,
every Unicode space) count as spaces, collapsed and trimmed. A name keeps at most
:data:`MAX_MARKS` combining marks on one character, and needs a letter or a digit.

>>> normalize_name("  ｂｏｂ   the  great ")
'bob the great'
>>> normalize_name("Prob-Bot-2")
Traceback (most recent call last):
...
liarsdice.server.names.ReservedName: the name 'Prob-Bot-2' is reserved for bots
>>> confusable_with("\u0430nn", ["ann", "bob"])  # Cyrillic a
'ann'
>>> confusable_with("B0B", ["ann", "bob"])
'bob'
>>> confusable_with("cy", ["ann", "bob"]) is None
True
>>> normalize_name("ann\u2800") == normalize_name("a\u034fnn\ufe0f") == "ann"
True
>>> normalize_name("\u3164\u2800")
Traceback (most recent call last):
...
ValueError: the name is empty
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 24
MAX_MARKS = 2  # combining marks on one character (more stack into a smear: "Zalgo" text)
# Marks that the confusables data wraps right-to-left characters in.
_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f")
_BOT_NAME = re.compile(r"[a-z0-9_]+-bot-[0-9]+")


class ReservedName(ValueError):
    """The name is (or looks like) a bot's."""


# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt): drawn as nothing.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Blank characters that are not whitespace to Python (``str.split``): drawn as a space.
_BLANKS = "\u2800"


def is_ignorable(char: str) -> bool:
    """Whether ``char`` is a Unicode default-ignorable code point.

    >>> [is_ignorable(c) for c in "a\u200b\u1160\ufe0f\U000e0041"]
    [False, True, True, True, True]
    """
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE_RANGES)


def visible_text(text: str) -> str:
    """``text`` as drawn: NFKC, the default-ignorable code points removed, blank characters
    read as spaces, whitespace collapsed and trimmed.

    >>> visible_text(" a\u200bn\u2800\u3000n\ufe0f ")
    'an n'
    """
    value = unicodedata.normalize("NFKC", text)
    value = "".join(" " if c in _BLANKS else c for c in value if not is_ignorable(c))
    # (removing a character can bring a base and its mark together: compose again)
    return " ".join(unicodedata.normalize("NFKC", value).split())


def normalize_name(name: str) -> str:
    """The name as it will be seated (:func:`visible_text`); ValueError says what is wrong.

    Raises :class:`ReservedName` (a ValueError) for bot names.
    """
    value = visible_text(name)
    if not value:
        raise ValueError("the name is empty")
    if any(not c.isprintable() for c in value):
        raise ValueError("the name has unprintable characters")
    if len(value) > MAX_NAME:
        raise ValueError(f"the name is longer than {MAX_NAME} characters")
    _check_marks(value)
    if not any(unicodedata.category(c)[0] in "LN" for c in value):
        raise ValueError("the name needs a letter or a digit")
    if _is_bot_name(value):
        raise ReservedName(f"the name {value!r} is reserved for bots")
    return value


def _check_marks(value: str) -> None:
    """Refuse a combining mark with no character to sit on, and more than :data:`MAX_MARKS`
    marks on one character (counted decomposed: "\u1ec7" is an e with two marks)."""
    marks = 0
    for i, c in enumerate(unicodedata.normalize("NFD", value)):
        if unicodedata.category(c) not in ("Mn", "Me"):
            marks = 0
            continue
        if i == 0:
            raise ValueError("the name starts with a combining mark")
        marks += 1
        if marks > MAX_MARKS:
            raise ValueError(f"the name has more than {MAX_MARKS} combining marks on a character")


def confusable_with(name: str, taken: Iterable[str]) -> str | None:
    """The seated name among ``taken`` that ``name`` is or looks like, or None.

    Both sides are compared as drawn (:func:`visible_text`): invisible characters do not
    make a name new."""
    keys = _keys(name)
    for other in taken:
        if keys & _keys(other):
            return other
    return None


def name_key(name: str) -> str:
    """The form a banned name is remembered by: look-alikes and case variants share it.

    >>> name_key("Ann") == name_key("аnn")  # Cyrillic a
    True
    """
    n = visible_text(name)
    return skeleton(skeleton(n.casefold()).casefold())


def skeleton(text: str) -> str:
    """The UTS #39 skeleton: NFD, default-ignorable code points removed, each character
    mapped to its prototype, NFD again.

    >>> skeleton("pay\u0440al") == skeleton("paypal")  # Cyrillic er
    True
    >>> skeleton("pay\u034fpal\u200b") == skeleton("paypal")
    True
    """
    table = _prototypes()
    mapped = "".join(
        table.get(c, c) for c in unicodedata.normalize("NFD", text) if not is_ignorable(c)
    )
    return unicodedata.normalize("NFD", mapped)


def _keys(name: str) -> set[str]:
    """The forms compared: the skeleton as drawn and without case."""
    return {skeleton(visible_text(name)), name_key(name)}


def _is_bot_name(value: str) -> bool:
    if _BOT_NAME.fullmatch(value.casefold()):
        return True
    # Look-alikes of a bot name: "prob-bot-l", "рrob-bot-1" (Cyrillic er), ...
    from liarsdice.families import FAMILIES

    levels = tuple(dict.fromkeys(n for f in FAMILIES for n in f.bots.levels))
    keys = _keys(value)
    digits = {skeleton(d) for d in "0123456789"} | {skeleton(d).casefold() for d in "0123456789"}
    for level in levels:
        for prefix in _keys(f"{level}-bot-"):
            for key in keys:
                rest = key[len(prefix) :]
                if key.startswith(prefix) and rest and all(c in digits for c in rest):
                    return True
    return False


@functools.cache
def _prototypes() -> dict[str, str]:
    """Character -> prototype string, from the confusables data.

    The data lists, for each source character, its prototype (one character or several, like
    ``m`` -> ``rn``), and for each one-character prototype the characters that map to it. The
    classes of one-character prototypes are joined (union-find) and named by their smallest
    ASCII letter, else ASCII character, else character (``0`` and ``O`` are ``O``); a
    character whose prototype is a sequence maps to the sequence's characters' prototypes.
    """
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        root = c
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(c, c) != root:
            parent[c], c = root, parent[c]
        return root

    def better(a: str, b: str) -> bool:
        return (not a.isascii(), not a.isalpha(), a) < (not b.isascii(), not b.isalpha(), b)

    sequences: dict[str, str] = {}
    for char, glyphs in data.items():
        if len(char) != 1:
            continue
        for g in glyphs:
            target = g["c"].translate(_BIDI_MARKS)
            if len(target) == 1:
                a, b = find(char), find(target)
                if a != b:
                    if better(a, b):
                        parent[b] = a
                    else:
                        parent[a] = b
            elif target:
                sequences[char] = target
    table = {c: find(c) for c in parent}
    table = {c: p for c, p in table.items() if c != p}
    for char, target in sequences.items():
        if char not in parent:  # a source of a sequence only
            table[char] = "".join(table.get(t, t) for t in target)
    return table


__all__ = [
    "MAX_MARKS",
    "MAX_NAME",
    "ReservedName",
    "confusable_with",
    "is_ignorable",
    "normalize_name",
    "skeleton",
    "visible_text",
]
