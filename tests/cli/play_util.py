"""Helpers of the play-CLI tests: ``liarsdice play`` run in-process through click's CliRunner."""

from __future__ import annotations

from click.testing import CliRunner, Result

from liarsdice.cli.play import play


def run_play(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(play, args, input=text)


def play_out(args: list[str], text: str = "") -> str:
    """The output of a game that ends normally (exit 0, no traceback)."""
    result = run_play(args, text)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def play_error(args: list[str]) -> str:
    """The output of a command line that is refused (a usage error, exit 2)."""
    result = run_play(args)
    assert result.exit_code == 2, result.output
    return result.output


def finished(out: str) -> bool:
    return "wins the game!" in out or "You win the game!" in out


def unsaid(out: str, *messages: str) -> list[str]:
    """The messages ``out`` does not say (none when it says them all)."""
    return [m for m in messages if m not in out]
