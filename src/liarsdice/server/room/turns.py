"""What moves a room when nobody sends anything: bots, turn timers, grace periods, presence.

None of it changes the room by itself: each timer *posts a command* to the room's actor
(:meth:`liarsdice.server.room.actor.Room.post`), which decides and commits it like any other.
Presence (who is connected, who is away) is not in the log: it lives here, one :class:`Here`
per seat, and frames show it through :class:`~liarsdice.server.views.Live`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from liarsdice.bots.table import AnyBot
from liarsdice.core.api import StateAPI
from liarsdice.server.config import Settings
from liarsdice.server.room.commands import BotMove, CommandError, EndReveal
from liarsdice.server.room.state import RoomState
from liarsdice.server.views import seat_view


@dataclass
class Here:
    """One seat's presence."""

    connections: int = 0
    away: bool = False
    epoch: int = 0  # bumped on every disconnect and reconnect, for the grace timer
    timeouts: int = 0  # turn timers run out in a row (reset by any message of the seat)
    # While away: (the game, the seat's dice or lives in it) when it went away, and the moves
    # played for it since
    away_from: tuple[int, int] | None = None
    away_moves: int = 0
    # Once back: what happened meanwhile, for that seat's view only ("while you were away")
    summary: dict[str, Any] | None = None


