"""``liarsdice solve``: an approximate Nash equilibrium of a two-player single-round game.

Runs vectorised CFR (DCFR by default) over the public tree of the game, printing the
iterations, seconds, exact exploitability (NashConv / 2) and player 0's game value as it goes
(a progress bar on stderr), until the exploitability is at most ``--target``. ``--json``
prints only one final object on stdout; ``--out`` saves the average strategy as JSON.

>>> import json
>>> from click.testing import CliRunner
>>> out = CliRunner().invoke(solve, ["--rules", "snyd-normal", "--faces", "2", "--json"])
>>> sorted(json.loads(out.stdout))
['exploitability', 'iterations', 'seconds', 'value']
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from liarsdice.cli.command import Command
from liarsdice.cli.options import default_option
from liarsdice.cli.paths import writable_file
from liarsdice.cli.reasons import SOLVER_ERRORS
from liarsdice.core.errors import RulesError
from liarsdice.i18n import N_, _, ngettext
from liarsdice.solve.cache import cache_path, cached_policy
from liarsdice.solve.cfr import ALGORITHMS, Algorithm
from liarsdice.solve.cfr import Progress as Point
from liarsdice.solve.cfr import solve as run_solver
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, PublicTree, make_game

__all__ = ["solve"]

MAX_ITERATIONS = 100_000


def _dice(text: str) -> tuple[int, int]:
    parts = [p for p in text.replace(" ", "").split(",") if p]
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        raise click.BadParameter(
            _("{text}: give dice per player as e.g. 1,1 or 2,1").format(text=repr(text)),
            param_hint="--dice",
        ) from None
    if len(counts) == 1:
        counts *= 2
    if len(counts) != 2 or min(counts) < 1:
        raise click.BadParameter(
            _("{text}: two players, at least one die each").format(text=repr(text)),
            param_hint="--dice",
        )
    return counts[0], counts[1]


@click.command(
    name="solve",
    cls=Command,
    help=N_(
        "Solve a two-player single-round game to an approximate Nash equilibrium.\n\n"
        "With --cache the policy goes to the per-user cache (or comes from it, when solved "
        "before): nash and expert then play it, also in games too large to solve on first use, "
        "such as two dice each with 6 faces (--max-gib 16, half an hour on two cores)."
    ),
)
@click.option(
    "--rules",
    "rules_name",
    default="openspiel",
    show_default=True,
    help=N_("A single-round two-player preset: openspiel, snyd-normal, snyd-joker."),
)
@click.option("--dice", default="1,1", show_default=True, help=N_("Dice per player, e.g. 2,1."))
@click.option("--faces", type=int, default=None, help=N_("Faces per die (default: the preset's)."))
@default_option("--target", 1e-3, N_("Stop at this exploitability (NashConv / 2)."), type=float)
@default_option(
    "--max-iterations",
    MAX_ITERATIONS,
    N_("Stop after this many iterations, whatever the exploitability."),
    type=int,
)
@default_option(
    "--algorithm", "dcfr", N_("The CFR variant that solves it."), type=click.Choice(ALGORITHMS)
)
@click.option(
    "--out",
    type=click.Path(),
    callback=writable_file,
    default=None,
    help=N_("Save the average strategy (policy JSON) here."),
)
@click.option(
    "--cache",
    is_flag=True,
    help=N_("Keep the policy in the per-user cache, where nash and expert play it from."),
)
@default_option(
    "--max-gib",
    DEFAULT_MAX_BYTES / 2**30,
    N_("Refuse a game whose solver arrays need more memory (GiB)."),
    type=float,
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print one final JSON object on stdout."))
def solve(
    rules_name: str,
    dice: str,
    faces: int | None,
    target: float,
    max_iterations: int,
    algorithm: str,
    out: str | None,
    cache: bool,
    max_gib: float,
    as_json: bool,
) -> None:
    max_bytes = int(max_gib * 2**30)
    if cache and max_iterations != MAX_ITERATIONS:
        raise click.UsageError(_("--cache solves to --target: leave --max-iterations out"))
    try:
        game = make_game(rules_name, _dice(dice), faces)
        tree = PublicTree(game, max_bytes=max_bytes)
    except RulesError as exc:
        raise click.UsageError(SOLVER_ERRORS.say(str(exc))) from None  # rules it does not take
    err = Console(stderr=True, file=sys.stderr, soft_wrap=True)
    lines = err if as_json else Console(file=sys.stdout, highlight=False, soft_wrap=True)
    lines.print(_heading(game.rules.name, tree, algorithm, target))
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(_("solving"), total=max_iterations, info="")

        def report(point: Point) -> None:
            info = _("expl {exploitability}").format(exploitability=f"{point.exploitability:.2e}")
            bar.update(task, completed=point.iterations, info=info)
            lines.print(_progress_line(point))

        algo: Algorithm = "dcfr" if algorithm == "dcfr" else (
            "cfr+" if algorithm == "cfr+" else "pcfr+"
        )  # fmt: skip
        if cache:
            del tree  # the cache builds its own (a large game's tree is big)
            policy = cached_policy(
                game, target=target, algorithm=algo, callback=report, max_bytes=max_bytes, disk=True
            )
            summary = dict(policy.info or {})
            lines.print(_("policy cached in {path}").format(path=cache_path(game, target, algo)))
        else:
            result = run_solver(
                tree, target=target, max_iterations=max_iterations, algorithm=algo, callback=report
            )
            policy = Policy.from_result(result)
            summary = result.summary()
    if out is not None:
        policy.save(out)
        lines.print(_("policy saved to {path}").format(path=out))
    if as_json:
        click.echo(json.dumps(summary))
    else:
        lines.print(_summary_line(summary))


def _heading(rules: str, tree: PublicTree, algorithm: str, target: float) -> str:
    """The first line: the game, its size and the solver's goal."""
    return _("{rules}: dice {dice}, {faces}, {bids}, {nodes}; {algorithm} to {target}").format(
        rules=rules,
        dice=f"{tree.dice[0]},{tree.dice[1]}",
        faces=ngettext("{n} face", "{n} faces", tree.faces).format(n=tree.faces),
        bids=ngettext("{n} bid", "{n} bids", tree.num_bids).format(n=tree.num_bids),
        nodes=ngettext("{n} public node", "{n} public nodes", tree.num_nodes).format(
            n=f"{tree.num_nodes:,}"
        ),
        algorithm=algorithm,
        target=f"{target:g}",
    )


def _progress_line(point: Point) -> str:
    """A line of the solver's progress (its columns aligned from line to line)."""
    return _(
        "iter {iterations}  {seconds}s  exploitability {exploitability}  value {value}"
    ).format(
        iterations=f"{point.iterations:>7}",
        seconds=f"{point.seconds:8.2f}",
        exploitability=f"{point.exploitability:.3e}",
        value=f"{point.value:+.6f}",
    )


def _summary_line(summary: dict[str, Any]) -> str:
    """The last line: the game's value and how near the policy is to an equilibrium."""
    said = ngettext(
        "value {value} for the first player, exploitability {exploitability} after {n} "
        "iteration in {seconds}s",
        "value {value} for the first player, exploitability {exploitability} after {n} "
        "iterations in {seconds}s",
        summary["iterations"],
    )
    return said.format(
        value=f"{summary['value']:+.7f}",
        exploitability=f"{summary['exploitability']:.3e}",
        n=summary["iterations"],
        seconds=f"{summary['seconds']:.2f}",
    )
