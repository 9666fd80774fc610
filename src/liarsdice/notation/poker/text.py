"""The readable text record of the poker-dice family (the bidding family's is in ``text``).

It holds exactly what the poker JSON record (:mod:`liarsdice.notation.poker.record`) holds, and
the two convert both ways: :func:`record_to_text` and :func:`text_to_record`.
:func:`liarsdice.families.record_to_text` and ``text_to_record`` read and write text records of
any family, so ``liarsdice replay FILE.txt`` reads them too.

>>> text = '''Liar's Dice record, version 1
... Rules: poker-dice
... Players: ann, bob, cy
...
... Round 1: ann opens
... Roll: K K 9 Q A
... ann: pair K, pass left
... bob: accept, out 9 K K, shake, reroll 9, rolled Q Q J, two pair K Q
... cy: liar
... '''
>>> record = text_to_record(text)
>>> record.rounds[0]["moves"][1]["rolled"], record.rounds[0]["moves"][2]
(['Q', 'Q', 'J'], {'player': 'cy', 'call': 'liar'})
>>> print(record_to_text(record).splitlines()[-1])  # the printer adds the result
= hand K K Q Q J, the bid stands: cy loses a life | lives ann 3, bob 3, cy 2 | cy opens next

The format, line by line (blank lines, comment lines starting with ``#`` and result lines
starting with ``=`` are ignored; the printer writes a result line after each round, worked out
by the replay):

* ``Liar's Dice record, version 1`` -- the first line, with the record version.
* Header: ``Rules: poker-dice``, one ``Option: NAME = VALUE`` line per option override
  (``true``/``false`` or a number), ``Players: NAME, NAME, ...`` in seat order.
* ``Round N`` or ``Round N: NAME opens`` starts round N (counted from 1).
* ``Roll: F F F F F`` is Player One's roll, before the moves. Faces are ``9 10 J Q K A``.
* ``NAME: ITEM, ITEM, ...`` is one move. Items: a bid (``pair K``, ``two pair Q 10``...),
  ``pass left`` / ``pass right``, ``liar``, ``accept``, ``out F F`` (``out none``), ``shake``
  / ``no shake``, ``reroll F``, ``rolled F F F``, and in a five-of-a-kind challenge one
  ``keep F F rolled F F F`` item per attempt (``keep none``; ``no attempts`` when the dice
  already show five of a kind). A bid the printer cannot write bare (one with a comma, say) is
  quoted like a JSON string.

Names are written bare when they are made of letters, digits and ``_ . ' + -`` and are not a
keyword (``Round``, ``Rules``, ``Option``, ``Players``, ``Roll``); otherwise they are quoted like
JSON strings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from liarsdice.core.errors import NotationError, RecordError
from liarsdice.core.poker.game import PokerGame
from liarsdice.core.poker.hands import FACE_SYMBOLS, parse_face, parse_poker_bid
from liarsdice.core.poker.rules import POKER_OPTIONS, POKER_PRESETS, PokerRules
from liarsdice.core.poker.state import PokerRoundResult
from liarsdice.notation.common import LoadedRecord, Source, loaded
from liarsdice.notation.poker.record import (
    describe_poker_result,
    load_record,
    replay_partial,
    summarize_result,
)
from liarsdice.notation.text_common import (
    KEYWORDS,
    Line,
    TextReader,
    locate_error,
    name_text,
    quote,
    result_lines,
    write_text,
)

__all__ = ["record_to_text", "text_to_record"]

_KEYWORDS = KEYWORDS | {"roll"}
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_ITEM_WORDS = frozenset(
    {"liar", "accept", "pass", "out", "shake", "no", "reroll", "rolled", "keep", "none"}
)


# ----------------------------------------------------------------------------------- printing
def _name(name: str) -> str:
    return name_text(name, _KEYWORDS)


def _faces(faces: list[str]) -> str:
    return " ".join(faces) if faces else "none"


def _readable_bid(bid: str) -> bool:
    """Whether the parser reads ``bid`` back, written bare, as exactly this bid."""
    words = bid.split()
    if not words or bid != bid.strip() or not bid.isprintable() or any(c in bid for c in ',"'):
        return False
    if words[0].lower() in _ITEM_WORDS:
        return False
    try:
        parse_poker_bid(bid)
    except NotationError:
        return False
    return True


def _bid(bid: str) -> str:
    return bid if _readable_bid(bid) else quote(bid)


def _items(move: Mapping[str, Any]) -> str:
    if "call" in move:
        return str(move["call"])
    items: list[str] = []
    if "accept" in move:
        items.append("accept")
        if "attempts" in move:
            if not move["attempts"]:
                items.append("no attempts")
            for attempt in move["attempts"]:
                item = f"keep {_faces(attempt['keep'])}"
                if "rolled" in attempt:
                    item += f" rolled {_faces(attempt['rolled'])}"
                items.append(item)
        if "out" in move:
            items.append(f"out {_faces(move['out'])}")
        if "shake" in move:
            items.append("shake" if move["shake"] else "no shake")
            if move.get("reroll"):
                items.append(f"reroll {_faces(move['reroll'])}")
        if "rolled" in move:
            items.append(f"rolled {_faces(move['rolled'])}")
    if "bid" in move:
        items.append(_bid(move["bid"]))
    if "pass" in move:
        items.append(f"pass {move['pass']}")
    return ", ".join(items)


def _describe(game: PokerGame, result: PokerRoundResult) -> str:
    return describe_poker_result(summarize_result(game, result))


def record_to_text(record: Source | LoadedRecord[PokerRules]) -> str:
    """Write a poker-dice record in the text format (with a result line after each round).

    Result lines are worked out by replaying the record; an illegal record still prints, with
    result lines up to the first illegal move.

    >>> record = {"liarsdice": 1, "rules": "poker-dice", "options": {"lives": 1},
    ...  "players": ["ann", "bob"],
    ...  "rounds": [{"opener": "ann", "roll": ["Q", "9", "Q", "J", "K"],
    ...              "moves": [{"player": "ann", "bid": "five Q"},
    ...                        {"player": "bob", "accept": True,
    ...                         "attempts": [{"keep": ["Q", "Q"], "rolled": ["Q", "9", "Q"]},
    ...                                      {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["Q"]}]}]}]}
    >>> print(record_to_text(record))  # doctest: +NORMALIZE_WHITESPACE
    Liar's Dice record, version 1
    Rules: poker-dice
    Option: lives = 1
    Players: ann, bob
    <BLANKLINE>
    Round 1: ann opens
    Roll: Q 9 Q J K
    ann: five Q
    bob: accept, keep Q Q rolled Q 9 Q, keep Q Q Q Q rolled Q
    = hand Q Q K J 9, rolls Q Q Q Q 9; Q Q Q Q Q: five of a kind made, no life lost
      | lives ann 1, bob 1 | bob opens next
    """
    rec = loaded(record, load_record)
    state, _ = replay_partial(rec)

    def round_lines(rnd: Mapping[str, Any]) -> list[str]:
        lines = [f"Roll: {_faces(rnd['roll'])}"]
        return lines + [f"{_name(move['player'])}: {_items(move)}" for move in rnd["moves"]]

    return write_text(rec.data, _name, round_lines, result_lines(state, _describe))


# ------------------------------------------------------------------------------------ parsing
def _face_list(words: list[str], line: Line, what: str) -> list[str]:
    if [w.lower() for w in words] == ["none"]:
        return []
    out: list[str] = []
    for word in words:
        try:
            out.append(FACE_SYMBOLS[parse_face(word) - 1])
        except NotationError:
            raise line.error(f"{what}: {word!r} is not a face (9 10 J Q K A)") from None
    return out


def _split_items(body: str, line: Line) -> list[str]:
    """Split a move's items at commas outside quoted strings."""
    items: list[str] = []
    start, pos = 0, 0
    while pos < len(body):
        char = body[pos]
        if char == '"':
            match = _QUOTED.match(body, pos)
            if match is None:
                raise line.error(f"unclosed quote in {body!r}")
            pos = match.end()
            continue
        if char == ",":
            items.append(body[start:pos].strip())
            start = pos + 1
        pos += 1
    items.append(body[start:].strip())
    return items


