"""The room's events as typed values (``server/room_events.py``): every kind handled by every
consumer (the fold, the store's projection, the views, the browser's generated list), and a
logged event read back into the same value and the same JSON."""

from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest

from liarsdice.server import projection, views
from liarsdice.server.protocol import AddBotMsg, CreateRoomBody, StartMsg
from liarsdice.server.room import events
from liarsdice.server.room.commands import BotMove, CreateRoom, Decision, Join, decide
from liarsdice.server.room.state import Event, RoomState
from liarsdice.server.room_events import (
    EVENT_TYPES,
    KINDS,
    KINDS_JS,
    Action,
    GameEvent,
    RoomEvent,
    SeatEvent,
    SeatJoined,
    kinds_js,
    main,
    parse,
)

ALL = {t.__name__ for t in get_args(RoomEvent)}


def _matched(*functions: Callable[..., Any]) -> set[str]:
    """The event classes the ``match`` statements of ``functions`` name, each of which must
    end in an ``assert_never`` arm (mypy then proves it exhaustive)."""
    names: set[str] = set()
    for fn in functions:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        matches = [n for n in ast.walk(tree) if isinstance(n, ast.Match)]
        assert matches, f"{fn.__name__} matches on no event"
        for m in matches:
            last = ast.unparse(m.cases[-1])
            assert "assert_never" in last or "_game_step" in last, f"{fn.__name__}: {last}"
            for case in m.cases:
                for node in ast.walk(case.pattern):
                    if isinstance(node, ast.MatchClass):  # (``evt.Chat()`` or ``Chat()``)
                        names.add(ast.unparse(node.cls).rpartition(".")[2])
    return names


@pytest.mark.parametrize(
    "consumer",
    [
        (events._room_step, events._game_step),
        (projection._rows,),
        (views._derived,),
    ],
    ids=["fold", "projection", "views"],
)
def test_every_kind_is_handled_by_every_consumer(consumer: tuple[Callable[..., Any], ...]) -> None:
    assert _matched(*consumer) == ALL


def test_the_kinds_are_one_list() -> None:
    assert set(get_args(SeatEvent)) | set(get_args(GameEvent)) == set(get_args(RoomEvent))
    assert not set(get_args(SeatEvent)) & set(get_args(GameEvent))
    assert len(KINDS) == len(ALL) == len(set(KINDS))
    assert all(k == EVENT_TYPES[k].KIND for k in KINDS)


def test_the_browser_reads_the_generated_kinds() -> None:
    """``static/event-kinds.js`` is written from the classes (``python -m
    liarsdice.server.room_events``), and the client's other files compare an event's kind
    with its names only, never a string of their own."""
    assert KINDS_JS.read_text(encoding="utf-8") == kinds_js(), "regenerate event-kinds.js"
    assert re.findall(r'"(\w+)",', KINDS_JS.read_text(encoding="utf-8")) == list(KINDS)
    assert main(["--check"]) == 0
    literal = re.compile(r'(?:kind\s*[!=]==\s*|case\s+)"(' + "|".join(KINDS) + r')"')
    for path in KINDS_JS.parent.glob("*.js"):
        found = literal.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} names event kinds as strings: {found}"


def _decided(state: RoomState, seat: int, msg: Any) -> tuple[RoomState, tuple[Event, ...]]:
    d = decide(state, seat, msg)
    assert isinstance(d, Decision), d
    return d.after, d.events


def _a_game() -> list[Event]:
    """The events of a room of a person and two bots, played to the end by the bots' moves."""
    body = CreateRoomBody(preset="classic", options={"dice": 2}, name="ann", turn_timer=30)
    s, log = _decided(RoomState(room_id="r"), -1, CreateRoom(body, player="p"))
    for msg, seat in ((Join("bob", None), -1), (AddBotMsg(level="random"), 0), (StartMsg(), 0)):
        s, evs = _decided(s, seat, msg)
        log += evs
    while s.status == "playing":
        st = s.live_state
        s, evs = _decided(s, st.current_player, BotMove(st.legal_actions()[0]))
        log += evs
    return list(log)


def test_a_logged_event_reads_back_the_same() -> None:
    """The stored JSON of a decided event parses into the same value, whose JSON is the same
    text (the log's keys in the log's order)."""
    log = _a_game()
    assert {ev.kind for ev in log} >= {"room_created", "seat_joined", "action", "game_over"}
    for ev in log:
        stored = json.loads(ev.text)
        body = parse(ev.kind, stored)
        assert body == ev.body
        assert json.dumps(body.to_json(), separators=(",", ":")) == ev.text
        assert Event(ev.seq, ev.kind, stored).body == ev.body


def test_a_field_with_another_key_and_optional_fields() -> None:
    bot = SeatJoined(seat=1, name="b", seat_kind="bot", level="random", client_seed="c")
    assert bot.to_json() == {
        "seat": 1,
        "name": "b",
        "kind": "bot",
        "level": "random",
        "client_seed": "c",
    }
    assert bot.public() == {"seat": 1, "name": "b", "seat_kind": "bot", "level": "random"}
    old = parse("action", {"seat": 0, "action": 3})  # a log from before moves had text
    assert old == Action(seat=0, action=3)
    assert old.public() == {"seat": 0, "action": 3, "text": None, "auto": None, "timeout": None}


def test_an_unknown_kind_does_not_replay() -> None:
    with pytest.raises(events.ReplayError, match="unknown event kind"):
        events.fold(RoomState(room_id="r"), Event(1, "no_such_kind", {}))


def test_the_room_modules_import_no_circle() -> None:
    """The room's parts (``server/room/*``) take narrow protocols of the room, never the room:
    their imports, ``TYPE_CHECKING`` ones included, form no circle."""
    package = Path(events.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        if path.stem == "__init__":
            continue
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                name = node.module
                if name.startswith("liarsdice.server.room."):
                    found.add(name.rpartition(".")[2])
        graph[path.stem] = found
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"an import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in sorted(graph.get(module, ())):
            visit(dep, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
