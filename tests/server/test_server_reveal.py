"""A reveal that is a moment (issue "a table that feels finished"): after a call the room holds
the next round while the round's reveal shows, until every connected player said
``continue`` or its time ran out; nothing of the next round reaches a page before, bots and
timers wait, the ranking comes after the last reveal, and the phase is folded from the log
like every other change (a room loaded in the middle of one ends it). Also: a snapshot carries
the game's public history (the log of a page opened late), and a player back from away gets
a summary of what the computer played for them."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from liarsdice.server.config import Settings
from liarsdice.server.protocol import (
    ActionMsg,
    AddBotMsg,
    CreateRoomBody,
    EmptyMsg,
    ResyncMsg,
    StartMsg,
)
from liarsdice.server.room import CommandError, Room, RoomState, decide
from liarsdice.server.room.commands import BotMove, CreateRoom, EndReveal, Join
from liarsdice.server.room.events import fold_all
from liarsdice.server.views import history, view_dict
from server_util import Fixed, Sink, assert_replays, async_test, eventually, running_manager


def _ok(d: Any) -> Any:
    assert not isinstance(d, CommandError), d
    return d


def _call_or_bid(state: RoomState, seat: int) -> int:
    """``liar`` when it is legal, else the least bid: rounds end quickly."""
    st, game = state.live_state, state.live_game
    legal = st.legal_actions()
    calls = [a for a in legal if game.action_to_string(a, seat) == "liar"]
    return calls[0] if calls else legal[0]


def _started(dice: int, entropy: Fixed) -> RoomState:
    state = RoomState(room_id="r")
    body = CreateRoomBody(preset="classic", options={"dice": dice}, name="ann")
    for m in (CreateRoom(body), Join("bob")):
        state = _ok(decide(state, -1, m, entropy)).after
    return _ok(decide(state, 0, StartMsg(), entropy)).after


def test_a_held_round_end_shows_nothing_of_the_next_round_and_replays() -> None:
    entropy = Fixed()
    state = _started(2, entropy)
    log = []
    start = state
    # play until a round ends, with a 4 s hold
    while True:
        seat = state.live_state.current_player
        d = _ok(decide(state, seat, ActionMsg(action=_call_or_bid(state, seat)), entropy, 4.0))
        log += d.events
        state = d.after
        if state.revealing:
            break
    kinds = [e.kind for e in d.events]
    assert kinds[-3:] == ["action", "fair_reveal", "reveal"]  # and nothing of the next round
    # the server times the reveal from the round's count: the verdict then shows the 4 s
    assert state.reveal is not None and state.reveal.plan is not None
    rnd = state.reveal.round
    plan = state.reveal.plan
    assert plan.counted == state.live_state.view(-1).results[rnd].count
    assert plan.hold == 4.0 and state.reveal.seconds == round(plan.verdict_at + 4.0 + 0.3, 3)
    assert plan.verdict_at == round(0.9 + plan.step * plan.counted + 0.45, 3)
    for seat in (0, 1, -1):
        v = view_dict(state, seat)
        assert v is not None
        assert v["legal"] == []
        if v["winner"] is None:  # (after the game's last call the view is its final state)
            assert v["my_dice"] == [] and v["bids"] == []
        assert len(v["results"]) == rnd + 1  # the round's result, with its public reveal
    # nobody moves, no bot, while the reveal shows
    refused = decide(state, 0, ActionMsg(action=0), entropy)
    assert isinstance(refused, CommandError) and refused.code == "bad_state"
    refused = decide(state, 0, BotMove(0), entropy)
    assert isinstance(refused, CommandError) and refused.code == "bad_state"
    stale = decide(state, -1, EndReveal(state.game_no, rnd + 1), entropy)
    assert isinstance(stale, CommandError)
    # its end starts the next round: a new fair round, its dice
    d = _ok(decide(state, -1, EndReveal(state.game_no, rnd, "continue"), entropy, 4.0))
    log += d.events
    assert [e.kind for e in d.events][:2] == ["reveal_over", "fair_round"]
    assert "chance" in [e.kind for e in d.events]
    state = d.after
    assert not state.revealing and state.reveal is None
    v = view_dict(state, 0)
    assert v is not None and v["my_dice"]
    # the value is the fold of its log
    again = fold_all(start, log)
    assert again.facts() == dataclasses.replace(state, seeds=again.seeds).facts()


def test_the_ranking_comes_after_the_last_reveal() -> None:
    entropy = Fixed()
    state = _started(1, entropy)  # one die each: the first call ends the game
    while not state.revealing:
        seat = state.live_state.current_player
        move = ActionMsg(action=_call_or_bid(state, seat))
        state = _ok(decide(state, seat, move, entropy, 4)).after
    assert state.status == "playing" and state.live_state.is_terminal()
    assert state.ranking is None  # no game_over yet
    r = state.reveal
    assert r is not None
    d = _ok(decide(state, -1, EndReveal(r.game_no, r.round), entropy, 4))
    assert [e.kind for e in d.events] == ["reveal_over", "game_over"]
    assert d.after.status == "finished" and d.after.ranking is not None
    assert d.after.reveal is None


def test_without_hold_nothing_changes() -> None:
    entropy = Fixed()
    state = _started(2, entropy)
    while state.status == "playing":
        seat = state.live_state.current_player
        d = _ok(decide(state, seat, ActionMsg(action=_call_or_bid(state, seat)), entropy))
        assert "reveal" not in [e.kind for e in d.events]
        state = d.after
        assert not state.revealing


def test_history_is_every_public_move_of_the_game() -> None:
    entropy = Fixed()
    state = _started(3, entropy)
    actions = []
    while state.status == "playing":
        seat = state.live_state.current_player
        d = _ok(decide(state, seat, ActionMsg(action=_call_or_bid(state, seat)), entropy))
        actions += [e for e in d.events if e.kind == "action"]
        state = d.after
    h = history(state)
    assert [m["seq"] for m in h] == [e.seq for e in actions]
    assert [m["text"] for m in h] == [e.data["text"] for e in actions]
    assert max(m["round"] for m in h) >= 1 and h[0]["round"] == 0
    assert set(h[0]) == {"seq", "round", "seat", "text", "move"}  # public fields only
    assert h[-1]["move"] == {"kind": "call", "call": h[-1]["text"]}  # the game ends on a call


# ---------------------------------------------------------------- the room (actor)
@asynccontextmanager
async def _room(
    tmp: Path, dice: int = 2, humans: int = 1, bots: int = 1, loss: str = "one", **settings: Any
) -> AsyncIterator[tuple[Room, list[Sink]]]:
    """ann (and bob...) connected, against bots, the game started."""
    opts: dict[str, Any] = {"bot_delay": 0.0, "reveal_seconds": 30.0, **settings}
    cfg = Settings(db_url=f"sqlite+aiosqlite:///{tmp / 'v.db'}", **opts)
    async with running_manager(cfg) as (_, manager):
        options = {"dice": dice, "loss": loss}  # (one die a call: games of several rounds)
        body = CreateRoomBody(preset="classic", options=options, name="ann")
        room, _, _ = await manager.create(body)
        for name in ("bob", "cy")[: humans - 1]:
            await room.join(name, None)
        sinks = [Sink(i) for i in range(humans)]
        for s in sinks:
            await room.submit(lambda s=s: room.connect(s, None, None, None))
        for _ in range(bots):
            await room.submit(lambda: room.handle(sinks[0], "add_bot", AddBotMsg(level="prob")))
        await room.submit(lambda: room.handle(sinks[0], "start", EmptyMsg()))
        yield room, sinks


async def _to_reveal(room: Room, sinks: list[Sink]) -> None:
    """The humans play (calling when they can) until a round's reveal holds the room."""
    for _ in range(2000):
        v = room.value
        if v.revealing or v.status != "playing":
            return
        st = v.live_state
        p = st.current_player
        if 0 <= p < len(sinks) and room._queue.empty():
            move = ActionMsg(action=_call_or_bid(v, p))
            await room.submit(lambda p=p, m=move: room.handle(sinks[p], "action", m))
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("no reveal")


