"""``GET /api/rooms/{room}/games/{game_no}/analysis``: the post-game analysis of a finished
game (``docs/ANALYSIS.md``), computed off the event loop and the room's actor (a worker
thread), once per game: requests that come while it is computed wait for that computation,
and the answer is kept beside the records (the LRU of ``Limits.record_cache``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request, Response

from liarsdice.analysis import analyse
from liarsdice.server.http.common import fail, server_of, store_call

router = APIRouter()

Answer = tuple[bytes, str]
_RUNNING: dict[tuple[int, str, int], asyncio.Future[Answer]] = {}  # (server, room, game)


def _render(record: dict[str, Any]) -> Answer:
    """The analysis of a record as the answer's body and media type (in a worker thread)."""
    text = json.dumps(analyse(record), ensure_ascii=False, separators=(",", ":"))
    return text.encode(), "application/json"


@router.get("/api/rooms/{room_id}/games/{game_no}/analysis")
async def get_analysis(room_id: str, game_no: int, request: Request) -> Response:
    """A finished game's analysis: 404 when the room or the game is unknown, 409 while the
    game is still being played. A finished game never changes: analysed once, then kept."""
    srv = server_of(request)
    key = (room_id, game_no, "analysis")
    cached = srv.cached_record(key)
    if cached is None:
        running = (id(srv), room_id, game_no)
        task = _RUNNING.get(running)
        if task is None:
            room = srv.manager.get(room_id)
            if room is not None and room.value.status == "playing" and game_no == room.game_no:
                raise fail(409, "game_in_progress", "the game is still being played")
            record = await store_call(request, srv.manager.record(room_id, game_no))
            if record is None:
                raise fail(404, "no_record", "no finished game with that number")
            task = _RUNNING.get(running)  # another request may have started it meanwhile
            if task is None:
                task = asyncio.ensure_future(asyncio.to_thread(_render, record))
                _RUNNING[running] = task
                task.add_done_callback(lambda _: _RUNNING.pop(running, None))
        cached = await asyncio.shield(task)
        srv.cache_record(key, cached)
    return Response(cached[0], media_type=cached[1])


__all__ = ["router"]
