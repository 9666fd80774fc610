"""Options read from text and from JSON by one declared codec per options dataclass.

A rules type (or a bot class) declares its options as dataclass fields with plain types;
:class:`OptionCodec` derives from those types one way of reading each option, with one set of
rules for every caller:

* **text** (the command line's ``--option name=value``, a text record's ``Option:`` lines,
  a bot label's ``expert:cached=false``): booleans are ``true``/``false``/``yes``/``no``/
  ``on``/``off``/``1``/``0``; numbers are decimal; an enum option takes one of its values;
  a tuple of whole numbers is written ``5,4`` (or ``[5, 4]``); ``none`` (or ``null``) where
  the option may be empty;
* **JSON** (a JSON record's ``options``, the server's room options): ``true``/``false``,
  numbers, the enum's string, a list of whole numbers, ``null`` where the option may be empty.
  With ``text_strings`` (the server's room options, which the browser sends as the strings
  typed in its rule-changes box) a string is read as the option's text form instead.

Whole numbers have at most nine digits, in text and in JSON. Option names are read with dashes
as underscores (``exact-count``), but ``exact=True`` (the records) takes only the names as
declared. Every error is a :class:`~liarsdice.core.errors.RulesError` that names the option
and the values it takes; :meth:`OptionCodec.to_json` writes a value back as JSON.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, kw_only=True)
... class Table:
...     name: str = "t"
...     seats: int = 4
...     dice: int | tuple[int, ...] = 5
...     wild: int | None = 1
...     fast: bool = False
>>> codec = OptionCodec.of(Table, skip=("name",))
>>> codec.from_text("dice", "5,4"), codec.from_text("wild", "none"), codec.from_text("fast", "on")
((5, 4), None, True)
>>> codec.from_json("dice", [5, 4]), codec.from_json("seats", 3)
((5, 4), 3)
>>> codec.from_text("fast", "maybe")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option fast takes true or false, not 'maybe'
>>> codec.from_json("seats", "3")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option seats takes a whole number, not '3'
>>> room = {"seats": "3", "fast": "1", "dice": [5, 4]}  # the server's: strings read as text
>>> codec.read_json(room, text_strings=True)
{'seats': 3, 'fast': True, 'dice': (5, 4)}
>>> codec.from_json("fast", 1, text_strings=True)
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option fast takes true or false, not 1
>>> codec.to_json("dice", codec.from_text("dice", "[5, 4]"))
[5, 4]
>>> codec.read_text({"colour": "red"})
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: unknown option 'colour'; options: seats, dice, wild, fast
>>> codec.read_json({"fast": True}, exact=True), codec.read_text({" fast ": "no"})
({'fast': True}, {'fast': False})
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from liarsdice.core.errors import RulesError

__all__ = ["Option", "OptionCodec"]

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_NONE = frozenset({"none", "null"})
_INT = re.compile(r"[+-]?[0-9]{1,9}")
_BOUND = 10**9  # whole numbers have at most nine digits (as _INT reads them)
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]{1,3})?")


@dataclass(frozen=True)
class Option:
    """How one option's value is read: its base kind and what else it may be.

    ``kind`` is ``bool``, ``int``, ``float``, ``str`` or an :class:`~enum.Enum` type;
    ``tuple``: the value may also be a tuple of that kind (``dice``: ``5`` or ``(5, 4)``;
    with ``scalar=False`` only a tuple: ``face_order``); ``nullable``: it may be None.
    """

    name: str
    kind: type
    tuple: bool = False
    scalar: bool = True
    nullable: bool = False

    def takes(self) -> str:
        """The values the option takes, in words (for error messages)."""
        if issubclass(self.kind, Enum):
            one = "one of " + ", ".join(str(m.value) for m in self.kind)
        else:
            one = {
                bool: "true or false",
                int: "a whole number",
                float: "a number",
                str: "a text",
            }[self.kind]
        if self.tuple:
            many = "a list of whole numbers" if self.kind is int else f"a list of {one}"
            one = f"{one} or {many}" if self.scalar else many
        return f"{one} or none" if self.nullable else one

    def error(self, value: object) -> RulesError:
        return RulesError(f"option {self.name} takes {self.takes()}, not {value!r}")

    def to_json(self, value: Any) -> Any:
        """``value`` (as read) as JSON: an enum as its string, a tuple as a list."""
        if isinstance(value, tuple):
            return [self.to_json(v) for v in value]
        if isinstance(value, Enum):
            return value.value
        return value

    # ------------------------------------------------------------------------ text
    def from_text(self, text: str) -> Any:
        """The value of ``text`` (the command line's, a text record's or a bot label's)."""
        raw = text.strip()
        low = raw.lower()
        if self.nullable and low in _NONE:
            return None
        if self.tuple and (raw.startswith("[") or "," in raw or not self.scalar):
            inner = raw[1:-1] if raw.startswith("[") and raw.endswith("]") else raw
            parts = [p for p in re.split(r"[,\s]+", inner) if p]
            if not parts or raw.startswith("[") != raw.endswith("]"):
                raise self.error(text)
            return tuple(self._one_text(p, text) for p in parts)
        return self._one_text(raw, text)

    def _one_text(self, raw: str, whole: str) -> Any:
        low = raw.lower()
        kind = self.kind
        if kind is bool:
            if low in _TRUE or low in _FALSE:
                return low in _TRUE
        elif kind is int:
            if _INT.fullmatch(low):
                return int(low)
        elif kind is float:
            if _FLOAT.fullmatch(low):
                return float(low)
        elif kind is str:
            return raw
        else:  # an enum
            for member in typing.cast("Iterable[Enum]", kind):
                if low == str(member.value).lower():
                    return member
        raise self.error(whole.strip())

    # ------------------------------------------------------------------------ JSON
    def from_json(self, value: object, *, text_strings: bool = False) -> Any:
        """The value of a parsed JSON ``value`` (a JSON record's, the server's); with
        ``text_strings`` a string is read as the option's text (:meth:`from_text`)."""
        if text_strings and isinstance(value, str):
            return self.from_text(value)
        if value is None:
            if self.nullable:
                return None
            raise self.error(value)
        if isinstance(value, list):
            if not self.tuple or not value:
                raise self.error(value)
            return tuple(self._one_json(v, value) for v in value)
        if not self.scalar:
            raise self.error(value)
        return self._one_json(value, value)

    def _one_json(self, value: object, whole: object) -> Any:
        kind = self.kind
        if kind is bool:
            if isinstance(value, bool):
                return value
        elif kind is int:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) < _BOUND:
                return value
        elif kind is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
        elif kind is str:
            if isinstance(value, str):
                return value
        elif isinstance(value, str):  # an enum, by its value
            for member in typing.cast("Iterable[Enum]", kind):
                if value == member.value:
                    return member
        raise self.error(whole)