def _attempt(words: list[str], line: Line) -> dict[str, Any]:
    low = [w.lower() for w in words]
    if "rolled" not in low:
        return {"keep": _face_list(words, line, "keep")}
    cut = low.index("rolled")
    return {
        "keep": _face_list(words[:cut], line, "keep"),
        "rolled": _face_list(words[cut + 1 :], line, "rolled"),
    }


def _worded(head: str, args: list[str], line: Line) -> tuple[str, Any] | None:
    """The key and value of an item that is a word and its arguments (a call, an accept, a
    pass, a shake, faces out, rerolled or rolled), or None when the item is none of these."""
    low = " ".join(args).lower()
    match head:
        case "liar" if not args:
            return "call", "liar"
        case "accept" if not args:
            return "accept", True
        case "pass" if low in {"left", "right"}:
            return "pass", low
        case "shake" if not args:
            return "shake", True
        case "no" if low == "shake":
            return "shake", False
        case "out" | "reroll" | "rolled" if args:
            return head, _face_list(args, line, head)
    return None


def _bid_item(item: str, line: Line) -> tuple[str, Any]:
    try:
        parse_poker_bid(item)
    except NotationError:
        raise line.error(
            f"can't read {item!r} (a bid such as pair K, liar, accept, out F F, ...)"
        ) from None
    return "bid", item


