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

from liarsdice.core.api import GameAPI, RulesAPI, StateAPI
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.families.base import Family, JSONObject, LoadedRecord, Record
from liarsdice.families.bidding import BIDDING
from liarsdice.families.poker import POKER
from liarsdice.notation.common import Source, error_object, read_source, write_record
from liarsdice.notation.text_common import rules_name

AnyRecord = Source | LoadedRecord[RulesAPI]
"""What the record functions here take: JSON text, parsed data (checked first), or a
:class:`LoadedRecord` (taken as it is: checked already)."""

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


def family_of_game(game: GameAPI) -> Family:
    """The family of a game (or of a state's ``game``) built by one of the families."""
    return _BY_NAME[game.family]


def family_of_rules(rules: object) -> Family:
    """The family whose rules type ``rules`` is (rules built by one of the families)."""
    for family in FAMILIES:
        if family.owns_rules(rules):
            return family
    raise TypeError(f"not the rules of any family: {rules!r}")


def family_of_record(data: Mapping[str, object] | LoadedRecord[RulesAPI]) -> Family:
    """The family of a parsed JSON record, by its ``"rules"`` name (of a loaded record: the
    family that loaded it)."""
    if isinstance(data, LoadedRecord):
        return _BY_NAME[data.family]
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
def load_record(source: AnyRecord) -> LoadedRecord[RulesAPI]:
    """Read and check a JSON record (text or parsed data) of any family: its family is looked
    up and its rules built, once. A loaded record is returned as it is."""
    if isinstance(source, LoadedRecord):
        return source
    data = read_source(source)
    return family_of_record(data).load_record(data)


def read_record_text(text: str) -> LoadedRecord[RulesAPI]:
    """A record from the text of a file in either format (JSON when it starts with ``{``)."""
    if text.lstrip().startswith("{"):
        return load_record(text)
    return text_to_record(text)


def text_to_record(text: str) -> LoadedRecord[RulesAPI]:
    """Read a text record of any family; the loaded record (``.data``: the JSON record)."""
    return family_of_text(text).text_to_record(text)


def record_to_text(source: AnyRecord) -> str:
    """The text record of a record of any family."""
    record = load_record(source)
    return family_of_record(record).record_to_text(record)


def record_from_state(state: StateAPI) -> LoadedRecord[RulesAPI]:
    """The record of a game (any family) so far, loaded (``.data``: the JSON record)."""
    return family_of_game(state.game).record_from_state(state)


def replay_partial(source: AnyRecord) -> tuple[StateAPI | None, RecordError | None]:
    """Replay a record of any family as far as it is legal: (state reached, first error)."""
    try:
        record = load_record(source)
    except RecordError as err:
        return None, err
    return family_of_record(record).replay_partial(record)


def replay_record(source: AnyRecord) -> StateAPI:
    """Replay a record of any family; the state after its last move, or :class:`RecordError`."""
    state, error = replay_partial(source)
    if error is not None:
        raise error
    assert state is not None
    return state


def replay_summary(source: AnyRecord) -> JSONObject:
    """Check a record of any family and sum it up: the ``liarsdice replay --json`` output."""
    try:
        record = load_record(source)
    except RecordError as err:
        return {"ok": False, "error": error_object(err)}
    return family_of_record(record).replay_summary(record)


def dumps_record(source: AnyRecord) -> str:
    """Write a record of any family as compact, readable JSON: the header, then one line per
    move."""
    return write_record(load_record(source).data)


__all__ = [
    "FAMILIES",
    "AnyRecord",
    "Family",
    "LoadedRecord",
    "Record",
    "RulesAPI",
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
