"""``liarsdice play``, the same for every rule family: watching, saving, quitting, hot-seat
hiding, commands, refusals and seeds (one test each, over both families; the family-specific
ones are in ``test_play_cli.py`` and ``test_poker_play_cli.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from liarsdice.cli.terminal import HIDE_LINES
from liarsdice.families import family_of, load_record, replay_record
from play_util import finished, play_error, play_out


@dataclass(frozen=True)
class Table:
    """What a test needs to know of a family at the terminal."""

    preset: str
    progress: str  # input that always makes progress, whatever the moment
    prompt: str  # the prompt as the game opens, the human on move
    private: str  # what introduces a player's own hidden dice ("{}": " (name)" in hot-seat)
    opening: str  # a legal opening move
    answer: str  # a legal answer to it
    bad: str  # a line that is no move
    bad_reply: str  # what the game says to it
    reveal: str  # how the end of a round starts
    bob_sees: str  # what the second player sees as their turn starts
    extra: list[str] = field(default_factory=list)  # options that let the human open


# Bidding: alternating a call and the lowest bid always makes progress ("liar" is refused only
# on an opening, then "1x2" opens; "1x2" is refused only when a bid stands, then "liar" calls).
# Poker: "liar" answers a bid, "junk" opens a round, "left" passes the cup.
TABLES = [
    Table(
        "classic",
        "\n".join(["liar", "1x2"] * 300) + "\n",
        "Your move?",
        "Your dice{}:",
        "1x2",
        "liar",
        "blah",
        "Can't read 'blah' as a bid",
        "Reveal of round 1:",
        "Your dice (bob):",
        ["--option", "first_opener=given"],
    ),
    Table(
        "poker-dice",
        "\n".join(["liar", "junk", "left"] * 200) + "\n",
        "Your bid?",
        "Under the cup{} (only you see):",
        "pair 9",
        "liar",
        "pair Z",
        "'pair Z': can't read 'z'; bids look like:",
        "The cup is lifted",
        "Under the cup: 5 dice you cannot see.",
    ),
]
each_family = pytest.mark.parametrize("table", TABLES, ids=lambda t: t.preset)


@each_family
def test_watching_bots_play_ends_with_a_winner(table: Table) -> None:
    out = play_out(["--rules", table.preset, "--watch", "--seed", "9", "--players", "3"])
    assert finished(out) and "you win" not in out
    final = out[out.index("Final order:") :]
    names = [f"{bot}-{i}" for i, bot in enumerate(["prob"] * 3, 1)]
    assert all(f". {name}" in final for name in names)
    assert table.prompt not in out and table.private.format("") not in out


@each_family
def test_save_writes_a_record_that_replays(table: Table, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ["--rules", table.preset, "--seed", "5", "--players", "2", "--save", str(path)]
    out = play_out(args, table.progress)
    assert f"Game record saved to {path}" in out
    record = load_record(path.read_text(encoding="utf-8"))
    assert record["players"] == ["you", "prob-1"]
    assert family_of(record["rules"]) is family_of(table.preset)
    state = replay_record(record)
    assert state.is_terminal() and state.winner is not None
    winner = state.game.names[state.winner]
    assert f"{winner} {'win' if winner == 'you' else 'wins'} the game!" in out


@each_family
@pytest.mark.parametrize("text", ["quit\n", "", "bye\n"], ids=["quit", "eof", "bye"])
def test_quit_or_end_of_input_abandons_and_saves(table: Table, text: str, tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    args = ["--rules", table.preset, "--seed", "3", "--save", str(path), *table.extra]
    out = play_out(args, f"{table.opening}\n{text}")
    assert out.rstrip().endswith(f"Game abandoned.\nGame record saved to {path}.")
    assert not finished(out)
    state = replay_record(load_record(path.read_text(encoding="utf-8")))
    assert not state.is_terminal() and len(state.history()) > 0


@each_family
def test_hot_seat_hides_each_players_dice(table: Table) -> None:
    args = ["--rules", table.preset, "--seed", "3", "--players", "2", *table.extra]
    args += ["--human", "ann", "--human", "bob"]
    out = play_out(args, f"\n{table.opening}\n\n{table.answer}\n\nquit\n")
    ann_dice = out.index(table.private.format(" (ann)"))
    pass_bob = out.index("Pass the screen to bob")
    reveal = out.index(table.reveal)
    assert out.index("Pass the screen to ann") < ann_dice < pass_bob < reveal
    # Between ann's dice and the hand-over the screen is scrolled clean, then her move is told.
    assert "\n" * HIDE_LINES in out[ann_dice:pass_bob]
    told = out[ann_dice:pass_bob].split("\n" * HIDE_LINES, 1)[1]
    assert f"ann bids {table.opening}" in told
    # bob sees his own view only after taking the screen, and never ann's dice.
    assert table.bob_sees not in out[:pass_bob]
    assert table.bob_sees in out[pass_bob:reveal]
    assert "(ann)" not in out[pass_bob:reveal]
    # hot-seat prompts name the player
    assert f"ann, {table.prompt.lower()}" in out and table.prompt not in out


@each_family
def test_bad_input_is_refused_with_a_message_and_asked_again(table: Table) -> None:
    args = ["--rules", table.preset, "--seed", "3", "--players", "2", *table.extra]
    out = play_out(args, f"{table.bad}\n\n{table.answer}\nquit\n")
    assert table.bad_reply in out
    assert "\nType " in out  # an empty line is answered with an example
    assert "Not allowed: " in out  # calling before anything was bid
    assert out.count(table.prompt) == 4 and "Game abandoned." in out


@each_family
def test_help_status_and_hint_commands(table: Table) -> None:
    args = ["--rules", table.preset, "--seed", "3", "--players", "2", *table.extra]
    out = play_out(args, "help\nstatus\nhint\nquit\n")
    assert "\nCommands" in out and "  quit " in out
    assert out.count("--- Round 1: you to play") == 2
    assert "The prob bot would play:" in out


@each_family
def test_a_seed_makes_the_game_reproducible(table: Table) -> None:
    args = ["--rules", table.preset, "--players", "3"]
    first = play_out([*args, "--seed", "1"], table.progress)
    assert finished(first)
    assert play_out([*args, "--seed", "1"], table.progress) == first
    assert play_out([*args, "--seed", "2"], table.progress) != first


@each_family
def test_unknown_bots_are_refused_with_the_familys_list(table: Table) -> None:
    out = play_error(["--rules", table.preset, "--bots", "prob,genius"])
    bots = ", ".join(family_of(table.preset).bots)
    assert f"unknown bot 'genius'; bots: {bots}" in out
