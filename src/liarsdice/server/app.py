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
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError

from liarsdice.families import FAMILIES, dumps_record, record_to_text, replay_summary
from liarsdice.server.protocol import (
    PROTOCOL_VERSION,
    CreateRoomBody,
    HelloMsg,
    JoinBody,
    ProtocolError,
    envelope,
    parse_client,
)
from liarsdice.server.rooms import CommandError, Room, RoomManager, Settings
from liarsdice.server.store import Store
from liarsdice.server.views import SPECTATOR, ErrorFrame, RecordFrame, Snapshot, render

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
# Lobby rooms first (they can be joined), then games in progress, then finished ones.
_STATUS_ORDER = {"lobby": 0, "playing": 1, "finished": 2}
ROOM_LIST_LIMIT = 200


class WsSink:
    """A WebSocket connection's outgoing side: frames queue up; a writer task sends them."""

    def __init__(self, ws: WebSocket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def push(self, frame: dict[str, Any]) -> None:
        self.queue.put_nowait(frame)

    async def writer(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            await self.ws.send_text(json.dumps(frame, separators=(",", ":")))


class Bucket:
    """A token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.t = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _origin_ok(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: origin checks protect browsers' ambient credentials
    if origin in settings.origins:
        return True
    host = ws.headers.get("host")
    return host is not None and urlsplit(origin).netloc == host


def _error(room: Room | None, code: str, message: str, reply_to: str | None = None) -> Any:
    if room is None:
        return envelope("error", {"code": code, "message": message})
    return render(room, SPECTATOR, ErrorFrame(code, message, reply_to=reply_to))


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app (tests make one per test, each with its own database)."""
    settings = settings or Settings()
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

    @app.get("/static/{name}")
    async def static_file(name: str, request: Request) -> Response:
        return static_response(request, name)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL_VERSION, "rooms": len(manager.rooms)}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        out = [
            {"name": n, "family": f.name, "description": f.preset_description(r)}
            for f in FAMILIES
            for n, r in f.presets.items()
        ]
        from liarsdice import bots

        levels = list(getattr(bots, "ALL_BOT_NAMES", bots.BOT_NAMES))
        return {"presets": out, "bot_levels": levels}

    async def body_of(request: Request, model: type[Any]) -> Any:
        raw = await request.body()
        if len(raw) > settings.max_frame:
            raise HTTPException(413, detail={"code": "too_big", "message": "request too large"})
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as err:
            msg = "; ".join(
                f"{'.'.join(str(x) for x in e['loc']) or 'body'}: {e['msg']}" for e in err.errors()
            )
            raise HTTPException(422, detail={"code": "invalid", "message": msg}) from None

    @app.get("/api/rooms")
    async def list_rooms() -> dict[str, Any]:
        """Public facts of every room (for the lobby's room list): no tokens, no game state."""
        rooms = sorted(manager.rooms.values(), key=lambda r: (_STATUS_ORDER.get(r.status, 3), r.id))
        return {
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
                for r in rooms[:ROOM_LIST_LIMIT]
            ]
        }

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> dict[str, Any]:
        body: CreateRoomBody = await body_of(request, CreateRoomBody)
        try:
            room, seat, token = await manager.create(body)
        except CommandError as err:
            raise HTTPException(400, detail={"code": err.code, "message": err.message}) from None
        return {"room": room.id, "seat": seat, "token": token, "url": share_url(request, room.id)}

    @app.post("/api/rooms/{room_id}/join", status_code=201)
    async def join_room(room_id: str, request: Request) -> dict[str, Any]:
        room = room_or_404(room_id)
        body: JoinBody = await body_of(request, JoinBody)
        try:
            seat, token = await room.submit(lambda: room.join(body.name, body.client_seed))
        except CommandError as err:
            code = 409 if err.code in ("room_full", "name_taken", "bad_state") else 400
            raise HTTPException(code, detail={"code": err.code, "message": err.message}) from None
        return {"room": room.id, "seat": seat, "token": token, "url": share_url(request, room.id)}

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str) -> dict[str, Any]:
        room = room_or_404(room_id)
        result: dict[str, Any] = await room.submit(
            lambda: _async(render(room, SPECTATOR, Snapshot()))
        )
        return result

    @app.get("/api/rooms/{room_id}/games/{game_no}/record")
    async def get_record(room_id: str, game_no: int, format: str = "json") -> Any:
        room = room_or_404(room_id)
        frame: dict[str, Any] = await room.submit(
            lambda: _async(render(room, SPECTATOR, RecordFrame(game_no)))
        )
        record = frame["data"]["record"]
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
        if not _origin_ok(ws, settings):
            await ws.close(code=CLOSE_ORIGIN, reason="origin not allowed")
            return
        await ws.accept()
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
            kind, hello = parse_client(text)
            if kind != "hello":
                raise ProtocolError("invalid", "the first message must be 'hello'")
        except ProtocolError as err:
            await ws.send_json(_error(room, err.code, err.message))
            await ws.close(code=CLOSE_BAD_HELLO, reason="hello expected")
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
        sink = WsSink(ws, seat)
        writer = asyncio.create_task(sink.writer())
        bucket = Bucket(settings.rate_per_second, settings.rate_burst)
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
                if not bucket.take():
                    sink.push(_error(room, "rate_limited", "too many messages: slow down"))
                    close_code, close_reason = CLOSE_RATE, "rate limited"
                    break
                if len(raw.encode()) > settings.max_frame:
                    sink.push(
                        _error(room, "too_big", f"frames are limited to {settings.max_frame} bytes")
                    )
                    close_code, close_reason = CLOSE_TOO_BIG, "frame too big"
                    break
                try:
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


__all__ = ["Settings", "create_app"]
