"""What every HTTP endpoint shares: the server's parts, the checks of state-changing requests
(origin, JSON, a streamed body limit), paging, 429 and 503 answers, names, store calls with a
timeout, and the per-address request rate (:class:`HttpRateLimit`)."""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from liarsdice.server.config import Limits, Settings
from liarsdice.server.limits import Limiter
from liarsdice.server.metrics import Metrics
from liarsdice.server.names import ReservedName, normalize_name
from liarsdice.server.node import LocalNode, NodeView
from liarsdice.server.protocol import ProtocolError, check_depth, validation_details
from liarsdice.server.room import Room, RoomManager
from liarsdice.server.store import Store
from liarsdice.server.views import error_frame

if TYPE_CHECKING:
    from liarsdice.server.cluster.node import Cluster

_T = TypeVar("_T")
PAGE = 50  # the default page size of the room list and the leaderboard
MAX_PAGE = 200
PROBE_EVERY = 5.0  # seconds between the health check's store probes while the store fails


@dataclass
class StoreHealth:
    """Whether the store answered its last write probe and the HTTP layer's last calls."""

    failing: str | None = None  # what the last failure was, while the store fails
    probed: float = -math.inf  # when the last probe ran (monotonic)

    def failed(self, err: BaseException) -> None:
        self.failing = type(err).__name__

    async def probe(self, store: Store, timeout: float) -> None:
        """A real write that is not kept (:meth:`Store.probe`), within ``timeout`` seconds."""
        self.probed = time.monotonic()
        try:
            await asyncio.wait_for(store.probe(), timeout)
        except Exception as err:
            self.failed(err)
        else:
            self.failing = None

    async def recheck(self, store: Store, timeout: float) -> None:
        """Probe again when the store was failing and the last probe is a while ago."""
        if self.failing is not None and time.monotonic() - self.probed >= PROBE_EVERY:
            await self.probe(store, timeout)


