"""A cluster of real ``liarsdice serve`` processes on one PostgreSQL database and one Redis
(issue 23): play across nodes, an owner killed mid-round, a drain, a stale owner refused.

Each test starts its own nodes (``cluster_util.nodes``) on a new database; Redis is the
session's throwaway ``redis-server`` (``LIARSDICE_SKIP_REDIS=1`` skips these tests)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

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
    """Each player moves on its turn until ``until()``."""
    deadline = time.monotonic() + timeout
    moved: dict[int, int] = {}
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError([p.frames[-2:] for _, p in players])
        for seat, p in players:
            if p.my_turn(seat) and moved.get(seat) != p.seq:
                moved[seat] = p.seq
                await p.play_first_legal(seat)
        await asyncio.sleep(0.02)


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
