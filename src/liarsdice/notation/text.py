"""A readable text game record, for people (in the spirit of PGN and poker hand histories).

It holds exactly what the JSON record (:mod:`liarsdice.notation.record`) holds, and the two
convert both ways: :func:`record_to_text` and :func:`text_to_record`. Poker-dice records have
their own text format (:mod:`liarsdice.notation.poker_text`); both functions dispatch there.

>>> record = {"liarsdice": 1, "rules": "milton-bradley", "options": {"loss": "one"},
...  "players": ["ann", "bob", "cy"],
...  "rounds": [{"opener": "ann",
...              "dice": {"ann": [1, 3, 3, 5, 6], "bob": [2, 2, 4, 6, 6], "cy": [1, 1, 5, 5, 5]},
...              "moves": [{"player": "ann", "bid": "3x5"},
...                        {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2], "bid": "5x6"},
...                        {"player": "cy", "call": "liar"}]}]}
>>> text = record_to_text(record)
>>> print(text)
Liar's Dice record, version 1
Rules: milton-bradley
Option: loss = one
Players: ann, bob, cy
<BLANKLINE>
Round 1: ann opens
ann rolls 1 3 3 5 6
bob rolls 2 2 4 6 6
cy rolls 1 1 5 5 5
ann: 3x5
bob: show 6 6, reroll 1 4 2, 5x6
cy: liar
= count 7: cy loses 1 | dice ann 5, bob 5, cy 4 | bob opens next
>>> text_to_record(text) == record
True

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

import json
import re
from collections.abc import Mapping
from typing import Any

from liarsdice.core.errors import RecordError
from liarsdice.core.poker.rules import POKER_PRESETS
from liarsdice.core.rules import Rules, ShowReroll
from liarsdice.core.state import State
from liarsdice.notation.poker_text import is_poker_text, poker_record_to_text, poker_text_to_record
from liarsdice.notation.record import (
    VERSION,
    Record,
    Source,
    load_record,
    record_rules,
    replay_partial,
    summarize_result,
)

__all__ = ["describe_result", "record_to_text", "text_to_record"]

_MAGIC = "Liar's Dice record, version"
_MAGIC_RE = re.compile(r"liar['’]?s\s+dice\s+record,?\s+version\s+(\S+)", re.IGNORECASE)
_KEYWORDS = frozenset({"round", "rules", "option", "players", "stash"})
_BARE_NAME = re.compile(r"\w[\w.'+-]*")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s,:"]+')
_BID = re.compile(r"[0-9]+[xX][0-9]+")
_ROUND = re.compile(r"round\s+([0-9]+)\s*(?::\s*(.+?)\s+opens)?", re.IGNORECASE)


# ----------------------------------------------------------------------------------- printing
def _name(name: str) -> str:
    if _BARE_NAME.fullmatch(name) and name.lower() not in _KEYWORDS:
        return name
    return json.dumps(name, ensure_ascii=False)


def _faces(faces: list[int]) -> str:
    return " ".join(str(f) for f in faces)


def _option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


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
    """
    effects = [f"{name} loses {k}" for name, k in summary["losses"].items()]
    effects += [f"{name} gains {k}" for name, k in summary.get("gains", {}).items()]
    parts = [f"count {summary['count']}: {', '.join(effects) or 'no dice change hands'}"]
    parts.append(f"dice {_counts(summary['dice'])}")
    if "chips" in summary:
        parts.append(f"chips {_counts(summary['chips'])}, game pot {summary['game_pot']}")
    if "pile" in summary:
        parts.append(f"pile {summary['pile']}")
    if "scores" in summary:
        parts.append(f"scores {_counts(summary['scores'])}")
    opener = summary["next_opener"]
    parts.append("game over" if opener is None else f"{opener} opens next")
    return " | ".join(parts)


