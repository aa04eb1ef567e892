"""The gettext catalogues as the tests read them, straight from the files: no English fallback,
so an entry a language lacks reads "" here (the kiosk itself would show the English)."""

from __future__ import annotations

from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from kiosk.words import i18n

TRANSLATED = tuple(lang for lang in i18n.LANGS if lang != "en")


@cache
def catalog(lang: str) -> Catalog:
    """`lang`'s .po file."""
    with i18n.po_path(lang).open("rb") as file:
        return read_po(file, locale=lang.replace("-", "_"))


@cache
def words(lang: str) -> dict[str, str]:
    """key -> `lang`'s text ("" where untranslated or fuzzy); an entry with a plural, its last
    form (English: the msgid_plural), which has every placeholder the count fills."""
    out = {}
    for message in catalog(lang):
        if not message.id:
            continue
        if lang == "en":
            out[message.context] = message.id[-1] if message.pluralizable else message.id
        else:
            text = message.string[-1] if message.pluralizable else message.string
            out[message.context] = "" if message.fuzzy else text
    return out
