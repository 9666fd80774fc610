"""``/api/health`` (the server, its store, its rooms and its node), ``/api/ready`` (whether a
load balancer may send this node new clients), ``/metrics`` (Prometheus) and
``/api/presets``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from liarsdice.families import FAMILIES
from liarsdice.server.http.common import server_of
from liarsdice.server.protocol import PROTOCOL_VERSION

router = APIRouter()


@router.get("/api/health")
async def health(request: Request) -> JSONResponse:
    """``ok`` is false (and the status 503) while the store fails its write probe or any room
    is paused for a failing store; ``broken_rooms``: quarantined at startup (id -> reason);
    ``node``, ``rooms_owned`` and ``cluster``: this node, its rooms, the nodes it sees."""
    srv = server_of(request)
    await srv.health.recheck(srv.store, srv.settings.store_timeout)
    paused = sum(1 for room in srv.manager.rooms.values() if room.paused)
    ok = srv.health.failing is None and paused == 0
    body = {
        "ok": ok,
        "protocol": PROTOCOL_VERSION,
        "rooms": len(srv.manager.rooms),
        "store": "ok" if srv.health.failing is None else "failing",
        "paused_rooms": paused,
        "broken_rooms": dict(srv.manager.broken),
        "node": srv.node.node_id,
        "rooms_owned": srv.node.owned(),
        "cluster": srv.node.cluster_view(),
    }
    headers = None if ok else {"Retry-After": str(srv.limits.retry_after)}
    return JSONResponse(body, status_code=200 if ok else 503, headers=headers)


@router.get("/api/ready")
async def ready(request: Request) -> JSONResponse:
    """200 ``{"ready": true}`` while the store is started and the node is neither draining
    nor cut off from the cluster (its room leases unrenewed past their life), else 503
    ``{"ready": false, "reason": "store_not_started" | "draining" | "cut_off"}``."""
    srv = server_of(request)
    reason = None
    if srv.store.engine is None:
        reason = "store_not_started"
    elif srv.draining or (srv.cluster is not None and srv.cluster.draining):
        reason = "draining"
    elif srv.cluster is not None and srv.cluster.cut_off:
        reason = "cut_off"
    if reason is not None:
        return JSONResponse({"ready": False, "reason": reason}, status_code=503)
    return JSONResponse({"ready": True})


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """Every metric of this node in Prometheus's text format."""
    body, content_type = server_of(request).metrics.exposition()
    return Response(body, media_type=content_type)


@router.get("/api/presets")
async def presets() -> dict[str, Any]:
    out = [
        {
            "name": n,
            "family": f.name,
            "description": f.preset_description(r),
            "rules": f.plain_rules(r),
        }
        for f in FAMILIES
        for n, r in f.presets.items()
    ]
    levels = dict.fromkeys(n for f in FAMILIES for n in f.bots.levels)
    return {"presets": out, "bot_levels": list(levels)}


__all__ = ["router"]
