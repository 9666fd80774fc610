"""Terminal plumbing shared by the game front ends: output, names, hot-seat hiding, input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import click
from rich.console import Console
from rich.markup import escape

HIDE_LINES = 40  # blank lines that scroll one player's private dice off a hot-seat screen


class SeatLike(Protocol):
    """What the terminal needs to know about a seat."""

    @property
    def name(self) -> str: ...

    @property
    def human(self) -> bool: ...


def pct(p: float) -> str:
    """A probability as a short percentage (``<1%``/``>99%`` instead of 0%/100% when not sure).

    >>> pct(0.5), pct(0.001), pct(0.999), pct(1.0)
    ('50%', '<1%', '>99%', '100%')
    """
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p:.0%}"


class Terminal:
    """Line-mode console I/O for one table; game sessions subclass it."""

    def __init__(self, seats: Sequence[SeatLike], console: Console) -> None:
        self._seat_names = [s.name for s in seats]
        self.console = console
        self.hot_seat = sum(1 for s in seats if s.human) >= 2
        self.screen: int | None = None  # the human whose private dice may be on screen

    def say(self, text: str = "") -> None:
        self.console.print(text, highlight=False)

    def name(self, seat: int) -> str:
        return escape(self._seat_names[seat])

    def _you(self, seat: int) -> bool:
        return self._seat_names[seat].lower() == "you"

    def verb(self, seat: int, third: str, second: str) -> str:
        """``"prob-1 bids"`` or ``"you bid"``."""
        return f"{self.name(seat)} {second if self._you(seat) else third}"

    def whose(self, seat: int) -> str:
        """``"prob-1's"`` or ``"your"``."""
        return "your" if self._you(seat) else f"{self.name(seat)}'s"

    def hide_screen(self) -> None:
        """Scroll the previous player's private information away (hot-seat games)."""
        if self.console.is_terminal:
            self.console.clear()
        self.console.file.write("\n" * HIDE_LINES)
        self.console.file.flush()
        self.screen = None

    def read(self, prompt: str) -> str | None:
        """One line of input; None at end of input or on Ctrl-C/Ctrl-D."""
        try:
            answer: str = click.prompt(
                prompt, default="", show_default=False, prompt_suffix=" ", err=False
            )
        except (click.exceptions.Abort, EOFError, KeyboardInterrupt):
            return None
        return answer
