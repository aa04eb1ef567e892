"""Names in the breakdown, in the table's language: yaku by the ids of the rules core (Tenhou's
list, romanised), limit hands, what a hand is worth ("4 han 40 fu mangan"), tiles as players say
them ("6s", "Green dragon"), and the rules core's fu items in words ("Closed pon of Green
dragon (honour)", not "concealed triplet of terminals/honours 666z").
"""

from __future__ import annotations

import re

from kiosk.words.i18n import has, t
from scorer.points import HandValue
from scorer.rules import Ruleset


def yaku_name(yaku_id: str, lang: str = "en") -> str:
    """A yaku by the rules core's id (its words are the catalogue's `yaku.<id>`); an id the
    catalogue does not know, as its words.

    >>> yaku_name("chiitoitsu"), yaku_name("chiitoitsu", "ja"), yaku_name("chiitoitsu", "zh-Hans")
    ('Chiitoitsu', '七対子', '七对子')
    """
    if not has("yaku." + yaku_id):
        return yaku_id.replace("_", " ").capitalize()
    return t("yaku." + yaku_id, lang)


def limit_name(limit: str, lang: str = "en", yakuman: int = 0) -> str:
    """"Mangan" ... "Yakuman" ("2x yakuman" for a double one); "" for no limit."""
    if yakuman > 1:
        return t("limit.yakuman_n", lang, n=yakuman)
    return t("limit." + limit.replace(" ", "_"), lang) if limit else ""


#: From 5 han a hand is a limit hand (mangan and up) whatever its fu.
LIMIT_HAN = 5


def hand_head(value: HandValue, lang: str = "en", entered: bool = False) -> str:
    """What a hand is worth, each value once: "3 han 40 fu", "4 han 40 fu mangan", "6 han
    haneman", "Yakuman"; in Japanese "4翻40符 満貫". A hand entered by its points (`entered`)
    is its limit's name ("Mangan") or "Points entered": no han or fu anybody declared."""
    if entered and not value.real_yakuman:
        return (limit_name(value.limit.value, lang) if value.limit.value
                else t("summary.entered", lang))
    if value.real_yakuman:
        return limit_name("yakuman", lang, value.real_yakuman)
    limit = limit_name(value.limit.value, lang)
    limit = limit.lower() if lang == "en" else limit  # "5 han mangan", mid-sentence
    if value.han >= LIMIT_HAN:
        return f"{t('summary.han', lang, han=value.han)} {limit}"
    head = t("summary.han_fu", lang, han=value.han, fu=value.fu)
    return f"{head} {limit}" if limit else head


def hand_summary(value: HandValue, dealer: bool, tsumo: bool, lang: str = "en",
                 rules: Ruleset | None = None, entered: bool = False) -> str:
    """"3 han 40 fu — 1,300/2,600 (5,200)": the hand and what it pays, each value once. Under a
    three-player `rules` a tsumo's total is what the two payers give (tsumo loss or bisection).
    """
    head = hand_head(value, lang, entered)
    total = f"{value.total(dealer, tsumo, rules):,}"
    if not tsumo:
        return t("summary.ron", lang, head=head, points=total)
    from_dealer, from_other = value.tsumo(dealer, rules)
    if dealer:
        return t("summary.tsumo_dealer", lang, head=head, each=f"{from_other:,}", total=total)
    return t("summary.tsumo", lang, head=head, other=f"{from_other:,}",
             dealer=f"{from_dealer:,}", total=total)


def tile_name(label: str, lang: str = "en") -> str:
    """A tile as players say it: "6s", "5m" (a red five is still a five), "White dragon"."""
    number, suit = label[0], label[1]
    if suit == "z":
        return t(f"tile.{label}", lang)
    return t(f"tile.{suit}", lang, n=5 if number == "0" else number)


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
        return t(_PLAIN[reason], lang)
    pair = _PAIR.fullmatch(reason)
    if pair:
        what = t("fu.pair_" + pair[1].replace(" ", "_"), lang)
        return t("fu.pair", lang, tile=tile_name(pair[2], lang), what=what)
    found = _SET.fullmatch(reason)
    if found:
        tiles = found[2]
        return t(_SET_KEY[found[1]], lang, tile=tile_name(tiles[0] + tiles[-1], lang),
                 kind=t("fu." + _kind_of_set(tiles), lang))
    return None
