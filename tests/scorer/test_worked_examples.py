"""The worked examples and tables of the rule texts in ../shared/rules, scored by the scorer.

Each test cites the text it comes from. Tables are read from the texts at test time.
"""

from __future__ import annotations

import re

import pytest

from scorer.points import HandValue, Limit, base_points, win_payments
from scorer.rules import RULESETS
from scorer.tiles import parse_tiles
from scorer.waits import is_furiten, is_tenpai, winning_tiles
from tests.scorer.notation import scored
from tests.shared import need

TENHOU = RULESETS["tenhou"]


def _text(name: str) -> str:
    return need("rules", name).read_text(encoding="utf-8")


def test_tutorial_puzzle_double_south_and_six_dora() -> None:
    # tutorial-yaku-calls-rounds.txt, end of 1.2.5.3: South 1, the South player, indicators 4p
    # and 1z, 2m2m3m4m5m1p2p3p4p0p with an added kan of South, ron on 3p: "8 han (Double-South,
    # 6 dora)".
    text = _text("tutorial-yaku-calls-rounds.txt")
    assert "2m2m3m4m5m1p2p3p4p0p　2z2z2z-2z=　3p Ron" in text
    result = scored("2m2m3m4m5m1p2p3p4p0p", "3p", "kakan:2222z", seat="S", round_="S",
                    dora="4p1z")
    assert sorted(result.yaku) == [("round_wind_south", 1), ("seat_wind_south", 1)]
    assert result.dora + result.aka_dora == 6
    assert (result.han, result.limit, result.points) == (8, Limit.BAIMAN, 16000)


def test_handbook_kan_dora_on_the_same_indicator_counts_twice() -> None:
    # riichi-rich-handbook.txt, Dora: indicator 7p and kan indicator 7p with an 888p pon: 6 dora.
    result = scored("234m567s345p22s", "2s", "pon:888p", dora="7p7p")
    assert (result.dora, result.han) == (6, 7)


def test_tutorial_red_five_under_a_four_indicator_is_two_dora() -> None:
    # tutorial 1.2.4.1: "If the dora indicator happens to be a 4, the red 5 of that suit counts as
    # two dora simultaneously."
    result = scored("234m406p678s345s88p", "2m", riichi=True, dora="4p")
    assert (result.dora, result.aka_dora) == (1, 1)


@pytest.mark.parametrize(("indicator", "hand", "win"), [
    ("9m", "111m456p789s345s88p", "8p"),  # 9 -> 1
    ("9p", "111p456m789s345s88m", "8m"),
    ("4z", "111z456p789s345s88p", "8p"),  # North -> East
    ("7z", "555z456p789s345s88p", "8p"),  # Chun -> Haku
])
def test_overview_dora_wrap_around(indicator: str, hand: str, win: str) -> None:
    # riichi-overview.txt, Omote Dora table (its dragons are numbered differently; ours: 5z Haku,
    # 6z Hatsu, 7z Chun, see ARCHITECTURE.md).
    assert scored(hand, win, seat="S", riichi=True, dora=indicator).dora == 3


def test_handbook_payment_formula() -> None:
    # riichi-rich-handbook.txt, Payment: "Fu = 50, Han = 2 ... 50 * 2 ^ (2 + 2) = 800".
    assert base_points(2, 50, TENHOU) == (800, Limit.NONE)


def test_handbook_honba_examples() -> None:
    # riichi-rich-handbook.txt, Honba: a 2-honba ron of 8,000 is 8,600; a tsumo: "East normally
    # pays 4,000 -> 4,200 ... West normally pays 2,000 -> 2,200".
    ron = scored("234m456p678s345s88p", "2m", seat="S", riichi=True, dora="7p", honba=2)
    assert ron.payment is not None and (ron.points, ron.payment.ron) == (8000, 8600)
    tsumo = scored("234m456p678s345s88p", "2m", seat="S", riichi=True, dora="1m", tsumo=True,
                   honba=2)
    assert tsumo.payment is not None and tsumo.points == 8000
    assert (tsumo.payment.from_dealer, tsumo.payment.from_non_dealer) == (4200, 2200)


def test_handbook_pao_examples() -> None:
    # riichi-rich-handbook.txt, Liability Payments: East (dealer) completes daisangen on West's
    # Chun. Tsumo: West pays the whole 48,000 (+ honba). Ron on South: West and South pay 24,000
    # each; the discarder pays the honba.
    result = scored("123m99p", "9p", "pon:555z pon:666z pon:777z", tsumo=True)
    assert result.yakuman == (("daisangen", 1),) and result.points == 48000
    assert result.value is not None
    east, south, west = 0, 1, 2
    tsumo = win_payments(result.value, east, east, None, honba=1, liable=west)
    assert tsumo == (48300, 0, -48300, 0)
    ron = scored("123m99p", "9p", "pon:555z pon:666z pon:777z")
    assert ron.value is not None
    paid = win_payments(ron.value, east, east, south, honba=1, liable=west)
    assert paid == (48300, -24300, -24000, 0)


