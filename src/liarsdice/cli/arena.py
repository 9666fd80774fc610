"""``liarsdice arena``: bots play each other for many games; a table of how they fared.

The command builds the rules exactly as ``liarsdice play`` does (``--rules``, ``--players``,
``--dice``, ``--faces``, ``--option name=value``), plays the games with
:func:`liarsdice.arena.run_arena` (in ``--jobs`` processes, with a progress bar on standard
error) and prints the standings: wins with a Wilson 95% interval, average placement, Elo with
bootstrap error bars, bot errors and decision times. See ``docs/ARENA.md``.

>>> format_ms(0.01234), format_ms(2.5), format_ms(1234.5)
('0.012', '2.50', '1234')
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from liarsdice.arena import ELO_BASE, ArenaResult, BotStanding, accepts_think
from liarsdice.arena import run_arena as run_arena_games
from liarsdice.cli.command import Command, Examples
from liarsdice.cli.options import count_option
from liarsdice.cli.paths import writable_file
from liarsdice.cli.workers import MatchOptions, match_options, match_spec, playing, workers
from liarsdice.i18n import N_, _, ngettext, pgettext

__all__ = ["arena", "elo_text", "format_ms", "render_table"]

MAX_ERRORS_SHOWN = 20


def format_ms(ms: float) -> str:
    """Milliseconds with about three significant digits."""
    if ms < 1:
        return f"{ms:.3f}"
    if ms < 100:
        return f"{ms:.2f}"
    return f"{ms:.0f}"


def render_table(result: ArenaResult) -> Table:
    """The standings as a rich table."""
    spec = result.spec
    table = Table(title=None, show_lines=False, pad_edge=False)
    table.add_column(pgettext("column", "bot"), no_wrap=True)
    table.add_column(pgettext("column", "games"), justify="right")
    table.add_column(pgettext("column", "wins"), justify="right")
    table.add_column(pgettext("column", "win % (95% CI)"), justify="right", no_wrap=True)
    table.add_column(pgettext("column", "place"), justify="right")
    table.add_column(pgettext("column", "Elo"), justify="right", no_wrap=True)
    table.add_column(pgettext("column", "errors"), justify="right")
    table.add_column(pgettext("column", "ms mean/p50/max"), justify="right", no_wrap=True)
    for s in result.standings:
        think = "*" if spec.think is not None and accepts_think(s.bot, spec.family) else ""
        table.add_row(
            escape(s.label + think),
            str(s.games),
            str(s.wins),
            f"{100 * s.win_rate:.1f} ({100 * s.win_low:.1f}-{100 * s.win_high:.1f})",
            "-" if math.isnan(s.placement) else f"{s.placement:.2f}",
            elo_text(s, spec.num_players),
            str(s.errors),
            "/".join(format_ms(x) for x in (s.ms_mean, s.ms_p50, s.ms_max)),
        )
    return table


def elo_text(s: BotStanding, players: int) -> str:
    """A bot's Elo and its error bar; a bound where the data give no interval: a bot that
    placed first in every game (beat every other in every game) has only a lower bound (its
    rating is held finite by the fit's prior, and every resample gives the same one), one
    that placed last in every game only an upper bound.

    >>> from dataclasses import replace
    >>> row = BotStanding("a", "a", 10, 5, .5, .2, .8, 1.5, 1530.4, 61.2, 0, 9, 1, 1, 1, (5, 5))
    >>> elo_text(row, 2), elo_text(replace(row, placement=1.0), 2)
    ('1530 ± 61', '≥ 1530 (won all)')
    >>> elo_text(replace(row, placement=2.0), 2), elo_text(replace(row, games=0), 2)
    ('≤ 1530 (lost all)', '-')
    """
    if s.games == 0:
        return "-"
    if s.placement == 1.0:
        return "≥ " + _("{elo} (won all)").format(elo=f"{s.elo:.0f}")
    if s.placement == players:
        return "≤ " + _("{elo} (lost all)").format(elo=f"{s.elo:.0f}")
    return f"{s.elo:.0f} ± {s.elo_error:.0f}"


def _games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _print_report(result: ArenaResult, console: Console) -> None:
    spec = result.spec
    games = len(result.games)
    say = console.print
    jobs = ngettext("{n} job", "{n} jobs", result.jobs).format(n=result.jobs)
    if result.ray:
        jobs = _("{jobs} on Ray").format(jobs=jobs)
    say(
        _(
            "Arena: {rules} rules ({family} family), {players} players, {games}, seed {seed}, "
            "{jobs}, {seconds} s."
        ).format(
            rules=escape(spec.rules.name),
            family=spec.family.name,
            players=spec.num_players,
            games=_games(games),
            seed=spec.seed,
            jobs=jobs,
            seconds=f"{result.seconds:.1f}",
        ),
        highlight=False,
    )
    say(render_table(result))
    say(
        _(
            "Ranked by wins, then placement. Elo: Bradley-Terry fit to pairwise placements, "
            "mean {base}; ± 95% bootstrap half-width ({resamples} resamples)."
        ).format(base=f"{ELO_BASE:g}", resamples=result.bootstrap),
        highlight=False,
    )
    if any(elo_text(s, spec.num_players)[0] in "≥≤" for s in result.standings):
        say(
            _(
                "≥ / ≤: a bot that placed first (last) in every game has only a bound, not an "
                "interval: more games against stronger (weaker) bots would tell more."
            ),
            highlight=False,
        )
    labels = len(spec.labels)
    if games % labels:
        said = ngettext(
            "Note: seats are balanced over blocks of {labels} games; {n} game leaves the last "
            "block incomplete.",
            "Note: seats are balanced over blocks of {labels} games; {n} games leave the last "
            "block incomplete.",
            games,
        )
        say(said.format(labels=labels, n=games), highlight=False)
    if spec.think is not None:
        say(
            _("* given the --think budget of {seconds} s per move.").format(
                seconds=f"{spec.think:g}"
            ),
            highlight=False,
        )
    if result.errors:
        _print_errors(result, say)


def _print_errors(result: ArenaResult, say: Any) -> None:
    said = ngettext(
        "[red]{n} game abandoned on a bot error[/red] (not counted in the standings); reproduce "
        "one with liarsdice.arena.play_game(spec, game):",
        "[red]{n} games abandoned on a bot error[/red] (not counted in the standings); "
        "reproduce one with liarsdice.arena.play_game(spec, game):",
        len(result.errors),
    )
    say(said.format(n=len(result.errors)), highlight=False)
    for e in result.errors[:MAX_ERRORS_SHOWN]:
        moves = ngettext("{n} move", "{n} moves", e.move).format(n=e.move)
        say(
            "  "
            + _("game {game} (seed {seed}): {bot} in seat {seat} after {moves}: {error}").format(
                game=e.game, seed=e.seed, bot=escape(e.bot), seat=e.seat, moves=moves,
                error=escape(e.error),
            ),
            highlight=False,
        )  # fmt: skip
    if len(result.errors) > MAX_ERRORS_SHOWN:
        more = len(result.errors) - MAX_ERRORS_SHOWN
        say("  " + _("... and {n} more.").format(n=more), highlight=False)


@click.command(
    "arena",
    cls=Command,
    help=N_("Play bots against each other, seats rotated, and rate them."),
    examples=Examples(
        N_("Example:"),
        (
            "  liarsdice arena --rules classic --players 4 --bots prob,random --games 2000 "
            "--jobs 4",
            "  liarsdice arena --rules classic --bots prob,random --games 20000 --ray auto",
        ),
    ),
    closing=N_("See docs/ARENA.md for the statistics and the --think convention for bot authors."),
)
@match_options(
    bots_help=N_(
        "Bots, comma-separated, cycled over the seats; a name twice = two instances ({bots})."
    )
)
@count_option("--bootstrap", 200, N_("Bootstrap resamples for the Elo error bars."))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    callback=writable_file,
    help=N_("Write the whole result (config, table, errors, games) as JSON."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the result as JSON on stdout."))
@click.option("--quiet", is_flag=True, help=N_("No progress bar."))
def arena(
    match: MatchOptions, bootstrap: int, out: Path | None, as_json: bool, quiet: bool
) -> None:
    spec = match_spec(match)
    jobs = workers(match.jobs, match.ray)
    with playing("arena", match.games, quiet=quiet, remaining=True) as progress:
        result = run_arena_games(spec, jobs, progress=progress, bootstrap=bootstrap, ray=match.ray)
    data: dict[str, Any] = result.to_dict()
    if out is not None:
        out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        console = Console(highlight=False, width=max(Console().width, 110))
        _print_report(result, console)
        if out is not None:
            console.print(_("Wrote {path}.").format(path=escape(str(out))), highlight=False)
    if result.errors and as_json:
        said = ngettext(
            "{n} game abandoned on a bot error (see 'errors').",
            "{n} games abandoned on a bot error (see 'errors').",
            len(result.errors),
        )
        Console(stderr=True, highlight=False).print(said.format(n=len(result.errors)))
