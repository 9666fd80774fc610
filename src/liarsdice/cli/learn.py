"""``liarsdice learn``: training by self-play (NumPy and SciPy).

``liarsdice learn positions`` learns the chance to win a whole game from a position
(:mod:`liarsdice.learn.positions`); the file it writes is what the expert reads
(:mod:`liarsdice.nets.positions`). ``liarsdice learn rounds`` learns the values of
two-player single rounds (:mod:`liarsdice.learn.rounds`), which the ``learned`` bot plays
(:mod:`liarsdice.nets.rounds`). The training modules are imported only when a command
runs (nothing that plays imports them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from liarsdice.cli.command import Command, Examples, Group
from liarsdice.cli.paths import cannot_write, out_folder_option
from liarsdice.cli.reasons import LEARN_ERRORS, Sentences
from liarsdice.i18n import N_, _, ngettext
from liarsdice.nets.positions import PACKAGED

#: Rules the round learner takes (two-player single rounds, a call settles at once).
ROUND_RULES = ("snyd-joker", "openspiel")

__all__ = ["learn"]

F = TypeVar("F", bound=Callable[..., Any])

# The stages of the positions' training, as learn/positions.py names them (seats: 2 to 6).
_STAGES = Sentences((N_("{n} seats"),))


def _rules_option(choices: Sequence[str], help: str) -> Callable[[F], F]:
    """``--rules``: one of the rules ``choices`` the learner takes (the first by default)."""
    return click.option(
        "--rules",
        "rules_name",
        type=click.Choice(choices, case_sensitive=False),
        default=choices[0],
        show_default=True,
        help=help,
    )


@contextmanager
def _training(out: Path) -> Iterator[None]:
    """The training in the block, its errors said plainly: ``out`` cannot be written (exit
    status 1), or the options ask for what the learner does not do (a usage error)."""
    try:
        yield
    except OSError as e:
        raise cannot_write(out, e) from None
    except ValueError as e:
        raise click.UsageError(LEARN_ERRORS.say(str(e))) from None


@click.group("learn", cls=Group, help=N_("Train what the bots play, by self-play."))
def learn() -> None:
    pass


@learn.command(
    "positions",
    cls=Command,
    help=N_(
        "Learn the chance to win from every position, from the expert's self-play.\n\n"
        "Fits a model of how rounds end (which seat loses dice, gains one, or nothing) to every "
        "round of the games, then works out every position's chances from it exactly."
    ),
    examples=Examples(
        N_("Example:"),
        (
            "  liarsdice learn positions --rules classic --games 400 --jobs 2 --out learned",
            N_("  cp learned/positions-classic.npz src/liarsdice/nets/data/   # to ship it"),
        ),
    ),
)
@_rules_option(
    PACKAGED, N_("The rules family to learn (elimination games, up to 6 seats of 5 dice).")
)
@click.option("--games", type=click.IntRange(1), default=400, show_default=True,
              help=N_("Self-play games at each number of seats (2 to 6)."))  # fmt: skip
@click.option(
    "--seed", type=int, default=0, show_default=True, help=N_("Seed of the games and the fit.")
)
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help=N_("Worker processes for the games (the data does not depend on it)."),
)
@out_folder_option(
    N_("Folder for the data, the checkpoints and positions-RULES.npz (run again to resume).")
)
def positions(rules_name: str, games: int, seed: int, jobs: int, out: Path) -> None:
    from liarsdice.core.bidding import preset
    from liarsdice.learn.positions import train_positions

    done: dict[str, int] = {}

    def said(stage: str, n: int, total: int) -> None:
        done[stage] = done.get(stage, 0) + n
        line = ngettext(
            "{stage}: {done} of {total} game", "{stage}: {done} of {total} games", total
        ).format(stage=_STAGES.say(stage), done=done[stage], total=total)
        click.echo(f"\r{line}   ", nl=False, err=True)

    with _training(out):
        path = train_positions(
            preset(rules_name.lower()), out, games=games, seed=seed, jobs=jobs,
            progress=said,
        )  # fmt: skip
    click.echo("\n" + _("Wrote {path}.").format(path=path))


@learn.command(
    "rounds",
    cls=Command,
    help=N_(
        "Learn two-player single rounds by self-play (what the 'learned' bot plays).\n\n"
        "Fixed-strategy iteration CFR+, every pair of dice counts up to --max-dice each, its "
        "players recalling as many of the last bids as fit --recall-budget (the whole history "
        "in the smallest rounds, the last bid in the largest); NumPy only. Deterministic: the "
        "same options give the same file."
    ),
    examples=Examples(
        N_("Example:"),
        (
            "  liarsdice learn rounds --rules snyd-joker --max-dice 5 --out learned",
            "  liarsdice arena --rules snyd-joker --players 2 --dice 3 \\",
            "    --bots learned:net=learned/rounds-snyd-joker-6.npz,expert",
        ),
    ),
)
@_rules_option(ROUND_RULES, N_("The rules of the two-player single rounds to learn."))
@click.option("--faces", type=click.IntRange(2, 6), default=6, show_default=True,
              help=N_("Faces of the dice."))  # fmt: skip
@click.option("--max-dice", type=click.IntRange(1, 5), default=5, show_default=True,
              help=N_("Learn every pair of dice counts up to this, each."))  # fmt: skip
@click.option("--iterations", type=click.IntRange(1), default=1000, show_default=True,
              help=N_("CFR+ iterations of self-play per pair."))  # fmt: skip
@click.option("--recall-budget", type=click.IntRange(1), default=None,
              help=N_("Numbers a player's strategy of a pair may take: each pair recalls as many "
                   "of the last bids as fit [default: 2000000]."))  # fmt: skip
@click.option("--minutes", type=click.FloatRange(0, min_open=True), default=None,
              help=N_("Start no new pair after this long (run again to go on)."))  # fmt: skip
@out_folder_option(
    N_("Folder for the pairs, the checkpoints and rounds-RULES-FACES.npz (run again to resume).")
)
def rounds(
    rules_name: str,
    faces: int,
    max_dice: int,
    iterations: int,
    recall_budget: int | None,
    minutes: float | None,
    out: Path,
) -> None:
    from liarsdice.learn.rounds import RECALL_BUDGET, train_rounds

    def said(dice: tuple[int, int], n: int) -> None:
        done[dice] = done.get(dice, 0) + n
        line = ngettext(
            "dice {dice}: {done} of {total} iteration",
            "dice {dice}: {done} of {total} iterations",
            iterations,
        ).format(dice=f"{dice[0]},{dice[1]}", done=done[dice], total=iterations)
        click.echo(f"\r{line}   ", nl=False, err=True)

    done: dict[tuple[int, int], int] = {}
    rules_name = rules_name.lower()
    with _training(out):
        policies = train_rounds(
            rules_name, faces=faces, max_dice=max_dice, iterations=iterations, folder=out,
            recall_budget=recall_budget or RECALL_BUDGET,
            max_seconds=None if minutes is None else minutes * 60, progress=said,
        )  # fmt: skip
        path = out / f"rounds-{rules_name}-{faces}.npz"
        policies.save(path)
    pairs, total = len(policies.pairs), max_dice**2
    if pairs == total:
        wrote = ngettext(
            "Wrote {path} ({pairs} of {total} pair, all pairs).",
            "Wrote {path} ({pairs} of {total} pairs, all pairs).",
            total,
        )
    else:
        wrote = ngettext(
            "Wrote {path} ({pairs} of {total} pair, stopped early: run again to go on).",
            "Wrote {path} ({pairs} of {total} pairs, stopped early: run again to go on).",
            total,
        )
    click.echo("\n" + wrote.format(path=path, pairs=pairs, total=total))
