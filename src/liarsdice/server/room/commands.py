"""Commands: ``decide(state, seat, message) -> Decision | CommandError``, pure.

A command checks a message against the room's value and the rules core and turns it into
events. It folds each event as it makes it (a call ends a round, which then rolls new dice:
later events depend on earlier ones), so a :class:`Decision` carries the events and the value
after each of them; the actor keeps the last value only once the events are committed. Dice
are drawn here, once, from the fair stream's cursor, and the drawn value travels in the event.
Randomness other than the dice (seat tokens, new server and client seeds) comes from an
:class:`Entropy`, so tests can make it repeatable.
"""

from __future__ import annotations

import hashlib
import html
import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from liarsdice.core.api import GameAPI
from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import family_of
from liarsdice.server import fair
from liarsdice.server import room_events as evt
from liarsdice.server.names import ReservedName, confusable_with, name_key, normalize_name
from liarsdice.server.protocol import (
    ActionMsg,
    AddBotMsg,
    BanMsg,
    ChatMsg,
    ClientSeedMsg,
    CreateRoomBody,
    LeaveMsg,
    LockMsg,
    MakeHostMsg,
    RematchMsg,
    RemoveSeatMsg,
    SettingsMsg,
    StartMsg,
)
from liarsdice.server.room.events import fold
from liarsdice.server.room.state import MAX_SEATS, Event, RevealPlan, RoomState, build_game


class CommandError(Exception):
    """A refused command: ``code`` and ``message`` go to the client in an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Entropy(Protocol):
    """Where a command's randomness comes from (never the dice: those are the fair stream's)."""

    def server_seed(self) -> str: ...
    def client_seed(self) -> str: ...
    def token(self) -> str: ...


class SystemEntropy:
    """The operating system's randomness (:mod:`secrets`)."""

    def server_seed(self) -> str:
        return fair.new_server_seed()

    def client_seed(self) -> str:
        return fair.new_client_seed()

    def token(self) -> str:
        return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# ------------------------------------------------------------------ the server's own commands
@dataclass(frozen=True)
class CreateRoom:
    """The first command of a room: create it and seat its host."""

    body: CreateRoomBody
    player: str | None = None


@dataclass(frozen=True)
class Join:
    """Take the next free seat (``player``: the guest identity rated for it)."""

    name: str
    client_seed: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class BotMove:
    """A bot's move for ``seat`` (its own, an away player's, or a timed-out player's)."""

    action: int
    timeout: bool = False


@dataclass(frozen=True)
class EndReveal:
    """End the reveal phase of round ``round`` of game ``game_no`` (``by``: ``continue``, every
    player it waits for is ready, or gone; ``timeout``, its time ran out)."""

    game_no: int
    round: int
    by: str = "timeout"


@dataclass(frozen=True)
class CloseRoom:
    """Close a room idle for its time to live."""


@dataclass(frozen=True)
class Decision:
    """What a command did: its events, the room's value after each, the new secret seeds,
    and the answer for its sender (``(seat, token)`` for a new seat)."""

    before: RoomState
    events: tuple[Event, ...] = ()
    states: tuple[RoomState, ...] = ()
    seeds: dict[int, str] = field(default_factory=dict)
    reply: Any = None

    @property
    def after(self) -> RoomState:
        return self.states[-1] if self.states else self.before


class _Draft:
    """A command's work in progress: events made and folded one at a time."""

    def __init__(self, state: RoomState, entropy: Entropy, hold: float = 0.0) -> None:
        self.before = self.state = state
        self.entropy = entropy
        self.hold = hold  # a round that ends here is shown this long first (0: not held)
        self.events: list[Event] = []
        self.states: list[RoomState] = []
        self.seeds: dict[int, str] = {}

    def emit(self, body: evt.RoomEvent) -> None:
        ev = Event.of(self.state.seq + 1, body)
        self.state = fold(self.state, ev)
        self.events.append(ev)
        self.states.append(self.state)

    def new_seed(self) -> int:
        """A new secret server seed (its index): the newest seed is always ``next_idx``."""
        idx = self.state.next_idx + 1 if self.state.seq > 0 else 0
        seed = self.entropy.server_seed()
        self.seeds[idx] = seed
        self.state = replace(self.state, seeds={**self.state.seeds, idx: seed})
        return idx

    def decision(self, reply: Any = None) -> Decision:
        if self.states:  # the seeds drawn after the last event are the value's too
            self.states[-1] = self.state
        elif self.seeds:
            self.states.append(self.state)
        return Decision(self.before, tuple(self.events), tuple(self.states), self.seeds, reply)


