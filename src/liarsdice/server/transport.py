"""The server's connections under uvicorn: what one client can make the server hold is bounded.

uvicorn's own HTTP and WebSocket protocols (httptools, and the websockets sans-I/O one) are
subclassed here and installed by :func:`uvicorn_config`, which ``liarsdice serve`` and the
tests' servers both use:

* :class:`GuardedHttpProtocol`: at most ``Limits.max_conns_per_ip`` TCP connections open at once
  from one address (HTTP and WebSocket alike; more get 429 and are closed); a request must
  arrive whole (request line, headers and body) within ``Limits.header_timeout`` of its first
  byte, or of the connection's opening (408, closed): half-open requests (slowloris) do not
  hold connections; a request's head is at most ``Limits.max_header_bytes`` (431, counted as the
  bytes arrive, before anything is parsed or buffered past it); idle keep-alive connections
  close after ``Limits.keep_alive`` (uvicorn's ``timeout_keep_alive``).
* :class:`BoundedWsProtocol`: control frames (pings, pongs) count against the connection's
  message bucket, the very bucket the app takes its messages from (close 4429 past it), and a
  connection whose write buffer passes ``Limits.send_queue_bytes`` (a client that does not
  read its pongs) is dropped (close 4008, then the socket is aborted). The app reaches the
  connection through the scope's ``extensions["liarsdice.ws"]`` (:class:`WsControl`): the
  bucket, the transport's write buffer size and :meth:`WsControl.drop`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from http import HTTPStatus
from types import FrameType
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request

from liarsdice.server.limits import Bucket
from liarsdice.server.views import error_frame

log = logging.getLogger("liarsdice.server")

if TYPE_CHECKING:
    import uvicorn

    from liarsdice.server.config import Limits, Settings

CLOSE_RATE = 4429  # too many messages (pings included)
CLOSE_SLOW = 4008  # the client does not read what it is sent: reconnect and resync
DROP_LINGER = 2.0  # seconds a dropped connection has to read its close frame before the abort
REFUSE_LINGER = 1.0  # seconds a refused HTTP connection is read (and discarded) before closing
EXTENSION = "liarsdice.ws"


class ConnCount:
    """TCP connections open at once per client address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def acquire(self, host: str) -> bool:
        n = self.open.get(host, 0)
        if n >= self.limit:
            return False
        self.open[host] = n + 1
        return True

    def release(self, host: str) -> None:
        n = self.open.get(host, 0) - 1
        if n > 0:
            self.open[host] = n
        else:
            self.open.pop(host, None)


class Slot:
    """One connection's place in a :class:`ConnCount` (released once)."""

    def __init__(self, count: ConnCount, host: str) -> None:
        self.count: ConnCount | None = count
        self.host = host

    def release(self) -> None:
        if self.count is not None:
            self.count.release(self.host)
            self.count = None


def _host(client: tuple[str, int] | None) -> str:
    return client[0] if client else "unknown"


