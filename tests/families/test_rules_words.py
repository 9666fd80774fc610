"""The rules in words (``families/*/plain.py``): generated from the rules object, in English and
Spanish, so that a changed option replaces the sentence of the preset's default instead of
contradicting it (issue 40: ``dice=3`` read both "5 dice" and "Changed: 3 dice")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from liarsdice.families import FAMILIES, family_of, preset_names
from liarsdice.families.base import Family
from liarsdice.i18n import using

LANGUAGES = ("en", "es")


def text(family: Family, preset: str, options: Mapping[str, Any], lang: str) -> str:
    """The description and every sentence of ``preset`` with ``options``, in ``lang``."""
    with using(lang):
        said = family.rules_text(family.rules(preset, options))
    assert isinstance(said["rules"], list)
    return "\n".join([str(said["description"]), *map(str, said["rules"])])


# (option, value, what each language must say, what it must no longer say), per kind of
# option: a number, a list, a face or none, a flag, one of a few values.
def changes(preset: str) -> list[tuple[str, Any, dict[str, str], dict[str, str]]]:
    family = family_of(preset)
    rules: Any = family.presets[preset]
    if family.name == "poker":
        return [
            ("lives", 1, {"en": "has 1 life;", "es": "tienen 1 vida;"},
             {"en": "3 lives", "es": "3 vidas"}),
            ("five_of_a_kind_rule", False,
             {"en": "accepted like any other", "es": "se acepta como cualquier"},
             {"en": "means making one", "es": "obliga a sacarlo"}),
        ]  # fmt: skip
    dice = 3 if rules.dice != 3 else 2
    default = (
        {"en": "with 1 die (", "es": "con 1 dado ("}
        if rules.dice == 1
        else {"en": f"with {rules.dice} dice", "es": f"con {rules.dice} dados"}
    )
    out = [
        ("dice", dice, {"en": f"starts with {dice} dice", "es": f"con {dice} dados"}, default),
        ("dice", "3,2", {"en": "own number of dice (3, 2,", "es": "número de dados (3, 2,"},
         default),
    ]  # fmt: skip
    if rules.face_order is None:  # (a ranking names every face: it would need changing too)
        out.append(("faces", 8, {"en": "(8-sided)", "es": "de 8 caras"},
                    {"en": "(6-sided)", "es": "de 6 caras"}))  # fmt: skip
    if rules.wild is None:
        out.append(
            ("wild", 2, {"en": "Twos are wild", "es": "Los doses son comodines"},
             {"en": "No face is wild", "es": "Ninguna cara es comodín"})
        )  # fmt: skip
    else:
        out.append(
            ("wild", "none", {"en": "No face is wild", "es": "Ninguna cara es comodín"},
             {"en": "are wild:", "es": "son comodines:"})
        )  # fmt: skip
    if rules.scoring.value == "elimination":
        one = rules.loss.value == "one"
        say = (
            {"en": "as many dice as", "es": "tantos dados como"},
            {"en": "wrong loses one die", "es": "equivocó pierde un dado"},
        )
        out.append(("loss", "difference" if one else "one", say[0] if one else say[1],
                    say[1] if one else say[0]))  # fmt: skip
        palifico = {"en": "Palifico:", "es": "Palifico:"}
        if rules.palifico:
            out.append(("palifico", "false", {}, palifico))
        else:
            out.append(("palifico", "true", palifico, {}))
    return out


CASES = [(p, *change) for p in preset_names() for change in changes(p)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("preset", "option", "value", "says", "unsaid"),
    CASES,
    ids=[f"{c[0]}-{c[1]}={c[2]}" for c in CASES],
)
def test_a_changed_option_replaces_the_default_sentence(
    preset: str,
    option: str,
    value: Any,
    says: dict[str, str],
    unsaid: dict[str, str],
    lang: str,
) -> None:
    family = family_of(preset)
    before = text(family, preset, {}, lang)
    after = text(family, preset, {option: value}, lang)
    assert after != before
    if lang in unsaid:
        assert unsaid[lang] in before and unsaid[lang] not in after, after
    if lang in says:
        assert says[lang] not in before and says[lang] in after, after
    # the preset's summary is true of its own options only: the changes are named instead
    with using(lang):
        summary = family.description(family.presets[preset])
        changed = family.description(family.rules(preset, {option: value}))
    assert summary not in after and f"{option}=" in changed


# One other value for every option of the bidding family (with what it needs to matter), so
# that no option goes unsaid: each must change the sentences.
BIDDING_CHANGES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {"dice": 2}),
    ({}, {"faces": 8}),
    ({}, {"wild": 2}),
    ({}, {"ordering": "perudo"}),
    ({"ordering": "quantity"}, {"ordering": "face"}),
    ({"ordering": "quantity"}, {"face_order": "2,3,4,5,6,1"}),
    ({}, {"ordering": "monotone"}),
    ({}, {"open_on_wild": False}),
    ({}, {"exact": "spot-on"}),
    ({}, {"exact": "calza"}),
    ({}, {"loss": "one"}),
    ({}, {"exact_count": "all-but-bidder-spare-last"}),
    ({}, {"exact_count": "bid-stands"}),
    ({}, {"next_opener": "winner"}),
    ({}, {"next_opener": "bidder"}),
    ({}, {"first_opener": "given"}),
    ({}, {"first_opener": "roll-one"}),
    ({}, {"first_opener": "roll-two"}),
    ({}, {"show_reroll": "after"}),
    ({}, {"show_reroll": "before"}),
    ({}, {"stash": "secret"}),
    ({}, {"stash": "open"}),
    ({"exact": "spot-on"}, {"calling_advantage": True}),
    ({}, {"economy": "chips"}),
    ({"economy": "chips"}, {"chips": 7}),
    ({}, {"economy": "rich-man"}),
    ({"economy": "rich-man"}, {"ante": 3}),
    ({}, {"house_penalties": True}),
    ({}, {"drinking": True}),
    ({}, {"resolution": "all-call"}),
    ({}, {"scoring": "room"}),
    ({}, {"palifico": True}),
]


def test_every_bidding_option_is_said() -> None:
    family = family_of("classic")
    said = {name for _base, change in BIDDING_CHANGES for name in change}
    # the table's size is the room's, not a rule; single-round scoring is for two players:
    # the duels (openspiel, snyd-*) say it
    assert said | {"players", "scoring"} >= set(family.options.names)
    for lang in LANGUAGES:
        for base, change in BIDDING_CHANGES:
            before = text(family, "classic", base, lang)
            after = text(family, "classic", {**base, **change}, lang)
            assert after != before, (lang, base, change)
    for preset in ("openspiel", "snyd-normal"):
        assert "One round only" in text(family, preset, {}, "en")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_the_rules_are_spanish_in_spanish(family: Family) -> None:
    """Every sentence of every preset is translated (none is the English one)."""
    for name in family.presets:
        english, spanish = (text(family, name, {}, lang).splitlines() for lang in LANGUAGES)
        assert len(english) == len(spanish)
        assert not set(english) & set(spanish), name


def test_the_terminal_and_the_server_say_the_same() -> None:
    """``liarsdice rules NAME --option`` prints the sentences the browser gets."""
    from click.testing import CliRunner

    from liarsdice.cli.main import cli

    family = family_of("perudo")
    for lang in LANGUAGES:
        out = CliRunner().invoke(cli, ["--lang", lang, "rules", "perudo", "--option", "dice=3"])
        assert out.exit_code == 0, out.output
        flat = " ".join(out.output.split())
        for sentence in text(family, "perudo", {"dice": "3"}, lang).splitlines():
            assert sentence in flat
        assert ("5 dice" if lang == "en" else "5 dados") not in flat
