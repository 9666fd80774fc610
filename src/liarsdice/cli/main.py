"""The ``liarsdice`` command: a click group; each subcommand lives in its own module."""

from __future__ import annotations

from typing import Any

import click

from liarsdice import __version__
from liarsdice.cli.command import LANG_KEY, Group, language
from liarsdice.i18n import LANGUAGES, N_, _, using


def _set_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--lang``: the language of everything after it, ``--help`` included (it is eager)."""
    if value is not None:
        ctx.meta[LANG_KEY] = value.lower()


def _show_version(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if not value or ctx.resilient_parsing:
        return
    with using(language(ctx)):
        click.echo(
            _("{program}, version {version}").format(program="liarsdice", version=__version__)
        )
    ctx.exit()


@click.group(
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_("Liar's Dice: play, replay and study every rule family."),
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help=N_("Show the version and exit."),
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    expose_value=False,
    is_eager=True,
    callback=_set_language,
    help=N_(
        "Language of the game and the commands' messages (default: from LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG; else English)."
    ),
)
def cli() -> None:
    pass


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
