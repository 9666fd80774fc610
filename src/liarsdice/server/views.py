"""THE per-recipient view function: every frame about a room that leaves the server is built
here, from the room's value (:class:`~liarsdice.server.room.state.RoomState`) and its live
facts (:class:`Live`: presence, spectators, the running turn timer).

Game state reaches a recipient only through the rules core's own ``state.view(seat)``
(:func:`seat_view`): a seat sees its own hidden dice (or the cup while it looks under it) and
public facts; a spectator sees public facts only. evt.Chance outcomes (the dice rolled) are never
put in an event; server seeds only after their round is over; seat tokens and client seeds
never. Bots get their input from :func:`seat_view` as well.

A frame is a :class:`Encoded` dict: its JSON text is made once, when first asked for, and a
frame shared by many recipients (the same update to every spectator) is encoded once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, assert_never

from liarsdice.core.api import GameAPI, StateAPI, ViewAPI
from liarsdice.families import family_of_game
from liarsdice.server import room_events as evt
from liarsdice.server.protocol import PROTOCOL_VERSION, envelope

if TYPE_CHECKING:
    from liarsdice.server.room.state import Event, RoomState

SPECTATOR = -1


class Encoded(dict[str, Any]):
    """A frame (a plain dict to read) that knows its JSON text (``text``, made once)."""

    @cached_property
    def text(self) -> str:
        return json.dumps(self, separators=(",", ":"))

    @cached_property
    def size(self) -> int:
        """The text's length in bytes (UTF-8), for the connections' byte budgets."""
        return len(self.text.encode())


@dataclass(frozen=True, slots=True)
class Live:
    """What a frame shows that the log does not determine."""

    presence: tuple[tuple[bool, bool], ...] = ()  # (connected, away) by seat
    spectators: int = 0
    deadline: tuple[int, float] | None = None  # (seat, wall-clock time) of a turn timer
    ratings: tuple[int | None, ...] = ()  # the seats' display ratings
    # The reveal phase: (its deadline on the wall clock, the seats it waits for, the seats
    # that said ``continue``, the seats that asked to wait), or None
    reveal: tuple[float | None, tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    # "While you were away", by seat: shown in that seat's own view only
    summaries: tuple[tuple[int, Mapping[str, Any]], ...] = ()


def seat_view(state: StateAPI, seat: int) -> ViewAPI:
    """The rules core's view of ``state`` for ``seat`` (:data:`SPECTATOR`: public facts only)."""
    return state.view(seat)


def viewer_of(room: RoomState, seat: int) -> int:
    return seat if 0 <= seat < len(room.seats) else SPECTATOR


def view_dict(room: RoomState, seat: int, live: Live | None = None) -> dict[str, Any] | None:
    """The game's view for the recipient in ``seat`` (a seat's index now, or
    :data:`SPECTATOR`): the view of the position whoever sits there played in the current
    (or last) game, so that a finished game reads the same after any seat change;
    ``viewer`` is that position (null: a spectator of this game)."""
    state, game = room.state, room.game
    if state is None or game is None:
        return None
    position = room.position_of(seat)
    family = family_of_game(game)
    out = family.view_frame(state, position)  # the core's state.view, once
    if room.revealing:  # nobody moves while a round's reveal shows
        out["legal_actions"] = []
    # each legal move with its notation and its structured move (and what the seat's own view
    # tells of it: the bidding family's chances)
    out["legal"] = family.legal_frame(state, position, out["legal_actions"])
    out["game_no"] = room.game_no
    out["viewer"] = None if position == SPECTATOR else position
    if live is not None and seat >= 0:
        for who, summary in live.summaries:
            if who == seat:  # "while you were away": this seat's own view only
                out["away_summary"] = dict(summary)
    return out


def stock_of(room: RoomState, seat: int) -> tuple[int, str] | None:
    """A seat's dice (``"dice"``) or lives (``"lives"``) in the game now, from the public
    view; None without a game."""
    state, game = room.state, room.game
    position = room.position_of(seat)
    if state is None or game is None or position == SPECTATOR:
        return None
    public = family_of_game(game).view_frame(state, SPECTATOR)
    for key, unit in (("dice_counts", "dice"), ("lives", "lives")):
        counts = public.get(key)
        if isinstance(counts, list) and position < len(counts):
            return int(counts[position]), unit
    return None