def http_refusal(status: int, code: str, message: str, retry_after: float | None = None) -> bytes:
    """A whole HTTP/1.1 response (the error envelope) that closes the connection."""
    body = error_frame(code, message).text.encode()
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry_after is not None:
        lines.append(f"retry-after: {max(1, round(retry_after))}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a per-address connection cap, a deadline for each
    request to arrive whole and a cap on its head (see the module docstring).

    :func:`uvicorn_config` makes a subclass with ``limits`` and ``conns`` set."""

    limits: Limits
    conns: ConnCount

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot: Slot | None = None
        self.head_bytes = 0
        self.reading_head = True
        self.refused = False
        self.request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = _host(self.client)
        if not self.conns.acquire(host):
            self.refuse(
                429,
                "too_many_connections",
                f"at most {self.limits.max_conns_per_ip} connections from one address",
                retry_after=self.limits.keep_alive,
            )
            return
        self.slot = Slot(self.conns, host)
        self.arm_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_request_timer()
        if self.slot is not None:
            self.slot.release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # read and thrown away until the connection closes
        if self.reading_head:  # count the head's bytes before the parser buffers them
            end = data.find(b"\r\n\r\n")
            self.head_bytes += len(data) if end < 0 else end + 4
            if self.head_bytes > self.limits.max_header_bytes:
                self.refuse(
                    431,
                    "headers_too_big",
                    f"request headers are limited to {self.limits.max_header_bytes} bytes",
                )
                return
        super().data_received(data)

    # -- parser callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.arm_request_timer()

    def on_headers_complete(self) -> None:
        self.reading_head, self.head_bytes = False, 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.cancel_request_timer()
        self.reading_head, self.head_bytes = True, 0
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self.cancel_request_timer()
        super().handle_websocket_upgrade()
        ws = self.transport.get_protocol()
        if isinstance(ws, BoundedWsProtocol):  # the WebSocket holds the address's slot now
            ws.slot, self.slot = self.slot, None

    # -- deadlines and refusals
    def arm_request_timer(self) -> None:
        if self.request_timer is None and self.limits.header_timeout > 0:
            self.request_timer = self.loop.call_later(
                self.limits.header_timeout, self.request_timed_out
            )

    def cancel_request_timer(self) -> None:
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None

    def request_timed_out(self) -> None:
        self.request_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.refuse(408, "timeout", "the request did not arrive in time")
        else:
            self.transport.close()

    def refuse(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        """Answer ``status`` and close: what the client still sends is read and thrown away
        for a moment, so that it can read the answer before the socket closes."""
        self.cancel_request_timer()
        self.refused = True
        if self.cycle is not None:
            self.cycle.keep_alive = False
        self.transport.write(http_refusal(status, code, message, retry_after))
        with contextlib.suppress(OSError, RuntimeError):
            if self.transport.can_write_eof():
                self.transport.write_eof()
        self.loop.call_later(REFUSE_LINGER, self.transport.close)


class WsControl:
    """What the app may do with its WebSocket connection (``scope["extensions"][EXTENSION]``)."""

    def __init__(self, protocol: BoundedWsProtocol) -> None:
        self.protocol = protocol
        self.bucket = protocol.bucket

    def buffered(self) -> int:
        """Bytes written to the connection that the client has not taken yet (the transport's
        write buffer)."""
        transport = self.protocol.transport
        return 0 if transport.is_closing() else transport.get_write_buffer_size()

    def drop(self, code: int, reason: str) -> None:
        self.protocol.drop(code, reason)

    def finish(self) -> None:
        """The app is done with the connection: whatever is left of it (a client that does not
        read its close, a full write buffer) is aborted after :data:`DROP_LINGER` seconds."""
        self.protocol.loop.call_later(DROP_LINGER, self.protocol.transport.abort)


class BoundedWsProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with pings counted and the write buffer bounded
    (see the module docstring). :func:`uvicorn_config` makes a subclass with ``limits`` and
    ``rate`` / ``burst`` (the per-connection message rate) set."""

    limits: Limits
    rate: float
    burst: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot: Slot | None = None
        self.bucket = Bucket(self.rate, self.burst)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.slot is not None:
            self.slot.release()
        super().connection_lost(exc)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake goes on to the app: give it the control
            scope.setdefault("extensions", {})[EXTENSION] = WsControl(self)

    def handle_events(self) -> None:
        """uvicorn's dispatch, with the pongs that websockets wrote for the pings just read
        held back until the pings are counted: past the bucket nothing is answered and the
        connection closes (4429); past the write buffer's bound it is dropped (4008)."""
        events = self.conn.events_received()
        replies = self.conn.data_to_send()
        control = sum(
            1 for e in events if isinstance(e, Frame) and e.opcode in (Opcode.PING, Opcode.PONG)
        )
        if control and not self.close_sent:
            if not all(self.bucket.take() for _ in range(control)):
                self.drop(CLOSE_RATE, "rate limited: too many pings")
            elif self.transport.get_write_buffer_size() > self.limits.send_queue_bytes:
                self.drop(CLOSE_SLOW, "too slow: read what you are sent")
        if not self.close_sent and replies:
            self.transport.write(b"".join(replies))
        for event in events:
            match event:
                case Request():
                    self.handle_connect(event)
                case Frame(opcode=Opcode.CONT):
                    self.handle_cont(event)
                case Frame(opcode=Opcode.TEXT):
                    self.handle_text(event)
                case Frame(opcode=Opcode.BINARY):
                    self.handle_bytes(event)
                case Frame(opcode=Opcode.PONG):
                    self.handle_pong(event)
                case Frame(opcode=Opcode.CLOSE):
                    self.handle_close(event)
                # PING: answered above

    def drop(self, code: int, reason: str) -> None:
        """Close now with ``code``: the app hears of it at once; the socket is aborted after
        :data:`DROP_LINGER` seconds (a client that does not read never takes the close)."""
        if self.close_sent or self.transport.is_closing() or not self.handshake_complete:
            return
        self.conn.data_to_send()  # pongs not sent yet are not sent
        with contextlib.suppress(InvalidState):
            self.conn.send_close(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        if self.read_paused:  # read the client's close (or anything) until the abort
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(DROP_LINGER, self.transport.abort)


def uvicorn_config(app: Any, settings: Settings, limits: Limits, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``app`` with the guarded protocols and the limits (host,
    port, log level and the like in ``options``)."""
    import uvicorn

    conns = ConnCount(limits.max_conns_per_ip)
    http = type("HttpProtocol", (GuardedHttpProtocol,), {"limits": limits, "conns": conns})
    ws = type(
        "WsProtocol",
        (BoundedWsProtocol,),
        {"limits": limits, "rate": settings.rate_per_second, "burst": settings.rate_burst},
    )
    return uvicorn.Config(
        app,
        http=http,
        ws=ws,
        ws_max_size=limits.max_frame,
        timeout_keep_alive=max(1, round(limits.keep_alive)),
        **options,
    )


def raise_fd_limit(cap: int = 1 << 20) -> tuple[int, int]:
    """Raise the soft limit of open files (RLIMIT_NOFILE) to the hard limit (at most ``cap``
    when the hard limit is unlimited); returns (soft, hard) after. Every connection is a file
    descriptor: at the soft limit (often 1024) every new client is refused."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = cap if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


class DrainingServer(uvicorn.Server):
    """A cluster node's server: SIGTERM (or Ctrl-C) first hands every room this node runs to
    the other nodes (:meth:`Cluster.drain`), then stops serving."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        cluster = getattr(getattr(self.config.app, "state", None), "server", None)
        cluster = getattr(cluster, "cluster", None)
        if cluster is None or cluster.draining or self.should_exit:
            super().handle_exit(sig, frame)
            return
        loop = asyncio.get_event_loop()
        loop.call_soon_threadsafe(lambda: loop.create_task(self._drain(cluster, sig, frame)))

    async def _drain(self, cluster: Any, sig: int, frame: FrameType | None) -> None:
        try:
            await asyncio.wait_for(cluster.drain(), DRAIN_SECONDS)
        except Exception as err:
            log.warning("drain incomplete (%r)", err)
        self.config.timeout_graceful_shutdown = 2  # (its connections are closing)
        super().handle_exit(sig, frame)


DRAIN_SECONDS = 8.0  # SIGTERM: the rooms go to other nodes within this, then the node exits


__all__ = [
    "CLOSE_RATE",
    "CLOSE_SLOW",
    "EXTENSION",
    "BoundedWsProtocol",
    "ConnCount",
    "DrainingServer",
    "GuardedHttpProtocol",
    "WsControl",
    "http_refusal",
    "raise_fd_limit",
    "uvicorn_config",
]
