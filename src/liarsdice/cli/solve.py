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

from liarsdice.cli.command import Command
from liarsdice.cli.paths import writable_file
from liarsdice.core.errors import RulesError
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
        raise click.BadParameter(f"{text!r}: give dice per player as e.g. 1,1 or 2,1") from None
    if len(counts) == 1:
        counts *= 2
    if len(counts) != 2 or min(counts) < 1:
        raise click.BadParameter(f"{text!r}: two players, at least one die each")
    return counts[0], counts[1]


@click.command(name="solve", cls=Command)
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
@click.option("--max-iterations", type=int, default=MAX_ITERATIONS, show_default=True)
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="dcfr", show_default=True)
@click.option(
    "--out",
    type=click.Path(),
    callback=writable_file,
    default=None,
    help="Save the average strategy (policy JSON) here.",
)
@click.option(
    "--cache",
    is_flag=True,
    help="Keep the policy in the per-user cache, where nash and expert play it from.",
)
@click.option(
    "--max-gib",
    type=float,
    default=DEFAULT_MAX_BYTES / 2**30,
    show_default=True,
    help="Refuse a game whose solver arrays need more memory (GiB).",
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
    cache: bool,
    max_gib: float,
    as_json: bool,
) -> None:
    """Solve a two-player single-round game to an approximate Nash equilibrium.

    With ``--cache`` the policy goes to the per-user cache (or comes from it, when solved
    before): ``nash`` and ``expert`` then play it, also in games too large to solve on first
    use, such as two dice each with 6 faces (``--max-gib 16``, half an hour on two cores).
    """
    max_bytes = int(max_gib * 2**30)
    if cache and max_iterations != MAX_ITERATIONS:
        raise click.UsageError("--cache solves to --target: leave --max-iterations out")
    try:
        game = make_game(rules_name, _dice(dice), faces)
        tree = PublicTree(game, max_bytes=max_bytes)
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None  # rules the solver does not take
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
        if cache:
            del tree  # the cache builds its own (a large game's tree is big)
            policy = cached_policy(
                game, target=target, algorithm=algo, callback=report, max_bytes=max_bytes, disk=True
            )
            summary = dict(policy.info or {})
            lines.print(f"policy cached in {cache_path(game, target, algo)}")
        else:
            result = run_solver(
                tree, target=target, max_iterations=max_iterations, algorithm=algo, callback=report
            )
            policy = Policy.from_result(result)
            summary = result.summary()
    if out is not None:
        policy.save(out)
        lines.print(f"policy saved to {out}")
    if as_json:
        click.echo(json.dumps(summary))
    else:
        lines.print(
            f"value {summary['value']:+.7f} for the first player, exploitability "
            f"{summary['exploitability']:.3e} after {summary['iterations']} iterations in "
            f"{summary['seconds']:.2f}s"
        )
