"""``liarsdice rules``: the rule presets, their rules in words and their options.

``liarsdice rules`` lists every preset with its description and the options where it differs
from the defaults, then the poker-dice family's presets (``poker-dice``) with their options;
``liarsdice rules NAME`` prints the rules of one preset in plain sentences (the same sentences
the browser's rules dialog shows: the family's ``plain_rules``), then every option with a
sentence on what it does; ``--option name=value`` (and ``--players``, ``--dice``,
``--faces``) changes options first, as ``play`` does: a changed option's sentence replaces the
preset's. ``--json`` prints full options as JSON (every bidding preset keyed by name, in a form
that ``Rules(**options)`` reads back once its ``description`` is dropped, or the one preset
asked for, poker-dice included). Every sentence is in the language in use (``liarsdice --lang
es rules perudo``).

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(rules, ["openspiel"]).output)  # doctest: +ELLIPSIS
openspiel: OpenSpiel's liars_dice, the research game: two players, one die each, ...
The rules in play:
  - Every player starts with 1 die (6-sided) and keeps it hidden under a cup.
...
Every option:
  name = openspiel
      The preset these rules start from.
  players = 2
      How many seats a game has by default; play passes clockwise.
...
>>> said = CliRunner().invoke(rules, ["classic", "--option", "dice=3"]).output
>>> "starts with 3 dice" in said, "5 dice" in said, "five dice" in said
(True, False, False)
"""

from __future__ import annotations

import json
import textwrap

import click

from liarsdice.cli.command import Command
from liarsdice.cli.options import build_rules, rule_changes_option, size_options
from liarsdice.core.api import RulesAPI
from liarsdice.core.errors import RulesError
from liarsdice.families import FAMILIES, Family, family_of, preset_names
from liarsdice.i18n import N_, _
from liarsdice.notation.text_common import option_text

__all__ = ["rules"]

WIDTH = 92
INDENT = " " * 6  # an option's sentence, under its name and value


@click.command(
    "rules",
    cls=Command,
    help=N_("List the rule presets, or print the rules and every option of preset NAME."),
)
@click.argument("name", required=False)
@size_options(N_("Seats at the table."))
@rule_changes_option(N_("Change a rule option first, as 'play' does (repeatable)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print full options as JSON."))
def rules(
    name: str | None,
    players: int | None,
    dice: str | None,
    faces: int | None,
    options: tuple[str, ...],
    as_json: bool,
) -> None:
    if name is None:
        if options or players is not None or dice is not None or faces is not None:
            raise click.UsageError(_("name the preset whose options you change: rules NAME"))
        _listing(as_json)
        return
    key = name.strip().lower()
    try:
        family = family_of(key)
    except RulesError:
        raise click.UsageError(
            _("unknown rules {name}; presets: {presets}").format(
                name=repr(name), presets=", ".join(preset_names())
            )
        ) from None
    chosen = build_rules(family, key, players, dice, faces, options)
    if as_json:
        click.echo(json.dumps(family.rules_json(chosen), indent=2, ensure_ascii=False))
        return
    for line in _preset_lines(family, chosen):
        click.echo(line)


def _listing(as_json: bool) -> None:
    """Every preset of every family (``--json``: the bidding presets' full options)."""
    if as_json:  # the bidding presets, keyed by name (poker dice: 'rules poker-dice --json')
        first = FAMILIES[0]
        listing = {n: first.rules_json(r) for n, r in first.presets.items()}
        click.echo(json.dumps(listing, indent=2, ensure_ascii=False))
        return
    for family in FAMILIES:
        for line in family.rules_listing():
            click.echo(line)
    click.echo(_("Play one with 'liarsdice play --rules NAME' (change options with --option)."))


def _wrap(text: str, first: str, then: str) -> list[str]:
    """``text`` in lines of :data:`WIDTH` (words kept whole: ``re-roll`` is never split)."""
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=then, break_on_hyphens=False
    )


def _preset_lines(family: Family, chosen: RulesAPI) -> list[str]:
    """``rules NAME``: the description, the rules in plain sentences, every option."""
    lines = [f"{chosen.name}: {family.description(chosen)}", _("The rules in play:")]
    for sentence in family.plain_rules(chosen):
        lines += _wrap(sentence, "  - ", "    ")
    lines.append(_("Every option:"))
    changed = family.changes(chosen)
    for k, v in chosen.options().items():
        mark = "  " + _("(changed)") if k in changed else ""
        lines.append(f"  {k} = {option_text(v, command_line=True)}{mark}")
        said = family.describe_option(k, v)
        lines += _wrap(said, INDENT, INDENT)
    lines.append(
        _("Change one with 'liarsdice play --rules {name} --option name=value'.").format(
            name=chosen.name
        )
    )
    return lines
