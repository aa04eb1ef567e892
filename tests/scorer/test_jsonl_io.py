"""The JSON-lines hand format (scorer.records_io) <-> Hand and WinContext."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import InvalidInput
from scorer.records_io import from_record, to_record
from scorer.tiles import parse_tiles
from tests.scorer.notation import hand

RECORD: dict[str, Any] = {
    "closed": ["0m", "6m", "7m", "1p", "1p"], "win_tile": "1p", "tsumo": True,
    "melds": [{"type": "pon", "tiles": ["6z", "6z", "6z"], "called": "6z", "from": "toimen"},
              {"type": "pon", "tiles": ["7z", "7z", "7z"], "called": "7z", "from": "toimen"},
              {"type": "ankan", "tiles": ["5z", "5z", "5z", "5z"]}],
    "riichi": False, "double_riichi": False, "seat_wind": 4, "round_wind": 2, "dealer": False,
    "dora_indicators": ["9s"], "ura_indicators": [], "honba": 2, "riichi_sticks": 1,
    "agari_index_in_hand": 1, "expected": {"whatever": 1}, "rules": {"aka": True},
}


def test_reads_a_record() -> None:
    h, ctx = from_record(RECORD)
    assert str(h) == "067m11p [pon 666z] [pon 777z] [ankan 5555z] win 1p"
    assert (ctx.tsumo, ctx.seat_wind, ctx.round_wind, ctx.honba, ctx.riichi_sticks) == \
        (True, Wind.NORTH, Wind.SOUTH, 2, 1)
    assert ctx.dora_indicators == parse_tiles("9s")


def test_double_riichi_and_blessings() -> None:
    _, ctx = from_record({**RECORD, "melds": [], "riichi": True, "double_riichi": True})
    assert ctx.riichi is Riichi.DOUBLE
    _, ctx = from_record({**RECORD, "chiihou": True})
    assert ctx.blessing is Blessing.CHIIHOU
    _, ctx = from_record({**RECORD, "haitei": True})
    assert ctx.last_tile


def test_the_second_winner_of_a_double_ron_gets_no_honba_or_sticks() -> None:
    _, ctx = from_record({**RECORD, "agari_index_in_hand": 2})
    assert (ctx.honba, ctx.riichi_sticks) == (0, 0)


def test_every_bad_field_is_named() -> None:
    bad = {**RECORD, "closed": ["0m", "6x"], "win_tile": 5, "seat_wind": 0, "ippatsu": "yes",
           "melds": [{"type": "pong", "tiles": ["6z"]}, "555z",
                                     {"type": "chi", "tiles": ["1m", "2m", "3m"], "from": "me"}]}
    with pytest.raises(InvalidInput) as info:
        from_record(bad)
    fields = [p.field for p in info.value.problems]
    assert fields == ["closed", "win_tile", "melds[0].type", "melds[1]", "melds[2].from",
                      "ippatsu", "seat_wind"]


def test_dealer_flag_must_match_the_seat() -> None:
    with pytest.raises(InvalidInput, match="dealer: dealer is True but the seat wind is North"):
        from_record({**RECORD, "dealer": True})


@given(st.booleans(), st.sampled_from(list(Wind)), st.sampled_from(list(Wind)),
       st.sampled_from(list(Riichi)), st.integers(0, 5), st.integers(0, 5),
       st.sampled_from(["", "1m", "9p4z"]))
def test_round_trip(tsumo: bool, seat: Wind, round_: Wind, riichi: Riichi, honba: int,
                    sticks: int, dora: str) -> None:
    h = hand("123m55p", "5p", "pon:777z chi:406p ankan:1111s")
    if riichi is not Riichi.NONE:
        h = hand("123m55p789s", "5p", "ankan:1111s")
    ctx = WinContext(tsumo=tsumo, seat_wind=seat, round_wind=round_, riichi=riichi,
                     dora_indicators=parse_tiles(dora), honba=honba, riichi_sticks=sticks,
                     last_tile=honba == 3, ippatsu=riichi is not Riichi.NONE and sticks == 2)
    assert from_record(to_record(h, ctx)) == (h, ctx)


def test_a_robbed_closed_kan() -> None:
    record = {"closed": "19m19p19s1234567z9m", "win_tile": "9m", "seat_wind": 2, "chankan": True,
              "chankan_of_ankan": True}
    h, ctx = from_record(record)
    assert (ctx.chankan, ctx.chankan_of_ankan) == (True, True)
    assert from_record(to_record(h, ctx)) == (h, ctx)
    assert "chankan_of_ankan" not in to_record(h, WinContext(chankan=True))  # optional key
