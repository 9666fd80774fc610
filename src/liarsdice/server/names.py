"""Display names: NFKC normalisation, names reserved for bots, and look-alike names.

A human may not take a bot's name (``LEVEL-bot-N``, any case, or one that looks like it), nor a
name that looks like one already seated: names are compared by their *skeleton* (Unicode
Technical Standard #39: every character replaced by the prototype of its confusable class,
from the Unicode confusables data shipped with ``confusable-homoglyphs``), with and without
case.

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
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 24
# Marks that the confusables data wraps right-to-left characters in.
_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f")
_BOT_NAME = re.compile(r"[a-z0-9_]+-bot-[0-9]+")


class ReservedName(ValueError):
    """The name is (or looks like) a bot's."""


def normalize_name(name: str) -> str:
    """The name as it will be seated: NFKC, whitespace collapsed; ValueError says what is wrong.

    Raises :class:`ReservedName` (a ValueError) for bot names.
    """
    value = " ".join(unicodedata.normalize("NFKC", name).split())
    if not value:
        raise ValueError("the name is empty")
    if any(not c.isprintable() for c in value):
        raise ValueError("the name has unprintable characters")
    if len(value) > MAX_NAME:
        raise ValueError(f"the name is longer than {MAX_NAME} characters")
    if _is_bot_name(value):
        raise ReservedName(f"the name {value!r} is reserved for bots")
    return value


def confusable_with(name: str, taken: Iterable[str]) -> str | None:
    """The seated name among ``taken`` that ``name`` is or looks like, or None."""
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
    n = unicodedata.normalize("NFKC", name)
    return skeleton(skeleton(n.casefold()).casefold())


def skeleton(text: str) -> str:
    """The UTS #39 skeleton: NFD, each character mapped to its prototype, NFD again.

    >>> skeleton("pay\u0440al") == skeleton("paypal")  # Cyrillic er
    True
    """
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def _keys(name: str) -> set[str]:
    """The forms compared: the skeleton as written and without case."""
    return {skeleton(unicodedata.normalize("NFKC", name)), name_key(name)}


def _is_bot_name(value: str) -> bool:
    if _BOT_NAME.fullmatch(value.casefold()):
        return True
    # Look-alikes of a bot name: "prob-bot-l", "рrob-bot-1" (Cyrillic er), ...
    from liarsdice import bots

    levels: tuple[str, ...] = bots.BOT_NAMES
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


__all__ = ["MAX_NAME", "ReservedName", "confusable_with", "normalize_name", "skeleton"]
