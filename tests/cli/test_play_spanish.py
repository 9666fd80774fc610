"""``liarsdice --lang es play``: a whole game in Spanish, in both families, and the language
chosen from the environment (docs/I18N.md)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

from liarsdice.cli.main import cli
from liarsdice.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR

pytest.importorskip("babel")  # the .po files are read to find English left in the output

from liarsdice.i18n.build import read_catalog

NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def run(args: list[str], text: str, **env: str | None) -> Result:
    result = CliRunner().invoke(cli, args, input=text, env={**NO_LOCALE, **env})
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def english_sentences() -> set[str]:
    """The English of every translated message, as the parts between its placeholders that
    are sentences (three words or more): none may be left in a Spanish game."""
    parts: set[str] = set()
    for domain in DOMAINS:
        for lang in LANGUAGES:
            if lang == DEFAULT or not (LOCALE_DIR / lang).exists():
                continue
            for message in read_catalog(domain, lang):
                msgids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
                strings = (
                    message.string
                    if isinstance(message.string, (list, tuple))
                    else [message.string]
                )
                for msgid in msgids:
                    if not msgid or msgid in strings:
                        continue
                    for part in re.split(r"\{[a-z_]*\}|\[/?[a-z ]+\]", msgid):
                        words = re.findall(r"[A-Za-z']+", part)
                        if len(words) >= 3 and not any(part.strip() in s for s in strings):
                            parts.add(part.strip())
    return parts


def leftover_english(out: str) -> list[str]:
    """English sentences of the catalogue in ``out``, but in quotes: what a player types
    ('a pair of kings': poker hands are read in English words) is notation."""
    said = re.sub(r"'[^'\n]*'", "''", out)
    return sorted(p for p in english_sentences() if p in said)


BIDDING = "ayuda\npista\nestado\n\n" + "dudo\ntres cincos\ncalzo\n" * 150
POKER = "ayuda\npista\n\n" + "dudo\nfive A\nizquierda\nacepto\nout none\nkeep none\n" * 150


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--rules", "perudo", "--players", "3", "--seed", "7", "--hints"], BIDDING),
        (["--rules", "classic", "--players", "3", "--seed", "8", "--bots", "random"], BIDDING),
        (["--rules", "poker-dice", "--players", "3", "--seed", "9", "--hints"], POKER),
    ],
)
def test_a_whole_game_in_spanish(args: list[str], text: str) -> None:
    out = run(["--lang", "es", "play", *args], text).output
    assert "=== Ronda 1 ===" in out
    assert "¿Tu " in out  # the prompts, capitalized after the ¿
    assert "Comandos" in out  # the in-game help
    assert "Tus dados" in out or "Tu mano" in out
    assert "gana la partida!" in out or "ganas la partida!" in out  # played to the end
    assert "Clasificación final: 1." in out
    assert leftover_english(out) == []


def test_spanish_words_are_read_as_moves() -> None:
    """A bid in Spanish words, the Perudo calls (dudo, calzo) and the commands in Spanish;
    the English inputs still work in a Spanish game."""
    args = ["--lang", "es", "play", "--rules", "perudo", "--players", "2", "--seed", "3"]
    out = run(args, "un dos\ntres cincos\nsalir\n").output
    assert "apuestas 1x2 (un dos)." in out or "apuestas 3x5 (tres cincos)." in out
    assert "Partida abandonada." in out
    out = run(args, "veintiún cincos\n3 x 5\nliar\ndudo\nquit\n").output
    assert "21x5 necesita más dados que los 10 en juego" in out
    assert "Partida abandonada." in out


def test_the_language_comes_from_the_environment() -> None:
    args = ["play", "--rules", "classic", "--players", "2", "--seed", "1"]
    assert "Partida abandonada." in run(args, "salir\n", LANG="es_ES.UTF-8").output
    assert "Partida abandonada." in run(args, "quit\n", LANGUAGE="es", LANG="C.UTF-8").output
    assert "Game abandoned." in run(args, "quit\n", LC_ALL="C", LANG="es_ES.UTF-8").output
    assert "Game abandoned." in run(args, "quit\n").output  # nothing set: English
    assert "Game abandoned." in run(args, "quit\n", LANG="fr_FR.UTF-8").output
    # --lang wins over the environment
    assert "Game abandoned." in run(["--lang", "en", *args], "quit\n", LANG="es_ES").output
    assert "Partida abandonada." in run(["--lang", "es", *args], "quit\n", LANG="en_US").output


def test_command_errors_in_spanish() -> None:
    result = CliRunner().invoke(cli, ["--lang", "es", "play", "--bots", "nope"], env=NO_LOCALE)
    assert result.exit_code == 2
    assert "bot desconocido 'nope'" in result.output
