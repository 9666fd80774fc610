"""The room's actor: one task per room that takes commands in order and only orders the work.

For each command: :func:`~liarsdice.server.room.commands.decide` (pure) makes the events,
:func:`~liarsdice.server.projection.project` derives the rows they imply, the store commits
them, and only then does the room keep the new value and send every connection its frame
(:mod:`liarsdice.server.views`). When the write fails (or takes longer than
``Settings.store_timeout``) the room keeps its old value (nothing to undo), sends nothing but
the ``store_unavailable`` error, and *pauses* (it refuses commands, its bots and timers stop)
until a probe proves the store takes a realistically sized write; then it folds whatever the
log holds beyond its value (a write whose outcome was unknown may have been committed after
all) and resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from liarsdice.server.config import Settings
from liarsdice.server.projection import project
from liarsdice.server.protocol import CLIENT_MESSAGES, BackMsg, PingMsg, ResyncMsg
from liarsdice.server.room.commands import (
    CommandError,
    Decision,
    Entropy,
    Join,
    SystemEntropy,
    decide,
    hash_token,
)
from liarsdice.server.room.events import fold
from liarsdice.server.room.state import Event, RoomState, snapshot_json
from liarsdice.server.room.turns import Here, Turns
from liarsdice.server.store import Batch, Store
from liarsdice.server.views import (
    Broadcast,
    Encoded,
    Live,
    error_frame,
    pong,
    snapshot,
    viewer_of,
    welcome,
)

log = logging.getLogger("liarsdice.server")
_T = TypeVar("_T")

RESYNC_WINDOW = 64  # a resync at most this many events back gets them; further, a snapshot
RECORDS_KEPT = 4  # finished games' records a room keeps at hand; older ones from the store
STORE_UNAVAILABLE = "the database is not answering: the room is paused and resumes by itself"
CLOSE_REMOVED = 4410  # the seat was removed (by the host, or its player left)
PROBE_BYTES = 32 * 1024  # a resume probe writes about as much as a finished game's record


class Sink(Protocol):
    """Where a connection's frames go (a WebSocket writer, or a test's list)."""

    seat: int

    def push(self, frame: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection (after the frames already pushed)."""


async def within(aw: Awaitable[_T], seconds: float) -> _T:
    """``await aw``, giving up after ``seconds`` (TimeoutError) *without cancelling it*.

    A write the room stops waiting for must still reach the store's queue and finish there
    (the probe relies on it), and giving up must not cancel the room's own task:
    ``asyncio.timeout`` works by cancelling the current task, and on Python 3.11 a cancellation
    that races with the awaited write's completion can stay pending on the task, to surface at
    its next await. Waiting on a separate task never cancels anything."""
    task = asyncio.ensure_future(aw)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.add_done_callback(_retrieve)
        raise TimeoutError(f"no answer within {seconds:g} s")
    return task.result()


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a finished task's exception as seen (a write given up on may fail later)."""
    if not task.cancelled():
        task.exception()


