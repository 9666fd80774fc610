"""``GET /api/rooms/{room}/games/{game_no}/analysis``: the post-game analysis of a finished
game (``docs/ANALYSIS.md``), computed off the event loop and the room's actor (a worker
thread) and kept beside the records (the LRU of ``Limits.record_cache``)."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request, Response

from liarsdice.analysis import analyse
from liarsdice.server.http.common import fail, server_of, store_call

router = APIRouter()


@router.get("/api/rooms/{room_id}/games/{game_no}/analysis")
async def get_analysis(room_id: str, game_no: int, request: Request) -> Response:
    """A finished game's analysis: 404 when the room or the game is unknown, 409 while the
    game is still being played. A finished game never changes: analysed once, then kept."""
    srv = server_of(request)
    key = (room_id, game_no, "analysis")
    cached = srv.cached_record(key)
    if cached is None:
        room = srv.manager.get(room_id)
        if room is not None and room.value.status == "playing" and game_no == room.game_no:
            raise fail(409, "game_in_progress", "the game is still being played")
        record = await store_call(request, srv.manager.record(room_id, game_no))
        if record is None:
            raise fail(404, "no_record", "no finished game with that number")
        result = await asyncio.to_thread(analyse, record)
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        cached = (text.encode(), "application/json")
        srv.cache_record(key, cached)
    return Response(cached[0], media_type=cached[1])


__all__ = ["router"]
