"""A new user's walk through the terminal commands: what they found, one test each (hot-seat
scrollback, arena refusals, sentence case and error prefixes, verify's verdict, rules in
words, the arena table, poker-dice prompts, bids in words)."""

from __future__ import annotations

import ast
import io
import json
import random
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from liarsdice.cli.main import cli
from liarsdice.cli.options import build_rules
from liarsdice.cli.session import Seat, Session
from liarsdice.cli.terminal import WIPE
from liarsdice.families import family_of
from liarsdice.families.bidding import BIDDING
from liarsdice.families.poker import POKER
from play_util import play_error, play_out


def hot_seat_output(preset: str, answers: list[str], seed: int = 5) -> str:
    """A hot-seat game (ann, bob, a prob bot; 2 dice each) on a terminal screen: what it
    writes, wipe sequences included."""
    family = family_of(preset)
    rules = build_rules(family, preset, 3, "2" if preset != "poker-dice" else None, None, ())
    seats = [Seat("ann"), Seat("bob"), Seat("prob-1", family.make_bot("prob", random.Random(1)))]
    game = family.new_game(rules, [s.name for s in seats])
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=None, width=100)
    session = Session(family, game, seats, random.Random(seed), console)
    feed: Iterator[str] = iter(answers)

    def read(prompt: str) -> str | None:
        out.write(prompt + "\n")
        return next(feed, None)

    session.read = read  # type: ignore[method-assign]
    session.run()
    return out.getvalue()


@pytest.mark.parametrize(
    ("preset", "answers", "private"),
    [
        ("classic", ["", "liar", "", "1x2", "", "liar"] * 3, "Your dice ({}):"),
        ("poker-dice", ["liar", "junk", "left"] * 40, "Under the cup ({}) (only you see):"),
    ],
)
def test_hot_seat_wipes_screen_and_scrollback_between_players(
    preset: str, answers: list[str], private: str
) -> None:
    out = hot_seat_output(preset, answers)
    for name, other in (("ann", "bob"), ("bob", "ann")):
        start = 0
        handoffs = 0
        while (i := out.find(f"Pass the screen to {other}.", start)) >= 0:
            handoffs += 1
            # What the next player is given: everything since the last wipe before the hand-off.
            # (the first hand-over has nothing to wipe.)
            wiped = max(0, out.rfind(WIPE, 0, i))
            assert private.format(name) not in out[wiped:i]
            start = i + 1
        assert handoffs, f"the game never handed the screen to {other}"
    assert private.format("ann") in out and private.format("bob") in out
    assert "\x1b[3J" in WIPE and "\x1b[2J" in WIPE


def test_play_refuses_a_bot_that_cannot_play_the_rules() -> None:
    out = play_error(["--rules", "classic", "--bots", "nash", "--seed", "1"])
    assert "bot 'nash' (nash-1) cannot play classic with 4 players" in out
    assert "two players" in out and "Round 1" not in out


# ------------------------------------------------------------------ verify: a clear verdict
GOLDEN = Path(__file__).parents[1] / "golden" / "formats"


def server_record(name: str) -> dict[str, Any]:
    """A server game's JSON record with its fair seeds (from the golden files)."""
    text = (GOLDEN / f"server-{name}-record.txt").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text[: text.index("$ liarsdice")])
    return data


@pytest.mark.parametrize("name", ["classic", "poker-dice"])
def test_verify_says_ok_or_failed_and_whose_dice(tmp_path: Path, name: str) -> None:
    record = server_record(name)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    rounds = len(record["rounds"])
    assert result.stdout.startswith(f"OK: {path}: every die of {rounds} rounds re-derived")
    first = record["rounds"][0]
    if name == "classic":  # ann's first die, dealt first
        first["dice"]["ann"] = [6 if d != 6 else 5 for d in first["dice"]["ann"]]
        who = "ann's dice (roll 1 of the round)"
    else:  # the cup ann shook to open the round
        first["roll"] = ["A" if d != "A" else "K" for d in first["roll"]]
        who = "ann's dice (roll 1 of the round)"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("FAILED: round 1, ") and who in lines[0], lines
    assert "do not match the committed seeds: they give outcome" in lines[0]
    assert lines[-1] == f"FAILED: {path}: 1 of {rounds} rounds not proven fair."


# ------------------------------------------------------- sentences and one style of error
@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["play", "--human", "x", "--names", "a,b"], 2),
        (["play", "--option", "nope=1"], 2),
        (["arena", "--bots", "nash,prob"], 2),
        (["rules", "chess"], 2),
        (["solve", "--rules", "classic", "--dice", "1,1"], 2),
        (["replay", "/no/such/file.json"], 1),
        (["verify", "/no/such/file.json"], 1),
        (["analyse", "/no/such/file.json"], 1),
    ],
)
def test_every_command_reports_errors_the_same_way(args: list[str], code: int) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == code, result.output
    said = result.stderr.split("Error: ", 1)
    assert len(said) == 2 and said[1][:1].isupper(), result.stderr
    assert result.stdout == ""


