"""`python -m scorer score`'s breakdown of a score, in the language chosen (`scorer.words`).

English names yaku and limits by the rules core's ids and values (``menzen_tsumo``,
``haneman``), as scripts have read them; Japanese and Chinese by the catalogue's names of the same
ids (``yaku.<id>``, ``limit.<limit>``), which the kiosk's pages show too.

>>> from scorer.hand import Hand
>>> from scorer.context import Riichi, WinContext
>>> from scorer.rules import RULESETS
>>> from scorer.score import score
>>> win = score(Hand.parse("234m456p22s345678s", "8s"),
...             WinContext(tsumo=True, riichi=Riichi.RIICHI), RULESETS["tenhou"])
>>> print(describe(win, "ja"))
手牌：234m456p22345678s win 8s（ツモ）、自風 東、場風 東、ルール tenhou
読み：234m 456p 345s 678s 22s（678sの両面待ち）
役：
  門前清自摸和             1翻
  立直                     1翻
  平和                     1翻
  断么九                   1翻
合計：4翻20符
符：副底 20符
点数：7800点、各自2600点支払い、和了者は7800点の収入
"""

from __future__ import annotations

from scorer.names import fu_words, verdict_words
from scorer.score import Outcome, Score
from scorer.words import SCORER, pad

#: Yakuman whose wait the reading's one decomposition cannot show: junsei chuuren waits on all
#: nine tiles of its suit, whichever of them is taken as the pair.
_NINE_SIDED = "junsei_chuuren_poutou"
_LIMIT_UNITS = {1: "yakuman", 2: "double yakuman", 3: "triple yakuman"}
#: The dora lines' English names (the rules core's words) and their catalogue keys.
_DORA = {"dora": "yaku.dora", "aka dora": "yaku.aka_dora", "ura dora": "yaku.ura_dora"}


def yaku_words(yaku_id: str, lang: str = "en") -> str:
    """A yaku by the rules core's id: the id in English, the catalogue's name otherwise.

    >>> yaku_words("pinfu"), yaku_words("pinfu", "ja"), yaku_words("riichi", "zh-Hans")
    ('pinfu', '平和', '立直')
    """
    return yaku_id if lang == "en" else SCORER.t("yaku." + yaku_id, lang)


def limit_words(limit: str, lang: str = "en") -> str:
    """A limit by the rules core's value ("haneman"; English as it is)."""
    return limit if lang == "en" else SCORER.t("limit." + limit.replace(" ", "_"), lang)


def yakuman_words(units: int, lang: str = "en") -> str:
    """`yakuman`, `double yakuman`, `4x yakuman`; 役満, 2倍役満."""
    if lang == "en":
        return _LIMIT_UNITS.get(units, f"{units}x yakuman")
    return SCORER.t("limit.yakuman", lang) if units == 1 else SCORER.t("limit.yakuman_n", lang,
                                                                       n=units)


def fu_item_words(reason: str, lang: str = "en") -> str:
    """A fu item: the rules core's reason in English ("base (futei)"), its words otherwise.

    >>> fu_item_words("open triplet 666s"), fu_item_words("open triplet 666s", "zh-Hans")
    ('open triplet 666s', '6索的明刻（中张牌）')
    """
    return reason if lang == "en" else fu_words(reason, lang) or reason


def _reading_words(result: Score, lang: str) -> str:
    """The scored reading, a pure nine gates described by its nine-sided wait (not "tanki on
    55m", the decomposition it was counted on)."""
    reading = result.reading
    assert reading is not None
    if any(name == _NINE_SIDED for name, _ in result.yakuman):
        return SCORER.t("cli.nine_sided", lang, groups=" ".join(reading.groups),
                        tile=result.hand.win_tile)
    if lang == "en":
        return str(reading)  # the rules core's own words
    melds = "".join(f" [{m}]" for m in reading.melds)
    wait = SCORER.t("cli.wait." + reading.wait.value.replace("-", "_"), lang)
    return f"{' '.join(reading.groups)}{melds}" + SCORER.t("cli.wait", lang, wait=wait,
                                                           group=reading.win_group)


