"""Rooms: seats in join order, bots, timers, and one owner task per room.

Every change to a room is a *command* run by the room's owner task, one at a time, in the order
they arrive. A command checks its message against the rules core, turns it into events, folds
each event into the room (:meth:`Room.fold`, the same code that rebuilds rooms from the log at
startup), writes the events to the store in one transaction and only then sends the resulting
frames (through :func:`liarsdice.server.views.render`) to every connection.

When the write fails (or takes longer than ``Settings.store_timeout``) the command is rolled
back: the room's state is restored from the checkpoint taken when the command began, nothing is
sent but the ``store_unavailable`` error, and the room *pauses* (it refuses commands, its bots
and timers stop) until a probe write succeeds; then it folds whatever the log holds beyond its
memory (a write whose outcome was unknown may have been committed after all) and resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import hashlib
import hmac
import html
import json
import logging
import random
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import family_of, family_of_game
from liarsdice.server import fair
from liarsdice.server.config import Settings
from liarsdice.server.names import ReservedName, confusable_with, normalize_name
from liarsdice.server.protocol import (
    ActionMsg,
    AddBotMsg,
    ChatMsg,
    ClientSeedMsg,
    CreateRoomBody,
    ResyncMsg,
    SeatMsg,
    SettingsMsg,
)
from liarsdice.server.ratings import Standing
from liarsdice.server.store import CLOSED, Batch, Store, StoredRoom, bot_player
from liarsdice.server.views import (
    ErrorFrame,
    Frame,
    Pong,
    Snapshot,
    Update,
    Welcome,
    render,
    seat_view,
)

log = logging.getLogger("liarsdice.server")
_T = TypeVar("_T")

MAX_SEATS = 12
RESYNC_WINDOW = 64  # a resync at most this many events back gets them; further, a snapshot
HISTORY = RESYNC_WINDOW  # events kept in memory per room for resync by seq
CHAT_KEEP = 50
STORE_UNAVAILABLE = "the database is not answering: the room is paused and resumes by itself"
CLOSE_REMOVED = 4410  # the seat was removed (by the host, or its player left)

AnyGame = Any  # a game of any rule family (liarsdice.families)
AnyState = Any  # a state of any rule family


class CommandError(Exception):
    """A refused command: ``code`` and ``message`` go to the client in an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class LoggedEvent:
    """One event of a room's log, as stored: ``seq`` counts from 1 in each room."""

    seq: int
    kind: str
    data: dict[str, Any]


@dataclass
class SeatInfo:
    index: int
    name: str
    kind: str  # "human" | "bot"
    level: str | None
    token_hash: str | None
    client_seed: str
    connections: int = 0
    away: bool = False
    epoch: int = 0  # bumped on every disconnect, for the grace timer
    timeouts: int = 0  # turn timers run out in a row (reset by any message of the seat)
    left: bool = False  # the player left (or was removed) during a game: a bot plays it
    player: str | None = None  # the rated identity (a guest's player id, or a bot level's)


@dataclass
class FairRound:
    game_no: int
    round: int
    idx: int
    commitment: str
    client_seeds: tuple[str, ...]
    stream: fair.DiceStream


@dataclass
class _Checkpoint:
    """What a command may change in a room, taken when it begins (see :meth:`Room._rollback`)."""

    seq: int
    preset: str
    family: str
    options: dict[str, Any]
    turn_timer: float | None
    status: str
    game_no: int
    game: AnyGame | None
    state: AnyState | None
    bots: dict[int, Any]
    next_idx: int
    fair_round: FairRound | None
    fair_info: dict[int, dict[str, Any]]
    records: dict[int, dict[str, Any]]
    seeds: dict[int, str]
    seats: list[SeatInfo]
    host: int
    wins: dict[str, int]
    ranking: list[int] | None
    out_order: list[int]
    history: list[tuple[int, str, str]]
    chat: list[LoggedEvent]
    action_ids: dict[tuple[int, str], tuple[int, int]]


