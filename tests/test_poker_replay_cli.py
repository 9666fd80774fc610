"""Tests for ``liarsdice replay`` on poker-dice records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from liarsdice.cli.replay import replay
from liarsdice.core.poker import PokerGame, PokerRules
from liarsdice.notation.record import dumps_record, record_from_state

EXAMPLE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "poker-dice",
    "options": {},
    "players": ["ann", "bob", "cy"],
    "rounds": [
        {
            "opener": "ann",
            "roll": ["K", "K", "9", "Q", "A"],
            "moves": [
                {"player": "ann", "bid": "pair K", "pass": "left"},
                {
                    "player": "bob",
                    "accept": True,
                    "out": ["9", "K", "K"],
                    "shake": True,
                    "reroll": ["9"],
                    "rolled": ["Q", "Q", "J"],
                    "bid": "two pair K Q",
                },
                {"player": "cy", "call": "liar"},
            ],
        }
    ],
}

EXPECTED = {
    "ok": True,
    "rounds": [
        {
            "bid": "two pair K Q",
            "call": "liar",
            "caller": "cy",
            "bidder": "bob",
            "hand": ["K", "K", "Q", "Q", "J"],
            "stood": True,
            "losses": {"cy": 1},
            "lives": {"ann": 3, "bob": 3, "cy": 2},
            "next_opener": "cy",
        }
    ],
    "winner": None,
}

FIVE: dict[str, Any] = {
    "liarsdice": 1,
    "rules": "poker-dice",
    "options": {"lives": 1},
    "players": ["ann", "bob"],
    "rounds": [
        {
            "opener": "ann",
            "roll": ["Q", "9", "Q", "J", "K"],
            "moves": [
                {"player": "ann", "bid": "five Q"},
                {
                    "player": "bob",
                    "accept": True,
                    "attempts": [
                        {"keep": ["Q", "Q"], "rolled": ["Q", "9", "Q"]},
                        {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["A"]},
                        {"keep": ["Q", "Q", "Q", "Q"], "rolled": ["J"]},
                    ],
                },
            ],
        }
    ],
}


def run(tmp_path: Path, content: str, *args: str, name: str = "game.json") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(replay, [str(path), *args])
    return result.exit_code, result.output


def test_json_output(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(EXAMPLE), "--json")
    assert code == 0
    assert json.loads(out) == EXPECTED
    assert out.count("\n") == 1


def test_dumped_record_is_read(tmp_path: Path) -> None:
    code, out = run(tmp_path, "\n " + dumps_record(EXAMPLE), "--json", name="game.txt")
    assert code == 0 and json.loads(out) == EXPECTED


def test_five_of_a_kind_json_output(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(FIVE), "--json")
    assert code == 0
    assert json.loads(out) == {
        "ok": True,
        "rounds": [
            {
                "bid": "five Q",
                "call": "accept",
                "accepter": "bob",
                "bidder": "ann",
                "hand": ["Q", "Q", "K", "J", "9"],
                "attempts": [
                    ["Q", "Q", "Q", "Q", "9"],
                    ["Q", "Q", "Q", "Q", "A"],
                    ["Q", "Q", "Q", "Q", "J"],
                ],
                "success": False,
                "losses": {"bob": 1},
                "lives": {"ann": 1, "bob": 0},
                "next_opener": None,
            }
        ],
        "winner": "ann",
    }


def test_illegal_bid(tmp_path: Path) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"][1]["bid"] = "pair Q"
    code, out = run(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "error": {
            "round": 0,
            "move": 1,
            "message": "pair Q does not beat pair K; least legal bids: pair K 9, pair K 10, "
            "pair K 10 9, pair K J",
        },
    }


def test_explain_illegal_message_after_two_pair(tmp_path: Path) -> None:
    rec = {
        "liarsdice": 1,
        "rules": "poker-dice",
        "players": ["ann", "bob", "cy"],
        "rounds": [
            {
                "opener": "ann",
                "roll": ["Q", "Q", "J", "10", "10"],
                "moves": [
                    {"player": "ann", "bid": "two pair J 10", "pass": "left"},
                    {"player": "bob", "accept": True, "out": [], "shake": False, "bid": "pair Q"},
                ],
            }
        ],
    }
    code, out = run(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, 1)
    assert error["message"].startswith(
        "pair Q does not beat two pair J 10; least legal bids: two pair J 10 9, "
    )


def test_round_errors_have_no_move(tmp_path: Path) -> None:
    for roll, message in (
        (["K", "K", "9"], "the roll is five dice, but the record lists 3"),
        (["K", "K", "9", "Q", "B"], "the roll: 'B' is not a face"),
    ):
        rec = copy.deepcopy(EXAMPLE)
        rec["rounds"][0]["roll"] = roll
        code, out = run(tmp_path, json.dumps(rec), "--json")
        assert code == 1
        error = json.loads(out)["error"]
        assert (error["round"], error["move"]) == (0, None)
        assert error["message"].startswith(message)


def test_record_level_errors(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps({**EXAMPLE, "options": {"lives": 100}}), "--json")
    assert code == 1
    assert json.loads(out)["error"] == {
        "round": None,
        "move": None,
        "message": "lives must be 1..99, not 100",
    }
    code, out = run(tmp_path, json.dumps({**EXAMPLE, "liarsdice": 2}), "--json")
    assert code == 1 and "unsupported record version 2" in json.loads(out)["error"]["message"]


def test_text_record_of_poker_rules_is_read(tmp_path: Path) -> None:
    text = "Liar's Dice record, version 1\nRules: poker-dice\nPlayers: ann, bob\n"
    code, out = run(tmp_path, text, "--json", name="game.txt")
    assert code == 0
    assert json.loads(out) == {"ok": True, "rounds": [], "winner": None}


def test_human_output(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(EXAMPLE))
    assert code == 0
    assert out.splitlines() == [
        "Round 1: cy calls liar on bob's two pair K Q; hand K K Q Q J, the bid stands: "
        "cy loses a life | lives ann 3, bob 3, cy 2 | cy opens next",
        "No winner yet: the game is in progress.",
    ]


def test_human_output_five_of_a_kind(tmp_path: Path) -> None:
    code, out = run(tmp_path, json.dumps(FIVE))
    assert code == 0
    assert out.splitlines() == [
        "Round 1: bob accepts ann's five Q; hand Q Q K J 9, rolls Q Q Q Q 9; Q Q Q Q A; "
        "Q Q Q Q J: no five of a kind, bob loses a life | lives ann 1, bob 0 | game over",
        "Winner: ann",
    ]


def test_human_output_on_error(tmp_path: Path) -> None:
    rec = copy.deepcopy(EXAMPLE)
    rec["rounds"][0]["moves"][2]["player"] = "ann"
    code, out = run(tmp_path, json.dumps(rec))
    assert code == 1
    assert "error: round 1, move 3: it is cy's turn, not ann's" in out


def test_finished_games_name_the_winner(tmp_path: Path) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        players = 2 + seed % 4
        rules = PokerRules(lives=2, five_of_a_kind_rule=seed % 2 == 0)
        state = PokerGame(rules, players).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply_action(state.sample_chance(rng))
            else:
                state = state.apply_action(rng.choice(state.legal_actions()))
        winner = state.game.names[state.winner or 0]
        text = dumps_record(record_from_state(state))
        code, out = run(tmp_path, text, "--json")
        assert code == 0
        summary = json.loads(out)
        assert summary["winner"] == winner
        assert len(summary["rounds"]) == len(state.results)
        assert summary["rounds"][-1]["next_opener"] is None
        code, out = run(tmp_path, text)
        assert code == 0
        lines = out.splitlines()
        assert len(lines) == len(state.results) + 1 and lines[-1] == f"Winner: {winner}"
        assert "game over" in lines[-2]


def test_stdin_and_main_group(tmp_path: Path) -> None:
    result = CliRunner().invoke(replay, ["-", "--json"], input=json.dumps(EXAMPLE))
    assert result.exit_code == 0 and json.loads(result.output) == EXPECTED
    from liarsdice.cli.main import cli

    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == EXPECTED
