"""Which catalogue keys the code asks for: the extraction method `pybabel extract` runs
(babel.cfg) over the Python modules, the Jinja templates and the JS pages.

The code asks by key, `t("table.honba", lang)` (or `K.t("table.honba")`, `{{ t('table.honba') }}`),
not by its English, so the English lives in the English catalogue, `locale/en/`; extracting
writes the template `locale/messages.pot` with each entry a file asks for (its English and
translator notes from the English catalogue, its places in the code) and none that nothing asks
for. A key a file asks for that the English catalogue lacks stops the extraction, naming the
key and the file: write its English there first. Keys are found as `t("table.honba")`, both
keys of `t("fu.tsumo" if c else "fu.base")` and `t(c ? "han" : "fu")`, every entry under a
built key's prefix (`t("abort." + kind)`, `t('opt.' ~ name)`, `t(f"tile.{suit}")`), and any
string literal that is a key or a key's prefix (`key = "base.formula"`, `"preset." + name`).
The names of the rules core's values that the kiosk shows (`yaku.`, `limit.`, `wind.`) are
found too, but left out of the template: the rules core's catalogue holds them (scorer/locale/).
docs/translating.md has the commands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any

from kiosk.words import i18n

_CALL = re.compile(r"""(?<![\w.])(?:i18n\.|K\.)?t\(\s*(f?)(["'])([^"'\n]*)\2\s*(\S?)""")
_PY_EITHER = re.compile(r"""(?<![\w.])t\(\s*["']([\w.]+)["'] if [^\n]+? else ["']([\w.]+)["']""")
_JS_EITHER = re.compile(r"""(?<![\w.])t\([^()"'\n]*\?\s*["']([\w.]+)["']\s*:\s*["']([\w.]+)["']""")
_F_FIELD = re.compile(r"\{[^}]*\}")
_KEY = re.compile(r"[\w.]+")
_LITERAL = re.compile(r"""(["'])([\w.]+)\1""")


class UnknownKey(LookupError):
    """A key the code asks for and the template has no English for."""


def asked(text: str, known: frozenset[str] = frozenset()) -> Iterator[tuple[int, str, bool]]:
    """(line, key or prefix, whether it is a prefix) for each key `text` asks for: in a call of
    `t`, or any string literal that is a `known` key or ends in "." and starts known keys
    (`key = "base.formula"`, `"preset." + name`, a template's `words('opt.' ~ name)`)."""
    def line(at: int) -> int:
        return text.count("\n", 0, at) + 1

    for found in _CALL.finditer(text):
        f, literal, after = found[1], found[3], found[4]
        if after in ("+", "~") or (f and "{" in literal):
            yield line(found.start()), _F_FIELD.split(literal)[0], True
        elif _KEY.fullmatch(literal):
            yield line(found.start()), literal, False
    for either in (_PY_EITHER, _JS_EITHER):
        for found in either.finditer(text):
            yield line(found.start()), found[1], False
            yield line(found.start()), found[2], False
    for found in _LITERAL.finditer(text):
        literal = found[2]
        if literal in known:
            yield line(found.start()), literal, False
        elif literal.endswith(".") and any(k.startswith(literal) for k in known):
            yield line(found.start()), literal, True


def keys(text: str) -> tuple[set[str], set[str]]:
    """(keys written out, prefixes of built keys) that `text` asks for."""
    written: set[str] = set()
    prefixes: set[str] = set()
    for _, key, prefix in asked(text):
        (prefixes if prefix else written).add(key)
    return written, prefixes


def extract_keys(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: dict[str, Any]) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Babel's extraction method: each key `fileobj` asks for, as pgettext(key, English) or
    npgettext(key, English, English plural), with the English catalogue's notes for
    translators."""
    entries = i18n.entries()
    own = i18n.kiosk_keys()
    notes = _notes()
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, key, prefix in asked(text, frozenset(entries)):
        wanted = ([k for k in entries if k.startswith(key)] if prefix
                  else [key] if key in entries else [])
        if not wanted:
            what = "no entry starts with" if prefix else "no English for"
            raise UnknownKey(f"{getattr(fileobj, 'name', '?')}:{lineno}: {what} {key!r}: "
                             f"write it in {i18n.po_path('en')} first")
        for k in wanted:
            if k not in own:  # a name the rules core's catalogue holds (scorer/locale/)
                continue
            entry = entries[k]
            if entry.plural is None:
                yield lineno, "pgettext", (k, entry.english), notes.get(k, [])
            else:
                yield lineno, "npgettext", (k, entry.english, entry.plural), notes.get(k, [])


def _notes() -> dict[str, list[str]]:
    from babel.messages.pofile import read_po

    with i18n.po_path("en").open("rb") as file:
        return {m.context: list(m.auto_comments) for m in read_po(file) if m.auto_comments}
