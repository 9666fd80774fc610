"""Abuse limits of the HTTP and WebSocket boundary (``docs/SERVER.md``, "Abuse resistance").

:class:`~liarsdice.server.config.Limits` holds the numbers; :class:`Limiter` the state of one
server: token buckets per connection, per seat holder (shared by the connections of the one
who holds the seat) and per client IP (WebSocket messages, and HTTP requests), byte budgets
per connection and per IP (bytes sent in a one-second window), the number of WebSockets open
per IP, and room creations per IP and joins per room (and per IP and room) in sliding
windows.

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
from ipaddress import ip_address

from liarsdice.server.config import Limits


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

    def wait(self) -> float:
        """Seconds until the next token (after a refused :meth:`take`)."""
        if self.rate <= 0:
            return float("inf")
        return max(0.0, (1 - self.tokens) / self.rate)


class Window:
    """Events in a sliding window of ``seconds``: ``add`` is False (and not counted) once
    ``limit`` of them are in it.

    >>> w = Window(2, 60.0)
    >>> w.add(now=0.0), w.add(now=1.0), w.add(now=2.0), w.add(now=61.0)
    (True, True, False, True)
    >>> w.retry(now=61.0)
    0.0
    """

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque()

    def _expire(self, now: float) -> None:
        while self.times and now - self.times[0] >= self.seconds:
            self.times.popleft()

    def add(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self._expire(now)
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True

    def retry(self, now: float | None = None) -> float:
        """Seconds until :meth:`add` can succeed."""
        now = time.monotonic() if now is None else now
        self._expire(now)
        if len(self.times) < self.limit:
            return 0.0
        return self.times[0] + self.seconds - now

    def idle(self, now: float) -> bool:
        self._expire(now)
        return not self.times


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
    http: Bucket
    sockets: int = 0
    rooms: deque[float] = field(default_factory=deque)
    players: deque[float] = field(default_factory=deque)  # guest identities created
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
        # (room, seat holder) -> (bucket, connections); the holder is the seat token's hash
        self.seats: dict[tuple[str, str], tuple[Bucket, int]] = {}
        self.joins: dict[str, Window] = {}  # room -> its joins
        self.ip_joins: dict[tuple[str, str], Window] = {}  # (room, address) -> their joins

    def ip(self, host: str) -> IpState:
        state = self.ips.get(host)
        if state is None:
            if len(self.ips) >= self.PRUNE_AT:
                self._prune()
            lim = self.limits
            state = IpState(
                Bucket(lim.ip_rate, lim.ip_burst),
                ByteWindow(lim.ip_bytes),
                Bucket(lim.http_rate, lim.http_burst),
            )
            self.ips[host] = state
        state.seen = time.monotonic()
        return state

    def _prune(self) -> None:
        now = time.monotonic()
        for host, s in list(self.ips.items()):
            self._expire_rooms(s, now)
            if s.sockets == 0 and not s.rooms and not s.players and now - s.seen > 60:
                del self.ips[host]

    def _expire_rooms(self, state: IpState, now: float) -> None:
        while state.rooms and now - state.rooms[0] >= self.limits.rooms_window:
            state.rooms.popleft()
        while state.players and now - state.players[0] >= self.limits.players_window:
            state.players.popleft()

    def create_room(self, host: str) -> bool:
        """Count a room creation by ``host``; False when it is over its quota."""
        state = self.ip(host)
        return self._count(state, state.rooms, self.limits.rooms_per_ip)

    def create_player(self, host: str) -> bool:
        """Count a guest identity created by ``host`` (its own budget, not the rooms'); False
        when it is over its quota."""
        state = self.ip(host)
        return self._count(state, state.players, self.limits.players_per_ip)

    def _count(self, state: IpState, times: deque[float], quota: int) -> bool:
        """Count one more creation in ``times`` (one of ``state``'s windows, expired ones
        dropped first); False, counting nothing, when ``quota`` is already reached."""
        now = time.monotonic()
        self._expire_rooms(state, now)
        if len(times) >= quota:
            return False
        times.append(now)
        return True

    def exempt(self, host: str) -> bool:
        """No per-address HTTP limits for ``host`` (a loopback address, when configured)."""
        if not self.limits.exempt_loopback:
            return False
        try:
            return ip_address(host).is_loopback
        except ValueError:
            return False

    def http_request(self, host: str) -> float:
        """Count an HTTP request of ``host``: 0 when it may go on, else the seconds to wait."""
        if self.limits.http_rate <= 0 or self.exempt(host):
            return 0.0
        bucket = self.ip(host).http
        return 0.0 if bucket.take() else max(bucket.wait(), 0.001)

    def join(self, room: str, host: str) -> float:
        """Count a join of ``room`` by ``host``: 0 when it may go on, else the seconds to wait
        (at most ``joins_per_ip`` a window per address and room, ``joins_per_room`` per room).
        """
        if self.exempt(host):
            return 0.0
        lim = self.limits
        if len(self.joins) + len(self.ip_joins) >= self.PRUNE_AT:
            now = time.monotonic()
            self.joins = {k: w for k, w in self.joins.items() if not w.idle(now)}
            self.ip_joins = {k: w for k, w in self.ip_joins.items() if not w.idle(now)}
        per_room = self.joins.setdefault(room, Window(lim.joins_per_room, lim.joins_window))
        per_ip = self.ip_joins.setdefault((room, host), Window(lim.joins_per_ip, lim.joins_window))
        wait = max(per_room.retry(), per_ip.retry())
        if wait > 0:
            return wait
        per_room.add()
        per_ip.add()
        return 0.0

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

    def seat_bucket(self, room: str, holder: str) -> Bucket:
        """The bucket shared by every connection of a seat's holder (``holder``: the seat
        token's hash, so that whoever takes the seat next starts afresh); release it with
        ``drop_seat``."""
        key = (room, holder)
        bucket, n = self.seats.get(key) or (
            Bucket(self.limits.seat_rate, self.limits.seat_burst),
            0,
        )
        self.seats[key] = (bucket, n + 1)
        return bucket

    def drop_seat(self, room: str, holder: str) -> None:
        key = (room, holder)
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


__all__ = ["Bucket", "ByteWindow", "IpState", "Limiter", "Limits", "Window"]
