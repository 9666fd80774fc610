"""Tests for ``liarsdice play --rules poker-dice`` (the poker-dice family's own) and
``liarsdice rules`` (poker dice); what every family shares is tested once in
``test_play_families.py``."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from liarsdice.cli.rules_cmd import rules
from liarsdice.core.poker import PokerGame, PokerRules, format_face
from liarsdice.families.poker.terminal import parse_poker_command
from play_util import play_error, play_out, unsaid


def poker(*args: str) -> list[str]:
    return ["--rules", "poker-dice", *args]


def test_accept_arrange_roll_and_bid_with_clear_messages() -> None:
    # Two humans, no bots: every move is scripted, and the opening roll is the seed's.
    seed = 7
    game = PokerGame(PokerRules(players=2), ["ann", "bob"])
    hand = [
        format_face(d) for d in game.new_initial_state().resolve_chance(random.Random(seed)).cup
    ]
    missing = next(f for f in ("9", "10", "J", "Q", "K", "A") if f not in hand)
    lines = ["", "junk", ""]  # ann opens with junk; bob takes the screen
    # after accepting, one line arranges the dice and says how to roll them
    lines += ["accept", f"out {missing}", "out " + " ".join(hand), "out none, roll 9"]
    lines += ["out none, no shake", "junk", "pair 9", "", "accept", "quit"]
    args = poker("--seed", str(seed), "--human", "ann", "--human", "bob", "--players", "2")
    out = play_out(args, "\n".join(lines) + "\n")
    said = [
        "ann bids junk.",
        "bob accepts junk and takes the cup.",
        f"Not allowed: {missing} are not among the dice",
        "Not allowed: leave at least one die under the cup.",
        "bob puts all five dice under the cup.",
        "Not allowed: you can only roll dice that are outside the cup: none.",
        "bob neither shakes nor rolls.",
        "Not allowed: junk may only be bid by Player One to open the round.",
        "bob bids pair 9 (a pair of nines).",
        "ann accepts pair 9 and takes the cup.",
        "Game abandoned.",
    ]
    assert unsaid(out, *said) == []


def test_hints_and_help() -> None:
    out = play_out(poker("--seed", "6", "--hints", "--players", "3"), "help\npair 9\nleft\nquit\n")
    assert "Your hand reads" in out and "The prob bot would play:" in out
    assert "keep Q Q" in out and "out K K, no shake" in out


def test_the_five_of_a_kind_rule_and_poker_options() -> None:
    for five in ("on", "off"):
        args = poker("--watch", "--seed", "9", "--players", "4", "--bots", "prob,random")
        out = play_out([*args, "--option", f"five_of_a_kind_rule={five}"])
        assert f"3 lives each, five-of-a-kind rule {five}, seed 9." in out
        assert "wins the game!" in out
    assert "Unknown rule option 'wild'" in play_error(poker("--option", "wild=1"))
    assert "Lives must be 1..99" in play_error(poker("--option", "lives=0"))
    assert "six faces" in play_error(poker("--faces", "8"))


MOVES = {
    "a pair of kings": "pair K",
    "two pairs queens and tens": "two pair Q 10",
    "full house A Q": "full house A Q",
    "high straight": "high straight",
    "five Q": "five Q",
    "out none": "out none",
    "shake": "shake",
    "no shake": "no reroll",
    "roll 9 10": "reroll 9 10",
    "shake, roll 9": "shake reroll 9",
    "pass left": "left",
    "Accept": "accept",
}


def test_parse_poker_command() -> None:
    assert {text: parse_poker_command(text) for text in MOVES} == {
        text: ("move", move) for text, move in MOVES.items()
    }
    assert parse_poker_command("hint!") == ("hint", "")
    assert parse_poker_command("\x00")[0] == "error"


# ------------------------------------------------------------------------------- rules
def test_rules_lists_poker_dice() -> None:
    result = CliRunner().invoke(rules, [])
    assert result.exit_code == 0
    assert "poker-dice: Poker dice" in result.output
    assert "lives=3, dice=5, five_of_a_kind_rule=true" in result.output
    assert "classic:" in result.output  # the bidding presets are still there
    one = CliRunner().invoke(rules, ["poker-dice"])
    assert one.exit_code == 0 and "  five_of_a_kind_rule = true\n      Whether" in one.output
    data = json.loads(CliRunner().invoke(rules, ["poker-dice", "--json"]).output)
    assert PokerRules(**{k: v for k, v in data.items() if k not in ("family", "description")})
    assert data["family"] == "poker"
