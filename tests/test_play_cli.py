"""Tests for ``liarsdice play`` and ``liarsdice rules`` through click's CliRunner."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from liarsdice.cli.play import parse_command, play
from liarsdice.cli.rules_cmd import rules
from liarsdice.cli.terminal import HIDE_LINES
from liarsdice.core import PRESETS, Bid, Game, Rules, preset

# Alternating a call and the lowest bid always makes progress: "liar" is refused only on an
# opening (then "1x2" opens), and "1x2" is refused only when a bid stands (then "liar" calls).
PROGRESS = "\n".join(["liar", "1x2"] * 300) + "\n"


def run(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(play, args, input=text)


def finished(out: str) -> bool:
    return "wins the game!" in out or "you win the game!" in out


def test_a_piped_game_runs_to_the_end() -> None:
    result = run(["--seed", "1", "--players", "2"], PROGRESS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert finished(out)
    assert "Final order: 1." in out
    assert "Reveal of round 1:" in out
    assert "Your dice:" in out and "Players: you 5 dice; prob-1 5 dice." in out
    assert "Traceback" not in out
    # Same seed, same input: the same game.
    assert run(["--seed", "1", "--players", "2"], PROGRESS).output == out


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
    result = run(["--seed", "4", *args], PROGRESS)
    assert result.exit_code == 0, result.output
    assert finished(result.output)


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
    result = run(
        ["--seed", "2", "--players", "2", "--option", "first_opener=given"], "\n".join(lines)
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "there is no bid to call yet: make the opening bid" in out
    assert "can't read 'blah' as a bid" in out
    assert "99x3 is not a bid in this game" in out
    assert "face 9 in '3x9' is out of range" in out
    assert "Show-and-reroll is not part of these rules" in out
    assert "buying dice is not part of these rules" in out
    assert "It is your turn. (Questions are free in these rules.)" in out
    assert "There is no passing" in out
    assert "you bid 1x2 (one two)." in out
    assert "Not allowed: 1x2 does not beat" in out and "least legal bids:" in out
    assert "Game abandoned." in out


def test_house_rule_questions_cost_a_die() -> None:
    args = ["--seed", "1", "--players", "2", "--rules", "house-rules"]
    result = run(args, "ask turn\nask how many\n" + PROGRESS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "It is your turn. Asking costs you a die at the end of this round." in out
    assert "10 dice are in play. Asking costs you a die" in out
    first_reveal = out[out.index("Reveal of round 1:") : out.index("Round 2")]
    assert "(2 for asking questions" in first_reveal


def test_end_of_input_quits_cleanly() -> None:
    result = run(["--seed", "3"], "")
    assert result.exit_code == 0
    assert "Game abandoned." in result.output


def test_save_writes_a_record(tmp_path: Path) -> None:
    from liarsdice.notation.record import load_record, replay_record

    path = tmp_path / "game.json"
    result = run(["--seed", "5", "--players", "2", "--save", str(path)], PROGRESS)
    assert result.exit_code == 0, result.output
    assert f"Game record saved to {path}" in result.output
    record = load_record(path.read_text(encoding="utf-8"))
    assert record["players"] == ["you", "prob-1"]
    state = replay_record(record)
    assert state.is_terminal() and state.winner is not None
    winner = state.game.names[state.winner]
    assert f"{winner} {'win' if winner == 'you' else 'wins'} the game!" in result.output


def test_save_on_quit(tmp_path: Path) -> None:
    from liarsdice.notation.record import load_record

    path = tmp_path / "quit.json"
    result = run(
        ["--seed", "5", "--save", str(path), "--option", "first_opener=given"], "2x3\nquit\n"
    )
    assert result.exit_code == 0, result.output
    record = load_record(path.read_text(encoding="utf-8"))
    assert record["rounds"][0]["moves"][0] == {"player": "you", "bid": "2x3"}


def test_hot_seat_hides_each_players_dice() -> None:
    args = ["--seed", "3", "--players", "2", "--human", "ann", "--human", "bob"]
    args += ["--option", "first_opener=given"]
    result = run(args, "\n1x2\n\nliar\n\n")
    assert result.exit_code == 0, result.output
    out = result.output
    ann_dice = out.index("Your dice (ann):")
    pass_bob = out.index("Pass the screen to bob")
    bob_dice = out.index("Your dice (bob):")
    assert out.index("Pass the screen to ann") < ann_dice < pass_bob < bob_dice
    # Between ann's dice and the hand-over the screen is scrolled clean.
    assert "\n" * HIDE_LINES in out[ann_dice:pass_bob]
    assert "ann bids 1x2" in out[ann_dice:pass_bob].split("\n" * HIDE_LINES, 1)[1]
    # bob's dice only appear after he takes the screen, then are scrolled away again.
    assert "Your dice (bob)" not in out[:pass_bob]
    reveal = out.index("Reveal of round 1:")
    assert "\n" * HIDE_LINES in out[bob_dice:reveal]


def test_hints_show_odds() -> None:
    result = run(["--seed", "6", "--hints", "--option", "first_opener=given"], "2x3\nhint\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
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
    result = run(args, "\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "there is no face 9" in out
    assert "You can only show dice you hold hidden" in out
    assert "Keep at least one die hidden to re-roll." in out
    assert f"you show {show} and re-roll 3 dice." in out
    assert "after showing and re-rolling you must raise the bid" in out
    assert "you bid 10x6 (ten sixes)." in out


def test_watch_bots_only() -> None:
    result = run(["--watch", "--seed", "9", "--rules", "perudo"])
    assert result.exit_code == 0, result.output
    assert "wins the game!" in result.output
    assert "Your move" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "nope=1"], "unknown rule option"),
        (["--option", "wild"], "is not name=value"),
        (["--bots", "genius"], "unknown bot"),
        (["--rules", "nope"], "nope"),
        (["--rules", "openspiel", "--faces", "4"], "wild must be"),
        (["--names", "a,b", "--players", "3"], "--names lists 2 players"),
        (["--human", "x", "--names", "a,b"], "human 'x' is not one of --names"),
        (["--names", "a,a"], "distinct"),
    ],
)
def test_bad_options(args: list[str], message: str) -> None:
    result = run(args)
    assert result.exit_code == 2
    assert message in result.output


def test_parse_command() -> None:
    assert parse_command("3x5", faces=6) == ("bid", Bid(3, 5))
    assert parse_command("  Three FIVES! ", faces=6) == ("bid", Bid(3, 5))
    assert parse_command("liar", faces=6) == ("liar", None)
    assert parse_command("spot on", faces=6) == ("exact", None)
    assert parse_command("show 6, 6", faces=6) == ("show", (6, 6))
    assert parse_command("no", faces=6) == ("no-show", None)
    assert parse_command("ask whose turn", faces=6) == ("ask", "turn")
    assert parse_command("ask weather", faces=6)[0] == "error"
    assert parse_command("show six", faces=6)[0] == "error"
    assert parse_command("three wilds", faces=6, wild=1) == ("bid", Bid(3, 1))
    assert parse_command("\x00", faces=6)[0] == "error"


# ------------------------------------------------------------------------------- rules


def test_rules_lists_every_preset() -> None:
    result = CliRunner().invoke(rules, [])
    assert result.exit_code == 0
    for name, r in PRESETS.items():
        assert f"{name}: {r.description}" in result.output
    assert "ordering=perudo" in result.output and "palifico=true" in result.output


def test_rules_shows_one_preset() -> None:
    result = CliRunner().invoke(rules, ["perudo"])
    assert result.exit_code == 0
    assert "palifico" in result.output and "calza" in result.output
    for option in PRESETS["perudo"].options():
        assert f"  {option} " in result.output
    bad = CliRunner().invoke(rules, ["nope"])
    assert bad.exit_code == 2 and "unknown rules 'nope'" in bad.output


def test_rules_json_round_trips() -> None:
    result = CliRunner().invoke(rules, ["--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == set(PRESETS)
    for name, options in data.items():
        assert Rules(**options) == PRESETS[name]
    one = json.loads(CliRunner().invoke(rules, ["room", "--json"]).output)
    assert one["face_order"] == [2, 3, 4, 5, 6, 1] and Rules(**one) == PRESETS["room"]


def test_main_group_has_the_commands() -> None:
    pytest.importorskip("liarsdice.cli.replay")
    from liarsdice.cli.main import cli

    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0 and "classic:" in result.output
    result = CliRunner().invoke(cli, ["play", "--seed", "1", "--watch", "--players", "2"])
    assert result.exit_code == 0 and "wins the game!" in result.output