def record_to_text(record: Source) -> str:
    """Write a record in the text format (with a result line after each challenge).

    Result lines are worked out by replaying the record; an illegal record still prints, with
    result lines up to the first illegal move. A poker-dice record is written by
    :func:`liarsdice.notation.poker_text.poker_record_to_text`.
    """
    rec = load_record(record)
    if rec["rules"] in POKER_PRESETS:
        return poker_record_to_text(rec)
    rules = record_rules(rec)
    before = rules.show_reroll is ShowReroll.BEFORE
    state, _ = replay_partial(rec)
    results: dict[int, str] = {}
    if isinstance(state, State):
        for res in state.results:
            line = describe_result(summarize_result(state.game, res))
            if res.next_opener is None and state.winner is not None:
                line += f" | {state.game.names[state.winner]} wins"
            results[res.round] = line
    lines = [f"{_MAGIC} {rec['liarsdice']}", f"Rules: {rec['rules']}"]
    lines += [f"Option: {k} = {_option_text(v)}" for k, v in rec["options"].items()]
    lines.append("Players: " + ", ".join(_name(p) for p in rec["players"]))
    for r, rnd in enumerate(rec["rounds"]):
        lines.append("")
        head = f"Round {r + 1}"
        if "opener" in rnd:
            head += f": {_name(rnd['opener'])} opens"
        lines.append(head)
        for name, faces in rnd["dice"].items():
            lines.append(f"{_name(name)} rolls {_faces(faces)}".rstrip())
        if "stash" in rnd:
            lines.append(f"Stash: {_faces(rnd['stash'])}".rstrip())
        for move in rnd["moves"]:
            lines.append(f"{_name(move['player'])}: {_items(move, before)}")
        if r in results:
            lines.append(f"= {results[r]}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ parsing
class _Line:
    """A cursor over one line of text, reading names, punctuation and the rest."""

    def __init__(self, text: str, number: int, round: int | None, move: int | None) -> None:
        self.text = text
        self.pos = 0
        self.number = number
        self.round = round
        self.move = move

    def error(self, message: str) -> RecordError:
        return RecordError(f"line {self.number}: {message}", round=self.round, move=self.move)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def token(self) -> tuple[str, bool]:
        """The next name-like token and whether it was quoted."""
        self.skip_space()
        match = _TOKEN.match(self.text, self.pos)
        if match is None:
            raise self.error(f"expected a name in {self.text!r}")
        self.pos = match.end()
        raw = match.group()
        if raw.startswith('"'):
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                raise self.error(f"bad quoted name {raw}") from None
            return str(value), True
        return raw, False

    def name(self) -> str:
        value, quoted = self.token()
        if not quoted and value.lower() in _KEYWORDS:
            raise self.error(f"{value!r} is a keyword: quote a player of that name")
        return value

    def accept(self, punct: str) -> bool:
        self.skip_space()
        if self.text.startswith(punct, self.pos):
            self.pos += len(punct)
            return True
        return False

    def rest(self) -> str:
        out = self.text[self.pos :].strip()
        self.pos = len(self.text)
        return out


def _ints(text: str, line: _Line, what: str) -> list[int]:
    out: list[int] = []
    for part in text.replace(",", " ").split():
        if not part.isdigit() or len(part) > 9:
            raise line.error(f"{what}: {part!r} is not a die face")
        out.append(int(part))
    return out


def _option_value(name: str, text: str, line: _Line) -> Any:
    low = text.strip().lower()
    default = Rules().options().get(name)
    if text.strip().startswith("["):
        if not text.strip().endswith("]"):
            raise line.error(f"option {name}: unclosed list {text!r}")
        return _ints(text.strip()[1:-1], line, f"option {name}")
    if low in {"none", "null"} and (name in {"wild", "face_order"} or default is None):
        return None
    if isinstance(default, bool):
        if low in {"true", "yes", "on", "1"}:
            return True
        if low in {"false", "no", "off", "0"}:
            return False
        raise line.error(f"option {name} must be true or false, not {text.strip()!r}")
    if isinstance(default, int) or name in {"wild", "dice"}:
        if not re.fullmatch(r"-?[0-9]{1,9}", low):
            raise line.error(f"option {name} must be a number, not {text.strip()!r}")
        return int(low)
    if isinstance(default, str):
        return text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()


def _move(line: _Line, player: str, body: str) -> dict[str, Any]:
    move: dict[str, Any] = {"player": player}
    items = [item.strip() for item in body.split(",")]
    if items == [""]:
        raise line.error(f"{player} makes no move")
    for item in items:
        value: str | list[int]
        words = item.split()
        if not words:
            raise line.error(f"empty item in {body!r}")
        head, args = words[0].lower(), " ".join(words[1:])
        if head in {"liar", "exact"} and not args:
            key, value = "call", head
        elif head in {"ask", "asks"} and args.lower() in {"turn", "count"}:
            key, value = "ask", args.lower()
        elif head == "buy":
            key, value = "buy", _ints(args, line, "buy")
        elif head == "show":
            key, value = "show", _ints(args, line, "show")
        elif head == "no" and args.lower() == "show":
            key, value = "show", []
        elif head == "reroll":
            key, value = "reroll", _ints(args, line, "reroll")
        elif _BID.fullmatch(item):
            key, value = "bid", item
        else:
            raise line.error(f"can't read {item!r} (a bid such as 3x5, liar, exact, show, ...)")
        if key in move:
            raise line.error(f"{player}'s move has two {key} items")
        move[key] = value
    return move


def text_to_record(text: str) -> Record:
    """Read the text format; returns the (checked, normalized) JSON record.

    Raises :class:`~liarsdice.core.errors.RecordError` naming the line that is wrong. A record
    whose ``Rules:`` line names poker dice is read by
    :func:`liarsdice.notation.poker_text.poker_text_to_record`.
    """
    if is_poker_text(text):
        return poker_text_to_record(text)
    record: dict[str, Any] = {"options": {}}
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    seen_magic = False
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(("#", "=")):
            continue
        r = len(rounds) - 1 if rounds else None
        m = len(current["moves"]) if current is not None else None
        line = _Line(stripped, number, r, None)
        if not seen_magic:
            match = _MAGIC_RE.fullmatch(stripped)
            if match is None:
                raise line.error(f"not a liarsdice text record: expected '{_MAGIC} {VERSION}'")
            version = match.group(1)
            record["liarsdice"] = int(version) if version.isdigit() else version
            seen_magic = True
            continue
        word, quoted = line.token()
        keyword = "" if quoted else word.lower()
        if keyword == "round":
            match = _ROUND.fullmatch(stripped)
            if match is None:
                raise line.error(f"can't read {stripped!r}: write 'Round N: NAME opens'")
            if int(match.group(1)) != len(rounds) + 1:
                raise line.error(f"expected round {len(rounds) + 1}, not {match.group(1)}")
            current = {"dice": {}, "moves": []}
            if match.group(2) is not None:
                opener = _Line(match.group(2), number, len(rounds), None)
                current["opener"] = opener.name()
                if opener.rest():
                    raise line.error(f"can't read the opener in {stripped!r}")
            rounds.append(current)
        elif keyword in {"rules", "option", "players"}:
            if current is not None:
                raise line.error(f"the {word} header goes before the first round")
            if not line.accept(":"):
                raise line.error(f"expected '{word}:'")
            if keyword == "rules":
                record["rules"] = line.rest()
            elif keyword == "players":
                players = [line.name()]
                while line.accept(","):
                    players.append(line.name())
                if line.rest():
                    raise line.error("players are separated by commas")
                record["players"] = players
            else:
                name, _, value = line.rest().partition("=")
                if not _:
                    raise line.error("write an option as 'Option: name = value'")
                option = name.strip()
                record["options"][option] = _option_value(option, value, line)
        elif keyword == "stash":
            if current is None or not line.accept(":"):
                raise line.error("'Stash: F F ...' goes in a round, before the moves")
            current["stash"] = _ints(line.rest(), line, "stash")
        else:
            if current is None:
                raise line.error(f"can't read {stripped!r} before the first round")
            if not quoted and word.lower() in _KEYWORDS:
                raise line.error(f"{word!r} is a keyword: quote a player of that name")
            if line.accept(":"):
                line.move = m
                current["moves"].append(_move(line, word, line.rest()))
                continue
            verb, _ = line.token()
            if verb.lower() != "rolls":
                raise line.error(f"can't read {stripped!r}: expected 'NAME: move' or 'NAME rolls'")
            if current["moves"]:
                raise line.error("the dice go before the moves of the round")
            if word in current["dice"]:
                raise line.error(f"{word} rolls twice in one round")
            current["dice"][word] = _ints(line.rest(), line, f"{word}'s dice")
    if not seen_magic:
        raise RecordError(f"empty text record: expected '{_MAGIC} {VERSION}'")
    for key in ("rules", "players"):
        if key not in record:
            raise RecordError(f"the text record has no {key.capitalize()}: line")
    record["rounds"] = rounds
    return load_record(record)
