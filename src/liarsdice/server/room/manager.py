"""Every room of the server: rebuilt from the store at startup, created on demand, and closed
and unloaded when idle."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from liarsdice.server.config import Settings
from liarsdice.server.protocol import CreateRoomBody
from liarsdice.server.room.actor import Room
from liarsdice.server.room.commands import CreateRoom
from liarsdice.server.room.events import fold
from liarsdice.server.room.state import Event, RoomState, from_snapshot, snapshot_json
from liarsdice.server.room_events import GameStarted
from liarsdice.server.store import Batch, Store, StoredRoom

log = logging.getLogger("liarsdice.server")


def replay(stored: StoredRoom) -> tuple[RoomState, list[Event], tuple[int, Any] | None]:
    """A stored room's value: its snapshot (if any) with the events after it folded in; those
    events (the room's recent history); and, for a room without a snapshot (from before
    snapshots existed), the one its log implies (the value before its latest game started),
    for the caller to store so that the next startup reads from there."""
    if stored.snapshot is not None:
        value = from_snapshot(stored.room_id, stored.snapshot[1])
    else:
        value = RoomState(room_id=stored.room_id)
    value = value.with_seeds(stored.seeds)
    events = [Event(seq, kind, data) for seq, kind, data in stored.events if seq > value.seq]
    missing: tuple[int, Any] | None = None
    for ev in events:
        if stored.snapshot is None and ev.kind == GameStarted.KIND:
            missing = (value.seq, snapshot_json(value))
        value = fold(value, ev)
    return value, events, missing


class Hooks(Protocol):
    """What a cluster's node does around a room's life (:mod:`liarsdice.server.cluster`)."""

    async def lease_new(self, room_id: str) -> int:
        """Take a new room's lease; its epoch."""

    def adopted(self, room: Room) -> None:
        """A room this node now runs (created or loaded)."""

    async def released(self, room: Room) -> None:
        """A room this node stopped running (unloaded)."""


class RoomManager:
    """Every room of the server, rebuilt from the store at startup.

    ``rooms``: the loaded rooms. ``broken``: room id -> reason, the rooms whose log could not
    be replayed at startup (quarantined: logged, not loaded, listed for the operator; every
    other room starts). Rooms idle for ``Settings.room_ttl`` (no connection, no command) are
    closed and unloaded by a sweeper task; their finished games' records stay available
    through :meth:`record`.
    """

    def __init__(self, settings: Settings, store: Store, hooks: Hooks | None = None) -> None:
        self.settings = settings
        self.store = store
        # In a cluster (liarsdice.server.cluster): a node loads no room at startup, takes a
        # room's lease before it creates or loads it, and gives it up when it unloads it.
        self.hooks = hooks
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        # shown ratings by ``rating_key(family, player)``, shared by every room
        self.ratings: dict[str, int] = {}
        self.on_command: Callable[[str, str], None] | None = None  # each room's (metrics)
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        snapshots = []
        loaded = [] if self.hooks is not None else await self.store.load()
        for stored in loaded:
            try:
                missing = self._restore(stored)
            except Exception as err:
                reason = f"{type(err).__name__}: {err}"
                log.exception("room %s: its log does not replay; quarantined", stored.room_id)
                self.broken[stored.room_id] = reason
                continue
            if missing is not None:
                snapshots.append(Batch(stored.room_id, snapshot=missing))
        for batch in snapshots:  # rooms from before snapshots: the next start reads less
            await self.store.write(batch)
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
                    await self.unload(room)

    async def record(self, room_id: str, game_no: int) -> dict[str, Any] | None:
        """A finished game's JSON record (with its ``fair`` keys): the latest few from the
        room's memory, any other from the store."""
        room = self.rooms.get(room_id)
        if room is not None and game_no in room.records:
            return room.records[game_no]
        return await self.store.record(room_id, game_no)

    async def unload(self, room: Room) -> None:
        """Stop a room and forget it (its lease goes back in a cluster)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        await room.stop()
        if self.hooks is not None:
            await self.hooks.released(room)

    def _restore(self, stored: StoredRoom, epoch: int | None = None) -> tuple[int, Any] | None:
        room = Room(stored.room_id, self.settings, self.store, self.ratings, epoch=epoch)
        room.on_command = self.on_command
        value, events, missing = replay(stored)
        if value.status == "closed" and epoch is not None:
            raise LookupError(f"room {stored.room_id} is closed")
        room.restore(value, events[-64:])
        if stored.secret is not None:
            room.secret, room.secret_stored = stored.secret, True
        room.start()
        self.rooms[room.id] = room
        for s in room.seats:
            if s.kind == "human":
                room.turns.start_grace(s.index)
        room.post(_schedule, room)
        if self.hooks is not None:
            self.hooks.adopted(room)
        return missing

    async def load(self, room_id: str, epoch: int) -> Room | None:
        """Load one room from the store under the lease ``epoch`` (a cluster's node taking a
        room over); None when there is no such room or it is closed."""
        stored = await self.store.load_room(room_id)
        if stored is None:
            return None
        try:
            missing = self._restore(stored, epoch)
        except LookupError:
            return None
        if missing is not None:
            await self.store.write(Batch(room_id, snapshot=missing, epoch=epoch))
        seated = sorted({s.player for s in self.rooms[room_id].seats if s.player})
        self.ratings.update(await self.store.ratings_of(seated))
        return self.rooms[room_id]

    async def create(
        self, body: CreateRoomBody, player: str | None = None
    ) -> tuple[Room, int, str]:
        """A new room with its creator at seat 0 (``player``: the creator's rated identity)."""
        room_id = secrets.token_urlsafe(9)
        epoch = None if self.hooks is None else await self.hooks.lease_new(room_id)
        room = Room(room_id, self.settings, self.store, self.ratings, epoch=epoch)
        room.on_command = self.on_command
        room.start()
        if self.hooks is not None:
            self.hooks.adopted(room)
        self.rooms[room_id] = room
        try:
            seat, token = await room.submit(lambda: room.command(-1, CreateRoom(body, player)))
        except Exception:
            await self.unload(room)
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


async def _schedule(room: Room) -> None:
    """A restored room's first command: arm its bot or turn timer."""
    room.turns.schedule()


__all__ = ["Hooks", "RoomManager", "replay"]
