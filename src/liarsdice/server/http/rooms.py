"""HTTP endpoints of rooms: the room list, creating and joining, a room's snapshot and the
records of its finished games (``docs/PROTOCOL.md``, "HTTP endpoints")."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response

from liarsdice.families import dumps_record, record_to_text, replay_summary
from liarsdice.server.http.common import (
    PAGE,
    body_of,
    check_page,
    client_ip,
    fail,
    guard,
    room_or_404,
    seated_name,
    server_of,
    share_url,
    store_call,
    too_many,
)
from liarsdice.server.listing import listing, listing_order, live
from liarsdice.server.protocol import CreateRoomBody, JoinBody
from liarsdice.server.room import Room, hash_token
from liarsdice.server.views import SPECTATOR

router = APIRouter()

RECORD_FORMATS = ("json", "text", "summary")


@router.get("/api/rooms")
async def list_rooms(
    request: Request, response: Response, page: int = 1, per_page: int = PAGE
) -> dict[str, Any]:
    """Public facts of the rooms (for the lobby's room list): no tokens, no game state.

    Games in progress first, then rooms that can be joined; ``page`` (from 1) of ``per_page``
    (1..200) rooms; ``next_page`` when there are more."""
    check_page(page, per_page)
    srv = server_of(request)
    if srv.cluster is not None:  # every node's rooms
        entries = await srv.cluster.listing()
    else:
        entries = [listing(r) for r in srv.manager.rooms.values() if live(r)]
    listed = sorted(entries, key=listing_order)
    start = (page - 1) * per_page
    response.headers["X-Total-Count"] = str(len(listed))
    out: dict[str, Any] = {"rooms": listed[start : start + per_page]}
    if start + per_page < len(listed):
        out["next_page"] = page + 1
    return out


async def identity(request: Request, token: str | None) -> str | None:
    """The player id of a guest identity's token (None: play unrated)."""
    if token is None:
        return None
    srv = server_of(request)
    found = await store_call(request, srv.store.player_by_token(hash_token(token)))
    if found is None:
        raise fail(400, "bad_player", "unknown player token: create a player")
    srv.manager.ratings.update(found["ratings"])
    player: str = found["player"]
    return player


@router.post("/api/rooms", status_code=201)
async def create_room(request: Request) -> dict[str, Any]:
    srv = server_of(request)
    body = await body_of(request, CreateRoomBody)
    name = seated_name(body.name)
    player = await identity(request, body.player_token)
    if not srv.limiter.create_room(client_ip(request)):
        lim = srv.limits
        raise too_many(
            "too_many_rooms",
            f"at most {lim.rooms_per_ip} rooms per {lim.rooms_window / 60:g} minutes "
            "from one address",
            lim.rooms_window / max(1, lim.rooms_per_ip),
        )
    if name != body.name:
        body = body.model_copy(update={"name": name})
    room, seat, token = await srv.manager.create(body, player)  # CommandError: the handler
    return {"room": room.id, "seat": seat, "token": token, "url": share_url(request, room.id)}


@router.post("/api/rooms/{room_id}/join", status_code=201)
async def join_room(room_id: str, request: Request) -> dict[str, Any]:
    guard(request)
    srv = server_of(request)
    target = await _target(request, room_id)
    wait = srv.limiter.join(room_id, client_ip(request))
    if wait > 0:
        lim = srv.limits
        raise too_many(
            "too_many_joins",
            f"at most {lim.joins_per_ip} joins of a room from one address and "
            f"{lim.joins_per_room} in all per {lim.joins_window:g} s",
            wait,
        )
    body = await body_of(request, JoinBody)
    name = seated_name(body.name)
    player = await identity(request, body.player_token)
    if isinstance(target, Room):
        room = target
        seat, token = await room.submit(lambda: room.join(name, body.client_seed, player))
    else:  # another node of the cluster runs the room
        args = {"name": name, "client_seed": body.client_seed, "player": player}
        seat, token = await _call(request, room_id, target, "join", args)
    return {"room": room_id, "seat": seat, "token": token, "url": share_url(request, room_id)}


async def _target(request: Request, room_id: str) -> Room | str:
    """The room (run here) or, in a cluster, the node that runs it; 404 when there is none."""
    cluster = server_of(request).cluster
    if cluster is None:
        return room_or_404(request, room_id)
    target = await cluster.route(room_id)
    if target is None:
        raise fail(404, "no_room", "no such room")
    return target


async def _call(request: Request, room_id: str, node: str, call: str, args: dict[str, Any]) -> Any:
    cluster = server_of(request).cluster
    assert cluster is not None
    return await cluster.call(room_id, node, call, args)


@router.get("/api/rooms/{room_id}")
async def get_room(room_id: str, request: Request) -> dict[str, Any]:
    """A spectator's snapshot, from the room's cache: it never waits behind the room's
    commands."""
    target = await _target(request, room_id)
    if isinstance(target, Room):
        return target.snapshot_frame(SPECTATOR)
    info: dict[str, Any] = await _call(request, room_id, target, "info", {})
    return info


@router.get("/api/rooms/{room_id}/games/{game_no}/record")
async def get_record(
    room_id: str, game_no: int, request: Request, format: str = "json"
) -> Response:
    """A finished game's record (``format``: json, text or summary). Finished games never
    change: each answer is rendered once and kept (an LRU of ``Limits.record_cache``)."""
    if format not in RECORD_FORMATS:
        raise fail(400, "invalid", "format: json, text or summary")
    srv = server_of(request)
    key = (room_id, game_no, format)
    cached = srv.cached_record(key)
    if cached is None:
        # loaded rooms from memory; rooms unloaded for idleness (or quarantined) from the store
        record = await store_call(request, srv.manager.record(room_id, game_no))
        if record is None:
            raise fail(404, "no_record", "no finished game with that number")
        if format == "text":
            cached = (record_to_text(record).encode(), "text/plain; charset=utf-8")
        elif format == "summary":
            summary = replay_summary(record)
            text = json.dumps(summary, ensure_ascii=False, separators=(",", ":"))
            cached = (text.encode(), "application/json")
        else:
            cached = (dumps_record(record).encode(), "application/json")
        srv.cache_record(key, cached)
    return Response(cached[0], media_type=cached[1])


__all__ = ["router"]
