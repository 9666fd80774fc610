"""Resync is bounded (a snapshot, cached, beyond a window) and actions are idempotent by id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from liarsdice.server.protocol import ActionMsg, ChatMsg, CreateRoomBody, EmptyMsg, ResyncMsg
from liarsdice.server.room import fanout as fanout_mod
from server_util import Sink, async_test, room_manager


@async_test
async def test_resync_far_back_gets_a_cached_snapshot(tmp_path: Path, monkeypatch: Any) -> None:
    async with room_manager(tmp_path) as (_, manager):
        room, _, _ = await manager.create(CreateRoomBody(preset="classic", name="ann"))
        await room.join("bob", None)
        ann, spec1, spec2 = Sink(0), Sink(-1), Sink(-1)
        for s in (ann, spec1, spec2):
            await room.submit(lambda s=s: room.connect(s, None, None, None))
        for i in range(400):
            await room.submit(lambda i=i: room.handle(ann, "chat", ChatMsg(text=f"hello {i}")))
        assert room.seq > 400
        calls: list[int] = []
        real = fanout_mod.snapshot

        def counting(room_: Any, live: Any, seat: int) -> dict[str, Any]:
            calls.append(seat)
            return real(room_, live, seat)

        monkeypatch.setattr(fanout_mod, "snapshot", counting)
        far = ResyncMsg(last_seq=room.seq - 399, id="far")
        for s in (spec1, spec2, spec1):
            await room.submit(lambda s=s: room.handle(s, "resync", far))
            reply = s.frames[-1]
            assert reply["type"] == "snapshot" and reply["data"]["reply_to"] == "far"
            assert len(json.dumps(reply)) < 12_000  # bounded: not 400 events
        assert calls == [-1]  # rendered once for every spectator at this seq
        near = ResyncMsg(last_seq=room.seq - 5, id="near")
        await room.submit(lambda: room.handle(ann, "resync", near))
        reply = ann.frames[-1]
        assert reply["type"] == "update" and reply["data"]["reply_to"] == "near"
        assert [e["seq"] for e in reply["data"]["events"]] == list(
            range(room.seq - 4, room.seq + 1)
        )
        # hello with last_seq: the same rule
        late, soon = Sink(0), Sink(0)
        await room.submit(lambda: room.connect(late, room.seq - 300, None, None))
        await room.submit(lambda: room.connect(soon, room.seq - 3, None, None))
        assert late.frames[1]["type"] == "snapshot"
        assert soon.frames[1]["type"] == "update" and len(soon.frames[1]["data"]["events"]) == 3


async def _two_playing(manager: Any) -> tuple[Any, Sink, Sink]:
    """A classic room of ann and bob, both connected, its game started."""
    room, _, _ = await manager.create(CreateRoomBody(preset="classic", name="ann"))
    await room.join("bob", None)
    ann, bob = Sink(0), Sink(1)
    for s in (ann, bob):
        await room.submit(lambda s=s: room.connect(s, None, None, None))
    await room.submit(lambda: room.handle(ann, "start", EmptyMsg()))
    return room, ann, bob


@async_test
async def test_repeated_action_id_is_applied_once(tmp_path: Path) -> None:
    async with room_manager(tmp_path) as (store, manager):
        room, ann, bob = await _two_playing(manager)
        game = room.game
        assert game is not None
        liar = game.string_to_action("liar")
        sent: ActionMsg | None = None
        checked = 0
        for n in range(1, 2001):
            if checked >= 3:
                break
            if room.status != "playing":  # over before ann called twice: another game
                if checked:
                    break
                sent = None  # ids are per game
                await room.submit(lambda: room.handle(ann, "rematch", EmptyMsg()))
                game = room.game
                assert game is not None
                liar = game.string_to_action("liar")
                continue
            st = room.state
            assert st is not None
            p = st.current_player
            legal = list(st.legal_actions())
            bids = [a for a in legal if a != liar]
            if p == 0 and liar in legal and sent is None:
                sent = ActionMsg(action=liar, id=f"call{room.game_no}")  # ann calls once
                msg = sent
            elif p == 0 and liar in legal and sent is not None:
                # The very frame sent before, legal again: acknowledged, not applied.
                seq, before = room.seq, len(ann.frames)
                await room.submit(lambda m=sent: room.handle(ann, "action", m))
                assert room.seq == seq and room.state is st
                reply = ann.frames[before:]
                assert [f["type"] for f in reply] == ["update"]
                assert reply[0]["data"]["reply_to"] == sent.id
                assert reply[0]["data"]["events"] == []
                checked += 1
                msg = ActionMsg(action=min(bids or legal), id=f"m{n}")
            else:  # bob bids the least (and calls when he must)
                msg = ActionMsg(action=min(bids or legal), id=f"m{n}")
            await room.submit(lambda s=(ann, bob)[p], m=msg: room.handle(s, "action", m))
            # the same frame at once again: a no-op acknowledgement too
            seq = room.seq
            await room.submit(lambda s=(ann, bob)[p], m=msg: room.handle(s, "action", m))
            assert room.seq == seq
            assert (ann, bob)[p].frames[-1]["type"] == "update"
        assert checked >= 1
        events = await store.events(room.id)
        ids = [d["id"] for _, k, d in events if k == "action" and "id" in d]
        assert len(ids) == len(set(ids))


@async_test
async def test_a_repeat_that_arrives_in_a_later_game_is_not_applied(tmp_path: Path) -> None:
    """A move's id is remembered across the room's games (and in its snapshots): the same
    frame sent again once its game has ended (a retry after a lost acknowledgement, which
    the partition harness found arriving late) is acknowledged, not played in the new game."""
    from liarsdice.server.room.state import from_snapshot, snapshot_json

    async with room_manager(tmp_path) as (_, manager):
        room, ann, bob = await _two_playing(manager)
        sent: dict[int, ActionMsg] = {}  # each seat's first move of game 1
        n = 0
        while room.status == "playing":  # game 1: everyone bids the least, calls when it must
            st = room.state
            assert st is not None
            p, n = st.current_player, n + 1
            msg = ActionMsg(action=min(st.legal_actions()), id=f"g1m{n}")
            sent.setdefault(p, msg)
            await room.submit(lambda s=(ann, bob)[p], m=msg: room.handle(s, "action", m))
        await room.submit(lambda: room.handle(ann, "rematch", EmptyMsg()))
        assert room.game_no == 2 and room.status == "playing"
        kept = from_snapshot(room.id, json.loads(json.dumps(snapshot_json(room.value))))
        assert kept.action_ids == room.value.action_ids and len(kept.action_ids) == n
        for _ in range(400):  # later games: the old frames come again once they are legal
            if room.status == "finished":
                await room.submit(lambda: room.handle(ann, "rematch", EmptyMsg()))
            st = room.state
            assert st is not None
            p = st.current_player
            old = sent.get(p)
            if old is not None and old.action in st.legal_actions():
                seq, before = room.seq, len((ann, bob)[p].frames)
                await room.submit(lambda s=(ann, bob)[p], m=old: room.handle(s, "action", m))
                reply = (ann, bob)[p].frames[before:]
                assert room.seq == seq and [f["type"] for f in reply] == ["update"]
                assert reply[0]["data"]["reply_to"] == old.id and reply[0]["data"]["events"] == []
                return
            msg = ActionMsg(action=max(a for a in st.legal_actions()))
            await room.submit(lambda s=(ann, bob)[p], m=msg: room.handle(s, "action", m))
        raise AssertionError("no old move became legal again in a later game")
