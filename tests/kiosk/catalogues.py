"""The gettext catalogues as the tests read them, straight from the files: no English fallback,
so an entry a language lacks reads "" here (the kiosk itself would show the English). `words`
has the kiosk's entries and the names it reads from the rules core's catalogue
(scorer/locale/, `scorer.words.shared`)."""

from __future__ import annotations

from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from kiosk.words import i18n
from scorer.words import SCORER, shared
from vision.words import VISION

TRANSLATED = tuple(lang for lang in i18n.LANGS if lang != "en")


@cache
def catalog(lang: str, domain: str = "kiosk") -> Catalog:
    """`lang`'s .po file of the kiosk, or (`domain` "scorer", "vision") of a command line's."""
    path = {"scorer": SCORER, "vision": VISION}[domain].po_path(lang) if domain != "kiosk" \
        else i18n.po_path(lang)
    with path.open("rb") as file:
        return read_po(file, locale=lang.replace("-", "_"))


@cache
def words(lang: str) -> dict[str, str]:
    """key -> `lang`'s text ("" where untranslated or fuzzy); an entry with a plural, its last
    form (English: the msgid_plural), which has every placeholder the count fills."""
    out = {}
    names = [m for m in catalog(lang, "scorer") if shared(m.context)]
    for message in [*catalog(lang), *names]:
        if not message.id:
            continue
        if lang == "en":
            out[message.context] = message.id[-1] if message.pluralizable else message.id
        else:
            text = message.string[-1] if message.pluralizable else message.string
            out[message.context] = "" if message.fuzzy else text
    return out
