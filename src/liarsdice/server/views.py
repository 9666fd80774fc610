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


@dataclass(frozen=True)
class Snapshot:
    """The whole room as the recipient may see it."""

    reply_to: str | None = None


@dataclass(frozen=True)
class Update:
    """Events after ``from_seq`` (projected per recipient) and the current view."""

    from_seq: int
    events: tuple[LoggedEvent, ...] = ()
    ephemeral: tuple[dict[str, Any], ...] = ()  # presence and takeover notes (not logged)
    reply_to: str | None = None


@dataclass(frozen=True)
class Welcome:
    """First answer to ``hello``: who the recipient is in this room."""

    token: str | None = None  # only ever sent to the seat it belongs to, right after joining
    reply_to: str | None = None


@dataclass(frozen=True)
class ErrorFrame:
    """A refused message: a documented ``code`` and a human-readable ``message``."""

    code: str
    message: str
    reply_to: str | None = None


@dataclass(frozen=True)
class Pong:
    reply_to: str | None = None


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


def _event(room: Room, ev: LoggedEvent, seat: int) -> dict[str, Any]:
    d = ev.data
    out: dict[str, Any] = {"seq": ev.seq, "kind": ev.kind}
    k = ev.kind
    if k == "room_created":
        out.update(preset=d["preset"], options=d["options"], turn_timer=d.get("turn_timer"))
    elif k == "seat_joined":
        out.update(seat=d["seat"], name=d["name"], seat_kind=d["kind"], level=d.get("level"))
    elif k == "client_seed":
        out.update(seat=d["seat"])  # the seed itself is published when a round locks it
    elif k == "settings":
        out.update(turn_timer=d.get("turn_timer"))
    elif k == "game_started":
        out.update(game_no=d["game_no"], players=d["players"], opener=d.get("opener"))
    elif k == "action":
        out.update(seat=d["seat"], action=d["action"], text=d.get("text"), auto=d.get("auto"))
    elif k == "chance":
        pass  # a die was rolled: its face is in the views of those who may see it
    elif k == "fair_round":
        out.update(
            game_no=d["game_no"],
            round=d["round"],
            commitment=d["commitment"],
            client_seeds=d["client_seeds"],
            next_commitment=d["next_commitment"],
        )
    elif k == "fair_reveal":
        out.update(
            game_no=d["game_no"],
            round=d["round"],
            commitment=d["commitment"],
            server_seed=d["server_seed"],
        )
    elif k == "game_over":
        out.update(game_no=d["game_no"], winner=d.get("winner"))
    elif k == "chat":
        out.update(seat=d["seat"], name=d["name"], text=d["text"])
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
        "host": 0,
        "turn_timer": room.turn_timer,
        "rules": _rules_public(room),
        "seats": [
            {
                "seat": s.index,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "connected": s.connections > 0,
                "away": s.away,
            }
            for s in room.seats
        ],
        "spectators": room.spectators,
        "next_commitment": room.next_commitment,
        "games": sorted(room.records),
    }


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
    if isinstance(frame, ErrorFrame):
        data: dict[str, Any] = {"code": frame.code, "message": frame.message}
        if frame.reply_to is not None:
            data["reply_to"] = frame.reply_to
        return envelope("error", data)
    if isinstance(frame, Pong):
        return envelope("pong", {"reply_to": frame.reply_to, "seq": room.seq})
    if isinstance(frame, Welcome):
        data = {
            "room": room.id,
            "seat": None if viewer == SPECTATOR else viewer,
            "role": "spectator" if viewer == SPECTATOR else "player",
            "host": viewer == 0,
            "seq": room.seq,
        }
        if frame.token is not None and viewer != SPECTATOR:
            data["token"] = frame.token
        if frame.reply_to is not None:
            data["reply_to"] = frame.reply_to
        return envelope("welcome", data)
    if isinstance(frame, Snapshot):
        data = {
            "seq": room.seq,
            "room": _room(room),
            "view": _view_dict(room, viewer),
            "fair": _fair_public(room),
            "chat": [_event(room, ev, viewer) for ev in room.chat],
        }
        if frame.reply_to is not None:
            data["reply_to"] = frame.reply_to
        return envelope("snapshot", data)
    if isinstance(frame, Update):
        data = {
            "from_seq": frame.from_seq,
            "seq": room.seq,
            "events": [_event(room, ev, viewer) for ev in frame.events] + list(frame.ephemeral),
            "room": _room(room),
            "view": _view_dict(room, viewer),
        }
        if frame.reply_to is not None:
            data["reply_to"] = frame.reply_to
        return envelope("update", data)
    # RecordFrame: only finished games, whose every round has been revealed.
    record = room.records.get(frame.game_no)
    return envelope("record", {"game_no": frame.game_no, "record": record, **frame.extra})


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
