"""The store's projections, derived from a command's events: the one place that says which
rows (``rooms``, ``seats``, ``games``, ``fair_seeds``, room snapshots) a room's events write.

Commands only make events (:mod:`liarsdice.server.room.commands`); :func:`project` turns them,
with the room's value after each, into the :class:`~liarsdice.server.store.Batch` written in
the events' own transaction, so the projections can never disagree with the log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, assert_never

from liarsdice.server import fair
from liarsdice.server import room_events as evt
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
        _rows(batch, ev, after)
    if batch.reseat:  # seats were removed: the projection is the whole list, rewritten
        batch.seats = [_seat_row(s) for s in states[-1].seats]
    batch.snapshot = snapshot
    return batch


def _rows(batch: Batch, ev: Event, after: RoomState) -> None:
    """Add to ``batch`` the rows ``ev`` writes (most events write none: the log has them)."""
    match b := ev.body:
        case evt.RoomCreated():
            batch.new_room = _new_room(b)
        case evt.SeatJoined(seat=seat):
            batch.seats.append(_seat_row(after.seats[seat]))
        case evt.SeatRemoved():
            batch.reseat = True
        case evt.GameStarted():
            _game_started(batch, b, ev.seq, after)
        case evt.GameOver(game_no=game_no):
            record = json.dumps(after.record())
            batch.game_updates.append((game_no, {"finished_seq": ev.seq, "record": record}))
            batch.room_update["status"] = "finished"
            batch.standings = after.standings()
        case evt.RoomClosed():
            batch.room_update["status"] = CLOSED
        case evt.ClientSeed() | evt.SeatLeft() | evt.HostChanged() | evt.Banned():
            return  # the seats' rows do not show these (a removal rewrites them: reseat)
        case evt.SettingsChanged() | evt.Locked() | evt.Chat():
            return  # the log alone keeps them
        case evt.FairRoundOpened() | evt.FairReveal() | evt.Chance() | evt.Action():
            return  # a game's play: its record is written when it is over
        case evt.RevealBegun() | evt.RevealOver():
            return
        case _:
            assert_never(b)


def _new_room(b: evt.RoomCreated) -> dict[str, Any]:
    return {
        "preset": b.preset,
        "options": dict(b.options),
        "status": "lobby",
        "game_no": 0,
        "seq": 0,
        "private": bool(b.private),
        "tutorial": bool(b.tutorial),
    }


def _game_started(batch: Batch, b: evt.GameStarted, seq: int, after: RoomState) -> None:
    batch.games.append(
        {
            "game_no": b.game_no,
            "rules": after.preset,
            "players": json.dumps(list(b.players)),
            "started_seq": seq,
        }
    )
    batch.room_update.update(status="playing", game_no=b.game_no)


__all__ = ["project"]
