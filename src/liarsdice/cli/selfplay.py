"""``liarsdice selfplay``: bots play each other and every game is written out, for research.

The games are the arena's (the same rules, bots, seats and seeds: :mod:`liarsdice.selfplay`),
played here, in ``--jobs`` processes or on Ray (``--ray``), and written under ``--out`` as
JSON records (``liarsdice replay`` checks each) or NumPy arrays. The output depends only on
the options and the seed. See docs/RESEARCH.md, "The arena and self-play on Ray".
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from liarsdice.arena import ArenaSpec
from liarsdice.cli.command import Command, Examples
from liarsdice.cli.options import count_option
from liarsdice.cli.paths import cannot_write, out_folder_option
from liarsdice.cli.workers import MatchOptions, match_options, match_spec, playing, workers
from liarsdice.i18n import N_, _, ngettext
from liarsdice.selfplay import FORMATS, run_selfplay

__all__ = ["selfplay"]


@click.command(
    "selfplay",
    cls=Command,
    help=N_("Let bots play each other and write every game: records or arrays."),
    examples=Examples(
        N_("Examples:"),
        (
            "  liarsdice selfplay --rules classic --players 2 --bots expert,prob --games 1000 "
            "--out data",
            "  liarsdice selfplay --rules perudo --bots prob --games 100000 --format arrays \\",
            "      --ray auto --out perudo-arrays",
        ),
    ),
    closing=N_('See docs/RESEARCH.md ("The arena and self-play on Ray") for the files written.'),
)
@match_options(
    bots_help=N_("Bots, comma-separated, cycled over the seats (as in 'liarsdice arena').")
)
@out_folder_option(N_("Folder to write (created; it must be new or empty)."))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    default="records",
    show_default=True,
    help=N_("records: one JSON record per game; arrays: NumPy .npz shards of decisions."),
)
@count_option("--shard-games", 1000, N_("Games per .npz shard (arrays)."), minimum=1)
@click.option("--quiet", is_flag=True, help=N_("No progress bar."))
def selfplay(match: MatchOptions, out: Path, fmt: str, shard_games: int, quiet: bool) -> None:
    def numbered(spec: ArenaSpec) -> None:  # arrays: a game the dense encoding cannot number
        if fmt.lower() == "arrays":
            family = spec.family
            family.adapter(family.new_game(spec.rules, list(spec.labels[: spec.num_players])))

    spec = match_spec(match, check=numbered)
    if out.exists() and any(out.iterdir()):
        raise click.UsageError(_("--out {path} is not empty: name a new folder").format(path=out))
    jobs = workers(match.jobs, match.ray)
    with playing("selfplay", match.games, quiet=quiet) as progress:
        try:
            manifest = run_selfplay(
                spec,
                out,
                fmt.lower(),
                jobs=jobs,
                ray=match.ray,
                shard_games=shard_games,
                progress=progress,
            )
        except OSError as e:
            raise cannot_write(out, e) from None
    written = manifest["games_written"]
    abandoned = len(manifest["abandoned"])
    files = len(manifest["files"])
    said = ngettext(
        "Wrote {n} game as {format} to {path} ({files} and selfplay.json)",
        "Wrote {n} games as {format} to {path} ({files} and selfplay.json)",
        written,
    ).format(
        n=written,
        format=fmt.lower(),
        path=out,
        files=ngettext("{n} file", "{n} files", files).format(n=files),
    )
    if abandoned:
        said += ngettext(
            "; {n} game abandoned on a bot error.",
            "; {n} games abandoned on a bot error.",
            abandoned,
        ).format(n=abandoned)
    else:
        said += "."
    click.echo(said)
    if abandoned and not quiet:
        Console(stderr=True, highlight=False).print(json.dumps(manifest["abandoned"][:5]))
