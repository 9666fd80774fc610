"""Terminal plumbing of the game front end: output, hot-seat hiding, input."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import click
from rich.console import Console

HIDE_LINES = 40  # blank lines that scroll one player's private dice off a hot-seat screen


class SeatLike(Protocol):
    """What the terminal needs to know about a seat."""

    @property
    def human(self) -> bool: ...


class Terminal:
    """Line-mode console I/O for one table; the game session subclasses it."""

    def __init__(self, seats: Sequence[SeatLike], console: Console) -> None:
        self.console = console
        self.hot_seat = sum(1 for s in seats if s.human) >= 2
        self.screen: int | None = None  # the human whose private dice may be on screen

    def say(self, text: str = "") -> None:
        self.console.print(text, highlight=False)

    def say_all(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(line)

    def hide_screen(self) -> None:
        """Scroll the previous player's private information away (hot-seat games)."""
        if self.console.is_terminal:
            self.console.clear()
        self.console.file.write("\n" * HIDE_LINES)
        self.console.file.flush()
        self.screen = None

    def read(self, prompt: str) -> str | None:
        """One line of input; None at end of input or on Ctrl-C/Ctrl-D (after ending the
        prompt's line, so that what is printed next starts a line of its own)."""
        try:
            answer: str = click.prompt(
                prompt, default="", show_default=False, prompt_suffix=" ", err=False
            )
        except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
            click.echo()
            return None
        return answer