def decide(
    state: RoomState, seat: int, msg: Any, entropy: Entropy | None = None, hold: float = 0.0
) -> Decision | CommandError:
    """The events of ``msg`` from ``seat`` (-1: a spectator or the server itself).

    ``hold``: when a round ends in this command, its reveal phase lasts at most this many
    seconds (a ``reveal`` event; the next round starts with the ``reveal_over`` of an
    :class:`EndReveal`); 0: the next round starts at once."""
    draft = _Draft(state, entropy or SystemEntropy(), hold)
    try:
        reply = _run(draft, seat, msg)
    except CommandError as err:
        return err
    return draft.decision(reply)


def _run(d: _Draft, seat: int, msg: Any) -> Any:
    """The events of ``msg`` (made in ``d``), and its answer for the sender."""
    if d.state.status == "closed":
        raise CommandError("no_room", "the room was closed")
    match msg:
        case ActionMsg():
            return _action(d, seat, msg)
        case CreateRoom(body=body, player=player):
            return _create(d, body, player)
        case Join(name=name, client_seed=client_seed, player=player):
            return _seat_human(d, name, client_seed, player)
        case _ if isinstance(msg, _HOST_ONLY):
            _host(d.state, seat)
            _host_command(d, msg)
        case _:
            _anyone_command(d, seat, msg)
    return None


def _anyone_command(d: _Draft, seat: int, msg: Any) -> None:
    """A command that is not the host's alone (the server's own, or a seat's, or anyone's)."""
    s = d.state
    match msg:
        case BotMove(action=action, timeout=timeout):
            _not_revealing(s)
            _play(d, seat, action, auto=True, timeout=timeout)
        case EndReveal(game_no=game_no, round=rnd, by=by):
            r = s.reveal
            if not s.revealing or r is None or (r.game_no, r.round) != (game_no, rnd):
                raise CommandError("bad_state", "that reveal is over")
            d.emit(evt.RevealOver(game_no=game_no, round=rnd, by=by))
            _advance(d)
        case ChatMsg(text=text):
            _chat(d, seat, text)
        case ClientSeedMsg(seed=seed):
            _seated(seat, "spectators have no client seed")
            d.emit(evt.ClientSeed(seat=seat, seed=seed))
        case LeaveMsg():
            _seated(seat, "spectators have no seat to leave")
            _remove(d, seat, "self")
        case CloseRoom():
            d.emit(evt.RoomClosed(reason="idle"))
        case _:
            raise CommandError("unknown_type", f"unknown message {type(msg).__name__}")


# The host's commands (each refused to anyone else before anything else is checked)
_HOST_ONLY = (
    AddBotMsg,
    SettingsMsg,
    LockMsg,
    BanMsg,
    RemoveSeatMsg,
    MakeHostMsg,
    StartMsg,
    RematchMsg,
)


def _host_command(d: _Draft, msg: Any) -> None:
    """A command of the host's (one of :data:`_HOST_ONLY`, from the host)."""
    s = d.state
    match msg:
        case AddBotMsg(level=level):
            _add_bot(d, level)
        case SettingsMsg(turn_timer=turn_timer):
            _between_games(s, "change the settings between games")
            d.emit(evt.SettingsChanged(turn_timer=turn_timer))
        case LockMsg(locked=locked):
            d.emit(evt.Locked(locked=locked))
        case BanMsg(seat=target):
            _check_seat(s, target)
            if s.seats[target].kind != "human":
                raise CommandError("invalid", "bots are removed, not banned")
            _remove(d, target, "host", ban=True)
        case RemoveSeatMsg(seat=target):
            _remove(d, target, "host")
        case MakeHostMsg(seat=target):
            _make_host(d, target)
        case StartMsg() | RematchMsg():
            _start(d, isinstance(msg, RematchMsg))


