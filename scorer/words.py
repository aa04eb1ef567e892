"""The command lines' words in gettext catalogues, read by the standard library only.

A catalogue is one ``.po`` file a language, ``<locale>/<lang>/LC_MESSAGES/<domain>.po``: each entry
the stable key the code asks for as its ``msgctxt``, the English as its ``msgid`` (and
``msgid_plural`` where a count ``n`` chooses the wording), the language's words as its ``msgstr``;
the ``Plural-Forms`` header carries the language's plural rule. The rules core's own catalogue,
``scorer/locale/``, owns the words of the rules core's values and problems (``yaku.<id>``,
``limit.<limit>``, ``wind.<n>``, tiles, fu items, melds, ``err.<problem code>``: `shared`), which
the kiosk's pages read from it too, and those of ``python -m scorer`` (``cli.*``);
``vision/locale/`` has ``python -m vision``'s (docs/translating.md).

The rules core uses the standard library only (ARCHITECTURE.md), so Babel, which the kiosk uses to
extract and check its catalogues, is not needed here: at first use each ``.po`` is compiled to
``.mo`` in memory (`mo_bytes`, as GNU msgfmt writes it) and read by `gettext.GNUTranslations`,
whose ``pgettext`` / ``npgettext`` pick the entry and its plural form. Fuzzy and empty entries
are left out, so they fall back to the English; an unknown key reads as the key itself.

>>> SCORER.t("yaku.riichi", "ja"), SCORER.t("yaku.pinfu", "zh-Hans"), SCORER.t("limit.mangan")
('立直', '平和', 'Mangan')
>>> SCORER.t("cli.han", "en", n=1), SCORER.t("cli.han", "en", n=3), SCORER.t("cli.han", "ja", n=3)
('1 han', '3 han', '3翻')
>>> language("ja"), language(environ={"LANG": "zh_CN.UTF-8"}), language(environ={"LANG": "C"})
('ja', 'zh-Hans', 'en')
"""

from __future__ import annotations

