"""THE per-recipient view function: every frame that leaves the server is built here.

:func:`render` turns an internal frame (a snapshot, an update with events, an error, a finished
game's record) into the JSON a given recipient (a seat, or a spectator) may see. Game state
reaches it only through :func:`seat_view`, i.e. the rules core's own ``state.view(seat)``: a
seat sees its own hidden dice (or the cup while it looks under it) and public facts; a
spectator sees public facts only. Chance outcomes (the dice rolled) are never put in an event;
server seeds only after their round is over; seat tokens and client seeds never. Bots get
their input from :func:`seat_view` as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from liarsdice.families import family_of_game
from liarsdice.server.protocol import envelope

if TYPE_CHECKING:
    from liarsdice.server.rooms import LoggedEvent, Room

SPECTATOR = -1


@dataclass(frozen=True, kw_only=True)
class _Reply:
    """A frame that may answer a message: ``reply_to`` is that message's ``id``."""

    reply_to: str | None = None


@dataclass(frozen=True)
class Snapshot(_Reply):
    """The whole room as the recipient may see it."""


@dataclass(frozen=True)
class Update(_Reply):
    """Events after ``from_seq`` (projected per recipient) and the current view."""

    from_seq: int
    events: tuple[LoggedEvent, ...] = ()
    ephemeral: tuple[dict[str, Any], ...] = ()  # presence and takeover notes (not logged)


@dataclass(frozen=True)
class Welcome(_Reply):
    """First answer to ``hello``: who the recipient is in this room."""

    token: str | None = None  # only ever sent to the seat it belongs to, right after joining


@dataclass(frozen=True)
class ErrorFrame(_Reply):
    """A refused message: a documented ``code`` and a human-readable ``message``."""

    code: str
    message: str


@dataclass(frozen=True)
class Pong(_Reply):
    """The answer to ``ping``."""


@dataclass(frozen=True)
class RecordFrame:
    """A finished game's JSON record (``None`` when the game is not finished)."""

    game_no: int
    extra: dict[str, Any] = field(default_factory=dict)


Frame = Snapshot | Update | Welcome | ErrorFrame | Pong | RecordFrame


def seat_view(state: Any, seat: int) -> Any:
    """The rules core's view of ``state`` for ``seat`` (:data:`SPECTATOR`: public facts only)."""
    return state.view(seat)


def _view_dict(room: Room, seat: int) -> dict[str, Any] | None:
    state = room.state
    game = room.game
    if state is None or game is None:
        return None
    out = family_of_game(game).view_frame(state, seat)
    out["legal"] = [
        {"action": a, "text": game.action_to_string(a, seat)}
        for a in state.view(seat).legal_actions
    ]
    out["game_no"] = room.game_no
    return out


def _rules_public(room: Room) -> dict[str, Any] | None:
    """The dice facts a client needs for bid odds (once a game has started)."""
    game = room.game
    if game is None:
        return None
    return family_of_game(game).public_rules(game.rules)


# What a recipient may see of each logged event: (key sent, key logged) pairs, in order; a
# logged key ending in "?" may be missing (sent as null). Anything not listed stays on the
# server: chance outcomes, client seeds until a round locks them, server seeds until revealed.
_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "room_created": (("preset", "preset"), ("options", "options"), ("turn_timer", "turn_timer?")),
    "seat_joined": (("seat", "seat"), ("name", "name"), ("seat_kind", "kind"), ("level", "level?")),
    "client_seed": (("seat", "seat"),),
    "settings": (("turn_timer", "turn_timer?"),),
    "game_started": (("game_no", "game_no"), ("players", "players"), ("opener", "opener?")),
    "action": (
        ("seat", "seat"),
        ("action", "action"),
        ("text", "text?"),
        ("auto", "auto?"),
        ("timeout", "timeout?"),
    ),
    "chance": (),  # a die was rolled: its face is in the views of those who may see it
    "fair_round": tuple(
        (k, k) for k in ("game_no", "round", "commitment", "client_seeds", "next_commitment")
    ),
    "fair_reveal": tuple((k, k) for k in ("game_no", "round", "commitment", "server_seed")),
    "game_over": (("game_no", "game_no"), ("winner", "winner?")),
    "chat": (("seat", "seat"), ("name", "name"), ("text", "text")),
    "seat_removed": (("seat", "seat"), ("name", "name"), ("by", "by")),
    "seat_left": (("seat", "seat"), ("by", "by")),
    "host_changed": (("seat", "seat"),),
}


def _event(room: Room, ev: LoggedEvent, seat: int) -> dict[str, Any]:
    d = ev.data
    out: dict[str, Any] = {"seq": ev.seq, "kind": ev.kind}
    for key, logged in _EVENT_FIELDS.get(ev.kind, ()):
        out[key] = d.get(logged[:-1]) if logged.endswith("?") else d[logged]
    return out


