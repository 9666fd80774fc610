"""The game's texts in other languages: GNU gettext catalogues, read with the standard library.

The catalogues live beside this module, one per domain and language:
``locale/<lang>/LC_MESSAGES/<domain>.po`` (the source, edited by translators), the ``.mo``
compiled from it (what the game reads; ``python -m liarsdice.i18n.build`` writes it) and
``locale/<domain>.pot`` (the template, every message the code says). English is the language of
the code: its messages are the msgids, so English needs no catalogue.

The language in use is a context variable (one per thread and task): :func:`using` sets it for
a block, and :func:`_`, :func:`ngettext`, :func:`pgettext` and :func:`npgettext` translate with
it. Nothing here is needed by the rules core: only the terminal (``families/*/terminal.py``,
``cli/``) speaks through it; the ``browser`` catalogue is read by the page itself, as JSON
(``server/static/i18n.js``, docs/I18N.md).

>>> with using("es"):
...     _("Game abandoned."), ngettext("{n} die", "{n} dice", 3).format(n=3)
('Partida abandonada.', '3 dados')
>>> _("Game abandoned.")
'Game abandoned.'
>>> language_from_env({"LANG": "es_ES.UTF-8"}), language_from_env({"LANGUAGE": "fr:es"})
('es', 'es')
>>> language_from_env({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}), language_from_env({})
('en', 'en')
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = [
    "DEFAULT",
    "DOMAINS",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "_",
    "current",
    "language_from_env",
    "ngettext",
    "npgettext",
    "pgettext",
    "translation",
    "using",
]

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "en"
LANGUAGES = ("en", "es")
"""The languages the game speaks: English (the code's own) and the ones with catalogues."""
DOMAINS = ("terminal", "browser")
"""The catalogues: ``terminal`` (``liarsdice play`` and the commands' messages) and ``browser``
(the browser client, ``server/static``: read by the page as JSON, never by this module)."""
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is read from, in gettext's order: the first one set decides."""

_LANG: ContextVar[str] = ContextVar("liarsdice_language", default=DEFAULT)


def normalize(tag: str) -> str | None:
    """The language of a locale name or language tag (``es_ES.UTF-8``, ``es-AR``: ``es``), if
    the game speaks it; ``C`` and ``POSIX`` are English.

    >>> normalize("es_ES.UTF-8"), normalize("es-419"), normalize("C.UTF-8"), normalize("fr")
    ('es', 'es', 'en', None)
    """
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return DEFAULT
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str]) -> str:
    """The language of the environment, as gettext reads it: the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set (``LANGUAGE`` may list several,
    ``fr:es``: the first the game speaks wins); English when none names a language it speaks."""
    for var in ENV_VARS:
        value = environ.get(var, "")
        if not value:
            continue
        for tag in value.split(":"):
            lang = normalize(tag) if tag else None
            if lang is not None:
                return lang
        if var != "LANGUAGE":  # LANGUAGE falls through to the locale; a locale decides
            return DEFAULT
    return DEFAULT


@cache
def translation(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``domain`` in ``lang`` (English, or a language without a
    catalogue: the messages as they are)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)


def current() -> str:
    """The language in use."""
    return _LANG.get()


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (the language before it again after)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
    token = _LANG.set(lang)
    try:
        yield lang
    finally:
        _LANG.reset(token)


def _terminal() -> gettext.NullTranslations:
    return translation("terminal", _LANG.get())


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _terminal().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that agrees with the count ``n``, in the language in use."""
    return _terminal().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, told apart from the same English by ``context``
    (``pgettext("face", "six")`` and ``pgettext("number", "six")``)."""
    return _terminal().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return _terminal().npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (a table of messages
    translated where it is used: ``_(message)``)."""
    return message