import argparse
import gettext
import io
import os
import re
import struct
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: The languages of the catalogues, by their BCP 47 id (the kiosk's `<html lang>` and
#: ``--language``); a catalogue's folder is the id as gettext writes locales (``zh_Hans``).
LANGS = ("en", "ja", "zh-Hans")


class CatalogueError(ValueError):
    """A catalogue that cannot be read, naming the file, the line and what is wrong."""


@dataclass(frozen=True)
class Message:
    """One entry of a ``.po`` file."""

    context: str | None
    id: str
    plural: str | None = None
    strings: tuple[str, ...] = ()
    fuzzy: bool = False
    comments: tuple[str, ...] = field(default=(), compare=False)


_LINE = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"(.*)"\s*$')
_MORE = re.compile(r'"(.*)"\s*$')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unescape(text: str, where: str) -> str:
    def one(found: re.Match[str]) -> str:
        if found[1] not in _ESCAPES:
            raise CatalogueError(f"{where}: unknown escape \\{found[1]}")
        return _ESCAPES[found[1]]
    return re.sub(r"\\(.)", one, text)


def read_po(path: Path) -> list[Message]:
    """Every entry of a ``.po`` file, the header (``msgid ""``) first; a line that is not
    gettext stops it, naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise CatalogueError(f"{path}: {error}") from error
    out: list[Message] = []
    parts: dict[str, str] = {}
    flags: set[str] = set()
    comments: list[str] = []
    last = ""

    def close() -> None:
        if "msgid" in parts:
            strings = tuple(parts[k] for k in sorted(
                (k for k in parts if k.startswith("msgstr")), key=lambda k: (len(k), k)))
            out.append(Message(parts.get("msgctxt"), parts["msgid"], parts.get("msgid_plural"),
                               strings, "fuzzy" in flags, tuple(comments)))
        elif parts:
            raise CatalogueError(f"{path}: an entry without msgid before line {number}")
        parts.clear()
        flags.clear()
        comments.clear()

    number = 0
    for number, line in enumerate(lines, 1):
        where = f"{path}:{number}"
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            if "msgid" in parts and any(k.startswith("msgstr") for k in parts):
                close()
            if stripped.startswith("#,"):
                flags.update(f.strip() for f in stripped[2:].split(","))
            elif stripped.startswith("#.") or stripped.startswith("# "):
                comments.append(stripped[2:].strip())
            continue
        found = _LINE.match(stripped)
        if found:
            keyword = found[1]
            if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in parts):
                close()
            if keyword in parts:
                raise CatalogueError(f"{where}: {keyword} twice in one entry")
            parts[keyword] = _unescape(found[3], where)
            last = keyword
            continue
        more = _MORE.fullmatch(stripped)
        if more and last in parts:
            parts[last] += _unescape(more[1], where)
            continue
        raise CatalogueError(f"{where}: not a gettext line: {stripped[:40]!r}")
    close()
    return out


def mo_bytes(messages: Iterable[Message]) -> bytes:
    """The messages as a GNU ``.mo`` file (little-endian, no hash table), as msgfmt writes it:
    fuzzy and untranslated entries left out, the header kept."""
    table: dict[bytes, bytes] = {}
    for m in messages:
        if m.fuzzy and m.id or not m.strings or not all(m.strings):
            continue
        key = m.id if m.plural is None else f"{m.id}\0{m.plural}"
        if m.context is not None:
            key = f"{m.context}\x04{key}"
        table[key.encode()] = "\0".join(m.strings).encode()
    keys = sorted(table)
    start = 7 * 4 + 16 * len(keys)
    ids = b"".join(k + b"\0" for k in keys)
    offsets: list[int] = []
    at = 0
    for k in keys:
        offsets += [len(k), start + at]
        at += len(k) + 1
    strings_at = start + len(ids)
    at = 0
    string_offsets: list[int] = []
    for k in keys:
        value = table[k]
        string_offsets += [len(value), strings_at + at]
        at += len(value) + 1
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return (head + struct.pack(f"<{len(offsets)}I", *offsets)
            + struct.pack(f"<{len(string_offsets)}I", *string_offsets) + ids
            + b"".join(table[k] + b"\0" for k in keys))


@dataclass(frozen=True)
class Entry:
    """One key's English, and its English plural where a count chooses."""

    english: str
    plural: str | None = None


@dataclass(frozen=True)
class Catalogues:
    """One domain's catalogues, a ``.po`` per language under `locale`."""

    domain: str
    locale: Path

    def po_path(self, lang: str) -> Path:
        return self.locale / lang.replace("-", "_") / "LC_MESSAGES" / f"{self.domain}.po"

    def entries(self) -> dict[str, Entry]:
        """Every key with its English (the English catalogue's msgids)."""
        return _entries(self)

    def translations(self, lang: str) -> gettext.NullTranslations:
        """`lang`'s catalogue compiled and read by gettext (English: a NullTranslations, which
        gives the msgids as they are)."""
        return _translations(self, lang)

    def load(self) -> None:
        """Read every catalogue now, so a broken one stops the program, named."""
        self.entries()
        for lang in LANGS:
            self.translations(lang)

    def has(self, key: str) -> bool:
        return key in self.entries()

    def t(self, key: str, lang: str = "en", **values: Any) -> str:
        """The entry `key` in `lang` with its {values} filled in; an entry with a plural takes
        the form the count `n` needs; an unknown key reads as itself."""
        entry = self.entries().get(key)
        if entry is None:
            text = key
        else:
            words = self.translations(lang if lang in LANGS else "en")
            if entry.plural is None:
                text = words.pgettext(key, entry.english)
            else:
                text = words.npgettext(key, entry.english, entry.plural, int(values.get("n", 2)))
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text


@cache
def _entries(catalogues: Catalogues) -> dict[str, Entry]:
    path = catalogues.po_path("en")
    out: dict[str, Entry] = {}
    for message in read_po(path):
        if not message.id:
            continue
        if message.context is None:
            raise CatalogueError(f"{path}: {message.id!r} has no key (msgctxt)")
        if message.context in out:
            raise CatalogueError(f"{path}: {message.context!r} twice")
        out[message.context] = Entry(message.id, message.plural)
    return out


@cache
def _translations(catalogues: Catalogues, lang: str) -> gettext.NullTranslations:
    if lang not in LANGS:
        raise CatalogueError(f"no language {lang!r} (known: {', '.join(LANGS)})")
    if lang == "en":
        return gettext.NullTranslations()
    path = catalogues.po_path(lang)
    try:
        return gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(path))))
    except (OSError, ValueError) as error:  # e.g. a Plural-Forms gettext cannot read
        raise CatalogueError(f"{path}: {error}") from error


