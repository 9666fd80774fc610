"""``liarsdice play``: a game in plain lines, for terminals, pipes and screen readers.

Every line the game prints is plain text (colour only on a terminal), and every answer is one
line read from standard input, so a whole game can be piped in. One or more humans (hot-seat)
play against bots; a seed makes the game, dice and bots alike, reproducible. Any preset of any
rule family: the family (:func:`~liarsdice.families.family_of`) builds the rules, the game and
the bots, and its terminal parts the text (``liarsdice.cli.session`` runs the game).

>>> seat_plan(2, None, None, ["ann", "bob"], "prob", False, ("random", "prob"))
[('ann', None), ('bob', None)]
>>> seat_plan(3, None, None, [], "random,prob", False, ("random", "prob"))
[('you', None), ('random-1', 'random'), ('prob-2', 'prob')]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console

from liarsdice.cli.click_text import filled
from liarsdice.cli.command import Command
from liarsdice.cli.options import (
    bot_list,
    bots_option,
    build_rules,
    repeatable_option,
    rule_changes_option,
    rules_option,
    size_options,
)
from liarsdice.cli.paths import writable_file
from liarsdice.cli.reasons import BOT_REFUSALS
from liarsdice.cli.session import Seat, Session
from liarsdice.core import LiarsDiceError
from liarsdice.families import family_of
from liarsdice.families.terminal import rules_error_text
from liarsdice.i18n import N_, _

__all__ = ["WATCH_DELAY", "play", "seat_plan"]

WATCH_DELAY = 1.0  # seconds between bot moves when watching on a terminal (--delay)


def seat_plan(
    default_players: int,
    players: int | None,
    names: str | None,
    humans: Sequence[str],
    bots: str,
    watch: bool,
    known_bots: Sequence[str],
) -> list[tuple[str, str | None]]:
    """Every seat as ``(name, bot kind)``, the kind None for a human (``known_bots``: the
    family's bot levels)."""
    kinds = bot_list(bots)
    for k in kinds:
        if k not in known_bots:
            raise click.BadParameter(
                _("unknown bot {bot}; bots: {bots}").format(
                    bot=repr(k), bots=", ".join(known_bots)
                ),
                param_hint="--bots",
            )
    human_names = [] if watch else (list(humans) or ["you"])
    if names:
        seat_names = [n.strip() for n in names.split(",")]
        if players is not None and players != len(seat_names):
            raise click.UsageError(
                _("--names lists {count} players but --players is {players}").format(
                    count=len(seat_names), players=players
                )
            )
        if not humans and not watch:
            human_names = seat_names[:1]
        missing = [h for h in human_names if h not in seat_names]
        if missing:
            raise click.UsageError(
                _("human {name} is not one of --names").format(name=repr(missing[0]))
            )
    else:
        count = players if players is not None else max(default_players, len(human_names))
        if count < len(human_names):
            raise click.UsageError(
                _("{count} humans need at least {count} players").format(count=len(human_names))
            )
        seat_names = list(human_names)
        for i in range(count - len(human_names)):
            seat_names.append(f"{kinds[i % len(kinds)]}-{i + 1}")
    plan: list[tuple[str, str | None]] = []
    bot_index = 0
    for n in seat_names:
        if n in human_names:
            plan.append((n, None))
        else:
            plan.append((n, kinds[bot_index % len(kinds)]))
            bot_index += 1
    return plan


@click.command(
    "play",
    cls=Command,
    help=N_(
        "Play Liar's Dice against bots, or hot-seat with friends, one line at a time.\n\n"
        "Type bids as 3x5, '3 5' or 'three fives'; 'liar' to challenge; 'help' for the rest. "
        "With --rules poker-dice, bid poker hands ('pair K', 'a pair of kings'). With --watch "
        "the bots play each other, one move a second on a terminal (--delay to change it)."
    ),
)
@rules_option(N_("Rule preset (see 'liarsdice rules'); 'poker-dice' plays the poker-dice family."))
@size_options(N_("Number of players."))
@click.option("--seed", type=int, help=N_("Seed for the dice and the bots (reproducible games)."))
@rule_changes_option()
@bots_option("prob", N_("Bot kinds for the other seats, comma-separated, cycled ({bots})."))
@repeatable_option(
    "--human",
    "humans",
    "NAME",
    N_("A human player (repeat for hot-seat play). Default: one human called 'you'."),
)
@click.option("--names", help=N_("Every seat's name in order, comma-separated."))
@click.option(
    "--save",
    type=click.Path(path_type=Path),
    callback=writable_file,
    help=N_("Save the record (the path is checked before the game starts)."),
)
@click.option("--hints", is_flag=True, help=N_("Show the odds of the current bid and your raises."))
@click.option("--watch", is_flag=True, help=N_("No humans: watch the bots play."))
@click.option(
    "--think",
    type=click.FloatRange(0.001, 60),
    help=N_("Seconds per move for the expert bots (default: theirs)."),
)
@click.option(
    "--delay",
    type=click.FloatRange(0, 60),
    metavar="SECONDS",
    help=filled(
        N_(
            "Pause after each bot move; 0 for none (default: {seconds} with --watch on a "
            "terminal, else 0)."
        ),
        seconds=f"{WATCH_DELAY:g}",
    ),
)
def play(
    rules_name: str,
    players: int | None,
    dice: str | None,
    faces: int | None,
    seed: int | None,
    options: tuple[str, ...],
    bots: str,
    humans: tuple[str, ...],
    names: str | None,
    save: Path | None,
    hints: bool,
    watch: bool,
    think: float | None,
    delay: float | None,
) -> None:
    family = family_of(rules_name)
    if names:
        players = players if players is not None else len(names.split(","))
    rules = build_rules(family, rules_name, players, dice, faces, options)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    plan = seat_plan(rules.players, players, names, humans, bots, watch, tuple(family.bots))
    seats = [
        Seat(n)
        if kind is None
        else Seat(n, family.make_bot(kind, random.Random(f"{seed}:bot:{i}"), think=think))
        for i, (n, kind) in enumerate(plan)
    ]
    if len(seats) != rules.players:
        rules = build_rules(family, rules_name, len(seats), dice, faces, options)
    try:
        game = family.new_game(rules, [s.name for s in seats])
    except LiarsDiceError as e:
        raise click.UsageError(rules_error_text(str(e))) from None
    for name, kind in plan:
        why = None if kind is None else family.make_bot(kind, random.Random(0)).cannot_play(game)
        if why is not None:
            raise click.BadParameter(
                _("bot {bot} ({name}) cannot play {rules} with {players} players: {why}").format(
                    bot=repr(kind),
                    name=name,
                    rules=rules.name,
                    players=len(seats),
                    why=BOT_REFUSALS.say(why),
                ),
                param_hint="--bots",
            )
    console = Console(highlight=False, soft_wrap=True, emoji=False)
    if delay is None:  # watching on a screen: a pace people can follow; piped: no waiting
        delay = WATCH_DELAY if watch and console.is_terminal else 0.0
    session = Session(
        family, game, seats, random.Random(seed), console, hints=hints, save=save, delay=delay
    )
    prompts = any(s.human for s in seats)
    session.say_all(session.text.banner(seed, prompts=prompts, notes=family.rules_notes(rules)))
    code = session.run()
    if code:
        raise SystemExit(code)
