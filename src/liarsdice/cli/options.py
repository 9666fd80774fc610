"""Rule options from the command line, shared by ``play`` and ``arena`` (every family)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import Family


def build_rules(
    family: Family,
    preset: str,
    players: int | None,
    dice: str | None,
    faces: int | None,
    options: Sequence[str],
) -> Any:
    """The rules of ``preset`` from ``--option name=value``, ``--players``, ``--dice`` and
    ``--faces``; a click error naming what is wrong.

    >>> from liarsdice.families import family_of
    >>> build_rules(family_of("poker-dice"), "poker-dice", 3, None, None, ["lives=2"])
    PokerRules(name='poker-dice', players=3, lives=2, dice=5, five_of_a_kind_rule=True)
    >>> build_rules(family_of("classic"), "classic", None, None, None, ["wild"])
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'wild' is not name=value
    """
    texts: dict[str, str] = {}
    for item in options:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not name=value", param_hint="--option")
        key, value = item.split("=", 1)
        texts[key.strip().replace("-", "_")] = value
    try:
        return family.rules_from_cli(preset, texts, players=players, dice=dice, faces=faces)
    except (LiarsDiceError, ValueError) as e:
        raise click.UsageError(str(e)) from None


__all__ = ["build_rules"]
