"""A readable text game record, for people (in the spirit of PGN and poker hand histories).

It holds exactly what the JSON record (:mod:`liarsdice.notation.bidding.record`) holds, and the two
convert both ways: :func:`record_to_text` and :func:`text_to_record`. Poker-dice records have
their own text format (:mod:`liarsdice.notation.poker.text`); :mod:`liarsdice.families` reads
and writes text records of any family.

>>> text = '''Liar's Dice record, version 1
... Rules: classic
... Players: ann, bob
...
... Round 1: bob opens
... ann rolls 2 2 5 6 1
... bob rolls 3 4 4 6 1
... bob: 3x4
... ann: 3x6
... bob: liar
... '''
>>> record = text_to_record(text)  # a checked LoadedRecord
>>> record.rounds[0]["moves"][1], record.rounds[0]["dice"]["bob"]
({'player': 'ann', 'bid': '3x6'}, [3, 4, 4, 6, 1])
>>> print(record_to_text(record))  # the printer adds a result line after each challenge
Liar's Dice record, version 1
Rules: classic
Players: ann, bob
<BLANKLINE>
Round 1: bob opens
ann rolls 2 2 5 6 1
bob rolls 3 4 4 6 1
bob: 3x4
ann: 3x6
bob: liar
= count 4: bob loses 1 | dice ann 5, bob 4 | bob opens next

The format, line by line (blank lines are ignored, and so are comment lines starting with
``#`` and result lines starting with ``=``: the printer writes a result line after each
challenge, and the replay recomputes them):

* ``Liar's Dice record, version 1`` -- the first line, with the record version.
* Header: ``Rules: NAME`` (a preset, or ``custom``), one ``Option: NAME = VALUE`` line per
  option override, ``Players: NAME, NAME, ...`` in seat order. Option values are written as
  ``one``, ``true``/``false``, ``none``, ``3`` or a list ``[5, 4, 3]``.
* ``Round N`` or ``Round N: NAME opens`` starts round N (counted from 1).
* ``NAME rolls F F F ...`` gives a player's roll; ``Stash: F F ...`` the stash.
* ``NAME: ITEM, ITEM, ...`` is one move: a bid ``3x5``, ``liar`` or ``exact``,
  ``show F F`` (``no show`` declines, in the 'before' order), ``reroll F F F``, ``buy F``
  (Rich Man's Dice: the bought die's face) or ``ask turn`` / ``ask count``.

Names are written bare when they are made of letters, digits and ``_ . ' + -`` and are not a
keyword (``Round``, ``Rules``, ``Option``, ``Players``, ``Stash``); otherwise they are quoted
like JSON strings: ``"Round": 3x5``, ``"ann marie" rolls 2 4``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import OPTIONS, Rules, ShowReroll
from liarsdice.core.bidding.state import RoundResult
from liarsdice.notation.bidding.record import load_record, replay_partial, summarize_result
from liarsdice.notation.common import LoadedRecord, Source, loaded
from liarsdice.notation.grammar import clause
from liarsdice.notation.text_common import (
    KEYWORDS,
    Line,
    TextReader,
    name_text,
    result_lines,
    write_text,
)

__all__ = ["describe_result", "record_to_text", "text_to_record"]

_KEYWORDS = KEYWORDS | {"stash"}
_BID = re.compile(r"[0-9]+[xX][0-9]+")


# ----------------------------------------------------------------------------------- printing
def _name(name: str) -> str:
    return name_text(name, _KEYWORDS, one_line=False)


def _faces(faces: list[int]) -> str:
    return " ".join(str(f) for f in faces)


def _items(move: Mapping[str, Any], before: bool) -> str:
    if "call" in move:
        return str(move["call"])
    if "ask" in move:
        return f"ask {move['ask']}"
    if "buy" in move:
        return " ".join(["buy", *(str(f) for f in move["buy"])])
    show: list[str] = []
    if "show" in move:
        show.append(f"show {_faces(move['show'])}" if move["show"] else "no show")
        if "reroll" in move:
            show.append(f"reroll {_faces(move['reroll'])}".rstrip())
    bid = [move["bid"]] if "bid" in move else []
    return ", ".join(bid + show if before else show + bid)


def _counts(mapping: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {k}" for name, k in mapping.items())


def describe_result(summary: Mapping[str, Any]) -> str:
    """One line for a round's outcome (an item of ``replay_summary()["rounds"]``).

    >>> describe_result({"bid": "5x6", "count": 7, "call": "liar", "caller": "cy",
    ...     "bidder": "bob", "losses": {"cy": 2}, "dice": {"ann": 5, "bob": 5, "cy": 3},
    ...     "next_opener": "bob"})
    'count 7: cy loses 2 | dice ann 5, bob 5, cy 3 | bob opens next'
    >>> describe_result({"bid": "5x6", "count": 7, "call": "liar", "caller": "you",
    ...     "bidder": "bob", "losses": {"you": 2}, "dice": {"you": 3, "bob": 5},
    ...     "next_opener": "you"})
    'count 7: you lose 2 | dice you 3, bob 5 | you open next'
    """
    effects = [f"{clause(name, 'lose')} {k}" for name, k in summary["losses"].items()]
    effects += [f"{clause(name, 'gain')} {k}" for name, k in summary.get("gains", {}).items()]
    parts = [f"count {summary['count']}: {', '.join(effects) or 'no dice change hands'}"]
    parts.append(f"dice {_counts(summary['dice'])}")
    if "chips" in summary:
        parts.append(f"chips {_counts(summary['chips'])}, game pot {summary['game_pot']}")
    if "pile" in summary:
        parts.append(f"pile {summary['pile']}")
    if "scores" in summary:
        parts.append(f"scores {_counts(summary['scores'])}")
    opener = summary["next_opener"]
    parts.append("game over" if opener is None else f"{clause(opener, 'open')} next")
    return " | ".join(parts)


def _describe(game: Game, result: RoundResult) -> str:
    return describe_result(summarize_result(game, result))


def record_to_text(record: Source | LoadedRecord[Rules]) -> str:
    """Write a bidding-family record in the text format (with a result line after each
    challenge).

    Result lines are worked out by replaying the record; an illegal record still prints, with
    result lines up to the first illegal move.
    """
    rec = loaded(record, load_record)
    before = rec.rules.show_reroll is ShowReroll.BEFORE
    state, _ = replay_partial(rec)

    def round_lines(rnd: Mapping[str, Any]) -> list[str]:
        lines = [
            f"{_name(name)} rolls {_faces(faces)}".rstrip() for name, faces in rnd["dice"].items()
        ]
        if "stash" in rnd:
            lines.append(f"Stash: {_faces(rnd['stash'])}".rstrip())
        lines += [f"{_name(move['player'])}: {_items(move, before)}" for move in rnd["moves"]]
        return lines

    return write_text(rec.data, _name, round_lines, result_lines(state, _describe, one_line=False))


# ------------------------------------------------------------------------------------ parsing
def _ints(text: str, line: Line, what: str) -> list[int]:
    out: list[int] = []
    for part in text.replace(",", " ").split():
        if not part.isdigit() or len(part) > 9:
            raise line.error(f"{what}: {part!r} is not a die face")
        out.append(int(part))
    return out


def _item(item: str, line: Line) -> tuple[str, str | list[int]]:
    """The key and value of one item of a move (a call, a question, a purchase, a show, a
    reroll or a bid)."""
    words = item.split()
    head, args = words[0].lower(), " ".join(words[1:])
    match head:
        case "liar" | "exact" if not args:
            return "call", head
        case "ask" | "asks" if args.lower() in {"turn", "count"}:
            return "ask", args.lower()
        case "buy" | "show" | "reroll":
            return head, _ints(args, line, head)
        case "no" if args.lower() == "show":
            return "show", []
    if _BID.fullmatch(item):
        return "bid", item
    raise line.error(f"can't read {item!r} (a bid such as 3x5, liar, exact, show, ...)")


def _move(line: Line, player: str, body: str) -> dict[str, Any]:
    move: dict[str, Any] = {"player": player}
    items = [item.strip() for item in body.split(",")]
    if items == [""]:
        raise line.error(f"{player} makes no move")
    for item in items:
        if not item.split():
            raise line.error(f"empty item in {body!r}")
        key, value = _item(item, line)
        if key in move:
            raise line.error(f"{player}'s move has two {key} items")
        move[key] = value
    return move


class _Reader(TextReader):
    """The bidding family's lines: ``NAME rolls F F ...`` and ``Stash: F F ...``."""

    keywords = _KEYWORDS
    options = OPTIONS
    dice_keyword = "stash"
    dice_place = "'Stash: F F ...' goes in a round, before the moves"

    def new_round(self) -> dict[str, Any]:
        return {"dice": {}, "moves": []}

    def dice(self, line: Line, current: dict[str, Any]) -> None:
        current["stash"] = _ints(line.rest(), line, "stash")

    def other_line(self, word: str, line: Line, current: dict[str, Any]) -> None:
        verb, _ = line.token()
        if verb.lower() != "rolls":
            raise line.error(f"can't read {line.text!r}: expected 'NAME: move' or 'NAME rolls'")
        if current["moves"]:
            raise line.error("the dice go before the moves of the round")
        if word in current["dice"]:
            raise line.error(f"{word} rolls twice in one round")
        current["dice"][word] = _ints(line.rest(), line, f"{word}'s dice")

    def move(self, line: Line, player: str, body: str) -> dict[str, Any]:
        return _move(line, player, body)


def text_to_record(text: str) -> LoadedRecord[Rules]:
    """Read the bidding family's text format; returns the checked record (its data is the
    normalized JSON record).

    Raises :class:`~liarsdice.core.errors.RecordError` naming the line that is wrong.
    """
    record, _ = _Reader().read(text)
    return load_record(record)
