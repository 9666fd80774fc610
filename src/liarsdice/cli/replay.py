"""``liarsdice replay FILE``: check a game record move by move and sum it up.

FILE is a JSON record (``docs/RECORD.md``) or the text format (:mod:`liarsdice.notation.text`);
the format is told by the content (a JSON record starts with ``{``). ``-`` reads stdin. Both
families are handled: poker-dice records (``"rules": "poker-dice"``) are read by
:mod:`liarsdice.notation.poker_record` and :mod:`liarsdice.notation.poker_text`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from liarsdice.core.errors import RecordError
from liarsdice.notation.poker_record import describe_poker_result
from liarsdice.notation.record import load_record, replay_summary
from liarsdice.notation.text import describe_result, text_to_record


def read_record_text(text: str) -> dict[str, Any]:
    """A record from the text of a file in either format (JSON when it starts with ``{``)."""
    if text.lstrip().startswith("{"):
        return load_record(text)
    return text_to_record(text)


def _read_file(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise RecordError(f"can't read {path}: {reason}") from None


def summarize_file(path: str) -> dict[str, Any]:
    """The ``--json`` output for a file: the replay summary, or the error object."""
    try:
        record = read_record_text(_read_file(path))
    except RecordError as err:
        error = {"round": err.round, "move": err.move, "message": err.message}
        return {"ok": False, "error": error}
    return replay_summary(record)


def _where(error: dict[str, Any]) -> str:
    if error["round"] is None:
        return ""
    where = f"round {error['round'] + 1}"
    if error["move"] is not None:
        where += f", move {error['move'] + 1}"
    return where + ": "


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the summary).")
def replay(file: str, as_json: bool) -> None:
    """Check the game record FILE (JSON or text) move by move and sum up each round.

    Exits with status 1 when the record is unreadable or a move is illegal. With --json the
    output is one JSON object: {"ok": true, "rounds": [...], "winner": ...} or
    {"ok": false, "error": {"round": R, "move": M, "message": ...}} (0-based positions).
    """
    summary = summarize_file(file)
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False))
        if not summary["ok"]:
            sys.exit(1)
        return
    if not summary["ok"]:
        error = summary["error"]
        click.echo(f"error: {_where(error)}{error['message']}", err=True)
        sys.exit(1)
    for number, rnd in enumerate(summary["rounds"], start=1):
        if "lives" in rnd:  # poker dice
            who = (
                f"{rnd['caller']} calls liar on"
                if rnd["call"] == "liar"
                else f"{rnd['accepter']} accepts"
            )
            click.echo(
                f"Round {number}: {who} {rnd['bidder']}'s {rnd['bid']}; "
                f"{describe_poker_result(rnd)}"
            )
            continue
        click.echo(
            f"Round {number}: {rnd['caller']} calls {rnd['call']} on {rnd['bidder']}'s "
            f"{rnd['bid']}; {describe_result(rnd)}"
        )
    if summary["winner"] is not None:
        click.echo(f"Winner: {summary['winner']}")
    else:
        click.echo("No winner yet: the game is in progress.")
