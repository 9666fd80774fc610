"""Tests for ``liarsdice play --rules poker-dice`` and ``liarsdice rules`` (poker dice)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner, Result

from liarsdice.cli.play import play
from liarsdice.cli.play_poker import parse_poker_command
from liarsdice.cli.rules_cmd import rules
from liarsdice.cli.terminal import HIDE_LINES
from liarsdice.core.poker import PokerGame, PokerRules, format_face

# Every phase a human who never accepts can reach has a move among these three: "liar" answers
# a bid, "junk" opens a round, "left" passes the cup. Cycling them always makes progress.
PROGRESS = "\n".join(["liar", "junk", "left"] * 200) + "\n"


def run(args: list[str], text: str = "") -> Result:
    return CliRunner().invoke(play, ["--rules", "poker-dice", *args], input=text)


def test_a_piped_game_runs_to_the_end() -> None:
    args = ["--seed", "1", "--players", "3", "--option", "lives=2"]
    result = run(args, PROGRESS)
    out = result.output
    assert result.exit_code == 0, out
    assert "wins the game!" in out or "you win the game!" in out
    assert "Final order: 1." in out
    assert "The cup is lifted:" in out and "a life" in out
    assert "Under the cup (only you see):" in out
    assert "Traceback" not in out
    assert run(args, PROGRESS).output == out  # same seed, same input: the same game


def test_accept_arrange_roll_and_bid_with_clear_messages() -> None:
    # Two humans, no bots: every move is scripted, and the opening roll is the seed's.
    seed = 7
    game = PokerGame(PokerRules(players=2), ["ann", "bob"])
    hand = [
        format_face(d) for d in game.new_initial_state().resolve_chance(random.Random(seed)).cup
    ]
    missing = next(f for f in ("9", "10", "J", "Q", "K", "A") if f not in hand)
    lines = ["", "junk", ""]  # ann opens with junk; bob takes the screen
    lines += ["accept", f"out {missing}", "out " + " ".join(hand), "out none"]
    lines += ["roll 9", "no shake", "junk", "pair 9", "", "accept", "quit"]
    args = ["--seed", str(seed), "--human", "ann", "--human", "bob", "--players", "2"]
    result = run(args, "\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "ann bids junk." in out and "bob accepts junk and takes the cup." in out
    assert f"Not allowed: {missing} are not among the dice" in out
    assert "Not allowed: leave at least one die under the cup." in out
    assert "bob puts all five dice under the cup." in out
    assert "Not allowed: you can only roll dice that are outside the cup: none." in out
    assert "bob neither shakes nor rolls." in out
    assert "Not allowed: junk may only be bid by Player One to open the round." in out
    assert "bob bids pair 9 (a pair of nines)." in out
    assert "ann accepts pair 9 and takes the cup." in out
    assert "Game abandoned." in out


def test_hot_seat_hides_each_players_dice() -> None:
    args = ["--seed", "3", "--players", "2", "--human", "ann", "--human", "bob"]
    result = run(args, "\npair 9\n\nliar\n\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    ann_dice = out.index("Under the cup (ann) (only you see):")
    pass_bob = out.index("Pass the screen to bob")
    assert out.index("Pass the screen to ann") < ann_dice < pass_bob
    # the screen is scrolled clean between ann's dice and the hand-over
    assert "\n" * HIDE_LINES in out[ann_dice:pass_bob]
    assert "ann bids pair 9" in out[ann_dice:pass_bob].split("\n" * HIDE_LINES, 1)[1]
    # bob never sees the cup before calling: he is told how many dice it hides
    bob_part = out[pass_bob : out.index("The cup is lifted")]
    assert "only you see" not in bob_part
    assert "Under the cup: 5 dice you cannot see." in bob_part


def test_hints_and_help() -> None:
    result = run(["--seed", "6", "--hints", "--players", "3"], "help\npair 9\nleft\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Your hand reads" in out and "The prob bot would play:" in out
    assert "keep Q Q" in out and "shake / no shake" in out


def test_watch_and_options() -> None:
    for five in ("on", "off"):
        args = ["--watch", "--seed", "9", "--players", "4", "--bots", "prob,random"]
        result = run([*args, "--option", f"five_of_a_kind_rule={five}"])
        assert result.exit_code == 0, result.output
        assert "wins the game!" in result.output and "Your bid" not in result.output
        assert f"five-of-a-kind rule {five}" in result.output
    bad = run(["--option", "wild=1"])
    assert bad.exit_code == 2 and "unknown rule option 'wild'" in bad.output
    bad = run(["--option", "lives=0"])
    assert bad.exit_code == 2 and "lives must be 1..99" in bad.output
    bad = run(["--faces", "8"])
    assert bad.exit_code == 2 and "six faces" in bad.output


def test_save(tmp_path: Path) -> None:
    path = tmp_path / "poker.json"
    result = run(["--seed", "4", "--players", "2", "--save", str(path)], PROGRESS)
    out = result.output
    assert result.exit_code == 0, out
    # Either the record is written, or the user is told why not (records are another module).
    assert f"Game record saved to {path}" in out or f"Cannot save the game to {path}" in out
    if path.exists():
        assert json.loads(path.read_text(encoding="utf-8"))


def test_parse_poker_command() -> None:
    assert parse_poker_command("a pair of kings") == ("move", "pair K")
    assert parse_poker_command("two pairs queens and tens") == ("move", "two pair Q 10")
    assert parse_poker_command("full house A Q") == ("move", "full house A Q")
    assert parse_poker_command("high straight") == ("move", "high straight")
    assert parse_poker_command("five Q") == ("move", "five Q")
    assert parse_poker_command("out none") == ("move", "out none")
    assert parse_poker_command("shake") == ("move", "shake")
    assert parse_poker_command("no shake") == ("move", "no reroll")
    assert parse_poker_command("roll 9 10") == ("move", "reroll 9 10")
    assert parse_poker_command("shake, roll 9") == ("move", "shake reroll 9")
    assert parse_poker_command("pass left") == ("move", "left")
    assert parse_poker_command("Accept") == ("move", "accept")
    assert parse_poker_command("hint")[0] == "hint"
    assert parse_poker_command("\x00")[0] == "error"


# ------------------------------------------------------------------------------- rules
def test_rules_lists_poker_dice() -> None:
    result = CliRunner().invoke(rules, [])
    assert result.exit_code == 0
    assert "poker-dice: Poker dice" in result.output
    assert "lives=3, dice=5, five_of_a_kind_rule=true" in result.output
    assert "classic:" in result.output  # the bidding presets are still there
    one = CliRunner().invoke(rules, ["poker-dice"])
    assert one.exit_code == 0 and "  five_of_a_kind_rule  true" in one.output
    data = json.loads(CliRunner().invoke(rules, ["poker-dice", "--json"]).output)
    assert PokerRules(**{k: v for k, v in data.items() if k not in ("family", "description")})
    assert data["family"] == "poker"
