"""Tests for ``liarsdice replay``: checking JSON and text records of every rule family from the
command line (exit codes, ``--json`` shapes, the human output and its errors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from liarsdice.cli.replay import replay
from liarsdice.families import FAMILIES, Family, dumps_record, record_from_state, record_to_text
from liarsdice.notation.bidding import record as bidding_record
from liarsdice.notation.poker import record as poker_record
from record_util import (
    EXAMPLES,
    FAMILY_NAMES,
    SUMMARIES,
    TEXTS,
    example,
    random_state,
    run_replay,
)

# What ``liarsdice replay`` prints for each family's example record.
HUMAN = {
    "bidding": "Round 1: cy calls liar on bob's 5x6; count 7: cy loses 1 | dice ann 5, bob 5, "
    "cy 4 | bob opens next",
    "poker": "Round 1: cy calls liar on bob's two pair K Q; hand K K Q Q J, the bid stands: "
    "cy loses a life | lives ann 3, bob 3, cy 2 | cy opens next",
}

# A broken move of each example and the error it makes (round 0).
ILLEGAL: dict[str, tuple[int, dict[str, Any], str]] = {
    "bidding": (
        2,
        {"player": "cy", "bid": "4x5"},
        "4x5 does not beat 5x6; least legal bids: 3x1, 6x2, 6x3, 6x4",
    ),
    "poker": (
        1,
        {**EXAMPLES["poker"]["rounds"][0]["moves"][1], "bid": "pair Q"},
        "pair Q does not beat pair K; least legal bids: pair K 9, pair K 10, pair K 10 9, pair K J",
    ),
}

# A round-level error of each example (``move`` is null).
ROUND_ERRORS: dict[str, tuple[str, Any, str]] = {
    "bidding": ("dice", {"ann": [1, 3], "bob": [2] * 5, "cy": [1] * 5}, "ann has 5 dice but the "),
    "poker": ("roll", ["K", "K", "9"], "the roll is five dice, but the record lists 3"),
}


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_json_output(tmp_path: Path, family: str) -> None:
    code, out = run_replay(tmp_path, json.dumps(EXAMPLES[family]), "--json")
    assert code == 0
    assert json.loads(out) == SUMMARIES[family]
    assert out.count("\n") == 1  # exactly one JSON object on one line


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_text_and_pretty_printed_json_are_detected(tmp_path: Path, family: str) -> None:
    code, out = run_replay(tmp_path, TEXTS[family], "--json", name="game.txt")
    assert code == 0 and json.loads(out) == SUMMARIES[family]
    content = "\n  " + dumps_record(EXAMPLES[family])
    code, out = run_replay(tmp_path, content, "--json", name="game.txt")
    assert code == 0 and json.loads(out) == SUMMARIES[family]


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_NAMES)
def test_empty_game_of_every_preset(tmp_path: Path, family: Family) -> None:
    for preset in family.presets:
        text = f"Liar's Dice record, version 1\nRules: {preset}\nPlayers: ann, bob\n"
        code, out = run_replay(tmp_path, text, "--json", name="game.txt")
        assert code == 0
        assert json.loads(out) == {"ok": True, "rounds": [], "winner": None}


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_illegal_move(tmp_path: Path, family: str) -> None:
    m, move, message = ILLEGAL[family]
    rec = example(family)
    rec["rounds"][0]["moves"][m] = move
    code, out = run_replay(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    assert json.loads(out) == {"ok": False, "error": {"round": 0, "move": m, "message": message}}
    code, out = run_replay(tmp_path, json.dumps(rec))
    assert code == 1 and f"Error: Round 1, move {m + 1}: {message}" in out


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_round_errors_have_no_move(tmp_path: Path, family: str) -> None:
    key, value, message = ROUND_ERRORS[family]
    rec = example(family)
    rec["rounds"][0][key] = value
    code, out = run_replay(tmp_path, json.dumps(rec), "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, None)
    assert error["message"].startswith(message)
    code, out = run_replay(tmp_path, json.dumps(rec))
    assert code == 1 and f"Error: Round 1: {message}" in out


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_unreadable_records_and_missing_file(tmp_path: Path, family: str) -> None:
    code, out = run_replay(tmp_path, '{"liarsdice": 1, "rules"', "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["round"] is None and error["move"] is None
    assert error["message"].startswith("not valid JSON")
    result = CliRunner().invoke(replay, [str(tmp_path / "nope.json"), "--json"])
    assert result.exit_code == 1
    error = json.loads(result.output)["error"]
    assert error["round"] is None and "can't read" in error["message"]
    code, out = run_replay(tmp_path, "hello", "--json", name="hello.txt")
    assert code == 1 and "not a liarsdice text record" in json.loads(out)["error"]["message"]
    code, out = run_replay(tmp_path, json.dumps(example(family, liarsdice=2)), "--json")
    assert code == 1
    assert json.loads(out)["error"] == {
        "round": None,
        "move": None,
        "message": "unsupported record version 2; this reader knows version 1",
    }
    code, out = run_replay(tmp_path, json.dumps(example(family, liarsdice=2)))
    assert code == 1 and "Error: Unsupported record version 2" in out


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_text_record_errors_carry_the_location(tmp_path: Path, family: str) -> None:
    text = TEXTS[family].replace("cy: liar", "bob: liar")
    code, out = run_replay(tmp_path, text, "--json", name="game.txt")
    assert code == 1
    assert json.loads(out)["error"] == {
        "round": 0,
        "move": 2,
        "message": "it is cy's turn, not bob's",
    }
    bad = TEXTS[family].replace("cy: liar", "cy: fold")
    number = bad.splitlines().index("cy: fold") + 1
    code, out = run_replay(tmp_path, bad, "--json", name="game.txt")
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["round"], error["move"]) == (0, 2)
    assert error["message"].startswith(f"line {number}: can't read 'fold'")
    code, out = run_replay(tmp_path, bad, name="game.txt")
    assert code == 1 and f"Error: Round 1, move 3: line {number}: can't read 'fold'" in out


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_human_output(tmp_path: Path, family: str) -> None:
    code, out = run_replay(tmp_path, json.dumps(EXAMPLES[family]))
    assert code == 0
    assert out.splitlines() == [HUMAN[family], "No winner yet: the game is in progress."]


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_human_output_on_error(tmp_path: Path, family: str) -> None:
    rec = example(family)
    rec["rounds"][0]["moves"][1]["player"] = "cy"
    code, out = run_replay(tmp_path, json.dumps(rec))
    assert code == 1
    assert "Error: Round 1, move 2: it is bob's turn, not cy's" in out


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_NAMES)
def test_finished_games_name_the_winner(tmp_path: Path, family: Family) -> None:
    for seed in range(4):
        state = random_state(family, next(iter(family.presets)), seed, players=2 + seed % 3)
        winner = state.game.names[state.winner]
        record = record_from_state(state)
        for content in (dumps_record(record), record_to_text(record)):
            code, out = run_replay(tmp_path, content, "--json", name="game.txt")
            assert code == 0
            summary = json.loads(out)
            assert summary["winner"] == winner
            assert len(summary["rounds"]) == len(state.results)
            assert summary["rounds"][-1]["next_opener"] is None
            code, out = run_replay(tmp_path, content, name="game.txt")
            assert code == 0
            lines = out.splitlines()
            assert len(lines) == len(state.results) + 1 and lines[-1] == f"Winner: {winner}"
            assert "game over" in lines[-2]


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_stdin_and_main_group(tmp_path: Path, family: str) -> None:
    content = json.dumps(EXAMPLES[family])
    result = CliRunner().invoke(replay, ["-", "--json"], input=content)
    assert result.exit_code == 0 and json.loads(result.output) == SUMMARIES[family]
    result = CliRunner().invoke(replay, ["-"], input=TEXTS[family])
    assert result.exit_code == 0 and result.output.splitlines()[0] == HUMAN[family]
    from liarsdice.cli.main import cli

    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == SUMMARIES[family]


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize("form", ["json", "text"])
@pytest.mark.parametrize("args", [(), ("--json",)])
def test_replay_checks_the_record_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str, form: str, args: tuple[str, ...]
) -> None:
    """``liarsdice replay`` reads and checks a record once: its rules are built once and its
    family found by one pass over the registry; the replay and the summary take the loaded
    record as it is."""
    record = EXAMPLES[family]
    content = dumps_record(record) if form == "json" else record_to_text(record)
    built: list[object] = []
    for module in (bidding_record, poker_record):

        def counted(data: Any, real: Any = module.record_rules) -> Any:
            built.append(data.get("rules"))
            return real(data)

        monkeypatch.setattr(module, "record_rules", counted)
    asked: list[str] = []
    for fam in FAMILIES:

        def owns(data: Any, real: Any = fam.owns_record, name: str = fam.name) -> bool:
            asked.append(name)
            return bool(real(data))

        monkeypatch.setattr(fam, "owns_record", owns)
    code, out = run_replay(tmp_path, content, *args, name=f"game.{form}")
    assert code == 0, out
    assert built == [record["rules"]]
    assert asked == [f.name for f in FAMILIES][: asked.index(family) + 1]
