"""A cluster of real ``liarsdice serve`` processes on one PostgreSQL database and one Redis
(issue 23): play across nodes, an owner killed mid-round, a drain, a stale owner refused.

Each test starts its own nodes (``cluster_util.nodes``) on a new database; Redis is the
session's throwaway ``redis-server`` (``LIARSDICE_SKIP_REDIS=1`` skips these tests)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cluster_util import Nodes, Player, nodes, post

pytestmark = pytest.mark.slow


def _flush(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()


@pytest.fixture
def cluster3(tmp_path: Path, pg_url: str, redis_server: Any) -> Any:
    _flush(redis_server.url)
    with nodes(
        tmp_path, pg_url.replace("postgresql+asyncpg", "postgresql+asyncpg"), redis_server.url, 3
    ) as c:
        yield c


async def _table(
    c: Nodes, host_node: int, guest_node: int, watch_node: int
) -> tuple[str, Player, Player, Player]:
    """A room created through one node, joined through another, watched through a third; the
    game started."""
    created = post(
        c.base(host_node),
        "/api/rooms",
        {"preset": "classic", "name": "ann", "options": {"dice": 2}},
    )
    room = created["room"]
    joined = post(c.base(guest_node), f"/api/rooms/{room}/join", {"name": "bob"})
    ann = Player(c.ws(host_node, room), created["token"])
    bob = Player(c.ws(guest_node, room), joined["token"])
    eve = Player(c.ws(watch_node, room), None)
    for p in (ann, bob, eve):
        await p.open()
    await ann.until(lambda: len(ann.frames) > 0 and bob.frames and eve.frames)
    await ann.send("start")
    for p in (ann, bob, eve):
        await p.until(lambda p=p: p.status == "playing")
    return room, ann, bob, eve


async def _play(players: list[tuple[int, Player]], until: Any, timeout: float = 30.0) -> None:
    """Each player moves on its turn until ``until()`` (a move that got no answer in 2 s, say
    sent while its room changed owner, is sent again: a stale one is refused by its seq)."""
    deadline = time.monotonic() + timeout
    moved: dict[int, tuple[int, float]] = {}
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError([p.frames[-2:] for _, p in players])
        for seat, p in players:
            last = moved.get(seat)
            fresh = last is None or last[0] != p.seq or time.monotonic() - last[1] > 2.0
            if p.my_turn(seat) and fresh:
                moved[seat] = (p.seq, time.monotonic())
                await p.play_first_legal(seat)
        await asyncio.sleep(0.02)


async def _started(
    c: Nodes, where: tuple[int, int], dice: int, events: int
) -> tuple[str, Player, Player]:
    """A room created (and owned) through node 0; ann and bob play through the nodes
    ``where``; the game started and ``events`` of its log played."""
    created = post(c.base(0), "/api/rooms", {"name": "ann", "options": {"dice": dice}})
    room = created["room"]
    joined = post(c.base(0), f"/api/rooms/{room}/join", {"name": "bob"})
    ann = Player(c.ws(where[0], room), created["token"])
    bob = Player(c.ws(where[1], room), joined["token"])
    for p in (ann, bob):
        await p.open()
    await ann.until(lambda: ann.seq >= 3 and bob.seq >= 3)
    await ann.send("start")
    await _play([(0, ann), (1, bob)], lambda: len(ann.events) >= events)
    return room, ann, bob


async def _finish(ann: Player, bob: Player) -> None:
    """Play the game to its end: neither player reconnected, both saw one log."""
    await _play([(0, ann), (1, bob)], lambda: "finished" in (ann.status, bob.status), 60)
    await bob.until(lambda: bob.status == "finished" and ann.status == "finished")
    assert ann.closed is None and bob.closed is None
    _same_log(ann, bob)
    for p in (ann, bob):
        await p.close()


def _owner(c: Nodes, room: str, alive: list[int]) -> int:
    owners = [i for i in alive if room in c.health(i)["rooms_owned"]]
    assert len(owners) == 1, owners
    return owners[0]


def test_a_room_is_played_across_three_nodes(cluster3: Nodes) -> None:
    async def run() -> None:
        room, ann, bob, eve = await _table(cluster3, 0, 1, 2)
        await _play(
            [(0, ann), (1, bob)], lambda: ann.status == "finished" or bob.status == "finished"
        )
        await bob.until(lambda: bob.status == "finished")
        await eve.until(lambda: eve.seq == ann.seq == bob.seq)
        # every connection saw the same log, in order, whatever node it is on
        assert sorted(ann.events) == sorted(bob.events) == list(range(min(ann.events), ann.seq + 1))
        assert [ann.events[s]["kind"] for s in ann.events] == [
            bob.events[s]["kind"] for s in ann.events
        ]
        assert set(eve.events) == set(ann.events)
        assert _owner(cluster3, room, [0, 1, 2]) == 0  # created there: its owner
        for p in (ann, bob, eve):
            await p.close()

    asyncio.run(run())


def _same_log(*players: Player) -> None:
    first = players[0]
    for p in players[1:]:
        common = sorted(set(first.events) & set(p.events))
        assert common and common[-1] == min(first.seq, p.seq)
        assert [first.events[s] for s in common] == [p.events[s] for s in common]


def test_the_owner_is_killed_mid_round_and_play_resumes(cluster3: Nodes) -> None:
    """SIGKILL of a room's owner: another node takes it over from the log within 5 s; the
    players on the surviving nodes go on without reconnecting; the game's record verifies."""

    async def run() -> None:
        room, ann, bob = await _started(cluster3, (1, 2), dice=2, events=8)
        assert _owner(cluster3, room, [0, 1, 2]) == 0
        await asyncio.sleep(0.3)  # (the last moves' frames are in)
        seq = max(ann.seq, bob.seq)
        killed = time.monotonic()
        cluster3.kill(0)
        # the next move is taken by the room's new owner: within 5 s of the kill
        await _play([(0, ann), (1, bob)], lambda: min(ann.seq, bob.seq) > seq, 10)
        resumed = time.monotonic() - killed
        assert resumed <= 5.0, resumed
        await _finish(ann, bob)  # (nobody reconnected)
        assert _owner(cluster3, room, [1, 2]) in (1, 2)
        record = httpx.get(
            cluster3.base(2) + f"/api/rooms/{room}/games/1/record", timeout=10, trust_env=False
        )
        assert record.status_code == 200
        from liarsdice.cli.verify import verify_record

        assert verify_record(record.json()) == []  # every round's dice proven fair

    asyncio.run(run())


