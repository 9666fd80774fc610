"""Play that feels like a game (issue, bugs 4 to 7): hints that can be typed back, prompts that
help with the step at hand, grammatical text about "you", one message for a bid that is too
large, no negative bids, legal examples, help for the rules that are on, a watched game at a
pace people can follow, and ``verify`` on either record format."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice.cli import session as session_module
from liarsdice.cli.verify import verify
from liarsdice.core.bidding import LIAR, Bid, Game, State, preset
from liarsdice.core.poker import PokerGame, PokerRules
from liarsdice.families import record_to_text
from liarsdice.families.bidding.terminal import BiddingTerminal, parse_command
from liarsdice.families.poker.terminal import PokerTerminal
from liarsdice.notation.bidding.bids import parse_human_bid
from liarsdice.notation.grammar import clause, counted, possessive
from play_util import play_out, run_play
from record_util import example, rename, run_replay


# ------------------------------------------------------------------ bug 4: typed back
def test_the_pass_prompt_helps_with_directions() -> None:
    args = ["--rules", "poker-dice", "--players", "3", "--seed", "5"]
    out = play_out(args, "pair K\nup\nquit\n")
    assert "'up' is not a direction. Pass the cup 'left' (to prob-1) or 'right' (to prob-2)" in out
    assert "bids look like" not in out  # no help about bids at the pass


def test_the_hint_of_an_accepter_is_one_move_per_line() -> None:
    # seed 5, three players: the bid comes back to "you", who accepts with the hints on
    # the arrangement and the roll are one line to type (the cup is shaken unless it says
    # otherwise), so the hint suggests one line; other steps stay one move at a time
    lines = ["pair K", "left", "accept then out K K K", "accept", "out K K K, then shake", "quit"]
    out = play_out(
        ["--rules", "poker-dice", "--players", "3", "--seed", "5", "--hints"],
        "\n".join(lines) + "\n",
    )
    suggested = [line for line in out.splitlines() if "would play: " in line]
    assert suggested and not [line for line in suggested if "then" in line.split(": ", 1)[1]]
    assert "The prob bot would play: out K K K." in out and "Then it would play" not in out
    assert "One move at a time: type 'accept' now, then 'out K K K'" in out
    assert "You leave K K K outside the cup and 2 dice under it.\nYou shake the cup" in out


# ------------------------------------------------------------------- bug 5: grammar
def test_grammar_helper() -> None:
    assert clause("you", "call") + " liar on " + possessive("you") == "you call liar on your"
    assert clause("ann", "lose") == "ann loses" and clause("you", "be") == "you are"
    assert counted(1, "die", "show") == "1 die shows" and counted(0, "die", "show") == "0 dice show"


@pytest.mark.parametrize("family", ["bidding", "poker"])
def test_replay_speaks_to_you(tmp_path: Path, family: str) -> None:
    out = ""
    for names in (["ann", "you", "cy"], ["ann", "bob", "you"]):
        code, text = run_replay(tmp_path, json.dumps(rename(example(family), names)))
        assert code == 0, text
        out += text
    assert "you call liar on bob's" in out and "cy calls liar on your" in out
    for wrong in ("you calls", "you's", "you loses", "you opens", "you accepts"):
        assert wrong not in out, (wrong, out)


def test_narration_agrees_with_counts() -> None:
    args = ["--watch", "--rules", "spot-on", "--seed", "6", "--players", "4"]
    out = play_out([*args, "--bots", "prob,random"])
    assert "Counted: one five against 1x5 (one five): the bid was true (exactly)." in out
    assert "Counted: no sixes against 4x6 (four sixes)" in out
    assert not re.search(r"\b(1|one) (ones|twos|threes|fours|fives|sixes|[0-9]+s)\b", out)


# ---------------------------------------------------------- bug 7: bids and prompts
def _lost_a_die() -> State:
    """Classic, three players, the second round: dice were lost, so fewer are in play than
    the game's largest bid (15x6)."""
    g = Game(preset("classic", players=3), ["you", "bob", "cy"], opener=0)
    s = g.new_initial_state()
    while s.round == 0:
        if s.is_chance_node():
            s = s.resolve_chance(random.Random(1))
        elif s.current_bid is None:
            s = s.apply_action(g.bid_action(Bid(12, 6)))
        else:
            s = s.apply_action(LIAR)
    while s.is_chance_node():
        s = s.resolve_chance(random.Random(2))
    return s


