"""Where the games of ``arena`` and ``selfplay`` run: ``--jobs`` local processes or ``--ray``;
and what both commands share: their options (:func:`match_options`), the match they set up
(:func:`match_spec`: the ``--bots`` list checked against the family), the progress bar.

>>> from click.testing import CliRunner
>>> from liarsdice.cli.command import Command
>>> @click.command(cls=Command)
... @workers_options
... def go(jobs: int, ray: str | None) -> None:
...     click.echo(f"{workers(jobs, ray)} {ray}")
>>> CliRunner().invoke(go, ["--jobs", "3"]).output
'3 None\\n'
>>> result = CliRunner().invoke(go, ["--ray", "10.0.0.1:6379", "--jobs", "2"])
>>> result.exit_code, result.output.splitlines()[-1]
(2, 'Error: --jobs sets the CPUs of a local Ray (--ray local), not of a cluster')
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any, TypeVar, cast

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from liarsdice.arena import ArenaSpec, check_spec, kind_of
from liarsdice.cli.click_text import filled
from liarsdice.cli.command import fail
from liarsdice.cli.options import (
    bot_list,
    bots_option,
    build_rules,
    count_option,
    rule_options,
    stacked,
)
from liarsdice.cli.reasons import RAY_ERRORS, SPEC_ERRORS
from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import Family, family_of
from liarsdice.i18n import N_, _
from liarsdice.parallel import RayUnavailableError
from liarsdice.parallel import ray_cluster as _ray_cluster
from liarsdice.parallel.errors import RAY_HINT

__all__ = [
    "MatchOptions",
    "bot_names",
    "games_bar",
    "match_options",
    "match_spec",
    "playing",
    "workers",
    "workers_options",
]

F = TypeVar("F", bound=Callable[..., Any])


def workers_options(func: F) -> F:
    """``--jobs N`` and ``--ray local|auto|ADDRESS`` (docs/RESEARCH.md)."""
    func = click.option(
        "--ray",
        metavar="local|auto|ADDRESS",
        help=filled(
            N_(
                "Play the games as Ray tasks: 'local' starts Ray on this machine (--jobs CPUs), "
                "'auto' joins the cluster started here with 'ray start', ADDRESS (HOST:PORT or "
                "ray://HOST:10001) another one. Results do not depend on it. Needs {hint}."
            ),
            hint=RAY_HINT,
        ),
    )(func)
    return click.option(
        "--jobs",
        type=click.IntRange(0),
        default=1,
        show_default=True,
        help=N_("Worker processes (0: one per CPU). Results do not depend on it."),
    )(func)


def workers(jobs: int, ray: str | None) -> int:
    """The ``jobs`` to hand on (0 = every CPU: this machine's, or a local Ray's); a usage error
    for ``--ray`` without Ray installed, or ``--jobs`` with a Ray cluster's address."""
    ctx = click.get_current_context()
    if ray is None:
        return jobs or os.cpu_count() or 1
    ray = ray.strip()
    if not ray:
        raise click.BadParameter(_("name local, auto or a cluster's address"), param_hint="--ray")
    if not _ray_cluster.installed():
        raise click.UsageError(
            _("--ray needs Ray, which is not installed: {hint}").format(hint=RAY_HINT)
        )
    given = ctx.get_parameter_source("jobs") is not click.core.ParameterSource.DEFAULT
    if given and ray != "local":
        raise click.UsageError(
            _("--jobs sets the CPUs of a local Ray (--ray local), not of a cluster")
        )
    return jobs if given else 0


def bot_names(family: Family, bots: str) -> tuple[str, ...]:
    """The ``--bots`` list (comma-separated labels, options allowed: ``expert:cached=false``),
    each a bot of ``family``; a usage error names the first that is not."""
    names = tuple(bot_list(bots))
    for name in names:
        if kind_of(name) not in family.bots or "#" in name:
            raise click.BadParameter(
                _("unknown bot {name}; {family} bots: {bots}").format(
                    name=repr(name), family=family.name, bots=", ".join(family.bots)
                ),
                param_hint="--bots",
            )
    return names


def games_bar(label: str, *, quiet: bool, remaining: bool = False) -> Progress:
    """The progress bar of a command playing games, on standard error (off with ``quiet``)."""
    columns: list[ProgressColumn] = [
        TextColumn(f"[bold]{label}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if remaining:
        columns.append(TimeRemainingColumn())
    err = Console(stderr=True, highlight=False)
    return Progress(*columns, console=err, disable=quiet, transient=True)


@dataclass(frozen=True)
class MatchOptions:
    """What :func:`match_options` read from the command line: the match to set up
    (:func:`match_spec`) and where its games run (:func:`workers`)."""

    rules_name: str
    players: int | None
    dice: str | None
    faces: int | None
    options: tuple[str, ...]
    bots: str
    games: int
    seed: int
    jobs: int
    ray: str | None
    think: float | None


def match_options(*, bots_help: str) -> Callable[[F], F]:
    """The options of a command that plays bots against each other (``arena``, ``selfplay``):
    the rules (:func:`~liarsdice.cli.options.rule_options`), ``--bots``, ``--games``,
    ``--seed``, where the games run (:func:`workers_options`) and ``--think``. The command
    is given them as one value, ``match`` (:class:`MatchOptions`), beside its own options."""
    options = stacked(
        rule_options(
            rules_help=N_("Rule preset; 'poker-dice' plays the poker-dice family."),
            players_help=N_("Seats per game (default: the preset's)."),
        ),
        bots_option("prob,random", bots_help),
        count_option("--games", 100, N_("Games to play."), minimum=1),
        click.option(
            "--seed", type=int, default=0, show_default=True, help=N_("Seed of every game and bot.")
        ),
        workers_options,
        click.option(
            "--think",
            type=click.FloatRange(0, min_open=True),
            help=N_("Per-move time budget in seconds, for bots that take one."),
        ),
    )
    names = [f.name for f in fields(MatchOptions)]

    def apply(func: F) -> F:
        @functools.wraps(func)
        def command(**values: Any) -> Any:
            match = MatchOptions(**{name: values.pop(name) for name in names})
            return func(match=match, **values)

        return options(cast(F, command))

    return apply


def match_spec(
    match: MatchOptions, *, check: Callable[[ArenaSpec], object] | None = None
) -> ArenaSpec:
    """The match the options set up, checked (and by ``check``, a command's own check); a
    usage error says what is wrong with it."""
    preset = match.rules_name.lower()
    family = family_of(preset)
    rules = build_rules(family, preset, match.players, match.dice, match.faces, match.options)
    bots = bot_names(family, match.bots)
    spec = ArenaSpec(rules=rules, bots=bots, games=match.games, seed=match.seed, think=match.think)
    try:
        check_spec(spec)
        if check is not None:
            check(spec)
    except (LiarsDiceError, ValueError) as e:
        raise click.UsageError(SPEC_ERRORS.say(str(e))) from None
    return spec


@contextmanager
def playing(
    label: str, games: int, *, quiet: bool, remaining: bool = False
) -> Iterator[Callable[[int], None]]:
    """A progress bar over ``games`` games (:func:`games_bar`) while the block plays them; the
    block is given what advances it by ``n`` games. Ray out of reach: the command fails
    saying why."""
    with games_bar(label, quiet=quiet, remaining=remaining) as bar:
        task = bar.add_task("games", total=games)
        try:
            yield lambda n: bar.advance(task, n)
        except RayUnavailableError as e:
            raise fail(RAY_ERRORS.say(str(e))) from None
