"""The server's Prometheus metrics (``GET /metrics``; ``docs/SERVER.md``, "Operators").

Each app has a :class:`Metrics` of its own, in a registry of its own (never the process's
default registry: a test process holds many apps). What exists today is wired without touching
the rooms or the store:

* ``liarsdice_rooms`` and ``liarsdice_connections`` are read when scraped (the loaded rooms)
  or kept by :class:`WsMetrics` (the WebSockets accepted and not yet ended);
* ``liarsdice_commands_total{source,outcome}`` is counted by the rooms themselves
  (``Room.on_command``, set by the room manager): every command a room decides, whoever sent
  it: a ``player`` (over a WebSocket, here or relayed from another node), a ``bot`` (a bot's
  seat or an away player's), a ``timer`` (a turn that ran out) or the ``server`` (a room
  created, a seat joined over HTTP, a room closed); ``ok`` or ``refused``. In a cluster the
  room's owner counts it, once;
* ``liarsdice_action_broadcast_seconds`` comes from :class:`WsMetrics`, which watches each
  WebSocket's frames where its client is connected: a client message (not ``hello``, ``ping``
  or ``resync``) is a command, answered when the frame that answers it (``reply_to``, its
  ``id``) reaches the socket. A message without an ``id`` is answered when the connection reads
  its next message (the room has handled it by then);
* ``liarsdice_store_write_seconds``: :func:`time_store_writes` wraps the store's ``write``.

``liarsdice_redis_seconds`` and ``liarsdice_takeovers_total`` are for the cluster code to
observe and count (:meth:`Metrics.redis_call` times an awaitable).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import generate_latest as _generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from liarsdice.server.store import Batch, Store

_T = TypeVar("_T")
# Seconds: from half a millisecond (a room's work) to 10 s (a stalled database or network).
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
NOT_COMMANDS = frozenset({"hello", "ping", "resync"})  # client messages that change nothing
MAX_TRACKED = 64  # answers awaited per connection (the oldest goes first)
# A received frame is looked at only when it is small and flat, as every client message is:
# what the app refuses (too big, too deep) is never parsed here (nor can it recurse deeply).
MAX_PEEK = 4096
MAX_BRACKETS = 16
OK, REFUSED = "ok", "refused"
SOURCES = ("player", "bot", "timer", "server")


class Metrics:
    """One app's metrics, in ``registry``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        reg = self.registry
        self.rooms = Gauge("liarsdice_rooms", "Rooms loaded (owned) by this node", registry=reg)
        self.connections = Gauge(
            "liarsdice_connections", "WebSocket connections open on this node", registry=reg
        )
        self.commands = Counter(
            "liarsdice_commands_total",
            "Commands the rooms decided, by source (player, bot, timer, server) and outcome",
            ["source", "outcome"],
            registry=reg,
        )
        for source in SOURCES:
            for outcome in (OK, REFUSED):
                self.commands.labels(source, outcome)
        self.action_broadcast = Histogram(
            "liarsdice_action_broadcast_seconds",
            "From receiving a client's command to its answer going out",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.store_write = Histogram(
            "liarsdice_store_write_seconds",
            "A store write (a command's batch) until committed",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.redis = Histogram(
            "liarsdice_redis_seconds", "A Redis call", buckets=LATENCY_BUCKETS, registry=reg
        )
        self.takeovers = Counter(
            "liarsdice_takeovers_total", "Rooms this node took over from another", registry=reg
        )

    def command(self, source: str, outcome: str) -> None:
        """A room decided a command from ``source`` (:data:`SOURCES`): ``ok`` or ``refused``."""
        self.commands.labels(source, outcome).inc()

    def answered(self, seconds: float) -> None:
        """A client's command was answered on its socket ``seconds`` after it came in."""
        self.action_broadcast.observe(seconds)

    async def redis_call(self, aw: Awaitable[_T]) -> _T:
        """``await aw`` (a Redis call), observing how long it took."""
        start = time.perf_counter()
        try:
            return await aw
        finally:
            self.redis.observe(time.perf_counter() - start)

    def exposition(self) -> tuple[bytes, str]:
        """The Prometheus text format of every metric, and its content type."""
        return _generate_latest(self.registry), CONTENT_TYPE_LATEST


def time_store_writes(store: Store, metrics: Metrics) -> None:
    """Observe every non-empty write of ``store`` (this instance) in ``store_write``."""
    write = store.write

    async def timed(batch: Batch) -> None:
        if not batch:
            return await write(batch)
        start = time.perf_counter()
        try:
            await write(batch)
        finally:
            metrics.store_write.observe(time.perf_counter() - start)

    store.write = timed  # type: ignore[method-assign]


class _Watch:
    """One WebSocket's commands awaiting their answers."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.awaited: dict[str, float] = {}  # id -> when received (perf_counter)
        self.bare: float | None = None  # when a command without an id was received

    def received(self, message: Message) -> None:
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", "replace") if len(raw) <= MAX_PEEK else None
        if not text or len(text) > MAX_PEEK or text.count("[") + text.count("{") > MAX_BRACKETS:
            return
        try:
            frame = json.loads(text)
            kind, data = frame.get("type"), frame.get("data")
        except Exception:  # not JSON, not an object: the app answers it
            return
        if not isinstance(kind, str) or kind in NOT_COMMANDS:
            return
        ref = data.get("id") if isinstance(data, dict) else None
        now = time.perf_counter()
        if isinstance(ref, str):
            if len(self.awaited) >= MAX_TRACKED:  # the oldest was never answered: forgotten
                del self.awaited[next(iter(self.awaited))]
            self.awaited[ref] = now
        else:
            self.bare = now

    def settle(self) -> None:
        """The connection reads again: its last command without an id was handled."""
        if self.bare is not None:
            self.metrics.answered(time.perf_counter() - self.bare)
            self.bare = None

    def sent(self, message: Message) -> None:
        text = message.get("text")
        if not isinstance(text, str):
            return
        if '"reply_to":' not in text:
            return
        try:
            ref = json.loads(text)["data"]["reply_to"]
        except Exception:  # (the server's own frames: always JSON objects)
            return
        received = self.awaited.pop(ref, None) if isinstance(ref, str) else None
        if received is not None:
            self.metrics.answered(time.perf_counter() - received)


class WsMetrics:
    """ASGI middleware: counts the open WebSockets and times their commands (see the module's
    docstring); HTTP requests pass through untouched."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        watch = _Watch(self.metrics)
        accepted = False

        async def receiving() -> Message:
            watch.settle()
            message = await receive()
            if message["type"] == "websocket.receive":
                with contextlib.suppress(Exception):  # (watching never breaks a connection)
                    watch.received(message)
            return message

        async def sending(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                self.metrics.connections.inc()
            elif message["type"] == "websocket.send":
                with contextlib.suppress(Exception):
                    watch.sent(message)
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            if accepted:
                self.metrics.connections.dec()


__all__ = [
    "LATENCY_BUCKETS",
    "OK",
    "REFUSED",
    "SOURCES",
    "Metrics",
    "WsMetrics",
    "time_store_writes",
]
