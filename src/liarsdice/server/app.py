"""The web server: FastAPI app factory, HTTP endpoints and the WebSocket endpoint.

``create_app(settings)`` builds an app whose lifespan opens the store (running the migrations),
rebuilds every room from its event log, and closes everything on shutdown. See
``docs/PROTOCOL.md`` for the endpoints and messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import re
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from liarsdice.families import FAMILIES, dumps_record, record_to_text, replay_summary
from liarsdice.server.limits import Bucket, ByteWindow, Limiter, Limits
from liarsdice.server.names import ReservedName, normalize_name
from liarsdice.server.protocol import (
    PROTOCOL_VERSION,
    CreateRoomBody,
    HelloMsg,
    JoinBody,
    PlayerBody,
    ProtocolError,
    check_depth,
    envelope,
    parse_client,
)
from liarsdice.server.rooms import (
    MAX_SEATS,
    CommandError,
    Room,
    RoomManager,
    Settings,
    hash_token,
)
from liarsdice.server.store import Batch, Store, new_player_row
from liarsdice.server.views import SPECTATOR, error_frame

# WebSocket close codes (docs/PROTOCOL.md).
CLOSE_NORMAL = 1000
CLOSE_TOO_BIG = 1009
CLOSE_BAD_HELLO = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_ORIGIN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_IDLE = 4408
CLOSE_RATE = 4429
HELLO_TIMEOUT = 10.0

# The browser client's files (src/liarsdice/server/static/, one flat folder): served by name,
# with these types only; anything else is a 404.
STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
_STATIC_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)$")
# The room list: games in progress first, then rooms that can be joined (lobby, then between
# games), then the rest (full rooms between games).
_STATUS_ORDER = {"playing": 0, "lobby": 1, "finished": 2}
ROOM_LIST_PAGE = 50
ROOM_LIST_MAX_PAGE = 200
_CLOSE = "close"  # the writer's cue to close the connection (a byte budget was exceeded)
_Closing = tuple[int, str]  # the writer's cue to close with this code and reason


class WsSink:
    """A WebSocket connection's outgoing side: frames queue up; a writer task sends them.

    Every frame's bytes count against the connection's and its IP's byte budgets (one-second
    windows); past either, the connection gets ``rate_limited`` and is closed (4429).
    """

    def __init__(
        self,
        ws: WebSocket,
        seat: int,
        budgets: tuple[ByteWindow, ...] = (),
        over: dict[str, Any] | None = None,
        on_cut_off: Callable[[], Any] | None = None,
    ) -> None:
        self.ws = ws
        self.on_cut_off = on_cut_off
        self.seat = seat
        self.budgets = budgets
        self.over = over
        self.throttled = False
        self.queue: asyncio.Queue[str | _Closing | None] = asyncio.Queue()

    def push(self, frame: dict[str, Any]) -> None:
        if self.throttled:
            return
        text = json.dumps(frame, separators=(",", ":"))
        size = len(text.encode())
        if not all([b.add(size) for b in self.budgets]):
            self.throttled = True
            if self.on_cut_off is not None:
                self.on_cut_off()
            if self.over is not None:
                self.queue.put_nowait(json.dumps(self.over, separators=(",", ":")))
            self.queue.put_nowait(_CLOSE)
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close once the frames already queued are sent."""
        self.throttled = True  # nothing more is queued
        self.queue.put_nowait((code, reason))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            if text is _CLOSE:
                await self.ws.close(code=CLOSE_RATE, reason="byte budget exceeded")
                return
            if isinstance(text, tuple):
                await self.ws.close(code=text[0], reason=text[1])
                return
            await self.ws.send_text(text)


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


def _origin_ok(conn: HTTPConnection, settings: Settings) -> bool:
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


