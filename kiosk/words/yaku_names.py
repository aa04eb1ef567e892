"""Names in the breakdown, in the table's language: yaku by the ids of the rules core (Tenhou's
list, romanised), limit hands, what a hand is worth ("4 han 40 fu mangan"), tiles as players say
them ("6s", "Green dragon"), and the rules core's fu items in words ("Closed pon of Green
dragon (honour)", not "concealed triplet of terminals/honours 666z").
"""

from __future__ import annotations

import re

from kiosk.words.i18n import t
from scorer.points import HandValue
from scorer.rules import Ruleset

#: id -> (English, Japanese)
YAKU_NAMES: dict[str, tuple[str, str]] = {
    "menzen_tsumo": ("Menzen tsumo", "門前清自摸和"), "riichi": ("Riichi", "立直"),
    "ippatsu": ("Ippatsu", "一発"), "chankan": ("Chankan", "槍槓"),
    "rinshan_kaihou": ("Rinshan kaihou", "嶺上開花"),
    "haitei_raoyue": ("Haitei raoyue", "海底摸月"),
    "houtei_raoyui": ("Houtei raoyui", "河底撈魚"), "pinfu": ("Pinfu", "平和"),
    "tanyao": ("Tanyao", "断么九"), "iipeikou": ("Iipeikou", "一盃口"),
    "seat_wind_east": ("Seat wind East", "自風 東"),
    "seat_wind_south": ("Seat wind South", "自風 南"),
    "seat_wind_west": ("Seat wind West", "自風 西"),
    "seat_wind_north": ("Seat wind North", "自風 北"),
    "round_wind_east": ("Round wind East", "場風 東"),
    "round_wind_south": ("Round wind South", "場風 南"),
    "round_wind_west": ("Round wind West", "場風 西"),
    "round_wind_north": ("Round wind North", "場風 北"),
    "haku": ("Haku", "役牌 白"), "hatsu": ("Hatsu", "役牌 發"), "chun": ("Chun", "役牌 中"),
    "double_riichi": ("Double riichi", "両立直"), "chiitoitsu": ("Chiitoitsu", "七対子"),
    "chanta": ("Chanta", "混全帯么九"), "ittsu": ("Ittsu", "一気通貫"),
    "sanshoku_doujun": ("Sanshoku doujun", "三色同順"),
    "sanshoku_doukou": ("Sanshoku doukou", "三色同刻"), "sankantsu": ("Sankantsu", "三槓子"),
    "toitoi": ("Toitoi", "対々和"), "sanankou": ("Sanankou", "三暗刻"),
    "shousangen": ("Shousangen", "小三元"), "honroutou": ("Honroutou", "混老頭"),
    "ryanpeikou": ("Ryanpeikou", "二盃口"), "junchan": ("Junchan", "純全帯么九"),
    "honitsu": ("Honitsu", "混一色"), "chinitsu": ("Chinitsu", "清一色"),
    "renhou": ("Renhou", "人和"), "nagashi_mangan": ("Nagashi mangan", "流し満貫"),
    "tenhou": ("Tenhou", "天和"), "chiihou": ("Chiihou", "地和"),
    "daisangen": ("Daisangen", "大三元"), "suuankou": ("Suuankou", "四暗刻"),
    "suuankou_tanki": ("Suuankou tanki", "四暗刻単騎"), "tsuuiisou": ("Tsuuiisou", "字一色"),
    "ryuuiisou": ("Ryuuiisou", "緑一色"), "chinroutou": ("Chinroutou", "清老頭"),
    "chuuren_poutou": ("Chuuren poutou", "九蓮宝燈"),
    "junsei_chuuren_poutou": ("Junsei chuuren poutou", "純正九蓮宝燈"),
    "kokushi_musou": ("Kokushi musou", "国士無双"),
    "kokushi_musou_13": ("Kokushi musou 13-sided", "国士無双十三面"),
    "daisuushii": ("Daisuushii", "大四喜"), "shousuushii": ("Shousuushii", "小四喜"),
    "suukantsu": ("Suukantsu", "四槓子"), "dora": ("Dora", "ドラ"),
    # Sanma with North as everyone's value tile (Mahjong Soul; `Ruleset.north_yakuhai`).
    "yakuhai_north": ("North (value tile)", "役牌 北"),
    "ura_dora": ("Ura dora", "裏ドラ"), "aka_dora": ("Red fives", "赤ドラ"),
}


def yaku_name(yaku_id: str, lang: str = "en") -> str:
    names = YAKU_NAMES.get(yaku_id)
    if names is None:
        return yaku_id.replace("_", " ").capitalize()
    return names[1] if lang == "ja" else names[0]


def limit_name(limit: str, lang: str = "en", yakuman: int = 0) -> str:
    """"Mangan" ... "Yakuman" ("2x yakuman" for a double one); "" for no limit."""
    if yakuman > 1:
        return t("limit.yakuman_n", lang, n=yakuman)
    return t("limit." + limit.replace(" ", "_"), lang) if limit else ""


#: From 5 han a hand is a limit hand (mangan and up) whatever its fu.
LIMIT_HAN = 5


def hand_head(value: HandValue, lang: str = "en") -> str:
    """What a hand is worth, each value once: "3 han 40 fu", "4 han 40 fu mangan", "6 han
    haneman", "Yakuman"; in Japanese "4翻40符 満貫"."""
    if value.real_yakuman:
        return limit_name("yakuman", lang, value.real_yakuman)
    limit = limit_name(value.limit.value, lang)
    limit = limit.lower() if lang == "en" else limit  # "5 han mangan", mid-sentence
    if value.han >= LIMIT_HAN:
        return f"{t('summary.han', lang, han=value.han)} {limit}"
    head = t("summary.han_fu", lang, han=value.han, fu=value.fu)
    return f"{head} {limit}" if limit else head


def hand_summary(value: HandValue, dealer: bool, tsumo: bool, lang: str = "en",
                 rules: Ruleset | None = None) -> str:
    """"3 han 40 fu — 1,300/2,600 (5,200)": the hand and what it pays, each value once. Under a
    three-player `rules` a tsumo's total is what the two payers give (tsumo loss or bisection).
    """
    head = hand_head(value, lang)
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
