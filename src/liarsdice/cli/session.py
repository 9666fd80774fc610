"""One game of ``liarsdice play`` at the terminal, for every rule family.

The session runs the game loop and does all the reading and printing: chance, bots' turns,
the hot-seat hand-over ("Pass the screen") and hiding, a human's prompt and commands, the game
over and ``--save``. Every line it prints is built by the family's terminal parts
(:meth:`~liarsdice.families.base.Family.terminal`), which also read a human's input.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import click
from rich.console import Console
from rich.markup import escape

from liarsdice.cli.command import sentence
from liarsdice.cli.reasons import os_reason
from liarsdice.cli.terminal import Terminal
from liarsdice.core import CHANCE, LiarsDiceError
from liarsdice.core.api import GameAPI, StateAPI
from liarsdice.families import Family, dumps_record
from liarsdice.i18n import _

__all__ = ["Seat", "Session"]


class Chooser(Protocol):
    """A bot: it chooses a move from its own view."""

    def choose(self, game: Any, view: Any) -> int: ...


@dataclass
class Seat:
    """One player at the table: a human or a bot of the game's family."""

    name: str
    bot: Chooser | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass(eq=False)
class Session(Terminal):
    """One game at the terminal: the loop, the hand-overs and the human prompts."""

    family: Family
    game: GameAPI
    seats: list[Seat]
    rng: random.Random
    console: Console
    hints: bool = False
    save: Path | None = None
    delay: float = 0.0  # seconds to pause after each bot move (pacing; 0: none)

    def __post_init__(self) -> None:
        Terminal.__init__(self, self.seats, self.console, names=[s.name for s in self.seats])
        self.text = self.family.terminal(self.game, hot_seat=self.hot_seat)

    def run(self) -> int:
        """Play to the end (or until a human quits). Returns the exit code."""
        state = self.game.new_initial_state()
        quit_early = False
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state = state.resolve_chance(self.rng)
                continue
            seat = state.current_player
            if self.hot_seat and self.screen is not None and self.screen != seat:
                self.hide_screen()
            self.say_all(self.text.round_lines(state))
            bot = self.seats[seat].bot
            if bot is None:
                next_state = self.human_turn(state, seat)
                if next_state is None:
                    quit_early = True
                    break
                state = next_state
            else:
                state = self.act(state, seat, bot.choose(self.game, state.view(seat)))
                if not state.is_terminal():
                    self.pause()
        if quit_early:
            self.say(_("Game abandoned."))
        else:
            self.say_all(self.text.game_over(state))
        if self.save is not None and not self.write_record(state):
            return 1
        return 0

    def pause(self) -> None:
        """Wait ``delay`` seconds after a bot's move, so that people can follow the game."""
        if self.delay > 0:
            time.sleep(self.delay)

    def act(self, state: StateAPI, seat: int, action: int) -> StateAPI:
        """Apply a move and the rolls that belong to it; narrate it and any reveal."""
        before = state
        state = state.apply_action(action)
        while state.current_player == CHANCE and self.text.rolls_in_move(state):
            state = state.apply_action(state.sample_chance(self.rng))
        if self.hot_seat and self.screen == seat and state.current_player != seat:
            self.hide_screen()
        self.say_all(self.text.move_lines(before, state, seat, action))
        return state

    def write_record(self, state: StateAPI) -> bool:
        """Save the game record (``--save``), even of a game left before its end; whether it
        was saved (if not, an error on standard error: the path was checked before the game,
        but a disk may fill up or a folder go away)."""
        assert self.save is not None
        try:
            text = dumps_record(self.family.record_from_state(state))
            self.save.write_text(text, encoding="utf-8")
        except (OSError, LiarsDiceError) as e:
            reason = os_reason(e) if isinstance(e, OSError) else str(e)
            said = _("Cannot save the game to {path}: {reason}.").format(
                path=self.save, reason=reason
            )
            click.echo(_("Error: {message}").format(message=said), err=True)
            return False
        self.say(_("Game record saved to {path}.").format(path=escape(str(self.save))))
        return True

    def human_turn(self, state: StateAPI, seat: int) -> StateAPI | None:
        """Prompt a human until they make a legal move; None when they quit."""
        text = self.text
        seat_name = text.name(seat)
        if self.hot_seat and self.screen != seat:
            self.say(_("Pass the screen to {name}.").format(name=seat_name))
            ready = _("{name}, press Enter when only you can see the screen:")
            if self.read(ready.format(name=seat_name)) is None:
                return None
            self.screen = seat
        self.say_all(text.turn_lines(state, seat))
        if self.hints and text.hints_on_turn(state):
            self.say_all(text.hint(state, seat))
        while True:
            prompt = text.prompt(state, seat)
            asked = _("{name}, {prompt}").format(name=seat_name, prompt=prompt)
            line = self.read(asked if self.hot_seat else sentence(prompt))
            if line is None:
                return None
            answer = text.answer(state, seat, line)
            self.say_all(answer.lines)
            if answer.command == "quit":
                return None
            if answer.command == "help":
                self.say_all(text.help())
            elif answer.command == "hint":
                self.say_all(text.hint(state, seat))
            elif answer.command == "status":
                self.say_all(text.status(state, seat))
            if answer.state is not None:
                state = answer.state
            if answer.action is not None:
                state = self.act(state, seat, answer.action)
                for action in answer.then:  # the same player's next steps, said on one line
                    if state.current_player != seat or action not in state.legal_actions():
                        break
                    state = self.act(state, seat, action)
                return state
