"""``liarsdice analyse FILE``: the post-game analysis of a game record (docs/ANALYSIS.md).

FILE is a JSON or text record (``docs/RECORD.md``), ``-`` for stdin. Every move is judged from
its player's own view: the odds of the bid faced, the expert's move, the win chance given away.
"""

from __future__ import annotations

import json
import sys

import click

from liarsdice.analysis import analyse as analyse_record
from liarsdice.analysis import format_text
from liarsdice.cli.replay import _read_file
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.families import read_record_text


@click.command("analyse")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the analysis as one JSON object (versioned)."
)
def analyse(file: str, as_json: bool) -> None:
    """Analyse the game in the record FILE (JSON or text): for every move, the chance that the
    bid faced was true (as the player could know it, and with every die known), the expert
    bot's move, the win chance given away and a mark on mistakes; then a summary per player.

    Exits with status 1 when the record is unreadable or not legal. --json prints
    {"format": "liarsdice-analysis", "version": 1, "moves": [...], "players": {...}, ...}
    (docs/ANALYSIS.md).
    """
    try:
        record = read_record_text(_read_file(file))
        result = analyse_record(record)
    except (RecordError, RulesError) as err:
        where = ""
        if isinstance(err, RecordError) and err.round is not None:
            where = f"round {err.round + 1}"
            where += f", move {err.move + 1}: " if err.move is not None else ": "
        click.echo(f"error: {where}{err}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(format_text(result))
