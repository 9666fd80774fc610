"""Folding the log: ``fold(state, event) -> state``, one small pure function per event kind.

The same functions build a command's new value (:mod:`liarsdice.server.room.commands`) and
rebuild a room from its stored log at startup, so memory and log cannot disagree. The steps
match on the event's type (:mod:`liarsdice.server.room_events`): mypy proves every kind
folded (``assert_never``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, assert_never

from liarsdice.families import family_of
from liarsdice.server import fair
from liarsdice.server import room_events as evt
from liarsdice.server.ratings import bot_player
from liarsdice.server.room.state import (
    ACTION_IDS_KEEP,
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


def _room_created(s: RoomState, b: evt.RoomCreated) -> Changes:
    return dict(
        preset=b.preset,
        family=family_of(b.preset).name,
        options=dict(b.options),
        turn_timer=b.turn_timer,
        private=bool(b.private),
        next_idx=b.seed_idx,
    )


def _seat_joined(s: RoomState, b: evt.SeatJoined, seq: int) -> Changes:
    bot = b.seat_kind == "bot"
    seat = Seat(
        b.seat,
        b.name,
        b.seat_kind,
        b.level,
        b.token_hash,
        b.client_seed,
        player=bot_player(b.level) if bot and b.level else b.player,
        uid=seq,
    )
    return dict(seats=(*s.seats, seat))


def _with_seat(s: RoomState, index: int, **changes: Any) -> Changes:
    seats = list(s.seats)
    seats[index] = replace(seats[index], **changes)
    return dict(seats=tuple(seats))


def _seat_removed(s: RoomState, b: evt.SeatRemoved) -> Changes:
    gone = b.seat
    seats = s.seats[:gone] + tuple(replace(x, index=x.index - 1) for x in s.seats[gone + 1 :])
    return dict(seats=seats, host=s.host - 1 if s.host > gone else s.host)


def _fair_round(s: RoomState, b: evt.FairRoundOpened) -> Changes:
    names = s.names()
    info = {
        "scheme": fair.SCHEME,
        "commitment": b.commitment,
        "client_seeds": dict(zip(names, b.client_seeds, strict=True)),
    }
    earlier = {} if b.round == 0 else s.fair_info
    return dict(
        fair_round=FairRound(b.game_no, b.round, b.idx, b.commitment, b.client_seeds),
        fair_info={**earlier, b.round: info},
        next_idx=b.next_idx,
    )


def _draw(
    s: RoomState, at: tuple[int, int] | None, n: int, value: int, seq: int
) -> FairRound | None:
    """The fair round after drawing ``value`` among ``n``: the event's cursor (``at``), or, in
    a log written before events carried it, the stream's own draw (which must agree)."""
    cur = s.fair_round
    if cur is None:
        return None
    if at is None:
        drawn, after = fair.draw_at(s.seeds[cur.idx], cur.client_seeds, cur.at, n)
        if drawn != value:
            raise ReplayError(f"room {s.room_id}: the log's dice do not replay at {seq}")
        return replace(cur, at=after)
    return replace(cur, at=(at[0], at[1]))


def _game_started(s: RoomState, b: evt.GameStarted, seq: int) -> Changes:
    players = list(b.players)
    game = build_game(s.preset, s.options, players, b.opener)
    fair_round, fair_info = s.fair_round, s.fair_info
    if b.opener_draw:
        fair_round = _draw(s, b.at, len(players), b.opener or 0, seq)
        fair_info = {**fair_info, 0: {**fair_info[0], "opener_draw": True}}
    return dict(
        game=game,
        state=game.new_initial_state(),
        game_no=b.game_no,
        status="playing",
        out_order=(),
        reveal=None,
        moves=(),
        game_keys=tuple(x.key for x in s.seats),
        fair_round=fair_round,
        fair_info=fair_info,
    )


def _chance(s: RoomState, b: evt.Chance, seq: int) -> Changes:
    st, value = s.live_state, b.value
    if s.fair_round is None:
        return dict(state=st.apply_event(-1, value))
    outcomes = [v for v, _ in st.chance_outcomes()]
    drawn = _draw(s, b.at, len(outcomes), outcomes.index(value), seq)
    return dict(state=st.apply_event(-1, value), fair_round=drawn)


