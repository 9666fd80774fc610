"""``GET /api/rules`` and ``GET /api/rules/{preset}``: the rules in words, in a language.

The page's rules (the lobby's preset picker, the room's rules dialog) are the terminal's
sentences: each family writes them once, from the rules object (``families/*/plain.py``), in
the language asked for (``?lang=es``). A room's changed options (``?options=`` with the room's
``options`` object as JSON) change their sentences, so the dialog never says both the preset's
default and the change. An unknown preset and options the rules refuse are said in the language
asked for; a malformed query (an unknown language, options that are not a JSON object) in
English.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter

from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import FAMILIES, family_of
from liarsdice.families.terminal import rules_error_text
from liarsdice.i18n import DEFAULT, LANGUAGES, _, using
from liarsdice.server.http.common import fail

router = APIRouter()

MAX_OPTIONS = 2000
"""The longest ``options`` query the endpoint reads (characters of JSON)."""


def _language(lang: str) -> str:
    """The language asked for; a 400 naming it and the languages there are."""
    if lang not in LANGUAGES:
        raise fail(
            400,
            "bad_language",
            f"unknown language {lang[:20]!r}; languages: {', '.join(LANGUAGES)}",
        )
    return lang


def _options(text: str) -> dict[str, Any]:
    """The room's options from the query (a JSON object); a 400 saying what is wrong (in
    English: the page always sends its room's options as they came)."""
    if len(text) > MAX_OPTIONS:
        message = f"the options are too long: at most {MAX_OPTIONS} characters of JSON"
        raise fail(400, "bad_options", message)
    try:
        options = json.loads(text)
    except ValueError:
        raise fail(400, "bad_options", "the options are not JSON") from None
    if not isinstance(options, dict):
        raise fail(400, "bad_options", "the options must be a JSON object of name: value")
    return options


@router.get("/api/rules")
async def every_preset(lang: str = DEFAULT) -> dict[str, Any]:
    """Every preset's rules in words: ``{"lang", "presets": {name: rules text}}`` (each the
    family's ``rules_text``: ``preset``, ``family``, ``description``, ``changed``, ``rules``)."""
    with using(_language(lang)):
        texts = {n: f.rules_text(r) for f in FAMILIES for n, r in f.presets.items()}
    return {"lang": lang, "presets": texts}


@router.get("/api/rules/{preset}")
async def one_preset(preset: str, lang: str = DEFAULT, options: str = "{}") -> dict[str, Any]:
    """One preset's rules in words with the room's ``options`` (JSON, as the room's frame has
    them): 404 for an unknown preset, 400 for options the rules refuse (the reason in the
    language asked for)."""
    with using(_language(lang)):
        try:
            family = family_of(preset)
        except LiarsDiceError:
            message = _("unknown rules {name}; presets: {presets}").format(
                name=repr(preset[:40]), presets=", ".join(n for f in FAMILIES for n in f.presets)
            )
            raise fail(404, "unknown_preset", message) from None
        try:
            rules = family.rules(preset, _options(options))
        except LiarsDiceError as err:
            raise fail(400, "bad_options", rules_error_text(str(err))) from None
        return {"lang": lang, **family.rules_text(rules)}


__all__ = ["router"]
