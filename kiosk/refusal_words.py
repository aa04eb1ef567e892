"""The details of a coded refusal in the page's language, and the rules core's problems as codes.

A refusal's `words` fill its catalogue entry (``err.<code>``, kiosk/messages_errors.py). A word
may itself need wording in the session's language, by its prefix: ``"t:<key>"`` a catalogue
entry, ``"tile:6s"`` a tile's name (6索), ``"tiles:666z"`` a row of tiles, ``"yaku:daisangen"``
a yaku's name; a list is each of its items, joined as the language lists them.

The rules core (`scorer`, standard library only) says each problem of an impossible hand or
situation in English, naming the field: `coded` matches each message it can say once, and
takes its details (which tile, which meld, how many) as the code's words. A message not known
here (a check added to the rules core since) keeps its English under ``err.problem``;
tests/kiosk/test_i18n.py raises every problem the rules core has and finds each one known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kiosk import i18n
from kiosk.reading_words import tile_name
from kiosk.yaku_names import yaku_name
from scorer.hand import Problem
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


#: "meld 2 (pon 666z)": the meld's number, kind and tiles, for a meld's problems.
_MELD = re.compile(r"meld (?P<meld>\d+) \((?P<kind>chi|pon|minkan|ankan|kakan) (?P<tiles>\w+)\)")
#: (field, message, code): both patterns match whole; a named group is a word (see `_words`).
_KNOWN: tuple[tuple[str, str, str], ...] = (
    # The situation (scorer.context.WinContext.problems).
    ("ippatsu", r"ippatsu needs riichi", "sit_ippatsu"),
    ("rinshan", r"rinshan kaihou is a tsumo on the kan replacement tile, not a ron",
     "sit_rinshan_ron"),
    ("rinshan", r"rinshan kaihou needs a kan \(or a North pulled out as kita\) in the hand",
     "sit_rinshan_no_kan"),
    ("last_tile", r"haitei cannot be a rinshan draw .*", "sit_haitei_rinshan"),
    ("chankan", r"chankan is a ron on another player's added kan, not a tsumo",
     "sit_chankan_tsumo"),
    ("chankan", r"chankan cannot also be houtei", "sit_chankan_houtei"),
    ("chankan_of_ankan", r"robbing a closed kan is a chankan: set chankan too",
     "sit_ankan_chankan"),
    ("honba", r"honba cannot be negative \((?P<n>-?\d+)\)", "sit_honba"),
    ("riichi_sticks", r"riichi sticks cannot be negative \((?P<n>-?\d+)\)", "sit_sticks"),
    ("dora_indicators", r"(?P<n>\d+) dora indicators; there are at most 5", "sit_dora_count"),
    ("ura_indicators", r"(?P<n>\d+) ura indicators; there are at most 5", "sit_ura_count"),
    ("riichi", r"riichi needs a closed hand, but the hand has an open meld", "sit_riichi_open"),
    ("dora_indicators", r"(?P<n>\d+) copies of (?P<tile>\w+) in the hand and indicators "
     r"together; a set has 4", "sit_indicator_copies"),
    ("blessing", r"(?P<blessing>tenhou|chiihou|renhou) is impossible after a call or kan",
     "sit_blessing_call"),
    ("blessing", r"tenhou is the dealer's tsumo", "sit_tenhou"),
    ("blessing", r"chiihou is a non-dealer's tsumo", "sit_chiihou"),
    ("blessing", r"renhou is a non-dealer's ron", "sit_renhou"),
    ("blessing", r"(?P<blessing>tenhou|chiihou|renhou) comes before any riichi",
     "sit_blessing_riichi"),
    # The hand (scorer.hand.Hand.problems, scorer.validity).
    ("meld", r"a (?:chi|pon|minkan|ankan|kakan) has (?P<size>\d+) tiles, not (?P<n>\d+)",
     "hand_meld_size"),
    ("meld", r"a chi is three consecutive tiles of one suit", "hand_chi_run"),
    ("meld", r"a (?:pon|minkan|ankan|kakan) is (?P<size>\d+) identical tiles", "hand_meld_same"),
    ("meld", r"the called tile (?P<tile>\w+) is not in the meld", "hand_called_tile"),
    ("meld", r"a closed kan is not called from anyone", "hand_ankan_called"),
    ("meld", r"a chi can only be called from the player on the left", "hand_chi_from"),
    ("meld", r"there is no chi at a three-player table", "sanma_chi"),
    ("meld", r"there is no seat opposite at a three-player table .*", "sanma_toimen"),
    ("melds", r"(?P<n>\d+) melds; a hand has at most 4", "hand_meld_count"),
    ("concealed", r"(?P<concealed>\d+) concealed tiles with (?P<melds>\d+) melds make "
     r"(?P<size>\d+); a winning hand has 14 \(a kan counts as 3\)", "hand_count"),
    ("win_tile", r"the winning tile (?P<tile>\w+) is not among the concealed tiles",
     "hand_win_tile"),
    ("kita", r"(?P<n>-?\d+) Norths pulled out; a set has 4", "hand_kita"),
    ("kita", r"(?P<n>\d+) North\(s\) pulled out as kita, but .* plays no nukidora .*",
     "hand_kita_rules"),
    ("tiles", r"(?P<n>\d+) copies of (?P<tile>\w+); a set has 4", "hand_copies"),
    ("tiles", r"(?P<n>\d+) red (?P<tile>5[mps]); a set has one", "hand_reds"),
    ("tiles", r"four plain (?P<tile>5[mps]), but this set's fourth 5[mps] is the red 0[mps]",
     "hand_red_fourth"),
    ("tiles", r"(?P<tile>\w+)(?: \(a red 5m\))? is not in a three-player set .*", "sanma_tile"),
    ("seat_wind", r"a three-player table seats East, South and West only", "sanma_north"),
)


def _words(match: re.Match[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in match.groupdict().items():
        if name == "tile":
            out[name] = "tile:" + value
        elif name == "tiles":
            out[name] = "tiles:" + value
        elif name == "kind":
            out[name] = "t:meld." + value
        elif name == "blessing":
            out[name] = "t:blessing." + value
        else:
            out[name] = int(value)
    return out


def code_of(problem: Problem) -> tuple[str, dict[str, Any]]:
    """(code, words) for one of the rules core's problems; ``("problem", {field, message})``
    for one not known here (its English kept)."""
    meld = _MELD.fullmatch(problem.field)
    field = "meld" if meld else problem.field
    for known_field, pattern, code in _KNOWN:
        if known_field != field:
            continue
        found = re.fullmatch(pattern, problem.message)
        if found:
            return code, {**(_words(meld) if meld else {}), **_words(found)}
    return "problem", {"field": problem.field, "message": problem.message}


def coded(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    """Each problem as ``{"code", "words"}``, for `kiosk.errors.ApiError`'s `coded`."""
    return [dict(zip(("code", "words"), code_of(p), strict=True)) for p in problems]
