"""A room whose store fails *pauses*: it refuses commands, its bots and timers stop, and it
probes the store until a write as large as a real one commits; then it folds whatever the log
holds beyond its value (a write whose outcome was unknown may have been committed after all)
and resumes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from liarsdice.server.config import Settings
from liarsdice.server.room.events import fold
from liarsdice.server.room.fanout import Fanout
from liarsdice.server.room.mailbox import within
from liarsdice.server.room.state import Event, RoomState
from liarsdice.server.store import Store
from liarsdice.server.views import Broadcast, error_frame

log = logging.getLogger("liarsdice.server")

STORE_UNAVAILABLE = "the database is not answering: the room is paused and resumes by itself"
BACKOFF_MAX = 30  # probes back off, doubling, up to this many times ``Settings.store_retry``


class Stoppable(Protocol):
    def cancel(self) -> None:
        """Stop the room's bots and turn timers (until the room schedules them again)."""


class PauseRoom(Protocol):
    """What a pause needs of its room: its store and settings, its value and bots' secret
    (a probe reads the log's tail into them), its timers (stopped), its connections (told),
    and its queue (the probe is the room's work)."""

    id: str
    settings: Settings
    store: Store
    value: RoomState
    secret: str
    secret_stored: bool

    @property
    def closed(self) -> bool: ...

    @property
    def turns(self) -> Stoppable: ...

    @property
    def fanout(self) -> Fanout: ...

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` as the room's next work."""

    def adopt(self, value: RoomState, events: tuple[Event, ...]) -> None:
        """Keep a committed value (and what follows it: history, presence, timers)."""


class Pause:
    """One room's store health: whether it is paused, and its probe."""

    def __init__(self, room: PauseRoom) -> None:
        self.room = room
        self.paused = False
        self._probe: asyncio.TimerHandle | None = None
        self._wait = room.settings.store_retry

    def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()

    def start(self, err: BaseException) -> None:
        """The store failed: stop the room's bots and timers and probe until it answers."""
        room = self.room
        log.warning("room %s: the store failed (%r): paused", room.id, err)
        room.turns.cancel()
        if not self.paused:
            self.paused = True
            self._wait = room.settings.store_retry
            room.fanout.send_all(error_frame("store_unavailable", STORE_UNAVAILABLE))
        self._arm()

    def _arm(self) -> None:
        self.stop()
        self._probe = asyncio.get_running_loop().call_later(self._wait, self.room.post, self.probe)

    async def probe(self) -> None:
        """A write as large as a real one, then the log's tail; resume when both work (else
        probe again, waiting twice as long, up to :data:`BACKOFF_MAX` times the retry).

        The store writes in queue order, so once the probe's write returns, every write this
        room gave up on has committed or failed, and the log read after it is final."""
        self._probe = None
        room = self.room
        if not self.paused or room.closed:
            return
        timeout = room.settings.store_timeout
        try:
            await within(room.store.probe(room_id=room.id), timeout)
            stored = await within(room.store.load_room(room.id, since=room.value.seq), timeout)
        except Exception as err:
            log.info("room %s: the store still fails (%r)", room.id, err)
            self._wait = min(self._wait * 2, room.settings.store_retry * BACKOFF_MAX)
            self._arm()
            return
        from_seq = room.value.seq
        tail: list[Event] = []
        value = room.value
        if stored is not None:  # fold what a write of unknown outcome did commit
            value = value.with_seeds(stored.seeds)
            if stored.secret is not None:
                room.secret, room.secret_stored = stored.secret, True
            for seq, kind, data in stored.events:
                if seq > value.seq:
                    ev = Event(seq, kind, data)
                    value = fold(value, ev)
                    tail.append(ev)
        self.paused = False
        room.adopt(value, tuple(tail))
        log.warning("room %s: the store answers again: resumed at seq %d", room.id, room.value.seq)
        note = {"kind": "notice", "code": "store_ok", "note": "the room resumed"}
        out = Broadcast(room.value, room.fanout.live(), from_seq, tail, (note,), room.fanout.now())
        for sink in list(room.fanout.sinks):
            room.fanout.push(sink, out.frame(sink.seat))


__all__ = ["STORE_UNAVAILABLE", "Pause", "PauseRoom"]
