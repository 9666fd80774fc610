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
from typing import Any

import click

from liarsdice.core.poker import POKER_PRESETS, PokerRules
from liarsdice.core.rules import PRESETS, Rules

__all__ = ["preset_options", "rules"]


def _value(value: Any) -> str:
    """An option value as typed on the command line (``--option name=value``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def preset_options(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` plus its description, JSON-friendly.

    >>> preset_options(PRESETS["classic"])["wild"]
    1
    >>> Rules(**preset_options(PRESETS["room"])) == PRESETS["room"]
    True
    """
    return {**rules.options(), "description": rules.description}


POKER_DESCRIPTION = (
    "Poker dice (seed 004, second half): one set of five poker dice and a cup go round; "
    "claim a poker hand that beats the last claim, or call liar."
)


def poker_preset_options(rules: PokerRules) -> dict[str, Any]:
    """Every option of a poker-dice preset plus its family and description, JSON-friendly.

    >>> poker_preset_options(POKER_PRESETS["poker-dice"])["five_of_a_kind_rule"]
    True
    """
    return {**rules.options(), "family": "poker", "description": POKER_DESCRIPTION}


def _poker_lines(rules: PokerRules) -> list[str]:
    return [
        f"{rules.name}: {POKER_DESCRIPTION}",
        f"  lives={rules.lives}, dice={rules.dice}, "
        f"five_of_a_kind_rule={_value(rules.five_of_a_kind_rule)} (poker-dice family; "
        "options: lives, dice, five_of_a_kind_rule)",
    ]


@click.command("rules")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print full options as JSON.")
def rules(name: str | None, as_json: bool) -> None:
    """List the rule presets, or print every option of preset NAME."""
    if name is not None:
        key = name.strip().lower()
        if key in POKER_PRESETS:
            poker = POKER_PRESETS[key]
            if as_json:
                click.echo(json.dumps(poker_preset_options(poker), indent=2))
                return
            click.echo(f"{poker.name}: {POKER_DESCRIPTION}")
            poker_options = poker.options()
            width = max(len(k) for k in poker_options)
            for k, v in poker_options.items():
                click.echo(f"  {k:<{width}}  {_value(v)}")
            return
        if key not in PRESETS:
            names = ", ".join([*PRESETS, *POKER_PRESETS])
            raise click.UsageError(f"unknown rules {name!r}; presets: {names}")
        preset = PRESETS[key]
        if as_json:
            click.echo(json.dumps(preset_options(preset), indent=2))
            return
        click.echo(f"{preset.name}: {preset.description}")
        options = preset.options()
        width = max(len(k) for k in options)
        for k, v in options.items():
            click.echo(f"  {k:<{width}}  {_value(v)}")
        return
    if as_json:
        click.echo(json.dumps({n: preset_options(r) for n, r in PRESETS.items()}, indent=2))
        return
    defaults = Rules()
    for n, r in PRESETS.items():
        click.echo(f"{n}: {r.description}")
        diff = r.diff(defaults)
        if diff:
            click.echo("  " + ", ".join(f"{k}={_value(v)}" for k, v in diff.items()))
        else:
            click.echo("  (the default options)")
    for poker_rules in POKER_PRESETS.values():
        for line in _poker_lines(poker_rules):
            click.echo(line)
    click.echo("Play one with 'liarsdice play --rules NAME' (change options with --option).")
