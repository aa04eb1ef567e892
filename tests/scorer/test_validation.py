"""Bad input raises one InvalidInput carrying every problem, each naming its field and tile."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import Hand, InvalidInput, Meld, MeldKind
from scorer.rules import RULESETS
from scorer.score import score
from scorer.tiles import Tile, parse_tiles
from tests.scorer.notation import hand

TENHOU = RULESETS["tenhou"]
GOOD = hand("234m456p789s345s11p", "3m")


def problems(h: Hand, ctx: WinContext) -> list[tuple[str, str]]:
    with pytest.raises(InvalidInput) as info:
        score(h, ctx, TENHOU)
    return [(p.field, p.message) for p in info.value.problems]


@pytest.mark.parametrize(("h", "ctx", "field", "words"), [
    pytest.param(Hand(parse_tiles("11111m456p789s3451s"), (), Tile.parse("3m")), WinContext(),
                 "tiles", "5 copies of 1m", id="five of a tile"),
    pytest.param(Hand(parse_tiles("00m5m456p789s345s11p"), (), Tile.parse("5m")), WinContext(),
                 "tiles", "2 red 5m", id="two red 5m"),
    pytest.param(Hand(parse_tiles("234m456p789s11p"), (), Tile.parse("3m")), WinContext(),
                 "concealed", "11 concealed tiles", id="wrong tile count"),
    pytest.param(hand("234m456p789s345s11p", "9m"), WinContext(), "win_tile", "9m",
                 id="winning tile absent"),
    pytest.param(hand("234m456p789s11p", "3m", "pon:555z"), WinContext(riichi=Riichi.RIICHI),
                 "riichi", "open meld", id="riichi with an open hand"),
    pytest.param(GOOD, WinContext(ippatsu=True), "ippatsu", "needs riichi",
                 id="ippatsu without riichi"),
    pytest.param(hand("234m456p789s11p", "3m", "ankan:5555z"), WinContext(rinshan=True),
                 "rinshan", "not a ron", id="rinshan with ron"),
    pytest.param(hand("234m456p789s11p", "3m", "ankan:5555z"),
                 WinContext(tsumo=True, rinshan=True, last_tile=True), "last_tile", "haitei",
                 id="haitei with rinshan"),
    pytest.param(GOOD, WinContext(tsumo=True, chankan=True), "chankan", "not a tsumo",
                 id="chankan with tsumo"),
    pytest.param(GOOD, WinContext(tsumo=True, rinshan=True), "rinshan", "needs a kan",
                 id="rinshan without a kan"),
    pytest.param(GOOD, WinContext(blessing=Blessing.TENHOU, seat_wind=Wind.SOUTH, tsumo=True),
                 "blessing", "dealer", id="tenhou for a non-dealer"),
    pytest.param(GOOD, WinContext(honba=-1), "honba", "negative", id="negative honba"),
    pytest.param(hand("234m456p11p", "3m", "chi:135s chi:789s"), WinContext(),
                 "meld 1 (chi 135s)", "consecutive", id="chi not in sequence"),
    pytest.param(hand("234m456p789s11p", "3m", "pon:556z"), WinContext(), "meld 1 (pon 556z)",
                 "identical", id="pon of different tiles"),
    pytest.param(Hand(parse_tiles("234m456p789s11p"),
                      (Meld(MeldKind.PON, parse_tiles("555z"), Tile.parse("6z")),),
                      Tile.parse("3m")), WinContext(), "meld 1 (pon 555z)", "6z",
                 id="called tile not in the meld"),
])
def test_each_problem_names_its_field(h: Hand, ctx: WinContext, field: str, words: str) -> None:
    found = problems(h, ctx)
    assert any(f == field and words in message for f, message in found), found


def test_every_problem_is_reported_at_once() -> None:
    bad = Hand(parse_tiles("11111m00m4p789s"), (Meld.parse("pon", "556z"),), Tile.parse("9p"))
    ctx = WinContext(ippatsu=True, chankan=True, tsumo=True, riichi_sticks=-2)
    fields = [field for field, _ in problems(bad, ctx)]
    for expected in ("meld 1 (pon 556z)", "tiles", "win_tile", "ippatsu", "chankan",
                     "riichi_sticks"):
        assert any(f == expected for f in fields), (expected, fields)
    assert len(fields) >= 7  # also: five 1m, two red 5m


def test_the_error_message_lists_them_all() -> None:
    with pytest.raises(InvalidInput, match=r"ippatsu: .*; chankan: "):
        score(GOOD, WinContext(ippatsu=True, chankan=True, tsumo=True), TENHOU)


@pytest.mark.parametrize("kwargs", [{"tsumo": True}, {"riichi": Riichi.DOUBLE}, {}])
def test_a_valid_hand_raises_nothing(kwargs: dict[str, Any]) -> None:
    score(GOOD, WinContext(**kwargs), TENHOU)