def _is_attempt(head: str, args: list[str]) -> bool:
    """Whether an item is one attempt at a five-of-a-kind challenge, or 'no attempts'."""
    if head == "no":
        return " ".join(args).lower() == "attempts"
    return head == "keep" and bool(args)


def _add_attempt(move: dict[str, Any], head: str, args: list[str], line: Line) -> None:
    attempts = move.get("attempts")
    # An empty list was left by 'no attempts': no attempt may come with it.
    if attempts == [] or (head == "no" and attempts is not None):
        raise line.error(f"{move['player']}'s move has 'no attempts' and other attempts")
    attempts = move.setdefault("attempts", [])
    if head != "no":
        attempts.append(_attempt(args, line))


def _move(line: Line, player: str, body: str) -> dict[str, Any]:
    move: dict[str, Any] = {"player": player}
    items = _split_items(body, line)
    if items == [""]:
        raise line.error(f"{player} makes no move")
    for item in items:
        words = item.split()
        if not words:
            raise line.error(f"empty item in {body!r}")
        head, args = words[0].lower(), words[1:]
        if item.startswith('"'):
            key, value = "bid", line.string(item)
        elif _is_attempt(head, args):
            _add_attempt(move, head, args, line)
            continue
        else:
            key, value = _worded(head, args, line) or _bid_item(item, line)
        if key in move:
            raise line.error(f"{player}'s move has two {key} items")
        move[key] = value
    if "reroll" in move and "shake" not in move:
        raise line.error("'reroll' comes with 'shake' or 'no shake'")
    return move


class _Reader(TextReader):
    """The poker-dice lines: ``Roll: F F F F F``, and poker-dice options and moves."""

    keywords = _KEYWORDS
    options = POKER_OPTIONS
    quoted = "string"
    dice_keyword = "roll"
    dice_place = "'Roll: F F F F F' goes in a round, before the moves"

    def rules(self, rules: str, line: Line) -> None:
        if rules not in POKER_PRESETS:
            raise line.error(
                f"{rules!r} are not poker-dice rules: read the record with "
                "liarsdice.notation.bidding.text.text_to_record"
            )

    def dice(self, line: Line, current: dict[str, Any]) -> None:
        if current["moves"]:
            raise line.error("the roll goes before the moves of the round")
        if "roll" in current:
            raise line.error("the round has two rolls")
        roll = _face_list(line.rest().split(), line, "the roll")
        if len(roll) != 5:
            raise line.error(f"the roll is five dice, not {len(roll)}")
        current["roll"] = roll

    def move(self, line: Line, player: str, body: str) -> dict[str, Any]:
        return _move(line, player, body)


def text_to_record(text: str) -> LoadedRecord[PokerRules]:
    """Read the poker-dice text format; returns the checked record (its data is the
    normalized JSON record).

    Raises :class:`~liarsdice.core.errors.RecordError` naming the line that is wrong (with
    ``round`` and ``move`` set where the line is in a round).

    >>> text_to_record('''Liar's Dice record, version 1
    ... Rules: poker-dice
    ... Players: ann, bob
    ... Round 1: ann opens
    ... Roll: K K 9 Q A
    ... ann: pair K
    ... bob: accept, out none, no shake, pair A''').rounds[0]["moves"][1]
    {'player': 'bob', 'accept': True, 'out': [], 'shake': False, 'reroll': [], 'bid': 'pair A'}
    >>> text_to_record("Liar's Dice record, version 1\\nRules: poker-dice\\n"
    ...                      "Players: ann, bob\\nRound 1\\nRoll: K K 9 Q B\\n")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RecordError: line 5: the roll: 'B' is not a face (9 10 J Q K A)
    """
    record, where = _Reader().read(text)
    try:
        return load_record(record)
    except RecordError as err:
        raise locate_error(err, where) from None
