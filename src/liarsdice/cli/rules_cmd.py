"""``liarsdice rules``: the rule presets and their options.

``liarsdice rules`` lists every preset with its description and the options where it differs
from the defaults, then the poker-dice family's presets (``poker-dice``) with their options;
``liarsdice rules NAME`` prints every option of one preset, each with a sentence on what it
does (the rules' option codec's ``describe``); ``--json`` prints full options as
JSON (every bidding preset keyed by name, in a form that ``Rules(**options)`` reads back, or
the one preset asked for, poker-dice included).

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(rules, ["openspiel"]).output)  # doctest: +ELLIPSIS
openspiel: OpenSpiel liars_dice: two players, one round, ...
  name = openspiel
      The preset these rules start from.
  players = 2
      How many seats a game has by default; play passes clockwise.
  dice = 1
      Dice each player starts with (a list gives each seat its own count).
...
"""

from __future__ import annotations

import json
import textwrap

import click

from liarsdice.cli.command import Command
from liarsdice.core.errors import RulesError
from liarsdice.families import FAMILIES, family_of, preset_names
from liarsdice.notation.text_common import option_text

__all__ = ["rules"]

INDENT = " " * 6  # an option's sentence, under its name and value


@click.command("rules", cls=Command)
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print full options as JSON.")
def rules(name: str | None, as_json: bool) -> None:
    """List the rule presets, or print every option of preset NAME."""
    if name is not None:
        key = name.strip().lower()
        try:
            family = family_of(key)
        except RulesError:
            names = ", ".join(preset_names())
            raise click.UsageError(f"unknown rules {name!r}; presets: {names}") from None
        preset = family.presets[key]
        if as_json:
            click.echo(json.dumps(family.rules_json(preset), indent=2))
            return
        click.echo(f"{preset.name}: {family.description(preset)}")
        for k, v in preset.options().items():
            click.echo(f"  {k} = {option_text(v, command_line=True)}")
            said = family.options.describe(k, v)
            for line in textwrap.wrap(said, 92, initial_indent=INDENT, subsequent_indent=INDENT):
                click.echo(line)
        click.echo(f"Change one with 'liarsdice play --rules {preset.name} --option name=value'.")
        return
    if as_json:  # the bidding presets, keyed by name (poker dice: 'rules poker-dice --json')
        first = FAMILIES[0]
        listing = {n: first.rules_json(r) for n, r in first.presets.items()}
        click.echo(json.dumps(listing, indent=2))
        return
    for family in FAMILIES:
        for line in family.rules_listing():
            click.echo(line)
    click.echo("Play one with 'liarsdice play --rules NAME' (change options with --option).")
