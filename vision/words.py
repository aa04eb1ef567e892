"""`python -m vision`'s words: gettext catalogues, ``locale/<lang>/LC_MESSAGES/vision.po``, read
as the rules core reads its own (`scorer.words`: the standard library's gettext, no Babel), in
the language of ``--language`` or the environment, English by default (docs/translating.md).

Every command speaks them: its output (``--json`` keeps its English keys and values, which other
tools read), its errors and its ``--help``, whose language is found before the parser is built
(`scorer.cli_help.language_in`) and whose formatter is the rules core's command line's
(`scorer.cli_help.help_words`, argparse's own words from this catalogue's ``help.*``). Tables
line up in any language: a wide (CJK) character counts two columns (`scorer.words.pad`).

What vision's values hold stays words-free (a `Reading` is its tiles and groups, a
`TeachingLayout`'s `Mismatch` its counts); the functions here word them: `counts` and `summary`
a reading, `mismatch` a teaching photo's count that differs from its order.

>>> VISION.t("read.tiles", n=1, parts="1 in the hand"), VISION.t("read.dora", "ja", n=2)
('1 tile read: 1 in the hand', 'ドラ表示牌2枚')
>>> cut("学習に使用", 5), cut("trained on", 7)
('学習', 'trained')
>>> from vision.teach import Mismatch
>>> [mismatch(Mismatch("row", 2, 3, row=1, span="1m..3m"), lang) for lang in ("en", "ja")]
['row 1 (1m..3m): 2 tiles found, 3 expected', '1列目（1m..3m）に2枚（3枚のはず）']
>>> problem_words("unresolved: meld 1 (pon) is not a set: 1m 1m 2m", "ja")
'補正できません：副露1（ポン）が面子になっていません：1m 1m 2m'
>>> problem_words("two red fives in p", "zh-Hans"), problem_words("a new problem", "ja")
('赤5（0p）有2张', 'a new problem')
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.cli_help import help_words
from scorer.words import SCORER, Catalogues, add_language_option, columns

if TYPE_CHECKING:
    from vision.reading import Reading
    from vision.teach import Mismatch

VISION = Catalogues("vision", Path(__file__).with_name("locale"))


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


#: The problems vision's stages write in English (a reading's: vision.layout, vision.decode,
#: vision.assemble; an order `vision.teach.expected_rows` cannot read), each by the entry that
#: words it: the entry's English is the problem's form, each {value} in it standing for what
#: varies (`_VALUES`), so that `problem_words` knows a problem by it.
PROBLEMS = (
    "problem.in_hand", "problem.no_tiles", "problem.no_winning_gap", "problem.extra_gaps",
    "problem.meld_sideways", "problem.leftover", "problem.face_down", "problem.on_meld",
    "problem.grammar", "problem.on_concealed", "problem.extra_row", "problem.away",
    "problem.too_many", "problem.red_fives", "problem.meld_not_set", "problem.not_a_win",
    "problem.unresolved",
    "teach.order.unreadable", "teach.order.empty",
)
#: counts as vision.decode writes them ("five 3m", "two red fives in p")
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_MELDS = ("chi", "pon", "minkan", "ankan", "kakan")
def _kept(value: str, lang: str) -> object:
    return value


#: a {value} of a problem: what it is in the English, and how a language says it (any other
#: value: any text, kept as it is: tiles, a reader's message)
_VALUES: dict[str, tuple[str, Callable[[str, str], object]]] = {
    "n": (r"\d+|" + "|".join(_NUMBERS),
          lambda v, lang: int(v) if v.isdigit() else _NUMBERS.index(v)),
    "meld": (r"\d+", _kept),
    "tile": (r"[0-9][mpsz]", _kept),
    "suit": (r"[mps]", _kept),
    "kind": ("|".join(_MELDS), lambda v, lang: SCORER.t("meld." + v, lang)),
    "problem": (r".+", lambda v, lang: problem_words(v, lang)),
}
_KEPT = (r".+", _kept)


@cache
def _forms() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each of `PROBLEMS` with the pattern its English makes."""
    forms = []
    for key in PROBLEMS:
        parts = re.split(r"\{(\w+)\}", VISION.entries()[key].english)
        # parts: the English between the values, and each value's name (the odd places)
        forms.append((key, re.compile("".join(
            f"(?P<{part}>{_VALUES.get(part, _KEPT)[0]})" if i % 2 else re.escape(part)
            for i, part in enumerate(parts)))))
    return tuple(forms)


def problem_words(problem: str, lang: str = "en") -> str:
    """One of vision's problems (English, as `Reading.problems` has it: ``7 tiles in the hand
    (14 expected, each kan counted as 3)``) in `lang`; in English, or a problem of a form not
    in `PROBLEMS`, as it is."""
    if lang == "en":
        return problem
    for key, form in _forms():
        found = form.fullmatch(problem)
        if found:
            return VISION.t(key, lang, **{name: _VALUES.get(name, _KEPT)[1](value, lang)
                                          for name, value in found.groupdict().items()})
    return problem
