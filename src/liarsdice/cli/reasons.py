"""Why something failed, as other layers say it in English, said in the language in use.

The commands show reasons that come from below them: the operating system's (a file that
cannot be read: ``No such file or directory``), the research bots' for not playing some rules
(``nash``, ``learned``), the exact solver's, the training's, Ray's and the server's database
claim. None of those layers speaks through the catalogue (the bots, the solver and the core
stay in English, docs/I18N.md), so each table here lists their sentences as messages with
``{placeholders}`` (:class:`Sentences`): a reason that matches one is said in the language in
use, with what the placeholders stood for (translated in turn where a table says how); any
other is shown as it was said. An operating system's error is named by its ``errno``
(:func:`os_reason`).

>>> from liarsdice.i18n import using
>>> with using("es"):
...     BOT_REFUSALS.say("they cover up to 5 dice each")
...     BOT_REFUSALS.say("its rules lack no exact call, stash=none")
...     os_reason(FileNotFoundError(2, "No such file or directory"))
'cubren hasta 5 dados cada uno'
'a sus reglas les falta: sin calzo, stash=none'
'no existe el archivo o la carpeta'
>>> os_reason(FileNotFoundError(2, "No such file or directory"))
'No such file or directory'
"""

from __future__ import annotations

import errno
import re
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from liarsdice.families.terminal import rules_error_text
from liarsdice.i18n import DEFAULT, N_, _, current

__all__ = [
    "BOT_REFUSALS",
    "LEARN_ERRORS",
    "RAY_ERRORS",
    "SOLVER_ERRORS",
    "SPEC_ERRORS",
    "STORE_ERRORS",
    "Sentences",
    "os_reason",
    "pattern",
]


def pattern(message: str) -> re.Pattern[str]:
    """A message with ``{placeholders}`` as a regular expression that captures them (a
    placeholder said twice must stand for the same text both times).

    >>> pattern("{name} ranks {faces} faces; keep --faces {faces}").fullmatch(
    ...     "'snyd' ranks 6 faces; keep --faces 6").groupdict()
    {'name': "'snyd'", 'faces': '6'}
    """
    seen: set[str] = set()
    regex = []
    for i, part in enumerate(re.split(r"\{([a-z_]+)\}", message)):
        if i % 2 == 0:
            regex.append(re.escape(part))
        elif part in seen:
            regex.append(f"(?P={part})")
        else:
            seen.add(part)
            regex.append(f"(?P<{part}>.+?)")
    return re.compile("".join(regex), re.DOTALL)


@dataclass(frozen=True)
class Sentences:
    """English sentences another layer says (messages marked with ``N_``): :meth:`say` says
    one in the language in use. ``parts`` says how the text of a placeholder is said in turn
    (a list of needs, an error inside an error); ``otherwise`` how a sentence that matches none
    is said (as it is, by default)."""

    messages: tuple[str, ...]
    parts: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    otherwise: Callable[[str], str] = str

    @cached_property
    def patterns(self) -> tuple[tuple[re.Pattern[str], str], ...]:
        return tuple((pattern(message), message) for message in self.messages)

    def say(self, text: str) -> str:
        """``text`` in the language in use when it is one of the messages; else
        ``otherwise(text)``."""
        for regex, message in self.patterns:
            match = regex.fullmatch(text)
            if match is not None:
                values = {
                    name: self.parts.get(name, str)(value)
                    for name, value in match.groupdict().items()
                }
                return _(message).format(**values)
        return self.otherwise(text)


