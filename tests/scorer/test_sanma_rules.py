"""Three-player (sanma) scoring, option by option, with hands in notation.

Values are worked by hand from the formula (base = fu x 2^(2 + han)) and from the rules each
option names (scorer.rules); the real Tenhou wins of test_real_sanma_wins.py check the same
rules on 602 hands.
"""

from __future__ import annotations

import dataclasses

import pytest

from scorer.hand import Hand, InvalidInput, Meld
from scorer.points import HandValue
from scorer.result import Payment
from scorer.rules import RULESETS, Ruleset, TsumoPayment
from scorer.score import Outcome, Score, score
from tests.scorer.notation import context, hand, scored

TENHOU_SANMA = RULESETS["tenhou_sanma"]
SOUL_SANMA = RULESETS["mahjong_soul_sanma"]
BISECTION = TENHOU_SANMA.with_options(tsumo_payment=TsumoPayment.NORTH_BISECTION)


def with_kita(kita: int, concealed: str, win: str, melded: str = "", rules: str = "tenhou_sanma",
              **ctx: object) -> Score:
    return score(dataclasses.replace(hand(concealed, win, melded), kita=kita), context(**ctx),
                 RULESETS[rules])


def problems(concealed: str, win: str, melded: str = "", rules: str = "tenhou_sanma",
             kita: int = 0, **ctx: object) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        with_kita(kita, concealed, win, melded, rules, **ctx)
    return [str(p) for p in info.value.problems]


# --- the set: no 2m-8m, no chi, no seat opposite, no North seat ---------------------------

def test_2m_to_8m_are_rejected_naming_each_tile() -> None:
    assert problems("234m456p789s11s555z", "4m", dora="5m") == [
        "tiles: 2m is not in a three-player set (sanma plays without 2m-8m)",
        "tiles: 3m is not in a three-player set (sanma plays without 2m-8m)",
        "tiles: 4m is not in a three-player set (sanma plays without 2m-8m)",
        "tiles: 5m is not in a three-player set (sanma plays without 2m-8m)",
    ]
    # The same hand is fine at four players.
    assert scored("234m456p789s11s555z", "4m", dora="5m").is_win


def test_no_chi_and_no_seat_opposite_and_no_north_seat() -> None:
    assert problems("123p11s555z", "3p", "chi:456s pon:999p", seat="N") == [
        "meld 1 (chi 456s): there is no chi at a three-player table",
        "seat_wind: a three-player table seats East, South and West only",
    ]
    opposite = Hand.parse("123p456p11s789s", "3p",
                          melds=[Meld.parse("pon", "555z", "5z", "toimen")])
    with pytest.raises(InvalidInput) as info:
        score(opposite, context(), TENHOU_SANMA)
    assert [str(p) for p in info.value.problems] == [
        "meld 1 (pon 555z): there is no seat opposite at a three-player table (call from "
        "kamicha or shimocha)"]


# --- the dora wrap without 2m-8m -------------------------------------------------------------

@pytest.mark.parametrize(("rules", "indicator", "dora"), [
    ("tenhou_sanma", "1m", 2),  # 1m points past the missing 2m-8m at 9m
    ("tenhou_sanma", "9m", 3),  # and 9m wraps to 1m
    ("tenhou", "1m", 0),  # at four players 1m points at 2m
    ("tenhou", "9m", 3),
])
def test_dora_wrap_without_2m_to_8m(rules: str, indicator: str, dora: int) -> None:
    # Riichi, 99m pair, 111m concealed triplet; ron on 6p (45p, two-sided) by South.
    result = scored("111m123p456p99m78s", "9s", rules=rules, seat="S", riichi=True,
                    dora=indicator)
    assert result.dora == dora


# --- kita: nukidora ----------------------------------------------------------------------------

def test_each_kita_is_a_dora_and_counts_again_for_a_north_indicator() -> None:
    # Riichi tsumo, pinfu shape: 123p 456p 789s 345s 11s... won on 3s by West.
    args = ("123p456p789s45s11s", "3s")
    plain = with_kita(0, *args, seat="W", riichi=True, tsumo=True, dora="1z")
    assert (plain.dora, plain.yaku) == (0, (("menzen_tsumo", 1), ("riichi", 1), ("pinfu", 1)))
    two = with_kita(2, *args, seat="W", riichi=True, tsumo=True, dora="1z")
    assert two.dora == 2 and two.han == 5  # 3 han of yaku + 2 kita
    # A West indicator makes North the dora: each kita then counts twice, and so does an ura
    # West for a riichi (Tenhou: 1 kita under 3z is 2 dora, 2 kita under ura 3z are 2 ura).
    north = with_kita(2, *args, seat="W", riichi=True, tsumo=True, dora="3z", ura="3z")
    assert (north.dora, north.ura_dora) == (4, 2)


def test_kita_is_only_for_a_three_player_table_and_counts_as_north_tiles() -> None:
    assert problems("123p456p789s45s11s", "3s", rules="tenhou", kita=1) == [
        "kita: 1 North(s) pulled out as kita, but tenhou plays no nukidora (only a "
        "three-player table pulls out Norths)"]
    assert problems("123p456p789s11s444z", "3p", kita=2) == [
        "tiles: 5 copies of 4z; a set has 4"]