def test_a_drained_node_hands_its_rooms_over_without_a_gap(cluster3: Nodes) -> None:
    """SIGTERM: the node hands its rooms to the others and exits within 10 s; players on the
    other nodes see no gap over 1 s."""

    async def run() -> None:
        _room, ann, bob = await _started(cluster3, (1, 2), dice=3, events=6)
        drained = time.monotonic()
        cluster3.signal(0, signal.SIGTERM)
        await _play([(0, ann), (1, bob)], lambda: "finished" in (ann.status, bob.status), 60)
        assert await asyncio.to_thread(cluster3.wait, 0, 10) is not None
        assert time.monotonic() - drained <= 12
        for p in (ann, bob):
            gaps = [b - a for a, b in zip(p.arrivals, p.arrivals[1:], strict=False)]
            during = [g for g, a in zip(gaps, p.arrivals, strict=False) if a >= drained - 1]
            assert max(during) <= 1.0, during
        assert ann.closed is None and bob.closed is None
        _same_log(ann, bob)
        for p in (ann, bob):
            await p.close()

    asyncio.run(run())


def test_a_paused_owner_loses_its_room_and_cannot_write(cluster3: Nodes) -> None:
    """An owner frozen (SIGSTOP) past its lease: another node takes the room over; when the
    old owner wakes it finds its lease gone or its writes fenced, and lets the room go. The
    log stays one log."""

    async def run() -> None:
        room, ann, bob = await _started(cluster3, (1, 2), dice=2, events=6)
        cluster3.signal(0, signal.SIGSTOP)
        try:
            seq = max(ann.seq, bob.seq)
            await _play([(0, ann), (1, bob)], lambda: min(ann.seq, bob.seq) > seq + 2, 15)
        finally:
            cluster3.signal(0, signal.SIGCONT)
        owner = _owner(cluster3, room, [1, 2])
        await asyncio.sleep(1.5)  # the old owner wakes, beats, finds its lease gone
        assert room not in cluster3.health(0)["rooms_owned"]
        assert _owner(cluster3, room, [0, 1, 2]) == owner
        await _finish(ann, bob)

    asyncio.run(run())


