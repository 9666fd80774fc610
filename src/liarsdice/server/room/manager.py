"""Every room of the server: rebuilt from the store at startup, created on demand, and closed
and unloaded when idle."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from typing import Any

from liarsdice.server.config import Settings
from liarsdice.server.protocol import CreateRoomBody
from liarsdice.server.room.actor import Room
from liarsdice.server.room.commands import CreateRoom
from liarsdice.server.room.events import fold
from liarsdice.server.room.state import Event, RoomState, from_snapshot, snapshot_json
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
        if stored.snapshot is None and ev.kind == "game_started":
            missing = (value.seq, snapshot_json(value))
        value = fold(value, ev)
    return value, events, missing


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
        snapshots = []
        for stored in await self.store.load():
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
                    self.rooms.pop(room.id, None)
                    await room.stop()

    async def record(self, room_id: str, game_no: int) -> dict[str, Any] | None:
        """A finished game's JSON record (with its ``fair`` keys): the latest few from the
        room's memory, any other from the store."""
        room = self.rooms.get(room_id)
        if room is not None and game_no in room.records:
            return room.records[game_no]
        return await self.store.record(room_id, game_no)

    def _restore(self, stored: StoredRoom) -> tuple[int, Any] | None:
        room = Room(stored.room_id, self.settings, self.store, self.ratings)
        value, events, missing = replay(stored)
        room.restore(value, events[-64:])
        if stored.secret is not None:
            room.secret, room.secret_stored = stored.secret, True
        room.start()
        self.rooms[room.id] = room
        for s in room.seats:
            if s.kind == "human":
                room.turns.start_grace(s.index)
        room.post(_schedule, room)
        return missing

    async def create(
        self, body: CreateRoomBody, player: str | None = None
    ) -> tuple[Room, int, str]:
        """A new room with its creator at seat 0 (``player``: the creator's rated identity)."""
        room_id = secrets.token_urlsafe(9)
        room = Room(room_id, self.settings, self.store, self.ratings)
        room.start()
        self.rooms[room_id] = room
        try:
            seat, token = await room.submit(lambda: room.command(-1, CreateRoom(body, player)))
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


async def _schedule(room: Room) -> None:
    """A restored room's first command: arm its bot or turn timer."""
    room.turns.schedule()


__all__ = ["RoomManager", "replay"]
