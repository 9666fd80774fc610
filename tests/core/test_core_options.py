"""One option codec per rules type (``core/options.py``): every path that reads a rule option
reads it by the same rules and fails with the same message.

The paths: the command line (``Family.rules_from_cli``), a text record's ``Option:`` line
(``text_to_record``), a JSON record's ``options`` (``load_record``) and the server's room
options (``Family.rules``). Text (the command line, the text record, and the server's strings)
and JSON (the JSON record and the server's other values) are read by the family's codec
(``OPTIONS`` in ``core/bidding/rules.py``, ``POKER_OPTIONS`` in ``core/poker/rules.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from liarsdice.core.bidding.rules import OPTIONS, Rules
from liarsdice.core.errors import LiarsDiceError, RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.core.poker.rules import POKER_OPTIONS, PokerRules
from liarsdice.families import family_of
from liarsdice.families.base import Family, Sizes
from liarsdice.notation.bidding.record import record_rules as bidding_record_rules
from liarsdice.notation.poker.record import record_rules as poker_record_rules

# option -> (a good text, its JSON value, a bad text); every option of each codec is here.
BIDDING: dict[str, tuple[str, Any, str]] = {
    "players": ("3", 3, "three"),
    "dice": ("3,2", [3, 2], "3,x"),
    "faces": ("5", 5, "5.0"),
    "wild": ("none", None, "off"),
    "ordering": ("perudo", "perudo", "sideways"),
    "face_order": ("2,3,4,5,6,1", [2, 3, 4, 5, 6, 1], "high"),
    "open_on_wild": ("false", False, "never"),
    "exact": ("spot-on", "spot-on", "spot"),
    "loss": ("one", "one", "two"),
    "exact_count": ("bid-stands", "bid-stands", "stands"),
    "next_opener": ("winner", "winner", "left"),
    "first_opener": ("given", "given", "oldest"),
    "show_reroll": ("after", "after", "during"),
    "stash": ("open", "open", "closed"),
    "calling_advantage": ("1", True, "2"),
    "economy": ("chips", "chips", "gold"),
    "chips": ("10", 10, "ten"),
    "ante": ("2", 2, "1e3"),
    "house_penalties": ("yes", True, "maybe"),
    "drinking": ("on", True, "tipsy"),
    "resolution": ("all-call", "all-call", "some-call"),
    "scoring": ("room", "room", "points"),
    "palifico": ("true", True, "none"),
}
POKER: dict[str, tuple[str, Any, str]] = {
    "players": ("3", 3, "3,4"),
    "lives": ("2", 2, "many"),
    "dice": ("5", 5, "five"),
    "five_of_a_kind_rule": ("0", False, "maybe"),
}
FAMILIES: dict[str, tuple[str, OptionCodec, dict[str, tuple[str, Any, str]]]] = {
    "bidding": ("classic", OPTIONS, BIDDING),
    "poker": ("poker-dice", POKER_OPTIONS, POKER),
}
CASES = [
    (fam, name, good, value, bad)
    for fam, (_, _, table) in FAMILIES.items()
    for name, (good, value, bad) in table.items()
]
IDS = [f"{fam}-{name}" for fam, name, *_ in CASES]
RULES_OF: dict[str, Callable[[Any], Any]] = {
    "bidding": bidding_record_rules,
    "poker": poker_record_rules,
}


def test_every_option_has_a_case() -> None:
    for _, codec, table in FAMILIES.values():
        assert list(table) == list(codec.names)


# ------------------------------------------------------------------------------- the paths
def _family(fam: str) -> tuple[Family, str]:
    preset = FAMILIES[fam][0]
    return family_of(preset), preset


def via_cli(fam: str, name: str, text: str) -> Any:
    family, preset = _family(fam)
    return family.rules_from_cli(preset, {name: text}, Sizes())


def via_text_record(fam: str, name: str, text: str) -> Any:
    family, preset = _family(fam)
    source = (
        f"Liar's Dice record, version 1\nRules: {preset}\nOption: {name} = {text}\n"
        "Players: ann, bob\n"
    )
    return family.text_to_record(source).rules


def via_json_record(fam: str, name: str, value: Any) -> Any:
    family, preset = _family(fam)
    record = {
        "liarsdice": 1,
        "rules": preset,
        "options": {name: value},
        "players": ["ann", "bob"],
        "rounds": [],
    }
    return RULES_OF[fam](family.load_record(record))


def via_server(fam: str, name: str, value: Any) -> Any:
    family, preset = _family(fam)
    return family.rules(preset, {name: value}, 2)


def message(call: Callable[[], Any]) -> str:
    """The error ``call`` raises, without a text record's ``line N:`` (a RulesError on the
    command line and the server, a RecordError from a record)."""
    with pytest.raises(LiarsDiceError) as info:
        call()
    err = info.value
    assert isinstance(err, RulesError | RecordError), err
    text = err.message if isinstance(err, RecordError) else str(err)
    return text.removeprefix("line 3: ")


# ------------------------------------------------------------------------------- the tests
@pytest.mark.parametrize(("fam", "name", "good", "value", "bad"), CASES, ids=IDS)
def test_a_good_value_reads_the_same_everywhere(
    fam: str, name: str, good: str, value: Any, bad: str
) -> None:
    codec = FAMILIES[fam][1]
    expected = codec.from_text(name, good)
    assert codec.from_json(name, value) == expected
    assert codec.to_json(name, expected) == value
    assert getattr(via_cli(fam, name, good), name) == expected
    assert getattr(via_text_record(fam, name, good), name) == expected
    assert getattr(via_json_record(fam, name, value), name) == expected
    if name == "players":  # the room sets it
        for given in (good, value):
            said = message(functools.partial(via_server, fam, name, given))
            assert said == "option 'players' is set by the room, not by an option"
        return
    assert getattr(via_server(fam, name, value), name) == expected
    assert getattr(via_server(fam, name, good), name) == expected  # the browser's strings


@pytest.mark.parametrize(("fam", "name", "good", "value", "bad"), CASES, ids=IDS)
def test_a_bad_value_is_the_same_error_everywhere(
    fam: str, name: str, good: str, value: Any, bad: str
) -> None:
    codec = FAMILIES[fam][1]
    expected = f"option {name} takes {codec.option(name).takes()}, not {bad!r}"
    assert message(lambda: via_cli(fam, name, bad)) == expected
    assert message(lambda: via_text_record(fam, name, bad)) == expected
    assert message(lambda: via_json_record(fam, name, bad)) == expected  # a string
    if name != "players":
        assert message(lambda: via_server(fam, name, bad)) == expected


@pytest.mark.parametrize("fam", list(FAMILIES))
def test_an_unknown_option_is_the_same_error_everywhere(fam: str) -> None:
    codec = FAMILIES[fam][1]
    expected = f"unknown rule option 'colour'{'; options: ' if codec.listed else ''}"
    for said in (
        message(lambda: via_cli(fam, "colour", "red")),
        message(lambda: via_text_record(fam, "colour", "red")),
        message(lambda: via_json_record(fam, "colour", "red")),
        message(lambda: via_server(fam, "colour", "red")),
    ):
        assert said.startswith(expected), said
    assert "colour" in message(lambda: via_server(fam, "colour", "red"))


@pytest.mark.parametrize(
    ("fam", "name"), [("bidding", "palifico"), ("poker", "five_of_a_kind_rule")]
)
def test_one_is_a_boolean_in_text_everywhere(fam: str, name: str) -> None:
    """``"1"`` is true on the command line, in a text record and from the browser (text);
    the JSON number 1 is not a boolean in a JSON record nor on the server (JSON)."""
    assert getattr(via_cli(fam, name, "1"), name) is True
    assert getattr(via_text_record(fam, name, "1"), name) is True
    assert getattr(via_server(fam, name, "1"), name) is True
    assert getattr(via_cli(fam, name, "0"), name) is False
    expected = f"option {name} takes true or false, not 1"
    assert message(lambda: via_json_record(fam, name, 1)) == expected
    assert message(lambda: via_server(fam, name, 1)) == expected


@pytest.mark.parametrize("text", ["maybe", "", "truthy", "2"])
def test_an_unknown_string_for_a_poker_boolean_is_an_error_on_the_server(text: str) -> None:
    """It used to be read as false there while the other paths refused it."""
    expected = f"option five_of_a_kind_rule takes true or false, not {text!r}"
    assert message(lambda: via_server("poker", "five_of_a_kind_rule", text)) == expected
    assert message(lambda: via_cli("poker", "five_of_a_kind_rule", text)) == expected


def test_the_json_record_stays_strict_and_the_server_reads_strings_as_text() -> None:
    assert message(lambda: via_json_record("bidding", "dice", "3")).startswith(
        "option dice takes a whole number or a list of whole numbers, not '3'"
    )
    assert via_server("bidding", "dice", "3").dice == 3
    assert via_server("bidding", "dice", " 3, 2 ").dice == (3, 2)
    assert via_server("bidding", "ordering", "Perudo").ordering.value == "perudo"
    assert message(lambda: via_json_record("bidding", "ordering", "Perudo")) == (
        "option ordering takes one of ladder, perudo, quantity, face, monotone, not 'Perudo'"
    )
    assert via_server("poker", "lives", "2").lives == 2
    assert message(lambda: via_json_record("poker", "lives", "2")) == (
        "option lives takes a whole number, not '2'"
    )


def test_whole_numbers_have_nine_digits_in_text_and_in_json() -> None:
    big = 10**9
    assert message(lambda: via_cli("bidding", "chips", str(big))) == (
        f"option chips takes a whole number, not '{big}'"
    )
    assert message(lambda: via_json_record("bidding", "chips", big)) == (
        f"option chips takes a whole number, not {big}"
    )
    assert via_server("bidding", "chips", big - 1).chips == big - 1


def test_dashes_read_as_underscores_on_the_command_line_and_the_server_only() -> None:
    assert via_cli("bidding", "exact-count", "bid-stands").exact_count.value == "bid-stands"
    assert via_server("bidding", "exact-count", "bid-stands").exact_count.value == "bid-stands"
    for read in (via_text_record, via_json_record):
        said = message(functools.partial(read, "bidding", "exact-count", "bid-stands"))
        assert said.startswith("unknown rule option 'exact-count'"), said


def test_the_codecs_are_the_families() -> None:
    assert family_of("classic").options is OPTIONS
    assert family_of("poker-dice").options is POKER_OPTIONS
    assert set(OPTIONS.names) == set(Rules().options()) - {"name"}
    assert set(POKER_OPTIONS.names) == set(PokerRules().options()) - {"name"}