def _room(room: Room) -> dict[str, Any]:
    return {
        "id": room.id,
        "preset": room.preset,
        "family": room.family,
        "options": room.options,
        "status": room.status,
        "game_no": room.game_no,
        "seq": room.seq,
        "host": room.host,
        "private": room.private,
        "turn_timer": room.turn_timer,
        "timer": _timer(room),
        "rules": _rules_public(room),
        "seats": [
            {
                "seat": s.index,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "connected": s.connections > 0,
                "away": s.away,
                "left": s.left,
                "player": s.player,
                "rating": None if s.player is None else room.ratings.get(s.player),
            }
            for s in room.seats
        ],
        "wins": [room.wins.get(s.name, 0) for s in room.seats],
        "ranking": room.ranking,
        "spectators": room.spectators,
        "next_commitment": room.next_commitment,
        "games": sorted(room.records),
    }


def _timer(room: Room) -> dict[str, Any] | None:
    """The running turn timer: whose it is and when it runs out (the server's wall clock;
    frames carry ``now`` to count down from)."""
    if room.deadline is None:
        return None
    seat, deadline = room.deadline
    return {"seat": seat, "deadline": round(deadline, 3), "seconds": room.turn_timer}


def _fair_public(room: Room) -> dict[str, Any]:
    cur = room.fair_round
    return {
        "current": None
        if cur is None
        else {
            "round": cur.round,
            "commitment": cur.commitment,
            "client_seeds": list(cur.client_seeds),
        },
        "revealed": [
            {"round": r, **{k: v for k, v in info.items() if k != "opener_draw"}}
            for r, info in sorted(room.fair_info.items())
            if "server_seed" in info
        ],
        "next_commitment": room.next_commitment,
    }


def render(room: Room, seat: int, frame: Frame) -> dict[str, Any]:
    """The frame ``frame`` as recipient ``seat`` (a seat index, or -1 for a spectator) sees it.

    Every outgoing WebSocket frame, HTTP room answer and record download is built here.
    """
    viewer = seat if 0 <= seat < len(room.seats) else SPECTATOR
    if isinstance(frame, Pong):
        return envelope("pong", {"reply_to": frame.reply_to, "seq": room.seq})
    if isinstance(frame, RecordFrame):  # only finished games, every round revealed
        record = room.records.get(frame.game_no)
        return envelope("record", {"game_no": frame.game_no, "record": record, **frame.extra})
    kind, data = _frame_data(room, viewer, frame)
    if frame.reply_to is not None:
        data["reply_to"] = frame.reply_to
    return envelope(kind, data)


def _frame_data(
    room: Room, viewer: int, frame: ErrorFrame | Welcome | Snapshot | Update
) -> tuple[str, dict[str, Any]]:
    """The frame's type and its data for ``viewer`` (before ``reply_to``)."""
    if isinstance(frame, ErrorFrame):
        return "error", {"code": frame.code, "message": frame.message}
    if isinstance(frame, Welcome):
        data: dict[str, Any] = {
            "room": room.id,
            "seat": None if viewer == SPECTATOR else viewer,
            "role": "spectator" if viewer == SPECTATOR else "player",
            "host": viewer == room.host,
            "seq": room.seq,
        }
        if frame.token is not None and viewer != SPECTATOR:
            data["token"] = frame.token
        return "welcome", data
    if isinstance(frame, Snapshot):
        return "snapshot", {
            "seq": room.seq,
            "seat": None if viewer == SPECTATOR else viewer,
            "room": _room(room),
            "view": _view_dict(room, viewer),
            "fair": _fair_public(room),
            "chat": [_event(room, ev, viewer) for ev in room.chat],
        }
    return "update", {
        "from_seq": frame.from_seq,
        "seq": room.seq,
        "seat": None if viewer == SPECTATOR else viewer,
        "events": [_event(room, ev, viewer) for ev in frame.events] + list(frame.ephemeral),
        "room": _room(room),
        "view": _view_dict(room, viewer),
    }


__all__ = [
    "SPECTATOR",
    "ErrorFrame",
    "Frame",
    "Pong",
    "RecordFrame",
    "Snapshot",
    "Update",
    "Welcome",
    "render",
    "seat_view",
]


def error_frame(code: str, message: str, reply_to: str | None = None) -> dict[str, Any]:
    """An ``error`` frame that needs no room (refusals at the boundary, HTTP errors)."""
    return envelope(
        "error", {"code": code, "message": message, **({"reply_to": reply_to} if reply_to else {})}
    )
