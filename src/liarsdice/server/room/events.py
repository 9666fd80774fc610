"""Folding the log: ``fold(state, event) -> state``, one small pure function per event kind.

The same functions build a command's new value (:mod:`liarsdice.server.room.commands`) and
rebuild a room from its stored log at startup, so memory and log cannot disagree. An event
kind is added by writing its function and listing it in :data:`FOLDS` (and, when clients may
see it, in ``views._EVENT_FIELDS``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from liarsdice.families import family_of
from liarsdice.server import fair
from liarsdice.server.ratings import bot_player
from liarsdice.server.room.state import (
    CHAT_KEEP,
    GAMES_LISTED,
    MOVES_KEEP,
    Event,
    FairRound,
    Move,
    Reveal,
    RevealPlan,
    RoomState,
    Seat,
    build_game,
)


class ReplayError(RuntimeError):
    """The log does not replay (a room whose log fails this way is quarantined)."""


def _room_created(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(
        preset=d["preset"],
        family=family_of(d["preset"]).name,
        options=dict(d["options"]),
        turn_timer=d.get("turn_timer"),
        private=bool(d.get("private", False)),
        next_idx=d["seed_idx"],
    )


def _seat_joined(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    level: str | None = d.get("level")
    bot = d["kind"] == "bot"
    seat = Seat(
        d["seat"],
        d["name"],
        d["kind"],
        level,
        d.get("token_hash"),
        d["client_seed"],
        player=bot_player(level) if bot and level else d.get("player"),
        uid=ev.seq,
    )
    return dict(seats=(*s.seats, seat))


def _client_seed(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return _with_seat(s, d["seat"], client_seed=d["seed"])


def _with_seat(s: RoomState, index: int, **changes: Any) -> dict[str, Any]:
    seats = list(s.seats)
    seats[index] = replace(seats[index], **changes)
    return dict(seats=tuple(seats))


def _seat_removed(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    gone = d["seat"]
    seats = s.seats[:gone] + tuple(replace(x, index=x.index - 1) for x in s.seats[gone + 1 :])
    return dict(seats=seats, host=s.host - 1 if s.host > gone else s.host)


def _seat_left(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    # the seat's token stops working; a bot plays it to the end of the game
    return _with_seat(s, d["seat"], left=True, token_hash=None)


def _host_changed(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(host=d["seat"])


def _settings(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(turn_timer=d.get("turn_timer"))


def _locked(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(locked=bool(d["locked"]))


def _banned(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(banned=s.banned | {d["key"]})


def _fair_round(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    names = s.names()
    info = {
        "scheme": fair.SCHEME,
        "commitment": d["commitment"],
        "client_seeds": dict(zip(names, d["client_seeds"], strict=True)),
    }
    earlier = {} if d["round"] == 0 else s.fair_info
    return dict(
        fair_round=FairRound(
            d["game_no"], d["round"], d["idx"], d["commitment"], tuple(d["client_seeds"])
        ),
        fair_info={**earlier, d["round"]: info},
        next_idx=d["next_idx"],
    )


def _draw(s: RoomState, d: dict[str, Any], n: int, value: int, seq: int) -> FairRound | None:
    """The fair round after drawing ``value`` among ``n``: the event's cursor (``at``), or, in
    a log written before events carried it, the stream's own draw (which must agree)."""
    cur = s.fair_round
    if cur is None:
        return None
    at = d.get("at")
    if at is None:
        drawn, after = fair.draw_at(s.seeds[cur.idx], cur.client_seeds, cur.at, n)
        if drawn != value:
            raise ReplayError(f"room {s.room_id}: the log's dice do not replay at {seq}")
        return replace(cur, at=after)
    return replace(cur, at=(at[0], at[1]))


