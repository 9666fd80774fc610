"""Where the games of ``arena`` and ``selfplay`` run: ``--jobs`` local processes or ``--ray``.

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

from liarsdice.parallel import RAY_HINT
from liarsdice.parallel import ray_cluster as _ray_cluster

__all__ = ["workers", "workers_options"]

F = TypeVar("F", bound=Callable[..., Any])


def workers_options(func: F) -> F:
    """``--jobs N`` and ``--ray local|auto|ADDRESS`` (docs/RESEARCH.md)."""
    func = click.option(
        "--ray",
        metavar="local|auto|ADDRESS",
        help="Play the games as Ray tasks: 'local' starts Ray on this machine (--jobs CPUs), "
        "'auto' joins the cluster started here with 'ray start', ADDRESS (HOST:PORT or "
        f"ray://HOST:10001) another one. Results do not depend on it. Needs {RAY_HINT}.",
    )(func)
    return click.option(
        "--jobs",
        type=click.IntRange(0),
        default=1,
        show_default=True,
        help="Worker processes (0: one per CPU). Results do not depend on it.",
    )(func)


def workers(jobs: int, ray: str | None) -> int:
    """The ``jobs`` to hand on (0 = every CPU: this machine's, or a local Ray's); a usage error
    for ``--ray`` without Ray installed, or ``--jobs`` with a Ray cluster's address."""
    ctx = click.get_current_context()
    if ray is None:
        return jobs or os.cpu_count() or 1
    ray = ray.strip()
    if not ray:
        raise click.BadParameter("name local, auto or a cluster's address", param_hint="--ray")
    if not _ray_cluster.installed():
        raise click.UsageError(f"--ray needs Ray, which is not installed: {RAY_HINT}")
    given = ctx.get_parameter_source("jobs") is not click.core.ParameterSource.DEFAULT
    if given and ray != "local":
        raise click.UsageError(
            "--jobs sets the CPUs of a local Ray (--ray local), not of a cluster"
        )
    return jobs if given else 0
