"""What the text records of every rule family share: the first line, the header, names and
their quoting, the round headers, the result lines and the line reader.

The family modules (:mod:`liarsdice.notation.bidding.text` for the bidding family,
:mod:`liarsdice.notation.poker.text` for poker dice) keep their dice lines and moves: a
:class:`TextReader` subclass reads them, and :func:`write_text` prints them.

>>> Line('"ann marie": 3x5', 4, 0, None, KEYWORDS).token()
('ann marie', True)
>>> Line("Round: 3x5", 4, 0, 1, KEYWORDS).name()
Traceback (most recent call last):
...
liarsdice.core.errors.RecordError: line 4: 'Round' is a keyword: quote a player of that name
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.notation.common import VERSION, Record

__all__ = [
    "KEYWORDS",
    "MAGIC",
    "Line",
    "TextReader",
    "locate_error",
    "name_text",
    "option_text",
    "quote",
    "result_lines",
    "rules_name",
    "write_text",
]

MAGIC = "Liar's Dice record, version"
"""The first line of a text record, before the version."""

KEYWORDS = frozenset({"round", "rules", "option", "players"})
"""The line keywords of every family (a family adds its own dice keyword)."""

_MAGIC_RE = re.compile(r"liar['’]?s\s+dice\s+record,?\s+version\s+(\S+)", re.IGNORECASE)
_BARE_NAME = re.compile(r"\w[\w.'+-]*")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s,:"]+')
_ROUND = re.compile(r"round\s+([0-9]+)\s*(?::\s*(.+?)\s+opens)?", re.IGNORECASE)
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


# ----------------------------------------------------------------------------------- printing
_RULES_LINE = re.compile(r"^[ \t]*rules[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)


def rules_name(text: str) -> str | None:
    """The name on a text record's first ``Rules:`` line (None when it has none).

    >>> rules_name("Liar's Dice record, version 1\\nRules: poker-dice\\n")
    'poker-dice'
    """
    match = _RULES_LINE.search(text)
    return None if match is None else match.group(1)


def quote(value: str, one_line: bool = True) -> str:
    """A JSON string; with ``one_line``, one that stays on one line (``splitlines`` also
    breaks at U+2028 and co)."""
    out = json.dumps(value, ensure_ascii=False)
    if one_line:
        for char, escape in _LINE_BREAKS.items():
            out = out.replace(char, escape)
    return out


def name_text(name: str, keywords: frozenset[str], one_line: bool = True) -> str:
    """A player's name, bare when it reads back as itself, else quoted."""
    if _BARE_NAME.fullmatch(name) and name.lower() not in keywords:
        return name
    return quote(name, one_line)


