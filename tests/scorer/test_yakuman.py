"""Yakuman and their double forms, with units under single (Tenhou) and double (Mahjong Soul)
yakuman rules, stacking, and the points they pay."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.points import Limit
from scorer.rules import RULESETS
from tests.scorer.notation import scored

S = {"seat": "S"}

CASES = [
    # id, concealed, win, melds, context, yakuman ids, units (tenhou), units (mahjong soul)
    ("tenhou", "234m456p789s345s11p", "2m", "", {"tsumo": True, "blessing": "tenhou"},
     ["tenhou"], 1, 1),
    ("chiihou", "234m456p789s345s11p", "2m", "", {**S, "tsumo": True, "blessing": "chiihou"},
     ["chiihou"], 1, 1),
    ("daisangen", "555z666z777z123m99p", "3m", "", {}, ["daisangen"], 1, 1),
    ("daisangen open", "123m99p", "3m", "pon:555z pon:666z minkan:7777z", {}, ["daisangen"],
     1, 1),
    ("suuankou by tsumo", "111m333p555s777s99p", "7s", "", {"tsumo": True}, ["suuankou"], 1, 1),
    ("suuankou_tanki", "111m333p555s777s99p", "9p", "", {}, ["suuankou_tanki"], 1, 2),
    ("suuankou with a closed kan", "111m333p777s99p", "7s", "ankan:0555s", {"tsumo": True},
     ["suuankou"], 1, 1),
    ("tsuuiisou", "111z222z555z66z", "6z", "pon:333z", {}, ["tsuuiisou"], 1, 1),
    ("tsuuiisou as seven pairs", "11223344556677z", "7z", "", {}, ["tsuuiisou"], 1, 1),
    ("ryuuiisou", "223344s666s888s66z", "8s", "", {}, ["ryuuiisou"], 1, 1),
    ("ryuuiisou without hatsu", "22334466s", "4s", "pon:888s chi:234s", {}, ["ryuuiisou"], 1, 1),
    ("chinroutou", "111m999m111p11s", "1s", "pon:999p", {}, ["chinroutou"], 1, 1),
    ("chuuren_poutou", "11123456789999m", "1m", "", {}, ["chuuren_poutou"], 1, 1),
    ("junsei_chuuren_poutou", "1112345678999m", "5m", "", {}, ["junsei_chuuren_poutou"], 1, 2),
    ("kokushi_musou", "119m19p19s1234567z", "9m", "", {}, ["kokushi_musou"], 1, 1),
    ("kokushi_musou_13", "119m19p19s1234567z", "1m", "", {}, ["kokushi_musou_13"], 1, 2),
    ("daisuushii", "111z222z333z55m", "5m", "pon:444z", {}, ["daisuushii"], 1, 2),
    ("shousuushii", "111z222z333z44z123m", "3m", "", {}, ["shousuushii"], 1, 1),
    ("suukantsu", "55p", "5p", "ankan:1111m minkan:2222p kakan:3333s ankan:4444s", {},
     ["suukantsu"], 1, 1),
    ("daisangen + tsuuiisou stack", "555z666z111z22z", "2z", "pon:777z", S,
     ["tsuuiisou", "daisangen"], 2, 2),
    ("suuankou tanki + tsuuiisou + daisuushii", "111z222z333z444z55z", "5z", "", {"tsumo": True},
     ["suuankou_tanki", "tsuuiisou", "daisuushii"], 3, 5),
]


@pytest.mark.parametrize(("concealed", "win", "melded", "ctx", "ids", "single", "double"),
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_yakuman(concealed: str, win: str, melded: str, ctx: dict[str, Any], ids: list[str],
                 single: int, double: int) -> None:
    for rules, units in (("tenhou", single), ("mahjong_soul", double)):
        result = scored(concealed, win, melded, rules=rules, **ctx)
        assert result.is_win, result.message
        assert sorted(y for y, _ in result.yakuman) == sorted(ids)
        assert sum(u for _, u in result.yakuman) == units
        assert result.yaku == ()  # yakuman drop the ordinary yaku
        assert result.limit is Limit.YAKUMAN
        assert result.han == 13 * units
        dealer = result.context.is_dealer
        assert result.points == units * (48000 if dealer else 32000)


def test_not_suuankou_by_ron_on_the_shanpon() -> None:
    result = scored("111m333p555s777s99p", "7s")
    assert result.yakuman == ()
    assert sorted(result.yaku) == [("sanankou", 2), ("toitoi", 2)]


def test_kokushi_is_closed_hand_only_and_not_chiitoitsu() -> None:
    assert not scored("119m19p19s1234566z", "9m").is_win


def test_chuuren_is_void_after_a_kan() -> None:
    result = scored("1112345678m", "8m", "ankan:9999m", riichi=True)
    assert result.yakuman == ()
    assert sorted(result.yaku) == [("chinitsu", 6), ("riichi", 1)]


def test_stacked_yakuman_off_pays_the_largest_one() -> None:
    rules = RULESETS["mahjong_soul"].with_options(stacked_yakuman=False)
    result = scored("111z222z333z444z55z", "5z", rules=rules, tsumo=True)
    assert [u for _, u in result.yakuman] == [2]
    assert result.points == 96000


def test_yakuman_fu_is_still_reported_as_tenhou_does() -> None:
    # ../shared tenhou-wins-dev: an open daisangen tsumo on a tanki is reported as 40 fu.
    result = scored("0m67m1p1p", "1p", "pon:666z pon:777z pon:555z", seat="N", tsumo=True)
    assert (result.han, result.fu, result.points) == (13, 40, 32000)
