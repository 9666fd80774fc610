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
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from liarsdice.core.api import GameAPI, StateAPI
from liarsdice.server.config import Settings
from liarsdice.server.projection import project
from liarsdice.server.protocol import (
    CLIENT_MESSAGES,
    BackMsg,
    ContinueMsg,
    PingMsg,
    ResyncMsg,
    WaitMsg,
)
from liarsdice.server.room.commands import (
    BotMove,
    CloseRoom,
    CommandError,
    Decision,
    EndReveal,
    Entropy,
    Join,
    SystemEntropy,
    decide,
    hash_token,
)
from liarsdice.server.room.fanout import Fanout, Sink
from liarsdice.server.room.mailbox import Mailbox, within
from liarsdice.server.room.pause import STORE_UNAVAILABLE, Pause
from liarsdice.server.room.seating import CLOSE_REMOVED, Seating
from liarsdice.server.room.state import Event, RoomState, Seat, snapshot_json
from liarsdice.server.room.turns import Here, Turns
from liarsdice.server.room_events import (
    Action,
    GameOver,
    GameStarted,
    SeatJoined,
    SeatLeft,
    SeatRemoved,
)
from liarsdice.server.store import Fenced, Store
from liarsdice.server.views import (
    Encoded,
    error_frame,
    pong,
    welcome,
)

log = logging.getLogger("liarsdice.server")
_T = TypeVar("_T")

RECORDS_KEPT = 4  # finished games' records a room keeps at hand; older ones from the store


def _source(seat: int, msg: Any) -> str:
    """Who sent a command, as the metrics name it: the server (no seat), a turn's timer, a bot
    or a player."""
    if seat < 0:
        return "server"
    if isinstance(msg, BotMove):
        return "timer" if msg.timeout else "bot"
    return "player"


