"""`python -m vision`'s words: gettext catalogues, ``locale/<lang>/LC_MESSAGES/vision.po``, read
as the rules core reads its own (`scorer.words`: the standard library's gettext, no Babel), in
the language of ``--language`` or the environment, English by default (docs/translating.md).

Every command speaks them: its output (``--json`` keeps its English keys and values, which other
tools read), its errors and its ``--help``, whose language is found before the parser is built
(`scorer.cli_help.language_in`) and whose formatter is the rules core's command line's
(`scorer.cli_help.help_words`, argparse's own words from this catalogue's ``help.*``). Tables
line up in any language: a wide (CJK) character counts two columns (`scorer.words.pad`).

What vision's values hold stays words-free (a `Reading` is its tiles and groups, each problem a
`vision.problems.Problem`: a catalogue key and values, a `TeachingLayout`'s `Mismatch` its
counts; a problem is worded by `vision.problems.problem_words`); the functions here word them:
`counts` and `summary` a reading, `mismatch` a teaching photo's count that differs from its
order.

>>> VISION.t("read.tiles", n=1, parts="1 in the hand"), VISION.t("read.dora", "ja", n=2)
('1 tile read: 1 in the hand', 'ドラ表示牌2枚')
>>> cut("学習に使用", 5), cut("trained on", 7)
('学習', 'trained')
>>> from vision.teach import Mismatch
>>> [mismatch(Mismatch("row", 2, 3, row=1, span="1m..3m"), lang) for lang in ("en", "ja")]
['row 1 (1m..3m): 2 tiles found, 3 expected', '1列目（1m..3m）に2枚（3枚のはず）']
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scorer.cli_help import help_words
from scorer.words import add_language_option, columns
from vision.catalogue import VISION

if TYPE_CHECKING:
    from vision.reading import Reading
    from vision.teach import Mismatch


def add_language(parser: argparse.ArgumentParser, lang: str, everywhere: bool = False) -> None:
    """``--language LANG`` on `parser`, its help in `lang` (`scorer.words.add_language_option`
    with this catalogue's ``help.language``); `everywhere`: on a command's parser, where a
    choice made before the command stays."""
    add_language_option(parser, everywhere, lang, VISION, "help.language")


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` columns."""
    while columns(text) > width:
        text = text[:-1]
    return text


def help_formatter(lang: str) -> Callable[..., argparse.HelpFormatter]:
    """A parser's ``formatter_class`` whose help speaks `lang`: the rules core's command line's
    (`scorer.cli_help.help_words`), argparse's own words from this catalogue's ``help.usage``,
    ``help.positional``, ``help.options`` and ``help.help``."""
    return help_words(lang, words=VISION, prefix="help.")


def command(sub: Any, name: str, lang: str, described: bool = False) -> argparse.ArgumentParser:
    """The parser of command `name` on ``python -m vision``'s sub-parsers, its help the
    catalogue's ``help.<name>`` in `lang` (and its description ``help.<name>.description``
    where `described`)."""
    key = "help." + name.replace("-", "_")
    return sub.add_parser(name, help=VISION.t(key, lang), formatter_class=help_formatter(lang),
                          description=VISION.t(key + ".description", lang) if described else None)


def counts(reading: Reading, lang: str = "en") -> str:
    """`18 tiles read: 14 in the hand (each kan counted as 3), 3 dora indicators, 1 apart`:
    the counts a problem such as "9 tiles in the hand" speaks of, in `lang`."""
    g = reading.grouping
    parts = [VISION.t("read.in_hand", lang, n=reading.in_hand())]
    if any(m.kind.value in ("minkan", "ankan", "kakan") for m in g.melds):
        parts[0] = VISION.t("read.kan", lang, in_hand=parts[0])
    if g.dora:
        parts.append(VISION.t("read.dora", lang, n=len(g.dora)))
    if g.unassigned:
        parts.append(VISION.t("read.apart", lang, n=len(g.unassigned)))
    return VISION.t("read.tiles", lang, n=len(reading.tiles),
                    parts=VISION.t("read.separator", lang).join(parts))


def summary(reading: Reading, lang: str = "en") -> str:
    """The hand read, compactly, in mpsz labels: concealed tiles, winning tile, melds and dora
    indicators, `lang`'s words for the winning tile (``win 5p``, ``和了牌 5p``), each kind of
    meld (``pon[5z 5z 5z]``, ``ポン[5z 5z 5z]``, ``碰[...]``) and the dora; in English, as
    check-kernels' ``--json`` and the kiosk's log keep it."""
    g = reading.grouping

    def labels(indices: tuple[int, ...]) -> str:
        return " ".join(reading.labels(indices))

    parts = [labels(g.concealed) or "-"]
    if g.winning is not None:
        parts.append(VISION.t("read.summary.win", lang, tile=reading.tiles[g.winning].label))
    for m in g.melds:
        parts.append(VISION.t("read.summary." + m.kind.value, lang, tiles=labels(m.tiles)))
    if g.dora:
        parts.append(VISION.t("read.summary.dora", lang, tiles=labels(g.dora)))
    return " | ".join(parts)


def mismatch(problem: Mismatch, lang: str = "en") -> str:
    """A count of a teaching photo that differs from its order, in `lang`, in the kiosk's
    words (``16枚見つかりました（2枚のはず）``); in English, as `TeachingLayout.problems` has it."""
    return VISION.t("teach.mismatch." + problem.what, lang, n=problem.found, found=problem.found,
                    expected=problem.expected, row=problem.row, span=problem.span)


