"""What every ``liarsdice`` subcommand shares: its language and one style of error message.

Every error goes to standard error as ``Error: `` and a sentence (a capital letter first), as
click prints them: exit status 2 for a usage error (a wrong option or argument, rules or bots
that cannot be played), 1 for anything else (a file that cannot be read, a record that does
not check out). ``Command`` is the class of every subcommand (``@click.command(...,
cls=Command)``) and ``Group`` of every group: they speak the language of ``--lang`` (else the
environment's), in their errors (the first letter a capital; click's own sentences from our
catalogue: :mod:`liarsdice.cli.click_text`) and in their ``--help`` (every help text is a
message, marked with ``N_`` where it is written, translated when the help is shown; examples
after it with :class:`Examples`).

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

import copy
import inspect
import os
from dataclasses import dataclass
from typing import Any

import click

from liarsdice.cli.click_text import (
    CLICK_ERRORS,
    extras_text,
    help_text,
    hint_text,
    metavar_text,
)
from liarsdice.families import preset_names
from liarsdice.i18n import _, language_from_env, using

__all__ = [
    "LANG_KEY",
    "Command",
    "Context",
    "Examples",
    "Group",
    "LocalUsageError",
    "PresetChoice",
    "fail",
    "language",
    "sentence",
]

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
            usage = ctx.get_usage()  # in the language in use (the commands' formatter)
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
    if not isinstance(error, click.BadParameter) or (
        type(error).format_message is not click.BadParameter.format_message
    ):  # an unknown option, a missing parameter...: click's own sentences
        return CLICK_ERRORS.say(error.format_message())
    message = CLICK_ERRORS.say(error.message)  # ours already speak the language in use
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint(error.ctx)
    if hint is None:
        return _("Invalid value: {message}").format(message=message)
    if not isinstance(hint, str):
        hint = " / ".join(repr(h) for h in hint)
    return _("Invalid value for {option}: {message}").format(
        option=hint_text(hint), message=message
    )


def _local(error: click.ClickException) -> click.ClickException:
    """``error`` as it is shown in the language in use (its first letter a capital)."""
    if isinstance(error, click.exceptions.NoArgsIsHelpError):
        return error  # a group called alone: its help, already in the language in use
    _as_sentence(error)
    if isinstance(error, click.UsageError) and not isinstance(error, LocalUsageError):
        return LocalUsageError(error)
    return error


class _Formatter(click.HelpFormatter):
    """click's help formatter, with click's words (``Usage:``, the sections' headings) in the
    language in use."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        said = _("Usage:") + " " if prefix is None else prefix
        super().write_usage(prog, args, said)

    def write_heading(self, heading: str) -> None:
        super().write_heading(help_text(heading))


class Context(click.Context):
    """The context of our commands: its help is written by :class:`_Formatter`."""

    formatter_class = _Formatter


@dataclass(frozen=True)
class Examples:
    """Command lines shown after a command's help, under a heading (``N_("Example:")``); a
    line marked with ``N_`` (one with a comment in words) is translated too."""

    heading: str
    lines: tuple[str, ...]

    def text(self) -> str:
        """The block as click shows it as it is (``\\b``: lines not rewrapped)."""
        lines = [help_text(self.heading), *(help_text(line) for line in self.lines)]
        return "\b\n" + "\n".join(lines)


class _Speaking(click.Command):
    """What our commands and groups share: their language, their errors and their help."""

    context_class = Context
    examples: Examples | None = None
    closing: str | None = None  # a paragraph after the examples

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

    def get_help(self, ctx: click.Context) -> str:
        with using(_language_of(ctx)):
            return super().get_help(ctx)

    def help_said(self) -> str:
        """The help text in the language in use: the help, the examples, the closing."""
        parts = [inspect.cleandoc(help_text(self.help))] if self.help else []
        if self.examples is not None:
            parts.append(self.examples.text())
        if self.closing:
            parts.append(help_text(self.closing))
        return "\n\n".join(parts)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        text = self.help_said()
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit: int = 45) -> str:
        said = copy.copy(self)
        said.help = help_text(self.help) if self.help else self.help
        return click.Command.get_short_help_str(said, limit)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavar_text(piece) for piece in super().collect_usage_pieces(ctx)]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [
            row
            for param in self.get_params(ctx)
            if isinstance(param, click.Option) and (row := _option_row(param, ctx)) is not None
        ]
        if rows:
            with formatter.section("Options"):  # (the formatter translates headings)
                formatter.write_dl(rows)


def _option_row(option: click.Option, ctx: click.Context) -> tuple[str, str] | None:
    """An option's line of the help, in the language in use: its name, the name of its value
    and its help with click's notes (``[default: ...]``)."""
    said = copy.copy(option)
    said.help = help_text(option.help) if option.help else option.help
    if not option.is_flag and not option.count:
        said.metavar = metavar_text(option.make_metavar(ctx))
    record = said.get_help_record(ctx)
    return None if record is None else (record[0], extras_text(record[1]))


class Command(_Speaking):
    """A click command that speaks the language of ``--lang``: its help (``help`` a message
    marked with ``N_``; ``examples`` and a ``closing`` paragraph after it) and its errors,
    which read as sentences (see the module docstring)."""

    def __init__(
        self,
        *args: Any,
        examples: Examples | None = None,
        closing: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.examples, self.closing = examples, closing


class Group(_Speaking, click.Group):
    """A click group that speaks the language of ``--lang``, as :class:`Command` does (its
    commands listed with their help in it).

    ``--lang`` is the group's option, and a player writes it anywhere: ``liarsdice play
    --lang es`` and ``liarsdice --help --lang es`` mean ``liarsdice --lang es ...`` (it is
    moved first, so that it is read before ``--help`` and before any command runs)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _language_first(args))

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)  # _Speaking's (which click.Group's would skip)
        self.format_commands(ctx, formatter)


def _language_first(args: list[str]) -> list[str]:
    """``args`` with every ``--lang X`` / ``--lang=X`` before ``--`` moved to the front.

    >>> _language_first(["play", "--rules", "perudo", "--lang", "es"])
    ['--lang', 'es', 'play', '--rules', 'perudo']
    >>> _language_first(["--help", "--lang=es"])
    ['--lang=es', '--help']
    >>> _language_first(["replay", "--", "--lang"])
    ['replay', '--', '--lang']
    """
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == "--lang" and i + 1 < len(args):
            front.extend(args[i : i + 2])
            i += 2
            continue
        (front if arg.startswith("--lang=") else rest).append(arg)
        i += 1
    return front + rest


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
