"""A command line's ``--help`` in its catalogue's language (``python -m scorer``'s and, with its
own catalogue, ``python -m vision``'s), and its quiet end when its reader goes away.

The language is found before the parser is built (`language_in`: ``--language`` anywhere in the
arguments, else the environment's), so that every help text can be the catalogue's; `help_words`
is the parser's ``formatter_class``, which says argparse's own words (``usage:``, the sections'
titles, ``-h``'s help) from the catalogue too and wraps lines of wide (CJK) characters by the
columns they take, as they have no spaces to wrap at. English wraps as argparse always did.

>>> _wrap("牌譜を再生し、その状況と順位を表示する", 12)
['牌譜を再生し、', 'その状況と順', '位を表示する']
>>> _wrap("JSON の牌譜（docs/game-record.md）を再生", 20)
['JSON の牌譜', '（docs/game-record.md）', 'を再生']
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from scorer.words import SCORER, Catalogues, columns, language

#: What a line neither begins nor ends with in Japanese and Chinese (kinsoku): closing
#: punctuation stays on the line before, an opening bracket goes to the line after.
_NO_LINE_START = set("、。，．・：；？！）」』】〕ー")
_OPENING = "（「『【〔"


def language_in(argv: Sequence[str] | None = None) -> str:
    """The language a command line with ``--language`` will speak: the last ``--language`` in
    `argv` (the process's arguments where None), else the environment's. A value the parser
    will refuse reads as English here; the parser then says why."""
    before = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    before.add_argument("--language")
    try:
        option = before.parse_known_args(sys.argv[1:] if argv is None else list(argv))[0].language
    except argparse.ArgumentError:  # --language without its value
        option = None
    return language(option)


def _wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns: an ASCII word kept whole (a longer one
    overflows), a wide character a word of its own, punctuation kept where it belongs."""
    lines: list[str] = []
    line = ""
    for space, word in re.findall(r"(\s*)([!-~]+|\S)", text):
        joined = line + (" " if space and line else "") + word
        head = line.rstrip(_OPENING)
        if head and columns(joined) > width and word not in _NO_LINE_START:
            lines.append(head.rstrip())
            joined = line[len(head):] + word
        line = joined
    return [*lines, line] if line else lines


class HelpWords(argparse.HelpFormatter):
    """argparse's help in `lang`: argparse's own words are the entries ``<prefix>usage``,
    ``<prefix>positional``, ``<prefix>options`` and ``<prefix>help`` of `words`."""

    _TITLES = {"positional arguments": "positional", "options": "options"}

    def __init__(self, prog: str, lang: str = "en", words: Catalogues = SCORER,
                 prefix: str = "cli.help.", **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self.lang, self.words, self.prefix = lang, words, prefix

    def _t(self, key: str) -> str:
        return self.words.t(self.prefix + key, self.lang)

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[Any], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, self._t("usage") if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        key = self._TITLES.get(heading or "")
        super().start_section(self._t(key) if key else heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if "--help" in action.option_strings:
            return self._t("help")
        return super()._get_help_string(action)

    def _split_lines(self, text: str, width: int) -> list[str]:
        if columns(text) == len(text):
            return super()._split_lines(text, width)
        return _wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if columns(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in _wrap(text, width - len(indent)))


class RawHelpWords(HelpWords):
    """`HelpWords` with the description and epilog kept as written (examples, paragraphs)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


def help_words(lang: str, raw: bool = False, words: Catalogues = SCORER,
               prefix: str = "cli.help.") -> Callable[..., argparse.HelpFormatter]:
    """A parser's ``formatter_class`` whose help speaks `lang` (`raw`: the description and epilog
    as written), argparse's words from `words` under `prefix`."""
    return partial(RawHelpWords if raw else HelpWords, lang=lang, words=words, prefix=prefix)


def closed_pipe_is_quiet(run: Callable[[], int]) -> int:
    """`run()`, but a reader that goes away (`| head`) ends us quietly, as it does a Unix tool:
    no traceback, exit status 141 (what a shell reports for a tool stopped by SIGPIPE)."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at devnull so that the interpreter's own flush at exit cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