def _kinds_after(sink: Sink, seq: int) -> list[str]:
    return [e["kind"] for e in sink.events() if e.get("seq", 0) > seq]


@async_test
async def test_the_reveal_holds_the_next_round_until_continue(tmp_path: Path) -> None:
    async with _room(tmp_path) as (room, (ann,)):
        await _to_reveal(room, [ann])
        assert room.value.revealing
        at = room.seq
        frame = ann.frames[-1]["data"]
        assert frame["room"]["reveal"]["waiting"] == [0]
        assert frame["room"]["reveal"]["deadline"] > frame["now"]
        assert frame["view"]["legal"] == []
        if frame["view"]["winner"] is None:  # (else the view is the game's final state)
            assert frame["view"]["my_dice"] == []
        await asyncio.sleep(0.15)  # the bot does not move, nothing is rolled
        assert room.seq == at and room.value.revealing
        assert not [k for k in _kinds_after(ann, at - 2) if k in ("fair_round", "chance")]
        await room.submit(lambda: room.handle(ann, "continue", EmptyMsg(id="c1")))
        assert not room.value.revealing
        reply = [f for f in ann.frames if f["data"].get("reply_to") == "c1"]
        assert reply and reply[0]["type"] == "update"
        kinds = [e["kind"] for e in reply[0]["data"]["events"]]
        assert kinds[:2] == ["reveal_over", "fair_round"]
        assert reply[0]["data"]["events"][0]["by"] == "continue"
        assert "reveal" not in reply[0]["data"]["room"]
        assert reply[0]["data"]["view"]["my_dice"]  # the next round's dice, now
        # (as the room's next command: a bot may be moving in the new round meanwhile, its
        # events written and not yet the room's value)
        await room.submit(lambda: assert_replays(room.store, room.settings, room))