def _hint(owner: type, f: dataclasses.Field[Any]) -> Any:
    """A field's type, its string annotation evaluated where the field is declared."""
    if not isinstance(f.type, str):
        return f.type
    for klass in owner.__mro__:
        if f.name in inspect.get_annotations(klass):
            return eval(f.type, vars(sys.modules[klass.__module__]))
    raise TypeError(f"option {f.name}: no annotation found")


def _is_kind(hint: object) -> bool:
    return isinstance(hint, type) and (hint in (bool, int, float, str) or issubclass(hint, Enum))


def _option_of(name: str, hint: Any) -> Option:
    """The :class:`Option` a field's type hint declares (TypeError: not an option's type)."""
    option = _declared(name, hint)
    if not _is_kind(option.kind):
        raise TypeError(f"option {name}: unsupported type {hint!r}")
    return option


def _declared(name: str, hint: Any) -> Option:
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        nullable = type(None) in args
        rest = [a for a in args if a is not type(None)]
        tuples = [a for a in rest if typing.get_origin(a) is tuple]
        scalars = [a for a in rest if typing.get_origin(a) is not tuple]
        if len(rest) > 2 or len(tuples) > 1 or len(scalars) > 1:
            raise TypeError(f"option {name}: unsupported type {hint!r}")
        if tuples:
            inner = typing.get_args(tuples[0])[0]
            if scalars and scalars[0] is not inner:
                raise TypeError(f"option {name}: unsupported type {hint!r}")
            return Option(name, inner, tuple=True, scalar=bool(scalars), nullable=nullable)
        return Option(name, scalars[0], nullable=nullable)
    if origin is tuple:
        return Option(name, args[0], tuple=True, scalar=False)
    return Option(name, hint)