def _client_ip(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def _listing_order(room: Room) -> tuple[int, int, str]:
    joinable = room.status != "playing" and len(room.seats) < MAX_SEATS
    group = 0 if room.status == "playing" else 1 if joinable else 2
    return group, _STATUS_ORDER.get(room.status, 3), room.id


def _error(room: Room | None, code: str, message: str, reply_to: str | None = None) -> Any:
    return error_frame(code, message, reply_to)


def create_app(settings: Settings | None = None, limits: Limits | None = None) -> FastAPI:
    """A new app (tests make one per test, each with its own database)."""
    settings = settings or Settings()
    limits = limits or Limits()
    limiter = Limiter(limits)
    store = Store(settings.db_url)
    manager = RoomManager(settings, store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.start()
        await manager.start()
        yield
        await manager.stop()
        await store.close()

    app = FastAPI(title="Liar's Dice", version=str(PROTOCOL_VERSION), lifespan=lifespan)
    app.state.settings = settings
    app.state.manager = manager
    app.state.store = store
    app.state.limiter = limiter

    def room_or_404(room_id: str) -> Room:
        room = manager.get(room_id)
        if room is None:
            raise HTTPException(404, detail={"code": "no_room", "message": "no such room"})
        return room

    def share_url(request: Request, room_id: str) -> str:
        base = settings.public_url or str(request.base_url).rstrip("/")
        return f"{base.rstrip('/')}/r/{room_id}"

    def static_response(request: Request, name: str) -> Response:
        """One file of the browser client, with an ETag so that browsers revalidate cheaply."""
        match = _STATIC_NAME.match(name)  # a plain file name: no path, no dot files
        media = STATIC_TYPES.get(match.group(1).lower()) if match else None
        file = resources.files("liarsdice.server").joinpath("static").joinpath(name)
        if media is None or not file.is_file():
            raise HTTPException(404, detail={"code": "not_found", "message": "no such file"})
        body = file.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=media, headers=headers)

    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request) -> Response:
        return static_response(request, "index.html")

    @app.get("/r/{room_id}", response_class=HTMLResponse)
    async def room_page(room_id: str, request: Request) -> Response:
        return static_response(request, "index.html")

    @app.get("/leaderboard", response_class=HTMLResponse)
    async def leaderboard_page(request: Request) -> Response:
        return static_response(request, "index.html")

    @app.get("/p/{player_id}", response_class=HTMLResponse)
    async def player_page(player_id: str, request: Request) -> Response:
        return static_response(request, "index.html")

    @app.get("/static/{name}")
    async def static_file(name: str, request: Request) -> Response:
        return static_response(request, name)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {
            "ok": True,
            "protocol": PROTOCOL_VERSION,
            "rooms": len(manager.rooms),
            "broken_rooms": dict(manager.broken),  # quarantined at startup: id -> reason
        }

    @app.get("/api/presets")
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
        from liarsdice import bots

        levels = list(getattr(bots, "ALL_BOT_NAMES", bots.BOT_NAMES))
        return {"presets": out, "bot_levels": levels}

    def guard(request: Request) -> None:
        """Checks of every state-changing request: a browser's Origin must be allowed, and
        the body must be declared JSON (a cross-site form or text/plain POST is refused, and
        anything else needs a CORS preflight, which this server never grants)."""
        if not _origin_ok(request, settings):
            raise HTTPException(
                403, detail={"code": "bad_origin", "message": "this Origin is not allowed"}
            )
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HTTPException(
                415,
                detail={
                    "code": "unsupported_media_type",
                    "message": "send the body as Content-Type: application/json",
                },
            )

    async def read_body(request: Request) -> bytes:
        """The body, refused (413) by its Content-Length or as soon as it grows past the
        limit while it streams in: nothing beyond the limit is buffered."""
        too_big = HTTPException(
            413,
            detail={
                "code": "too_big",
                "message": f"request bodies are limited to {limits.max_body} bytes",
            },
        )
        length = request.headers.get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                raise HTTPException(
                    400, detail={"code": "invalid", "message": "bad Content-Length"}
                )
            if int(length) > limits.max_body:
                raise too_big
        buf = bytearray()
        async for chunk in request.stream():
            if len(buf) + len(chunk) > limits.max_body:
                raise too_big
            buf += chunk
        return bytes(buf)

    async def body_of(request: Request, model: type[Any]) -> Any:
        guard(request)
        raw = await read_body(request)
        try:
            check_depth(raw, limits.max_depth)
        except ProtocolError as err:
            raise HTTPException(400, detail={"code": err.code, "message": err.message}) from None
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as err:
            msg = "; ".join(
                f"{'.'.join(str(x) for x in e['loc']) or 'body'}: {e['msg']}" for e in err.errors()
            )
            raise HTTPException(422, detail={"code": "invalid", "message": msg}) from None

    @app.get("/api/rooms")
    async def list_rooms(
        response: Response, page: int = 1, per_page: int = ROOM_LIST_PAGE
    ) -> dict[str, Any]:
        """Public facts of the rooms (for the lobby's room list): no tokens, no game state.

        Games in progress first, then rooms that can be joined; ``page`` (from 1) of
        ``per_page`` (1..200) rooms; ``next_page`` when there are more."""
        if page < 1 or not 1 <= per_page <= ROOM_LIST_MAX_PAGE:
            raise HTTPException(
                422,
                detail={
                    "code": "invalid",
                    "message": f"page >= 1 and 1 <= per_page <= {ROOM_LIST_MAX_PAGE}",
                },
            )
        rooms = sorted((r for r in manager.rooms.values() if not r.private), key=_listing_order)
        start = (page - 1) * per_page
        response.headers["X-Total-Count"] = str(len(rooms))
        out: dict[str, Any] = {
            "rooms": [
                {
                    "id": r.id,
                    "preset": r.preset,
                    "family": r.family,
                    "status": r.status,
                    "game_no": r.game_no,
                    "players": len(r.seats),
                    "seats": [s.name for s in r.seats],
                    "spectators": r.spectators,
                    "turn_timer": r.turn_timer,
                }
                for r in rooms[start : start + per_page]
            ]
        }
        if start + per_page < len(rooms):
            out["next_page"] = page + 1
        return out

    def seated_name(name: str) -> str:
        """The name as it will be seated (NFKC), refused when it is a bot's."""
        try:
            return normalize_name(name)
        except ReservedName as err:
            detail = {"code": "name_reserved", "message": str(err)}
            raise HTTPException(409, detail=detail) from None
        except ValueError as err:
            detail = {"code": "invalid", "message": f"name: {err}"}
            raise HTTPException(422, detail=detail) from None

    async def identity(token: str | None) -> str | None:
        """The player id of a guest identity's token (None: play unrated)."""
        if token is None:
            return None
        found = await store.player_by_token(hash_token(token))
        if found is None:
            detail = {"code": "bad_player", "message": "unknown player token: create a player"}
            raise HTTPException(400, detail=detail)
        manager.ratings[found["player"]] = found["rating"]
        player: str = found["player"]
        return player

    def player_token(request: Request) -> str:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            detail = {"code": "bad_player", "message": "send Authorization: Bearer PLAYER_TOKEN"}
            raise HTTPException(401, detail=detail)
        return token.strip()

    @app.post("/api/players", status_code=201)
    async def create_player(request: Request) -> dict[str, Any]:
        body: PlayerBody = await body_of(request, PlayerBody)
        name = seated_name(body.name)
        if not limiter.create_room(_client_ip(request)):  # the same hourly budget as rooms
            raise HTTPException(
                429,
                detail={
                    "code": "too_many_rooms",
                    "message": f"at most {limits.rooms_per_ip} rooms and players per "
                    f"{limits.rooms_window / 60:g} minutes from one address",
                },
            )
        token = secrets.token_urlsafe(24)
        player_id = secrets.token_urlsafe(9)
        now = datetime.now(UTC)
        row = new_player_row(player_id, name, "guest", hash_token(token), now)
        await store.write(Batch("", players=[row]))
        return {"player": player_id, "token": token, "name": name}

    @app.post("/api/players/me")
    async def rename_player(request: Request) -> dict[str, Any]:
        token = player_token(request)
        body: PlayerBody = await body_of(request, PlayerBody)
        name = seated_name(body.name)
        found = await store.player_by_token(hash_token(token))
        if found is None:
            raise HTTPException(
                401, detail={"code": "bad_player", "message": "unknown player token"}
            )
        await store.write(Batch("", renames=[(found["player"], name)]))
        return {"player": found["player"], "name": name}

    @app.get("/api/players/{player_id}")
    async def get_player(player_id: str) -> dict[str, Any]:
        found = await store.player(player_id)
        if found is None:
            raise HTTPException(404, detail={"code": "no_player", "message": "no such player"})
        return found

    @app.get("/api/leaderboard")
    async def leaderboard(
        response: Response, page: int = 1, per_page: int = ROOM_LIST_PAGE
    ) -> dict[str, Any]:
        """Rated players, best first (OpenSkill's conservative estimate), in pages."""
        if page < 1 or not 1 <= per_page <= ROOM_LIST_MAX_PAGE:
            raise HTTPException(
                422,
                detail={
                    "code": "invalid",
                    "message": f"page >= 1 and 1 <= per_page <= {ROOM_LIST_MAX_PAGE}",
                },
            )
        start = (page - 1) * per_page
        players, total = await store.leaderboard(start, per_page)
        response.headers["X-Total-Count"] = str(total)
        out: dict[str, Any] = {"players": players}
        if start + per_page < total:
            out["next_page"] = page + 1
        return out

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> dict[str, Any]:
        body: CreateRoomBody = await body_of(request, CreateRoomBody)
        name = seated_name(body.name)
        player = await identity(body.player_token)
        if not limiter.create_room(_client_ip(request)):
            raise HTTPException(
                429,
                detail={
                    "code": "too_many_rooms",
                    "message": f"at most {limits.rooms_per_ip} rooms per "
                    f"{limits.rooms_window / 60:g} minutes from one address",
                },
            )
        if name != body.name:
            body = body.model_copy(update={"name": name})
        try:
            room, seat, token = await manager.create(body, player)
        except CommandError as err:
            raise HTTPException(400, detail={"code": err.code, "message": err.message}) from None
        return {"room": room.id, "seat": seat, "token": token, "url": share_url(request, room.id)}

    @app.post("/api/rooms/{room_id}/join", status_code=201)
    async def join_room(room_id: str, request: Request) -> dict[str, Any]:
        guard(request)
        room = room_or_404(room_id)
        body: JoinBody = await body_of(request, JoinBody)
        name = seated_name(body.name)
        player = await identity(body.player_token)

        try:
            seat, token = await room.submit(lambda: room.join(name, body.client_seed, player))
        except CommandError as err:
            conflict = ("room_full", "name_taken", "name_reserved", "bad_state")
            refused = ("room_locked", "banned")
            code = 409 if err.code in conflict else 403 if err.code in refused else 400
            raise HTTPException(code, detail={"code": err.code, "message": err.message}) from None
        return {"room": room.id, "seat": seat, "token": token, "url": share_url(request, room.id)}

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str) -> dict[str, Any]:
        room = room_or_404(room_id)
        return room.snapshot_frame(SPECTATOR)

    @app.get("/api/rooms/{room_id}/games/{game_no}/record")
    async def get_record(room_id: str, game_no: int, format: str = "json") -> Any:
        # loaded rooms from memory; rooms unloaded for idleness (or quarantined) from the store
        record = await manager.record(room_id, game_no)
        if record is None:
            raise HTTPException(
                404, detail={"code": "no_record", "message": "no finished game with that number"}
            )
        if format == "text":
            return PlainTextResponse(record_to_text(record))
        if format == "summary":
            return JSONResponse(replay_summary(record))
        if format != "json":
            raise HTTPException(
                400, detail={"code": "invalid", "message": "format: json, text or summary"}
            )
        return PlainTextResponse(dumps_record(record), media_type="application/json")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        detail = (
            exc.detail
            if isinstance(exc.detail, dict)
            else {"code": "http", "message": str(exc.detail)}
        )
        return JSONResponse(envelope("error", detail), status_code=exc.status_code)

    @app.websocket("/ws/rooms/{room_id}")
    async def ws_room(ws: WebSocket, room_id: str) -> None:
        # Refusals happen after the upgrade, so that a browser sees the close code (a refused
        # handshake is only "1006, abnormal closure" to a page). Nothing is read from a
        # refused connection.
        if not _origin_ok(ws, settings):
            await ws.accept()
            await ws.close(code=CLOSE_ORIGIN, reason="origin not allowed")
            return
        ip = _client_ip(ws)
        wait = limiter.cooling(ip)
        if wait > 0:  # cut off for flooding a moment ago: refused without a welcome
            await ws.accept()
            await ws.close(code=CLOSE_RATE, reason=f"slow down: retry in {wait:.1f} s")
            return
        if not limiter.open_socket(ip):
            await ws.accept()
            await ws.send_json(
                _error(
                    None,
                    "too_many_connections",
                    f"at most {limits.ws_per_ip} connections from one address",
                )
            )
            await ws.close(code=CLOSE_RATE, reason="too many connections")
            return
        try:
            await serve_socket(ws, room_id, ip)
        finally:
            limiter.close_socket(ip)

    async def serve_socket(ws: WebSocket, room_id: str, ip: str) -> None:
        await ws.accept()
        ip_state = limiter.ip(ip)
        room = manager.get(room_id)
        if room is None:
            await ws.send_json(_error(None, "no_room", f"no room {room_id!r}"))
            await ws.close(code=CLOSE_NO_ROOM, reason="no such room")
            return
        # The first frame must be hello.
        try:
            text = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, KeyError):
            with contextlib.suppress(Exception):
                await ws.close(code=CLOSE_IDLE, reason="no hello")
            return
        if len(text.encode()) > settings.max_frame:
            await ws.send_json(
                _error(room, "too_big", f"frames are limited to {settings.max_frame} bytes")
            )
            await ws.close(code=CLOSE_TOO_BIG, reason="frame too big")
            return
        try:
            if not ip_state.bucket.take():
                raise ProtocolError("rate_limited", "too many messages from this address")
            check_depth(text, limits.max_depth)
            kind, hello = parse_client(text)
            if kind != "hello":
                raise ProtocolError("invalid", "the first message must be 'hello'")
        except ProtocolError as err:
            await ws.send_json(_error(room, err.code, err.message))
            limited = err.code == "rate_limited"
            if limited:
                limiter.cut_off(ip)
            await ws.close(
                code=CLOSE_RATE if limited else CLOSE_BAD_HELLO,
                reason="rate limited" if limited else "hello expected",
            )
            return
        assert isinstance(hello, HelloMsg)
        seat = SPECTATOR
        if hello.token is not None:
            found = room.seat_for_token(hello.token)
            if found is None:
                await ws.send_json(_error(room, "bad_token", "unknown seat token"))
                await ws.close(code=CLOSE_BAD_TOKEN, reason="bad token")
                return
            seat = found
        over = _error(room, "rate_limited", "too much data asked for: slow down")
        sink = WsSink(
            ws,
            seat,
            (ByteWindow(limits.conn_bytes), ip_state.bytes),
            over,
            on_cut_off=lambda: limiter.cut_off(ip),
        )
        writer = asyncio.create_task(sink.writer())
        buckets = [(Bucket(settings.rate_per_second, settings.rate_burst), "this connection")]
        if seat >= 0:
            buckets.append((limiter.seat_bucket(room.id, seat), "this seat"))
        buckets.append((ip_state.bucket, "this address"))
        close_code, close_reason = CLOSE_NORMAL, ""
        try:
            await room.submit(
                lambda: room.connect(sink, hello.last_seq, hello.client_seed, hello.id)
            )
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw_bytes = message.get("bytes") or b""
                    raw = raw_bytes.decode("utf-8", "replace")
                if sink.throttled:  # over a byte budget: the writer closes the socket
                    close_code = -1
                    break
                empty = next((who for b, who in buckets if not b.take()), None)
                if empty is not None:
                    sink.push(
                        _error(room, "rate_limited", f"too many messages from {empty}: slow down")
                    )
                    close_code, close_reason = CLOSE_RATE, "rate limited"
                    limiter.cut_off(ip)
                    break
                if len(raw.encode()) > settings.max_frame:
                    sink.push(
                        _error(room, "too_big", f"frames are limited to {settings.max_frame} bytes")
                    )
                    close_code, close_reason = CLOSE_TOO_BIG, "frame too big"
                    break
                try:
                    check_depth(raw, limits.max_depth)
                    kind, msg = parse_client(raw)
                    if kind == "hello":
                        raise ProtocolError("invalid", "already said hello")
                except ProtocolError as err:
                    sink.push(_error(room, err.code, err.message, err.reply_to))
                    continue
                await room.submit(functools.partial(room.handle, sink, kind, msg))
        except WebSocketDisconnect:
            close_code = -1
        finally:
            if seat >= 0:
                limiter.drop_seat(room.id, seat)
            with contextlib.suppress(Exception):
                await room.submit(lambda: room.disconnect(sink))
            sink.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()
            if close_code != -1:
                with contextlib.suppress(Exception):
                    await ws.close(code=close_code, reason=close_reason)

    return app


async def _async(value: Any) -> Any:
    return value


__all__ = ["Limits", "Settings", "create_app"]