def _chat(d: _Draft, seat: int, text: str) -> None:
    clean = "".join(c for c in text if c.isprintable()).strip()
    if not clean:
        raise CommandError("invalid", "chat: the message is empty")
    # a spectator chats too, as "watcher" with no seat (the text is all it says)
    who = (seat, d.state.seats[seat].name) if seat >= 0 else (None, WATCHER)
    d.emit(evt.Chat(seat=who[0], name=who[1], text=html.escape(clean)))


# ------------------------------------------------------------------------------ checks
WATCHER = "watcher"  # the name a spectator's chat goes by


def _seated(seat: int, why: str) -> None:
    if seat < 0:
        raise CommandError("not_seated", why)


def _host(s: RoomState, seat: int) -> None:
    if seat != s.host:
        raise CommandError("not_host", f"only the host ({s.seat_name(s.host)}) may do that")


def _not_revealing(s: RoomState) -> None:
    if s.revealing:
        raise CommandError("bad_state", "the last round's reveal is showing: wait for it to end")


def _between_games(s: RoomState, why: str) -> None:
    if s.status == "playing":
        raise CommandError("bad_state", why)


def _check_seat(s: RoomState, seat: int) -> None:
    if not 0 <= seat < len(s.seats):
        last = len(s.seats) - 1
        raise CommandError("invalid", f"seat: there is no seat {seat} (seats 0..{last})")


# ------------------------------------------------------------------------------ seats
def _create(d: _Draft, body: CreateRoomBody, player: str | None) -> tuple[int, str]:
    try:
        family_of(body.preset).rules(body.preset, dict(body.options), 2)
    except (LiarsDiceError, ValueError) as err:
        raise CommandError("bad_rules", str(err)) from None
    idx = d.new_seed()
    d.emit(
        evt.RoomCreated(
            preset=body.preset.lower(),
            options=dict(body.options),
            turn_timer=body.turn_timer,
            seed_idx=idx,
            private=body.private or None,
            tutorial=body.tutorial or None,  # (the store rates no game of the room)
        )
    )
    return _seat_human(d, body.name, body.client_seed, player)


def _seat_human(
    d: _Draft, name: str, client_seed: str | None, player: str | None
) -> tuple[int, str]:
    s = d.state
    if s.status == "playing":
        raise CommandError("bad_state", "the game has started: watch as a spectator")
    if s.locked:
        raise CommandError("room_locked", "the host has locked this room")
    if len(s.seats) >= MAX_SEATS:
        raise CommandError("room_full", f"the room is full ({MAX_SEATS} seats)")
    try:  # the room applies the name rules itself, whoever calls it
        name = normalize_name(name)
    except ReservedName as err:
        raise CommandError("name_reserved", str(err)) from None
    except ValueError as err:
        raise CommandError("invalid", f"name: {err}") from None
    if name_key(name) in s.banned:
        raise CommandError("banned", "the host has banned this name from this room")
    other = confusable_with(name, [x.name for x in s.seats])
    if other is not None:
        raise CommandError(
            "name_taken",
            f"the name {name!r} is or looks like {other!r}, already seated in this room",
        )
    token = d.entropy.token()
    seat = len(s.seats)
    d.emit(
        evt.SeatJoined(
            seat=seat,
            name=name,
            seat_kind="human",
            token_hash=hash_token(token),
            client_seed=client_seed or d.entropy.client_seed(),
            player=player,
        )
    )
    return seat, token


def _add_bot(d: _Draft, level: str) -> None:
    s = d.state
    levels = tuple(s.family_obj.bots)
    level = level.strip().lower()
    if level not in levels:
        raise CommandError("invalid", f"unknown bot level {level!r}; levels: {', '.join(levels)}")
    _between_games(s, "add bots between games")
    if len(s.seats) >= MAX_SEATS:
        raise CommandError("room_full", f"the room is full ({MAX_SEATS} seats)")
    taken = {x.name for x in s.seats}
    n = 1
    while f"{level}-bot-{n}" in taken:
        n += 1
    d.emit(
        evt.SeatJoined(
            seat=len(s.seats),
            name=f"{level}-bot-{n}",
            seat_kind="bot",
            level=level,
            client_seed=d.entropy.client_seed(),
        )
    )


