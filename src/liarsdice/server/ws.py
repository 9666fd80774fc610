"""The WebSocket endpoint ``/ws/rooms/{room}`` and :class:`WsSink`, a connection's outgoing side
(``docs/PROTOCOL.md``, "The WebSocket").

Refusals happen after the upgrade, so that a browser sees the close code (a refused handshake is
only "1006, abnormal closure" to a page); nothing is read from a refused connection. Under
uvicorn (:mod:`liarsdice.server.transport`) the connection's message bucket is shared with its
control frames, and a connection whose client does not read what it is sent is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from liarsdice.server.config import Limits
from liarsdice.server.http.common import Server, client_ip, origin_ok, server_of
from liarsdice.server.limits import Bucket, ByteWindow
from liarsdice.server.protocol import HelloMsg, ProtocolError, parse_client
from liarsdice.server.room import CommandError, Room, hash_token
from liarsdice.server.transport import CLOSE_RATE, CLOSE_SLOW, EXTENSION, WsControl
from liarsdice.server.views import SPECTATOR, Encoded, error_frame

# WebSocket close codes (docs/PROTOCOL.md).
CLOSE_TOO_BIG = 1009
CLOSE_BAD_HELLO = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_ORIGIN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_IDLE = 4408
CLOSE_RESTART = 1012  # (uvicorn's own code for a server going away)
CLOSE_TRY_AGAIN = 1013  # (a cluster) the room is changing nodes: reconnect in a moment
_Closing = tuple[int, str]  # the writer's cue to close with this code and reason

router = APIRouter()


class WsSink:
    """A WebSocket connection's outgoing side: frames queue up; a writer task sends them.

    Every frame's bytes count against the connection's and its IP's byte budgets (one-second
    windows); past either, the connection gets ``rate_limited`` and is closed (4429). What
    waits to be sent (queued frames and the transport's write buffer) is at most
    ``Limits.send_queue_bytes``, and no frame waits longer than ``Limits.send_stall``: past
    either the client is not reading, and the connection is dropped (4008).
    """

    def __init__(
        self,
        ws: WebSocket,
        seat: int,
        limits: Limits,
        budgets: tuple[ByteWindow, ...] = (),
        over: dict[str, Any] | None = None,
        on_cut_off: Callable[[], Any] | None = None,
        control: WsControl | None = None,
    ) -> None:
        self.ws = ws
        self.seat = seat
        self.limits = limits
        self.budgets = budgets
        self.over = over
        self.on_cut_off = on_cut_off
        self.control = control
        self.throttled = False  # nothing more is queued (the client did not read: dropped, 4008)
        self.queue: asyncio.Queue[str | _Closing | None] = asyncio.Queue()
        self.pending: deque[tuple[float, int]] = deque()  # (queued at, bytes) not yet sent
        self.pending_bytes = 0

    def push(self, frame: dict[str, Any] | str) -> None:
        if self.throttled:
            return
        if isinstance(frame, Encoded):  # encoded once, however many connections get it
            text, size = frame.text, frame.size
        elif isinstance(frame, str):  # a frame relayed from the room's owner (a cluster)
            text, size = frame, len(frame.encode())
        else:
            text = json.dumps(frame, separators=(",", ":"))
            size = len(text.encode())
        if not all([b.add(size) for b in self.budgets]):
            self.throttled = True
            if self.on_cut_off is not None:
                self.on_cut_off()
            if self.over is not None:
                self._enqueue(json.dumps(self.over, separators=(",", ":")))
            self.queue.put_nowait((CLOSE_RATE, "byte budget exceeded"))
            return
        if self._too_slow(size):
            self.drop()
            return
        self._enqueue(text)

    def _enqueue(self, text: str) -> None:
        size = len(text.encode())
        self.pending.append((time.monotonic(), size))
        self.pending_bytes += size
        self.queue.put_nowait(text)

    def _too_slow(self, size: int) -> bool:
        buffered = self.control.buffered() if self.control is not None else 0
        if self.pending_bytes + buffered + size > self.limits.send_queue_bytes:
            return True
        return bool(self.pending) and time.monotonic() - self.pending[0][0] > self.limits.send_stall

    def drop(self) -> None:
        """The client does not read: close 4008 (it reconnects and resyncs by ``seq``)."""
        self.throttled = True
        reason = "too slow: reconnect and resync"
        if self.control is not None:  # the app's reader hears of it at once
            self.control.drop(CLOSE_SLOW, reason)
        else:
            self.queue.put_nowait((CLOSE_SLOW, reason))

    def close(self, code: int, reason: str) -> None:
        """Close once the frames already queued are sent."""
        self.throttled = True  # nothing more is queued
        self.queue.put_nowait((code, reason))

    async def writer(self) -> None:
        with contextlib.suppress(Exception):  # a send on a lost connection: the reader tears down
            while True:
                item = await self.queue.get()
                if item is None:
                    return
                if isinstance(item, tuple):
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
                if self.pending:
                    self.pending_bytes -= self.pending.popleft()[1]


def _text_of(message: Mapping[str, Any]) -> str:
    """A received frame's text (a binary frame is read as UTF-8)."""
    raw = message.get("text")
    if raw is None:
        raw = (message.get("bytes") or b"").decode("utf-8", "replace")
    return str(raw)


async def _refuse(
    ws: WebSocket, code: int, reason: str, frame: dict[str, Any] | None = None
) -> None:
    with contextlib.suppress(Exception):
        if ws.application_state == WebSocketState.CONNECTING:
            await ws.accept()
        if frame is not None:
            await ws.send_json(frame)
        await ws.close(code=code, reason=reason)


@router.websocket("/ws/rooms/{room_id}")
async def ws_room(ws: WebSocket, room_id: str) -> None:
    srv = server_of(ws)
    if not origin_ok(ws, srv.settings):
        await _refuse(ws, CLOSE_ORIGIN, "origin not allowed")
        return
    ip = client_ip(ws)
    wait = srv.limiter.cooling(ip)
    if wait > 0:  # cut off for flooding a moment ago: refused without a welcome
        await _refuse(ws, CLOSE_RATE, f"slow down: retry in {wait:.1f} s")
        return
    if not srv.limiter.open_socket(ip):
        msg = f"at most {srv.limits.ws_per_ip} connections from one address"
        frame = error_frame("too_many_connections", msg)
        await _refuse(ws, CLOSE_RATE, "too many connections", frame)
        return
    control: WsControl | None = ws.scope.get("extensions", {}).get(EXTENSION)
    try:
        await ws.accept()
        try:
            port = await _port(srv, room_id)
            if port is None:
                frame = error_frame("no_room", f"no room {room_id!r}")
                await _refuse(ws, CLOSE_NO_ROOM, "no such room", frame)
                return
            hello = await _hello(ws, srv, port, ip)
        except Exception as err:  # (a cluster: its room is changing hands, or Redis is down)
            message = getattr(err, "message", "the room is moving: try again")
            frame = error_frame("moved", message)
            await _refuse(ws, CLOSE_TRY_AGAIN, "try again", frame)
            return
        if hello is not None:
            await _play(Conn(ws, srv, port, ip, control), *hello)
    finally:
        srv.limiter.close_socket(ip)
        if control is not None:
            control.finish()


class Port(Protocol):
    """A connection's way to its room: the room itself (:class:`LocalPort`), or in a cluster
    the room wherever it runs (:class:`liarsdice.server.cluster.Port`)."""

    room_id: str

    async def seat_for(self, token: str) -> int | None: ...
    async def connect(self, sink: WsSink, hello: HelloMsg) -> None: ...
    async def handle(self, kind: str, msg: Any, raw: str) -> None: ...
    async def disconnect(self) -> None: ...


class LocalPort:
    """A room of this server (a single server; or in a cluster a room this node runs)."""

    def __init__(self, room: Room) -> None:
        self.room, self.room_id = room, room.id
        self.sink: WsSink | None = None

    async def seat_for(self, token: str) -> int | None:
        return self.room.seat_for_token(token)

    async def connect(self, sink: WsSink, hello: HelloMsg) -> None:
        room, self.sink = self.room, sink
        await room.submit(lambda: room.connect(sink, hello.last_seq, hello.client_seed, hello.id))

    async def handle(self, kind: str, msg: Any, raw: str) -> None:
        assert self.sink is not None
        await self.room.submit(functools.partial(self.room.handle, self.sink, kind, msg))

    async def disconnect(self) -> None:
        room, sink = self.room, self.sink
        if sink is not None:
            await room.submit(lambda: room.disconnect(sink))


async def _port(srv: Server, room_id: str) -> Port | None:
    """The way to room ``room_id`` (None: no such room)."""
    if srv.cluster is None:
        room = srv.manager.get(room_id)
        return None if room is None else LocalPort(room)
    if await srv.cluster.route(room_id) is None:
        return None
    return srv.cluster.port(room_id)


async def _hello(ws: WebSocket, srv: Server, port: Port, ip: str) -> tuple[HelloMsg, int] | None:
    """The first frame, which must be hello: (hello, seat); None once refused and closed."""
    limits = srv.limits
    try:
        message = await asyncio.wait_for(ws.receive(), limits.hello_timeout)
    except TimeoutError:
        await _refuse(ws, CLOSE_IDLE, "no hello")
        return None
    if message["type"] == "websocket.disconnect":
        if message.get("code") == CLOSE_RATE:  # pings before hello: the transport closed it
            srv.limiter.cut_off(ip)
        return None
    raw = _text_of(message)
    if len(raw.encode()) > limits.max_frame:
        msg = f"frames are limited to {limits.max_frame} bytes"
        await _refuse(ws, CLOSE_TOO_BIG, "frame too big", error_frame("too_big", msg))
        return None
    try:
        if not srv.limiter.ip(ip).bucket.take():
            raise ProtocolError("rate_limited", "too many messages from this address")
        kind, hello = parse_client(raw, limits.max_frame, limits.max_depth)
        if kind != "hello":
            raise ProtocolError("invalid", "the first message must be 'hello'")
    except ProtocolError as err:
        limited = err.code == "rate_limited"
        if limited:
            srv.limiter.cut_off(ip)
        code, reason = (
            (CLOSE_RATE, "rate limited") if limited else (CLOSE_BAD_HELLO, "hello expected")
        )
        await _refuse(ws, code, reason, error_frame(err.code, err.message))
        return None
    assert isinstance(hello, HelloMsg)
    if hello.token is None:
        return hello, SPECTATOR
    seat = await port.seat_for(hello.token)
    if seat is None:
        await _refuse(
            ws, CLOSE_BAD_TOKEN, "bad token", error_frame("bad_token", "unknown seat token")
        )
        return None
    return hello, seat


@dataclass
class Conn:
    """One welcomed connection's parts."""

    ws: WebSocket
    srv: Server
    port: Port
    ip: str
    control: WsControl | None


async def _play(conn: Conn, hello: HelloMsg, seat: int) -> None:
    """Welcome the connection into its room, then read its messages until it closes."""
    srv, port, limiter, limits = conn.srv, conn.port, conn.srv.limiter, conn.srv.limits
    ip_state = limiter.ip(conn.ip)
    sink = WsSink(
        conn.ws,
        seat,
        limits,
        (ByteWindow(limits.conn_bytes), ip_state.bytes),
        error_frame("rate_limited", "too much data asked for: slow down"),
        on_cut_off=lambda: limiter.cut_off(conn.ip),
        control=conn.control,
    )
    writer = asyncio.create_task(sink.writer())
    settings = srv.settings
    own = conn.control.bucket if conn.control is not None else None
    buckets = [(own or Bucket(settings.rate_per_second, settings.rate_burst), "this connection")]
    holder = hash_token(hello.token) if seat >= 0 and hello.token else None
    if holder is not None:
        buckets.append((limiter.seat_bucket(port.room_id, holder), "this seat"))
    buckets.append((ip_state.bucket, "this address"))
    closing: _Closing | None = None
    try:
        await port.connect(sink, hello)
        closing = await _read(conn, sink, buckets)
    except WebSocketDisconnect:
        pass
    except CommandError as err:  # the room stopped here (shutting down, or moved): elsewhere
        sink.push(error_frame(err.code, err.message))
        closing = CLOSE_RESTART, "the room is not here any more: reconnect"
    finally:
        if holder is not None:
            limiter.drop_seat(port.room_id, holder)
        with contextlib.suppress(Exception):
            await port.disconnect()
        sink.queue.put_nowait(closing)  # a close code, or None: the writer just stops
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2.0)
        writer.cancel()


