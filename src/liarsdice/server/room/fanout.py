"""A room's connections and what goes out to them: per-recipient frames built by
:mod:`liarsdice.server.views` from the room's value, snapshots cached per (value,
recipient), and the recent events kept for resync by seq."""

from __future__ import annotations

import json
from collections import deque
from typing import Any, Protocol

from liarsdice.server.config import Settings
from liarsdice.server.ratings import rating_key
from liarsdice.server.room.state import Event, RoomState
from liarsdice.server.room.turns import Here
from liarsdice.server.views import Broadcast, Encoded, Live, snapshot, viewer_of

RESYNC_WINDOW = 64  # a resync at most this many events back gets them; further, a snapshot


class Sink(Protocol):
    """Where a connection's frames go (a WebSocket writer, or a test's list)."""

    seat: int

    def push(self, frame: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection (after the frames already pushed)."""


class Timers(Protocol):
    """The room's running timers, as frames show them (:class:`~.turns.Turns`)."""

    deadline: tuple[int, float] | None  # (seat, wall-clock time) of a turn timer
    reveal_deadline: float | None
    ready: frozenset[int]  # the seats that said ``continue`` in a reveal
    waited: frozenset[int]  # ... and those that asked to wait

    def waiting_for(self) -> list[int]:
        """The seats a reveal waits for."""


class FanoutRoom(Protocol):
    """What the frames are built from: the room's value, its live facts (presence, ratings,
    timers) and its settings (the clock, a test's frame hook)."""

    id: str
    value: RoomState
    presence: list[Here]
    ratings: dict[str, int]
    settings: Settings

    @property
    def turns(self) -> Timers: ...


class Fanout:
    """The room's connections (``sinks``) and the frames sent to them."""

    def __init__(self, room: FanoutRoom) -> None:
        self.room = room
        self.sinks: set[Sink] = set()
        # The last RESYNC_WINDOW events as (seq, kind, data as JSON): the garbage collector
        # does not track tuples of strings and numbers, so busy rooms' history costs no pauses.
        self.history: deque[tuple[int, str, str]] = deque(maxlen=RESYNC_WINDOW)
        self._snaps: tuple[Any, dict[int, Encoded]] = ((), {})

    def remember(self, ev: Event) -> None:
        self.history.append((ev.seq, ev.kind, ev.text))

    @property
    def spectators(self) -> int:
        return sum(1 for s in self.sinks if s.seat < 0)

    def live(self) -> Live:
        room = self.room
        seats, rated, turns = room.value.seats, room.ratings, room.turns
        family = room.value.family  # (ratings are per family)
        reveal = None
        if room.value.revealing:
            waiting = tuple(turns.waiting_for())
            ready, waited = tuple(sorted(turns.ready)), tuple(sorted(turns.waited))
            reveal = (turns.reveal_deadline, waiting, ready, waited)
        return Live(
            presence=tuple((h.connections > 0, h.away) for h in room.presence),
            spectators=self.spectators,
            deadline=turns.deadline,
            ratings=tuple(
                None if s.player is None else rated.get(rating_key(family, s.player)) for s in seats
            ),
            reveal=reveal,
            summaries=tuple(
                (i, h.summary) for i, h in enumerate(room.presence) if h.summary is not None
            ),
        )

    def catch_up(self, sink: Sink, last_seq: int | None, reply_to: str | None = None) -> None:
        """What a client at ``last_seq`` needs: the missing events when they are few (at most
        :data:`RESYNC_WINDOW`) and all remembered, else a snapshot (bounded, and cached)."""
        if last_seq is not None and 0 <= self.room.value.seq - last_seq <= RESYNC_WINDOW:
            missing = [
                Event(seq, kind, json.loads(data))
                for seq, kind, data in self.history
                if seq > last_seq
            ]
            if last_seq == self.room.value.seq or (missing and missing[0].seq == last_seq + 1):
                update = Broadcast(self.room.value, self.live(), last_seq, missing, now=self.now())
                self.push(sink, update.frame(sink.seat, reply_to))
                return
        self.push(sink, self.snapshot_frame(sink.seat, reply_to))

    def snapshot_frame(self, seat: int, reply_to: str | None = None) -> Encoded:
        """The ``snapshot`` frame for ``seat`` (-1: a spectator): built once per (value, live
        facts, recipient), stamped with the server's clock (``now``) at each send."""
        viewer = viewer_of(self.room.value, seat)
        live = self.live()
        key = self._snaps[0]
        if not key or key[0] is not self.room.value or key[1] != live:
            self._snaps = ((self.room.value, live), {})
        cache = self._snaps[1]
        out = cache.get(viewer)
        if out is None:
            out = cache[viewer] = snapshot(self.room.value, live, viewer)
        data = {**out["data"], "now": self.now()}
        if reply_to is not None:
            data["reply_to"] = reply_to
        return Encoded(out, data=data)

    def now(self) -> float:
        return round(self.room.settings.clock(), 3)

    def send_all(self, frame: Encoded) -> None:
        for sink in list(self.sinks):
            self.push(sink, frame)

    def push(self, sink: Sink, frame: Encoded) -> None:
        hook = self.room.settings.frame_hook
        if hook is not None:
            hook(self.room.id, sink.seat, frame, self.room.value.state)
        sink.push(frame)

    def update(
        self,
        from_seq: int,
        events: tuple[Event, ...],
        reply_to: str | None = None,
        sender: Sink | None = None,
        ephemeral: tuple[dict[str, Any], ...] = (),
    ) -> None:
        if not (events or ephemeral or reply_to is not None):
            return
        out = Broadcast(self.room.value, self.live(), from_seq, events, ephemeral, self.now())
        for sink in list(self.sinks):
            self.push(sink, out.frame(sink.seat, reply_to if sink is sender else None))


__all__ = ["RESYNC_WINDOW", "Fanout", "FanoutRoom", "Sink", "Timers"]