SCORER = Catalogues("scorer", Path(__file__).with_name("locale"))
#: The rules core's command line's own keys. Every other key of its catalogue names one of its
#: values or problems (``yaku.``, ``limit.``, ``wind.``, ``tile.``, ``fu.``, ``meld.``,
#: ``blessing.``, ``ruleset.``, ``err.<problem code>``): the one place their words are written,
#: which the kiosk's pages read too (kiosk.words.i18n).
COMMAND_LINE = "cli."


def shared(key: str | None) -> bool:
    """Whether a key of the rules core's catalogue is one the kiosk reads too."""
    return bool(key) and not str(key).startswith(COMMAND_LINE)


def known(tag: str) -> str | None:
    """The catalogues' language for a locale or language tag (``ja_JP.UTF-8``, ``zh-CN``,
    ``zh_Hans``), or None: Simplified Chinese for zh, zh-CN, zh-SG and zh-Hans, none for the
    Traditional zh-TW, zh-HK and zh-Hant; English for C and POSIX."""
    tag = tag.split(".")[0].split("@")[0].strip().lower().replace("_", "-")
    primary = tag.split("-")[0]
    if tag in ("c", "posix") or primary == "en":
        return "en"
    if primary == "ja":
        return "ja"
    if primary == "zh" and (tag in ("zh", "zh-cn", "zh-sg", "zh-my")
                            or tag.startswith("zh-hans")):
        return "zh-Hans"
    return None


def language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language a command line speaks: its ``--language``, else the environment's as gettext
    reads it (the first set of LANGUAGE, a colon-separated list, LC_ALL, LC_MESSAGES and LANG;
    the first of its languages we have), else English."""
    if option:
        return known(option) or "en"
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return next((lang for tag in value.split(":") if (lang := known(tag))), "en")
    return "en"


def language_option(text: str) -> str:
    """An argparse type for ``--language``: en, ja or zh-Hans (or a tag that names one)."""
    lang = known(text)
    if lang is None:
        raise argparse.ArgumentTypeError(f"{text!r}: the languages are {', '.join(LANGS)}")
    return lang


def add_language_option(parser: argparse.ArgumentParser, everywhere: bool = False,
                        lang: str = "en", words: Catalogues = SCORER,
                        key: str = "cli.help.language") -> None:
    """``--language LANG`` on `parser`, its help the entry `key` of `words` in `lang`.
    `everywhere`: on a subcommand's parser, where a choice made before the subcommand's name
    stays when this one is not given."""
    parser.add_argument("--language", type=language_option, metavar="LANG",
                        default=argparse.SUPPRESS if everywhere else None,
                        help=words.t(key, lang, langs=", ".join(LANGS)))


def columns(text: str) -> int:
    """The columns `text` takes in a terminal, a wide (CJK) character counting two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded with spaces to `width` columns, a wide (CJK) character counting two, so
    that columns of Japanese or Chinese names line up as English ones do; on the left where
    `right` (numbers, and the heads above them)."""
    space = " " * max(0, width - columns(text))
    return space + text if right else text + space
