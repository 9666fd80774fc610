"""The grammar of the English the game prints, in one place, for every family.

A player called ``you`` (any case: the default name of the human at ``liarsdice play``) is the
viewer and is written in the second person; every other player in the third person. Counts
agree with their nouns and verbs.

>>> clause("you", "call"), clause("ann", "call"), clause("ann", "pass"), clause("You", "lose")
('you call', 'ann calls', 'ann passes', 'You lose')
>>> possessive("you"), possessive("bob")
('your', "bob's")
>>> plural(1, "die"), plural(3, "die"), plural(2, "life"), plural(0, "roll")
('1 die', '3 dice', '2 lives', '0 rolls')
>>> counted(1, "die", "show"), counted(4, "die", "show"), counted(1, "die", "be")
('1 die shows', '4 dice show', '1 die is')
"""

from __future__ import annotations

__all__ = [
    "agree",
    "clause",
    "conjugate",
    "counted",
    "is_you",
    "noun",
    "plural",
    "possessive",
    "third_person",
]

_PLURALS = {"die": "dice", "life": "lives"}
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_SECOND = {"be": "are"}


def is_you(name: str) -> bool:
    """Whether ``name`` is the viewer (``you``), written in the second person."""
    return name.strip().lower() == "you"


def third_person(verb: str) -> str:
    """The third-person singular of a verb, or of the first word of a verb phrase.

    >>> [third_person(v) for v in ("call", "pass", "lose", "do", "try", "stay", "be", "watch")]
    ['calls', 'passes', 'loses', 'does', 'tries', 'stays', 'is', 'watches']
    >>> third_person("call liar")
    'calls liar'
    """
    head, _, rest = verb.partition(" ")
    if head in _IRREGULAR:
        out = _IRREGULAR[head]
    elif head.endswith(("s", "sh", "ch", "x", "z")):
        out = head + "es"
    elif head.endswith("y") and head[-2:-1] not in tuple("aeiou"):
        out = head[:-1] + "ies"
    else:
        out = head + "s"
    return f"{out} {rest}" if rest else out


def conjugate(name: str, verb: str) -> str:
    """``verb`` (its base form: ``call``, ``lose a life``) as its subject ``name`` takes it."""
    if is_you(name):
        head, _, rest = verb.partition(" ")
        head = _SECOND.get(head, head)
        return f"{head} {rest}" if rest else head
    return third_person(verb)


def clause(name: str, verb: str) -> str:
    """``name`` and the ``verb`` it takes: ``you call``, ``ann calls``."""
    return f"{name} {conjugate(name, verb)}"


def possessive(name: str) -> str:
    """``your`` for the viewer, else ``name's``."""
    return "your" if is_you(name) else f"{name}'s"


def noun(n: int, word: str) -> str:
    """``word`` in the singular when ``n`` is 1, else in the plural (``die``/``dice``)."""
    return word if n == 1 else _PLURALS.get(word, word + "s")


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1."""
    return f"{n} {noun(n, word)}"


def agree(n: int, verb: str) -> str:
    """``verb`` agreeing with a count of ``n`` things (``1 die shows``, ``2 dice show``).

    >>> agree(1, "show"), agree(2, "show"), agree(2, "be")
    ('shows', 'show', 'are')
    """
    if n == 1:
        return third_person(verb)
    head, _, rest = verb.partition(" ")
    head = _SECOND.get(head, head)
    return f"{head} {rest}" if rest else head


def counted(n: int, word: str, verb: str) -> str:
    """A count, its noun and a verb agreeing with it: ``1 die shows``, ``3 dice show``."""
    return f"{plural(n, word)} {agree(n, verb)}"