def test_overview_non_dealer_ron_table() -> None:
    # riichi-overview.txt, "Common Points Reference (Non-dealer Ron)".
    text = _text("riichi-overview.txt")
    table = text[text.index("| Han＼Fu"):text.index("Mangan and Above")]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:] if line.strip()]
    fus = [30, 40, 50, 60, 70]
    checked = 0
    for row in rows:
        han = int(row[0].split()[0])
        for fu, cell in zip(fus, row[1:], strict=True):
            shown = 8000 if cell.strip() == "Mangan" else int(cell.replace(",", ""))
            assert HandValue.of(han, fu, TENHOU).ron(dealer=False) == shown, (han, fu)
            checked += 1
    assert checked == 20


def test_overview_limits_table() -> None:
    # riichi-overview.txt, "Mangan and Above": non-dealer and dealer ron for each limit.
    text = _text("riichi-overview.txt")
    table = text[text.index("| Han | Name |"):text.index("Tsumo Payment Split")]
    values = {"5 han": HandValue.of(5, 30, TENHOU), "6–7 han": HandValue.of(7, 30, TENHOU),
              "8–10 han": HandValue.of(10, 30, TENHOU), "11–12 han": HandValue.of(11, 30, TENHOU),
              "13+ han": HandValue.of(13, 30, TENHOU),
              "Yakuman": HandValue.of(13, 30, TENHOU, yakuman=1),
              "Double Yakuman": HandValue.of(26, 30, TENHOU, yakuman=2)}
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:] if line.strip()]
    assert len(rows) == len(values)
    for row in rows:
        value = next(v for k, v in values.items() if row[0].strip().startswith(k))
        shown = (int(row[2].replace(",", "")), int(row[3].replace(",", "")))
        assert (value.ron(dealer=False), value.ron(dealer=True)) == shown, row


def test_options_text_kiriage_example() -> None:
    # furiten-optional-rules-penalties.txt, Kiriage mangan: without it "that hand pays 7,700 on a
    # non-dealer ron and 11,600 on a dealer ron".
    text = _text("furiten-optional-rules-penalties.txt")
    assert re.search(r"7,700 on a non-dealer ron and 11,600 on a dealer ron", text)
    args = ("234m456p678s345s88p", "2m")
    assert scored(*args, seat="S", riichi=True, dora="1m").points == 7700
    assert scored(*args, riichi=True, dora="1m").points == 11600


def test_wrc_haneman_ron() -> None:
    # wrc annex 4.1.3: "for a haneman the payment is 18 000 to East or 12 000 otherwise".
    value = HandValue.of(6, 30, RULESETS["wrc"])
    assert (value.ron(dealer=True), value.ron(dealer=False)) == (18000, 12000)


def test_tutorial_karaten_is_not_tenpai() -> None:
    # tutorial 1.2.5.2: "3m4m5m3p3p3p3p6p7p8p2s2s2s  Wait on 3p ✖" (all four 3p are held).
    tiles = parse_tiles("345m3333p678p222s")
    assert winning_tiles(tiles) == ()
    assert not is_tenpai(tiles)


def test_furiten_text_one_discarded_wait_blocks_every_wait() -> None:
    # furiten-optional-rules-penalties.txt, Discard furiten: a hand waiting on 6m or 9m; "Say you
    # discarded a 9 man early in the hand. You can't ron the 9. You can't ron the 6 either".
    tiles = parse_tiles("78m234p567p345s55s")
    assert [str(t) for t in winning_tiles(tiles)] == ["6m", "9m"]
    assert is_furiten(tiles, discards=parse_tiles("9m"))
    assert not is_furiten(tiles, discards=parse_tiles("1m5z"))
    six = scored("78m234p567p345s55s", "6m")
    nine = scored("78m234p567p345s55s", "9m")
    assert sorted(six.yaku) == [("pinfu", 1), ("tanyao", 1)] and nine.yaku == (("pinfu", 1),)


def test_handbook_furiten_example() -> None:
    # riichi-rich-handbook.txt: "You have 4p5p and you are waiting for 3p. Your previous discards
    # include 3p. Cannot Ron. Also, cannot Ron on 6p."
    tiles = parse_tiles("45p123m456s789s11z")
    assert [str(t) for t in winning_tiles(tiles)] == ["3p", "6p"]
    assert is_furiten(tiles, discards=parse_tiles("3p"))
