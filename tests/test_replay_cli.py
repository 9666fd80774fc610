"""Tests for ``liarsdice replay``: checking JSON and text records from the command line."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from liarsdice.cli.replay import replay
from liarsdice.core import Game, preset
from liarsdice.notation.record import dumps_record, record_from_state
from liarsdice.notation.text import record_to_text

EXAMPLE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "milton-bradley",
    "options": {"loss": "one"},
    "players": ["ann", "bob", "cy"],
    "rounds": [
        {
            "opener": "ann",
            "dice": {"ann": [1, 3, 3, 5, 6], "bob": [2, 2, 4, 6, 6], "cy": [1, 1, 5, 5, 5]},
            "moves": [
                {"player": "ann", "bid": "3x5"},
                {"player": "bob", "show": [6, 6], "reroll": [1, 4, 2], "bid": "5x6"},
                {"player": "cy", "call": "liar"},
            ],
        }
    ],
}

EXPECTED = {
    "ok": True,
    "rounds": [
        {
            "bid": "5x6",
            "count": 7,
            "call": "liar",
            "caller": "cy",
            "bidder": "bob",
            "losses": {"cy": 1},
            "dice": {"ann": 5, "bob": 5, "cy": 4},
            "next_opener": "bob",
        }
    ],
    "winner": None,
}


def run(tmp_path: Path, content: str, *args: str, name: str = "game.json") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(replay, [str(path), *args])
    return result.exit_code, result.output


def test_json_record_json_output(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(EXAMPLE), "--json")
    assert code == 0
    assert json.loads(out) == EXPECTED
    assert out.count("\n") == 1  # exactly one JSON object on one line


def test_text_record_is_detected(tmp_path: Path) -> None:
    code, out = run(tmp_path, record_to_text(EXAMPLE), "--json", name="game.txt")
    assert code == 0
    assert json.loads(out) == EXPECTED


def test_pretty_printed_json_is_detected(tmp_path: Path) -> None:
    code, out = run(tmp_path, "\n  " + dumps_record(EXAMPLE), "--json", name="game.txt")
    assert code == 0 and json.loads(out) == EXPECTED


def test_illegal_bid(tmp_path: Path) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"][2] = {"player": "cy", "bid": "4x5"}
    code, out = run(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "error": {
            "round": 0,
            "move": 2,
            "message": "4x5 does not beat 5x6; least legal bids: 3x1, 6x2, 6x3, 6x4",
        },
    }


def test_wrong_dice_count_has_no_move(tmp_path: Path) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["dice"]["ann"] = [1, 3]
    code, out = run(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, None)
    assert error["message"] == "ann has 5 dice but the record lists 2"


def test_unreadable_json_and_missing_file(tmp_path: Path) -> None:
    code, out = run(tmp_path, '{"liarsdice": 1, "rules"', "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["round"] is None and error["move"] is None
    assert error["message"].startswith("not valid JSON")
    result = CliRunner().invoke(replay, [str(tmp_path / "nope.json"), "--json"])
    assert result.exit_code == 1
    error = json.loads(result.output)["error"]
    assert error["round"] is None and "can't read" in error["message"]
    code, out = run(tmp_path, "hello", "--json", name="hello.txt")
    assert code == 1 and "not a liarsdice text record" in json.loads(out)["error"]["message"]
    code, out = run(tmp_path, json.dumps({**EXAMPLE, "liarsdice": 2}), "--json")
    assert code == 1 and "unsupported record version 2" in json.loads(out)["error"]["message"]


def test_text_record_errors_carry_the_location(tmp_path: Path) -> None:
    text = record_to_text(EXAMPLE).replace("cy: liar", "bob: liar")
    code, out = run(tmp_path, text, "--json", name="game.txt")
    assert code == 1
    assert json.loads(out)["error"] == {
        "round": 0,
        "move": 2,
        "message": "it is cy's turn, not bob's",
    }


def test_human_output(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(EXAMPLE))
    assert code == 0
    assert out.splitlines() == [
        "Round 1: cy calls liar on bob's 5x6; count 7: cy loses 1 | dice ann 5, bob 5, cy 4 "
        "| bob opens next",
        "No winner yet: the game is in progress.",
    ]


def test_human_output_on_error(tmp_path: Path) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"][1]["player"] = "cy"
    code, out = run(tmp_path, json.dumps(rec))
    assert code == 1
    assert "error: round 1, move 2: it is bob's turn, not cy's" in out


def test_finished_game_names_the_winner(tmp_path: Path) -> None:
    rng = random.Random(4)
    state = Game(preset("classic"), ["ann", "bob"], opener=0).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply_action(legal[0] if legal[0] == 0 else rng.choice(legal[:3]))
    winner = state.game.names[state.winner or 0]
    code, out = run(tmp_path, dumps_record(record_from_state(state)), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["winner"] == winner
    assert len(summary["rounds"]) == len(state.results)
    assert summary["rounds"][-1]["next_opener"] is None
    assert all(sum(r["dice"].values()) > 0 for r in summary["rounds"])
    code, out = run(tmp_path, dumps_record(record_from_state(state)))
    assert code == 0 and out.splitlines()[-1] == f"Winner: {winner}"


def test_stdin_and_main_group(tmp_path: Path) -> None:
    result = CliRunner().invoke(replay, ["-", "--json"], input=json.dumps(EXAMPLE))
    assert result.exit_code == 0 and json.loads(result.output) == EXPECTED
    from liarsdice.cli.main import cli

    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == EXPECTED
