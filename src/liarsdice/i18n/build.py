"""Build the catalogues (a development command; it needs babel, the ``dev`` extra):

    python -m liarsdice.i18n.build           # extract, update every .po, compile every .mo
    python -m liarsdice.i18n.build --check   # change nothing; exit 1 if anything would change

For each domain of :data:`SOURCES` it extracts the messages of its source files (the keywords
of :data:`KEYWORDS`) into ``locale/<domain>.pot``, merges the template into each language's
``locale/<lang>/LC_MESSAGES/<domain>.po`` (new messages come in untranslated, messages the code
no longer says go), compiles the ``.mo`` the game reads and, for a domain of
:data:`JSON_OUTPUT`, writes each language's catalogue as JSON for the browser
(:func:`catalog_json`). Translators edit the ``.po`` files only; everything else is written
here. The runtime reads the ``.mo`` files with the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import argparse
import gettext
import html
import io
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from liarsdice.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = [
    "JSON_OUTPUT",
    "KEYWORDS",
    "SOURCES",
    "catalog_json",
    "compile_mo",
    "extract",
    "extract_html",
    "json_path",
    "main",
    "read_catalog",
    "same_content",
]

PACKAGE = Path(__file__).resolve().parent.parent  # src/liarsdice: source paths start here
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
"""The translation functions of :mod:`liarsdice.i18n` (babel's keyword specifications)."""
SOURCES: dict[str, list[tuple[str, Any]]] = {
    "terminal": [("cli/**.py", "python"), ("families/**.py", "python")],
    "browser": [
        ("server/static/*.js", "javascript"),
        ("server/static/index.html", "liarsdice.i18n.build:extract_html"),
    ],
}
"""Each domain's source files (glob patterns under ``src/liarsdice``) and babel's extraction
method for them (``python``; ``javascript`` for the browser's scripts; :func:`extract_html`
for the page's own text)."""
JSON_OUTPUT: dict[str, Path] = {"browser": PACKAGE / "server" / "static" / "i18n-{lang}.json"}
"""Where each browser domain's catalogues go as JSON: a path with ``{lang}`` in its name (the
server serves ``static/`` as one flat folder: ``static/i18n-es.json``)."""
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # in the headers: no churn at each build
PROJECT = "liarsdice"


def _po_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def extract(domain: str) -> Catalog:
    """Every message the domain's source files say, as a template catalogue."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(
        project=PROJECT, domain=domain, creation_date=FIXED_DATE, revision_date=FIXED_DATE
    )
    template.header_comment = f"# Messages of liarsdice's {domain} (written by the build)."
    method_map = SOURCES[domain]
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE,
        method_map=method_map,
        # the javascript extractor reads the calls inside `...${_("...")}...` too
        options_map={pattern: {"parse_template_string": "true"} for pattern, _m in method_map},
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


_SQUASH = re.compile(r"\s+")


class _PageText(HTMLParser):
    """The messages of a page: the text (or, ``data-i18n="html"``, the markup) of each element
    with ``data-i18n`` and the attributes that ``data-i18n-attrs`` names, whitespace squashed
    as ``static/i18n.js`` squashes it before looking them up."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lines = [0]
        for line in source.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[tuple[str, int, int, bool, int]] = []  # tag, depth, start, html, line
        self.depth = 0
        self.found: list[tuple[int, str]] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        line = self.getpos()[0]
        for name in (found.get("data-i18n-attrs") or "").split():
            if found.get(name):
                self.found.append((line, _SQUASH.sub(" ", found[name] or "").strip()))
        if tag in _VOID:
            return
        self.depth += 1
        if "data-i18n" in found:
            start = self._offset() + len(self.get_starttag_text() or "")
            self.open.append((tag, self.depth, start, found["data-i18n"] == "html", line))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self.open and self.open[-1][0] == tag and self.open[-1][1] == self.depth:
            _tag, _depth, start, markup, line = self.open.pop()
            inner = self.source[start : self._offset()]
            text = inner if markup else html.unescape(re.sub(r"<[^>]*>", "", inner))
            self.found.append((line, _SQUASH.sub(" ", text).strip()))
        self.depth -= 1


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method for ``index.html`` (see :class:`_PageText`); babel passes
    the keywords, comment tags and options of every method (none of them apply here)."""
    del keywords, comment_tags, options
    parser = _PageText(fileobj.read().decode("utf-8"))
    parser.feed(parser.source)
    parser.close()
    for line, message in parser.found:
        if message:
            yield line, "_", message, []


def read_catalog(domain: str, lang: str) -> Catalog:
    """A language's ``.po`` file of ``domain``."""
    from babel.messages.pofile import read_po

    with _po_path(domain, lang).open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def _po_text(catalog: Catalog, *, template: bool = False) -> bytes:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(
        out,
        catalog,
        width=100,
        include_lineno=False,
        ignore_obsolete=True,
        sort_output=True,
        omit_header=False,
    )
    return out.getvalue()


def compile_mo(catalog: Catalog) -> bytes:
    """The compiled ``.mo`` of a catalogue (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


_GENERATED = re.compile(rb'^"?Generated-By: [^\n]*\n', re.MULTILINE)


def _mo_messages(data: bytes) -> dict[Any, Any]:
    """A compiled catalogue's messages (its header without the babel version that wrote it)."""
    catalog = dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]
    header = catalog.get("", "")
    catalog[""] = re.sub(r"Generated-By: [^\n]*\n", "", header)
    return catalog