def history(room: RoomState) -> list[dict[str, Any]]:
    """The current game's public moves, round by round (every recipient may see them: they
    are the ``action`` events' public fields), for the log of a page opened late; each with
    its structured ``move`` (the family's ``move_json``)."""
    out = []
    game = room.game
    family = None if game is None else family_of_game(game)
    for m in room.moves:
        d: dict[str, Any] = {"seq": m.seq, "round": m.round, "seat": m.seat, "text": m.text}
        if family is not None and game is not None:
            d["move"] = family.move_json(game, m.text)
        if m.auto:
            d["auto"] = True
        if m.timeout:
            d["timeout"] = True
        out.append(d)
    return out


def event_dict(ev: Event, game: GameAPI | None = None) -> dict[str, Any]:
    """A logged event as every recipient may see it (its class's ``public`` fields: no event
    field depends on the seat); an ``action`` event with its structured ``move`` too when the
    room's ``game`` is given (the family's ``move_json`` of its notation)."""
    body = ev.body
    out: dict[str, Any] = {"seq": ev.seq, "kind": ev.kind, **body.public()}
    out.update(_derived(body, game))
    return out


def _derived(body: evt.RoomEvent, game: GameAPI | None) -> dict[str, Any]:
    """What a recipient sees of an event beyond its logged fields."""
    match body:
        case evt.Action(text=text):
            if game is None or not text:
                return {}
            return {"move": family_of_game(game).move_json(game, text)}
        case evt.GameStarted() | evt.GameOver() | evt.FairRoundOpened() | evt.FairReveal():
            return {}  # (the game's facts: in the room's part of the frame)
        case evt.Chance() | evt.RevealBegun() | evt.RevealOver() | evt.Chat():
            return {}
        case evt.RoomCreated() | evt.SeatJoined() | evt.SeatRemoved() | evt.SeatLeft():
            return {}
        case evt.HostChanged() | evt.ClientSeed() | evt.Banned() | evt.RoomClosed():
            return {}
        case evt.SettingsChanged() | evt.Locked():
            return {}
        case _:
            assert_never(body)


def room_dict(room: RoomState, live: Live) -> dict[str, Any]:
    """The room's public facts (the same for every recipient)."""
    game = room.game
    present = live.presence
    rated = live.ratings
    out = {
        "id": room.room_id,
        "preset": room.preset,
        "family": room.family,
        "options": room.options,
        "status": room.status,
        "game_no": room.game_no,
        "seq": room.seq,
        "host": room.host,
        "private": room.private,
        "turn_timer": room.turn_timer,
        "timer": _timer(room, live),
        "rules": None if game is None else family_of_game(game).public_rules(game.rules),
        "seats": [
            {
                "seat": s.index,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "connected": present[s.index][0] if s.index < len(present) else False,
                "away": present[s.index][1] if s.index < len(present) else False,
                "left": s.left,
                "player": s.player,
                "rating": rated[s.index] if s.index < len(rated) else None,
                "position": _position(room, s.index),
            }
            for s in room.seats
        ],
        "wins": [room.wins.get(s.name, 0) for s in room.seats],
        "wins_by_name": dict(room.wins),
        "ranking": None if room.ranking is None else list(room.ranking),
        "spectators": live.spectators,
        "next_commitment": room.next_commitment,
        "games": list(room.games),
    }
    if room.locked:  # only when set: frames of unlocked rooms are as they always were
        out["locked"] = True
    if room.revealing and room.reveal is not None:  # only during a reveal phase
        deadline, waiting, ready, waited = live.reveal or (None, (), (), ())
        plan = room.reveal.plan
        out["reveal"] = {
            "game_no": room.reveal.game_no,
            "round": room.reveal.round,
            "seconds": room.reveal.seconds,
            "deadline": None if deadline is None else round(deadline, 3),
            "waiting": list(waiting),
            "ready": list(ready),
            "held_by": list(waited),
            "plan": None if plan is None else plan.to_json(),
        }
    return out


def _position(room: RoomState, seat: int) -> int | None:
    """The seat's position in the current (or last) game's view (null: it did not play)."""
    position = room.position_of(seat)
    return None if position == SPECTATOR else position


def _timer(room: RoomState, live: Live) -> dict[str, Any] | None:
    """The running turn timer: whose it is and when it runs out (the server's wall clock;
    frames carry ``now`` to count down from)."""
    if live.deadline is None:
        return None
    seat, deadline = live.deadline
    return {"seat": seat, "deadline": round(deadline, 3), "seconds": room.turn_timer}


