"""The throwaway Redis server of the cluster's tests (``redis_server``, see ``redis_util``):
redis-py's asyncio client reads and writes it, a pub/sub message goes round, and a client
works again after the server restarts on the same port."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from redis_util import RedisServer, ping


async def _set_get(url: str) -> None:
    r = aioredis.Redis.from_url(url)
    try:
        await r.set("liarsdice:test", "yes")
        assert await r.get("liarsdice:test") == b"yes"
    finally:
        await r.aclose()


async def _pub_sub(url: str) -> None:
    r = aioredis.Redis.from_url(url)
    pubsub = r.pubsub()
    try:
        await pubsub.subscribe("liarsdice:room")
        first = await pubsub.get_message(timeout=5)
        assert first is not None and first["type"] == "subscribe"
        assert await r.publish("liarsdice:room", "frame") == 1
        got = None
        for _ in range(50):
            got = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if got is not None:
                break
        assert got is not None and got["data"] == b"frame"
    finally:
        await pubsub.aclose()
        await r.aclose()


def test_the_fixture_answers_redis_py(redis_server: RedisServer) -> None:
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}/0"
    asyncio.run(_set_get(redis_server.url))
    asyncio.run(_pub_sub(redis_server.url))


def test_a_client_works_again_after_a_restart(redis_server: RedisServer) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_server.url)
        try:
            await r.set("k", "1")
            redis_server.restart()  # same port; nothing is kept
            port = redis_server.port
            for _ in range(2):  # the first call may meet the dropped connection
                try:
                    assert await r.get("k") is None
                    break
                except RedisConnectionError:
                    continue
            await r.set("k", "2")
            assert await r.get("k") == b"2" and redis_server.port == port
            redis_server.stop()
            with pytest.raises(RedisConnectionError):
                await r.get("k")
            redis_server.start()
            assert await r.ping()
        finally:
            await r.aclose()

    try:
        asyncio.run(main())
    finally:
        redis_server.start()  # running again for the next test
    assert ping(redis_server.port)