def test_redis_restarts_empty_and_play_goes_on(cluster3: Nodes, redis_server: Any) -> None:
    """Redis restarted (empty: every lease and subscription gone): the rooms are taken again
    (the epochs count on from the database's fences) and the players go on."""

    async def run() -> None:
        _room, ann, bob = await _started(cluster3, (1, 2), dice=2, events=6)
        redis_server.restart()
        seq = max(ann.seq, bob.seq)
        await _play([(0, ann), (1, bob)], lambda: min(ann.seq, bob.seq) > seq + 2, 20)
        await _finish(ann, bob)

    asyncio.run(run())


def test_every_node_lists_every_public_room(cluster3: Nodes) -> None:
    ours = {post(cluster3.base(i), "/api/rooms", {"name": f"host{i}"})["room"] for i in range(3)}
    private = post(cluster3.base(0), "/api/rooms", {"name": "hid", "private": True})["room"]
    deadline = time.monotonic() + 5
    while True:
        listed = [
            {
                r["id"]
                for r in httpx.get(cluster3.base(i) + "/api/rooms", trust_env=False).json()["rooms"]
            }
            for i in range(3)
        ]
        if all(ours <= ids for ids in listed) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert all(ours <= ids and private not in ids for ids in listed), listed
    # a room's snapshot through any node
    for i in range(3):
        room = next(iter(ours))
        snap = httpx.get(cluster3.base(i) + f"/api/rooms/{room}", trust_env=False)
        assert snap.status_code == 200 and snap.json()["data"]["room"]["id"] == room
    missing = httpx.get(cluster3.base(1) + "/api/rooms/nosuchroom", trust_env=False)
    assert missing.status_code == 404


def test_postgres_restarts_and_the_rooms_resume(cluster3: Nodes, pg_cluster: Any) -> None:
    """PostgreSQL crashes and comes back: the rooms pause (store_unavailable) and resume by
    themselves; nothing acknowledged is lost."""

    async def run() -> None:
        _room, ann, bob = await _started(cluster3, (1, 0), dice=2, events=6)
        await asyncio.to_thread(pg_cluster.restart, 1.0)
        seq = max(ann.seq, bob.seq)
        await _play([(0, ann), (1, bob)], lambda: min(ann.seq, bob.seq) > seq + 2, 40)
        await _finish(ann, bob)

    asyncio.run(run())


def test_a_turn_timer_keeps_its_deadline_across_a_takeover(cluster3: Nodes) -> None:
    """The owner dies while a player's turn timer runs: the new owner keeps the timer's
    deadline (it runs out once, on time), rather than starting the turn's timer again."""

    async def run() -> None:
        body = {"name": "ann", "options": {"dice": 2}, "turn_timer": 5}
        created = post(cluster3.base(0), "/api/rooms", body)
        room = created["room"]
        joined = post(cluster3.base(0), f"/api/rooms/{room}/join", {"name": "bob"})
        ann = Player(cluster3.ws(1, room), created["token"])
        bob = Player(cluster3.ws(2, room), joined["token"])  # bob never moves: his timer runs
        for p in (ann, bob):
            await p.open()
        await ann.until(lambda: ann.seq >= 3 and bob.seq >= 3)
        await ann.send("start")
        await _play([(0, ann)], lambda: bob.my_turn(1))
        turn, seq = time.monotonic(), bob.seq
        await asyncio.sleep(1.0)
        cluster3.kill(0)

        def timed_out() -> list[dict[str, Any]]:
            return [
                e
                for s, e in bob.events.items()
                if s > seq and e["kind"] == "action" and e.get("timeout")
            ]

        await bob.until(lambda: bool(timed_out()), 15)
        fired = time.monotonic() - turn
        assert 5.0 - 0.5 <= fired <= 5.0 + 2.0, fired  # its own deadline, not a new 5 s
        await asyncio.sleep(1.0)
        assert len(timed_out()) == 1
        for p in (ann, bob):
            await p.close()

    asyncio.run(run())