@async_test
async def test_the_reveal_ends_when_its_time_runs_out(tmp_path: Path) -> None:
    async with _room(tmp_path, reveal_seconds=0.2) as (room, (ann,)):
        await _to_reveal(room, [ann])
        at = room.seq
        await eventually(lambda: not room.value.revealing)
        ev = next(e for e in ann.events() if e.get("kind") == "reveal_over")
        assert ev["seq"] == at + 1 and ev["by"] == "timeout"


@async_test
async def test_the_reveal_waits_for_every_connected_player(tmp_path: Path) -> None:
    async with _room(tmp_path, humans=2, bots=1) as (room, (ann, bob)):
        await _to_reveal(room, [ann, bob])
        await room.submit(lambda: room.handle(ann, "continue", EmptyMsg()))
        assert room.value.revealing  # bob is still looking
        ready = [e for e in bob.events() if e.get("kind") == "reveal_ready"]
        assert ready and ready[-1]["seat"] == 0
        assert bob.frames[-1]["data"]["room"]["reveal"]["ready"] == [0]
        await room.submit(lambda: room.handle(bob, "continue", EmptyMsg()))
        assert not room.value.revealing
        # next time ann continues and bob leaves the table: the reveal waits for nobody
        await _to_reveal(room, [ann, bob])
        if room.value.revealing:
            await room.submit(lambda: room.handle(ann, "continue", EmptyMsg()))
            assert room.value.revealing
            await room.submit(lambda: room.disconnect(bob))
            await eventually(lambda: not room.value.revealing)


@async_test
async def test_a_player_can_hold_the_reveal_once(tmp_path: Path) -> None:
    async with _room(tmp_path, humans=2, bots=1, reveal_seconds=0.2) as (room, (ann, bob)):
        await _to_reveal(room, [ann, bob])
        assert room.value.revealing
        # a spectator cannot hold it; ann can, once: 15 s from now, everyone sees who held it
        watcher = Sink(-1)
        await room.submit(lambda: room.connect(watcher, None, None, None))
        await room.submit(lambda: room.handle(watcher, "wait", EmptyMsg(id="w0")))
        assert watcher.errors("not_seated")
        now = room.settings.clock()
        await room.submit(lambda: room.handle(ann, "wait", EmptyMsg(id="w1")))
        held = [e for e in bob.events() if e.get("kind") == "reveal_wait"]
        assert held and held[-1]["seat"] == 0 and held[-1]["until"] >= now + 14.9
        phase = bob.frames[-1]["data"]["room"]["reveal"]
        assert phase["held_by"] == [0] and phase["deadline"] >= now + 14.9
        timer = room.turns._reveal
        assert timer is not None and timer[1].when() - asyncio.get_running_loop().time() > 14
        await room.submit(lambda: room.handle(ann, "wait", EmptyMsg(id="w2")))
        assert ann.errors("bad_state")
        # everyone continues: the round goes on at once
        for sink in (ann, bob):
            await room.submit(lambda s=sink: room.handle(s, "continue", EmptyMsg()))
        assert not room.value.revealing


