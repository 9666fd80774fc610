"""Where the games of ``arena`` and ``selfplay`` run: ``--jobs`` local processes or ``--ray``;
and what both commands share: the ``--bots`` list checked against the family, the progress bar.

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

import os
from collections.abc import Callable
from typing import Any, TypeVar

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

from liarsdice.arena import kind_of
from liarsdice.cli.click_text import filled
from liarsdice.cli.options import bot_list
from liarsdice.families import Family
from liarsdice.i18n import N_, _
from liarsdice.parallel import RAY_HINT
from liarsdice.parallel import ray_cluster as _ray_cluster

__all__ = ["bot_names", "games_bar", "workers", "workers_options"]

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
