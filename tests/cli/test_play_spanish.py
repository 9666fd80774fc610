"""``liarsdice --lang es play``: a whole game in Spanish, in both families, and the language
chosen from the environment (docs/I18N.md)."""

from __future__ import annotations

import re
from pathlib import Path

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


# ------------------------------------------------------ every command in Spanish (issue 40)
GOLDEN = Path(__file__).parents[1] / "golden" / "formats"


def spanish(args: list[str], code: int = 0) -> str:
    """What ``liarsdice --lang es ARGS`` prints (standard output and error), with no English
    sentence of the catalogues in it."""
    result = CliRunner().invoke(cli, ["--lang", "es", *args], env=NO_LOCALE)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert leftover_english(result.output) == [], result.output
    return result.output


def test_rules_in_spanish() -> None:
    listing = spanish(["rules"])
    assert "classic: El juego de siempre" in listing and "(las opciones por defecto)" in listing
    said = spanish(["rules", "perudo", "--option", "dice=3"])
    assert "Las reglas en juego:" in said and "Todas las opciones:" in said
    assert "empieza con 3 dados" in said and "5 dados" not in said
    assert "Cuántos asientos tiene una partida por defecto" in said  # every option's sentence
    assert "dice = 3  (cambiada)" in said


@pytest.mark.parametrize("name", ["record-perudo-16", "record-poker-dice-22"])
def test_replay_and_analyse_in_spanish(name: str) -> None:
    path = str(GOLDEN / f"{name}.json")
    replayed = spanish(["replay", path])
    assert replayed.startswith("Ronda 1: ") and "Ganador: " in replayed
    assert "abre la siguiente" in replayed or "fin de la partida" in replayed
    analysed = spanish(["analyse", path])
    assert analysed.startswith("Análisis (") and "\nJugadores\n" in analysed
    assert "pérdida media" in analysed and "decisiones" in analysed


def test_verify_and_errors_in_spanish(tmp_path: Path) -> None:
    text = (GOLDEN / "server-classic-record.txt").read_text(encoding="utf-8")
    path = tmp_path / "game.json"
    path.write_text(text[: text.index("$ liarsdice")], encoding="utf-8")
    assert spanish(["verify", str(path)]).startswith(f"OK: {path}: todos los dados de ")
    assert "No se puede leer" in spanish(["replay", str(tmp_path / "none.json")], code=1)
    for args, said in [
        (["play", "--option", "dice=x"], "la opción dice admite un número entero o una lista"),
        (["play", "--option", "wilds=2"], "opción de reglas desconocida 'wilds'"),
        (["play", "--players", "3", "--option", "dice=31"], "dice tiene que ser de 1 a 30"),
        (["play", "--rules", "chess"], "reglas desconocidas 'chess'; modalidades: classic"),
        (["play", "--bots", "prob,,"], "la entrada 2 de 'prob,,' está vacía"),
        (["rules", "poker-dice", "--option", "lives=0"], "lives tiene que ser de 1 a 99"),
    ]:
        out = spanish(args, code=2)
        assert said in out.lower(), out
        assert out.startswith("Uso: ") and "\nError: " in out
