"""``--lang`` written where a player writes it: after the command or after ``--help``
(docs/I18N.md), the same as before the command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from liarsdice.cli.main import cli
from test_play_spanish import NO_LOCALE


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--help", "--lang", "es"],
        ["play", "--lang=es", "--help"],
        ["--help", "--lang", "es"],
        ["rules", "perudo", "--lang", "es"],
    ],
)
def test_lang_after_the_command_speaks_spanish(args: list[str]) -> None:
    before = CliRunner().invoke(
        cli, ["--lang", "es", *[a for a in args if "lang" not in a and a != "es"]], env=NO_LOCALE
    )
    after = CliRunner().invoke(cli, args, env=NO_LOCALE)
    assert after.exit_code == 0, after.output
    assert after.output == before.output
    assert ("Uso:" in after.output) or ("Las reglas en juego" in after.output)


def test_an_unknown_language_after_the_command_is_named() -> None:
    result = CliRunner().invoke(cli, ["play", "--lang", "xx"], env=NO_LOCALE)
    assert result.exit_code == 2
    assert "'xx' is not one of 'en', 'es'" in result.output
