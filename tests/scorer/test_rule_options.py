"""Each scoring option of `Ruleset`, on and off, with a hand whose value it changes."""

from __future__ import annotations

import pytest

from scorer.points import Limit
from scorer.rules import RULESETS, KazoeLimit, RenhouValue, Ruleset
from scorer.score import Outcome
from tests.scorer.notation import scored

TENHOU = RULESETS["tenhou"]


def test_kuitan() -> None:
    args = ("456p678s33s888p", "8p", "chi:234m")
    assert scored(*args).yaku == (("tanyao", 1),)
    assert scored(*args, rules=TENHOU.with_options(kuitan=False)).outcome is Outcome.NO_YAKU
    closed = scored("234m456p678s33s888p", "8p", rules=TENHOU.with_options(kuitan=False))
    assert closed.yaku == (("tanyao", 1),)


@pytest.mark.parametrize(("tsumo", "atozuke", "outcome"), [
    (False, True, Outcome.WIN),
    (False, False, Outcome.NO_YAKU),  # 7s would give no yaku: the chun wait alone is not enough
    (True, False, Outcome.WIN),  # menzen tsumo is a yaku on either tile
])
def test_atozuke_closed_shanpon(tsumo: bool, atozuke: bool, outcome: Outcome) -> None:
    # The furiten text's hand: waiting on the 7 sou or the red dragon.
    rules = TENHOU.with_options(atozuke=atozuke)
    result = scored("123m456p789p77s77z", "7z", rules=rules, tsumo=tsumo, seat="S")
    assert result.outcome is outcome


def test_atozuke_open_hand() -> None:
    args = ("123m456p77s77z", "7z", "chi:789p")
    assert scored(*args).yaku == (("chun", 1),)
    assert scored(*args, rules=TENHOU.with_options(atozuke=False)).outcome is Outcome.NO_YAKU
    # A yakuhai already called makes every wait a win.
    assert scored("123m456p77s89p", "7p", "pon:777z",
                  rules=TENHOU.with_options(atozuke=False)).is_win


def test_kiriage() -> None:
    # riichi, pinfu, tanyao + 1 dora: 4 han 30 fu, a non-dealer ron.
    args = ("234m456p678s345s88p", "2m")
    plain = scored(*args, seat="S", riichi=True, dora="1m")
    rounded = scored(*args, seat="S", riichi=True, dora="1m", rules="casual")
    assert (plain.han, plain.fu, plain.points, plain.limit) == (4, 30, 7700, Limit.NONE)
    assert (rounded.points, rounded.limit) == (8000, Limit.MANGAN)


def test_kazoe_yakuman_or_sanbaiman() -> None:
    # menzen tsumo, riichi, pinfu, iipeikou, ittsu, chinitsu = 12 han + 1 dora.
    args = ("112233456789m55m", "4m")
    counted = scored(*args, seat="S", tsumo=True, riichi=True, dora="3m")
    assert counted.han == 13 and counted.yakuman == ()
    assert (counted.limit, counted.points) == (Limit.KAZOE_YAKUMAN, 32000)
    assert counted.to_json()["limit"] == "yakuman"  # Tenhou names it like a real yakuman
    capped = scored(*args, seat="S", tsumo=True, riichi=True, dora="3m",
                    rules=TENHOU.with_options(kazoe=KazoeLimit.SANBAIMAN))
    assert (capped.limit, capped.points) == (Limit.SANBAIMAN, 24000)


@pytest.mark.parametrize(("renhou", "yaku", "points"), [
    (RenhouValue.OFF, None, 0),
    (RenhouValue.MANGAN, [("renhou", 5)], 8000),  # does not combine with pinfu and tanyao
    (RenhouValue.HAN5, [("pinfu", 1), ("renhou", 5), ("tanyao", 1)], 12000),
    (RenhouValue.YAKUMAN, [], 32000),
])
def test_renhou(renhou: RenhouValue, yaku: list[tuple[str, int]] | None, points: int) -> None:
    rules = TENHOU.with_options(renhou=renhou)
    result = scored("234m456p678s345s88p", "2m", rules=rules, seat="S", blessing="renhou")
    if yaku is None:
        assert result.yaku == (("pinfu", 1), ("tanyao", 1))  # just the hand, no renhou
        assert result.points == 2000
        return
    assert sorted(result.yaku) == yaku
    assert result.points == points
    if renhou is RenhouValue.YAKUMAN:
        assert result.yakuman == (("renhou", 1),)


def test_renhou_as_mangan_gives_way_to_a_bigger_hand() -> None:
    rules = TENHOU.with_options(renhou=RenhouValue.MANGAN)
    result = scored("111234567789m55m", "9m", rules=rules, seat="S", blessing="renhou")
    assert result.yaku == (("chinitsu", 6),) and result.points == 12000


def test_renhou_as_mangan_needs_no_other_yaku() -> None:
    result = scored("234m456p789s345s11p", "3m", rules="wrc", seat="S", blessing="renhou")
    assert (result.yaku, result.points, result.dora) == ((("renhou", 5),), 8000, 0)


def test_double_wind_pair_fu() -> None:
    args = ("234m456p999s345s11z", "2m")  # dealer in the East round: 11z is a double wind pair
    four = scored(*args, riichi=True)
    two = scored(*args, riichi=True, rules=TENHOU.with_options(double_wind_pair_fu=2))
    assert (four.fu, two.fu) == (50, 40)
    assert ("pair of the double wind 1z", 4) in four.fu_items