def _remove(d: _Draft, seat: int, by: str, *, ban: bool = False) -> None:
    """``remove_seat``/``ban`` (by the host) or ``leave`` (by the seat's player).

    Between games the seat goes (``seat_removed``: later seats move down one). During a
    game a player's seat is marked left (``seat_left``): a bot plays it to the end and it
    goes when the next game starts. A leaving host hands the role to the next player."""
    s = d.state
    _check_seat(s, seat)
    info = s.seats[seat]
    if by == "host" and seat == s.host:
        raise CommandError("invalid", "the host leaves with 'leave', not 'remove_seat'")
    playing = s.status == "playing"
    if playing and info.kind == "bot":
        raise CommandError("bad_state", "bots are removed between games")
    if info.left:
        raise CommandError("bad_state", f"{info.name} has left already")
    if ban:
        d.emit(evt.Banned(key=name_key(info.name)))
    if seat == s.host:
        order = [(seat + i) % len(s.seats) for i in range(1, len(s.seats))]
        heirs = [i for i in order if s.seats[i].kind == "human" and not s.seats[i].left]
        if heirs:
            d.emit(evt.HostChanged(seat=heirs[0]))
    if playing:
        d.emit(evt.SeatLeft(seat=seat, by=by))
    else:
        d.emit(evt.SeatRemoved(seat=seat, name=info.name, by=by))


def _make_host(d: _Draft, target: int) -> None:
    s = d.state
    _check_seat(s, target)
    info = s.seats[target]
    if info.kind != "human" or info.left:
        raise CommandError("invalid", f"{info.name} cannot be the host: not a player")
    if target == s.host:
        raise CommandError("invalid", f"{info.name} is the host already")
    d.emit(evt.HostChanged(seat=target))


# ------------------------------------------------------------------------------ games
def _start(d: _Draft, rematch: bool) -> None:
    s = d.state
    if not rematch and s.status != "lobby":
        raise CommandError("bad_state", f"the room is {s.status}: use rematch")
    if rematch and s.status != "finished":
        raise CommandError("bad_state", "a rematch is offered once the game is over")
    left = [x.index for x in s.seats if x.left]
    if len(s.seats) - len(left) < 2:
        raise CommandError("bad_state", "a game needs at least 2 seats: invite or add a bot")
    for seat in reversed(left):  # players who left the last game: their seats go now
        d.emit(evt.SeatRemoved(seat=seat, name=s.seats[seat].name, by="left"))
    names = [x.name for x in d.state.seats]
    try:
        game = build_game(s.preset, s.options, names, None)
    except (LiarsDiceError, ValueError) as err:
        raise CommandError("bad_rules", str(err)) from None
    _bots_can_play(d.state, game)
    game_no = s.game_no + 1
    started = evt.GameStarted(game_no=game_no, players=tuple(names))
    if family_of(s.preset).needs_opener_draw(game):
        _fair_round(d, game_no, 0)
        cur = d.state.fair_round
        assert cur is not None
        opener, at = fair.draw_at(d.state.seeds[cur.idx], cur.client_seeds, cur.at, len(names))
        started = replace(started, opener=opener, opener_draw=True, at=at)
    d.emit(started)
    _advance(d)


def _bots_can_play(s: RoomState, game: GameAPI) -> None:
    """Refuse to start a game one of the room's bots cannot play (``nash`` plays only what the
    exact solver solves), naming the bot and why, rather than have it abandon the game."""
    family = family_of(s.preset)
    for seat in s.seats:
        if seat.kind == "bot" and seat.level:
            why = family.make_bot(seat.level, random.Random(0)).cannot_play(game)
            if why:
                raise CommandError(
                    "bad_rules", f"{seat.name} cannot play this game: {why}; remove it first"
                )


def _fair_round(d: _Draft, game_no: int, rnd: int) -> None:
    idx = d.state.next_idx
    nxt = d.new_seed()
    s = d.state
    d.emit(
        evt.FairRoundOpened(
            game_no=game_no,
            round=rnd,
            idx=idx,
            commitment=fair.commitment(s.seeds[idx]),
            client_seeds=tuple(x.client_seed for x in s.seats),
            next_idx=nxt,
            next_commitment=fair.commitment(s.seeds[nxt]),
        )
    )