@async_test
async def test_no_player_at_the_table_no_hold(tmp_path: Path) -> None:
    async with _room(tmp_path, dice=1, humans=1, bots=2) as (room, (ann,)):
        await room.submit(lambda: room.disconnect(ann))
        room.set_away(0, True, "grace_period")  # a bot plays ann: nobody is at the table
        await eventually(lambda: room.status == "finished")
        assert not [e for e in ann.events() if e.get("kind") == "reveal"]


@async_test
async def test_a_room_loaded_mid_reveal_ends_it(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'v.db'}"
    async with _room(tmp_path) as (room, (ann,)):
        await _to_reveal(room, [ann])
        assert room.value.revealing
        rid, seq = room.id, room.seq
    # the server restarts: the room is loaded in the middle of its reveal, and ends it
    cfg = Settings(db_url=db, bot_delay=0.0, reveal_seconds=0.2)
    async with running_manager(cfg) as (store, manager):
        again = manager.get(rid)
        assert again is not None and again.value.revealing and again.seq == seq
        await eventually(lambda: not again.value.revealing and again.seq > seq + 1)
        await again.submit(lambda: assert_replays(store, cfg, again))  # (between commands)


# ---------------------------------------------------------------- history, away summary
@async_test
async def test_a_snapshot_carries_the_games_history(tmp_path: Path) -> None:
    async with _room(tmp_path, dice=3) as (room, (ann,)):
        for _ in range(2):
            await _to_reveal(room, [ann])
            await room.submit(lambda: room.handle(ann, "continue", EmptyMsg()))
        late = Sink(-1)  # a page opened late: a spectator with no seq
        await room.submit(lambda: room.connect(late, None, None, None))
        snap = late.frames[-1]
        assert snap["type"] == "snapshot"
        at = snap["data"]["seq"]  # (a bot may have moved since)
        logged = [e for e in ann.events() if e.get("kind") == "action" and e["seq"] <= at]
        assert [m["seq"] for m in snap["data"]["history"]] == [e["seq"] for e in logged]
        assert [m["text"] for m in snap["data"]["history"]] == [e["text"] for e in logged]
        assert len({m["round"] for m in snap["data"]["history"]}) >= 2
        # a resync too far back is a snapshot with the same history
        assert room.snapshot_frame(0)["data"]["history"] == snap["data"]["history"]
        if room.seq > 64:  # a resync too far back is a snapshot with the history
            await room.submit(lambda: room.handle(ann, "resync", ResyncMsg(last_seq=0)))
            assert ann.frames[-1]["data"]["history"] == snap["data"]["history"]


@async_test
async def test_back_from_away_gets_a_summary(tmp_path: Path) -> None:
    async with _room(tmp_path, dice=5, reveal_seconds=0.0) as (room, (ann,)):
        start = room.value.live_state.view(-1).to_dict()["dice_counts"][0]
        room.set_away(0, True, "grace_period")
        mine = lambda: [e for e in ann.events() if e.get("auto") and e.get("seat") == 0]  # noqa: E731
        await eventually(lambda: len(mine()) >= 3 or room.status != "playing")
        spectator = Sink(-1)
        await room.submit(lambda: room.connect(spectator, None, None, None))
        await room.submit(lambda: room.handle(ann, "back", EmptyMsg()))
        back = [f for f in ann.frames if "away_summary" in (f["data"].get("view") or {})]
        assert back, "no summary"
        summary = back[0]["data"]["view"]["away_summary"]
        assert 3 <= summary["moves"] <= len(mine()) and summary["unit"] == "dice"
        assert summary["from"] == start
        assert summary["to"] <= start
        # the seat's own view only
        assert all("away_summary" not in (f["data"].get("view") or {}) for f in spectator.frames)