async def _read(conn: Conn, sink: WsSink, buckets: list[tuple[Bucket, str]]) -> _Closing | None:
    """Read and hand on the connection's messages; returns how to close (None: closed)."""
    port, limits = conn.port, conn.srv.limits
    while True:
        message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            if message.get("code") == CLOSE_RATE:  # too many pings: the transport closed it
                conn.srv.limiter.cut_off(conn.ip)
            return None
        if sink.throttled:  # over a byte budget (the writer closes) or dropped
            return None
        raw = _text_of(message)
        empty = next((who for b, who in buckets if not b.take()), None)
        if empty is not None:
            sink.push(error_frame("rate_limited", f"too many messages from {empty}: slow down"))
            conn.srv.limiter.cut_off(conn.ip)
            return CLOSE_RATE, "rate limited"
        if len(raw.encode()) > limits.max_frame:
            sink.push(error_frame("too_big", f"frames are limited to {limits.max_frame} bytes"))
            return CLOSE_TOO_BIG, "frame too big"
        try:
            kind, msg = parse_client(raw, limits.max_frame, limits.max_depth)
            if kind == "hello":
                raise ProtocolError("invalid", "already said hello")
        except ProtocolError as err:
            sink.push(error_frame(err.code, err.message, err.reply_to, err.details))
            continue
        await port.handle(kind, msg, raw)


__all__ = ["WsSink", "router"]
