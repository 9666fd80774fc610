"""Tests for ``liarsdice play`` (the bidding family's own) and ``liarsdice rules``; what every
family shares is tested once in ``test_play_families.py``."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice.cli.play import play
from liarsdice.cli.rules_cmd import rules
from liarsdice.cli.session import Session
from liarsdice.core.bidding import PRESETS, Bid, Game, Rules, preset
from liarsdice.families import load_record
from liarsdice.families.bidding import BIDDING
from liarsdice.families.bidding.terminal import parse_command
from play_util import finished, play_error, play_out, unsaid

# Alternating a call and the lowest bid always makes progress: "liar" is refused only on an
# opening (then "1x2" opens), and "1x2" is refused only when a bid stands (then "liar" calls).
PROGRESS = "\n".join(["liar", "1x2"] * 300) + "\n"


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "perudo", "--players", "3"],
        ["--rules", "milton-bradley", "--players", "3"],
        ["--rules", "spot-on", "--option", "stash=open", "--option", "economy=chips"],
        ["--rules", "spot-on", "--option", "economy=rich-man", "--option", "drinking=true"],
        ["--rules", "room"],
        ["--rules", "openspiel"],
        ["--rules", "house-rules", "--players", "2", "--dice", "3"],
    ],
)
def test_piped_games_in_other_rules(args: list[str]) -> None:
    out = play_out(["--seed", "4", *args], PROGRESS)
    assert finished(out) and "Reveal of round 1:" in out


def test_bad_input_gets_a_clear_message_and_a_new_prompt() -> None:
    lines = [
        "liar",  # no bid yet
        "blah",
        "99x3",
        "3x9",
        "show 6 6",
        "buy",
        "ask turn",
        "pass",
        "",
        "1x2",  # the opening bid: the bot raises it
        "1x2",  # now too low
        "quit",
    ]
    out = play_out(
        ["--seed", "2", "--players", "2", "--option", "first_opener=given"], "\n".join(lines)
    )
    said = [
        "there is no bid to call yet: make the opening bid",
        "Can't read 'blah' as a bid",
        "Not allowed: 99x3 needs more dice than the 10 in play.",
        "Face 9 in '3x9' is out of range",
        "Show-and-reroll is not part of these rules",
        "Not allowed: buying dice is not part of these rules",
        "It is your turn. (Questions are free in these rules.)",
        "There is no passing",
        "You bid 1x2 (one two).",
        "Not allowed: 1x2 does not beat",
        "least legal bids:",
    ]
    assert unsaid(out, *said) == []
    assert "Game abandoned." in out


def test_house_rule_questions_cost_a_die() -> None:
    args = ["--seed", "1", "--players", "2", "--rules", "house-rules"]
    out = play_out(args, "ask turn\nask how many\n" + PROGRESS)
    assert "It is your turn. Asking costs you a die at the end of this round." in out
    assert "10 dice are in play. Asking costs you a die" in out
    first_reveal = out[out.index("Reveal of round 1:") : out.index("Round 2")]
    assert "(2 for asking questions" in first_reveal


def test_a_saved_record_has_the_bids_as_typed(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    play_out(["--seed", "5", "--save", str(path), "--option", "first_opener=given"], "2x3\nquit\n")
    record = load_record(path.read_text(encoding="utf-8"))
    assert record["rounds"][0]["moves"][0] == {"player": "you", "bid": "2x3"}


def test_hints_show_odds() -> None:
    out = play_out(
        ["--seed", "6", "--hints", "--option", "first_opener=given"], "2x3\nhint\nquit\n"
    )
    assert "Your least raise on each face" in out
    assert "The prob bot would play:" in out
    assert "Odds: the current bid" in out


def test_show_and_reroll_input() -> None:
    seed = 8
    args = ["--seed", str(seed), "--rules", "milton-bradley", "--names", "bot,you"]
    args += ["--human", "you", "--option", "first_opener=given"]
    rules = preset("milton-bradley", players=2, first_opener="given")
    hand = (
        Game(rules, ["bot", "you"]).new_initial_state().resolve_chance(random.Random(seed)).hand(1)
    )
    show = " ".join(map(str, hand[:2]))
    too_many = " ".join([str(hand[0])] * 5)
    everything = " ".join(map(str, hand))
    lines = ["show 9", f"show {too_many}", f"show {everything}", f"show {show}", "liar", "10x6"]
    lines.append("quit")
    out = play_out(args, "\n".join(lines) + "\n")
    said = [
        "There is no face 9",
        "You can only show dice you hold hidden",
        "Keep at least one die hidden to re-roll.",
        f"You show {show} and re-roll 3 dice.",
        "after showing and re-rolling you must raise the bid",
        "You bid 10x6 (ten sixes).",
    ]
    assert unsaid(out, *said) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "nope=1"], "Unknown rule option"),
        (["--option", "wild"], "is not name=value"),
        (["--rules", "nope"], "nope"),
        (["--rules", "openspiel", "--faces", "4"], "Wild must be"),
        (["--names", "a,b", "--players", "3"], "--names lists 2 players"),
        (["--human", "x", "--names", "a,b"], "Human 'x' is not one of --names"),
        (["--names", "a,a"], "distinct"),
    ],
)
def test_bad_options(args: list[str], message: str) -> None:
    assert message in play_error(args)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3x5", ("bid", Bid(3, 5))),
        ("  Three FIVES! ", ("bid", Bid(3, 5))),
        ("liar", ("liar", None)),
        ("spot on", ("exact", None)),
        ("show 6, 6", ("show", (6, 6))),
        ("no", ("no-show", None)),
        ("ask whose turn", ("ask", "turn")),
        ("three wilds", ("bid", Bid(3, 1))),
        ("Odds", ("hint", None)),
        ("ask weather", "error"),
        ("show six", "error"),
        ("\x00", "error"),
    ],
)
def test_parse_command(text: str, expected: object) -> None:
    kind_and_arg = parse_command(text, faces=6, wild=1)
    assert (kind_and_arg[0] if expected == "error" else kind_and_arg) == expected


# ------------------------------------------------------------------------------- rules


def test_rules_lists_every_preset() -> None:
    result = CliRunner().invoke(rules, [])
    assert result.exit_code == 0
    for name, r in PRESETS.items():
        assert f"{name}: {BIDDING.description(r)}" in result.output
    assert "ordering=perudo" in result.output and "palifico=true" in result.output


def test_rules_shows_one_preset() -> None:
    result = CliRunner().invoke(rules, ["perudo"])
    assert result.exit_code == 0
    assert "palifico" in result.output and "calza" in result.output
    for option in PRESETS["perudo"].options():
        assert f"  {option} " in result.output
    bad = CliRunner().invoke(rules, ["nope"])
    assert bad.exit_code == 2 and "Unknown rules 'nope'" in bad.output


def test_rules_json_round_trips() -> None:
    result = CliRunner().invoke(rules, ["--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == set(PRESETS)
    for name, options in data.items():
        assert options.pop("description") == BIDDING.description(PRESETS[name])
        assert Rules(**options) == PRESETS[name]
    one = json.loads(CliRunner().invoke(rules, ["room", "--json"]).output)
    del one["description"]
    assert one["face_order"] == [2, 3, 4, 5, 6, 1] and Rules(**one) == PRESETS["room"]


def test_main_group_has_the_commands() -> None:
    pytest.importorskip("liarsdice.cli.replay")
    from liarsdice.cli.main import cli

    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0 and "classic:" in result.output
    result = CliRunner().invoke(cli, ["play", "--seed", "1", "--watch", "--players", "2"])
    assert result.exit_code == 0 and "wins the game!" in result.output


# ------------------------------------------- files written and bots named (issue 40, point 9)
@pytest.mark.parametrize(
    ("where", "why"),
    [
        ("missing/x.json", "the folder {tmp}/missing does not exist"),
        (".", "is a folder, not a file"),
    ],
)
def test_save_is_checked_before_the_game(tmp_path: Path, where: str, why: str) -> None:
    path = tmp_path / where
    result = CliRunner().invoke(play, ["--seed", "1", "--save", str(path)], input="3x4\nquit\n")
    assert result.exit_code == 2, result.output
    assert "Round 1" not in result.output  # refused before the game, not after it
    assert "Error: Invalid value for '--save': cannot write " in result.stderr
    assert str(path) in result.stderr and why.format(tmp=tmp_path) in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_save_into_a_folder_that_cannot_be_written(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o500)
    result = CliRunner().invoke(play, ["--save", str(folder / "x.json")])
    assert result.exit_code == 2 and "is not writable" in result.stderr


def test_a_save_that_fails_at_the_end_is_an_error(tmp_path: Path) -> None:
    """The path was fine at the start, but the folder is gone when the game ends."""
    folder = tmp_path / "games"
    folder.mkdir()
    args = ["--watch", "--players", "2", "--dice", "1", "--seed", "4"]
    said: list[str] = []
    original = Session.run

    def run_then_remove(self: Session) -> int:
        folder.rmdir()  # after the check, before the game's record is written
        said.append("removed")
        return original(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Session, "run", run_then_remove)
        result = CliRunner().invoke(play, [*args, "--save", str(folder / "x.json")])
    assert said == ["removed"]
    assert result.exit_code == 1, result.output
    assert "wins the game" in result.stdout
    assert result.stderr.startswith(f"Error: Cannot save the game to {folder / 'x.json'}: ")


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("expert,,", "entry 2 of 'expert,,' is empty"),
        (",prob", "entry 1 of ',prob' is empty"),
        ("", "name at least one bot"),
        ("  ", "name at least one bot"),
    ],
)
def test_empty_bot_names_are_refused(bots: str, said: str) -> None:
    out = play_error(["--bots", bots, "--seed", "1"])
    assert said in out and "Round 1" not in out
    from liarsdice.cli.arena import arena

    result = CliRunner().invoke(arena, ["--bots", bots, "--games", "1", "--quiet"])
    assert result.exit_code == 2 and said in result.output


def test_output_files_are_checked_before_the_work(tmp_path: Path) -> None:
    from liarsdice.cli.arena import arena
    from liarsdice.cli.selfplay import selfplay
    from liarsdice.cli.solve import solve

    missing = str(tmp_path / "no" / "such" / "out.json")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for command, args in [
        (arena, ["--games", "1", "--quiet", "--out", missing]),
        (solve, ["--rules", "snyd-joker", "--dice", "1", "--out", missing]),
        (selfplay, ["--games", "1", "--quiet", "--out", str(a_file)]),
    ]:
        result = CliRunner().invoke(command, args)
        assert result.exit_code == 2, result.output
        assert "Error: Invalid value for '--out': cannot write " in result.output
        assert ("does not exist" in result.output) or ("is a file, not a folder" in result.output)