def test_rinshan_tsumo_fu() -> None:
    args = ("234m456p789s11p", "3m", "minkan:2222s")
    counted = scored(*args, tsumo=True, rinshan=True)
    uncounted = scored(*args, tsumo=True, rinshan=True,
                       rules=TENHOU.with_options(rinshan_tsumo_fu=False))
    assert counted.yaku == (("rinshan_kaihou", 1),)
    assert (counted.fu, uncounted.fu) == (40, 30)


def test_red_fives() -> None:
    args = ("234m406p678s345s88p", "2m")
    assert scored(*args, riichi=True).aka_dora == 1
    assert scored(*args, riichi=True, rules=TENHOU.with_options(red_fives=False)).aka_dora == 0


def test_ura_dora_only_with_riichi_and_by_rule() -> None:
    args = ("234m456p678s345s88p", "2m")
    assert scored(*args, riichi=True, ura="7p").ura_dora == 2
    assert scored(*args, ura="7p").ura_dora == 0  # no riichi
    assert scored(*args, riichi=True, ura="7p",
                  rules=TENHOU.with_options(ura_dora=False)).ura_dora == 0


def test_kan_dora_and_kan_ura_dora() -> None:
    args = ("234m456p678s88p", "2m", "ankan:0555s")  # a set's four 5s include the red one
    both = scored(*args, riichi=True, dora="1m4s", ura="7p3m")
    assert (both.dora, both.ura_dora) == (5, 3)  # 2m + four 5s; 88p + 4m
    first_only = scored(*args, riichi=True, dora="1m4s", ura="7p3m",
                        rules=TENHOU.with_options(kan_dora=False, kan_ura_dora=False))
    assert (first_only.dora, first_only.ura_dora) == (1, 2)


def test_ippatsu_by_rule() -> None:
    args = ("234m456p789s345s11p", "3m")
    assert scored(*args, riichi=True, ippatsu=True).han == 2
    assert scored(*args, riichi=True, ippatsu=True,
                  rules=TENHOU.with_options(ippatsu=False)).yaku == (("riichi", 1),)


def test_min_han_counts_yaku_not_dora() -> None:
    rules = TENHOU.with_options(min_han=2)
    assert scored("234m456p678s33s888p", "8p", rules=rules, dora="7p").outcome \
        is Outcome.NO_YAKU
    assert scored("234m456p678s33s888p", "8p", rules=rules, riichi=True).is_win


def test_honba_and_sticks() -> None:
    ron = scored("234m456p678s33s888p", "8p", seat="S", honba=2, riichi_sticks=1)
    assert ron.payment is not None
    assert (ron.points, ron.payment.ron, ron.payment.winner_gain) == (1300, 1900, 2900)
    tsumo = scored("234m456p678s33s888p", "8p", seat="S", tsumo=True, honba=2)
    assert tsumo.payment is not None
    assert (tsumo.payment.from_dealer, tsumo.payment.from_non_dealer) == (1000 + 200, 500 + 200)
    bigger = scored("234m456p678s33s888p", "8p", seat="S", honba=2,
                    rules=TENHOU.with_options(honba_value=1500, riichi_stick=2000),
                    riichi_sticks=1)
    assert bigger.payment is not None
    assert (bigger.payment.ron, bigger.payment.winner_gain) == (1300 + 3000, 1300 + 3000 + 2000)


def test_dealer_tsumo_payment() -> None:
    result = scored("234m456p678s33s888p", "8p", tsumo=True, honba=1, riichi_sticks=2)
    assert result.payment is not None
    # menzen tsumo + tanyao, 30 fu (20 + tsumo 2 + concealed 888p 4): 1000 all; +100 each for
    # the honba, +2000 for the sticks.
    assert (result.fu, result.payment.from_dealer, result.payment.from_non_dealer) == \
        (30, None, 1100)
    assert result.payment.winner_gain == 3 * 1100 + 2000


@pytest.mark.parametrize(("rules", "outcome", "yakuman"), [
    ("tenhou", Outcome.WIN, (("kokushi_musou_13", 1),)),  # Tenhou lets kokushi rob a closed kan
    ("mahjong_soul", Outcome.WIN, (("kokushi_musou_13", 2),)),  # ... as does Mahjong Soul
    ("wrc", Outcome.ILLEGAL_CHANKAN, ()),  # rich handbook l.244: not even for kokushi
    ("ema", Outcome.ILLEGAL_CHANKAN, ()),
    (TENHOU.with_options(kokushi_chankan_ankan=False), Outcome.ILLEGAL_CHANKAN, ()),
])
def test_kokushi_robbing_a_closed_kan(rules: str | Ruleset, outcome: Outcome,
                                      yakuman: tuple[tuple[str, int], ...]) -> None:
    result = scored("19m19p19s1234567z", "9m", rules=rules, seat="S", chankan=True,
                    chankan_of_ankan=True)
    assert (result.outcome, result.yakuman) == (outcome, yakuman)
    if outcome is Outcome.WIN:
        assert result.points == 32000 * yakuman[0][1]
    else:
        assert (result.points, result.payment) == (0, None)
        assert "do not let kokushi musou rob a closed kan" in result.message


def test_only_kokushi_may_rob_a_closed_kan() -> None:
    robbed_added_kan = scored("234m456p789s345s11p", "3m", seat="S", chankan=True)
    assert robbed_added_kan.yaku == (("chankan", 1),)
    robbed_closed_kan = scored("234m456p789s345s11p", "3m", seat="S", chankan=True,
                               chankan_of_ankan=True)
    assert robbed_closed_kan.outcome is Outcome.ILLEGAL_CHANKAN
    assert not robbed_closed_kan.is_win and robbed_closed_kan.points == 0
    assert robbed_closed_kan.message == ("not a legal win: only kokushi musou may rob a closed "
                                         "kan, and this hand is not kokushi")
