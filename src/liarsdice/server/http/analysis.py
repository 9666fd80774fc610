"""``GET /api/rooms/{room}/games/{game_no}/analysis``: the post-game analysis of a finished
game (``docs/ANALYSIS.md``), computed off the event loop and the room's actor (a worker
thread), once per game: requests that come while it is computed wait for that computation,
and the answer is kept beside the records (the LRU of ``Limits.record_cache``).

The record does not say which moves the computer made for a person (away, out of time or
gone): the room's log does (its ``action`` events' ``auto``), and the analysis marks them
and leaves them out of that person's summary."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import APIRouter, Request, Response

from liarsdice.analysis import analyse
from liarsdice.server.http.common import fail, server_of, store_call

router = APIRouter()

Answer = tuple[bytes, str]

WHO_MOVED = ("seat_joined", "game_started", "action", "game_over")
"""The kinds of event :func:`computer_actions` reads."""


def computer_actions(
    events: Iterable[tuple[int, str, Mapping[str, Any]]], game_no: int
) -> list[int]:
    """The player actions of game ``game_no`` (numbered from 0 in the order played) that the
    computer made for a person: the ``auto`` actions of the seats a person held when the game
    started. A bot's moves are its own. ``events``: the room's log, in order (those of
    :data:`WHO_MOVED` suffice).

    >>> log = [(1, "seat_joined", {"name": "ann", "kind": "human"}),
    ...        (2, "seat_joined", {"name": "prob-bot-1", "kind": "bot"}),
    ...        (3, "game_started", {"game_no": 1, "players": ["ann", "prob-bot-1"]}),
    ...        (4, "action", {"seat": 0}), (5, "action", {"seat": 1, "auto": True}),
    ...        (6, "action", {"seat": 0, "auto": True, "timeout": True}),
    ...        (7, "game_over", {"game_no": 1})]
    >>> computer_actions(log, 1), computer_actions(log, 2)
    ([2], [])
    """
    kinds: dict[str, str] = {}  # a seat's name -> its kind (names are unique in a room)
    person: list[bool] | None = None  # by the game's positions, once it has started
    out: list[int] = []
    played = 0
    for _, kind, data in events:
        if kind == "seat_joined":
            kinds[data["name"]] = data["kind"]
        elif kind == "game_started" and data["game_no"] == game_no:
            person = [kinds.get(name) != "bot" for name in data["players"]]
        elif person is None:
            continue
        elif kind == "action":
            if data.get("auto") and person[data["seat"]]:
                out.append(played)
            played += 1
        elif kind == "game_over":
            break
    return out


def _render(record: dict[str, Any], computer: list[int]) -> Answer:
    """The analysis of a record as the answer's body and media type (in a worker thread)."""
    text = json.dumps(analyse(record, computer), ensure_ascii=False, separators=(",", ":"))
    return text.encode(), "application/json"


@router.get("/api/rooms/{room_id}/games/{game_no}/analysis")
async def get_analysis(room_id: str, game_no: int, request: Request) -> Response:
    """A finished game's analysis: 404 when the room or the game is unknown, 409 while the
    game is still being played. A finished game never changes: analysed once, then kept."""
    srv = server_of(request)
    key = (room_id, game_no, "analysis")
    cached = srv.cached_record(key)
    if cached is None:
        running = (room_id, game_no)
        task = srv.analysing.get(running)
        if task is None:
            room = srv.manager.get(room_id)
            if room is not None and room.value.status == "playing" and game_no == room.game_no:
                raise fail(409, "game_in_progress", "the game is still being played")
            record = await store_call(request, srv.manager.record(room_id, game_no))
            if record is None:
                raise fail(404, "no_record", "no finished game with that number")
            # (the log is written before the room keeps a game's record: it is all there)
            log = await store_call(request, srv.store.events(room_id, WHO_MOVED))
            computer = computer_actions(log, game_no)
            task = srv.analysing.get(running)  # another request may have started it meanwhile
            if task is None:
                task = asyncio.ensure_future(asyncio.to_thread(_render, record, computer))
                srv.analysing[running] = task
                task.add_done_callback(lambda _: srv.analysing.pop(running, None))
        cached = await asyncio.shield(task)
        srv.cache_record(key, cached)
    return Response(cached[0], media_type=cached[1])


__all__ = ["WHO_MOVED", "computer_actions", "router"]