def _advance(d: _Draft) -> None:
    """Roll the dice the rules ask for (the fair stream), reveal finished rounds, end games."""
    while d.state.playing and not d.state.revealing:
        s = d.state
        st, cur = s.live_state, s.fair_round
        if cur is not None and (st.is_terminal() or st.round != cur.round):
            d.emit(
                evt.FairReveal(
                    game_no=s.game_no,
                    round=cur.round,
                    idx=cur.idx,
                    commitment=cur.commitment,
                    server_seed=s.seeds[cur.idx],
                )
            )
            if d.hold > 0:  # the round's reveal shows before anything of the next round
                plan = _reveal_plan(s, cur.round, d.hold)
                d.emit(
                    evt.RevealBegun(
                        game_no=s.game_no,
                        round=cur.round,
                        seconds=plan.seconds,
                        plan=plan.to_json(),
                    )
                )
        elif st.is_terminal():
            d.emit(evt.GameOver(game_no=s.game_no, winner=st.winner))
        elif not st.is_chance_node():
            return
        elif cur is None:
            _fair_round(d, s.game_no, st.round)
        else:
            outcomes = st.chance_outcomes()
            i, at = fair.draw_at(s.seeds[cur.idx], cur.client_seeds, cur.at, len(outcomes))
            d.emit(evt.Chance(value=outcomes[i][0], at=at))


def _reveal_plan(s: RoomState, rnd: int, hold: float) -> RevealPlan:
    """The timeline of round ``rnd``'s reveal: its verdict shows ``hold`` s after the count."""
    results = s.live_state.view(-1).results
    counted = s.family_obj.reveal_count(results[rnd]) if rnd < len(results) else 0
    return RevealPlan(counted, hold)


def _play(d: _Draft, seat: int, action: int, *, auto: bool = False, **flags: Any) -> None:
    s = d.state
    d.emit(
        evt.Action(
            seat=seat,
            action=action,
            text=s.live_game.action_to_string(action, seat),
            auto=auto or None,
            timeout=flags.get("timeout") or None,  # the turn timer ran out: played for them
            id=flags.get("msg_id"),  # logged, never sent: repeats of it are no-ops
        )
    )
    _advance(d)


def _action(d: _Draft, seat: int, msg: ActionMsg) -> None:
    s = d.state
    if msg.room is not None and msg.room != s.room_id:
        raise CommandError("wrong_room", f"this connection is in room {s.room_id}, not {msg.room}")
    _seated(seat, "spectators cannot move")
    if msg.id is not None and _is_repeat(s, seat, msg):
        return  # a repeat of an action applied in this game: acknowledged, not applied
    if not s.playing:
        raise CommandError("bad_state", "no game is in progress")
    _not_revealing(s)
    st = s.live_state
    if (msg.action is None) == (msg.text is None):
        raise CommandError("invalid", "action: give exactly one of 'action' and 'text'")
    if msg.seq is not None and msg.seq != s.seq:
        raise CommandError("stale", f"the room is at seq {s.seq}, not {msg.seq}: resync")
    if seat not in st.active_players():
        raise CommandError("eliminated", f"{s.seats[seat].name} is out of the game")
    if st.current_player != seat:
        who = s.seat_name(st.current_player)
        raise CommandError("not_your_turn", f"it is {who}'s turn, not yours")
    try:
        text = msg.text or ""
        action = msg.action if msg.action is not None else s.live_game.string_to_action(text)
    except (LiarsDiceError, ValueError) as err:
        raise CommandError("illegal_action", str(err)) from None
    if action not in st.legal_actions():
        try:
            why = st.explain_illegal(action)
        except (LiarsDiceError, ValueError) as err:
            why = str(err)
        raise CommandError("illegal_action", why or "that move is not legal now")
    _play(d, seat, action, msg_id=msg.id)


def _is_repeat(s: RoomState, seat: int, msg: ActionMsg) -> bool:
    """Whether ``msg`` repeats an action this seat had applied in this room (in this game or
    an earlier one: a retry whose game has ended since): the same ``id`` and the same move
    (a reused ``id`` with another move is a new message)."""
    seen = s.action_ids.get((seat, msg.id or ""))
    if seen is None or s.game is None:
        return False
    if msg.action is not None:
        return msg.action == seen[1]
    try:
        return bool(s.game.string_to_action(msg.text or "") == seen[1])
    except (LiarsDiceError, ValueError):
        return False


__all__ = [
    "BotMove",
    "CloseRoom",
    "CommandError",
    "CreateRoom",
    "Decision",
    "EndReveal",
    "Entropy",
    "Join",
    "SystemEntropy",
    "decide",
    "hash_token",
]
