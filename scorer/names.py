"""The rules core's values in words, in a catalogue's language (`scorer.words`): tiles as players
say them ("6s", "Green dragon"; 6索, 發), each fu item of `scorer.fu` ("Closed pon of Green
dragon (honour)", not "concealed triplet of terminals/honours 666z"), each coded problem of a
hand or its situation (`scorer.hand.Problem`: ``err.<code>``, its details worded by their
names) and why a hand does not win (`verdict_words`). The kiosk's breakdown and refusals and
``python -m scorer``'s Japanese and Chinese speak them; their words are ``tile.*``, ``fu.*``,
``meld.*``, ``err.*``, ``verdict.*`` ... in scorer/locale/.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scorer.decompose import Form
from scorer.result import Outcome, Score
from scorer.tiles import format_tiles, parse_tiles
from scorer.words import SCORER

if TYPE_CHECKING:
    from scorer.hand import Problem

#: A problem's detail by its name -> the prefix of the entry that words its value (``kind``
#: "chi" -> ``meld.chi``); ``tile`` and ``tiles`` are tiles in notation; other details are numbers.
DETAIL_ENTRIES = {"kind": "meld.", "blessing": "blessing.", "rules": "ruleset."}


def tile_name(label: str, lang: str = "en") -> str:
    """A tile as players say it: "6s", "5m" (a red five is still a five), "White dragon"."""
    number, suit = label[0], label[1]
    if suit == "z":
        return SCORER.t(f"tile.{label}", lang)
    return SCORER.t(f"tile.{suit}", lang, n=5 if number == "0" else number)


def _kind_of_set(tiles: str) -> str:
    """simple, terminal or honour: why a set is worth what it is."""
    if tiles.endswith("z"):
        return "honour"
    return "terminal" if tiles[0] in "19" else "simple"


#: The rules core's fu reasons (scorer/fu.py) -> message keys; a set's tiles follow its name.
_PLAIN = {"base (futei)": "fu.base", "closed ron (menzen kafu)": "fu.closed_ron",
          "tsumo": "fu.tsumo", "kanchan wait": "fu.wait_kanchan",
          "penchan wait": "fu.wait_penchan", "tanki wait": "fu.wait_tanki",
          "open hand of pinfu shape": "fu.open_pinfu",
          "chiitoitsu (fixed, not rounded)": "fu.chiitoitsu"}
# "value tile": North at a sanma table where it is everyone's yakuhai (scorer/fu.py).
_PAIR = re.compile(r"pair of the (dragon|double wind|seat wind|round wind|value tile) ([1-7]z)")
_SET = re.compile(r"(concealed triplet|triplet completed by ron|open triplet|open quad \(added\)"
                  r"|open quad|closed quad)(?: of terminals/honours)? ([1-9]{3,4}[mpsz])")
_SET_KEY = {"concealed triplet": "fu.concealed_triplet",
            "triplet completed by ron": "fu.ron_triplet", "open triplet": "fu.open_triplet",
            "open quad (added)": "fu.added_quad", "open quad": "fu.open_quad",
            "closed quad": "fu.closed_quad"}


def fu_words(reason: str, lang: str = "en") -> str | None:
    """One fu item of the rules core in words, or None for a reason not known here.

    >>> fu_words("concealed triplet of terminals/honours 666z")
    'Closed pon of Green dragon (honour)'
    >>> fu_words("open triplet 666s", "ja")
    '6索の明刻（中張牌）'
    """
    if reason in _PLAIN:
        return SCORER.t(_PLAIN[reason], lang)
    pair = _PAIR.fullmatch(reason)
    if pair:
        what = SCORER.t("fu.pair_" + pair[1].replace(" ", "_"), lang)
        return SCORER.t("fu.pair", lang, tile=tile_name(pair[2], lang), what=what)
    found = _SET.fullmatch(reason)
    if found:
        tiles = found[2]
        return SCORER.t(_SET_KEY[found[1]], lang, tile=tile_name(tiles[0] + tiles[-1], lang),
                        kind=SCORER.t("fu." + _kind_of_set(tiles), lang))
    return None


def problem_words(problem: Problem, lang: str = "en") -> str:
    """One of the rules core's coded problems in `lang`: its catalogue entry (``err.<code>``)
    with its details worded; in English, or without an entry (the input readers' problems), its
    own English message as the rules core says it.

    >>> from scorer.hand import Problem, ProblemCode
    >>> five = Problem("tiles", "5 copies of 1m; a set has 4", ProblemCode.HAND_COPIES,
    ...                {"n": 5, "tile": "1m"})
    >>> problem_words(five), problem_words(five, "ja")
    ('tiles: 5 copies of 1m; a set has 4', '1萬が5枚あります（1種類4枚まで）')
    """
    key = f"err.{problem.code.value}"
    if lang == "en" or not SCORER.has(key):
        return str(problem)
    words: dict[str, object] = {}
    for name, value in problem.details.items():
        if name == "tile":
            words[name] = _tile_words(str(value), lang)
        elif name == "tiles":
            words[name] = SCORER.t("cli.tile_separator", lang).join(
                _tile_words(str(tile), lang) for tile in parse_tiles(str(value)))
        elif name in DETAIL_ENTRIES:
            words[name] = SCORER.t(DETAIL_ENTRIES[name] + str(value), lang)
        else:
            words[name] = value
    return SCORER.t(key, lang, **words)


def _tile_words(label: str, lang: str) -> str:
    """A tile of a problem: a red five said as one (赤5筒)."""
    name = tile_name(label, lang)
    return SCORER.t("tile.name_red", lang, name=name) if label[0] == "0" else name


def verdict_words(result: Score, lang: str = "en") -> str:
    """Why a hand does not win, in words of the page's language (the rules core's own message is
    English): no yaku, not a winning shape, or a closed kan it may not rob."""
    rules = result.rules
    if result.outcome is Outcome.NO_YAKU:
        # Atozuke off is the one rule that refuses a hand with yaku (scorer.score says so in
        # its message): the yaku must not depend on the winning tile.
        if not rules.atozuke and "every winning tile" in result.message:
            return SCORER.t("verdict.no_yaku_atozuke", lang)
        if rules.min_han == 1:  # one yaku, whatever its han: other words, not a plural
            return SCORER.t("verdict.no_yaku_one", lang)
        return SCORER.t("verdict.no_yaku", lang, n=rules.min_han)
    if result.outcome is Outcome.ILLEGAL_CHANKAN:
        kokushi = result.reading is not None and result.reading.form is Form.KOKUSHI
        return SCORER.t("verdict.chankan_rule_off" if kokushi else "verdict.chankan_not_kokushi",
                        lang)
    return SCORER.t("verdict.not_a_win", lang, tiles=format_tiles(result.hand.concealed))