class Sink(Protocol):
    """Where a connection's frames go (a WebSocket writer, or a test's list)."""

    seat: int

    def push(self, frame: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection (after the frames already pushed)."""


async def within(aw: Awaitable[_T], seconds: float) -> _T:
    """``await aw``, giving up after ``seconds`` (TimeoutError) *without cancelling it*.

    A write the room stops waiting for must still reach the store's queue and finish there
    (the probe relies on it), and giving up must not cancel the room's own owner task:
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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def build_game(preset: str, options: dict[str, Any], names: list[str], opener: int | None) -> Any:
    """A game of ``preset`` with the room's options (JSON values) and these seats."""
    family = family_of(preset)
    return family.new_game(family.rules(preset, options, len(names)), names, opener)


class Room:
    """One room: seats, the current game, its log and its connections."""

    def __init__(self, room_id: str, settings: Settings, store: Store) -> None:
        self.id = room_id
        self.settings = settings
        self.store = store
        self.preset = "classic"
        self.family = "bidding"
        self.options: dict[str, Any] = {}
        self.turn_timer: float | None = None
        self.private = False  # by link only: not in the public room list
        self.host = 0  # the host's seat
        self.wins: dict[str, int] = {}  # games won in this room, by seat name
        self.ratings: dict[str, int] = {}  # display ratings by player (shared by the manager)
        self.ranking: list[int] | None = None  # the last game's seats, winner first
        self._out_order: list[int] = []  # this game's seats in the order they went out
        self.status = "lobby"
        self.game_no = 0
        self.seq = 0
        self.seats: list[SeatInfo] = []
        self.game: AnyGame | None = None
        self.state: AnyState | None = None
        self.seeds: dict[int, str] = {}
        self.next_idx = 0
        self.fair_round: FairRound | None = None
        self.fair_info: dict[int, dict[str, Any]] = {}  # this game's rounds
        self.records: dict[int, dict[str, Any]] = {}
        # The last HISTORY events, for resync by seq, as (seq, kind, data as JSON) tuples: the
        # garbage collector stops tracking a tuple of strings and numbers, so the events kept
        # (200 000 for 100 rooms) add nothing to the pauses of a busy server's collections.
        self.history: deque[tuple[int, str, str]] = deque(maxlen=HISTORY)
        self.chat: deque[LoggedEvent] = deque(maxlen=CHAT_KEEP)
        self.sinks: set[Sink] = set()
        self.bots: dict[int, Any] = {}
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False  # stop() cancels the owner task: that cancellation is meant
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[Any, int, bool] | None = None  # (state, seat, bot) of _timer
        self.deadline: tuple[int, float] | None = None  # (seat, wall-clock time) of a turn
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._batch: Batch | None = None
        self._new: list[LoggedEvent] = []
        self._cp: _Checkpoint | None = None
        # action message ids of this game: (seat, id) -> (seq, action) (idempotent actions)
        self.action_ids: dict[tuple[int, str], tuple[int, int]] = {}
        # The bots' random numbers are keyed by this secret (room_secrets; never sent).
        self.secret = secrets.token_hex(32)
        self._secret_stored = False
        self.paused = False  # the store failed: commands are refused until a probe succeeds
        self._probe: asyncio.TimerHandle | None = None
        self.closed = False  # unloaded for idleness
        self.last_active = 0.0  # loop time of the last command
        self._prev_active = 0.0  # ... and of the one before (for close, itself a command)
        self._snap_key: tuple[Any, ...] = ()
        self._snaps: dict[int, dict[str, Any]] = {}

    # ------------------------------------------------------------------ owner task
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.last_active = loop.time()
        self._task = loop.create_task(self._run(), name=f"room-{self.id}")

    async def stop(self) -> None:
        self._stopping = True
        self._cancel_timer()
        if self._probe is not None:
            self._probe.cancel()
        for h in self._grace.values():
            h.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        """The owner task: one command at a time, in order; a failed command never ends it."""
        while True:
            fut: asyncio.Future[Any] | None = None
            try:
                fn, fut = await self._queue.get()
                self._prev_active, self.last_active = (
                    self.last_active,
                    asyncio.get_running_loop().time(),
                )
                result = await fn()
            except asyncio.CancelledError:
                if self._stopping:
                    raise
                # A cancellation nobody asked for (the room is not stopping): the command, if
                # any, failed; the owner task goes on. (Without this one stray cancel would end
                # the task and leave every later command of the room waiting forever.)
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
                log.error("room %s: a command was cancelled; the room goes on", self.id)
                self._failed(fut, CommandError("internal", "the command was interrupted"))
                continue
            except Exception as err:  # the command failed; the room goes on
                if not isinstance(err, CommandError):
                    log.exception("room %s: command failed", self.id)
                self._failed(fut, err)
                continue
            if not fut.done():
                fut.set_result(result)

    def _failed(self, fut: asyncio.Future[Any] | None, err: Exception) -> None:
        """A command failed: tell its sender, undo what it folded."""
        if fut is not None and not fut.done():
            fut.set_exception(err)
        if self._cp is not None:  # failed halfway: undo what it folded
            self._rollback(self._cp)
        self._batch, self._new, self._cp = None, [], None

    async def submit(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` as the room's next command and return its result."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((fn, fut))
        return await fut

    def post(self, fn: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``fn`` without waiting for it (timers)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)
        self._queue.put_nowait((fn, fut))

    # ------------------------------------------------------------------ fold (the log)
    @property
    def next_commitment(self) -> str | None:
        seed = self.seeds.get(self.next_idx)
        return None if seed is None else fair.commitment(seed)

    def fold(self, ev: LoggedEvent) -> None:
        """Apply one logged event to the room: the only way a room ever changes state."""
        d = ev.data
        k = ev.kind
        self.seq = ev.seq
        self.history.append((ev.seq, ev.kind, json.dumps(ev.data, separators=(",", ":"))))
        if k == "room_created":
            self.preset = d["preset"]
            self.family = family_of(d["preset"]).name
            self.options = dict(d["options"])
            self.turn_timer = d.get("turn_timer")
            self.private = bool(d.get("private", False))
            self.next_idx = d["seed_idx"]
        elif k == "seat_joined":
            level: str | None = d.get("level")
            self.seats.append(
                SeatInfo(
                    d["seat"],
                    d["name"],
                    d["kind"],
                    level,
                    d.get("token_hash"),
                    d["client_seed"],
                    player=bot_player(level) if d["kind"] == "bot" and level else d.get("player"),
                )
            )
        elif k == "client_seed":
            self.seats[d["seat"]].client_seed = d["seed"]
        elif k == "seat_removed":
            gone = d["seat"]
            del self.seats[gone]
            for later in self.seats[gone:]:
                later.index -= 1
            if self.host > gone:
                self.host -= 1
        elif k == "seat_left":  # the seat's token stops working; a bot plays it to the end
            leaver = self.seats[d["seat"]]
            leaver.left, leaver.token_hash = True, None
        elif k == "host_changed":
            self.host = d["seat"]
        elif k == "settings":
            self.turn_timer = d.get("turn_timer")
        elif k == "fair_round":
            seed = self.seeds[d["idx"]]
            self.fair_round = FairRound(
                d["game_no"],
                d["round"],
                d["idx"],
                d["commitment"],
                tuple(d["client_seeds"]),
                fair.DiceStream(seed, d["client_seeds"]),
            )
            if d["round"] == 0:
                self.fair_info = {}
            self.fair_info[d["round"]] = {
                "scheme": fair.SCHEME,
                "commitment": d["commitment"],
                "client_seeds": dict(zip(self._names(), d["client_seeds"], strict=True)),
            }
            self.next_idx = d["next_idx"]
        elif k == "game_started":
            self.game = build_game(self.preset, self.options, d["players"], d.get("opener"))
            self.game_no = d["game_no"]
            self.status = "playing"
            self.bots = {}
            self.action_ids = {}
            if d.get("opener_draw"):
                assert self.fair_round is not None
                drawn = self.fair_round.stream.draw(len(d["players"]))
                if drawn != d["opener"]:
                    raise RuntimeError(f"room {self.id}: the log's opener draw does not replay")
                self.fair_info[0]["opener_draw"] = True
            self.state = self.game.new_initial_state()
            self._out_order = []
        elif k == "chance":
            st = self._state()
            outcomes = st.chance_outcomes()
            if self.fair_round is not None:
                i = self.fair_round.stream.draw(len(outcomes))
                if outcomes[i][0] != d["value"]:
                    raise RuntimeError(f"room {self.id}: the log's dice do not replay at {ev.seq}")
            self.state = st.apply_event(-1, d["value"])
        elif k == "action":
            st = self._state()
            before = st.active_players()
            self.state = st.apply_event(d["seat"], d["action"])
            after = self.state.active_players()
            if len(after) < len(before):  # for the final ranking (any family)
                self._out_order += [p for p in before if p not in after]
            if "id" in d:
                self.action_ids[(d["seat"], d["id"])] = (ev.seq, d["action"])
        elif k == "fair_reveal":
            info = self.fair_info[d["round"]]
            info["server_seed"] = d["server_seed"]
            self.fair_round = None
        elif k == "game_over":
            self.status = "finished"
            self.records[d["game_no"]] = self._record()
            winner = d.get("winner")
            names = list(self._state().game.names)
            if winner is not None:
                self.wins[names[winner]] = self.wins.get(names[winner], 0) + 1
            rest = [p for p in self._state().active_players() if p != winner]
            first = [] if winner is None else [winner]
            self.ranking = first + rest + self._out_order[::-1]
        elif k == "chat":
            self.chat.append(ev)
        elif k == "room_closed":
            self.status = "closed"
            self.closed = True

    def _catch_up(self, last_seq: int | None, reply_to: str | None = None) -> Update | Snapshot:
        """What a client at ``last_seq`` needs: the missing events when they are few (at most
        :data:`RESYNC_WINDOW`) and all remembered, else a snapshot (bounded, and cached)."""
        if last_seq is not None and 0 <= self.seq - last_seq <= RESYNC_WINDOW:
            missing = self._since(last_seq)
            if last_seq == self.seq or (missing and missing[0].seq == last_seq + 1):
                return Update(last_seq, tuple(missing), reply_to=reply_to)
        return Snapshot(reply_to=reply_to)

    def _since(self, last_seq: int) -> list[LoggedEvent]:
        """The remembered events after ``last_seq``, in order."""
        return [
            LoggedEvent(seq, kind, json.loads(data))
            for seq, kind, data in self.history
            if seq > last_seq
        ]

    def _names(self) -> list[str]:
        if self.game is not None and self.status == "playing":
            return list(self.game.names)
        return [s.name for s in self.seats]

    def _state(self) -> AnyState:
        if self.state is None:
            raise CommandError("bad_state", "no game is in progress")
        return self.state

    def _record(self) -> dict[str, Any]:
        """The JSON record of the current game, with each revealed round's ``fair`` key."""
        state = self._state()
        rec = family_of_game(state.game).record_from_state(state)
        for r, rnd in enumerate(rec["rounds"]):
            info = self.fair_info.get(r)
            if info is not None and "server_seed" in info:
                rnd["fair"] = dict(info)
        return rec

    # ---------------------------------------------------------------- emitting events
    def _emit(self, kind: str, data: dict[str, Any]) -> LoggedEvent:
        assert self._batch is not None, "events are emitted inside a command"
        ev = LoggedEvent(self.seq + 1, kind, data)
        self.fold(ev)
        self._batch.events.append((ev.seq, kind, data))
        self._new.append(ev)
        return ev

    def _begin(self) -> int:
        if self.closed:
            raise CommandError("no_room", "the room was closed")
        if self.paused:
            raise CommandError("store_unavailable", STORE_UNAVAILABLE)
        self._batch = Batch(self.id)
        self._new = []
        self._cp = self._checkpoint()
        return self.seq

    def _checkpoint(self) -> _Checkpoint:
        return _Checkpoint(
            seq=self.seq,
            preset=self.preset,
            family=self.family,
            options=self.options,
            turn_timer=self.turn_timer,
            status=self.status,
            game_no=self.game_no,
            game=self.game,
            state=self.state,  # states are immutable
            bots=self.bots,
            next_idx=self.next_idx,
            fair_round=copy.deepcopy(self.fair_round),  # its stream moves as dice are drawn
            fair_info=copy.deepcopy(self.fair_info),
            records=dict(self.records),
            seeds=dict(self.seeds),
            seats=[replace(s) for s in self.seats],
            host=self.host,
            wins=dict(self.wins),
            ranking=self.ranking,
            out_order=list(self._out_order),
            history=list(self.history),
            chat=list(self.chat),
            action_ids=self.action_ids,
        )

    def _rollback(self, cp: _Checkpoint) -> None:
        """Undo a command whose events were folded but not committed."""
        self.seq = cp.seq
        self.preset, self.family, self.options = cp.preset, cp.family, cp.options
        self.turn_timer, self.status, self.game_no = cp.turn_timer, cp.status, cp.game_no
        self.game, self.state, self.bots = cp.game, cp.state, cp.bots
        self.next_idx, self.fair_round, self.fair_info = cp.next_idx, cp.fair_round, cp.fair_info
        self.records, self.seeds = cp.records, cp.seeds
        live = {s.index: s for s in self.seats}
        self.seats = cp.seats
        for info in self.seats:  # connections are not part of the log: keep them current
            now = live.get(info.index)
            if now is not None:
                info.connections, info.away, info.epoch = now.connections, now.away, now.epoch
        self.host, self.wins, self.ranking = cp.host, cp.wins, cp.ranking
        self._out_order = cp.out_order
        self.history = deque(cp.history, maxlen=HISTORY)
        self.chat = deque(cp.chat, maxlen=CHAT_KEEP)
        self.action_ids = {k: v for k, v in self.action_ids.items() if v[0] <= cp.seq}
        self._snaps, self._snap_key = {}, ()

    def logged_state(self) -> dict[str, Any]:
        """Everything the log determines (not connections): equal after a replay of the log."""
        state = self.state
        return {
            "seq": self.seq,
            "preset": self.preset,
            "options": self.options,
            "turn_timer": self.turn_timer,
            "status": self.status,
            "game_no": self.game_no,
            "seats": [
                (s.index, s.name, s.kind, s.level, s.token_hash, s.client_seed, s.left)
                for s in self.seats
            ],
            "host": self.host,
            "private": self.private,
            "wins": self.wins,
            "ranking": self.ranking,
            "history": None if state is None else list(state.history()),
            "next_idx": self.next_idx,
            "fair_round": None
            if self.fair_round is None
            else (self.fair_round.idx, self.fair_round.round, self.fair_round.stream.draws),
            "fair_info": self.fair_info,
            "records": self.records,
            "seeds": self.seeds,
            "chat": [(e.seq, e.data) for e in self.chat],
            "action_ids": self.action_ids,
        }

    def _standings(self) -> tuple[int, list[Standing]] | None:
        """The finished game's rated seats (places from the ranking, calls from its rounds),
        or None when fewer than two seats have a rated identity."""
        st = self._state()
        game = st.game
        family = family_of_game(game)
        made: dict[str, int] = {}
        won: dict[str, int] = {}
        for result in st.view(-1).results:
            summary = family.summarize_result(game, result)
            caller = summary.get("caller")
            if caller is None:
                continue
            made[caller] = made.get(caller, 0) + 1
            if not summary.get("losses", {}).get(caller):
                won[caller] = won.get(caller, 0) + 1
        names = list(game.names)
        out = []
        for place, seat in enumerate(self.ranking or [], start=1):
            player = self.seats[seat].player if seat < len(self.seats) else None
            if player is not None:
                name = names[seat]
                out.append(Standing(player, place, made.get(name, 0), won.get(name, 0)))
        if len({s.player for s in out}) < 2:
            return None
        return self.game_no, out

    def _new_seed(self) -> int:
        assert self._batch is not None
        idx = max(self.seeds, default=-1) + 1
        seed = fair.new_server_seed()
        self.seeds[idx] = seed
        self._batch.seeds.append((idx, seed, fair.commitment(seed)))
        return idx

    def _fair_round(self, rnd: int) -> None:
        idx = self.next_idx
        nxt = self._new_seed()
        self._emit(
            "fair_round",
            {
                "game_no": self.game_no,
                "round": rnd,
                "idx": idx,
                "commitment": fair.commitment(self.seeds[idx]),
                "client_seeds": [s.client_seed for s in self.seats],
                "next_idx": nxt,
                "next_commitment": fair.commitment(self.seeds[nxt]),
            },
        )

    def _advance(self) -> None:
        """Roll the dice the rules ask for (fair stream), reveal finished rounds, end games."""
        while self.state is not None and self.status == "playing":
            st = self.state
            cur = self.fair_round
            if cur is not None and (st.is_terminal() or st.round != cur.round):
                self._emit(
                    "fair_reveal",
                    {
                        "game_no": self.game_no,
                        "round": cur.round,
                        "idx": cur.idx,
                        "commitment": cur.commitment,
                        "server_seed": self.seeds[cur.idx],
                    },
                )
                continue
            if st.is_terminal():
                self._emit("game_over", {"game_no": self.game_no, "winner": st.winner})
                assert self._batch is not None
                self._batch.game_updates.append(
                    (
                        self.game_no,
                        {
                            "finished_seq": self.seq,
                            "record": json.dumps(self.records[self.game_no]),
                        },
                    )
                )
                self._batch.room_update["status"] = "finished"
                self._batch.standings = self._standings()
                return
            if not st.is_chance_node():
                return
            if cur is None:
                self._fair_round(st.round)
                continue
            outcomes = st.chance_outcomes()
            i = copy.deepcopy(cur.stream).draw(len(outcomes))
            self._emit("chance", {"value": outcomes[i][0]})

    async def _commit(
        self,
        reply_to: str | None = None,
        sender: Sink | None = None,
        *,
        drop: tuple[list[Sink], str] | None = None,
        reseat: list[int] | None = None,
    ) -> None:
        """Write the command's events, then send every connection its update.

        When the write fails the command is rolled back, the room pauses and the command fails
        with ``store_unavailable``: nothing of it reaches a client."""
        batch, new, cp = self._batch, self._new, self._cp
        self._batch, self._new, self._cp = None, [], None
        if batch is not None and batch.reseat:  # seats removed: the projection is rewritten
            batch.seats = [
                {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level}
                for s in self.seats
            ]
        if batch is not None and batch:
            if not self._secret_stored:
                batch.secret = self.secret
            try:
                await within(self.store.write(batch), self.settings.store_timeout)
            except Exception as err:
                if cp is not None:
                    self._rollback(cp)
                self._pause(err)
                raise CommandError("store_unavailable", STORE_UNAVAILABLE) from None
            self._secret_stored = True
            self.ratings.update(batch.rated)
        if drop is not None:  # a removed seat's connections: told why, closed, not updated
            for x in drop[0]:
                self.sinks.discard(x)
                self._send(x, ErrorFrame("removed", drop[1]))
                x.seat = -1
                x.close(CLOSE_REMOVED, "removed from the room")
        for gone in sorted(reseat or (), reverse=True):
            self._reseat_connections(gone)
        self._schedule()  # first: the frames carry the new turn's deadline
        if new or reply_to is not None:
            from_seq = new[0].seq - 1 if new else self.seq
            for sink in list(self.sinks):
                rt = reply_to if sink is sender else None
                self._send(sink, Update(from_seq, tuple(new), reply_to=rt))

    # ------------------------------------------------------------------ store failures
    def _pause(self, err: BaseException) -> None:
        """The store failed: stop the room's bots and timers and probe until it answers."""
        log.warning("room %s: the store failed (%r): paused", self.id, err)
        self._cancel_timer()
        if not self.paused:
            self.paused = True
            for sink in list(self.sinks):
                self._send(sink, ErrorFrame("store_unavailable", STORE_UNAVAILABLE))
        self._arm_probe()

    def _arm_probe(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        self._probe = asyncio.get_running_loop().call_later(
            self.settings.store_retry, self.post, self._probe_store
        )

    async def _probe_store(self) -> None:
        """A paused room's probe: a write, then the log's tail; resume when both work.

        The store writes in queue order, so once the probe's write returns, every write this
        room gave up on has committed or failed, and the log read after it is final."""
        self._probe = None
        if not self.paused or self.closed:
            return
        timeout = self.settings.store_timeout
        try:
            await within(self.store.write(Batch(self.id, touch=True)), timeout)
            stored = await within(self.store.load_room(self.id), timeout)
        except Exception as err:
            log.info("room %s: the store still fails (%r)", self.id, err)
            self._arm_probe()
            return
        from_seq = self.seq
        tail: list[LoggedEvent] = []
        if stored is not None:  # fold what a write of unknown outcome did commit
            self.seeds.update(stored.seeds)
            if stored.secret is not None:
                self.secret, self._secret_stored = stored.secret, True
            for seq, kind, data in stored.events:
                if seq > self.seq:
                    ev = LoggedEvent(seq, kind, data)
                    self.fold(ev)
                    tail.append(ev)
        self.paused = False
        log.warning("room %s: the store answers again: resumed at seq %d", self.id, self.seq)
        note = {"kind": "notice", "code": "store_ok", "note": "the room resumed"}
        for sink in list(self.sinks):
            self._send(sink, Update(from_seq, tuple(tail), ephemeral=(note,)))
        self._schedule()

    # ------------------------------------------------------------------ sending
    def snapshot_frame(self, seat: int, reply_to: str | None = None) -> dict[str, Any]:
        """The ``snapshot`` frame for ``seat`` (-1: a spectator), cached per (seq, recipient)."""
        viewer = seat if 0 <= seat < len(self.seats) else -1
        key = (
            self.seq,
            self.spectators,
            tuple((s.connections > 0, s.away) for s in self.seats),
            self.deadline,
        )
        if key != self._snap_key:
            self._snap_key, self._snaps = key, {}
        out = self._snaps.get(viewer)
        if out is None:
            out = self._snaps[viewer] = render(self, viewer, Snapshot())
        if reply_to is not None:
            out = {**out, "data": {**out["data"], "reply_to": reply_to}}
        return out

    def _send(self, sink: Sink, frame: Frame) -> None:
        if isinstance(frame, Snapshot):
            out = self.snapshot_frame(sink.seat, frame.reply_to)
        else:
            out = render(self, sink.seat, frame)
        if isinstance(frame, (Snapshot, Update)):  # the server's clock, for countdowns
            out = {**out, "data": {**out["data"], "now": round(self.settings.clock(), 3)}}
        hook = self.settings.frame_hook
        if hook is not None:
            hook(self.id, sink.seat, out, self.state)
        sink.push(out)

    def _broadcast_presence(self, seat: SeatInfo, note: str) -> None:
        eph = {
            "kind": "presence",
            "seat": seat.index,
            "connected": seat.connections > 0,
            "away": seat.away,
            "note": note,
        }
        for sink in list(self.sinks):
            self._send(sink, Update(self.seq, ephemeral=(eph,)))

    @property
    def spectators(self) -> int:
        return sum(1 for s in self.sinks if s.seat < 0)

    # ----------------------------------------------------------------- scheduling
    def _controlled_by_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.away or s.left

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_key, self.deadline = None, None, None

    def _schedule(self) -> None:
        """Arm what moves next: a bot's move, or the turn timer of the human to move.

        A timer already armed for this very turn is kept: reconnecting or sending messages
        never restarts a player's countdown."""
        st = self.state
        if (
            self.status != "playing"
            or st is None
            or st.is_terminal()
            or st.current_player < 0
            or self.paused  # bots and timers wait for the store (the probe reschedules)
        ):
            self._cancel_timer()
            return
        p = st.current_player
        bot = self._controlled_by_bot(p)
        old = self._timer_key
        # (states are immutable: the same object is the same turn, whatever chat came between)
        if self._timer is not None and old is not None and old[0] is st and old[1:] == (p, bot):
            return
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        if bot:
            self._timer = loop.call_later(
                self.settings.bot_delay, self.post, lambda: self._bot_move(st)
            )
        elif self.turn_timer:
            self._timer = loop.call_later(
                self.turn_timer, self.post, lambda: self._turn_timeout(p, st)
            )
            self.deadline = (p, self.settings.clock() + self.turn_timer)
        else:
            return
        self._timer_key = (st, p, bot)

    def _bot_for(self, seat: int) -> Any:
        bot = self.bots.get(seat)
        if bot is None:
            from liarsdice.bots import make_bot

            info = self.seats[seat]
            level = info.level if info.kind == "bot" and info.level else None
            # Keyed by the room's secret: public values (room, game, seat, seq) alone would let
            # anyone replay the bot's choices and so learn about its dice.
            key = f"bot/{self.game_no}/{seat}/{self.seq}".encode()
            rng = random.Random(hmac.new(self.secret.encode(), key, hashlib.sha256).digest())
            bot = make_bot(level or self.settings.takeover_level, rng, self.family)
            self.bots[seat] = bot
        return bot

    async def _bot_move(self, turn: AnyState, *, timeout: bool = False) -> None:
        """A bot's move for the seat to move (a bot's seat, an away player's, or a player
        whose turn timer ran out: ``timeout``)."""
        self._timer, self._timer_key = None, None
        st = self.state
        if st is not turn or st is None or st.is_terminal() or self.status != "playing":
            return
        p = st.current_player
        if p < 0 or not (timeout or self._controlled_by_bot(p)):
            return
        game = self.game
        view = seat_view(st, p)
        bot = self._bot_for(p)
        action = await asyncio.to_thread(bot.choose, game, view)
        if st is not self.state:  # pragma: no cover - commands are serialized
            return
        self._begin()
        self._apply_action(p, int(action), auto=True, timeout=timeout)
        await self._commit()

    async def _turn_timeout(self, seat: int, turn: AnyState) -> None:
        """The player to move let the turn timer run out: a bot plays this one move for them.
        Only :attr:`Settings.timeouts_before_away` timeouts in a row mark the seat away (then
        the bot plays every turn until the player sends anything)."""
        self._timer, self._timer_key, self.deadline = None, None, None
        st = self.state
        if st is not turn or st is None or st.current_player != seat:
            return
        info = self.seats[seat]
        if info.kind != "human" or info.away:
            self._schedule()
            return
        info.timeouts += 1
        if info.timeouts >= self.settings.timeouts_before_away:
            info.away = True
            self._broadcast_presence(info, "turn_timer")
            self._schedule()
            return
        await self._bot_move(st, timeout=True)

    async def _grace_over(self, seat: int, epoch: int) -> None:
        info = self.seats[seat]
        if info.epoch != epoch or info.connections > 0 or info.away:
            return
        info.away = True
        self._broadcast_presence(info, "grace_period")
        self._schedule()

    # ------------------------------------------------------------------ commands
    def _apply_action(
        self,
        seat: int,
        action: int,
        *,
        auto: bool = False,
        timeout: bool = False,
        msg_id: str | None = None,
    ) -> None:
        game = self.game
        assert game is not None
        data: dict[str, Any] = {
            "seat": seat,
            "action": action,
            "text": game.action_to_string(action, seat),
        }
        if auto:
            data["auto"] = True
        if timeout:
            data["timeout"] = True  # the player's turn timer ran out: played for them
        if msg_id is not None:  # logged, never sent: repeats of the message are no-ops
            data["id"] = msg_id
        self._emit("action", data)
        self._advance()

    async def create(self, body: CreateRoomBody, player: str | None = None) -> tuple[int, str]:
        """The first command of a room: create it and seat its host. Returns (seat, token)."""
        try:
            family_of(body.preset).rules(body.preset, dict(body.options), 2)
        except (LiarsDiceError, ValueError) as err:
            raise CommandError("bad_rules", str(err)) from None
        self._begin()
        assert self._batch is not None
        idx = self._new_seed()
        self._batch.new_room = {
            "preset": body.preset.lower(),
            "options": dict(body.options),
            "status": "lobby",
            "game_no": 0,
            "seq": 0,
        }
        self._emit(
            "room_created",
            {
                "preset": body.preset.lower(),
                "options": dict(body.options),
                "turn_timer": body.turn_timer,
                "seed_idx": idx,
                **({"private": True} if body.private else {}),
            },
        )
        seat, token = self._seat_human(body.name, body.client_seed, player)
        await self._commit()
        return seat, token

    def _seat_human(
        self, name: str, client_seed: str | None, player: str | None = None
    ) -> tuple[int, str]:
        if self.status == "playing":
            raise CommandError("bad_state", "the game has started: watch as a spectator")
        if len(self.seats) >= MAX_SEATS:
            raise CommandError("room_full", f"the room is full ({MAX_SEATS} seats)")
        try:  # the room applies the name rules itself, whoever calls it
            name = normalize_name(name)
        except ReservedName as err:
            raise CommandError("name_reserved", str(err)) from None
        except ValueError as err:
            raise CommandError("invalid", f"name: {err}") from None
        other = confusable_with(name, [s.name for s in self.seats])
        if other is not None:
            raise CommandError(
                "name_taken",
                f"the name {name!r} is or looks like {other!r}, already seated in this room",
            )
        token = secrets.token_urlsafe(24)
        seat = len(self.seats)
        self._emit(
            "seat_joined",
            {
                "seat": seat,
                "name": name,
                "kind": "human",
                "token_hash": hash_token(token),
                "client_seed": client_seed or fair.new_client_seed(),
                **({"player": player} if player is not None else {}),
            },
        )
        assert self._batch is not None
        self._batch.seats.append({"seat": seat, "name": name, "kind": "human", "level": None})
        return seat, token

    async def join(
        self, name: str, client_seed: str | None, player: str | None = None
    ) -> tuple[int, str]:
        """Take the next free seat (``player``: the guest identity rated for it).
        Returns (seat, token)."""
        self._begin()
        seat, token = self._seat_human(name, client_seed, player)
        await self._commit()
        return seat, token

    def seat_for_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    async def connect(
        self, sink: Sink, last_seq: int | None, client_seed: str | None, reply_to: str | None
    ) -> None:
        """A connection said hello: welcome it, catch it up, mark its seat present."""
        self.sinks.add(sink)
        self._send(sink, Welcome(reply_to=reply_to))
        self._send(sink, self._catch_up(last_seq))
        if self.paused:
            self._send(sink, ErrorFrame("store_unavailable", STORE_UNAVAILABLE))
        if sink.seat >= 0:
            info = self.seats[sink.seat]
            info.connections += 1
            info.epoch += 1
            h = self._grace.pop(sink.seat, None)
            if h is not None:
                h.cancel()
            was_away = info.away
            info.away, info.timeouts = False, 0
            self._broadcast_presence(info, "back" if was_away else "connected")
            if client_seed is not None and client_seed != info.client_seed:
                try:
                    self._begin()
                    self._emit("client_seed", {"seat": sink.seat, "seed": client_seed})
                    await self._commit()
                except CommandError as err:  # the store is failing: the seed is not changed
                    self._send(sink, ErrorFrame(err.code, err.message))
            else:
                self._schedule()

    async def disconnect(self, sink: Sink) -> None:
        """A connection closed; after the grace period a bot plays its seat."""
        self.sinks.discard(sink)
        if sink.seat < 0:
            return
        info = self.seats[sink.seat]
        info.connections = max(0, info.connections - 1)
        if info.connections == 0 and info.kind == "human":
            info.epoch += 1
            self.start_grace(info.index)
            self._broadcast_presence(info, "disconnected")

    def start_grace(self, seat: int) -> None:
        epoch = self.seats[seat].epoch
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.get_running_loop().call_later(
            self.settings.grace_period, self.post, lambda: self._grace_over(seat, epoch)
        )

    async def handle(self, sink: Sink, kind: str, msg: Any) -> None:
        """A validated client message (anything but hello) from ``sink``."""
        reply_to = getattr(msg, "id", None)
        try:
            await self._handle(sink, kind, msg, reply_to)
        except CommandError as err:
            if self._cp is not None:
                self._rollback(self._cp)
            self._batch, self._new, self._cp = None, [], None
            self._send(sink, ErrorFrame(err.code, err.message, reply_to=reply_to))

    def _host(self, sink: Sink) -> None:
        if sink.seat != self.host:
            who = self.seats[self.host].name if 0 <= self.host < len(self.seats) else "nobody"
            raise CommandError("not_host", f"only the host ({who}) may do that")

    async def _handle(self, sink: Sink, kind: str, msg: Any, reply_to: str | None) -> None:
        if sink.seat >= 0:  # any message from a player's own connection: they are here
            info = self.seats[sink.seat]
            info.timeouts = 0
            if info.away:
                info.away = False
                self._broadcast_presence(info, "back")
                self._schedule()  # the seat's player moves again (no bot, their own timer)
        if kind == "ping":
            self._send(sink, Pong(reply_to=reply_to))
            return
        if kind == "back":
            self._schedule()
            self._send(sink, Pong(reply_to=reply_to))
            return
        if kind == "resync":
            assert isinstance(msg, ResyncMsg)
            self._send(sink, self._catch_up(msg.last_seq, reply_to))
            return
        if kind == "action":
            assert isinstance(msg, ActionMsg)
            await self._action(sink, msg, reply_to)
            return
        if kind == "chat":
            assert isinstance(msg, ChatMsg)
            if sink.seat < 0:
                raise CommandError("not_seated", "spectators cannot chat")
            text = "".join(c for c in msg.text if c.isprintable()).strip()
            if not text:
                raise CommandError("invalid", "chat: the message is empty")
            self._begin()
            self._emit(
                "chat",
                {"seat": sink.seat, "name": self.seats[sink.seat].name, "text": html.escape(text)},
            )
            await self._commit(reply_to, sink)
            return
        if kind == "client_seed":
            assert isinstance(msg, ClientSeedMsg)
            if sink.seat < 0:
                raise CommandError("not_seated", "spectators have no client seed")
            self._begin()
            self._emit("client_seed", {"seat": sink.seat, "seed": msg.seed})
            await self._commit(reply_to, sink)
            return
        if kind == "add_bot":
            assert isinstance(msg, AddBotMsg)
            self._host(sink)
            await self._add_bot(msg.level, reply_to, sink)
            return
        if kind == "settings":
            assert isinstance(msg, SettingsMsg)
            self._host(sink)
            if self.status == "playing":
                raise CommandError("bad_state", "change the settings between games")
            self._begin()
            self._emit("settings", {"turn_timer": msg.turn_timer})
            await self._commit(reply_to, sink)
            return
        if kind == "remove_seat":
            assert isinstance(msg, SeatMsg)
            self._host(sink)
            await self._remove(msg.seat, "host", reply_to, sink)
            return
        if kind == "leave":
            if sink.seat < 0:
                raise CommandError("not_seated", "spectators have no seat to leave")
            await self._remove(sink.seat, "self", reply_to, sink)
            return
        if kind == "make_host":
            assert isinstance(msg, SeatMsg)
            self._host(sink)
            self._check_seat(msg.seat)
            target = self.seats[msg.seat]
            if target.kind != "human" or target.left:
                raise CommandError("invalid", f"{target.name} cannot be the host: not a player")
            if msg.seat == self.host:
                raise CommandError("invalid", f"{target.name} is the host already")
            self._begin()
            self._emit("host_changed", {"seat": msg.seat})
            await self._commit(reply_to, sink)
            return
        if kind in ("start", "rematch"):
            self._host(sink)
            if kind == "start" and self.status != "lobby":
                raise CommandError("bad_state", f"the room is {self.status}: use rematch")
            if kind == "rematch" and self.status != "finished":
                raise CommandError("bad_state", "a rematch is offered once the game is over")
            await self._start(reply_to, sink)
            return
        raise CommandError("unknown_type", f"unknown message type {kind!r}")

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            last = len(self.seats) - 1
            raise CommandError("invalid", f"seat: there is no seat {seat} (seats 0..{last})")

    async def _remove(self, seat: int, by: str, reply_to: str | None, sink: Sink) -> None:
        """``remove_seat`` (by the host) or ``leave`` (by the seat's player).

        Between games the seat goes (``seat_removed``: later seats move down one). During a
        game a player's seat is marked left (``seat_left``): a bot plays it to the end and it
        goes when the next game starts. A leaving host hands the role to the next player."""
        self._check_seat(seat)
        info = self.seats[seat]
        if by == "host" and seat == self.host:
            raise CommandError("invalid", "the host leaves with 'leave', not 'remove_seat'")
        playing = self.status == "playing"
        if playing and info.kind == "bot":
            raise CommandError("bad_state", "bots are removed between games")
        if info.left:
            raise CommandError("bad_state", f"{info.name} has left already")
        self._begin()
        if seat == self.host:
            order = [(seat + i) % len(self.seats) for i in range(1, len(self.seats))]
            heirs = [i for i in order if self.seats[i].kind == "human" and not self.seats[i].left]
            if heirs:
                self._emit("host_changed", {"seat": heirs[0]})
        sinks = [x for x in self.sinks if x.seat == seat]
        if playing:
            self._emit("seat_left", {"seat": seat, "by": by})
        else:
            self._emit("seat_removed", {"seat": seat, "name": info.name, "by": by})
            assert self._batch is not None
            self._batch.reseat = True
        reason = "you left the room" if by == "self" else "the host removed you from the room"
        await self._commit(
            reply_to if sink not in sinks else None,
            sink,
            drop=(sinks, reason),
            reseat=[] if playing else [seat],
        )

    def _reseat_connections(self, gone: int) -> None:
        """Seats after ``gone`` moved down one: so do their connections and grace timers."""
        for x in self.sinks:
            if x.seat > gone:
                x.seat -= 1
        for h in self._grace.values():
            h.cancel()
        self._grace = {}
        for info in self.seats:
            if info.kind == "human" and info.connections == 0 and not info.away:
                self.start_grace(info.index)

    async def _add_bot(self, level: str, reply_to: str | None, sink: Sink) -> None:
        from liarsdice import bots

        levels: tuple[str, ...] = getattr(bots, "ALL_BOT_NAMES", bots.BOT_NAMES)
        level = level.strip().lower()
        if level not in levels:
            raise CommandError(
                "invalid", f"unknown bot level {level!r}; levels: {', '.join(levels)}"
            )
        if self.status == "playing":
            raise CommandError("bad_state", "add bots between games")
        if len(self.seats) >= MAX_SEATS:
            raise CommandError("room_full", f"the room is full ({MAX_SEATS} seats)")
        taken = {s.name for s in self.seats}
        n = 1
        while f"{level}-bot-{n}" in taken:
            n += 1
        name = f"{level}-bot-{n}"
        seat = len(self.seats)
        self._begin()
        self._emit(
            "seat_joined",
            {
                "seat": seat,
                "name": name,
                "kind": "bot",
                "level": level,
                "client_seed": fair.new_client_seed(),
            },
        )
        assert self._batch is not None
        self._batch.seats.append({"seat": seat, "name": name, "kind": "bot", "level": level})
        await self._commit(reply_to, sink)

    async def _start(self, reply_to: str | None, sink: Sink) -> None:
        left = [s.index for s in self.seats if s.left]
        if len(self.seats) - len(left) < 2:
            raise CommandError("bad_state", "a game needs at least 2 seats: invite or add a bot")
        self._begin()
        for seat in reversed(left):  # players who left the last game: their seats go now
            self._emit("seat_removed", {"seat": seat, "name": self.seats[seat].name, "by": "left"})
            assert self._batch is not None
            self._batch.reseat = True
        names = [s.name for s in self.seats]
        try:
            game = build_game(self.preset, self.options, names, None)
        except (LiarsDiceError, ValueError) as err:
            raise CommandError("bad_rules", str(err)) from None
        game_no = self.game_no + 1
        assert self._batch is not None
        self.game_no = game_no  # the fair round below belongs to the new game
        data: dict[str, Any] = {"game_no": game_no, "players": names, "opener": None}
        if family_of_game(game).needs_opener_draw(game):
            self._fair_round(0)
            assert self.fair_round is not None
            data["opener"] = copy.deepcopy(self.fair_round.stream).draw(len(names))
            data["opener_draw"] = True
        self._emit("game_started", data)
        self._batch.games.append(
            {
                "game_no": game_no,
                "rules": self.preset,
                "players": _json(names),
                "started_seq": self.seq,
            }
        )
        self._batch.room_update.update(status="playing", game_no=game_no)
        self._advance()
        await self._commit(reply_to, sink, reseat=left)

    async def _action(self, sink: Sink, msg: ActionMsg, reply_to: str | None) -> None:
        if msg.room is not None and msg.room != self.id:
            raise CommandError(
                "wrong_room", f"this connection is in room {self.id}, not {msg.room}"
            )
        if sink.seat < 0:
            raise CommandError("not_seated", "spectators cannot move")
        if msg.id is not None and self._is_repeat(sink.seat, msg):
            # A repeat of an action already applied in this game: acknowledged, not applied.
            self._send(sink, Update(self.seq, (), reply_to=reply_to))
            return
        if self.status != "playing" or self.state is None or self.game is None:
            raise CommandError("bad_state", "no game is in progress")
        st = self.state
        seat = sink.seat
        if (msg.action is None) == (msg.text is None):
            raise CommandError("invalid", "action: give exactly one of 'action' and 'text'")
        if msg.seq is not None and msg.seq != self.seq:
            raise CommandError("stale", f"the room is at seq {self.seq}, not {msg.seq}: resync")
        if seat not in st.active_players():
            raise CommandError("eliminated", f"{self.seats[seat].name} is out of the game")
        if st.current_player != seat:
            p = st.current_player
            who = self.seats[p].name if p >= 0 else "nobody"
            raise CommandError("not_your_turn", f"it is {who}'s turn, not yours")
        try:
            action = (
                msg.action if msg.action is not None else self.game.string_to_action(msg.text or "")
            )
        except (LiarsDiceError, ValueError) as err:
            raise CommandError("illegal_action", str(err)) from None
        if action not in st.legal_actions():
            try:
                why = st.explain_illegal(action)
            except (LiarsDiceError, ValueError) as err:
                why = str(err)
            raise CommandError("illegal_action", why or "that move is not legal now")
        self._begin()
        self._apply_action(seat, action, msg_id=msg.id)
        await self._commit(reply_to, sink)

    def _is_repeat(self, seat: int, msg: ActionMsg) -> bool:
        """Whether ``msg`` repeats an action this seat had applied in this game: the same
        ``id`` and the same move (a reused ``id`` with another move is a new message)."""
        seen = self.action_ids.get((seat, msg.id or ""))
        if seen is None or self.game is None:
            return False
        if msg.action is not None:
            return msg.action == seen[1]
        try:
            return bool(self.game.string_to_action(msg.text or "") == seen[1])
        except (LiarsDiceError, ValueError):
            return False

    def send_error(self, sink: Sink, code: str, message: str, reply_to: str | None = None) -> None:
        self._send(sink, ErrorFrame(code, message, reply_to=reply_to))

    def idle_for(self, now: float) -> float | None:
        """How long the room has had no connection and no command (None: it is in use)."""
        if self.sinks or self.paused or self.closed or not self._queue.empty():
            return None
        return now - self.last_active

    async def close(self, ttl: float) -> bool:
        """Close the room if it has been idle for ``ttl`` seconds: a ``room_closed`` event
        (the room is not loaded at startup any more). True when it was closed."""
        if self.closed:
            return True
        if self.sinks or self.paused or not self._queue.empty():
            return False
        if asyncio.get_running_loop().time() - self._prev_active < ttl:
            return False
        self._begin()
        assert self._batch is not None
        self._emit("room_closed", {"reason": "idle"})
        self._batch.room_update["status"] = CLOSED
        await self._commit()
        return True


def _json(value: Any) -> str:
    return json.dumps(value)


class RoomManager:
    """Every room of the server, rebuilt from the store at startup.

    ``rooms``: the loaded rooms. ``broken``: room id -> reason, the rooms whose log could not
    be replayed at startup (quarantined: logged, not loaded, listed for the operator; every
    other room starts). Rooms idle for ``Settings.room_ttl`` (no connection, no command) are
    closed and unloaded by a sweeper task; their finished games' records stay available
    through :meth:`record`.
    """

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        self.ratings: dict[str, int] = {}  # display ratings by player, shared by every room
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        for stored in await self.store.load():
            try:
                self._restore(stored)
            except Exception as err:
                reason = f"{type(err).__name__}: {err}"
                log.exception("room %s: its log does not replay; quarantined", stored.room_id)
                self.broken[stored.room_id] = reason
        seated = {s.player for r in self.rooms.values() for s in r.seats if s.player}
        self.ratings.update(await self.store.ratings_of(sorted(seated)))
        self._sweeper = asyncio.get_running_loop().create_task(
            self._sweep(), name="liarsdice-room-sweeper"
        )

    async def _sweep(self) -> None:
        """Close and unload the rooms idle for ``room_ttl`` (every ``sweep_interval``)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            for room in list(self.rooms.values()):
                idle = room.idle_for(loop.time())
                if idle is None or idle < self.settings.room_ttl:
                    continue
                try:
                    closed = await room.submit(
                        functools.partial(room.close, self.settings.room_ttl)
                    )
                except Exception as err:
                    log.warning("room %s: not closed (%r)", room.id, err)
                    continue
                if closed:
                    log.info("room %s: idle for %.0f s: unloaded", room.id, idle)
                    self.rooms.pop(room.id, None)
                    await room.stop()

    async def record(self, room_id: str, game_no: int) -> dict[str, Any] | None:
        """A finished game's JSON record (with its ``fair`` keys), from memory for a loaded
        room, else from the store (rooms unloaded for idleness, quarantined rooms)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room.records.get(game_no)
        return await self.store.record(room_id, game_no)

    def _restore(self, stored: StoredRoom) -> None:
        room = Room(stored.room_id, self.settings, self.store)
        room.ratings = self.ratings
        room.seeds = dict(stored.seeds)
        if stored.secret is not None:
            room.secret, room._secret_stored = stored.secret, True
        for seq, kind, data in stored.events:
            if seq != room.seq + 1:
                raise RuntimeError(f"room {room.id}: the log has a gap before seq {seq}")
            room.fold(LoggedEvent(seq, kind, data))
        room.start()
        self.rooms[room.id] = room
        for s in room.seats:
            if s.kind == "human":
                room.start_grace(s.index)
        room.post(_noop_schedule(room))

    async def create(
        self, body: CreateRoomBody, player: str | None = None
    ) -> tuple[Room, int, str]:
        """A new room with its creator at seat 0 (``player``: the creator's rated identity)."""
        room_id = secrets.token_urlsafe(9)
        room = Room(room_id, self.settings, self.store)
        room.ratings = self.ratings
        room.start()
        self.rooms[room_id] = room
        try:
            seat, token = await room.submit(lambda: room.create(body, player))
        except Exception:
            self.rooms.pop(room_id, None)
            await room.stop()
            raise
        return room, seat, token

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for room in list(self.rooms.values()):
            await room.stop()


def _noop_schedule(room: Room) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        room._schedule()

    return run


__all__ = [
    "CommandError",
    "LoggedEvent",
    "Room",
    "RoomManager",
    "SeatInfo",
    "Settings",
    "Sink",
    "build_game",
]
