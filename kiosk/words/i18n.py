"""The kiosk's words, looked up by key in gettext catalogues: `t(key, lang, **vars)`.

Each language is one catalogue, `locale/<lang>/LC_MESSAGES/kiosk.po`: each entry the stable key
the code asks for as its ``msgctxt``, the English as its ``msgid`` (and ``msgid_plural`` where a
count ``n`` chooses the wording), the language's words as its ``msgstr``; translators edit them
with their own tools (Poedit, Weblate), and the ``Plural-Forms`` header carries the language's
plural rule. English is the source language: its catalogue (`locale/en/`, msgstr left empty) is
where a new entry's English is written; `locale/messages.pot` is the template extracted from
the code (kiosk/words/extract.py) that the other catalogues are updated from. At start each
``.po`` is compiled to ``.mo`` in memory (Babel) and read by the standard library's `gettext`.
How to extract, translate, compile and add a language: docs/translating.md.

The words of the rules core's values and problems (`yaku.<id>`, `limit.<limit>`, `wind.<n>`,
tiles, fu items, melds, rulesets, `err.<problem code>`) are the rules core's catalogue's
(`scorer/locale/`, `scorer.words.shared`), which its command line speaks too: the kiosk reads
them from there, as if they were its own, and writes them nowhere else.

`t` falls back to English, then to the key itself, so a missing translation shows up as
readable English rather than an error; `{name}` placeholders are filled from vars.

>>> t("table.sticks", n=2), t("table.sticks", n=1), t("table.sticks", "ja", n=1)
('2 riichi sticks', '1 riichi stick', '供託1本')
>>> unknown = "no.such.key"
>>> t("limit.yakuman", "zh-Hans"), t(unknown, "ja")
('役满', 'no.such.key')
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scorer.words import SCORER, shared

LOCALE = Path(__file__).with_name("locale")
DOMAIN = "kiosk"
TEMPLATE = LOCALE / "messages.pot"
#: Each language the pages offer, by the id the session, `<html lang>` and the config use
#: (BCP 47), with its own name for the language switcher. Its catalogue's folder is the id as
#: gettext writes locales (`zh-Hans` -> `zh_Hans`).
LANGUAGES = {"en": "English", "ja": "日本語", "zh-Hans": "中文"}
LANGS = tuple(LANGUAGES)
#: CLDR's plural categories in the order Babel numbers a catalogue's plural forms
#: (babel.plural.to_gettext), so that a page picks the form a count needs by `Intl.PluralRules`.
PLURAL_TAGS = ("zero", "one", "two", "few", "many", "other")


class CatalogueError(ValueError):
    """A catalogue that cannot be read, naming the file and what is wrong."""


@dataclass(frozen=True)
class Entry:
    """One entry's English, and its English plural where a count chooses."""

    english: str
    plural: str | None = None


def po_path(lang: str) -> Path:
    return LOCALE / lang.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(path: Path, locale: str | None = None) -> Any:
    from babel.messages.pofile import PoFileError, read_po

    try:
        with path.open("rb") as file:
            return read_po(file, locale=locale, abort_invalid=True)
    except (OSError, PoFileError, ValueError) as error:
        raise CatalogueError(f"{path}: {error}") from error


def _names(catalog: Any) -> list[Any]:
    """The entries of the rules core's catalogue the kiosk shows: the names of its values."""
    return [m for m in catalog if m.id and shared(m.context)]


@cache
def entries() -> dict[str, Entry]:
    """Every key with its English (the English catalogues' msgids): the kiosk's, and the names
    the rules core's catalogue holds."""
    out: dict[str, Entry] = {}
    for path in (po_path("en"), SCORER.po_path("en")):
        catalog = _read(path, "en")
        for message in catalog if path == po_path("en") else _names(catalog):
            if not message.id:
                continue
            if not message.context:
                raise CatalogueError(f"{path}: {message.id!r} has no key (msgctxt)")
            if path != po_path("en") and message.context in out:
                raise CatalogueError(f"{path}: {message.context!r} is in {po_path('en')} too")
            if isinstance(message.id, tuple):
                out[message.context] = Entry(message.id[0], message.id[1])
            else:
                out[message.context] = Entry(message.id)
    return out


@cache
def kiosk_keys() -> frozenset[str]:
    """The keys of the kiosk's own catalogue (not the rules core's names)."""
    return frozenset(m.context for m in _read(po_path("en"), "en") if m.id)