# -------------------------------------------------------------------- the operating system
# The reasons people meet (strerror's English on Linux): any other is shown as the system
# says it; in English the system's own words are kept (another system words them its way).
_ERRNO = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.ENOTEMPTY: N_("Directory not empty"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EIO: N_("Input/output error"),
    errno.EMFILE: N_("Too many open files"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.ECONNREFUSED: N_("Connection refused"),
}
# The resolver's reasons (``socket.gaierror``: a host name that cannot be looked up).
_RESOLVER = {
    socket.EAI_NONAME: N_("Name or service not known"),
    socket.EAI_AGAIN: N_("Temporary failure in name resolution"),
}


def os_reason(error: OSError | UnicodeDecodeError) -> str:
    """Why a file (or a socket) could not be used, in the language in use: the system's
    reason, or for a file that is not text, which byte is not UTF-8."""
    if isinstance(error, UnicodeDecodeError):
        byte = f"0x{error.object[error.start]:02x}"
        return _("it is not UTF-8 text (byte {byte} at position {position})").format(
            byte=byte, position=error.start
        )
    said = error.strerror or str(error)
    table = _RESOLVER if isinstance(error, socket.gaierror) else _ERRNO
    message = table.get(error.errno) if error.errno is not None else None
    if message is None or current() == DEFAULT:
        return said
    return _(message)


# ------------------------------------------------------------------- the bots and the solver
# What a rules object lacks for a basic round (core/bidding/basic.py and solve/tree.py's
# check_supported): the ones in words; an option's setting (stash=none) is notation.
_NEEDS = (
    N_("two players"),
    N_("a total bid order (not monotone)"),
    N_("no exact call"),
    N_("player 0 opening (first_opener=given)"),
)


def _needs_text(needs: str) -> str:
    """A list of needs ("two players, stash=none") in the language in use."""
    return ", ".join(_(n) if n in _NEEDS else n for n in needs.split(", "))


SOLVER_ERRORS = Sentences(
    (
        # solve/tree.py
        N_("the exact solver needs a two-player single-round game; {name} lacks: {needs}"),
        N_("{name} has wild face {wild}, more than {faces} faces"),
        N_("{name} ranks {faces} faces; keep --faces {faces}"),
        N_(
            "{rules} with dice {dice} and {faces} faces has {bids} bids: a public tree of "
            "2^{bids} = {nodes} bid histories x {rolls} rolls, about {gib} GiB of arrays in "
            "float32 (limit {limit} GiB; max_bytes raises it); use fewer faces or dice"
        ),
        # solve/cfr.py
        N_("the solver needs about {gib} GiB in {dtype} (limit {limit} GiB)"),
    ),
    parts={"needs": _needs_text},
    otherwise=rules_error_text,
)
"""The exact solver's reasons for not solving a game (``liarsdice solve``; ``nash``)."""

BOT_REFUSALS = Sentences(
    (
        # bots/bidding/learned.py and nets/rounds.py
        N_(
            "no learned strategies for {rules} with {faces} faces (liarsdice learn rounds "
            "learns them; net=FILE plays them)"
        ),
        N_("they are for two-player games only"),
        N_("its rules lack {needs}"),
        N_("they were learned for {rules} with {faces} faces"),
        N_("they cover up to {dice} dice each"),
        # bots/bidding/nash.py
        N_("its policy was solved for other rules or dice"),
        N_(
            "it plays only what the exact solver solves, and {rules} with dice {dice} and "
            "{faces} faces is too large for it (fewer dice or faces)"
        ),
        N_("it plays only what the exact solver solves: {error}"),
    ),
    parts={"needs": _needs_text, "error": SOLVER_ERRORS.say},
)
"""Why a bot cannot play some rules (:meth:`~liarsdice.bots.base.BaseBot.cannot_play`)."""

SPEC_ERRORS = Sentences(
    (
        # arena.py's check_spec
        N_("bot {name} cannot play {rules} with {players} players: {why}"),
        N_("games must not be negative, not {games}"),
    ),
    parts={"why": BOT_REFUSALS.say},
    otherwise=rules_error_text,
)
"""Why bots cannot play the games of ``arena`` and ``selfplay``."""

LEARN_ERRORS = Sentences(
    (
        # learn/positions.py
        N_("{path} is not this version's data: use another --out"),
        N_("{path} holds {n} games a seat count, not {games}: use another --out"),
        N_("no rounds of two seats or more to learn from"),
        # learn/rounds.py
        N_("{folder} holds a run with other settings ({names}): use another folder"),
        N_("{rules}: the round learner needs every bid open to the opener"),
    ),
    otherwise=SPEC_ERRORS.say,
)
"""Why ``liarsdice learn`` cannot train."""

RAY_ERRORS = Sentences(
    (
        # parallel/
        N_("--ray needs Ray, which is not installed: {hint}"),
        N_("Ray is not available: {hint}"),
        N_(
            "no Ray cluster is running here: start one with 'ray start --head', give its "
            "address, or use --ray local"
        ),
        N_("cannot reach a Ray cluster at {address}: {error}"),
    )
)
"""Why the games cannot run on Ray (``--ray``)."""


# Who holds the database (server/claim.py).
_HOLDERS = Sentences(
    (
        N_("another server (pid {pid})"),
        N_("another server"),
        N_("another store in this process"),
    )
)

STORE_ERRORS = Sentences(
    (
        # server/claim.py
        N_(
            "the database {database} is in use by {holder}: one server per database. Stop the "
            "other server, or start this one with another --db."
        ),
    ),
    parts={"holder": _HOLDERS.say},
)
"""Why ``liarsdice serve`` cannot use its database."""