class Room:
    """One room's actor: its value, its connections, its queue of commands."""

    def __init__(
        self,
        room_id: str,
        settings: Settings,
        store: Store,
        ratings: dict[str, int] | None = None,
        entropy: Entropy | None = None,
    ) -> None:
        self.id = room_id
        self.settings = settings
        self.store = store
        self.value = RoomState(room_id=room_id)
        self.presence: list[Here] = []
        self.sinks: set[Sink] = set()
        self.ratings: dict[str, int] = {} if ratings is None else ratings  # shared
        self.entropy: Entropy = entropy or SystemEntropy()
        self.turns = Turns(self)
        # The last RESYNC_WINDOW events as (seq, kind, data as JSON): the garbage collector
        # does not track tuples of strings and numbers, so busy rooms' history costs no pauses.
        self.history: deque[tuple[int, str, str]] = deque(maxlen=RESYNC_WINDOW)
        self.records: OrderedDict[int, dict[str, Any]] = OrderedDict()  # the latest few
        # The bots' random numbers are keyed by this secret (room_secrets; never sent).
        self.secret = secrets.token_hex(32)
        self._secret_stored = False
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False  # stop() cancels the task: that cancellation is meant
        self.paused = False  # the store failed: commands are refused until a probe succeeds
        self._probe: asyncio.TimerHandle | None = None
        self._probe_wait = settings.store_retry
        self.last_active = 0.0  # loop time of the last command
        self._prev_active = 0.0  # ... and of the one before (for close, itself a command)
        self._snaps: tuple[Any, dict[int, Encoded]] = ((), {})

    # ------------------------------------------------------------------ the log's facts
    @property
    def seq(self) -> int:
        return self.value.seq

    @property
    def status(self) -> str:
        return self.value.status

    @property
    def closed(self) -> bool:
        return self.value.status == "closed"

    @property
    def seats(self) -> tuple[Any, ...]:
        return self.value.seats

    @property
    def state(self) -> Any:
        return self.value.state

    @property
    def game(self) -> Any:
        return self.value.game

    def __getattr__(self, name: str) -> Any:
        # preset, family, private, game_no, host, turn_timer, ...: the value's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.value, name)

    @property
    def deadline(self) -> tuple[int, float] | None:
        return self.turns.deadline

    @property
    def spectators(self) -> int:
        return sum(1 for s in self.sinks if s.seat < 0)

    def live(self) -> Live:
        seats = self.value.seats
        return Live(
            presence=tuple((h.connections > 0, h.away) for h in self.presence),
            spectators=self.spectators,
            deadline=self.turns.deadline,
            ratings=tuple(None if s.player is None else self.ratings.get(s.player) for s in seats),
        )

    def restore(self, value: RoomState, history: list[Event] | None = None) -> None:
        """Take ``value`` (folded from the store) as the room's, before the room starts."""
        self.value = value
        self.presence = [Here() for _ in value.seats]
        for ev in history or ():
            self.history.append((ev.seq, ev.kind, json.dumps(ev.data, separators=(",", ":"))))

    # ------------------------------------------------------------------ the task
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.last_active = loop.time()
        self._task = loop.create_task(self._run(), name=f"room-{self.id}")

    async def stop(self) -> None:
        self._stopping = True
        self.turns.stop()
        if self._probe is not None:
            self._probe.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        """One command at a time, in order; a failed command never ends the task."""
        while True:
            fut: asyncio.Future[Any] | None = None
            try:
                fn, fut = await self._queue.get()
                now = asyncio.get_running_loop().time()
                self._prev_active, self.last_active = self.last_active, now
                result = await fn()
            except asyncio.CancelledError:
                if self._stopping:
                    raise
                # A cancellation nobody asked for (the room is not stopping): the command, if
                # any, failed; the task goes on. (Without this one stray cancel would end the
                # task and leave every later command of the room waiting forever.)
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
                log.error("room %s: a command was cancelled; the room goes on", self.id)
                if fut is not None and not fut.done():
                    fut.set_exception(CommandError("internal", "the command was interrupted"))
                continue
            except Exception as err:  # the command failed; the room goes on
                if not isinstance(err, CommandError):
                    log.exception("room %s: command failed", self.id)
                if fut is not None and not fut.done():
                    fut.set_exception(err)
                continue
            if not fut.done():
                fut.set_result(result)

    async def submit(self, fn: Callable[[], Awaitable[_T]]) -> _T:
        """Run ``fn`` as the room's next command and return its result."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((fn, fut))
        result: _T = await fut
        return result

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` without waiting for it (timers)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)
        self._queue.put_nowait((lambda: fn(*args), fut))

    # ------------------------------------------------------------------ commands
    async def command(
        self, seat: int, msg: Any, reply_to: str | None = None, sender: Sink | None = None
    ) -> Any:
        """Decide ``msg`` from ``seat``, commit its events, keep the new value, send the
        frames. Returns the decision's reply; raises CommandError when refused."""
        if self.paused:
            raise CommandError("store_unavailable", STORE_UNAVAILABLE)
        decision = decide(self.value, seat, msg, self.entropy)
        if isinstance(decision, CommandError):
            raise decision
        await self._commit(decision)
        self._adopt(decision.after, decision.events)
        self._send_update(decision.before.seq, decision.events, reply_to, sender)
        return decision.reply

    async def _commit(self, decision: Decision) -> None:
        """Write the decision's events and rows; on failure pause and refuse the command."""
        snap = None
        for ev, before in zip(decision.events, (decision.before, *decision.states), strict=False):
            if ev.kind == "game_started":  # startup reads the room from here on
                snap = (ev.seq - 1, snapshot_json(before))
        batch = project(self.id, decision.events, decision.states, decision.seeds, snap)
        if not batch:
            return
        if not self._secret_stored:
            batch.secret = self.secret
        try:
            await within(self.store.write(batch), self.settings.store_timeout)
        except Exception as err:
            self._pause(err)
            raise CommandError("store_unavailable", STORE_UNAVAILABLE) from None
        self._secret_stored = True
        self.ratings.update(batch.rated)

    def _adopt(self, value: RoomState, events: tuple[Event, ...]) -> None:
        """Keep a committed value: history, records, presence and connections follow it."""
        self.value = value
        reseated = False
        for ev in events:
            self.history.append((ev.seq, ev.kind, json.dumps(ev.data, separators=(",", ":"))))
            if ev.kind == "seat_joined":
                self.presence.append(Here())
                if ev.data["kind"] == "human":  # a seat nobody connects to goes away in time
                    self.turns.start_grace(ev.data["seat"])
            elif ev.kind == "seat_removed":
                self._drop_seat(ev.data["seat"], ev.data["by"])
                reseated = True
            elif ev.kind == "seat_left":
                self._disconnect_seat(ev.data["seat"], ev.data["by"])
            elif ev.kind == "game_over":
                self._keep_record(ev.data["game_no"], value)
        if reseated:
            self.turns.restart_graces()
        self.turns.schedule()

    def _keep_record(self, game_no: int, value: RoomState) -> None:
        self.records[game_no] = value.record()
        while len(self.records) > RECORDS_KEPT:
            self.records.popitem(last=False)

    def _disconnect_seat(self, seat: int, by: str) -> None:
        """Close a removed seat's connections, telling them why."""
        if by not in ("host", "self"):
            return
        why = "you left the room" if by == "self" else "the host removed you from the room"
        for x in [x for x in self.sinks if x.seat == seat]:
            self.sinks.discard(x)
            self._push(x, error_frame("removed", why))
            x.seat = -1
            x.close(CLOSE_REMOVED, "removed from the room")

    def _drop_seat(self, gone: int, by: str) -> None:
        """Seat ``gone`` was removed: its connections go, later seats' move down one."""
        self._disconnect_seat(gone, by)
        self.turns.end_grace(gone)
        del self.presence[gone]
        for x in self.sinks:
            if x.seat > gone:
                x.seat -= 1

    # ------------------------------------------------------------------ messages
    async def handle(self, sink: Sink, kind: str, msg: Any) -> None:
        """A validated client message (anything but hello) from ``sink``: ``kind`` names its
        type (a message of a shared base type, such as ``EmptyMsg``, takes ``kind``'s)."""
        model = CLIENT_MESSAGES.get(kind)
        if model is not None and type(msg) is not model:
            msg = model.model_validate(msg.model_dump())
        reply_to = getattr(msg, "id", None)
        if sink.seat >= 0:  # any message from a player's own connection: they are here
            here = self.presence[sink.seat]
            here.timeouts = 0
            if here.away:
                self.set_away(sink.seat, False, "back")
        try:
            match msg:
                case PingMsg() | BackMsg():
                    self.turns.schedule()
                    self._push(sink, pong(self.seq, reply_to))
                case ResyncMsg(last_seq=last_seq):
                    self.catch_up(sink, last_seq, reply_to)
                case _:
                    await self.command(sink.seat, msg, reply_to, sink)
        except CommandError as err:
            self._push(sink, error_frame(err.code, err.message, reply_to))

    async def join(
        self, name: str, client_seed: str | None, player: str | None = None
    ) -> tuple[int, str]:
        """Take the next free seat. Returns (seat, token)."""
        out: tuple[int, str] = await self.command(-1, Join(name, client_seed, player))
        return out

    def seat_for_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s in self.value.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    async def connect(
        self, sink: Sink, last_seq: int | None, client_seed: str | None, reply_to: str | None
    ) -> None:
        """A connection said hello: welcome it, catch it up, mark its seat present."""
        self.sinks.add(sink)
        self._push(sink, welcome(self.value, sink.seat, reply_to))
        self.catch_up(sink, last_seq)
        if self.paused:
            self._push(sink, error_frame("store_unavailable", STORE_UNAVAILABLE))
        if sink.seat < 0:
            return
        here = self.presence[sink.seat]
        here.connections += 1
        here.epoch += 1
        self.turns.end_grace(sink.seat)
        was_away = here.away
        here.away, here.timeouts = False, 0
        self._presence(sink.seat, "back" if was_away else "connected")
        if client_seed is not None and client_seed != self.value.seats[sink.seat].client_seed:
            from liarsdice.server.protocol import ClientSeedMsg

            try:
                await self.command(sink.seat, ClientSeedMsg(seed=client_seed))
            except CommandError as err:  # the store is failing: the seed is not changed
                self._push(sink, error_frame(err.code, err.message))
        else:
            self.turns.schedule()

    async def disconnect(self, sink: Sink) -> None:
        """A connection closed; after the grace period a bot plays its seat."""
        self.sinks.discard(sink)
        if sink.seat < 0 or sink.seat >= len(self.presence):
            return
        here = self.presence[sink.seat]
        here.connections = max(0, here.connections - 1)
        if here.connections == 0 and self.value.seats[sink.seat].kind == "human":
            here.epoch += 1
            self.turns.start_grace(sink.seat)
            self._presence(sink.seat, "disconnected")

    def set_away(self, seat: int, away: bool, note: str) -> None:
        self.presence[seat].away = away
        self._presence(seat, note)
        self.turns.schedule()  # a bot takes the seat's turns, or its player again

    # ------------------------------------------------------------------ sending
    def catch_up(self, sink: Sink, last_seq: int | None, reply_to: str | None = None) -> None:
        """What a client at ``last_seq`` needs: the missing events when they are few (at most
        :data:`RESYNC_WINDOW`) and all remembered, else a snapshot (bounded, and cached)."""
        if last_seq is not None and 0 <= self.seq - last_seq <= RESYNC_WINDOW:
            missing = [
                Event(seq, kind, json.loads(data))
                for seq, kind, data in self.history
                if seq > last_seq
            ]
            if last_seq == self.seq or (missing and missing[0].seq == last_seq + 1):
                update = Broadcast(self.value, self.live(), last_seq, missing, now=self._now())
                self._push(sink, update.frame(sink.seat, reply_to))
                return
        self._push(sink, self.snapshot_frame(sink.seat, reply_to))

    def snapshot_frame(self, seat: int, reply_to: str | None = None) -> Encoded:
        """The ``snapshot`` frame for ``seat`` (-1: a spectator), cached per (seq, recipient)."""
        viewer = viewer_of(self.value, seat)
        live = self.live()
        key = self._snaps[0]
        if not key or key[0] is not self.value or key[1] != live:
            self._snaps = ((self.value, live), {})
        cache = self._snaps[1]
        out = cache.get(viewer)
        if out is None:
            out = cache[viewer] = snapshot(self.value, live, viewer, self._now())
        if reply_to is not None:
            out = Encoded(out, data={**out["data"], "reply_to": reply_to})
        return out

    def _now(self) -> float:
        return round(self.settings.clock(), 3)

    def _push(self, sink: Sink, frame: Encoded) -> None:
        hook = self.settings.frame_hook
        if hook is not None:
            hook(self.id, sink.seat, frame, self.value.state)
        sink.push(frame)

    def _send_update(
        self,
        from_seq: int,
        events: tuple[Event, ...],
        reply_to: str | None = None,
        sender: Sink | None = None,
        ephemeral: tuple[dict[str, Any], ...] = (),
    ) -> None:
        if not (events or ephemeral or reply_to is not None):
            return
        out = Broadcast(self.value, self.live(), from_seq, events, ephemeral, self._now())
        for sink in list(self.sinks):
            self._push(sink, out.frame(sink.seat, reply_to if sink is sender else None))

    def _presence(self, seat: int, note: str) -> None:
        here = self.presence[seat]
        eph = {
            "kind": "presence",
            "seat": seat,
            "connected": here.connections > 0,
            "away": here.away,
            "note": note,
        }
        self._send_update(self.seq, (), ephemeral=(eph,))

    # ------------------------------------------------------------------ store failures
    def _pause(self, err: BaseException) -> None:
        """The store failed: stop the room's bots and timers and probe until it answers."""
        log.warning("room %s: the store failed (%r): paused", self.id, err)
        self.turns.cancel()
        if not self.paused:
            self.paused = True
            self._probe_wait = self.settings.store_retry
            for sink in list(self.sinks):
                self._push(sink, error_frame("store_unavailable", STORE_UNAVAILABLE))
        self._arm_probe()

    def _arm_probe(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        self._probe = asyncio.get_running_loop().call_later(
            self._probe_wait, self.post, self._probe_store
        )

    async def _probe_store(self) -> None:
        """A paused room's probe: a write as large as a real one, then the log's tail; resume
        when both work (else probe again, waiting twice as long, up to 30 times the retry).

        The store writes in queue order, so once the probe's write returns, every write this
        room gave up on has committed or failed, and the log read after it is final."""
        self._probe = None
        if not self.paused or self.closed:
            return
        timeout = self.settings.store_timeout
        try:
            await within(self.store.write(Batch(self.id, probe=PROBE_BYTES)), timeout)
            stored = await within(self.store.load_room(self.id), timeout)
        except Exception as err:
            log.info("room %s: the store still fails (%r)", self.id, err)
            self._probe_wait = min(self._probe_wait * 2, self.settings.store_retry * 30)
            self._arm_probe()
            return
        from_seq = self.seq
        tail: list[Event] = []
        value = self.value
        if stored is not None:  # fold what a write of unknown outcome did commit
            value = value.with_seeds(stored.seeds)
            if stored.secret is not None:
                self.secret, self._secret_stored = stored.secret, True
            for seq, kind, data in stored.events:
                if seq > value.seq:
                    ev = Event(seq, kind, data)
                    value = fold(value, ev)
                    tail.append(ev)
        self.paused = False
        self._adopt(value, tuple(tail))
        log.warning("room %s: the store answers again: resumed at seq %d", self.id, self.seq)
        note = {"kind": "notice", "code": "store_ok", "note": "the room resumed"}
        for sink in list(self.sinks):
            out = Broadcast(self.value, self.live(), from_seq, tail, (note,), self._now())
            self._push(sink, out.frame(sink.seat))
        self.turns.schedule()

    # ------------------------------------------------------------------ idleness
    def idle_for(self, now: float) -> float | None:
        """How long the room has had no connection and no command (None: it is in use)."""
        if self.sinks or self.paused or self.closed or not self._queue.empty():
            return None
        return now - self.last_active

    async def close(self, ttl: float) -> bool:
        """Close the room if it has been idle for ``ttl`` seconds: a ``room_closed`` event
        (the room is not loaded at startup any more). True when it was closed."""
        from liarsdice.server.room.commands import CloseRoom

        if self.closed:
            return True
        if self.sinks or self.paused or not self._queue.empty():
            return False
        if asyncio.get_running_loop().time() - self._prev_active < ttl:
            return False
        await self.command(-1, CloseRoom())
        return True


__all__ = ["CLOSE_REMOVED", "RESYNC_WINDOW", "Room", "Sink", "within"]
