"""Rule options from the command line, shared by ``play`` and ``arena`` (every family)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from liarsdice.cli.click_text import filled
from liarsdice.cli.command import PresetChoice
from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import FAMILIES, Family
from liarsdice.families.base import Sizes
from liarsdice.families.terminal import rules_error_text
from liarsdice.i18n import N_, _

F = TypeVar("F", bound=Callable[..., Any])


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
            raise click.BadParameter(
                _("{item} is not name=value").format(item=repr(item)), param_hint="--option"
            )
        key, value = item.split("=", 1)
        texts[key.strip().replace("-", "_")] = value
    try:
        return family.rules_from_cli(preset, texts, Sizes(players, dice, faces))
    except (LiarsDiceError, ValueError) as e:
        raise click.UsageError(rules_error_text(str(e))) from None


def bot_list(bots: str) -> list[str]:
    """The entries of ``--bots`` (comma-separated, lower case); a usage error for an empty
    list or an empty entry (``expert,,``), naming which.

    >>> bot_list(" Expert , prob")
    ['expert', 'prob']
    >>> bot_list("expert,,")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: entry 2 of 'expert,,' is empty: name a bot or drop the comma
    """
    if not bots.strip():
        raise click.BadParameter(_("name at least one bot, e.g. --bots prob"), param_hint="--bots")
    entries = [b.strip().lower() for b in bots.split(",")]
    for n, entry in enumerate(entries, start=1):
        if not entry:
            raise click.BadParameter(
                _("entry {n} of {bots} is empty: name a bot or drop the comma").format(
                    n=n, bots=repr(bots)
                ),
                param_hint="--bots",
            )
    return entries


def stacked(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator applying ``decorators`` as if written one above the other, in that
    order (the first one's option comes first in ``--help``)."""

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def rules_option(help: str) -> Callable[[F], F]:
    """``--rules NAME`` (any family's preset, ``classic`` by default) into ``rules_name``."""
    return click.option(
        "--rules",
        "rules_name",
        default="classic",
        show_default=True,
        type=PresetChoice(),
        help=help,
    )


def size_options(players_help: str) -> Callable[[F], F]:
    """``--players``, ``--dice`` and ``--faces``: the sizes a preset's rules may be changed to."""
    return stacked(
        click.option("--players", type=click.IntRange(2, 12), help=players_help),
        click.option("--dice", help=N_("Dice per player (e.g. 5, or 5,4 per seat).")),
        click.option("--faces", type=click.IntRange(2, 12), help=N_("Faces per die.")),
    )


def repeatable_option(name: str, dest: str, metavar: str, help: str) -> Callable[[F], F]:
    """An option that may be given several times: its values, in order, as a tuple in
    ``dest``."""
    return click.option(name, dest, multiple=True, metavar=metavar, help=help)


def rule_changes_option(
    help: str = N_("Any rule option, e.g. --option show_reroll=after (repeatable)."),
) -> Callable[[F], F]:
    """``--option NAME=VALUE`` (repeatable) into ``options``: what :func:`build_rules` reads."""
    return repeatable_option("--option", "options", "NAME=VALUE", help)


def rule_options(*, rules_help: str, players_help: str) -> Callable[[F], F]:
    """The rule options every command that sets up games takes: ``--rules``, ``--players``,
    ``--dice``, ``--faces`` and ``--option NAME=VALUE`` (repeatable); the two help texts are
    messages (marked with ``N_``)."""
    return stacked(rules_option(rules_help), size_options(players_help), rule_changes_option())


def bots_option(default: str, help: str) -> Callable[[F], F]:
    """``--bots`` (comma-separated, :func:`bot_list`) with its default shown; ``help`` (a
    message, marked with ``N_``) may name every family's bots with ``{bots}``."""
    every = ", ".join(dict.fromkeys(n for f in FAMILIES for n in f.bots))
    return click.option("--bots", default=default, show_default=True, help=filled(help, bots=every))


def default_option(name: str, default: Any, help: str, *, type: Any = None) -> Callable[[F], F]:
    """An option with its default shown in ``--help`` (``help``: a message, marked with
    ``N_``; ``type``: click's, else the default's)."""
    return click.option(name, type=type, default=default, show_default=True, help=help)


def count_option(name: str, default: int, help: str, *, minimum: int = 0) -> Callable[[F], F]:
    """A whole-number option (at least ``minimum``) with its default shown in ``--help``."""
    return default_option(name, default, help, type=click.IntRange(minimum))


def number_option(name: str, default: float, help: str, *, minimum: float) -> Callable[[F], F]:
    """A number option (at least ``minimum``) with its default shown in ``--help``."""
    return default_option(name, default, help, type=click.FloatRange(minimum))


__all__ = [
    "bot_list",
    "bots_option",
    "build_rules",
    "count_option",
    "default_option",
    "number_option",
    "repeatable_option",
    "rule_changes_option",
    "rule_options",
    "rules_option",
    "size_options",
    "stacked",
]