@dataclass(frozen=True)
class Compiled:
    """One language's catalogue compiled: gettext's lookups, and each plural entry's forms in
    the order of the language's plural rule (for the pages)."""

    translations: gettext.NullTranslations
    forms: dict[str, tuple[str, ...]]
    plural_tags: tuple[str, ...]


@cache
def compiled(lang: str) -> Compiled:
    """`lang`'s catalogue compiled to .mo and read by gettext (English: its msgids as they are)."""
    from babel import Locale
    from babel.messages.mofile import write_mo

    if lang not in LANGUAGES:
        raise CatalogueError(f"no language {lang!r} (known: {', '.join(LANGS)})")
    rule = Locale.parse(lang.replace("-", "_")).plural_form
    tags = tuple(tag for tag in PLURAL_TAGS if tag in rule.tags | {"other"})
    if lang == "en":
        forms = {k: (e.english, e.plural) for k, e in entries().items() if e.plural is not None}
        return Compiled(gettext.NullTranslations(), forms, tags)
    catalog = _read(po_path(lang), lang.replace("-", "_"))
    names = _read(SCORER.po_path(lang), lang.replace("-", "_"))
    for path, read in ((po_path(lang), catalog), (SCORER.po_path(lang), names)):
        if read.num_plurals != len(tags):
            raise CatalogueError(f"{path}: Plural-Forms has {read.num_plurals} forms; "
                                 f"{lang} has {len(tags)} ({', '.join(tags)})")
    for message in _names(names):
        catalog.add(message.id, message.string, context=message.context, flags=message.flags)
    mo = io.BytesIO()
    write_mo(mo, catalog)  # fuzzy and empty entries left out: they fall back to English
    mo.seek(0)
    forms = {}
    for message in catalog:
        if message.id and isinstance(message.id, tuple):
            done = all(message.string) and not message.fuzzy
            forms[message.context] = tuple(message.string) if done else message.id
    return Compiled(gettext.GNUTranslations(mo), forms, tags)


#: Browser language tags read as Simplified Chinese (Traditional ones, zh-TW, zh-HK, zh-Hant, are
#: not: there is no Traditional catalogue, and the kiosk's language serves them instead).
_SIMPLIFIED = ("zh", "zh-cn", "zh-sg", "zh-my", "zh-hans")


def negotiate(tags: Iterable[str]) -> str | None:
    """The first of a browser's languages (Accept-Language, most wanted first) the pages speak.

    >>> negotiate(["zh-TW", "zh-CN", "en"]), negotiate(["ja-JP"]), negotiate(["ko", "fr"])
    ('zh-Hans', 'ja', None)
    """
    for tag in tags:
        tag = tag.strip().lower().replace("_", "-")
        primary = tag.split("-")[0]
        if primary == "zh":
            if tag in _SIMPLIFIED or tag.startswith("zh-hans"):
                return "zh-Hans"
        elif primary in LANGUAGES:
            return primary
    return None


def load() -> None:
    """Compile every catalogue now (at start), so a broken one stops the kiosk, named."""
    entries()
    for lang in LANGS:
        compiled(lang)


def has(key: str) -> bool:
    return key in entries()


def t(key: str, lang: str = "en", **values: Any) -> str:
    """The entry `key` in `lang` with its {values} filled in; an entry with a plural takes the
    form the count `n` needs (without `n`, the language's last form)."""
    entry = entries().get(key)
    if entry is None:
        text = key
    else:
        words = compiled(lang if lang in LANGUAGES else "en")
        if entry.plural is None:
            text = words.translations.pgettext(key, entry.english)
        elif isinstance(values.get("n"), int):
            text = words.translations.npgettext(key, entry.english, entry.plural, values["n"])
        else:
            text = words.forms[key][-1]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@cache
def catalogue(lang: str) -> dict[str, str | list[str]]:
    """Every entry in one language, for the browser scripts: a text, or a plural entry's forms
    (app.js picks one by `plural_tags(lang)` and `Intl.PluralRules`). Made once a language: the
    pages only read it."""
    words = compiled(lang)
    return {key: list(words.forms[key]) if key in words.forms else t(key, lang)
            for key in entries()}


def plural_tags(lang: str) -> tuple[str, ...]:
    """The CLDR plural category of each of `lang`'s plural forms, in order."""
    return compiled(lang).plural_tags
