"""Terminal plumbing of the game front end: output, hot-seat hiding, input."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

import click
from rich.console import Console

# markup (and Spanish's opening ¡ or ¿), then a lower-case word
_START = re.compile(r"((?:\[[a-z /#]+\])*[¡¿]?)([a-z][^ ]*)")
HIDE_LINES = 40  # blank lines that scroll one player's private dice off a piped hot-seat output
WIPE = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, clear the scrollback (``ESC[3J``): a terminal that keeps its
scrollback would otherwise let the next hot-seat player scroll up to the previous one's dice."""


class SeatLike(Protocol):
    """What the terminal needs to know about a seat."""

    @property
    def human(self) -> bool: ...


class Terminal:
    """Line-mode console I/O for one table; the game session subclasses it."""

    def __init__(
        self, seats: Sequence[SeatLike], console: Console, *, names: Sequence[str] = ()
    ) -> None:
        self.console = console
        self.names = tuple(names)  # the players' names: a line may start with one as it is
        self.hot_seat = sum(1 for s in seats if s.human) >= 2
        self.screen: int | None = None  # the human whose private dice may be on screen

    def say(self, text: str = "") -> None:
        self.console.print(self.sentence(text), highlight=False)

    def sentence(self, line: str) -> str:
        """``line`` starting with a capital, as a sentence does: ``you open.`` is ``You open.``,
        ``can't read ...`` ``Can't read ...``; a line that starts with a player's name keeps the
        name as it was typed (``ann bids 3x4.``), and indented lines (lists) are left alone.

        >>> t = Terminal([], Console(), names=["ann", "you"])
        >>> t.sentence("you open."), t.sentence("ann opens."), t.sentence("[red]face 9[/red]")
        ('You open.', 'ann opens.', '[red]Face 9[/red]')
        >>> t.sentence("  you: 1 2"), t.sentence("your move"), t.sentence("ann's dice")
        ('  you: 1 2', 'Your move', "ann's dice")
        >>> t.sentence("¡tú ganas!"), t.sentence("[bold]¿tu jugada?[/bold]")
        ('¡Tú ganas!', '[bold]¿Tu jugada?[/bold]')
        """
        match = _START.match(line)
        if match is None:
            return line
        word = match.group(2)
        named = any(word == n or word.startswith((f"{n}'", f"{n},", f"{n}:")) for n in self.names)
        if named and word not in ("you", "your", "you're"):
            return line
        start = match.start(2)
        return line[:start] + line[start].upper() + line[start + 1 :]

    def say_all(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(line)

    def hide_screen(self) -> None:
        """Wipe the previous player's private information (hot-seat games): on a terminal the
        screen and its scrollback (:data:`WIPE`), so that scrolling up shows nothing of it;
        piped output has no screen to wipe, so it is pushed away by blank lines."""
        file = self.console.file
        file.write(WIPE if self.console.is_terminal else "\n" * HIDE_LINES)
        file.flush()
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
