"""`python -m vision`'s words: gettext catalogues, ``locale/<lang>/LC_MESSAGES/vision.po``, read
as the rules core reads its own (`scorer.words`: the standard library's gettext, no Babel), in
the language of ``--language`` or the environment, English by default (docs/translating.md).

Every command speaks them: its output (``--json`` keeps its English keys and values, which other
tools read), its errors and its ``--help``, whose language is found before the parser is built
(`language_in`). Tables line up in any language: a wide (CJK) character counts two columns.

>>> VISION.t("read.tiles", n=1, parts="1 in the hand"), VISION.t("read.dora", "ja", n=2)
('1 tile read: 1 in the hand', 'ドラ表示牌2枚')
>>> cell("再現率", 8, right=True), cell("recall", 8), cut("学習に使用", 5)
('  再現率', 'recall  ', '学習')
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from scorer.words import LANGS, Catalogues, language, language_option

VISION = Catalogues("vision", Path(__file__).with_name("locale"))


def language_in(argv: Sequence[str] | None) -> str:
    """The language a command will speak, found before its parser is built so that ``--help``
    speaks it too: the last ``--language`` in `argv` (the process's arguments where None), else
    the environment's; a value the parser will refuse reads as English here."""
    before = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    before.add_argument("--language")
    try:
        option = before.parse_known_args(None if argv is None else list(argv))[0].language
    except argparse.ArgumentError:  # --language without its value: the parser will say so
        option = None
    return language(option)


def add_language(parser: argparse.ArgumentParser, lang: str, everywhere: bool = False) -> None:
    """``--language LANG`` on `parser`, its help in `lang` (`scorer.words.add_language_option`);
    `everywhere`: on a command's parser, where a choice made before the command stays."""
    parser.add_argument("--language", type=language_option, metavar="LANG",
                        default=argparse.SUPPRESS if everywhere else None,
                        help=VISION.t("help.language", lang, langs=", ".join(LANGS)))


def columns(text: str) -> int:
    """The columns `text` takes in a terminal: a wide (CJK) character two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` columns."""
    while columns(text) > width:
        text = text[:-1]
    return text


def cell(text: str, width: int, right: bool = False) -> str:
    """`text` padded with spaces to `width` columns, on the left where `right` (numbers)."""
    space = " " * max(0, width - columns(text))
    return space + text if right else text + space


#: Punctuation that never starts a line of Japanese or Chinese (kinsoku): kept on the line before.
_NO_LINE_START = frozenset("、。，．・：；！？）」』】ー")


class HelpWords(argparse.HelpFormatter):
    """argparse's help with argparse's own words in `lang` too (the usage line's prefix, the
    sections' titles, ``-h``'s help; the rest is the parser's, from the catalogue), wrapped by
    columns where a line has wide characters (which have no spaces to wrap at)."""

    _TITLES = {"positional arguments": "help.positional", "options": "help.options"}

    def __init__(self, prog: str, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self.lang = lang

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[Any], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups,
                          VISION.t("help.usage", self.lang) if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        key = self._TITLES.get(heading or "")
        super().start_section(VISION.t(key, self.lang) if key else heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if "--help" in action.option_strings:
            return VISION.t("help.help", self.lang)
        return super()._get_help_string(action)

    def _split_lines(self, text: str, width: int) -> list[str]:
        if columns(text) == len(text):
            return super()._split_lines(text, width)
        lines = [""]
        for token in re.findall(r" |[!-~]+|\S", " ".join(text.split())):  # ASCII words whole
            if (lines[-1].strip() and token != " " and token not in _NO_LINE_START
                    and columns(lines[-1] + token) > width):
                lines.append(token)
            elif token != " " or lines[-1]:
                lines[-1] += token
        return [line.rstrip() for line in lines]

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if columns(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


def help_words(lang: str) -> Callable[..., argparse.HelpFormatter]:
    """A ``formatter_class`` whose help speaks `lang`."""
    return partial(HelpWords, lang=lang)


def command(sub: Any, name: str, lang: str, described: bool = False) -> argparse.ArgumentParser:
    """The parser of command `name` on ``python -m vision``'s sub-parsers, its help the
    catalogue's ``help.<name>`` in `lang` (and its description ``help.<name>.description``
    where `described`)."""
    key = "help." + name.replace("-", "_")
    return sub.add_parser(name, help=VISION.t(key, lang), formatter_class=help_words(lang),
                          description=VISION.t(key + ".description", lang) if described else None)