def option_text(value: Any, *, command_line: bool = False) -> str:
    """An option value as the ``Option:`` lines write it, or with ``command_line`` as typed on
    the command line (``--option name=value``).

    >>> option_text([5, 4]), option_text([5, 4], command_line=True), option_text(None)
    ('[5, 4]', '5,4', 'none')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if command_line:
            return ",".join(map(str, value))
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def result_lines(
    state: Any, describe: Callable[[Any, Any], str], one_line: bool = True
) -> dict[int, str]:
    """The result line of each finished round of a replayed ``state`` (None: none), by round:
    ``describe(game, result)``, and the winner after the last round."""
    results: dict[int, str] = {}
    if state is None:
        return results
    for res in state.results:
        line = describe(state.game, res)
        if res.next_opener is None and state.winner is not None:
            line += f" | {state.game.names[state.winner]} wins"
        results[res.round] = " ".join(line.splitlines()) if one_line else line
    return results


def write_text(
    rec: Mapping[str, Any],
    name: Callable[[str], str],
    round_lines: Callable[[Mapping[str, Any]], Iterable[str]],
    results: Mapping[int, str],
) -> str:
    """A loaded record as a text record: the header, then each round's head,
    ``round_lines(round)`` (its dice and moves) and its result line."""
    lines = [f"{MAGIC} {rec['liarsdice']}", f"Rules: {rec['rules']}"]
    lines += [f"Option: {k} = {option_text(v)}" for k, v in rec["options"].items()]
    lines.append("Players: " + ", ".join(name(p) for p in rec["players"]))
    for r, rnd in enumerate(rec["rounds"]):
        lines.append("")
        head = f"Round {r + 1}"
        if "opener" in rnd:
            head += f": {name(rnd['opener'])} opens"
        lines.append(head)
        lines += round_lines(rnd)
        if r in results:
            lines.append(f"= {results[r]}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ parsing
class Line:
    """A cursor over one line of text, reading names, punctuation and the rest; its errors
    name the line (and the round and move it is in)."""

    def __init__(
        self,
        text: str,
        number: int,
        round: int | None,
        move: int | None,
        keywords: frozenset[str],
        quoted: str = "name",
    ) -> None:
        self.text = text
        self.pos = 0
        self.number = number
        self.round = round
        self.move = move
        self.keywords = keywords
        self.quoted = quoted

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
            return self.string(raw), True
        return raw, False

    def string(self, raw: str) -> str:
        """A quoted string's value."""
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            raise self.error(f"bad quoted {self.quoted} {raw}") from None
        if not isinstance(value, str):  # pragma: no cover - the token is always a string
            raise self.error(f"bad quoted {self.quoted} {raw}")
        return value

    def name(self) -> str:
        value, quoted = self.token()
        if not quoted and value.lower() in self.keywords:
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


class _Reading:
    """What :meth:`TextReader.read` has read so far: the record's data, its rounds, the round
    being read, and the line number of each round and move."""

    def __init__(self) -> None:
        self.record: dict[str, Any] = {"options": {}}
        self.rounds: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None
        self.where: dict[tuple[int, int | None], int] = {}


def _version(line: Line) -> int | str:
    """The version the first line of a text record names."""
    match = _MAGIC_RE.fullmatch(line.text)
    if match is None:
        raise line.error(f"not a liarsdice text record: expected '{MAGIC} {VERSION}'")
    version = match.group(1)
    return int(version) if version.isdigit() else version