def same_content(path: Path, content: bytes) -> bool:
    """Whether the file at ``path`` says what ``content`` says: the same bytes but for the
    ``Generated-By`` header (the version of babel that wrote it), or for a ``.mo`` the same
    messages."""
    if not path.exists():
        return False
    old = path.read_bytes()
    if path.suffix == ".mo":
        return _mo_messages(old) == _mo_messages(content)
    return _GENERATED.sub(b"", old) == _GENERATED.sub(b"", content)


def catalog_json(catalog: Catalog) -> dict[str, Any]:
    """A catalogue as the browser reads it: ``{"language", "plural" (the C expression of the
    plural form of a count ``n``), "messages"}``; a message's key is its msgid (with its
    context first and ``\\u0004`` between, as in a ``.mo``), its value the translation, or the
    list of plural forms. Untranslated and fuzzy messages are left out (the English stays)."""
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        key = f"{message.context}\x04{msgid}" if message.context else msgid
        if isinstance(message.string, (list, tuple)):
            if all(message.string):
                messages[key] = list(message.string)
        elif message.string:
            messages[key] = message.string
    plural = catalog.plural_expr
    return {"language": str(catalog.locale), "plural": plural, "messages": messages}


def json_path(domain: str, lang: str) -> Path:
    """The JSON catalogue of a browser domain in ``lang``."""
    template = JSON_OUTPUT[domain]
    return template.with_name(template.name.format(lang=lang))


def _outputs(domain: str) -> dict[Path, bytes]:
    """Every file the build writes for ``domain``, and its content."""
    template = extract(domain)
    files = {LOCALE_DIR / f"{domain}.pot": _po_text(template, template=True)}
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = _po_path(domain, lang)
        if path.exists():
            catalog = read_catalog(domain, lang)
        else:
            from babel.messages.catalog import Catalog

            catalog = Catalog(locale=lang, domain=domain, project=PROJECT)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.creation_date = FIXED_DATE
        catalog.revision_date = FIXED_DATE
        catalog.fuzzy = False
        files[path] = _po_text(catalog)
        from babel.messages.pofile import read_po

        merged = read_po(io.BytesIO(files[path]), locale=lang, domain=domain)
        files[path.with_suffix(".mo")] = compile_mo(merged)
        if domain in JSON_OUTPUT:
            text = json.dumps(catalog_json(merged), ensure_ascii=False, indent=1, sort_keys=True)
            files[json_path(domain, lang)] = (text + "\n").encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m liarsdice.i18n.build", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for domain in DOMAINS:
        for path, content in _outputs(domain).items():
            if same_content(path, content):
                continue
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(PACKAGE.parent)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
