"""click's own words, and the commands' help, in the language in use.

click writes a command's ``--help`` and its usage errors in English (its words come from its
own gettext domain, which has no Spanish). The commands' classes (:mod:`liarsdice.cli.command`)
say them from our catalogue instead, with what is here:

- every help text of ours (a command's, an option's) is a message marked with ``N_`` where it
  is written and translated when the help is shown (:func:`help_text`); a help with values in
  it is written with :func:`filled`, which remembers the message and its values so that the
  translation is filled the same way;
- click's words in a help page (``Options``, ``Commands``, ``[default: ...]``, ``[required]``,
  ``Show this message and exit.``) and the names of the values options take (``TEXT``,
  ``INTEGER RANGE``, ``FILE``: :func:`metavar_text`);
- click's sentences about what it checks itself (a number out of range, an unknown option, a
  missing argument): :data:`CLICK_ERRORS`, matched as the reasons of
  :mod:`liarsdice.cli.reasons` are.

>>> from liarsdice.i18n import using
>>> with using("es"):
...     CLICK_ERRORS.say("1 is not in the range 2<=x<=12.")
...     metavar_text("INTEGER RANGE"), metavar_text("[NAME]"), metavar_text("[a|b]")
'1 no está en el rango 2<=x<=12.'
('ENTERO', '[NOMBRE]', '[a|b]')
>>> CLICK_ERRORS.say("1 is not in the range 2<=x<=12.")
'1 is not in the range 2<=x<=12.'
"""

from __future__ import annotations

import re
from typing import Any

from liarsdice.cli.reasons import Sentences
from liarsdice.i18n import N_, _, pgettext

__all__ = [
    "CLICK_ERRORS",
    "HELP_WORDS",
    "extras_text",
    "filled",
    "help_text",
    "hint_text",
    "metavar_text",
]

# click's words in a help page, as click writes them (its headings, its own options' help).
HELP_WORDS = (
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
)

_FILLED: dict[str, tuple[str, dict[str, Any]]] = {}


def filled(message: str, **values: Any) -> str:
    """``message`` (English, marked with ``N_``) with its placeholders filled; shown in another
    language, its translation is filled with the same values (:func:`help_text`)."""
    text = message.format(**values)
    _FILLED[text] = (message, values)
    return text


def help_text(text: str) -> str:
    """A help text of ours (or one of click's :data:`HELP_WORDS`) in the language in use."""
    if text in _FILLED:
        message, values = _FILLED[text]
        return _(message).format(**values)
    return _(text)


def _metavars() -> dict[str, str]:
    """The names of values in a help page, in the language in use (click's names of its types,
    and ours)."""
    return {
        "[OPTIONS]": pgettext("metavar", "[OPTIONS]"),
        "COMMAND [ARGS]...": pgettext("metavar", "COMMAND [ARGS]..."),
        "TEXT": pgettext("metavar", "TEXT"),
        "INTEGER": pgettext("metavar", "INTEGER"),
        "INTEGER RANGE": pgettext("metavar", "INTEGER RANGE"),
        "FLOAT": pgettext("metavar", "FLOAT"),
        "FLOAT RANGE": pgettext("metavar", "FLOAT RANGE"),
        "BOOLEAN": pgettext("metavar", "BOOLEAN"),
        "PATH": pgettext("metavar", "PATH"),
        "FILE": pgettext("metavar", "FILE"),
        "DIRECTORY": pgettext("metavar", "DIRECTORY"),
        "RECORD": pgettext("metavar", "RECORD"),
        "NAME": pgettext("metavar", "NAME"),
        "NAME=VALUE": pgettext("metavar", "NAME=VALUE"),
        "SECONDS": pgettext("metavar", "SECONDS"),
        "local|auto|ADDRESS": pgettext("metavar", "local|auto|ADDRESS"),
    }


def metavar_text(metavar: str) -> str:
    """The name of a value (``TEXT``, ``[NAME]``, ``FILE...``) in the language in use; a list
    of choices (``[en|es]``) and a name we do not know as they are."""
    names = _metavars()
    if metavar in names:
        return names[metavar]
    match = re.fullmatch(r"(\[?)(.*?)(\]?)((?:\.\.\.)?)", metavar)
    if match is None or match.group(2) not in names:
        return metavar
    start, name, end, more = match.groups()
    return f"{start}{names[name]}{end}{more}"


_EXTRAS = re.compile(r"(?:^|  )\[([^\[\]]*)\]$")


def extras_text(help: str) -> str:
    """An option's help as click ends it (``  [default: 5; x>=1; required]``) with click's
    words in the language in use."""
    match = _EXTRAS.search(help)
    if match is None:
        return help
    items = []
    for item in match.group(1).split("; "):
        if item.startswith("default: "):
            item = _("default: {default}").format(default=item[len("default: ") :])
        elif item == "required":
            item = _("required")
        items.append(item)
    start, end = match.span(1)
    return help[:start] + "; ".join(items) + help[end:]


def hint_text(text: str) -> str:
    """A parameter as click names it in an error (``'FILE'``, ``'--players'``) in the
    language in use."""
    if len(text) > 1 and text[0] == text[-1] == "'":
        return f"'{metavar_text(text[1:-1])}'"
    return text


# click's sentences (8.1 to 8.5) about what it checks itself, each a message whose
# placeholders stand for what click put there (values quoted as it quotes them).
CLICK_ERRORS = Sentences(
    (
        N_("{value} is not in the range {range}."),
        N_("{value} is not a valid integer."),
        N_("{value} is not a valid integer range."),
        N_("{value} is not a valid float."),
        N_("{value} is not a valid float range."),
        N_("{value} is not a valid boolean. Recognized values: {values}"),
        N_("{value} is not a valid boolean."),
        N_("{value} is not one of {choices}."),
        N_("{value} is not {choice}."),
        N_("File {path} does not exist."),
        N_("Directory {path} does not exist."),
        N_("Path {path} does not exist."),
        N_("File {path} is a directory."),
        N_("Directory {path} is a file."),
        N_("File {path} is not readable."),
        N_("File {path} is not writable."),
        N_("Directory {path} is not readable."),
        N_("Directory {path} is not writable."),
        N_("Path {path} is not readable."),
        N_("Path {path} is not writable."),
        N_("Missing argument {name}."),
        N_("Missing option {name}."),
        N_("Missing parameter {name}."),
        N_("Missing command."),
        N_("No such option: {name}"),
        N_("No such option {name}. Did you mean {possibility}?"),
        N_("No such option {name}. (Did you mean one of: {possibilities}?)"),
        N_("No such option {name}."),
        N_("No such command {name}."),
        N_("Option {name} requires an argument."),
        N_("Option {name} requires {n} arguments."),
        N_("Option {name} does not take a value."),
        N_("Got unexpected extra argument ({args})"),
        N_("Got unexpected extra arguments ({args})"),
    ),
    parts={"name": hint_text},
)
"""click's own sentences about a value or an option it refused."""
