"""Fu, item by item (the handbook's and the overview's fu tables), and the choice of reading."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.context import WinContext, Wind
from scorer.decompose import HandShape, Wait, read
from scorer.fu import fu, fu_items
from scorer.rules import RULESETS
from tests.scorer.notation import hand, scored

TENHOU = RULESETS["tenhou"]


@pytest.mark.parametrize(("concealed", "win", "melded", "ctx", "total", "items"), [
    pytest.param("234m456p789s345s11p", "2m", "", {"tsumo": True, "riichi": True}, 20,
                 [("base (futei)", 20)], id="pinfu tsumo: no tsumo fu"),
    pytest.param("234m456p789s345s11p", "2m", "", {}, 30,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10)], id="pinfu ron"),
    pytest.param("456p678s345s88p", "6p", "chi:234m", {}, 30,
                 [("base (futei)", 20), ("open hand of pinfu shape", 10)],
                 id="open pinfu shape ron"),
    pytest.param("456p678s345s88p", "6p", "chi:234m", {"tsumo": True}, 30,
                 [("base (futei)", 20), ("tsumo", 2)], id="open tsumo rounds up"),
    pytest.param("1133m4466p2288s55z", "5z", "", {}, 25,
                 [("chiitoitsu (fixed, not rounded)", 25)], id="chiitoitsu"),
    pytest.param("234m456p789s345s11p", "3m", "", {"riichi": True}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10), ("kanchan wait", 2)],
                 id="kanchan"),
    pytest.param("123m456p789s345s11p", "3m", "", {"riichi": True}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10), ("penchan wait", 2)],
                 id="penchan"),
    pytest.param("123m456p789s345s11p", "1p", "", {"riichi": True}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10), ("tanki wait", 2)],
                 id="tanki"),
    pytest.param("234m456p678s33s888p", "8p", "", {}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10),
                  ("triplet completed by ron 888p", 2)], id="shanpon ron: an open triplet"),
    pytest.param("234m456p678s33s888p", "8p", "", {"tsumo": True}, 30,
                 [("base (futei)", 20), ("tsumo", 2), ("concealed triplet 888p", 4)],
                 id="shanpon tsumo: a concealed triplet"),
    pytest.param("234m456p789s345s55z", "2m", "", {"riichi": True}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10),
                  ("pair of the dragon 5z", 2)], id="dragon pair"),
    pytest.param("234m456p789s345s22z", "2m", "", {"riichi": True, "seat": "S"}, 40,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10),
                  ("pair of the seat wind 2z", 2)], id="seat wind pair"),
    pytest.param("234m456p789s345s22z", "2m", "", {"riichi": True, "seat": "W", "round_": "S"},
                 40, [("base (futei)", 20), ("closed ron (menzen kafu)", 10),
                      ("pair of the round wind 2z", 2)], id="round wind pair"),
    pytest.param("234m456p999s345s11z", "2m", "", {"riichi": True}, 50,
                 [("base (futei)", 20), ("closed ron (menzen kafu)", 10),
                  ("pair of the double wind 1z", 4),
                  ("concealed triplet of terminals/honours 999s", 8)], id="double wind pair"),
])
def test_fu_items(concealed: str, win: str, melded: str, ctx: dict[str, Any], total: int,
                  items: list[tuple[str, int]]) -> None:
    result = scored(concealed, win, melded, **ctx)
    assert result.is_win, result.message
    assert result.fu == total
    assert [tuple(item) for item in result.fu_items] == items


@pytest.mark.parametrize(("meld", "reason", "value"), [
    ("pon:555m", "open triplet 555m", 2),
    ("pon:111p", "open triplet of terminals/honours 111p", 4),
    ("minkan:5555m", "open quad 5555m", 8),
    ("minkan:9999s", "open quad of terminals/honours 9999s", 16),
    ("kakan:5555m", "open quad (added) 5555m", 8),
    ("kakan:4444z", "open quad (added) of terminals/honours 4444z", 16),
    ("ankan:5555m", "closed quad 5555m", 16),
    ("ankan:7777z", "closed quad of terminals/honours 7777z", 32),
])
def test_meld_fu(meld: str, reason: str, value: int) -> None:
    shape = HandShape.of(hand("234m456p789s11p", "2m", meld))
    (reading,) = read(shape, tsumo=False)
    assert (reason, value) in fu_items(reading, WinContext(seat_wind=Wind.SOUTH), TENHOU)


@pytest.mark.parametrize(("tiles", "reason", "value"), [
    ("555m", "concealed triplet 555m", 4),
    ("111p", "concealed triplet of terminals/honours 111p", 8),
    ("444z", "concealed triplet of terminals/honours 444z", 8),
])
def test_concealed_triplet_fu(tiles: str, reason: str, value: int) -> None:
    shape = HandShape.of(hand(f"234m456p{tiles}11s", "2m", "chi:789s"))
    (reading,) = read(shape, tsumo=False)
    assert (reason, value) in fu_items(reading, WinContext(seat_wind=Wind.SOUTH), TENHOU)


def test_the_reading_that_pays_most_wins_kanchan_over_ryanmen() -> None:
    # 4m completes 345m (kanchan) or 456m (ryanmen); no pinfu (999s, seat-wind pair), so the
    # kanchan's 2 fu lift 40 fu to 50: riichi 1 han 50 fu (1600) beats 40 fu (1300).
    result = scored("344556m123p999s22z", "4m", riichi=True, seat="S")
    assert (result.fu, result.points) == (50, 1600)
    assert result.reading is not None and result.reading.wait is Wait.KANCHAN


def test_the_reading_that_pays_most_wins_ryanmen_for_pinfu() -> None:
    result = scored("344556m123p789s22p", "4m", riichi=True, seat="S")
    assert result.yaku == (("riichi", 1), ("pinfu", 1))
    assert (result.fu, result.points) == (30, 2000)
    assert result.reading is not None and result.reading.wait is Wait.RYANMEN


def test_fu_and_items_agree_for_every_reading() -> None:
    shape = HandShape.of(hand("111222333m456p77z", "3m"))
    readings = read(shape, tsumo=True)
    # 111222333m as triplets (3m completes 333m) or as three 123m (3m completes a penchan).
    assert sorted(r.wait.value for r in readings) == ["penchan", "shanpon"]
    for reading in readings:
        ctx = WinContext(tsumo=True, seat_wind=Wind.SOUTH)
        total = sum(item.fu for item in fu_items(reading, ctx, TENHOU))
        assert fu(reading, ctx, TENHOU) == -(-total // 10) * 10
