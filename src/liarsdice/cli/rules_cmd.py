"""``liarsdice rules``: the rule presets and their options.

``liarsdice rules`` lists every preset with its description and the options where it differs
from the defaults, then the poker-dice family's presets (``poker-dice``) with their options;
``liarsdice rules NAME`` prints every option of one preset; ``--json`` prints full options as
JSON (every bidding preset keyed by name, in a form that ``Rules(**options)`` reads back, or
the one preset asked for, poker-dice included).

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(rules, ["openspiel"]).output)  # doctest: +ELLIPSIS
openspiel: OpenSpiel liars_dice: two players, one round, ...
  name               openspiel
  players            2
  dice               1
...
"""

from __future__ import annotations

import json

import click

from liarsdice.cli.command import Command
from liarsdice.core.errors import RulesError
from liarsdice.families import FAMILIES, family_of, preset_names
from liarsdice.notation.text_common import option_text

__all__ = ["rules"]


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
        options = preset.options()
        width = max(len(k) for k in options)
        for k, v in options.items():
            click.echo(f"  {k:<{width}}  {option_text(v, command_line=True)}")
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
