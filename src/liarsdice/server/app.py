"""The web server: the FastAPI app factory.

``create_app(settings, limits)`` builds an app whose lifespan opens the store (running the
migrations), probes it with a write that is rolled back, rebuilds every room from its event
log, and closes everything on shutdown. The endpoints are routers: :mod:`.http` (HTTP) and
:mod:`.ws` (the WebSocket). Serve it with :func:`liarsdice.server.transport.uvicorn_config`.
See ``docs/PROTOCOL.md`` for the endpoints and messages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from liarsdice.server.config import Limits, Settings
from liarsdice.server.http import analysis, health, players, rooms, rules, static
from liarsdice.server.http.common import HttpRateLimit, Server, error_response, server_of
from liarsdice.server.limits import Limiter
from liarsdice.server.metrics import WsMetrics, time_store_writes
from liarsdice.server.protocol import PROTOCOL_VERSION
from liarsdice.server.room import CommandError, RoomManager
from liarsdice.server.store import Store
from liarsdice.server.ws import WsSink
from liarsdice.server.ws import router as ws_router

# A refused room command's HTTP status by its code (any other code: 400).
COMMAND_STATUS = {
    "room_full": 409,
    "name_taken": 409,
    "name_reserved": 409,
    "bad_state": 409,
    "room_locked": 403,
    "banned": 403,
    "no_room": 404,
    "store_unavailable": 503,
}


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    srv: Server = app.state.server
    await srv.store.start()
    await srv.health.probe(srv.store, srv.settings.store_timeout)  # e.g. a read-only database
    await srv.manager.start()
    if srv.cluster is not None:
        await srv.cluster.start()
    yield
    await srv.manager.stop()
    if srv.cluster is not None:
        await srv.cluster.stop()
    await srv.store.close()


def create_app(settings: Settings | None = None, limits: Limits | None = None) -> FastAPI:
    """A new app (tests make one per test, each with its own database)."""
    settings = settings or Settings()
    limits = limits or Limits()
    cluster_mode = settings.redis_url is not None
    store = Store(settings.db_url, claim=not cluster_mode, migrate=True)
    store.write_timeout = max(3 * settings.store_timeout, 5.0)  # (a write that hangs: dropped)
    srv = Server(settings, limits, Limiter(limits), store, RoomManager(settings, store))
    srv.manager.on_command = srv.metrics.command
    if settings.redis_url is not None:
        from liarsdice.server.cluster.node import Cluster, Moved

        srv.cluster = Cluster(settings, limits, store, srv.manager, srv.metrics)
        srv.node = srv.cluster  # /api/health: this node, its rooms, the cluster it sees
        from redis.exceptions import RedisError

        cluster_errors: tuple[type[Exception], ...] = (RedisError, Moved)
    else:
        cluster_errors = ()
    app = FastAPI(title="Liar's Dice", version=str(PROTOCOL_VERSION), lifespan=lifespan)
    app.state.server = srv
    app.state.settings, app.state.manager, app.state.store = settings, srv.manager, store
    app.state.limiter = srv.limiter
    routers = (
        static.router,
        health.router,
        rules.router,
        rooms.router,
        analysis.router,
        players.router,
    )
    for router in (*routers, ws_router):
        app.include_router(router)
    app.add_middleware(HttpRateLimit, limiter=srv.limiter)
    app.add_middleware(WsMetrics, metrics=srv.metrics)
    time_store_writes(store, srv.metrics)
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    # the router's own 404/405 (a Starlette HTTPException): a page or the error envelope
    app.add_exception_handler(StarletteHTTPException, static.unknown_address)  # type: ignore[arg-type]
    app.add_exception_handler(CommandError, command_error)  # type: ignore[arg-type]
    for err in (SQLAlchemyError, OSError, TimeoutError, *cluster_errors):
        app.add_exception_handler(err, store_error)
    return app


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return error_response(exc.status_code, exc.detail, exc.headers)


async def command_error(request: Request, exc: CommandError) -> JSONResponse:
    """A refused room command (creating or joining): 409 for conflicts, 403 for a locked room
    or a banned name, 503 (with
    ``Retry-After``) while the store fails, else 400."""
    status = COMMAND_STATUS.get(exc.code, 400)
    headers = None
    if status == 503:
        srv = server_of(request)
        srv.health.failing = srv.health.failing or "store_unavailable"
        headers = {"Retry-After": str(srv.limits.retry_after)}
    return error_response(status, {"code": exc.code, "message": exc.message}, headers)


async def store_error(request: Request, exc: Exception) -> JSONResponse:
    """A database error or timeout that no endpoint caught: 503 with ``Retry-After``."""
    srv = server_of(request)
    srv.health.failed(exc)
    return error_response(
        503,
        {"code": "store_unavailable", "message": "the database is not answering: try again"},
        {"Retry-After": str(srv.limits.retry_after)},
    )


__all__ = ["Limits", "Settings", "WsSink", "create_app"]