class TurnsRoom(Protocol):
    """What the timers need of their room: its value, its seats' presence, its settings and
    bots' secret, and its queue of commands (they change nothing themselves)."""

    value: RoomState
    presence: list[Here]
    settings: Settings
    secret: str

    @property
    def paused(self) -> bool: ...

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` as the room's next work."""

    async def command(self, seat: int, msg: Any) -> Any:
        """Decide and commit ``msg`` from ``seat`` (CommandError: refused)."""

    def set_away(self, seat: int, away: bool, note: str) -> None:
        """Mark ``seat``'s player away (a bot plays its turns) or back."""

    def deadline_armed(self, seq: int, seat: int, deadline: float) -> None:
        """A turn timer was armed: ``seat`` must move by ``deadline`` (wall clock)."""


class Turns:
    """The room's timers: the next bot move or the turn timer of the human to move, and each
    absent seat's grace period."""

    def __init__(self, room: TurnsRoom) -> None:
        self.room = room
        self._timer: asyncio.TimerHandle | None = None
        self._key: tuple[StateAPI, int, bool] | None = None  # (state, seat, bot) of _timer
        self.deadline: tuple[int, float] | None = None  # (seat, wall-clock time) of a turn
        # A turn timer armed by the room's previous owner (a cluster): (seq, seat, deadline):
        # the same turn keeps its deadline here (it may have run out meanwhile: at once).
        self.inherited: tuple[int, int, float] | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._bots: dict[tuple[int, int], AnyBot] = {}  # (game_no, seat) -> bot
        # The reveal phase's timer: ((game_no, round), handle); its deadline (wall clock) for
        # the frames, the seats that said ``continue`` in it and those that asked to wait.
        self._reveal: tuple[tuple[int, int], asyncio.TimerHandle] | None = None
        self.reveal_deadline: float | None = None
        self.ready: frozenset[int] = frozenset()
        self.waited: frozenset[int] = frozenset()

    # ------------------------------------------------------------------ the turn
    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._key, self.deadline = None, None, None

    def stop(self) -> None:
        self.cancel()
        self._cancel_reveal()
        for h in self._grace.values():
            h.cancel()
        self._grace = {}

    def schedule(self) -> None:
        """Arm what moves next: a bot's move, or the turn timer of the human to move.

        A timer already armed for this very turn is kept: reconnecting or sending messages
        never restarts a player's countdown."""
        room = self.room
        v = room.value
        st = v.state
        if v.revealing and not room.paused:
            self.cancel()  # nobody moves while a round's reveal shows
            self._arm_reveal()
            return
        self._cancel_reveal()
        if st is None or not v.playing or st.is_terminal() or st.current_player < 0 or room.paused:
            self.cancel()  # (a paused room's bots and timers wait: the probe reschedules)
            return
        p = st.current_player
        bot = v.controlled_by_bot(p, room.presence[p].away)
        # (states are immutable: the same object is the same turn, whatever chat came between)
        key = self._key
        if self._timer is not None and key is not None and key[0] is st and key[1:] == (p, bot):
            return
        self.cancel()
        loop = asyncio.get_running_loop()
        settings = room.settings
        if bot:
            self._timer = loop.call_later(settings.bot_delay, room.post, self._bot_move, st)
        elif v.turn_timer:
            now = settings.clock()
            deadline = now + v.turn_timer
            if self.inherited is not None and self.inherited[:2] == (v.seq, p):
                deadline = self.inherited[2]
            self.inherited = None
            delay = max(0.0, deadline - now)
            self._timer = loop.call_later(delay, room.post, self._timed_out, st)
            self.deadline = (p, deadline)
            room.deadline_armed(v.seq, p, deadline)
        else:
            return
        self._key = (st, p, bot)

    def _bot(self, seat: int) -> AnyBot:
        room, v = self.room, self.room.value
        key = (v.game_no, seat)
        bot = self._bots.get(key)
        if bot is None:
            info = v.seats[seat]
            level = info.level if info.kind == "bot" and info.level else None
            # Keyed by the room's secret: public values (room, game, seat, seq) alone would let
            # anyone replay the bot's choices and so learn about its dice.
            salt = f"bot/{v.game_no}/{seat}/{v.seq}".encode()
            rng = random.Random(hmac.new(room.secret.encode(), salt, hashlib.sha256).digest())
            bot = v.family_obj.make_bot(level or room.settings.takeover_level, rng)
            self._bots = {k: b for k, b in self._bots.items() if k[0] == v.game_no}
            self._bots[key] = bot
        return bot

    async def _bot_move(self, turn: StateAPI, *, timeout: bool = False) -> None:
        """A bot's move for the seat to move (a bot's seat, an away player's, or a player
        whose turn timer ran out: ``timeout``)."""
        self._timer, self._key = None, None
        room, v = self.room, self.room.value
        st = v.state
        if st is None or st is not turn or not v.playing or st.is_terminal():
            return
        p = st.current_player
        if p < 0 or not (timeout or v.controlled_by_bot(p, room.presence[p].away)):
            return
        bot = self._bot(p)
        action = await asyncio.to_thread(bot.choose, v.game, seat_view(st, p))
        if room.value.state is st:  # (commands are serialized: nothing moved meanwhile)
            await room.command(p, BotMove(int(action), timeout))

    async def _timed_out(self, turn: StateAPI) -> None:
        """The player to move let the turn timer run out: a bot plays this one move for them.
        Only ``Settings.timeouts_before_away`` timeouts in a row mark the seat away (then
        the bot plays every turn until the player sends anything)."""
        self._timer, self._key, self.deadline = None, None, None
        room, v = self.room, self.room.value
        st = v.state
        if st is None or st is not turn or not v.playing:
            return
        seat = st.current_player
        here = room.presence[seat]
        if v.seats[seat].kind != "human" or here.away:
            self.schedule()
            return
        here.timeouts += 1
        if here.timeouts >= room.settings.timeouts_before_away:
            room.set_away(seat, True, "turn_timer")
            return
        await self._bot_move(st, timeout=True)

    # ------------------------------------------------------------------ the reveal phase
    def _cancel_reveal(self) -> None:
        if self._reveal is not None:
            self._reveal[1].cancel()
        self._reveal, self.reveal_deadline = None, None
        self.ready = self.waited = frozenset()

    def _arm_reveal(self) -> None:
        """Arm the reveal's timer (once per reveal: a room loaded or resumed in the middle of
        one gives it its whole time again, its verdict held no longer than this server's
        setting, so it always ends)."""
        room = self.room
        r = room.value.reveal
        assert r is not None
        key = (r.game_no, r.round)
        if self._reveal is not None and self._reveal[0] == key:
            return
        self._cancel_reveal()
        hold = room_reveal_seconds(room.settings)
        if r.plan is not None and r.plan.hold > hold:  # this server's setting is shorter
            self._end_reveal_in(key, replace(r.plan, hold=hold).seconds)
        else:
            self._end_reveal_in(key, r.seconds if r.plan is not None else min(r.seconds, hold))

    def _end_reveal_in(self, key: tuple[int, int], seconds: float) -> None:
        room = self.room
        loop = asyncio.get_running_loop()
        handle = loop.call_later(seconds, room.post, self._end_reveal, key, "timeout")
        self._reveal = (key, handle)
        self.reveal_deadline = room.settings.clock() + seconds

    def wait(self, seat: int) -> float:
        """``seat`` asks the table to wait: the reveal holds until every player it waits for
        said ``continue``, at most :data:`WAIT_SECONDS` from now (once per seat and reveal).
        Returns the new deadline; a :class:`CommandError` says why a seat cannot."""
        if seat < 0:
            raise CommandError("not_seated", "spectators cannot hold the reveal")
        if not self.room.value.revealing or self._reveal is None or self.reveal_deadline is None:
            raise CommandError("bad_state", "there is no reveal to hold")
        if seat in self.waited:
            raise CommandError("bad_state", "you have held this reveal already")
        if seat not in self.waiting_for():
            raise CommandError("bad_state", "this reveal does not wait for you")
        self.waited = self.waited | {seat}
        now = self.room.settings.clock()
        if self.reveal_deadline < now + WAIT_SECONDS:
            self._reveal[1].cancel()
            self._end_reveal_in(self._reveal[0], WAIT_SECONDS)
        return round(self.reveal_deadline, 3)

    def waiting_for(self) -> list[int]:
        """The seats the reveal waits for: seated players who are connected and not away."""
        room = self.room
        return [
            s.index
            for s in room.value.seats
            if s.kind == "human"
            and not s.left
            and s.index < len(room.presence)
            and room.presence[s.index].connections > 0
            and not room.presence[s.index].away
        ]

    def hold(self) -> float:
        """How long the verdict of a round ending now shows at least (after the count): 0
        when no player is there (no reveal phase)."""
        return room_reveal_seconds(self.room.settings) if self.waiting_for() else 0.0

    def continue_(self, seat: int) -> bool:
        """``seat`` is done looking at the reveal; True when nobody else is waited for."""
        if not self.room.value.revealing:
            return False
        if seat >= 0:
            self.ready = self.ready | {seat}
        return self.all_ready()

    def all_ready(self) -> bool:
        return self.room.value.revealing and set(self.waiting_for()) <= self.ready

    async def check_reveal(self) -> None:
        """End the reveal when everyone it waits for is ready (or gone)."""
        if self.all_ready():
            r = self.room.value.reveal
            assert r is not None
            await self._end_reveal((r.game_no, r.round), "continue")

    async def _end_reveal(self, key: tuple[int, int], by: str) -> None:
        r = self.room.value.reveal
        if r is None or (r.game_no, r.round) != key:
            return
        try:
            await self.room.command(-1, EndReveal(key[0], key[1], by))
        except CommandError:
            # The store failed: the room is paused; when it resumes, the reveal is armed again.
            if self._reveal is not None and self._reveal[0] == key:
                self._reveal[1].cancel()
                self._reveal = None

    # ------------------------------------------------------------------ grace periods
    def start_grace(self, seat: int) -> None:
        """After the grace period with no connection, a bot plays ``seat``."""
        epoch = self.room.presence[seat].epoch
        self.end_grace(seat)
        self._grace[seat] = asyncio.get_running_loop().call_later(
            self.room.settings.grace_period, self.room.post, self._grace_over, seat, epoch
        )

    def end_grace(self, seat: int) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()

    def restart_graces(self) -> None:
        """Seats moved (one was removed): every absent player's grace period starts again."""
        for h in self._grace.values():
            h.cancel()
        self._grace = {}
        room = self.room
        for info in room.value.seats:
            here = room.presence[info.index]
            if info.kind == "human" and here.connections == 0 and not here.away:
                self.start_grace(info.index)

    async def _grace_over(self, seat: int, epoch: int) -> None:
        room = self.room
        if seat >= len(room.presence):
            return
        here = room.presence[seat]
        if here.epoch != epoch or here.connections > 0 or here.away:
            return
        room.set_away(seat, True, "grace_period")


WAIT_SECONDS = 15.0  # "Wait" holds a reveal this long at most (from the press)


def room_reveal_seconds(settings: Settings) -> float:
    """How long a reveal's verdict shows (the server's ``Settings.reveal_seconds``)."""
    return max(0.0, float(settings.reveal_seconds))


__all__ = ["WAIT_SECONDS", "Here", "Turns", "TurnsRoom", "room_reveal_seconds"]