def test_a_win_on_the_tile_drawn_for_a_kita_is_rinshan_kaihou() -> None:
    args = ("123p456p789s45s11s", "3s")
    won = with_kita(1, *args, seat="S", tsumo=True, rinshan=True)
    assert ("rinshan_kaihou", 1) in won.yaku
    assert problems(*args, seat="S", tsumo=True, rinshan=True) == [
        "rinshan: rinshan kaihou needs a kan (or a North pulled out as kita) in the hand"]


# --- North kept in the hand: a guest wind (Tenhou) or everyone's value tile (Mahjong Soul) ------

def test_a_north_triplet_is_yakuhai_only_where_north_yakuhai() -> None:
    args = ("444z123p456p789s55s", "6p")  # ron on 45p by South, East round
    assert scored(*args, rules="tenhou_sanma", seat="S").outcome is Outcome.NO_YAKU
    soul = scored(*args, rules="mahjong_soul_sanma", seat="S")
    # 20 + 10 closed ron + 8 concealed honour triplet = 38 -> 40 fu; 1 han 40 fu: 1,300.
    assert (soul.yaku, soul.fu, soul.points) == ((("yakuhai_north", 1),), 40, 1300)


def test_a_north_pair_pays_fu_and_breaks_pinfu_only_where_north_yakuhai() -> None:
    args = ("123p456p789s23s44z", "1s")  # riichi ron on 23s (two-sided) by South
    tenhou = scored(*args, rules="tenhou_sanma", seat="S", riichi=True)
    assert (tenhou.yaku, tenhou.fu, tenhou.points) == ((("riichi", 1), ("pinfu", 1)), 30, 2000)
    soul = scored(*args, rules="mahjong_soul_sanma", seat="S", riichi=True)
    # 20 + 10 closed ron + 2 for the value-tile pair = 32 -> 40 fu; 1 han 40 fu: 1,300.
    assert (soul.yaku, soul.fu, soul.points) == ((("riichi", 1),), 40, 1300)
    assert ("pair of the value tile 4z", 2) in [tuple(i) for i in soul.fu_items]


def test_kokushi_counts_no_fu() -> None:
    result = scored("119m19p19s234567z", "1z", rules="tenhou_sanma", seat="S")
    assert (result.yakuman, result.fu, result.points) == ((("kokushi_musou", 1),), 0, 32000)


# --- who pays a tsumo: tsumo loss or north bisection; the honba ---------------------------

# 1 han 30 fu, a non-dealer's menzen tsumo: 20 + 2 tsumo + 4 concealed 222p -> 30 fu, base 240.
NON_DEALER_1_30 = ("222p456p123s789s55s", "6p")


@pytest.mark.parametrize(("rules", "payment"), [
    # Four players: 500 from the dealer, 300 from each of two others.
    ("tenhou", Payment(None, 500, 300, 1100)),
    # Tsumo loss (the README of the Tenhou file: "1 han 30 fu is 300 + 500").
    ("tenhou_sanma", Payment(None, 500, 300, 800)),
    # North bisection: 2.5 and 1.5 base (600 and 360 -> 400): the ron's 1,000.
    (BISECTION, Payment(None, 600, 400, 1000)),
], ids=["four-players", "tsumo-loss", "north-bisection"])
def test_non_dealer_tsumo(rules: str | Ruleset, payment: Payment) -> None:
    result = scored(*NON_DEALER_1_30, rules=rules, seat="S", tsumo=True)
    assert (result.han, result.fu) == (1, 30)
    assert result.payment == payment
    assert result.points == payment.winner_gain


@pytest.mark.parametrize(("rules", "each", "total"), [
    (TENHOU_SANMA, 4000, 8000),  # a dealer's mangan tsumo: 4,000 from each of two
    (BISECTION, 6000, 12000),  # with North's 4,000 split: 6,000 all, the ron's 12,000
], ids=["tsumo-loss", "north-bisection"])
def test_dealer_mangan_tsumo(rules: Ruleset, each: int, total: int) -> None:
    value = HandValue.of(5, 30, TENHOU_SANMA)
    assert value.tsumo(True, rules) == (each, each)
    assert value.total(True, True, rules) == total


def test_non_dealer_mangan_tsumo_under_north_bisection() -> None:
    value = HandValue.of(5, 30, TENHOU_SANMA)
    assert value.tsumo(False, TENHOU_SANMA) == (4000, 2000)  # 6,000: the tsumo loss
    assert value.tsumo(False, BISECTION) == (5000, 3000)  # 8,000: the ron's


def test_honba_is_200_and_a_tsumo_payer_pays_100_of_it() -> None:
    tsumo = scored(*NON_DEALER_1_30, rules="tenhou_sanma", seat="S", tsumo=True, honba=2,
                   riichi_sticks=1)
    assert tsumo.payment == Payment(None, 700, 500, 2200)  # 800 + 2 x 200 + a 1,000 stick
    ron = scored(*NON_DEALER_1_30, rules="tenhou_sanma", seat="S", honba=2, riichi=True)
    # Riichi, 1 han 40 fu ron (20 + 10 + 4 = 34 -> 40): 1,300, and 2 honba of 200.
    assert ron.payment == Payment(1700, None, None, 1700)