@dataclass
class Server:
    """One server's parts (``app.state.server``).

    ``node``: this node as ``/api/health`` shows it (a cluster replaces the
    :class:`~liarsdice.server.node.LocalNode`); ``draining``: the node is shutting down or
    handing its rooms over, so ``/api/ready`` answers 503 and load balancers send no one new.
    """

    settings: Settings
    limits: Limits
    limiter: Limiter
    store: Store
    manager: RoomManager
    health: StoreHealth = field(default_factory=StoreHealth)
    metrics: Metrics = field(default_factory=Metrics)
    node: NodeView = field(init=False)
    draining: bool = False
    cluster: Cluster | None = None  # a node of a cluster (``--redis``); None: a single server
    # Rendered records of finished games (which never change): (room, game, format) -> answer
    records: OrderedDict[tuple[str, int, str], tuple[bytes, str]] = field(
        default_factory=OrderedDict
    )
    # Analyses being worked out (room, game) -> their task: concurrent requests share one;
    # each leaves when done (its answer goes to ``records``)
    analysing: dict[tuple[str, int], asyncio.Future[tuple[bytes, str]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.node = LocalNode(self.settings.node_id, self.manager)
        manager = self.manager
        self.metrics.rooms.set_function(lambda: len(manager.rooms))

    def cached_record(self, key: tuple[str, int, str]) -> tuple[bytes, str] | None:
        found = self.records.get(key)
        if found is not None:
            self.records.move_to_end(key)
        return found

    def cache_record(self, key: tuple[str, int, str], value: tuple[bytes, str]) -> None:
        self.records[key] = value
        while len(self.records) > self.limits.record_cache:
            self.records.popitem(last=False)


def server_of(conn: HTTPConnection) -> Server:
    srv: Server = conn.app.state.server
    return srv


def client_ip(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def fail(
    status: int,
    code: str,
    message: str,
    details: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> HTTPException:
    """An HTTP error with the error envelope (``{"code", "message"}``, and ``details`` for a
    body that did not validate) as its body."""
    detail: dict[str, Any] = {"code": code, "message": message}
    if details:
        detail["details"] = details
    return HTTPException(status, detail=detail, headers=headers or None)


def too_many(code: str, message: str, retry_after: float) -> HTTPException:
    """429 with ``Retry-After`` (whole seconds, at least 1)."""
    retry = str(max(1, math.ceil(retry_after)))
    return fail(429, code, message, headers={"Retry-After": retry})


def unavailable(limits: Limits) -> HTTPException:
    """503: the database is failing or too slow; try again after ``Retry-After``."""
    return fail(
        503,
        "store_unavailable",
        "the database is not answering: try again in a moment",
        headers={"Retry-After": str(limits.retry_after)},
    )


async def store_call(conn: HTTPConnection, aw: Awaitable[_T]) -> _T:
    """``await aw`` (a store read or write) within ``Settings.store_timeout``; any failure
    or timeout is 503 ``store_unavailable``."""
    srv = server_of(conn)
    try:
        return await asyncio.wait_for(aw, srv.settings.store_timeout)
    except Exception as err:
        srv.health.failed(err)
        raise unavailable(srv.limits) from err


def room_or_404(conn: HTTPConnection, room_id: str) -> Room:
    room = server_of(conn).manager.get(room_id)
    if room is None:
        raise fail(404, "no_room", "no such room")
    return room


def check_page(page: int, per_page: int) -> None:
    if page < 1 or not 1 <= per_page <= MAX_PAGE:
        raise fail(422, "invalid", f"page >= 1 and 1 <= per_page <= {MAX_PAGE}")


def seated_name(name: str) -> str:
    """The name as it will be seated (NFKC), refused when it is a bot's."""
    try:
        return normalize_name(name)
    except ReservedName as err:
        raise fail(409, "name_reserved", str(err)) from None
    except ValueError as err:
        raise fail(422, "invalid", f"name: {err}") from None


# ------------------------------------------------------------------------------ origins
def _origin_key(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL; None when it is not an http(s) one."""
    try:
        parts = urlsplit(url.strip())
        scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
        port = parts.port
    except ValueError:
        return None
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80)


def origin_ok(conn: HTTPConnection, settings: Settings) -> bool:
    """The request has no Origin (not a browser) or an allowed one: scheme, host and port
    equal to the server's own (the Host header, this connection's scheme), the public URL's
    or one given with ``--origin``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True  # not a browser: origin checks protect browsers' ambient credentials
    key = _origin_key(origin)
    if key is None:
        return False  # "null" (sandboxed frames, file: pages) and anything odd
    allowed = {_origin_key(o) for o in settings.origins}
    if settings.public_url:
        allowed.add(_origin_key(settings.public_url))
    host = conn.headers.get("host")
    if host:
        allowed.add(_origin_key(f"{conn.url.scheme}://{host}"))
    return key in allowed


# -------------------------------------------------------------------- request bodies
def guard(request: Request) -> None:
    """Checks of every state-changing request: a browser's Origin must be allowed, and the
    body must be declared JSON (a cross-site form or text/plain POST is refused, and anything
    else needs a CORS preflight, which this server never grants)."""
    if not origin_ok(request, server_of(request).settings):
        raise fail(403, "bad_origin", "this Origin is not allowed")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise fail(415, "unsupported_media_type", "send the body as Content-Type: application/json")


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused (413) by its Content-Length or as soon as it grows past ``limit``
    while it streams in: nothing beyond the limit is buffered."""
    too_big = fail(413, "too_big", f"request bodies are limited to {limit} bytes")
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise fail(400, "invalid", "bad Content-Length")
        if int(length) > limit:
            raise too_big
    buf = bytearray()
    async for chunk in request.stream():
        if len(buf) + len(chunk) > limit:
            raise too_big
        buf += chunk
    return bytes(buf)


async def body_of(request: Request, model: type[_T]) -> _T:
    """The request's JSON body as ``model`` (a pydantic model), after :func:`guard`."""
    guard(request)
    limits = server_of(request).limits
    raw = await read_body(request, limits.max_body)
    try:
        check_depth(raw, limits.max_depth)
    except ProtocolError as err:
        raise fail(400, err.code, err.message) from None
    try:
        parsed: _T = model.model_validate_json(raw or b"{}")  # type: ignore[attr-defined]
    except ValidationError as err:
        msg = "; ".join(
            f"{'.'.join(str(x) for x in e['loc']) or 'body'}: {e['msg']}" for e in err.errors()
        )
        raise fail(422, "invalid", msg, validation_details(err)) from None
    return parsed


def share_url(request: Request, room_id: str) -> str:
    base = server_of(request).settings.public_url or str(request.base_url).rstrip("/")
    return f"{base.rstrip('/')}/r/{room_id}"


# ------------------------------------------------------------------- the request rate
class HttpRateLimit:
    """ASGI middleware: every HTTP request counts against its address's token bucket
    (``Limits.http_rate`` / ``http_burst``); past it, 429 ``rate_limited`` with
    ``Retry-After``, answered before any routing."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            wait = self.limiter.http_request(client[0] if client else "unknown")
            if wait > 0:
                retry = str(max(1, math.ceil(wait)))
                msg = "too many requests from this address: slow down"
                response = JSONResponse(
                    error_frame("rate_limited", msg), 429, headers={"Retry-After": retry}
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error_response(
    status: int, detail: Any, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The error envelope as a response (``detail``: ``{"code", "message"}`` or a string)."""
    if isinstance(detail, dict):
        code, message = str(detail.get("code", "http")), str(detail.get("message", ""))
        body = error_frame(code, message, details=detail.get("details"))
    else:
        body = error_frame("http", str(detail))
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


__all__ = [
    "MAX_PAGE",
    "PAGE",
    "HttpRateLimit",
    "Server",
    "StoreHealth",
    "body_of",
    "check_page",
    "client_ip",
    "error_response",
    "fail",
    "guard",
    "origin_ok",
    "read_body",
    "room_or_404",
    "seated_name",
    "server_of",
    "share_url",
    "store_call",
    "too_many",
    "unavailable",
]
