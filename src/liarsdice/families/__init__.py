"""The registry of rule families: every caller finds a family here, by preset name, record,
text record or game, and talks to it through :class:`~liarsdice.families.base.Family`.

>>> family_of("perudo").name, family_of("Poker-Dice").name
('bidding', 'poker')
>>> preset_names()[-1]
'poker-dice'
>>> family_of("chess")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: unknown preset 'chess'; presets: classic, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from liarsdice.core.errors import RecordError, RulesError
from liarsdice.families.base import Family, Record
from liarsdice.families.bidding import BIDDING
from liarsdice.families.poker import POKER
from liarsdice.notation.common import Source, error_object, read_source, write_record
from liarsdice.notation.text_common import rules_name

FAMILIES: tuple[Family, ...] = (BIDDING, POKER)
"""Every rule family, in listing order. The first one reads records that name no known
preset (and reports what is wrong with them)."""

_BY_NAME = {f.name: f for f in FAMILIES}


def preset_names() -> list[str]:
    """Every preset of every family, in listing order."""
    return [name for f in FAMILIES for name in f.presets]


def family_named(name: str) -> Family:
    """A family by its own name (``"bidding"``, ``"poker"``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise ValueError(f"unknown rule family {name!r}; families: {known}") from None


def family_of(preset: str) -> Family:
    """The family a preset belongs to (any case); :class:`RulesError` listing every preset."""
    for family in FAMILIES:
        if family.owns(preset):
            return family
    raise RulesError(f"unknown preset {preset!r}; presets: {', '.join(preset_names())}")


def family_of_game(game: Any) -> Family:
    """The family of a game (or of a state's ``game``) built by one of the families."""
    return _BY_NAME[game.family]


def family_of_rules(rules: Any) -> Family:
    """The family whose rules type ``rules`` is (rules built by one of the families)."""
    for family in FAMILIES:
        if family.owns_rules(rules):
            return family
    raise TypeError(f"not the rules of any family: {rules!r}")


def family_of_record(data: Mapping[str, Any]) -> Family:
    """The family of a parsed JSON record, by its ``"rules"`` name."""
    for family in FAMILIES:
        if family.owns_record(data):
            return family
    return FAMILIES[0]


def family_of_text(text: str) -> Family:
    """The family of a text record, by its first ``Rules:`` line."""
    name = rules_name(text)
    if name is not None:
        for family in FAMILIES:
            if family.owns_record({"rules": name}):
                return family
    return FAMILIES[0]


# ------------------------------------------------------------------- records of any family
def load_record(source: Source) -> Record:
    """Read and check a JSON record (text or parsed data) of any family."""
    data = read_source(source)
    return family_of_record(data).load_record(data)


def read_record_text(text: str) -> Record:
    """A record from the text of a file in either format (JSON when it starts with ``{``)."""
    if text.lstrip().startswith("{"):
        return load_record(text)
    return text_to_record(text)


def text_to_record(text: str) -> Record:
    """Read a text record of any family; the checked JSON record."""
    return family_of_text(text).text_to_record(text)


def record_to_text(source: Source) -> str:
    """The text record of a JSON record of any family."""
    record = load_record(source)
    return family_of_record(record).record_to_text(record)


def record_from_state(state: Any) -> Record:
    """The JSON record of a game (any family) so far."""
    return family_of_game(state.game).record_from_state(state)


def replay_partial(source: Source) -> tuple[Any | None, RecordError | None]:
    """Replay a record of any family as far as it is legal: (state reached, first error)."""
    try:
        record = load_record(source)
    except RecordError as err:
        return None, err
    return family_of_record(record).replay_partial(record)


def replay_record(source: Source) -> Any:
    """Replay a record of any family; the state after its last move, or :class:`RecordError`."""
    state, error = replay_partial(source)
    if error is not None:
        raise error
    return state


def replay_summary(source: Source) -> dict[str, Any]:
    """Check a record of any family and sum it up: the ``liarsdice replay --json`` output."""
    try:
        record = load_record(source)
    except RecordError as err:
        return {"ok": False, "error": error_object(err)}
    return family_of_record(record).replay_summary(record)


def dumps_record(source: Source) -> str:
    """Write a record of any family as compact, readable JSON: the header, then one line per
    move."""
    return write_record(load_record(source))


__all__ = [
    "FAMILIES",
    "Family",
    "Record",
    "dumps_record",
    "error_object",
    "family_named",
    "family_of",
    "family_of_game",
    "family_of_record",
    "family_of_rules",
    "family_of_text",
    "load_record",
    "preset_names",
    "read_record_text",
    "record_from_state",
    "record_to_text",
    "replay_partial",
    "replay_record",
    "replay_summary",
    "text_to_record",
]
