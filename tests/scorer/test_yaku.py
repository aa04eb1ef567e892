"""Each ordinary yaku, closed and open, with the exact yaku list and fu (Tenhou rules).

Hands are in mpsz notation; a near miss follows each yaku where one is instructive. Context
defaults: ron, seat East, round East, no riichi.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.score import Outcome
from tests.scorer.notation import scored

S = {"seat": "S"}  # a non-dealer seat, so that East tiles are not yakuhai for the seat
RIICHI = {"riichi": True}

CASES = [
    # id, concealed, win, melds, context, expected yaku, fu
    ("menzen_tsumo", "234m456p789s345s11p", "3m", "", {**S, "tsumo": True},
     [("menzen_tsumo", 1)], 30),
    ("riichi", "234m456p789s345s11p", "3m", "", RIICHI, [("riichi", 1)], 40),
    ("ippatsu", "234m456p789s345s11p", "3m", "", {**RIICHI, "ippatsu": True},
     [("riichi", 1), ("ippatsu", 1)], 40),
    ("double_riichi replaces riichi", "234m456p789s345s11p", "3m", "", {"double_riichi": True},
     [("double_riichi", 2)], 40),
    ("chankan", "234m456p789s345s11p", "3m", "", {"chankan": True}, [("chankan", 1)], 40),
    ("rinshan_kaihou", "234m456p789s11p", "3m", "ankan:2222s", {"tsumo": True, "rinshan": True},
     [("menzen_tsumo", 1), ("rinshan_kaihou", 1)], 40),
    ("haitei_raoyue", "234m456p789s345s11p", "3m", "", {"tsumo": True, "last_tile": True},
     [("menzen_tsumo", 1), ("haitei_raoyue", 1)], 30),
    ("houtei_raoyui", "234m456p789s345s11p", "3m", "", {"last_tile": True},
     [("houtei_raoyui", 1)], 40),
    ("pinfu", "234m456p789s345s11p", "2m", "", {}, [("pinfu", 1)], 30),
    ("pinfu broken by a dragon pair", "234m456p789s345s55z", "2m", "", RIICHI,
     [("riichi", 1)], 40),
    ("pinfu broken by the seat-wind pair", "234m456p789s345s22z", "2m", "", {**S, **RIICHI},
     [("riichi", 1)], 40),
    ("pinfu with a guest-wind pair", "234m456p789s345s33z", "2m", "", S, [("pinfu", 1)], 30),
    ("tanyao closed", "234m456p678s33s888p", "8p", "", {}, [("tanyao", 1)], 40),
    ("tanyao open (kuitan)", "456p678s33s888p", "8p", "chi:234m", {}, [("tanyao", 1)], 30),
    ("iipeikou with pinfu", "223344m456p789s11p", "2m", "", {},
     [("pinfu", 1), ("iipeikou", 1)], 30),
    ("iipeikou is closed only", "223344m789s11p", "2m", "chi:456p", {}, None, None),
    ("seat_wind_south", "234m456p789s222z11p", "4m", "", S, [("seat_wind_south", 1)], 40),
    ("round_wind_east", "234m456p789s111z11p", "4m", "", S, [("round_wind_east", 1)], 40),
    ("double east for the dealer", "234m456p789s111z11p", "4m", "", {},
     [("seat_wind_east", 1), ("round_wind_east", 1)], 40),
    ("seat_wind_west", "234m456p789s333z11p", "4m", "", {"seat": "W"},
     [("seat_wind_west", 1)], 40),
    ("seat_wind_north", "234m456p789s444z11p", "4m", "", {"seat": "N"},
     [("seat_wind_north", 1)], 40),
    ("round_wind_south", "234m456p789s222z11p", "4m", "", {"seat": "W", "round_": "S"},
     [("round_wind_south", 1)], 40),
    ("round_wind_west", "234m456p789s333z11p", "4m", "", {"seat": "N", "round_": "W"},
     [("round_wind_west", 1)], 40),
    ("round_wind_north", "234m456p789s444z11p", "4m", "", {"round_": "N"},
     [("round_wind_north", 1)], 40),
    ("guest wind is no yaku", "234m456p789s333z11p", "4m", "", {**S, **RIICHI},
     [("riichi", 1)], 40),
    ("haku", "234m456p789s555z11p", "4m", "", {}, [("haku", 1)], 40),
    ("hatsu open", "234m789s11p", "4m", "pon:666z chi:456p", {}, [("hatsu", 1)], 30),
    ("chun as a kan", "234m456p789s11p", "4m", "minkan:7777z", {}, [("chun", 1)], 40),
    ("chiitoitsu", "1133m4466p2288s55z", "5z", "", {}, [("chiitoitsu", 2)], 25),
    ("chiitoitsu with tanyao", "2233m4466p225588s", "8s", "", {},
     [("chiitoitsu", 2), ("tanyao", 1)], 25),
    ("chanta", "123m789p789s444z99s", "3m", "", S, [("chanta", 2)], 40),
    ("chanta open", "789p789s444z99s", "9s", "chi:123m", S, [("chanta", 1)], 30),
    ("junchan", "123m789p789s111p99s", "3m", "", {}, [("junchan", 3)], 40),
    ("junchan open", "789p789s111p99s", "9s", "chi:123m", {}, [("junchan", 2)], 30),
    ("ittsu", "123456789m234p55s", "5m", "", {}, [("ittsu", 2)], 40),
    ("ittsu open", "123456m234p55s", "5m", "chi:789m", {}, [("ittsu", 1)], 30),
    ("sanshoku_doujun", "123m123p123s567m99p", "2m", "", {}, [("sanshoku_doujun", 2)], 40),
    ("sanshoku_doujun open", "123m123s567m99p", "2m", "chi:123p", {},
     [("sanshoku_doujun", 1)], 30),
    ("sanshoku_doukou", "222m222p456m99p", "5m", "pon:222s", {},
     [("sanshoku_doukou", 2)], 40),
    ("sankantsu", "567m99p", "6m", "ankan:2222m minkan:3333p kakan:4444s", {},
     [("sankantsu", 2)], 60),
    ("toitoi", "444s777s99p", "9p", "pon:222m pon:333p", {}, [("toitoi", 2)], 40),
    ("sanankou", "222m333p444s567s99p", "6s", "", {}, [("sanankou", 2)], 50),
    ("sanankou by tsumo on the shanpon", "222m333p567s444s99p", "4s", "", {"tsumo": True},
     [("menzen_tsumo", 1), ("sanankou", 2)], 40),
    ("no sanankou: a triplet completed by ron is open", "222m333p567s444s99p", "4s", "",
     RIICHI, [("riichi", 1)], 40),
    ("shousangen with two dragon triplets", "555z666z77z123m456p", "3m", "", {},
     [("haku", 1), ("hatsu", 1), ("shousangen", 2)], 50),
    ("honroutou with toitoi and sanankou", "111m999p444z99s", "9s", "pon:555z", S,
     [("haku", 1), ("toitoi", 2), ("sanankou", 2), ("honroutou", 2)], 50),
    ("honroutou with chiitoitsu", "1199m1199p11s1122z", "2z", "", {**S, "round_": "S"},
     [("chiitoitsu", 2), ("honroutou", 2)], 25),
    ("ryanpeikou, not chiitoitsu", "223344m556677p55s", "4m", "", {},
     [("pinfu", 1), ("tanyao", 1), ("ryanpeikou", 3)], 30),
    ("honitsu (the penchan reading pays more fu)", "123345678999m55z", "3m", "", {},
     [("honitsu", 3)], 50),
    ("honitsu open", "123345678m55z", "3m", "pon:999m", {}, [("honitsu", 2)], 30),
    ("chinitsu", "111234567789m55m", "9m", "", {}, [("chinitsu", 6)], 40),
    ("chinitsu open", "234567789m55m", "9m", "pon:111m", {}, [("chinitsu", 5)], 30),
]


@pytest.mark.parametrize(("concealed", "win", "melded", "ctx", "yaku", "fu"),
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_yaku(concealed: str, win: str, melded: str, ctx: dict[str, Any],
              yaku: list[tuple[str, int]] | None, fu: int | None) -> None:
    result = scored(concealed, win, melded, **ctx)
    if yaku is None:
        assert result.outcome is Outcome.NO_YAKU
        return
    assert result.outcome is Outcome.WIN, result.message
    assert sorted(result.yaku) == sorted(yaku)
    assert result.fu == fu
    assert result.yakuman == ()


def test_yaku_are_listed_in_tenhous_order() -> None:
    result = scored("223344m556677p55s", "4m", riichi=True, tsumo=True)
    assert [y for y, _ in result.yaku] == ["menzen_tsumo", "riichi", "pinfu", "tanyao",
                                          "ryanpeikou"]


def test_dora_are_no_yaku() -> None:
    result = scored("234m456p789s345s11p", "3m", dora="9s2m")
    assert result.outcome is Outcome.NO_YAKU
    assert (result.dora, result.han, result.points) == (1, 0, 0)
    assert "dora do not count" in result.message
    data = result.to_json()
    assert (data["is_win"], data["outcome"], data["yaku"], data["payments"]) == \
        (False, "no yaku", [], None)


def test_not_a_winning_shape() -> None:
    result = scored("1111m3344p5566s77z", "7z")
    assert result.outcome is Outcome.NOT_A_WIN  # two identical pairs are not chiitoitsu
    assert not result.is_win and result.payment is None