class _Fact(Generic[_T]):
    """A read-only attribute of the room: the fact of the same name in its value
    (:class:`~liarsdice.server.room.state.RoomState`), which only the log's events change."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, room: None, owner: type) -> _Fact[_T]: ...
    @overload
    def __get__(self, room: Room, owner: type) -> _T: ...
    def __get__(self, room: Room | None, owner: type) -> _Fact[_T] | _T:
        if room is None:
            return self
        value: _T = getattr(room.value, self.name)
        return value

    def __set__(self, room: Room, value: _T) -> None:
        raise AttributeError(f"{self.name} is the room's value's: an event changes it")


class Room(Mailbox):
    """One room's actor: its value, its connections, its queue of commands."""

    def __init__(
        self,
        room_id: str,
        settings: Settings,
        store: Store,
        ratings: dict[str, int] | None = None,
        entropy: Entropy | None = None,
        epoch: int | None = None,
    ) -> None:
        self.id = room_id
        # In a cluster: the lease this node holds on the room, written with every batch (the
        # store refuses a batch of an older lease: Fenced), and what to do when that happens.
        self.epoch = epoch
        self.on_fenced: Callable[[Room], None] | None = None
        # ... and where it tells the cluster of a turn timer's deadline (room, seq, seat, time)
        self.on_deadline: Callable[[Room, int, int, float], None] | None = None
        # Told of every command decided here: (its source, "ok" or "refused"); the metrics.
        self.on_command: Callable[[str, str], None] | None = None
        self.settings = settings
        self.store = store
        self.value = RoomState(room_id=room_id)
        self.presence: list[Here] = []
        self.ratings: dict[str, int] = {} if ratings is None else ratings  # shared
        self.entropy: Entropy = entropy or SystemEntropy()
        self.turns = Turns(self)
        self.fanout = Fanout(self)
        self.seating = Seating(self)  # who is at the table: presence, connections
        self.records: OrderedDict[int, dict[str, Any]] = OrderedDict()  # the latest few
        # The bots' random numbers are keyed by this secret (room_secrets; never sent).
        self.secret = secrets.token_hex(32)
        self.secret_stored = False
        super().__init__(f"room-{room_id}")
        self.pause = Pause(self)  # the store failed: commands wait for a probe to succeed

    # ------------------------------------------------------------------ the log's facts
    seq: _Fact[int] = _Fact()
    status: _Fact[str] = _Fact()
    seats: _Fact[tuple[Seat, ...]] = _Fact()
    state: _Fact[StateAPI | None] = _Fact()
    game: _Fact[GameAPI | None] = _Fact()
    preset: _Fact[str] = _Fact()
    family: _Fact[str] = _Fact()
    private: _Fact[bool] = _Fact()
    game_no: _Fact[int] = _Fact()
    host: _Fact[int] = _Fact()
    turn_timer: _Fact[float | None] = _Fact()

    @property
    def closed(self) -> bool:
        return self.value.status == "closed"

    @property
    def paused(self) -> bool:
        return self.pause.paused

    @property
    def sinks(self) -> set[Sink]:
        return self.fanout.sinks

    @property
    def spectators(self) -> int:
        return self.fanout.spectators

    def snapshot_frame(self, seat: int, reply_to: str | None = None) -> Encoded:
        return self.fanout.snapshot_frame(seat, reply_to)

    @property
    def deadline(self) -> tuple[int, float] | None:
        return self.turns.deadline

    def restore(self, value: RoomState, history: list[Event] | None = None) -> None:
        """Take ``value`` (folded from the store) as the room's, before the room starts."""
        self.value = value
        self.presence = [Here() for _ in value.seats]
        for ev in history or ():
            self.fanout.remember(ev)

    # ------------------------------------------------------------------ the task
    def start(self) -> None:
        self.last_active = asyncio.get_running_loop().time()
        super().start()

    async def stop(self) -> None:
        self._stopping = True
        self.turns.stop()
        self.pause.stop()
        await super().stop()

    # ------------------------------------------------------------------ commands
    async def command(
        self, seat: int, msg: Any, reply_to: str | None = None, sender: Sink | None = None
    ) -> Any:
        """Decide ``msg`` from ``seat``, commit its events, keep the new value, send the
        frames. Returns the decision's reply; raises CommandError when refused."""
        if self.on_command is None:
            return await self._command(seat, msg, reply_to, sender)
        source = _source(seat, msg)
        try:
            reply = await self._command(seat, msg, reply_to, sender)
        except CommandError:
            self.on_command(source, "refused")
            raise
        self.on_command(source, "ok")
        return reply

    async def _command(self, seat: int, msg: Any, reply_to: str | None, sender: Sink | None) -> Any:
        if self.paused:
            raise CommandError("store_unavailable", STORE_UNAVAILABLE)
        decision = decide(self.value, seat, msg, self.entropy, self.turns.hold())
        if isinstance(decision, CommandError):
            raise decision
        await self._commit(decision)
        self.adopt(decision.after, decision.events)
        self.fanout.update(decision.before.seq, decision.events, reply_to, sender)
        return decision.reply

    async def _commit(self, decision: Decision) -> None:
        """Write the decision's events and rows; on failure pause and refuse the command."""
        snap = None
        for ev, before in zip(decision.events, (decision.before, *decision.states), strict=False):
            if isinstance(ev.body, GameStarted):  # startup reads the room from here on
                snap = (ev.seq - 1, snapshot_json(before))
        batch = project(self.id, decision.events, decision.states, decision.seeds, snap)
        if not batch:
            return
        if not self.secret_stored:
            batch.secret = self.secret
        batch.epoch = self.epoch
        try:
            await within(self.store.write(batch), self.settings.store_timeout)
        except Fenced:
            # Another node holds the room now: this one stops and its connections follow it.
            if self.on_fenced is not None:
                self.on_fenced(self)
            raise CommandError("moved", "the room moved to another server: try again") from None
        except Exception as err:
            self.pause.start(err)
            raise CommandError("store_unavailable", STORE_UNAVAILABLE) from None
        self.secret_stored = True
        self.ratings.update(batch.rated)

    def deadline_armed(self, seq: int, seat: int, deadline: float) -> None:
        """A turn timer was armed (:class:`Turns`): the cluster keeps it for the room's next
        owner (``on_deadline``)."""
        if self.on_deadline is not None:
            self.on_deadline(self, seq, seat, deadline)

    def adopt(self, value: RoomState, events: tuple[Event, ...]) -> None:
        """Keep a committed value: history, records, presence and connections follow it."""
        self.value = value
        reseated = False
        for ev in events:
            self.fanout.remember(ev)
            match ev.body:
                case SeatJoined(seat=seat, seat_kind=kind):
                    self.presence.append(Here())
                    if kind == "human":  # a seat nobody connects to goes away in time
                        self.turns.start_grace(seat)
                case SeatRemoved(seat=seat, by=by):
                    self.seating.drop_seat(seat, by)
                    reseated = True
                case SeatLeft(seat=seat, by=by):
                    self.seating.disconnect_seat(seat, by)
                case GameOver(game_no=game_no):
                    self._keep_record(game_no, value)
                case Action(seat=seat, auto=True):
                    if seat < len(self.presence) and self.presence[seat].away:
                        self.presence[seat].away_moves += 1
        if reseated:
            self.turns.restart_graces()
        self.turns.schedule()
        if value.revealing and self.turns.all_ready():  # (a player it waited for left)
            self.post(self.turns.check_reveal)

    def _keep_record(self, game_no: int, value: RoomState) -> None:
        self.records[game_no] = value.record()
        while len(self.records) > RECORDS_KEPT:
            self.records.popitem(last=False)

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
                    self.fanout.push(sink, pong(self.seq, reply_to))
                case ResyncMsg(last_seq=last_seq):
                    self.fanout.catch_up(sink, last_seq, reply_to)
                case ContinueMsg():
                    await self._continue(sink, reply_to)
                case WaitMsg():
                    self._wait(sink, reply_to)
                case _:
                    await self.command(sink.seat, msg, reply_to, sink)
        except CommandError as err:
            self.fanout.push(sink, error_frame(err.code, err.message, reply_to))

    async def _continue(self, sink: Sink, reply_to: str | None) -> None:
        """A player is done looking at the reveal: the next round starts once every player
        the reveal waits for is (the others see who is ready)."""
        r = self.value.reveal
        if sink.seat < 0 or r is None or not self.value.revealing:
            self.fanout.push(sink, pong(self.seq, reply_to))
        elif self.turns.continue_(sink.seat):
            await self.command(-1, EndReveal(r.game_no, r.round, "continue"), reply_to, sink)
        else:
            ready = {"kind": "reveal_ready", "seat": sink.seat}
            self.fanout.update(self.seq, (), reply_to, sink, ephemeral=(ready,))

    def _wait(self, sink: Sink, reply_to: str | None) -> None:
        """A player asks the table to wait before the next round (everyone sees who)."""
        held = {"kind": "reveal_wait", "seat": sink.seat, "until": self.turns.wait(sink.seat)}
        self.fanout.update(self.seq, (), reply_to, sink, ephemeral=(held,))

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
        self,
        sink: Sink,
        last_seq: int | None,
        client_seed: str | None,
        reply_to: str | None,
        greet: bool = True,
    ) -> None:
        """A connection said hello: welcome it, catch it up, mark its seat present
        (``greet=False``: a connection that moves here from another owner in a cluster, already
        welcomed: it is only caught up)."""
        self.fanout.sinks.add(sink)
        if greet:
            self.fanout.push(sink, welcome(self.value, sink.seat, reply_to))
        self.fanout.catch_up(sink, last_seq)
        if self.paused:
            self.fanout.push(sink, error_frame("store_unavailable", STORE_UNAVAILABLE))
        if sink.seat >= 0:
            await self.seating.arrived(sink, client_seed)

    async def disconnect(self, sink: Sink) -> None:
        """A connection closed; after the grace period a bot plays its seat."""
        await self.seating.disconnect(sink)

    def set_away(self, seat: int, away: bool, note: str) -> None:
        self.seating.set_away(seat, away, note)

    # ------------------------------------------------------------------ idleness
    def idle_for(self, now: float) -> float | None:
        """How long the room has had no connection and no command (None: it is in use)."""
        if self.fanout.sinks or self.paused or self.closed or not self._queue.empty():
            return None
        return now - self.last_active

    async def close(self, ttl: float) -> bool:
        """Close the room if it has been idle for ``ttl`` seconds: a ``room_closed`` event
        (the room is not loaded at startup any more). True when it was closed."""
        if self.closed:
            return True
        if self.fanout.sinks or self.paused or not self._queue.empty():
            return False
        if asyncio.get_running_loop().time() - self._prev_active < ttl:
            return False
        await self.command(-1, CloseRoom())
        return True


__all__ = ["CLOSE_REMOVED", "RECORDS_KEPT", "Room", "Sink", "within"]
