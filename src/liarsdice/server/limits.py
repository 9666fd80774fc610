"""Abuse limits of the HTTP and WebSocket boundary (``docs/SERVER.md``, "Abuse resistance").

:class:`Limits` holds the numbers; :class:`Limiter` the state of one server: token buckets per
connection, per seat (shared by the seat's connections) and per client IP, byte budgets per
connection and per IP (bytes sent in a one-second window), the number of WebSockets open per
IP, and room creations per IP in a sliding window.

>>> b = Bucket(rate=0.0, burst=2)
>>> b.take(), b.take(), b.take()
(True, True, False)
>>> w = ByteWindow(100)
>>> w.add(60, now=0.0), w.add(60, now=0.5), w.add(60, now=1.5)
(True, False, True)
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """The boundary's limits (``liarsdice serve`` flags; tests lower them).

    The per-connection message rate is ``Settings.rate_per_second`` / ``rate_burst``.
    """

    max_body: int = 4096  # bytes of an HTTP request body
    max_depth: int = 16  # nesting of arrays and objects in a JSON frame or body
    seat_rate: float = 10.0  # messages a second of one seat, all its connections together
    seat_burst: int = 20
    ip_rate: float = 50.0  # messages a second from one IP, all its connections together
    ip_burst: int = 100
    conn_bytes: int = 1 << 20  # bytes sent to one connection in a one-second window
    ip_bytes: int = 16 << 20  # bytes sent to one IP's connections in a one-second window
    ws_per_ip: int = 64  # WebSockets open at once from one IP
    rooms_per_ip: int = 30  # rooms created by one IP in `rooms_window` seconds
    rooms_window: float = 3600.0
    # An address cut off for flooding (rate limit or byte budget, close 4429) may not open a
    # WebSocket for a cool-down: 0.5 s, doubling with each cut-off in a row up to 30 s (a
    # strike is forgotten after `strike_memory` s). Reconnecting at once to flood again then
    # costs the server a refused handshake, not a welcome and a snapshot.
    cooldown: float = 0.5
    cooldown_max: float = 30.0
    strike_memory: float = 300.0


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

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


class ByteWindow:
    """Bytes sent in the current one-second window; ``add`` is False once over ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.start = 0.0
        self.used = 0

    def add(self, n: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if now - self.start >= 1.0:
            self.start, self.used = now, 0
        self.used += n
        return self.used <= self.limit


@dataclass
class IpState:
    """What one client IP is using."""

    bucket: Bucket
    bytes: ByteWindow
    sockets: int = 0
    rooms: deque[float] = field(default_factory=deque)
    seen: float = field(default_factory=time.monotonic)
    strikes: int = 0  # cut-offs for flooding in a row
    struck: float = 0.0  # when the last one was
    cool_until: float = 0.0  # no new WebSocket before this (monotonic time)


class Limiter:
    """The limits' state for one app. Everything runs on the event loop: no locks."""

    PRUNE_AT = 10_000  # IP entries kept before idle ones are dropped

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.ips: dict[str, IpState] = {}
        self.seats: dict[tuple[str, int], tuple[Bucket, int]] = {}  # bucket, connections

    def ip(self, host: str) -> IpState:
        state = self.ips.get(host)
        if state is None:
            if len(self.ips) >= self.PRUNE_AT:
                self._prune()
            lim = self.limits
            state = IpState(Bucket(lim.ip_rate, lim.ip_burst), ByteWindow(lim.ip_bytes))
            self.ips[host] = state
        state.seen = time.monotonic()
        return state

    def _prune(self) -> None:
        now = time.monotonic()
        for host, s in list(self.ips.items()):
            self._expire_rooms(s, now)
            if s.sockets == 0 and not s.rooms and now - s.seen > 60:
                del self.ips[host]

    def _expire_rooms(self, state: IpState, now: float) -> None:
        while state.rooms and now - state.rooms[0] >= self.limits.rooms_window:
            state.rooms.popleft()

    def create_room(self, host: str) -> bool:
        """Count a room creation by ``host``; False when it is over its quota."""
        state = self.ip(host)
        now = time.monotonic()
        self._expire_rooms(state, now)
        if len(state.rooms) >= self.limits.rooms_per_ip:
            return False
        state.rooms.append(now)
        return True

    def open_socket(self, host: str) -> bool:
        """Count a new WebSocket of ``host``; False (and not counted) when over the cap."""
        state = self.ip(host)
        if state.sockets >= self.limits.ws_per_ip:
            return False
        state.sockets += 1
        return True

    def cut_off(self, host: str) -> float:
        """``host`` was cut off for flooding: start (or lengthen) its cool-down; returns it."""
        state = self.ip(host)
        now = time.monotonic()
        if now - state.struck > self.limits.strike_memory:
            state.strikes = 0
        state.strikes += 1
        state.struck = now
        lim = self.limits
        pause = min(lim.cooldown_max, lim.cooldown * 2.0 ** (state.strikes - 1))
        state.cool_until = max(state.cool_until, now + pause)
        return pause

    def cooling(self, host: str) -> float:
        """Seconds left of ``host``'s cool-down (0: none)."""
        state = self.ips.get(host)
        if state is None:
            return 0.0
        return max(0.0, state.cool_until - time.monotonic())

    def close_socket(self, host: str) -> None:
        state = self.ips.get(host)
        if state is not None:
            state.sockets = max(0, state.sockets - 1)

    def seat_bucket(self, room: str, seat: int) -> Bucket:
        """The bucket shared by every connection of a seat (release it with ``drop_seat``)."""
        key = (room, seat)
        bucket, n = self.seats.get(key) or (
            Bucket(self.limits.seat_rate, self.limits.seat_burst),
            0,
        )
        self.seats[key] = (bucket, n + 1)
        return bucket

    def drop_seat(self, room: str, seat: int) -> None:
        key = (room, seat)
        entry = self.seats.get(key)
        if entry is None:
            return
        # Kept at 0 connections, so that reconnecting does not refill the bucket; idle ones
        # are dropped when there are many.
        self.seats[key] = (entry[0], max(0, entry[1] - 1))
        if len(self.seats) >= self.PRUNE_AT:
            for k, (_, n) in list(self.seats.items()):
                if n == 0:
                    del self.seats[k]


__all__ = ["Bucket", "ByteWindow", "IpState", "Limiter", "Limits"]
