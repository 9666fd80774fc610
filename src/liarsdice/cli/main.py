"""The ``liarsdice`` command: a click group; each subcommand lives in its own module."""

from __future__ import annotations

import click

from liarsdice import __version__
from liarsdice.cli.command import LANG_KEY
from liarsdice.i18n import LANGUAGES


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="liarsdice")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    help="Language of the game and the commands' messages (default: from LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG; else English).",
)
@click.pass_context
def cli(ctx: click.Context, lang: str | None) -> None:
    """Liar's Dice: play, replay and study every rule family."""
    if lang is not None:
        ctx.meta[LANG_KEY] = lang.lower()


def _register() -> None:
    from liarsdice.cli.analyse import analyse
    from liarsdice.cli.arena import arena
    from liarsdice.cli.learn import learn
    from liarsdice.cli.play import play
    from liarsdice.cli.replay import replay
    from liarsdice.cli.rules_cmd import rules
    from liarsdice.cli.selfplay import selfplay
    from liarsdice.cli.serve import serve
    from liarsdice.cli.solve import solve
    from liarsdice.cli.verify import verify

    cli.add_command(analyse)
    cli.add_command(arena)
    cli.add_command(learn)
    cli.add_command(play)
    cli.add_command(replay)
    cli.add_command(rules)
    cli.add_command(selfplay)
    cli.add_command(serve)
    cli.add_command(solve)
    cli.add_command(verify)


_register()


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