class TextReader:
    """Reads a text record into JSON record data (unchecked): the first line, the header, the
    round heads and the moves' lines; a family reads its options, dice lines and moves."""

    keywords: frozenset[str] = KEYWORDS
    """Every line keyword, the family's own included."""
    quoted = "name"
    """What a quoted token is called in errors."""
    dice_keyword = ""
    """The keyword of the family's own dice line (``Stash:``, ``Roll:``)."""
    dice_place = ""
    """The error for a dice line outside a round or without its colon."""

    def new_round(self) -> dict[str, Any]:
        """A round as it starts, before its opener (its dice and an empty ``moves``)."""
        return {"moves": []}

    def rules(self, rules: str, line: Line) -> None:
        """Check the ``Rules:`` line's value."""

    options: OptionCodec
    """The family's option codec: it reads the ``Option:`` lines."""

    def option(self, name: str, value: str, line: Line) -> Any:
        """The JSON value of an ``Option: name = value`` line, read by the rules' one codec."""
        try:
            return self.options.to_json(name, self.options.from_text(name, value, exact=True))
        except RulesError as err:
            raise line.error(str(err)) from None

    def dice(self, line: Line, current: dict[str, Any]) -> None:
        """Read the rest of the family's dice line into the round."""
        raise NotImplementedError

    def other_line(self, word: str, line: Line, current: dict[str, Any]) -> None:
        """Read a line of a round that starts with a name but is not a move (``NAME: ...``)."""
        raise line.error(f"can't read {line.text!r}: expected 'NAME: move'")

    def move(self, line: Line, player: str, body: str) -> dict[str, Any]:
        """Read the items of ``player``'s move."""
        raise NotImplementedError

    def read(self, text: str) -> tuple[Record, dict[tuple[int, int | None], int]]:
        """The record data of ``text`` and the line number of each round and move."""
        reading = _Reading()
        seen_magic = False
        for number, raw in enumerate(text.splitlines(), start=1):
            stripped = raw.strip()
            if not stripped or stripped.startswith(("#", "=")):
                continue
            r = len(reading.rounds) - 1 if reading.rounds else None
            line = Line(stripped, number, r, None, self.keywords, self.quoted)
            if seen_magic:
                self._line(line, reading)
            else:
                reading.record["liarsdice"] = _version(line)
                seen_magic = True
        if not seen_magic:
            raise RecordError(f"empty text record: expected '{MAGIC} {VERSION}'")
        for key in ("rules", "players"):
            if key not in reading.record:
                raise RecordError(f"the text record has no {key.capitalize()}: line")
        reading.record["rounds"] = reading.rounds
        return reading.record, reading.where

    def _line(self, line: Line, reading: _Reading) -> None:
        """Read a line after the first: a round's head, a header, a dice line or a round's."""
        word, quoted = line.token()
        keyword = "" if quoted else word.lower()
        if keyword == "round":
            reading.current = self._round(line, len(reading.rounds))
            reading.where[len(reading.rounds), None] = line.number
            reading.rounds.append(reading.current)
        elif keyword in {"rules", "option", "players"}:
            if reading.current is not None:
                raise line.error(f"the {word} header goes before the first round")
            if not line.accept(":"):
                raise line.error(f"expected '{word}:'")
            self._header(keyword, line, reading.record)
        elif keyword and keyword == self.dice_keyword:
            if reading.current is None or not line.accept(":"):
                raise line.error(self.dice_place)
            self.dice(line, reading.current)
        else:
            self._in_round(word, line, reading)

    def _in_round(self, word: str, line: Line, reading: _Reading) -> None:
        """Read a line of the current round that starts with a name: a move or another line."""
        current = reading.current
        if current is None:
            raise line.error(f"can't read {line.text!r} before the first round")
        if line.accept(":"):
            line.move = len(current["moves"])
            reading.where[len(reading.rounds) - 1, line.move] = line.number
            current["moves"].append(self.move(line, word, line.rest()))
        else:
            self.other_line(word, line, current)

    def _round(self, line: Line, count: int) -> dict[str, Any]:
        match = _ROUND.fullmatch(line.text)
        if match is None:
            raise line.error(f"can't read {line.text!r}: write 'Round N: NAME opens'")
        if int(match.group(1)) != count + 1:
            raise line.error(f"expected round {count + 1}, not {match.group(1)}")
        current = self.new_round()
        if match.group(2) is not None:
            opener = Line(match.group(2), line.number, count, None, self.keywords, self.quoted)
            current["opener"] = opener.name()
            if opener.rest():
                raise line.error(f"can't read the opener in {line.text!r}")
        return current

    def _header(self, keyword: str, line: Line, record: dict[str, Any]) -> None:
        if keyword == "rules":
            record["rules"] = line.rest()
            self.rules(record["rules"], line)
        elif keyword == "players":
            players = [line.name()]
            while line.accept(","):
                players.append(line.name())
            if line.rest():
                raise line.error("players are separated by commas")
            record["players"] = players
        else:
            name, equals, value = line.rest().partition("=")
            if not equals:
                raise line.error("write an option as 'Option: name = value'")
            option = name.strip()
            record["options"][option] = self.option(option, value, line)


def locate_error(err: RecordError, where: Mapping[tuple[int, int | None], int]) -> RecordError:
    """A record error of a text record's data, with the line of its move (or round) named."""
    found = where.get((err.round, err.move)) if err.round is not None else None
    if found is None and err.round is not None:
        found = where.get((err.round, None))
    if found is None:
        return err
    return RecordError(f"line {found}: {err.message}", round=err.round, move=err.move)