def _fair_public(room: RoomState) -> dict[str, Any]:
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


def _frame(kind: str, data: dict[str, Any]) -> Encoded:
    return Encoded(type=kind, version=PROTOCOL_VERSION, data=data)


def _seat_field(viewer: int) -> int | None:
    return None if viewer == SPECTATOR else viewer


def snapshot(room: RoomState, live: Live, viewer: int) -> Encoded:
    """The whole room as ``viewer`` may see it (the sender adds ``now``)."""
    return _frame(
        "snapshot",
        {
            "seq": room.seq,
            "seat": _seat_field(viewer),
            "room": room_dict(room, live),
            "view": view_dict(room, viewer, live),
            "fair": _fair_public(room),
            "chat": [event_dict(ev) for ev in room.chat],
            "history": history(room),
        },
    )


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Broadcast:
    """One update to every recipient: the events and the room's facts are projected and
    encoded to JSON once, each viewer's view built and encoded once, and each recipient's
    frame spliced from those texts (its ``text`` is never encoded again)."""

    def __init__(
        self,
        room: RoomState,
        live: Live,
        from_seq: int,
        events: Sequence[Event] = (),
        ephemeral: Sequence[Mapping[str, Any]] = (),
        now: float = 0.0,
    ) -> None:
        self.room, self.from_seq, self.now, self.live = room, from_seq, now, live
        self.events = [event_dict(ev, room.game) for ev in events] + [dict(e) for e in ephemeral]
        self.room_facts = room_dict(room, live)
        self._shared = f'"events":{_json(self.events)},"room":{_json(self.room_facts)}'
        self._frames: dict[int, Encoded] = {}

    def frame(self, seat: int, reply_to: str | None = None) -> Encoded:
        viewer = viewer_of(self.room, seat)
        out = self._frames.get(viewer)
        if out is None:
            view = view_dict(self.room, viewer, self.live)
            out = self._frames[viewer] = self._encoded(viewer, view)
        if reply_to is None:
            return out
        return _frame("update", {**out["data"], "reply_to": reply_to})

    def _encoded(self, viewer: int, view: dict[str, Any] | None) -> Encoded:
        data = {
            "from_seq": self.from_seq,
            "seq": self.room.seq,
            "seat": _seat_field(viewer),
            "events": self.events,
            "room": self.room_facts,
            "view": view,
            "now": self.now,
        }
        out = _frame("update", data)
        head = {k: data[k] for k in ("from_seq", "seq", "seat")}
        # the same text json.dumps would make of ``out``, with the shared parts encoded once
        out.__dict__["text"] = (
            f'{{"type":"update","version":{PROTOCOL_VERSION},"data":{_json(head)[:-1]},'
            f'{self._shared},"view":{_json(view)},"now":{_json(self.now)}}}}}'
        )
        return out


def welcome(room: RoomState, seat: int, reply_to: str | None = None) -> Encoded:
    """First answer to ``hello``: who the recipient is in this room."""
    viewer = viewer_of(room, seat)
    data: dict[str, Any] = {
        "room": room.room_id,
        "seat": _seat_field(viewer),
        "role": "spectator" if viewer == SPECTATOR else "player",
        "host": viewer == room.host,
        "seq": room.seq,
    }
    if reply_to is not None:
        data["reply_to"] = reply_to
    return _frame("welcome", data)


def pong(seq: int, reply_to: str | None) -> Encoded:
    return _frame("pong", {"reply_to": reply_to, "seq": seq})


def error_frame(
    code: str,
    message: str,
    reply_to: str | None = None,
    details: list[dict[str, Any]] | None = None,
) -> Encoded:
    """A refused message: a documented ``code``, a human-readable ``message`` (English) and,
    for ``invalid``, the ``details`` a client words in its own language."""
    data: dict[str, Any] = {"code": code, "message": message}
    if details:
        data["details"] = details
    if reply_to is not None:
        data["reply_to"] = reply_to
    return _frame("error", data)


__all__ = [
    "SPECTATOR",
    "Broadcast",
    "Encoded",
    "Live",
    "envelope",
    "error_frame",
    "event_dict",
    "history",
    "pong",
    "room_dict",
    "seat_view",
    "snapshot",
    "stock_of",
    "view_dict",
    "welcome",
]