def test_too_large_bids_get_one_message() -> None:
    s = _lost_a_die()
    cap = s.view(-1).dice_in_play
    assert cap < 15 == s.game.max_quantity  # 15x6 is a bid of the game, 16x6 is not
    terminal = BiddingTerminal(s.game)
    seat = s.current_player
    quantities = (cap + 1, 15, 16, 99)
    said = [terminal.answer(s, seat, f"{q}x6").lines for q in quantities]
    for q, lines in zip(quantities, said, strict=True):
        assert lines == (f"[red]Not allowed:[/red] {q}x6 needs more dice than the {cap} in play.",)


def test_a_minus_sign_is_refused() -> None:
    kind, message = parse_command("-3x2", faces=6)
    assert kind == "error" and "minus sign" in message
    with pytest.raises(Exception, match="minus sign"):
        parse_human_bid("3x-2")
    assert parse_human_bid("twenty-one threes") == Bid(21, 3)


def test_the_examples_are_legal_moves() -> None:
    for name in ("classic", "perudo", "milton-bradley", "spot-on"):
        g = Game(preset(name, players=3))
        rng = random.Random(name)
        s = g.new_initial_state()
        terminal = BiddingTerminal(g)
        for _ in range(60):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s = s.resolve_chance(rng)
                continue
            view = s.view(s.current_player)
            if view.phase == "bid" and any(g.action_bid(a) for a in view.legal_actions):
                digits, words = terminal.bid_example(view).split(" or ")
                for text in (digits, words.strip("'")):
                    assert g.bid_action(parse_human_bid(text)) in view.legal_actions, text
            s = s.apply_action(rng.choice(s.legal_actions()))


def test_help_describes_only_the_rules_that_are_on() -> None:
    classic = "\n".join(BiddingTerminal(Game(preset("classic", players=2))).help())
    perudo = "\n".join(BiddingTerminal(Game(preset("perudo", players=2))).help())
    assert "palifico" not in classic.lower()
    assert "Palifico:" in perudo and "(not in palifico rounds)" in perudo
    for five in (True, False):
        game = PokerGame(PokerRules(players=2, five_of_a_kind_rule=five))
        help_text = "\n".join(PokerTerminal(game).help())
        assert ("five-of-a-kind challenge" in help_text) is five


def test_watching_is_paced_and_says_nothing_about_typing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    naps: list[float] = []
    monkeypatch.setattr(session_module.time, "sleep", naps.append)
    args = ["--watch", "--seed", "4", "--players", "2", "--dice", "1"]
    out = play_out([*args, "--delay", "0.25"])
    assert "Type 'help'" not in out
    assert naps and set(naps) == {0.25}
    moves = out.count(" bids ") + out.count(" calls ")
    assert len(naps) == moves - 1  # after every bot move but the last
    naps.clear()
    play_out([*args, "--delay", "0"])
    play_out(args)  # not a terminal: no pacing unless asked for
    assert naps == []
    assert "Type 'help'" in play_out(["--seed", "4"], "quit\n")
    assert run_play([*args, "--delay", "-1"]).exit_code == 2


def test_end_of_input_ends_the_prompt_line() -> None:
    for args in ([], ["--rules", "poker-dice"]):
        out = play_out(["--seed", "3", *args], "")
        assert "? Game abandoned." not in out and "\nGame abandoned." in out


# ---------------------------------------------------------- bug 6: verify either format
def test_verify_names_the_format_it_needs(tmp_path: Path) -> None:
    text = tmp_path / "game.txt"
    text.write_text(record_to_text(example("bidding")), encoding="utf-8")
    result = CliRunner().invoke(verify, [str(text)])
    assert result.exit_code == 1
    assert "is a text record, which does not carry the provably fair seeds" in result.output
    assert "JSON record" in result.output and "Expecting value" not in result.output
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n", encoding="utf-8")
    result = CliRunner().invoke(verify, [str(junk)])
    assert result.exit_code == 1
    assert "neither a JSON record nor a text record" in result.output
    plain = tmp_path / "game.json"
    plain.write_text(json.dumps(example("poker")), encoding="utf-8")
    result = CliRunner().invoke(verify, [str(plain)])
    assert result.exit_code == 1 and "no 'fair' seeds to verify" in result.output
    result = CliRunner().invoke(verify, [str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "Error: Can't read" in result.output