class OptionCodec:
    """Every option of one dataclass, read from text and from JSON (see the module doc)."""

    def __init__(
        self, options: Iterable[Option], *, what: str = "option", listed: bool = True
    ) -> None:
        self.options: dict[str, Option] = {o.name: o for o in options}
        self.what = what
        self.listed = listed  # whether an unknown name's error lists the options

    @classmethod
    def of(
        cls,
        dataclass_type: type,
        *,
        skip: Iterable[str] = (),
        keep: Callable[[dataclasses.Field[Any]], bool] = lambda f: f.init,
        what: str = "option",
        listed: bool = True,
        strict: bool = True,
    ) -> OptionCodec:
        """The codec of ``dataclass_type``'s fields (but ``skip``; those ``keep`` accepts:
        by default the ones ``__init__`` takes), their kinds read from the type hints. A field
        of another type is a TypeError, or with ``strict=False`` not an option (a bot's
        collaborators). ``what`` names an option in errors; ``listed``: an unknown name's
        error lists the options. What each option does, in words, is the families' (for the
        terminal and the browser, translated: ``families/*/plain.py``)."""
        skipped = set(skip)
        options = []
        for f in dataclasses.fields(dataclass_type):
            if f.name in skipped or not keep(f):
                continue
            try:
                options.append(_option_of(f.name, _hint(dataclass_type, f)))
            except TypeError:
                if strict:
                    raise
        return cls(options, what=what, listed=listed)

    @property
    def names(self) -> tuple[str, ...]:
        """Every option name, in declaration order."""
        return tuple(self.options)

    def option(self, name: str, *, exact: bool = False) -> Option:
        """The option ``name`` (dashes read as underscores, but with ``exact``); a RulesError
        listing the options."""
        key = name if exact else name.strip().replace("-", "_")
        try:
            return self.options[key]
        except KeyError:
            listed = f"; options: {', '.join(self.options) or 'none'}" if self.listed else ""
            raise RulesError(f"unknown {self.what} {name!r}{listed}") from None

    def from_text(self, name: str, text: str, *, exact: bool = False) -> Any:
        """Option ``name``'s value read from text."""
        return self.option(name, exact=exact).from_text(text)

    def from_json(
        self, name: str, value: object, *, exact: bool = False, text_strings: bool = False
    ) -> Any:
        """Option ``name``'s value read from a parsed JSON value (``text_strings``: a string
        is read as text)."""
        return self.option(name, exact=exact).from_json(value, text_strings=text_strings)

    def to_json(self, name: str, value: Any) -> Any:
        """Option ``name``'s ``value`` (as read) as JSON: enums as strings, tuples as lists."""
        return self.option(name).to_json(value)

    def read_text(self, options: Mapping[str, str], *, exact: bool = False) -> dict[str, Any]:
        """Every ``name -> text`` option read (names normalized: dashes to underscores)."""
        return {
            self.option(k, exact=exact).name: self.from_text(k, v, exact=exact)
            for k, v in options.items()
        }

    def read_json(
        self, options: Mapping[str, object], *, exact: bool = False, text_strings: bool = False
    ) -> dict[str, Any]:
        """Every ``name -> JSON value`` option read (names normalized)."""
        return {
            self.option(k, exact=exact).name: self.from_json(
                k, v, exact=exact, text_strings=text_strings
            )
            for k, v in options.items()
        }
