"""``liarsdice replay FILE``: check a game record move by move and sum it up.

FILE is a JSON record (``docs/RECORD.md``) or the text format; the format is told by the
content (a JSON record starts with ``{``). ``-`` reads stdin. Every rule family is handled: the
record's ``rules`` name finds its family (:mod:`liarsdice.families`), which reads it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from liarsdice.cli.command import Command, fail
from liarsdice.cli.reasons import os_reason
from liarsdice.core.errors import RecordError
from liarsdice.families import (
    Family,
    error_object,
    family_of_record,
    read_record_text,
)
from liarsdice.i18n import N_, _


def read_file(path: str) -> str:
    """The text of the file ``path`` (``-``: standard input); a :class:`RecordError` saying
    why it cannot be read, in the language in use."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        said = _("can't read {path}: {reason}").format(path=path, reason=os_reason(err))
        raise RecordError(said) from None


def where(round: int | None, move: int | None, message: str) -> str:
    """``message`` after where it happened in a record (0-based round and move; None: not in
    one), in the language in use.

    >>> where(0, 2, "bad bid"), where(1, None, "bad dice"), where(None, None, "bad file")
    ('round 1, move 3: bad bid', 'round 2: bad dice', 'bad file')
    """
    if round is None:
        return message
    if move is None:
        return _("round {round}: {message}").format(round=round + 1, message=message)
    return _("round {round}, move {move}: {message}").format(
        round=round + 1, move=move + 1, message=message
    )


def summarize_file(path: str) -> tuple[Family | None, dict[str, Any]]:
    """The record's family (None when unreadable) and the ``--json`` output for a file: the
    replay summary, or the error object."""
    try:
        record = read_record_text(read_file(path))  # checked here, its rules built once
    except RecordError as err:
        return None, {"ok": False, "error": error_object(err)}
    family = family_of_record(record)  # the family that loaded it (no search)
    return family, family.replay_summary(record)


@click.command(
    "replay",
    cls=Command,
    help=N_(
        "Check the game record FILE (JSON or text) move by move and sum up each round.\n\n"
        "Exits with status 1 when the record is unreadable or a move is illegal. With --json the "
        'output is one JSON object: {"ok": true, "rounds": [...], "winner": ...} or {"ok": '
        'false, "error": {"round": R, "move": M, "message": ...}} (0-based positions).'
    ),
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object (the summary)."))
def replay(file: str, as_json: bool) -> None:
    family, summary = summarize_file(file)
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False))
        if not summary["ok"]:
            sys.exit(1)
        return
    if not summary["ok"]:
        error = summary["error"]
        raise fail(where(error["round"], error["move"], error["message"]))
    assert family is not None
    for number, rnd in enumerate(summary["rounds"], start=1):
        click.echo(family.round_line(number, rnd))
    if summary["winner"] is not None:
        click.echo(_("Winner: {name}").format(name=summary["winner"]))
    else:
        click.echo(_("No winner yet: the game is in progress."))
