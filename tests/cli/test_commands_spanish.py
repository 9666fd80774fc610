"""Every command's own text in Spanish with ``--lang es`` (docs/I18N.md): the ``--help`` of
every command and option, click's words and its checks, the operating system's reasons, the
research bots' and the solver's, the arena's table, ``solve``'s and ``learn``'s output; and
English as it was."""

from __future__ import annotations

import errno
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from liarsdice.cli.click_text import help_text
from liarsdice.cli.main import cli
from liarsdice.cli.reasons import BOT_REFUSALS, SOLVER_ERRORS, Sentences, os_reason
from liarsdice.cli.serve import bind
from liarsdice.i18n import using
from test_play_spanish import NO_LOCALE, leftover_english

WIDE = {"terminal_width": 10_000, "max_content_width": 10_000}  # help paragraphs on one line


def invoke(args: list[str], **env: str | None) -> Result:
    return CliRunner().invoke(cli, args, env={**NO_LOCALE, **env}, prog_name="liarsdice", **WIDE)


def commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every command and group under ``group`` (the group itself first)."""
    yield path
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name)


def command_at(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return command


def english_helps(command: click.Command) -> list[str]:
    """The English help of a command and of each of its options."""
    texts = [command.help or ""] + [
        p.help for p in command.params if isinstance(p, click.Option) and p.help
    ]
    return [help_text(t) for t in texts if t]


PATHS = list(commands(cli))


def test_every_command_is_listed() -> None:
    assert ("play",) in PATHS and ("learn", "rounds") in PATHS and () in PATHS
    assert len(PATHS) == 13


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "liarsdice")
def test_every_help_in_spanish(path: tuple[str, ...]) -> None:
    result = invoke(["--lang", "es", *path, "--help"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Uso: liarsdice") and "\nOpciones:\n" in out
    assert "Muestra este mensaje y termina." in out
    for english in english_helps(command_at(path)):
        with using("es"):
            spanish = help_text(english)
        assert spanish != english, f"untranslated help: {english!r}"
        for paragraph in spanish.split("\n\n"):
            assert paragraph in out, paragraph
        for paragraph in english.split("\n\n"):
            assert paragraph not in out, paragraph
    for word in ("Usage:", "Options:", "Commands:", "[default:", "[required]", "[OPTIONS]"):
        assert word not in out
    assert not re.search(r"\b(TEXT|INTEGER|FLOAT|PATH|FILE|NAME|SECONDS)\b", out), out
    assert leftover_english(out) == []


def test_help_in_spanish_from_the_environment_and_in_english_as_before() -> None:
    said = invoke(["arena", "--help"], LANG="es_ES.UTF-8").output
    assert "Enfrenta a los bots entre sí, rotando los asientos, y puntúalos." in said
    assert "  Ejemplo:\n    liarsdice arena --rules classic --players 4" in said
    assert "--games ENTERO" in said and "[por defecto: 100; x>=1]" in said
    english = invoke(["arena", "--help"]).output
    assert english.startswith("Usage: liarsdice arena [OPTIONS]\n")
    assert "  Example:\n    liarsdice arena --rules classic --players 4" in english
    assert "--games INTEGER RANGE" in english and "[default: 100; x>=1]" in english
    assert "See docs/ARENA.md for the statistics and the --think convention" in english
    for path in (("play",), ("learn", "positions"), ("serve",)):
        out = invoke([*path, "--help"]).output
        assert "Show this message and exit." in out
        for text in english_helps(command_at(path)):
            assert text.split("\n\n")[0] in out
    top = invoke(["--help"]).output
    assert "Commands:\n  analyse   Analyse the game in the record FILE" in top


def test_the_commands_listed_with_their_help_in_spanish() -> None:
    out = invoke(["--lang", "es", "--help"]).output
    assert "Comandos:" in out and "arena     Enfrenta a los bots entre sí" in out
    assert "COMANDO [ARGS]..." in out
    assert "liarsdice, versión " in invoke(["--lang", "es", "--version"]).output


# ------------------------------------------------------------------------ click's own checks
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["play", "--players", "1"],
            "Valor no válido para '--players': 1 no está en el rango 2<=x<=12.",
        ),
        (
            ["play", "--seed", "x"],
            "Valor no válido para '--seed': 'x' no es un número entero válido.",
        ),
        (["play", "--nmes", "a,b"], "No existe la opción '--nmes'. (¿Querías decir una de estas: "),
        (["analyse", "--jsn", "x"], "No existe la opción '--jsn'. ¿Querías decir '--json'?"),
        (["play", "--delay"], "La opción '--delay' necesita un argumento."),
        (["analyse"], "Falta el argumento 'ARCHIVO'."),
        (["learn", "rounds"], "Falta la opción '--out'."),
        (["solve", "--algorithm", "x"], "Valor no válido para '--algorithm': 'x' no es ninguno de"),
        (["chess"], "No existe el comando 'chess'."),
        (["replay", "/"], "Valor no válido para 'ARCHIVO': El archivo '/' es una carpeta."),
    ],
)
def test_clicks_errors_in_spanish(args: list[str], said: str) -> None:
    result = invoke(["--lang", "es", *args])
    assert result.exit_code == 2, result.output
    assert f"Error: {said}" in result.output, result.output
    english = invoke(args).output
    assert "Error: " in english and said not in english
    framed = english.startswith("Usage: liarsdice")  # as click frames it (not every error)
    assert result.output.startswith("Uso: liarsdice") == framed
    assert ("Prueba 'liarsdice" in result.output) == framed


def test_a_click_error_in_english_as_before() -> None:
    out = invoke(["play", "--players", "1"]).output
    assert "Error: Invalid value for '--players': 1 is not in the range 2<=x<=12." in out


# ------------------------------------------------------------------ the operating system's
def test_os_errors_in_spanish(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.json")
    out = invoke(["--lang", "es", "analyse", missing]).output
    assert f"Error: No se puede leer {missing}: no existe el archivo o la carpeta" in out
    assert "Errno" not in out and "No such file" not in out
    assert "No such file or directory" in invoke(["analyse", missing]).output
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe{}")
    out = invoke(["--lang", "es", "verify", str(binary)]).output
    assert "no es texto UTF-8 (byte 0xff en la posición 0)" in out, out
    assert "is not UTF-8 text (byte 0xff at position 0)" in invoke(["verify", str(binary)]).output


@pytest.mark.parametrize(
    ("error", "spanish"),
    [
        (PermissionError(errno.EACCES, "Permission denied"), "permiso denegado"),
        (IsADirectoryError(errno.EISDIR, "Is a directory"), "es una carpeta"),
        (OSError(errno.ENOSPC, "No space left on device"), "no queda espacio en el dispositivo"),
        (OSError(errno.EBADF, "Bad file descriptor"), "Bad file descriptor"),  # not in the table
    ],
)
def test_os_reasons(error: OSError, spanish: str) -> None:
    with using("es"):
        assert os_reason(error) == spanish
    assert os_reason(error) == error.strerror  # English: the system's own words


def test_a_busy_port_in_spanish() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        with using("es"), pytest.raises(click.ClickException) as info:
            bind("127.0.0.1", port)
        assert info.value.message.startswith(f"el puerto {port} de 127.0.0.1 ya está en uso")
    finally:
        taken.close()


# ----------------------------------------------------------------- the bots and the solver
def test_the_bots_refusals_in_spanish() -> None:
    out = invoke(["--lang", "es", "play", "--rules", "classic", "--bots", "nash"]).output
    assert "el bot 'nash' (nash-1) no puede jugar a classic con 4 jugadores: solo juega" in out
    assert "a 'classic' le falta: dos jugadores, scoring=single-round, que abra el jugador 0" in out
    out = invoke(["--lang", "es", "arena", "--bots", "learned,prob", "--games", "1"]).output
    assert "Error: El bot 'learned' no puede jugar a classic con 4 jugadores: no hay" in out
    assert leftover_english(out) == []
    english = invoke(["play", "--rules", "classic", "--bots", "nash"]).output
    assert "it plays only what the exact solver solves: the exact solver needs" in english


def test_sentences_match_whole_reasons_only() -> None:
    with using("es"):
        assert BOT_REFUSALS.say("they cover up to 5 dice each") == "cubren hasta 5 dados cada uno"
        assert BOT_REFUSALS.say("they cover it all") == "they cover it all"
        said = SOLVER_ERRORS.say("'snyd-normal' ranks 6 faces; keep --faces 6")
        assert said == "'snyd-normal' ordena 6 caras; deja --faces 6"
        # the same placeholder twice stands for the same text
        assert SOLVER_ERRORS.say("'x' ranks 6 faces; keep --faces 5").startswith("'x' ranks")
    table = Sentences(("{a} and {b}",), parts={"b": str.upper})
    assert table.say("x and y") == "x and Y"


# ------------------------------------------------------------------- the commands' reports
def test_solve_in_spanish() -> None:
    result = invoke(["--lang", "es", "solve", "--rules", "openspiel", "--dice", "1,1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("openspiel: dados 1,1, 6 caras, 12 apuestas, 4,096 nodos públicos")
    assert re.match(r"iter +1 +[0-9.]+s  explotabilidad \S+  valor [-+]", lines[1])
    assert (
        lines[-1].startswith("valor ") and " para el primer jugador, explotabilidad " in lines[-1]
    )
    english = invoke(["solve", "--rules", "openspiel", "--dice", "1,1"]).output.splitlines()
    assert english[0].startswith("openspiel: dice 1,1, 6 faces, 12 bids, 4,096 public nodes; ")
    assert (
        english[-1].startswith("value ") and "for the first player, exploitability" in english[-1]
    )
    out = invoke(["--lang", "es", "solve", "--dice", "x"]).output
    assert "Error: Valor no válido para --dice: 'x': da los dados por jugador" in out


def test_arena_table_in_spanish() -> None:
    args = ["arena", "--players", "2", "--bots", "prob,random", "--games", "2", "--quiet"]
    out = invoke(["--lang", "es", *args]).output
    for heading in ("bot", "part.", "vict.", "% vict. (IC 95%)", "puesto", "Elo", "errores"):
        assert f" {heading} " in out or f"┃{heading} " in out, heading
    assert "ms media/p50/máx" in out and "(ganó todas)" in out
    assert leftover_english(out) == []
    english = invoke(args).output
    assert "win % (95% CI)" in english and "ms mean/p50/max" in english and "(won all)" in english


def test_learn_in_spanish(tmp_path: Path) -> None:
    args = ["learn", "rounds", "--rules", "openspiel", "--faces", "3", "--max-dice", "1"]
    out = tmp_path / "learned"
    result = invoke(["--lang", "es", *args, "--iterations", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "dados 1,1: 5 de 5 iteraciones" in result.output
    assert "rounds-openspiel-3.npz (1 de 1 pareja, todas las parejas)." in result.output
    again = invoke(["--lang", "es", *args, "--iterations", "6", "--out", str(out)])
    assert again.exit_code == 2
    assert "tiene una ejecución con otros ajustes (iterations): usa otra carpeta" in again.output
