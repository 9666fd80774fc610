"""The message catalogues (``src/liarsdice/i18n/locale``, docs/I18N.md): every message the code
says is in every language's ``.po``, translated, not fuzzy, with the placeholders of its English
and every plural form; the compiled ``.mo`` is what the ``.po`` compiles to; the build has
nothing left to write."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("babel")  # the catalogues' build is a development tool

from liarsdice.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR, translation, using
from liarsdice.i18n.build import (
    catalog_json,
    compile_mo,
    extract,
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


def test_english_is_the_code_itself() -> None:
    with using("en"):
        assert translation("terminal", "en").gettext("Game abandoned.") == "Game abandoned."
    with pytest.raises(ValueError, match="unknown language"), using("xx"):
        pass