def _game_started(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    game = build_game(s.preset, s.options, d["players"], d.get("opener"))
    fair_round, fair_info = s.fair_round, s.fair_info
    if d.get("opener_draw"):
        fair_round = _draw(s, d, len(d["players"]), d["opener"], ev.seq)
        fair_info = {**fair_info, 0: {**fair_info[0], "opener_draw": True}}
    return dict(
        game=game,
        state=game.new_initial_state(),
        game_no=d["game_no"],
        status="playing",
        action_ids={},
        out_order=(),
        reveal=None,
        moves=(),
        game_keys=tuple(x.key for x in s.seats),
        fair_round=fair_round,
        fair_info=fair_info,
    )


def _chance(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    st, value = s.live_state, d["value"]
    if s.fair_round is None:
        return dict(state=st.apply_event(-1, value))
    outcomes = [v for v, _ in st.chance_outcomes()]
    drawn = _draw(s, d, len(outcomes), outcomes.index(value), ev.seq)
    return dict(state=st.apply_event(-1, value), fair_round=drawn)


def _action(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    st = s.live_state
    before = st.active_players()
    after_state = st.apply_event(d["seat"], d["action"])
    after = after_state.active_players()
    out = s.out_order
    if len(after) < len(before):  # for the final ranking (any family)
        out = out + tuple(p for p in before if p not in after)
    ids = s.action_ids
    if "id" in d:
        ids = {**ids, (d["seat"], d["id"]): (ev.seq, d["action"])}
    text = d.get("text") or s.live_game.action_to_string(d["action"], d["seat"])
    move = Move(ev.seq, st.round, d["seat"], text, bool(d.get("auto")), bool(d.get("timeout")))
    moves = (*s.moves, move)[-MOVES_KEEP:]
    return dict(state=after_state, out_order=out, action_ids=ids, moves=moves)


def _fair_reveal(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    info = {**s.fair_info[d["round"]], "server_seed": d["server_seed"]}
    # a revealed seed is public (in fair_info): the room keeps only the secret ones
    seeds = {i: seed for i, seed in s.seeds.items() if i != d["idx"]}
    return dict(fair_info={**s.fair_info, d["round"]: info}, fair_round=None, seeds=seeds)


def _reveal(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    # the round is over and public: the next round (or the game's end) waits for this phase
    plan = RevealPlan.from_json(d.get("plan"))
    return dict(reveal=Reveal(d["game_no"], d["round"], float(d["seconds"]), plan))


def _reveal_over(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(reveal=None)


def _game_over(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    winner = d.get("winner")
    names = list(s.live_state.game.names)
    wins = dict(s.wins)
    if winner is not None:
        wins[names[winner]] = wins.get(names[winner], 0) + 1
    rest = tuple(p for p in s.live_state.active_players() if p != winner)
    first = () if winner is None else (winner,)
    return dict(
        status="finished",
        reveal=None,
        wins=wins,
        ranking=first + rest + s.out_order[::-1],
        games=(*s.games, d["game_no"])[-GAMES_LISTED:],
    )


def _chat(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(chat=(*s.chat, ev)[-CHAT_KEEP:])


def _room_closed(s: RoomState, d: dict[str, Any], ev: Event) -> dict[str, Any]:
    return dict(status="closed")


# A fold step: the fields an event changes (the new value is made once, with its ``seq``).
Fold = Callable[[RoomState, dict[str, Any], Event], dict[str, Any]]
FOLDS: dict[str, Fold] = {
    "room_created": _room_created,
    "seat_joined": _seat_joined,
    "client_seed": _client_seed,
    "seat_removed": _seat_removed,
    "seat_left": _seat_left,
    "host_changed": _host_changed,
    "settings": _settings,
    "locked": _locked,
    "banned": _banned,
    "fair_round": _fair_round,
    "game_started": _game_started,
    "chance": _chance,
    "action": _action,
    "fair_reveal": _fair_reveal,
    "reveal": _reveal,
    "reveal_over": _reveal_over,
    "game_over": _game_over,
    "chat": _chat,
    "room_closed": _room_closed,
}


def fold(state: RoomState, ev: Event) -> RoomState:
    """``state`` after ``ev`` (a new value; ``state`` is left as it was)."""
    if ev.seq != state.seq + 1:
        raise ReplayError(f"room {state.room_id}: the log has a gap before seq {ev.seq}")
    step = FOLDS.get(ev.kind)
    if step is None:
        raise ReplayError(f"room {state.room_id}: unknown event kind {ev.kind!r} at {ev.seq}")
    return replace(state, seq=ev.seq, **step(state, ev.data, ev))


def fold_all(state: RoomState, events: Iterable[Event]) -> RoomState:
    for ev in events:
        state = fold(state, ev)
    return state


__all__ = ["FOLDS", "ReplayError", "fold", "fold_all"]
