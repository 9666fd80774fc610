"""Golden files: every public format, byte for byte, as the code wrote it before the family
refactor (issue 9).

The files under ``tests/golden/formats`` were generated from the code before the rule families
were moved behind one interface; these tests regenerate each output from today's code and
compare. A difference is a change to a public format (the JSON record, the text record,
``replay --json``, ``rules --json``, the server's frames, CLI output) and must be deliberate.

To regenerate after a deliberate change: ``LIARSDICE_REGEN_GOLDEN=1 pytest tests/test_golden.py``
(then review the diff).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from liarsdice.cli.main import cli
from liarsdice.families import preset_names, record_to_text

GOLDEN = Path(__file__).parent / "golden" / "formats"
REGEN = os.environ.get("LIARSDICE_REGEN_GOLDEN") == "1"


def check(name: str, text: str) -> None:
    """Compare ``text`` with the golden file ``name`` (or write it when regenerating)."""
    path = GOLDEN / name
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}; regenerate with LIARSDICE_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file"


def run(*args: str, input: str | None = None) -> str:
    """Run the CLI in-process; returns the exit code line and everything it printed."""
    result = CliRunner().invoke(cli, list(args), input=input)
    return f"$ liarsdice {' '.join(args)}\n[exit {result.exit_code}]\n{result.output}"


# ------------------------------------------------------------------------------ rules command
PRESET_NAMES = preset_names()  # a new preset needs its golden files


def test_rules_listing() -> None:
    check("rules.txt", run("rules") + run("rules", "--json") + run("rules", "nope"))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_of_each_preset(name: str) -> None:
    check(f"rules-{name}.txt", run("rules", name) + run("rules", name, "--json"))


# ------------------------------------------------------- watched games: output, records, replay
WATCHED = [
    ("classic", ["--players", "4", "--bots", "random,prob,bayes"], 11),
    ("milton-bradley", ["--players", "3", "--bots", "prob,random"], 12),
    ("house-rules", ["--players", "3", "--bots", "prob,bayes"], 13),
    ("spot-on", ["--players", "4", "--bots", "prob,random"], 14),
    ("room", ["--players", "3", "--bots", "prob,random"], 15),
    ("perudo", ["--players", "3", "--bots", "bayes,prob"], 16),
    ("openspiel", ["--bots", "random,prob"], 17),
    ("snyd-normal", ["--bots", "prob,random"], 18),
    ("snyd-joker", ["--bots", "prob,prob"], 19),
    ("classic", ["--players", "3", "--option", "stash=open", "--bots", "prob"], 20),
    ("classic", ["--players", "3", "--option", "stash=secret", "--bots", "random"], 21),
    ("poker-dice", ["--players", "3", "--bots", "random,prob"], 22),
    ("poker-dice", ["--players", "4", "--bots", "prob,random,bayes"], 23),
    ("poker-dice", ["--players", "2", "--option", "lives=2", "--bots", "prob"], 24),
]


@pytest.mark.parametrize(("preset", "extra", "seed"), WATCHED)
def test_watched_game_and_its_records(
    tmp_path: Path, preset: str, extra: list[str], seed: int
) -> None:
    name = f"{preset}-{seed}"
    rec = tmp_path / "game.json"
    args = ["play", "--watch", "--rules", preset, "--seed", str(seed), *extra]
    out = run(*args, "--save", str(rec)).replace(str(rec), "game.json")
    check(f"watch-{name}.txt", out)
    record_json = rec.read_text(encoding="utf-8")
    check(f"record-{name}.json", record_json)
    text = record_to_text(record_json)
    check(f"record-{name}.txt", text)
    txt = tmp_path / "game.txt"
    txt.write_text(text, encoding="utf-8")
    replays = "".join(
        run("replay", str(path), *flag).replace(str(path), path.name)
        for path in (rec, txt)
        for flag in ([], ["--json"])
    )
    check(f"replay-{name}.txt", replays)
    # a broken record: one move changed, and one truncated
    data = json.loads(record_json)
    broken = tmp_path / "broken.json"
    moves = data["rounds"][0]["moves"]
    moves[len(moves) // 2] = {"player": data["players"][0], "bid": "99x9"}
    broken.write_text(json.dumps(data), encoding="utf-8")
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: len(text) // 2] + "\nround x\n", encoding="utf-8")
    errors = "".join(
        run("replay", str(path), *flag).replace(str(path), path.name)
        for path in (broken, cut)
        for flag in ([], ["--json"])
    )
    check(f"replay-errors-{name}.txt", errors)


# ------------------------------------------------------------------------ humans at the prompt
def _inputs(lines: list[str], count: int = 400) -> str:
    return "\n".join(itertools.islice(itertools.cycle(lines), count)) + "\n"


HUMAN = [
    (
        "classic-human",
        ["--rules", "classic", "--players", "3", "--seed", "5", "--hints"],
        ["help", "hint", "odds", "0x0", "-3x2", "2x3", "nonsense", "3x4", "liar", "4x5", "5x6"],
    ),
    (
        "perudo-hotseat",
        ["--rules", "perudo", "--human", "ann", "--human", "bob", "--seed", "6"],
        ["", "help", "1x1", "2x5", "", "3x5", "liar", "", "exact", "4x2", "", "liar"],
    ),
    (
        "spot-on-human",
        ["--rules", "spot-on", "--players", "2", "--seed", "7", "--bots", "random"],
        ["2x2", "exact", "3x3", "liar", "4x6", "liar", "exact"],
    ),
    (
        "milton-bradley-human",
        ["--rules", "milton-bradley", "--players", "2", "--seed", "11", "--bots", "random"],
        ["help", "2x3", "show 3", "liar", "2x1", "yes", "no", "3x3", "liar"],
    ),
    (
        "poker-human",
        ["--rules", "poker-dice", "--players", "3", "--seed", "5", "--hints", "--bots", "prob"],
        [
            "help",
            "hint",
            "pair K",
            "accept",
            "left",
            "out K K K, then shake",
            "out K",
            "keep all",
            "up",
            "a pair of kings",
            "liar",
            "two pair A K",
            "five 9",  # a bid that beats most (after accepting, "out ..." shakes the cup)
            "nonsense",
        ],
    ),
    (
        "poker-hotseat",
        ["--rules", "poker-dice", "--human", "ann", "--human", "bob", "--seed", "9"],
        ["", "help", "pair 9", "accept", "right", "shake", "", "liar", "", "straight"],
    ),
]


@pytest.mark.parametrize(("name", "args", "lines"), HUMAN, ids=[h[0] for h in HUMAN])
def test_human_play(tmp_path: Path, name: str, args: list[str], lines: list[str]) -> None:
    rec = tmp_path / "g.json"
    out = run("play", *args, "--save", str(rec), input=_inputs(lines)).replace(str(rec), "g.json")
    saved = rec.read_text(encoding="utf-8") if rec.exists() else "(no record)\n"
    check(f"human-{name}.txt", out + "\n---- record ----\n" + saved)


def test_quit_and_eof() -> None:
    out = run("play", "--seed", "3", input="quit\n")
    out += run("play", "--seed", "3", input="")
    out += run("play", "--rules", "poker-dice", "--seed", "3", input="quit\n")
    out += run("play", "--rules", "poker-dice", "--seed", "3", input="")
    out += run("play", "--rules", "nope")
    out += run("play", "--rules", "classic", "--players", "1")
    out += run("play", "--rules", "poker-dice", "--option", "lives=0")
    out += run("play", "--rules", "classic", "--option", "nonsense=1")
    check("cli-misc.txt", out)


# ------------------------------------------------------------------- server frames of a game
def _patched_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    from liarsdice.server import fair

    counter = itertools.count()
    rng = random.Random(2024)

    monkeypatch.setattr(fair, "new_server_seed", lambda: f"{rng.getrandbits(256):064x}")
    monkeypatch.setattr(fair, "new_client_seed", lambda: f"c{next(counter)}")
    monkeypatch.setattr(
        secrets, "token_urlsafe", lambda n=None: f"tok{next(counter):04d}xxxxxxxxxx"
    )


SERVER_GAMES = [
    ("classic", {"dice": 2}),
    ("spot-on", {"dice": 2}),
    ("milton-bradley", {"dice": 2}),
    ("poker-dice", {"lives": 2}),
]


async def _server_game(tmp: Path, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """Three human seats and a spectator, every move sent by the test: one command, one frame
    per recipient, so the frame sequence is exactly reproducible."""
    from liarsdice.server.config import Settings
    from liarsdice.server.protocol import ActionMsg, ChatMsg, CreateRoomBody, EmptyMsg
    from liarsdice.server.room import RoomManager
    from liarsdice.server.store import Store
    from server_util import Sink

    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp / 'golden.db'}", bot_delay=0.0, clock=lambda: 1.8e9
    )
    store = Store(settings.db_url)
    await store.start()
    manager = RoomManager(settings, store)
    try:
        body = CreateRoomBody(preset=preset, options=options, name="ann", client_seed="ann-seed")
        room, _, _ = await manager.create(body)
        for name in ("bob", "cy"):
            await room.join(name, f"{name}-seed")
        sinks = [Sink(0), Sink(1), Sink(2), Sink(-1)]
        for s in sinks:
            await room.submit(lambda s=s: room.connect(s, None, None, None))
        await room.submit(lambda: room.handle(sinks[1], "chat", ChatMsg(text="hi all")))
        await room.submit(lambda: room.handle(sinks[0], "start", EmptyMsg()))
        rng = random.Random(preset)
        for _ in range(2000):
            if room.status == "finished":
                break
            if room.value.revealing:  # a round's reveal: every player continues
                for s in sinks[:3]:
                    await room.submit(lambda s=s: room.handle(s, "continue", EmptyMsg()))
                continue
            state = room.state
            assert state is not None
            seat = state.current_player
            legal = state.legal_actions()
            action = rng.choice(list(legal))
            msg = ActionMsg(action=action, seq=room.seq)
            await room.submit(lambda s=sinks[seat], m=msg: room.handle(s, "action", m))
        assert room.status == "finished"
        # an illegal move and a move out of turn get error frames
        await room.submit(lambda: room.handle(sinks[2], "action", ActionMsg(action=999999)))
        return {"sinks": sinks, "record": room.records[1]}
    finally:
        await manager.stop()
        await store.close()


def _frames_text(frames: list[dict[str, Any]]) -> Iterator[str]:
    for f in frames:
        yield json.dumps(f, sort_keys=True)


@pytest.mark.parametrize(("preset", "options"), SERVER_GAMES)
def test_server_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preset: str, options: dict[str, Any]
) -> None:
    from liarsdice.families import dumps_record

    _patched_randomness(monkeypatch)
    out = asyncio.run(_server_game(tmp_path, preset, options))
    lines = []
    for sink in out["sinks"]:
        lines += [f"# seat {sink.seat}", *_frames_text(sink.frames)]
    check(f"server-{preset}.jsonl", "\n".join(lines) + "\n")
    rec = tmp_path / "server.json"
    rec.write_text(dumps_record(out["record"]), encoding="utf-8")
    check(
        f"server-{preset}-record.txt",
        rec.read_text(encoding="utf-8")
        + run("verify", str(rec)).replace(str(rec), "server.json")
        + run("replay", str(rec), "--json").replace(str(rec), "server.json"),
    )


def test_http_presets_and_errors(tmp_path: Path) -> None:
    from server_util import client

    bodies: list[dict[str, Any]] = [
        {"preset": "nope", "name": "x"},
        {"preset": "classic", "name": "x", "options": {"loss": 7}},
        {"preset": "classic", "name": "x", "options": {"dice": 0}},
        {"preset": "poker-dice", "name": "x", "options": {"lives": 0}},
        {"preset": "poker-dice", "name": "x", "options": {"nope": 1}},
        {"preset": "perudo", "name": "x", "options": {"faces": 99}},
    ]
    with client(tmp_path) as c:
        out = [json.dumps(c.get("/api/presets").json(), sort_keys=True)]
        for body in bodies:
            r = c.post("/api/rooms", json=body)
            out.append(f"{r.status_code} {json.dumps(r.json(), sort_keys=True)}")
    check("http-presets.txt", "\n".join(out) + "\n")
