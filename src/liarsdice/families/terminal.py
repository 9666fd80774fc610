"""The terminal front end's family-specific parts (``liarsdice play``), and their shared text.

``liarsdice play`` runs one game loop for every family and does all the reading and printing
(``liarsdice.cli.session``). What differs between families is text and the reading of a human's
input, so a family's :meth:`~liarsdice.families.base.Family.terminal` returns a
:class:`GameTerminal` for one game: it builds the lines to print (rich markup, names escaped)
from public facts and the player's own view, and reads a line of input into a move or a
command. Nothing here prints or reads.

Every sentence is a message of the ``terminal`` catalogue (:mod:`liarsdice.i18n`): English as
it is written here, or its translation in the language in use. A sentence about a player has
two messages, one for the human called ``you`` (second person) and one for everyone else
(:meth:`GameTerminal.subject`); a count agrees with its noun through ``ngettext``
(:func:`dice`, :func:`lives`, :func:`rolls`).

>>> dice(1), dice(3), lives(2), rolls(2), plural(2, "roll")
('1 die', '3 dice', '2 lives', '2 rolls', '2 rolls')
>>> dice_text([3, 5]), dice_text([])
('3 5', 'none')
>>> meta_command("?"), meta_command("look"), meta_command("liar")
('help', 'status', None)
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rich.markup import escape

from liarsdice.i18n import N_, _, ngettext, pgettext
from liarsdice.notation.grammar import is_you, plural

__all__ = [
    "CORE_REASONS",
    "CORE_RULES_ERRORS",
    "Answer",
    "GameTerminal",
    "dice",
    "dice_text",
    "lives",
    "meta_command",
    "pct",
    "plural",
    "reason_text",
    "rolls",
    "rules_error_text",
]

_META = {
    "quit": {"quit", "exit", "q", "bye"},
    "help": {"help", "?", "h", "commands"},
    "hint": {"hint", "hints", "odds"},
    "status": {"status", "look", "dice", "board", "s"},
}
# The commands' words in the language in use (besides the English ones, always understood):
# each message is the words of one command, separated by commas.
_META_WORDS = {
    "quit": N_("quit, exit, bye"),
    "help": N_("help, commands"),
    "hint": N_("hint, hints, odds"),
    "status": N_("status, look, dice, board"),
}


# Why a move is not allowed, as the rules cores say it in English (``explain_illegal`` of
# core/bidding/state.py and core/poker/state.py): each a message whose placeholders stand for
# whatever the core put there. A reason that matches one is shown in the language in use
# (reason_text); any other as the core said it.
CORE_REASONS = (
    N_("the game is over"),
    N_("after raising you may only show dice or decline (no-show)"),
    N_("there is no bid to call yet: make the opening bid"),
    N_("after showing and re-rolling you must raise the bid"),
    N_("the exact (spot-on) call is not part of these rules"),
    N_("buying dice is not part of these rules"),
    N_("you already bought a die this turn"),
    N_("you already have your {dice} starting dice"),
    N_("a die costs the pot ({pot} chips); you have {chips}"),
    N_("show-and-reroll is not part of these rules"),
    N_("you may not show and re-roll on an opening bid"),
    N_(
        "show one or more of your hidden dice and keep at least one to re-roll (your hidden "
        "dice: {dice})"
    ),
    N_("bid a poker hand now (any bid, junk included), not {what}"),
    N_("bid a poker hand higher than {bid} now, not {what}"),
    N_("junk may only be bid by Player One to open the round"),
    N_("{bid} does not beat {current}; least legal bids: {least}"),
    N_("{current} is the top bid: you must call"),
    N_(
        "{bid} needs more dice than the {cap} in play; it must beat {current} (least legal "
        "bids: {least})"
    ),
    N_("{bid} needs more dice than the {cap} in play"),
    N_(
        "palifico round: keep the face and raise the quantity: {bid} does not beat {current} "
        "(least legal bids: {least})"
    ),
    N_("the opening bid may not be on wilds ({face}s)"),
    N_("{bid} is not a legal opening bid"),
    N_("pass the cup left or right (this sets the round's direction)"),
    N_("{bid} is the top bid: nothing beats it, so you must call liar"),
    N_("first accept {bid} or call liar, not {what}"),
    N_(
        "choose which dice stay outside the cup first, e.g. 'out K K' or 'out none' (the "
        "dice: {dice})"
    ),
    N_("leave at least one die under the cup"),
    N_("five-of-a-kind challenge: choose the dice to keep, e.g. 'keep Q Q Q' (the dice: {dice})"),
    N_("re-roll at least one die"),
    N_("{chosen} are not among the dice {dice}"),
    N_(
        "decide whether to shake the cup and which outside dice to roll, e.g. 'shake', "
        "'shake reroll K', 'reroll K', 'no reroll'"
    ),
    N_("you can only roll dice that are outside the cup: {dice}"),
    N_("{what} is not legal here"),
)


@cache
def _reason_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((_pattern(message), message) for message in CORE_REASONS)


def reason_text(reason: str) -> str:
    """A rules core's reason (English) in the language in use, when it is one of
    :data:`CORE_REASONS`; else as it is.

    >>> reason_text("the exact (spot-on) call is not part of these rules")
    'the exact (spot-on) call is not part of these rules'
    >>> from liarsdice.i18n import using
    >>> with using("es"):
    ...     reason_text("first accept pair K or call liar, not 'left'")
    "primero acepta pair K o di 'dudo', no 'left'"
    """
    for pattern, message in _reason_patterns():
        match = pattern.fullmatch(reason)
        if match is not None:
            return _(message).format(**match.groupdict())
    return reason


# Why rules cannot be built, as the rules cores (and the families' option readers) say it in
# English: each a message whose placeholders stand for what the core put there. An option's
# name and values are notation (as typed), so they stay as they are; ``{takes}`` (what an
# option takes) and ``{error}`` (an error inside an error) are translated in turn.
CORE_RULES_ERRORS = (
    N_("option {name} takes {takes}, not {value}"),
    N_("unknown rule option {name}; options: {options}"),
    N_("unknown rule option {name}"),
    N_("unknown rule option(s): {names}"),
    N_("unknown bot option {name}; options: {options}"),
    N_("unknown rules {name}; presets: {presets}"),
    N_("unknown poker rules {name}; presets: {presets}"),
    N_("unknown preset {name}; presets: {presets}"),
    N_("unknown bot {name}; {family} bots: {bots}"),
    N_("bot {name}: {error}"),
    N_("bot option {pair} of {spec} is not key=value"),
    N_("{name} must be one of {choices}, not {value}"),
    N_("{name} must be a whole number, not {value}"),
    N_("players must be {low}..{high}, not {value}"),
    N_("faces must be 2..12, not {value}"),
    N_("dice must be 1..30 per player, not {value}"),
    N_("wild must be a face 1..{faces} or none, not {value}"),
    N_("face_order must rank each face 1..{faces} exactly once"),
    N_("chips and ante must not be negative"),
    N_("single-round scoring is for two players"),
    N_("all-call resolution cannot be combined with an exact call"),
    N_("dice lists {counts} counts but the game has {players} players"),
    N_("lives must be 1..99, not {value}"),
    N_("poker dice use one set of 5 dice, not {value}"),
    N_("five_of_a_kind_rule must be true or false, not {value}"),
    N_("poker dice have six faces (9, 10, J, Q, K, A): drop --faces"),
    N_("a game needs {low}..{high} players, not {value}"),
    N_("player names must be distinct and non-empty"),
)

# What an option takes, as ``Option.takes`` of core/options.py words it.
_TAKES = (
    N_("true or false"),
    N_("a whole number"),
    N_("a number"),
    N_("a text"),
    N_("a whole number or a list of whole numbers"),
    N_("a list of whole numbers"),
)


def _takes_text(takes: str) -> str:
    """What an option takes (``Option.takes``'s English) in the language in use."""
    if takes.endswith(" or none"):
        # Translators: what an option takes, or the value none ("a whole number or none").
        return _("{takes} or none").format(takes=_takes_text(takes[: -len(" or none")]))
    if takes.startswith("one of "):
        # Translators: the values an option takes, as typed ("one of ladder, perudo").
        return _("one of {values}").format(values=takes[len("one of ") :])
    return _(takes) if takes in _TAKES else takes


@cache
def _rules_error_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((_pattern(message), message) for message in CORE_RULES_ERRORS)


def _pattern(message: str) -> re.Pattern[str]:
    """A message with ``{placeholders}`` as a regular expression that captures them."""
    parts = re.split(r"\{([a-z_]+)\}", message)
    return re.compile(
        "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
    )


def rules_error_text(error: str) -> str:
    """Why rules cannot be built (a :class:`~liarsdice.core.errors.RulesError`'s English,
    one of :data:`CORE_RULES_ERRORS`) in the language in use; any other as it is.

    >>> from liarsdice.i18n import using
    >>> with using("es"):
    ...     rules_error_text("option dice takes a whole number or a list of whole numbers, not 'x'")
    "la opción dice admite un número entero o una lista de números enteros, no 'x'"
    >>> rules_error_text("players must be 2..12, not 13")
    'players must be 2..12, not 13'
    """
    for pattern, message in _rules_error_patterns():
        match = pattern.fullmatch(error)
        if match is not None:
            said = match.groupdict()
            if "takes" in said:
                said["takes"] = _takes_text(said["takes"])
            if "error" in said:
                said["error"] = rules_error_text(said["error"])
            return _(message).format(**said)
    return error


# ------------------------------------------------------------------------------ shared text
def meta_command(low: str) -> str | None:
    """The command every family understands (``quit``, ``help``, ``hint``, ``status``) that
    the normalized input ``low`` names, or None."""
    for command, words in _META.items():
        if low in words or low in words_of(_META_WORDS[command]):
            return command
    return None


def words_of(message: str) -> set[str]:
    """The words a message lists, comma-separated (input words in the language in use).

    >>> sorted(words_of(_META_WORDS["quit"]))
    ['bye', 'exit', 'quit']
    """
    return {w.strip() for w in _(message).split(",") if w.strip()}


def dice(n: int) -> str:
    """``n`` dice, in words that agree with the count (``1 die``, ``3 dice``)."""
    return ngettext("{n} die", "{n} dice", n).format(n=n)


def lives(n: int) -> str:
    """``n`` lives (``1 life``, ``2 lives``)."""
    return ngettext("{n} life", "{n} lives", n).format(n=n)


def rolls(n: int) -> str:
    """``n`` rolls (``1 roll``, ``3 rolls``)."""
    return ngettext("{n} roll", "{n} rolls", n).format(n=n)


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


def dice_text(values: Sequence[int], face: Callable[[int], str] = str) -> str:
    """Dice as their faces separated by spaces (``none`` for no dice)."""
    return " ".join(map(face, values)) if values else pgettext("dice", "none")


# ---------------------------------------------------------------------------- a human's line
@dataclass(frozen=True)
class Answer:
    """What one line of a human's input comes to.

    ``lines``: what to print first; ``command``: ``quit``, ``help``, ``hint`` or ``status``;
    ``action``: a legal move to make; ``then``: moves of the same player to make after it,
    each legal once the one before is made (one line that says two steps: poker dice's
    ``out K K K, shake``); ``state``: the state the game goes on from when the input changed
    it without a move (a question asked under house rules)."""

    lines: tuple[str, ...] = ()
    command: str | None = None
    action: int | None = None
    state: Any = None
    then: tuple[int, ...] = ()


# ------------------------------------------------------------------------- the family parts
# A call on a bid, liar (True) or exact (False), as the caller, the bidder and anyone else say
# it: the caller is the human called "you", the bidder is, neither is (GameTerminal.call_line).
_CALLS = {
    True: (
        N_("{name} call liar on {bidder}'s {bid}{tail}!"),
        N_("{name} calls liar on your {bid}{tail}!"),
        N_("{name} calls liar on {bidder}'s {bid}{tail}!"),
    ),
    False: (
        N_("{name} call exact on {bidder}'s {bid}{tail}!"),
        N_("{name} calls exact on your {bid}{tail}!"),
        N_("{name} calls exact on {bidder}'s {bid}{tail}!"),
    ),
}


class GameTerminal(ABC):
    """The text of one game at the terminal, from public facts and each player's own view.

    It keeps what narration needs to remember (the round announced, the results revealed);
    ``hot_seat``: several humans share the screen (their names go with their private lines).
    """

    def __init__(self, game: Any, *, hot_seat: bool = False) -> None:
        self.game = game
        self.rules: Any = game.rules
        self.names: tuple[str, ...] = tuple(game.names)
        self.hot_seat = hot_seat
        self.announced_round = -1
        self.reported = 0  # round results already revealed

    # ---------------------------------------------------------------------------- names
    def name(self, seat: int) -> str:
        """The seat's name as printed (the human called ``you`` in the language in use)."""
        # Translators: the name of the human player called "you" at the table.
        return self._name_or(seat, pgettext("player", "you"))

    def object_name(self, seat: int) -> str:
        """The seat's name after a preposition (``passes to you``: Spanish ``pasa a ti``)."""
        # Translators: the human player called "you" after a preposition ("to you").
        return self._name_or(seat, pgettext("player, after a preposition", "you"))

    def _name_or(self, seat: int, you: str) -> str:
        """The seat's name, or ``you`` (a translation of "you") for the human called ``you``;
        in English that human's name is kept as typed."""
        if self.you(seat) and you != "you":
            return escape(you)
        return escape(self.names[seat])

    def subject(self, seat: int, you: str, they: str, **values: object) -> str:
        """The sentence about the seat's player: the message ``you`` (second person) for the
        human called ``you``, else ``they``; ``{name}`` is the player's name.

        >>> from liarsdice.families import family_of
        >>> family = family_of("classic")
        >>> game = family.new_game(family.rules("classic", {}, players=2), ["you", "ann"])
        >>> t = family.terminal(game)
        >>> [t.subject(s, "{name} win.", "{name} wins.") for s in (0, 1)]
        ['you win.', 'ann wins.']
        """
        message = you if self.you(seat) else they
        return message.format(name=self.name(seat), **values)

    def call_line(self, seat: int, bidder: int, liar: bool, bid: str, tail: str = "") -> str:
        """``ann calls liar on your 3x5!`` (``tail``: the callers so far, before the ``!``);
        ``liar`` False: a call of exact."""
        mine, yours, theirs = _CALLS[liar]
        message = mine if self.you(seat) else yours if self.you(bidder) else theirs
        return _(message).format(name=self.name(seat), bidder=self.name(bidder), bid=bid, tail=tail)

    def you(self, seat: int) -> bool:
        """Whether the seat is the human called ``you`` (narrated in the second person)."""
        return is_you(self.names[seat])

    def by_name(self, values: Iterable[object]) -> str:
        """One value per seat: ``"ann 3, bob 5"``."""
        return ", ".join(f"{self.name(p)} {v}" for p, v in enumerate(values))

    def not_allowed(self, reason: str) -> str:
        return _("[red]Not allowed:[/red] {reason}.").format(reason=escape(reason_text(reason)))

    # ------------------------------------------------------------------- the whole game
    def banner(self, seed: int, *, prompts: bool = True, notes: Sequence[str] = ()) -> list[str]:
        """The opening lines: the rules, the table, the seed (and, when someone will be asked
        for moves, ``prompts``, how to get help), then ``notes`` on the rules (the family's
        :meth:`~liarsdice.families.base.Family.rules_notes`)."""
        first = _("Liar's Dice: {rules} rules, {players} players, {facts}seed {seed}.").format(
            rules=escape(self.rules.name),
            players=len(self.names),
            facts=self.banner_facts(),
            seed=seed,
        )
        tip = _(" Type 'help' at any prompt.") if prompts else ""
        return [first + tip, *(escape(line) for line in notes)]

    def banner_facts(self) -> str:
        """Facts of the rules for the first banner line, before the seed (``"..., "``)."""
        return ""

    def round_lines(self, state: Any) -> list[str]:
        """The header of a new round, once, when it is due (else nothing)."""
        if state.round == self.announced_round or not self.announces(state):
            return []
        self.announced_round = state.round
        title = _("[bold]=== Round {round} ===[/bold]").format(round=state.round + 1)
        return ["", title, *self.round_header(state)]

    def announces(self, state: Any) -> bool:
        """Whether a new round of ``state`` is announced now (or at a later move)."""
        return True

    @abstractmethod
    def round_header(self, state: Any) -> list[str]:
        """A new round's public facts, after its title."""

    def game_over(self, state: Any) -> list[str]:
        """The winner and the final order, and the family's final tallies."""
        lines = [""]
        winner = state.winner
        if winner is None:
            lines.append(_("The game is over without a winner."))
        else:
            lines.append(
                self.subject(
                    winner,
                    _("[bold green]{name} win the game![/bold green]"),
                    _("[bold green]{name} wins the game![/bold green]"),
                )
            )
        places = state.placements()
        order = ", ".join(f"{i + 1}. {self.name(p)}" for i, p in enumerate(places))
        lines.append(_("Final order: {order}").format(order=order))
        return lines + self.final_tallies(state)

    def final_tallies(self, state: Any) -> list[str]:
        return []

    # ----------------------------------------------------------------------------- moves
    @abstractmethod
    def rolls_in_move(self, state: Any) -> bool:
        """Whether the chance node ``state`` is a roll that belongs to the move just made
        (re-rolls): made before the move is narrated."""

    def move_lines(self, before: Any, after: Any, seat: int, action: int) -> list[str]:
        """A move from ``before`` to ``after`` (its rolls made), public facts only, and the
        reveal of any round it ended."""
        lines = self.narrate(before, after, seat, action)
        for result in after.results[self.reported :]:
            lines += self.reveal(result)
        self.reported = len(after.results)
        return lines

    @abstractmethod
    def narrate(self, before: Any, after: Any, seat: int, action: int) -> list[str]:
        """A move as everyone may hear it."""

    @abstractmethod
    def reveal(self, result: Any) -> list[str]:
        """Everything the end of a round reveals and what it cost."""

    # ------------------------------------------------------------------------- a human
    def turn_lines(self, state: Any, seat: int) -> list[str]:
        """What a human sees as their turn starts."""
        return self.status(state, seat)

    def hints_on_turn(self, state: Any) -> bool:
        """Whether ``--hints`` shows the hint as this turn starts."""
        return True

    @abstractmethod
    def status(self, state: Any, seat: int) -> list[str]:
        """The table from ``seat``'s own view, their options included."""

    @abstractmethod
    def hint(self, state: Any, seat: int) -> list[str]:
        """Odds from ``seat``'s own view, and what the prob bot would do."""

    @abstractmethod
    def help(self) -> list[str]:
        """Every command under these rules."""

    @abstractmethod
    def prompt(self, state: Any, seat: int) -> str:
        """The question asked (lower case: the seat's name may go first)."""

    @abstractmethod
    def empty_reply(self, state: Any) -> str:
        """The answer to an empty line."""

    @abstractmethod
    def parse(self, line: str) -> tuple[str, Any]:
        """A line as ``(kind, argument)``: a command of :func:`meta_command`, ``empty``,
        ``error`` (the message) or a family kind for :meth:`move`."""

    @abstractmethod
    def move(self, state: Any, seat: int, kind: str, arg: Any) -> Answer:
        """A family kind of input read into an action (or said why not)."""

    def answer(self, state: Any, seat: int, line: str) -> Answer:
        """What the line a human typed comes to; an action only when it is legal."""
        kind, arg = self.parse(line)
        if kind in _META:
            return Answer(command=kind)
        if kind == "empty":
            return Answer(lines=(self.empty_reply(state),))
        if kind == "error":
            return Answer(lines=(escape(str(arg)),))
        answer = self.move(state, seat, kind, arg)
        if answer.action is None or answer.action in state.legal_actions():
            return answer
        reason = state.explain_illegal(answer.action) or _("that move is not allowed now")
        return Answer(lines=(*answer.lines, self.not_allowed(reason)))