def _total_words(result: Score, lang: str) -> str:
    """`3 han 40 fu`, `6 han 30 fu (haneman)`, `yakuman (13 han)`, `double yakuman (26 han)`,
    `13 han 30 fu (kazoe yakuman)`: a yakuman by its limit's name, with no fu."""
    if result.yakuman:
        units = sum(u for _, u in result.yakuman)
        return SCORER.t("cli.total_yakuman", lang, name=yakuman_words(units, lang),
                        han=result.han)
    total = SCORER.t("cli.total_han_fu", lang, han=result.han, fu=result.fu)
    if not result.limit.value:
        return total
    return SCORER.t("cli.total_limit", lang, total=total,
                    limit=limit_words(result.limit.value, lang))


def describe(result: Score, lang: str = "en") -> str:
    """A readable breakdown of a score, in `lang`."""
    ctx = result.context
    lines = [SCORER.t("cli.hand", lang, hand=result.hand,
                      how=SCORER.t("cli.tsumo" if ctx.tsumo else "cli.ron", lang),
                      seat=SCORER.t(f"wind.{ctx.seat_wind.value}", lang),
                      round=SCORER.t(f"wind.{ctx.round_wind.value}", lang),
                      rules=result.rules.name)]
    if result.reading is not None:
        lines.append(SCORER.t("cli.reading", lang, reading=_reading_words(result, lang)))
    if result.outcome is not Outcome.WIN:
        # (the rules core's English message; in another language the kiosk's verdict, which
        # says "no yaku" or "not a winning hand" itself)
        message = result.message if lang == "en" else verdict_words(result, lang)
        lines.append(SCORER.t("cli.not_win", lang, message=message))
        return "\n".join(lines)
    if result.yakuman:
        lines.append(SCORER.t("cli.yakuman", lang))
        lines += [f"  {pad(yaku_words(name, lang), 24)} "
                  f"{yakuman_words(2 if units == 2 else 1, lang)}"
                  for name, units in result.yakuman]
    else:
        lines.append(SCORER.t("cli.yaku", lang))
        lines += [f"  {pad(yaku_words(name, lang), 24)} {SCORER.t('cli.han', lang, n=han)}"
                  for name, han in result.yaku]
        for name, n in (("dora", result.dora), ("aka dora", result.aka_dora),
                        ("ura dora", result.ura_dora)):
            if not n:
                continue
            if lang == "en":
                words = "dora (kita included)" if name == "dora" and result.hand.kita else name
            elif name == "dora" and result.hand.kita:
                words = SCORER.t("cli.dora_kita", lang)
            else:
                words = SCORER.t(_DORA[name], lang)
            lines.append(f"  {pad(words, 24)} {SCORER.t('cli.han', lang, n=n)}")
    lines.append(SCORER.t("cli.total", lang, total=_total_words(result, lang)))
    if not result.yakuman:  # a yakuman counts no fu
        lines.append(SCORER.t("cli.fu", lang, items=SCORER.t("cli.separator", lang).join(
            SCORER.t("cli.fu_item", lang, item=fu_item_words(item.reason, lang), fu=item.fu)
            for item in result.fu_items)))
    payment = result.payment
    assert payment is not None
    if payment.ron is not None:
        pays = SCORER.t("cli.pays_ron", lang, points=payment.ron)
    elif payment.from_dealer is not None:
        pays = SCORER.t("cli.pays_dealer", lang, dealer=payment.from_dealer,
                        other=payment.from_non_dealer)
    else:
        pays = SCORER.t("cli.pays_each", lang, points=payment.from_non_dealer)
    lines.append(SCORER.t("cli.points", lang, points=result.points, pays=pays,
                          gain=payment.winner_gain))
    return "\n".join(lines)