def test_terminal_sentences_start_with_a_capital() -> None:
    out = play_out(["--seed", "3", "--players", "2"], "blah\n3x9\nliar\n1x2\nliar\n" * 3)
    assert "You open." in out and "\nyou open." not in out
    assert "Your move? blah\nCan't read 'blah' as a bid" in out  # (the runner echoes input)
    assert "Your move? 3x9\nFace 9 in '3x9' is out of range" in out
    for line in out.splitlines():
        if line[:1].islower():  # only a player's name (as typed) starts a line in lower case
            assert line.startswith(("prob-1 ", "prob-1's ")), line


# ---------------------------------------------------------------- rules NAME, in words
@pytest.mark.parametrize("name", ["classic", "perudo", "spot-on", "room", "poker-dice"])
def test_rules_name_explains_every_option(name: str) -> None:
    family = family_of(name)
    preset = family.presets[name]
    result = CliRunner().invoke(cli, ["rules", name])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for key, value in preset.options().items():
        head = next(i for i, line in enumerate(lines) if line.startswith(f"  {key} = "))
        said = lines[head + 1]
        assert said.startswith("      ") and said.strip()[:1].isupper(), (key, said)
        assert family.describe_option(key, value).startswith(said.strip())
    # the JSON output is the rules' JSON, as it was
    as_json = CliRunner().invoke(cli, ["rules", name, "--json"])
    assert json.loads(as_json.output) == family.rules_json(preset)


def test_every_rule_option_and_value_has_words() -> None:
    from liarsdice.core.bidding.rules import OPTION_NAMES, OPTIONS
    from liarsdice.core.poker.rules import PokerRules

    assert set(BIDDING.option_help) == OPTION_NAMES
    for name, option in OPTIONS.options.items():
        kind = option.kind
        if isinstance(kind, type) and issubclass(kind, Enum):
            assert set(BIDDING.value_help[name]) == {m.value for m in kind}, name
    assert set(POKER.option_help) == set(PokerRules().options())


# ------------------------------------------------- poker dice: three prompts per accept
def test_poker_accept_takes_one_prompt_each_to_accept_arrange_and_bid() -> None:
    args = ["--rules", "poker-dice", "--players", "3", "--seed", "5"]
    out = play_out(args, "pair 9\nleft\naccept\nout K K K\nfour K\nquit\n")
    turn = out[out.index("Liar or accept? accept") : out.index("You bid four K")]
    prompts = [line.split("? ")[0] for line in turn.splitlines() if "? " in line]
    assert prompts == [
        "Liar or accept",
        "Which dice stay outside the cup (the rest are shaken)",
        "Your bid",
    ]
    assert "You leave K K K outside the cup and 2 dice under it." in turn
    assert "You shake the cup (2 dice re-rolled unseen)." in turn
    # the roll may be said on the same line, or alone (the outside dice then stay put)
    for line, said in [
        ("out K K K, no shake", "You neither shake nor roll."),
        ("no shake", "You leave K K K A outside the cup and 1 die under it."),
    ]:
        out = play_out(args, f"pair 9\nleft\naccept\n{line}\nfour K\nquit\n")
        assert said in out and "Shake, roll, or neither?" not in out


# ------------------------------------------------------- installs: playing apart from testing
ROOT = Path(__file__).parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_play_installs_only_the_runtime_and_make_test_the_dev_tools(tmp_path: Path) -> None:
    def dry(target: str) -> str:
        venv = tmp_path / "venv"
        run = subprocess.run(
            ["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    for target in ("play", "serve"):
        out = dry(target)
        assert "pip install -q -e .\n" in out and "[dev]" not in out
        assert ".installed-runtime" in out and ".installed-dev" not in out
    out = dry("test")
    assert "pip install -q -e '.[dev]'" in out and ".installed-dev" in out
    assert "pytest" in out


def test_runtime_dependencies_cover_what_the_program_imports() -> None:
    """Every third-party module the package imports (but the optional bindings) comes from a
    runtime dependency, and no runtime dependency is there only for the tests."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {re.split(r"[\[<>=]", d)[0].lower() for d in project["dependencies"]}
    found: set[str] = set()
    for path in (ROOT / "src" / "liarsdice").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    third_party = found - set(sys.stdlib_module_names) - {"liarsdice"}
    optional = {
        "pyspiel",
        "open_spiel",
        "pettingzoo",
        "gymnasium",
        "asyncpg",
        "ray",
        "jax",
    }  # extras
    optional.add("babel")  # the catalogues' build (liarsdice.i18n.build): a dev tool
    distribution = {
        "prometheus_client": "prometheus-client",
        "confusable_homoglyphs": "confusable-homoglyphs",
        "starlette": "fastapi",  # FastAPI is built on it
    }
    needed = {distribution.get(m, m) for m in third_party - optional}
    assert needed <= runtime, needed - runtime
    test_only = {"pytest", "hypothesis", "httpx", "playwright", "ruff", "mypy"}
    assert not runtime & test_only