def _action(s: RoomState, b: evt.Action, seq: int) -> Changes:
    st = s.live_state
    before = st.active_players()
    after_state = st.apply_event(b.seat, b.action)
    after = after_state.active_players()
    out = s.out_order
    if len(after) < len(before):  # for the final ranking (any family)
        out = out + tuple(p for p in before if p not in after)
    ids = s.action_ids
    if b.id is not None:
        ids = {**ids, (b.seat, b.id): (seq, b.action)}
        if len(ids) > ACTION_IDS_KEEP:  # (the oldest first: dicts keep their order)
            ids = dict(list(ids.items())[-ACTION_IDS_KEEP:])
    text = b.text or s.live_game.action_to_string(b.action, b.seat)
    move = Move(seq, st.round, b.seat, text, bool(b.auto), bool(b.timeout))
    moves = (*s.moves, move)[-MOVES_KEEP:]
    return dict(state=after_state, out_order=out, action_ids=ids, moves=moves)


def _fair_reveal(s: RoomState, b: evt.FairReveal) -> Changes:
    info = {**s.fair_info[b.round], "server_seed": b.server_seed}
    # a revealed seed is public (in fair_info): the room keeps only the secret ones
    seeds = {i: seed for i, seed in s.seeds.items() if i != b.idx}
    return dict(fair_info={**s.fair_info, b.round: info}, fair_round=None, seeds=seeds)


def _reveal(b: evt.RevealBegun) -> Changes:
    # the round is over and public: the next round (or the game's end) waits for this phase
    plan = RevealPlan.from_json(b.plan)
    return dict(reveal=Reveal(b.game_no, b.round, float(b.seconds), plan))


def _game_over(s: RoomState, b: evt.GameOver) -> Changes:
    winner = b.winner
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
        games=(*s.games, b.game_no)[-GAMES_LISTED:],
    )


# A fold step's result: the fields an event changes (the new value is made once, with its seq).
Changes = dict[str, Any]


def _room_step(s: RoomState, ev: Event) -> Changes:
    """The changes of an event about the room and its seats (else :func:`_game_step`)."""
    match b := ev.body:
        case evt.RoomCreated():
            return _room_created(s, b)
        case evt.SeatJoined():
            return _seat_joined(s, b, ev.seq)
        case evt.ClientSeed(seat=seat, seed=seed):
            return _with_seat(s, seat, client_seed=seed)
        case evt.SeatRemoved():
            return _seat_removed(s, b)
        case evt.SeatLeft(seat=seat):
            # the seat's token stops working; a bot plays it to the end of the game
            return _with_seat(s, seat, left=True, token_hash=None)
        case evt.HostChanged(seat=seat):
            return dict(host=seat)
        case evt.SettingsChanged(turn_timer=turn_timer):
            return dict(turn_timer=turn_timer)
        case evt.Locked(locked=locked):
            return dict(locked=bool(locked))
        case evt.Banned(key=key):
            return dict(banned=s.banned | {key})
        case evt.Chat():
            return dict(chat=(*s.chat, ev)[-CHAT_KEEP:])
        case evt.RoomClosed():
            return dict(status="closed")
        case _:
            return _game_step(s, b, ev.seq)


def _game_step(s: RoomState, b: evt.GameEvent, seq: int) -> Changes:
    """The changes of an event of a game and its rounds."""
    match b:
        case evt.FairRoundOpened():
            return _fair_round(s, b)
        case evt.GameStarted():
            return _game_started(s, b, seq)
        case evt.Chance():
            return _chance(s, b, seq)
        case evt.Action():
            return _action(s, b, seq)
        case evt.FairReveal():
            return _fair_reveal(s, b)
        case evt.RevealBegun():
            return _reveal(b)
        case evt.RevealOver():
            return dict(reveal=None)
        case evt.GameOver():
            return _game_over(s, b)
        case _:
            assert_never(b)


def fold(state: RoomState, ev: Event) -> RoomState:
    """``state`` after ``ev`` (a new value; ``state`` is left as it was)."""
    if ev.seq != state.seq + 1:
        raise ReplayError(f"room {state.room_id}: the log has a gap before seq {ev.seq}")
    try:
        changes = _room_step(state, ev)
    except evt.UnknownEvent:
        raise ReplayError(
            f"room {state.room_id}: unknown event kind {ev.kind!r} at {ev.seq}"
        ) from None
    return replace(state, seq=ev.seq, **changes)


def fold_all(state: RoomState, events: Iterable[Event]) -> RoomState:
    for ev in events:
        state = fold(state, ev)
    return state


__all__ = ["ReplayError", "fold", "fold_all"]
