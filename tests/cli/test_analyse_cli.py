"""``liarsdice analyse FILE [--json]``: the text for players, the versioned JSON (one entry
per move of the record, probabilities in 0..1) and clear errors (docs/ANALYSIS.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice.cli.main import cli
from liarsdice.families import record_to_text

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "formats"
MOVE_KEYS = {
    "round",
    "index",
    "player",
    "kind",
    "played",
    "faced",
    "p_known",
    "p_actual",
    "p_exact_known",
    "p_exact_actual",
    "expert",
    "agrees",
    "loss",
    "mark",
    "value",
    "best",
    "best_value",
    "computer",
}
PLAYER_KEYS = {
    "decisions",
    "judged",
    "agreed",
    "inaccuracies",
    "mistakes",
    "blunders",
    "total_loss",
    "average_loss",
    "computer",
}


@pytest.mark.parametrize("name", ["record-perudo-16", "record-poker-dice-22"])
def test_json(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    result = CliRunner().invoke(cli, ["analyse", "--json", str(path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["format"] == "liarsdice-analysis" and out["version"] == 1
    assert {"family", "rules", "seats", "finished", "winner", "thresholds", "loss_measure"} <= set(
        out
    )
    record = json.loads(path.read_text())
    moves = [(r, m) for r, rnd in enumerate(record["rounds"]) for m in range(len(rnd["moves"]))]
    assert [(e["round"], e["index"]) for e in out["moves"]] == moves  # one entry per move
    for entry in out["moves"]:
        assert set(entry) == MOVE_KEYS
        for key in ("p_known", "p_actual", "p_exact_known", "p_exact_actual"):
            assert entry[key] is None or 0.0 <= entry[key] <= 1.0
    assert set(out["players"]) == set(record["players"])
    assert all(set(s) == PLAYER_KEYS for s in out["players"].values())


def test_text_of_a_text_record(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record_to_text(json.loads((GOLDEN / "record-spot-on-14.json").read_text())))
    result = CliRunner().invoke(cli, ["analyse", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Analysis (spot-on):")
    assert "Round 1" in lines and "Players" in lines
    assert any("blunder" in line for line in lines) and lines[-1].startswith("Winner: ")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"liarsdice": 1, "rules": "nope", "players": ["a", "b"], "rounds": []}', "unknown rules"),
        ("hello", "not a liarsdice text record"),
        ("[1, 2]", "Error: "),
    ],
)
def test_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = CliRunner().invoke(cli, ["analyse", str(path)])
    assert result.exit_code == 1
    assert message.lower() in result.output.lower() and "Traceback" not in result.output
    assert result.output.startswith("Error: ")


def test_a_missing_file() -> None:
    result = CliRunner().invoke(cli, ["analyse", "/no/such/game.json"])
    assert result.exit_code == 1 and "can't read" in result.output.lower()


def _summary(**counts: int) -> dict[str, object]:
    base = {"decisions": 0, "judged": 0, "agreed": 0, "inaccuracies": 0, "mistakes": 0}
    return {**base, "blunders": 0, "average_loss": None, **counts}


def test_every_count_agrees_with_its_noun() -> None:
    """Issue 40: "1 mistakes, 1 blunders" (the counts go through the catalogue's plurals)."""
    from liarsdice.cli.analyse import analysis_text
    from liarsdice.i18n import using

    analysis = {
        "rules": "classic",
        "seats": ["ann", "bob"],
        "loss_measure": "the expert's estimate of the win chance the move gave away",
        "moves": [],
        "players": {
            "ann": _summary(
                decisions=1, judged=1, agreed=1, inaccuracies=1, mistakes=1, blunders=1
            ),
            "bob": _summary(
                decisions=2, judged=2, agreed=2, inaccuracies=2, mistakes=2, blunders=2
            ),
        },
        "finished": False,
        "winner": None,
    }
    text = analysis_text(analysis)
    assert "ann: 1 decision, 1 judged, 1 as the expert; 1 inaccuracy, 1 mistake, 1 blunder;" in text
    assert (
        "bob: 2 decisions, 2 judged, 2 as the expert; 2 inaccuracies, 2 mistakes, 2 blunders;"
        in text
    )
    with using("es"):
        text = analysis_text(analysis)
    assert (
        "ann: 1 decisión, 1 juzgada, 1 como el experto; 1 imprecisión, 1 error, 1 error grave;"
        in text
    )
    assert "2 imprecisiones, 2 errores, 2 errores graves; pérdida media -" in text
    assert "la estimación del experto de la probabilidad de ganar" in text
    assert text.endswith("La partida no ha terminado.")


def test_a_golden_game_says_its_counts_in_words() -> None:
    result = CliRunner().invoke(cli, ["analyse", str(GOLDEN / "record-perudo-16.json")])
    assert result.exit_code == 0, result.output
    for word in ("decision", "inaccuracy", "mistake", "blunder"):
        assert f" 1 {word}s" not in result.output
