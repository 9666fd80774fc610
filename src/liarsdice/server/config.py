"""The server's settings and limits, in one place (``docs/SERVER.md``).

:class:`Settings` holds what a server is (its database, origins, timers of the rooms);
:class:`Limits` holds every number of the abuse resistance of the HTTP and WebSocket boundary
(``liarsdice serve`` flags; tests lower them). Nothing here imports the rest of the server.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def default_node_id() -> str:
    """``<hostname>-<pid>``: unique among the nodes of a cluster without configuration."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass
class Settings:
    """Server settings (``liarsdice serve`` options; tests shorten the timers)."""

    db_url: str = "sqlite+aiosqlite:///liarsdice.db"
    origins: tuple[str, ...] = ()
    grace_period: float = 30.0
    bot_delay: float = 0.8
    takeover_level: str = "prob"
    rate_per_second: float = 10.0  # messages a second of one connection (pings included)
    rate_burst: int = 20
    public_url: str | None = None
    frame_hook: Callable[[str, int, dict[str, Any], Any], None] | None = None
    store_timeout: float = 10.0  # a write (or an HTTP read) not done by then counts as failed
    store_retry: float = 1.0  # how often a paused room probes the store (doubling, to 30x)
    room_ttl: float = 24 * 3600.0  # a room with no connection idle this long is unloaded
    sweep_interval: float = 60.0  # how often the manager looks for idle rooms
    timeouts_before_away: int = 2  # turn timers run out this many times in a row: away
    # After a call the room holds the next round while the reveal shows: the cups lift, the
    # dice are counted (the time depends on the count), then the verdict stays this long (or
    # until every connected player sent `continue`); 0: no pause. No player there: no pause.
    reveal_seconds: float = 2.5
    clock: Callable[[], float] = time.time  # the wall clock of deadlines (tests fix it)
    # This node's id in /api/health (and, in a cluster, among its nodes): <hostname>-<pid>
    node_id: str = field(default_factory=default_node_id)
    # A node of a cluster (docs/DEPLOY.md): its Redis (None: a single server).
    redis_url: str | None = None


@dataclass(frozen=True)
class Limits:
    """The boundary's limits (``liarsdice serve`` flags; tests lower them).

    The per-connection message rate is ``Settings.rate_per_second`` / ``rate_burst``.
    """

    # -- sizes
    max_frame: int = 4096  # bytes of a WebSocket frame (uvicorn's ws_max_size and the app)
    max_body: int = 4096  # bytes of an HTTP request body
    max_depth: int = 16  # nesting of arrays and objects in a JSON frame or body
    max_header_bytes: int = 16 << 10  # request line and headers of one HTTP request (431)
    # -- WebSocket messages
    seat_rate: float = 10.0  # messages a second of one seat, all its connections together
    seat_burst: int = 20
    ip_rate: float = 50.0  # messages a second from one IP, all its connections together
    ip_burst: int = 100
    conn_bytes: int = 1 << 20  # bytes sent to one connection in a one-second window
    ip_bytes: int = 16 << 20  # bytes sent to one IP's connections in a one-second window
    # What may wait to be sent to one connection: frames queued by the server plus the
    # transport's write buffer. Past it, or when the oldest queued frame has waited
    # `send_stall` seconds (a client that does not read), the connection is dropped (4008).
    send_queue_bytes: int = 256 << 10
    send_stall: float = 5.0
    hello_timeout: float = 10.0  # the first frame must be hello within this (4408)
    # -- connections
    ws_per_ip: int = 64  # WebSockets open at once from one IP
    max_conns_per_ip: int = 128  # TCP connections open at once from one IP (HTTP and WS)
    header_timeout: float = 10.0  # seconds to receive a whole HTTP request (head and body)
    keep_alive: float = 5.0  # an idle keep-alive HTTP connection is closed after this
    # -- HTTP requests
    http_rate: float = 50.0  # requests a second from one IP (0: no limit)
    http_burst: int = 200
    exempt_loopback: bool = False  # no per-address HTTP limits for 127.0.0.0/8 and ::1
    rooms_per_ip: int = 30  # rooms created by one IP in `rooms_window` seconds
    rooms_window: float = 3600.0
    # guest identities (POST /api/players) created by one IP in `players_window` seconds: a
    # budget of its own, larger than the rooms' (a household or LAN shares one address)
    players_per_ip: int = 200
    players_window: float = 3600.0
    joins_per_ip: int = 5  # joins of one room from one IP in `joins_window` seconds
    joins_per_room: int = 20  # joins of one room from anywhere in `joins_window` seconds
    joins_window: float = 60.0
    retry_after: int = 5  # the Retry-After of a 503 (the store is failing)
    record_cache: int = 512  # rendered records of finished games kept (an LRU)
    # An address cut off for flooding (rate limit or byte budget, close 4429) may not open a
    # WebSocket for a cool-down: 0.5 s, doubling with each cut-off in a row up to 30 s (a
    # strike is forgotten after `strike_memory` s). Reconnecting at once to flood again then
    # costs the server a refused handshake, not a welcome and a snapshot.
    cooldown: float = 0.5
    cooldown_max: float = 30.0
    strike_memory: float = 300.0


__all__ = ["Limits", "Settings", "default_node_id"]
