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

from liarsdice.arena import ArenaSpec, check_spec
from liarsdice.cli.command import Command, Examples, fail
from liarsdice.cli.options import build_rules, count_option, rule_options
from liarsdice.cli.paths import writable_folder
from liarsdice.cli.reasons import RAY_ERRORS, SPEC_ERRORS, os_reason
from liarsdice.cli.workers import bot_names, games_bar, workers, workers_options
from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import family_of
from liarsdice.i18n import N_, _, ngettext
from liarsdice.parallel import RayUnavailableError
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
@rule_options(
    rules_help=N_("Rule preset; 'poker-dice' plays the poker-dice family."),
    players_help=N_("Seats per game (default: the preset's)."),
)
@click.option(
    "--bots",
    default="prob,random",
    show_default=True,
    help=N_("Bots, comma-separated, cycled over the seats (as in 'liarsdice arena')."),
)
@count_option("--games", 100, N_("Games to play."), minimum=1)
@click.option(
    "--seed", type=int, default=0, show_default=True, help=N_("Seed of every game and bot.")
)
@workers_options
@click.option(
    "--think",
    type=click.FloatRange(0, min_open=True),
    help=N_("Per-move time budget in seconds, for bots that take one."),
)
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path),
    callback=writable_folder,
    help=N_("Folder to write (created; it must be new or empty)."),
)
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
def selfplay(
    rules_name: str,
    players: int | None,
    dice: str | None,
    faces: int | None,
    options: tuple[str, ...],
    bots: str,
    games: int,
    seed: int,
    jobs: int,
    ray: str | None,
    think: float | None,
    out: Path,
    fmt: str,
    shard_games: int,
    quiet: bool,
) -> None:
    rules_name = rules_name.lower()
    family = family_of(rules_name)
    rules = build_rules(family, rules_name, players, dice, faces, options)
    names = bot_names(family, bots)
    spec = ArenaSpec(rules=rules, bots=names, games=games, seed=seed, think=think)
    try:
        check_spec(spec)
        if fmt.lower() == "arrays":  # a game the dense encoding cannot number
            family.adapter(family.new_game(rules, list(spec.labels[: spec.num_players])))
    except (LiarsDiceError, ValueError) as e:
        raise click.UsageError(SPEC_ERRORS.say(str(e))) from None
    if out.exists() and any(out.iterdir()):
        raise click.UsageError(_("--out {path} is not empty: name a new folder").format(path=out))
    jobs = workers(jobs, ray)
    with games_bar("selfplay", quiet=quiet) as bar:
        task = bar.add_task("games", total=games)
        try:
            manifest = run_selfplay(
                spec,
                out,
                fmt.lower(),
                jobs=jobs,
                ray=ray,
                shard_games=shard_games,
                progress=lambda n: bar.advance(task, n),
            )
        except RayUnavailableError as e:
            raise fail(RAY_ERRORS.say(str(e))) from None
        except OSError as e:
            said = _("can't write {path}: {reason}").format(path=out, reason=os_reason(e))
            raise fail(said) from None
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
        bar.console.print(json.dumps(manifest["abandoned"][:5]))
