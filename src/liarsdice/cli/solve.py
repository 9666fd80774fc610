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

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from liarsdice.core.errors import RulesError
from liarsdice.solve.cfr import ALGORITHMS, Algorithm
from liarsdice.solve.cfr import Progress as Point
from liarsdice.solve.cfr import solve as run_solver
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import PublicTree, make_game

__all__ = ["solve"]


def _dice(text: str) -> tuple[int, int]:
    parts = [p for p in text.replace(" ", "").split(",") if p]
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give dice per player as e.g. 1,1 or 2,1") from None
    if len(counts) == 1:
        counts *= 2
    if len(counts) != 2 or min(counts) < 1:
        raise click.BadParameter(f"{text!r}: two players, at least one die each")
    return counts[0], counts[1]


@click.command(name="solve")
@click.option(
    "--rules",
    "rules_name",
    default="openspiel",
    show_default=True,
    help="A single-round two-player preset: openspiel, snyd-normal, snyd-joker.",
)
@click.option("--dice", default="1,1", show_default=True, help="Dice per player, e.g. 2,1.")
@click.option("--faces", type=int, default=None, help="Faces per die (default: the preset's).")
@click.option(
    "--target",
    type=float,
    default=1e-3,
    show_default=True,
    help="Stop at this exploitability (NashConv / 2).",
)
@click.option("--max-iterations", type=int, default=100_000, show_default=True)
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="dcfr", show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Save the average strategy (policy JSON) here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one final JSON object on stdout.")
def solve(
    rules_name: str,
    dice: str,
    faces: int | None,
    target: float,
    max_iterations: int,
    algorithm: str,
    out: str | None,
    as_json: bool,
) -> None:
    """Solve a two-player single-round game to an approximate Nash equilibrium."""
    try:
        game = make_game(rules_name, _dice(dice), faces)
        tree = PublicTree(game)
    except RulesError as exc:
        raise click.ClickException(str(exc)) from None
    err = Console(stderr=True, file=sys.stderr, soft_wrap=True)
    lines = err if as_json else Console(file=sys.stdout, highlight=False, soft_wrap=True)
    lines.print(
        f"{game.rules.name}: dice {tree.dice[0]},{tree.dice[1]}, {tree.faces} faces, "
        f"{tree.num_bids} bids, {tree.num_nodes:,} public nodes; {algorithm} to {target:g}"
    )
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("solving", total=max_iterations, info="")

        def report(point: Point) -> None:
            bar.update(task, completed=point.iterations,
                       info=f"expl {point.exploitability:.2e}")  # fmt: skip
            lines.print(
                f"iter {point.iterations:>7}  {point.seconds:8.2f}s  "
                f"exploitability {point.exploitability:.3e}  value {point.value:+.6f}"
            )

        algo: Algorithm = "dcfr" if algorithm == "dcfr" else (
            "cfr+" if algorithm == "cfr+" else "pcfr+"
        )  # fmt: skip
        result = run_solver(
            tree, target=target, max_iterations=max_iterations, algorithm=algo, callback=report
        )
    if out is not None:
        Policy.from_result(result).save(out)
        lines.print(f"policy saved to {out}")
    if as_json:
        click.echo(json.dumps(result.summary()))
    else:
        lines.print(
            f"value {result.value:+.7f} for the first player, exploitability "
            f"{result.exploitability:.3e} after {result.iterations} iterations in "
            f"{result.seconds:.2f}s"
        )
