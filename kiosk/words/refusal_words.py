"""The details of a coded refusal in the page's language, and the rules core's problems as codes.

A refusal's `words` fill its catalogue entry (``err.<code>``, kiosk/words/locale/). A
word may itself need wording in the session's language, by its prefix: ``"t:<key>"`` a catalogue
entry, ``"tile:6s"`` a tile's name (6索), ``"tiles:666z"`` a row of tiles, ``"yaku:daisangen"``
a yaku's name; a list is each of its items, joined as the language lists them.

The rules core (`scorer`, standard library only) gives each problem of an impossible hand or
situation a stable code (`scorer.hand.ProblemCode`, the one list of them) and the details its
English message names (which tile, which meld, how many): `coded` takes the code as the
catalogue's and the details as its words, worded by their names (`_WORDED`). A code the
catalogue has no entry for (the record reader's, or a check added to the rules core since)
keeps its English under ``err.problem``; tests/kiosk/test_i18n.py raises every problem the
rules core's checks have and finds each one worded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.words import i18n
from kiosk.words.reading_words import tile_name
from kiosk.words.yaku_names import yaku_name
from scorer.hand import Problem
from scorer.names import DETAIL_ENTRIES
from scorer.tiles import TileError, parse_tiles


def word(value: Any, lang: str) -> Any:
    """One of a refusal's words in `lang` (see the module doc).

    >>> word("tile:0s", "ja"), word(["yaku:daisangen", "yaku:daisuushii"], "ja")
    ('赤5索', '大三元、大四喜')
    """
    if isinstance(value, list):
        return i18n.t("list.sep", lang).join(str(word(v, lang)) for v in value)
    if not isinstance(value, str) or ":" not in value:
        return value
    prefix, rest = value.split(":", 1)
    if prefix == "t":
        return i18n.t(rest, lang)
    if prefix == "yaku":
        return yaku_name(rest, lang)
    try:
        if prefix == "tile":
            return tile_name(rest, lang)
        if prefix == "tiles":
            return i18n.t("list.sep", lang).join(tile_name(str(t), lang) for t in parse_tiles(rest))
    except (TileError, IndexError):
        return rest
    return value


#: A detail's name -> the prefix that words its value (see `word`); other details are numbers.
#: The entries that word them are the rules core's (`scorer.names.DETAIL_ENTRIES`).
_WORDED = {"tile": "tile:", "tiles": "tiles:",
           **{name: "t:" + entry for name, entry in DETAIL_ENTRIES.items()}}


def code_of(problem: Problem) -> tuple[str, dict[str, Any]]:
    """(code, words) for one of the rules core's problems; ``("problem", {field, message})``
    for one the catalogue has no words for (its English kept)."""
    code = str(problem.code)
    if not i18n.has("err." + code):
        return "problem", {"field": problem.field, "message": problem.message}
    return code, {name: _WORDED[name] + str(value) if name in _WORDED else value
                  for name, value in problem.details.items()}


def coded(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    """Each problem as ``{"code", "words"}``, for `kiosk.errors.ApiError`'s `coded`."""
    return [dict(zip(("code", "words"), code_of(p), strict=True)) for p in problems]


#: A problem said of one tile -> the sentence that names several at once.
_TILE_LISTS = {"sanma_tile": "err.sanma_tiles"}


def said(problem_codes: Sequence[dict[str, Any]], lang: str) -> list[str]:
    """The coded problems in `lang`, each said once: several of one code that differ only in
    their tile are one sentence naming the tiles where there is one (`_TILE_LISTS`: "2m, 3m, 4m
    are not in a three-player set"), and a sentence said twice is said once."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in problem_codes:
        groups.setdefault(p["code"], []).append(p["words"])
    out: list[str] = []
    for code, all_words in groups.items():
        tiles = [w["tile"] for w in all_words if set(w) == {"tile"}]
        if len(tiles) == len(all_words) > 1 and code in _TILE_LISTS:
            out.append(i18n.t(_TILE_LISTS[code], lang, tiles=word(tiles, lang)))
            continue
        out += [i18n.t("err." + code, lang, **{k: word(v, lang) for k, v in w.items()})
                for w in all_words]
    return list(dict.fromkeys(out))
