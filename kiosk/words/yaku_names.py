"""Names in the breakdown, in the table's language: yaku by the ids of the rules core (Tenhou's
list, romanised), limit hands, what a hand is worth ("4 han 40 fu mangan"); tiles as players say
them ("6s", "Green dragon") and the rules core's fu items in words ("Closed pon of Green dragon
(honour)", not "concealed triplet of terminals/honours 666z") are the rules core's own
(`scorer.names`, which its command line speaks too), named here as well.
"""

from __future__ import annotations

from kiosk.words.i18n import has, t
from scorer.names import fu_words, tile_name
from scorer.points import HandValue
from scorer.rules import Ruleset

__all__ = ["LIMIT_HAN", "fu_words", "hand_head", "hand_summary", "limit_name", "tile_name",
           "yaku_name"]


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
