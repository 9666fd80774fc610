"""The server's configuration in one place: :class:`Settings` (the database, the timers,
``liarsdice serve``'s options) and :class:`~liarsdice.server.limits.Limits` (the abuse limits)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Settings:
    """Server settings (``liarsdice serve`` options; tests shorten the timers)."""

    db_url: str = "sqlite+aiosqlite:///liarsdice.db"
    origins: tuple[str, ...] = ()
    grace_period: float = 30.0
    bot_delay: float = 0.8
    takeover_level: str = "prob"
    rate_per_second: float = 10.0
    rate_burst: int = 20
    max_frame: int = 4096
    public_url: str | None = None
    frame_hook: Callable[[str, int, dict[str, Any], Any], None] | None = None
    store_timeout: float = 10.0  # a write not committed by then counts as failed
    store_retry: float = 1.0  # how often a paused room probes the store (doubling, to 30x)
    room_ttl: float = 24 * 3600.0  # a room with no connection idle this long is unloaded
    sweep_interval: float = 60.0  # how often the manager looks for idle rooms
    timeouts_before_away: int = 2  # turn timers run out this many times in a row: away
    clock: Callable[[], float] = time.time  # the wall clock of deadlines (tests fix it)


__all__ = ["Settings"]
