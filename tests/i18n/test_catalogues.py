"""The message catalogues (``src/liarsdice/i18n/locale``, docs/I18N.md), of both domains
(``terminal`` and ``browser``): every message the code says is in every language's ``.po``,
translated, not fuzzy, with the placeholders of its English and every plural form; the compiled
``.mo`` is what the ``.po`` compiles to; the browser's JSON (``static/i18n-<lang>.json``) is
what the ``.po`` says; the build has nothing left to write."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("babel")  # the catalogues' build is a development tool

from liarsdice.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR, translation, using
from liarsdice.i18n.build import (
    JSON_OUTPUT,
    catalog_json,
    compile_mo,
    extract,
    json_path,
    main,
    read_catalog,
    same_content,
)

CATALOGUES = [(d, lang) for d in DOMAINS for lang in LANGUAGES if lang != DEFAULT]
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sd]")


def ids(message: object) -> tuple[str, ...]:
    msgid = message.id  # type: ignore[attr-defined]
    return tuple(msgid) if isinstance(msgid, (list, tuple)) else (msgid,)


def forms(message: object) -> tuple[str, ...]:
    string = message.string  # type: ignore[attr-defined]
    return tuple(string) if isinstance(string, (list, tuple)) else (string,)


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_the_mo_is_the_compiled_po(domain: str, lang: str) -> None:
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    assert same_content(mo, compile_mo(read_catalog(domain, lang))), (
        f"{mo} is stale: run python -m liarsdice.i18n.build"
    )


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_every_message_of_the_code_is_translated(domain: str, lang: str) -> None:
    catalog = read_catalog(domain, lang)
    said = [(m.context, ids(m)[0]) for m in extract(domain) if m.id]
    assert len(said) > 100
    missing = [key for key in said if catalog.get(key[1], context=key[0]) is None]
    assert not missing, f"not in {lang}'s {domain}.po (run the build, then translate): {missing}"
    for context, msgid in said:
        message = catalog.get(msgid, context=context)
        assert not message.fuzzy, f"fuzzy in {lang}: {msgid!r}"
        assert all(forms(message)), f"untranslated in {lang}: {msgid!r}"


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_translations_keep_the_placeholders(domain: str, lang: str) -> None:
    """Each translation has every placeholder of its English and no other (a placeholder the
    English lacks would fail at ``format``); a plural message has every form."""
    catalog = read_catalog(domain, lang)
    assert catalog.num_plurals >= 2
    for message in catalog:
        if not message.id:
            continue
        english = {p for msgid in ids(message) for p in PLACEHOLDER.findall(msgid)}
        if message.pluralizable:
            assert len(forms(message)) == catalog.num_plurals, message.id
        for form in forms(message):
            assert set(PLACEHOLDER.findall(form)) == english, (message.id, form)


def test_the_build_has_nothing_to_write() -> None:
    """The template, the .po files and the .mo files are what the build writes from the code
    (a new message is in the .po, a removed one gone)."""
    assert main(["--check"]) == 0


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_the_runtime_reads_every_translation(domain: str, lang: str) -> None:
    catalog = read_catalog(domain, lang)
    gnu = translation(domain, lang)
    for message in catalog:
        if not message.id or message.pluralizable:
            continue
        if message.context:
            assert gnu.pgettext(message.context, message.id) == message.string
        else:
            assert gnu.gettext(message.id) == message.string


def test_the_browser_reads_a_catalogue_as_json() -> None:
    data = catalog_json(read_catalog("terminal", "es"))
    assert data["language"] == "es" and data["plural"] == "(n != 1)"
    messages = data["messages"]
    assert messages["Game abandoned."] == "Partida abandonada."
    assert messages["{n} die"] == ["{n} dado", "{n} dados"]
    assert messages["player\x04you"] == "tú"


BROWSER = [(d, lang) for d, lang in CATALOGUES if d in JSON_OUTPUT]
STATIC = Path(__file__).resolve().parents[2] / "src" / "liarsdice" / "server" / "static"


def test_both_domains_are_catalogued() -> None:
    assert set(DOMAINS) == {"terminal", "browser"}
    assert ("browser", "es") in BROWSER


@pytest.mark.parametrize(("domain", "lang"), BROWSER)
def test_the_browser_json_is_the_po(domain: str, lang: str) -> None:
    """The JSON the page loads says what the .po says (the build wrote it from the .po)."""
    path = json_path(domain, lang)
    assert path.parent == STATIC, "the server serves static/ as one flat folder"
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    assert on_disk == catalog_json(read_catalog(domain, lang)), (
        f"{path} is stale: run python -m liarsdice.i18n.build"
    )
    catalog = read_catalog(domain, lang)
    said = {m.id if isinstance(m.id, str) else m.id[0] for m in extract(domain) if m.id}
    keys = {key.split("\x04")[-1] for key in on_disk["messages"]}
    assert said <= keys, f"not in {path.name}: {sorted(said - keys)[:10]}"
    # i18n.js maps Intl.PluralRules' categories to as many forms as the catalogue has
    plural_forms = re.search(
        rf"{lang}: \[([^\]]*)\]", (STATIC / "i18n.js").read_text(encoding="utf-8")
    )
    assert plural_forms, f"i18n.js's PLURAL_FORMS has no {lang}"
    assert len(plural_forms.group(1).split(",")) == catalog.num_plurals


def test_the_browser_catalogue_speaks_the_terminal_words() -> None:
    """Spanish in the browser as at the terminal: dudo and calzo, bids in Spanish words."""
    messages = json.loads(json_path("browser", "es").read_text(encoding="utf-8"))["messages"]
    terminal = catalog_json(read_catalog("terminal", "es"))["messages"]
    assert messages["Liar!"] == "¡Dudo!" and messages["Exact!"] == "¡Calzo!"
    assert messages["face\x04five"] == ["cinco", "cincos"] == terminal["face\x04five"]
    assert messages["face\x04one"] == ["as", "ases"]
    assert messages["a pair of {faces}"] == terminal["a pair of {faces}"]
    assert messages["{n} die"] == ["{n} dado", "{n} dados"]
    assert messages["you\x04bid {bid}"] == "apuestas {bid}"


def test_the_page_text_is_extracted() -> None:
    """index.html's data-i18n text and attributes are messages of the browser domain."""
    said = {m.id for m in extract("browser") if isinstance(m.id, str)}
    for message in (
        "Bluff your way to the last die",
        "Leave empty for a guest name",  # a placeholder attribute
        'Rule changes <span class="hint">(one per line, e.g. <code>dice=3</code>)</span>',
        "15 seconds",
        "Language",
    ):
        assert message in said
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<select id="language"' in html and 'lang="es">Español</option>' in html


def test_english_is_the_code_itself() -> None:
    with using("en"):
        assert translation("terminal", "en").gettext("Game abandoned.") == "Game abandoned."
    with pytest.raises(ValueError, match="unknown language"), using("xx"):
        pass
