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

from liarsdice.families import preset_names
from liarsdice.i18n import _, language_from_env, using

__all__ = ["LANG_KEY", "Command", "LocalUsageError", "PresetChoice", "fail", "language", "sentence"]

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


def _language_of(ctx: click.Context | None) -> str:
    """The language of a command whose context may not be made yet (its parent's, else the
    environment's)."""
    while ctx is not None:
        lang = ctx.meta.get(LANG_KEY)
        if isinstance(lang, str):
            return lang
        ctx = ctx.parent
    return language_from_env(os.environ)


class LocalUsageError(click.UsageError):
    """A usage error said in the command's language: click's own frame (``Usage:``, ``Try
    '... --help' for help.``, ``Invalid value for ...``) comes from our catalogue, written
    when the error is made (it is shown after the command has returned)."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.message, error.ctx)
        self.said = _("Error: {message}").format(message=_message(error))
        usage = hint = ""
        ctx = error.ctx
        if ctx is not None:
            usage = ctx.get_usage()
            if usage.startswith("Usage:"):
                usage = _("Usage:") + usage[len("Usage:") :]
            help_names = ctx.command.get_help_option_names(ctx)
            if ctx.command.get_help_option(ctx) is not None and help_names:
                hint = _("Try '{command} {option}' for help.").format(
                    command=ctx.command_path, option=max(help_names, key=len)
                )
        self.usage, self.hint = usage, hint

    def show(self, file: Any = None) -> None:
        color = self.ctx.color if self.ctx is not None else None
        if self.usage:  # as click: the usage, the hint, a blank line
            hint = f"{self.hint}\n" if self.hint else ""
            click.echo(f"{self.usage}\n{hint}", file=file, err=True, color=color)
        click.echo(self.said, file=file, err=True, color=color)


def _message(error: click.UsageError) -> str:
    """The message of a usage error as click words it, in the language in use."""
    if not isinstance(error, click.BadParameter):
        return error.message
    if type(error).format_message is not click.BadParameter.format_message:
        return error.format_message()  # a missing parameter: click's own words
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint(error.ctx)
    if hint is None:
        return _("Invalid value: {message}").format(message=error.message)
    if not isinstance(hint, str):
        hint = " / ".join(repr(h) for h in hint)
    return _("Invalid value for {option}: {message}").format(option=hint, message=error.message)


def _local(error: click.ClickException) -> click.ClickException:
    """``error`` as it is shown in the language in use (its first letter a capital)."""
    _as_sentence(error)
    if isinstance(error, click.UsageError) and not isinstance(error, LocalUsageError):
        return LocalUsageError(error)
    return error


class Command(click.Command):
    """A click command that speaks the language of ``--lang`` and whose errors read as
    sentences in it (see the module docstring)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        parent = kwargs.get("parent", args[2] if len(args) > 2 else None)
        with using(_language_of(parent)):
            try:
                return super().make_context(*args, **kwargs)
            except click.ClickException as error:
                raise _local(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        with using(language(ctx)):
            try:
                return super().invoke(ctx)
            except click.ClickException as error:
                raise _local(error) from None


class PresetChoice(click.Choice[str]):
    """``--rules``: one of the presets (any case); an unknown name's error in the language in
    use, listing them."""

    def __init__(self) -> None:
        super().__init__(preset_names(), case_sensitive=False)

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        return _("unknown rules {name}; presets: {presets}").format(
            name=repr(value), presets=", ".join(preset_names())
        )


def fail(message: str) -> click.ClickException:
    """An error that is not about usage (exit status 1): ``raise fail("can't read x")``."""
    return click.ClickException(sentence(message))
