"""The store's projections, derived from a command's events: the one place that says which
rows (``rooms``, ``seats``, ``games``, ``fair_seeds``, room snapshots) a room's events write.

Commands only make events (:mod:`liarsdice.server.room.commands`); :func:`project` turns them,
with the room's value after each, into the :class:`~liarsdice.server.store.Batch` written in
the events' own transaction, so the projections can never disagree with the log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from liarsdice.server import fair
from liarsdice.server.store import CLOSED, Batch

if TYPE_CHECKING:  # (the room's modules import this one)
    from liarsdice.server.room.state import Event, RoomState, Seat


def _seat_row(s: Seat) -> dict[str, Any]:
    return {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level}


def project(
    room_id: str,
    events: Sequence[Event],
    states: Sequence[RoomState],
    seeds: Mapping[int, str],
    snapshot: Any = None,
) -> Batch:
    """The batch of one command: its events, the rows they imply, its new secret seeds and
    (``snapshot``: a JSON-ready value of the room before a ``game_started``, which startup
    reads instead of the room's whole history) the room's latest snapshot."""
    batch = Batch(room_id)
    batch.events = [(ev.seq, ev.kind, ev.text) for ev in events]  # JSON made once
    batch.seeds = [(idx, seed, fair.commitment(seed)) for idx, seed in seeds.items()]
    for ev, after in zip(events, states, strict=True):
        _ROWS.get(ev.kind, _nothing)(batch, ev, after)
    if batch.reseat:  # seats were removed: the projection is the whole list, rewritten
        batch.seats = [_seat_row(s) for s in states[-1].seats]
    batch.snapshot = snapshot
    return batch


def _nothing(batch: Batch, ev: Event, after: RoomState) -> None:
    return None


def _room_created(batch: Batch, ev: Event, after: RoomState) -> None:
    d = ev.data
    batch.new_room = {
        "preset": d["preset"],
        "options": dict(d["options"]),
        "status": "lobby",
        "game_no": 0,
        "seq": 0,
        "private": bool(d.get("private", False)),
        "tutorial": bool(d.get("tutorial", False)),
    }


def _seat_joined(batch: Batch, ev: Event, after: RoomState) -> None:
    batch.seats.append(_seat_row(after.seats[ev.data["seat"]]))


def _seat_removed(batch: Batch, ev: Event, after: RoomState) -> None:
    batch.reseat = True


def _game_started(batch: Batch, ev: Event, after: RoomState) -> None:
    d = ev.data
    batch.games.append(
        {
            "game_no": d["game_no"],
            "rules": after.preset,
            "players": json.dumps(d["players"]),
            "started_seq": ev.seq,
        }
    )
    batch.room_update.update(status="playing", game_no=d["game_no"])


def _game_over(batch: Batch, ev: Event, after: RoomState) -> None:
    record = json.dumps(after.record())
    batch.game_updates.append((ev.data["game_no"], {"finished_seq": ev.seq, "record": record}))
    batch.room_update["status"] = "finished"
    batch.standings = after.standings()


def _room_closed(batch: Batch, ev: Event, after: RoomState) -> None:
    batch.room_update["status"] = CLOSED


_ROWS = {
    "room_created": _room_created,
    "seat_joined": _seat_joined,
    "seat_removed": _seat_removed,
    "game_started": _game_started,
    "game_over": _game_over,
    "room_closed": _room_closed,
}

__all__ = ["project"]
