"""What every ``liarsdice`` subcommand shares: one style of error message.

Every error goes to standard error as ``Error: `` and a sentence (a capital letter first), as
click prints them: exit status 2 for a usage error (a wrong option or argument, rules or bots
that cannot be played), 1 for anything else (a file that cannot be read, a record that does
not check out). ``Command`` is the class of every subcommand (``@click.command(...,
cls=Command)``): it turns the first letter of its error messages into a capital.

>>> sentence("can't read 'blah' as a bid"), sentence("Not allowed: 3x4"), sentence("")
("Can't read 'blah' as a bid", 'Not allowed: 3x4', '')
>>> from click.testing import CliRunner
>>> @click.command(cls=Command)
... def hello() -> None:
...     raise click.UsageError("unknown rules 'chess'")
>>> result = CliRunner().invoke(hello, [])
>>> result.exit_code, result.output.splitlines()[-1]
(2, "Error: Unknown rules 'chess'")
"""

from __future__ import annotations

import os
from typing import Any

import click

from liarsdice.i18n import language_from_env, using

__all__ = ["LANG_KEY", "Command", "fail", "language", "sentence"]

LANG_KEY = "liarsdice.lang"
"""Where ``liarsdice --lang`` leaves the language for the subcommand (``ctx.meta``)."""


def language(ctx: click.Context) -> str:
    """The language a command speaks: ``--lang``, else the environment's, else English."""
    lang = ctx.meta.get(LANG_KEY)
    return lang if isinstance(lang, str) else language_from_env(os.environ)


def sentence(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is; after Spanish's opening
    ``¿`` or ``¡``: ``¿Tu jugada?``)."""
    start = 1 if text[:1] in ("¿", "¡") else 0
    return text[:start] + text[start : start + 1].upper() + text[start + 1 :]


def _as_sentence(error: click.ClickException) -> None:
    # A bad parameter's message follows "Invalid value for '--x': ", so it stays as it is.
    if not isinstance(error, click.BadParameter) or (error.param_hint is None and not error.param):
        error.__dict__["message"] = sentence(error.message)  # click types it Final


class Command(click.Command):
    """A click command whose errors read as sentences (see the module docstring)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as error:
            _as_sentence(error)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with using(language(ctx)):
                return super().invoke(ctx)
        except click.ClickException as error:
            _as_sentence(error)
            raise


def fail(message: str) -> click.ClickException:
    """An error that is not about usage (exit status 1): ``raise fail("can't read x")``."""
    return click.ClickException(sentence(message))
