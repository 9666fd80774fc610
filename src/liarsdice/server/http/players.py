"""HTTP endpoints of players: guest identities, renaming, a player's page and the leaderboard
(``docs/PROTOCOL.md``, "HTTP endpoints")."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request, Response

from liarsdice.server.http.common import (
    PAGE,
    body_of,
    check_page,
    client_ip,
    fail,
    seated_name,
    server_of,
    store_call,
    too_many,
)
from liarsdice.server.protocol import PlayerBody
from liarsdice.server.ratings import DEFAULT_FAMILY, FAMILY_NAMES
from liarsdice.server.room import hash_token
from liarsdice.server.store import Batch, new_player_row

router = APIRouter()


def _player_token(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise fail(401, "bad_player", "send Authorization: Bearer PLAYER_TOKEN")
    return token.strip()


@router.post("/api/players", status_code=201)
async def create_player(request: Request) -> dict[str, Any]:
    srv = server_of(request)
    body = await body_of(request, PlayerBody)
    name = seated_name(body.name)
    if not srv.limiter.create_player(client_ip(request)):  # a budget of its own
        lim = srv.limits
        raise too_many(
            "too_many_players",
            f"at most {lim.players_per_ip} new players per "
            f"{lim.players_window / 60:g} minutes from one address",
            lim.players_window / max(1, lim.players_per_ip),
        )
    token = secrets.token_urlsafe(24)
    player_id = secrets.token_urlsafe(9)
    row = new_player_row(player_id, name, "guest", hash_token(token), datetime.now(UTC))
    await store_call(request, srv.store.write(Batch("", players=[row])))
    return {"player": player_id, "token": token, "name": name}


@router.post("/api/players/me")
async def rename_player(request: Request) -> dict[str, Any]:
    token = _player_token(request)
    body = await body_of(request, PlayerBody)
    name = seated_name(body.name)
    store = server_of(request).store
    found = await store_call(request, store.player_by_token(hash_token(token)))
    if found is None:
        raise fail(401, "bad_player", "unknown player token")
    await store_call(request, store.write(Batch("", renames=[(found["player"], name)])))
    return {"player": found["player"], "name": name}


def _family(family: str) -> str:
    if family not in FAMILY_NAMES:
        raise fail(422, "invalid", f"family: one of {', '.join(FAMILY_NAMES)}")
    return family


@router.get("/api/players/{player_id}")
async def get_player(
    player_id: str, request: Request, family: str = DEFAULT_FAMILY
) -> dict[str, Any]:
    """A player's page: the rating and counts in ``family`` and its recent rated games, and
    every family's (``families``)."""
    store = server_of(request).store
    found = await store_call(request, store.player(player_id, _family(family)))
    if found is None:
        raise fail(404, "no_player", "no such player")
    return found


@router.get("/api/leaderboard")
async def leaderboard(
    request: Request,
    response: Response,
    page: int = 1,
    per_page: int = PAGE,
    family: str = DEFAULT_FAMILY,
) -> dict[str, Any]:
    """Rated people of a rule family, best first (OpenSkill's conservative estimate), in
    pages; and its rated bot levels apart (``bots``, best first: a handful, never paged), so
    that a bot never ranks above people."""
    check_page(page, per_page)
    family = _family(family)
    start = (page - 1) * per_page
    store = server_of(request).store
    players, total = await store_call(request, store.leaderboard(start, per_page, family))
    bots, _ = await store_call(request, store.leaderboard(0, PAGE, family, bots=True))
    response.headers["X-Total-Count"] = str(total)
    out: dict[str, Any] = {
        "family": family,
        "families": list(FAMILY_NAMES),
        "players": players,
        "bots": bots,
    }
    if start + per_page < total:
        out["next_page"] = page + 1
    return out


__all__ = ["router"]
