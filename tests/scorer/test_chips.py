"""Chips (祝儀) beside the points (issue 39, item 2): what a win earns, who pays, the table's
chips event by event through undo and the record, and the money at the end, worked by hand.

Sources: mahjongcollege.com "麻雀の祝儀(チップ)とは?" (a chip per red five and ura dora; ron: the
discarder pays, tsumo: every other player; yakuman 10 on a ron, 5 all on a tsumo; red-five
chips for concealed wins only, or open ones too); leonkkblog.com "祝儀とは" (ippatsu 1, 面祝 /
鳴き祝); starcat.ne.jp 新栄店 (chips for a concealed win's red fives, ura, ippatsu, kan ura too);
note.com/seaburaroushi (game fee 600 yen at ピン, 300-400 at 点5).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from scorer.chips import ChipItem, win_chips
from scorer.rules import PARLOR_RULESETS, RULESETS, Chips
from scorer.table import (
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Table,
    Win,
    WinningHand,
    dumps,
    loads,
    replay,
)
from scorer.table.money import Stakes, settle_money
from scorer.table.standings import standings
from tests.scorer.notation import scored

# 面祝: a concealed win's red fives, ura, ippatsu, kan ura: a chip each
PARLOR = PARLOR_RULESETS["parlor"]
FOUR_REDS = PARLOR_RULESETS["parlor_four_reds"]  # 鳴き祝, a second red 5p
NAMES = ("Ana", "Ben", "Chie", "Dai")


def test_a_riichi_tsumo_with_ippatsu_ura_and_red_fives() -> None:
    # 234m 4-0-6p 22s 3-4-0-6-7-8s, riichi ippatsu tsumo, ura indicator 1s (2s pair: 2 ura):
    # aka 2 + ura 2 + ippatsu 1 = 5 chips from each of the three others, 15 in all.
    won = scored("234m406p22s340678s", "8s", tsumo=True, riichi=True, ippatsu=True, ura="1s",
                 rules=PARLOR)
    chips = win_chips(won)
    assert chips.items == (ChipItem("aka", 2, 2), ChipItem("ura", 2, 2),
                           ChipItem("ippatsu", 1, 1))
    assert (chips.each, chips.total(4)) == (5, 15)
    assert str(chips) == "aka 2, ura 2, ippatsu 1: 5 chips from each"


def test_a_ron_is_paid_by_the_discarder_alone() -> None:
    won = scored("234m406p22s340678s", "8s", riichi=True, ura="1s", rules=PARLOR)
    chips = win_chips(won)
    assert (chips.each, chips.total(4), str(chips)) == \
        (4, 4, "aka 2, ura 2: 4 chips from the discarder")


def test_open_hands_red_fives_by_the_convention() -> None:
    # 234m 22s 678s, chi 4-0-6p, win 3-4-0s: tanyao, aka 2. 面祝 (parlor): none; 鳴き祝: 2.
    args = ("234m22s678s34s", "0s", "chi:406p")
    assert win_chips(scored(*args, rules=PARLOR)).each == 0
    assert win_chips(scored(*args, rules=FOUR_REDS)).each == 2


def test_tsumo_chips_doubled_and_kan_ura_by_rule() -> None:
    doubled = PARLOR.with_options(chips=Chips(red_five=1, ura=1, tsumo_factor=2))
    won = scored("234m406p22s340678s", "8s", tsumo=True, riichi=True, rules=doubled)
    assert (win_chips(won).each, win_chips(won).total(4)) == (4, 12)  # aka 2 x 2 from each
    # Two ura indicators (after a kan): 1s points at the 2s pair (2), 7p at 8p (none held), 3m
    # at 4m (1). Without kan_ura chips only the first indicator's 2 ura count.
    args = ("234m406p22s340678s", "8s")
    every = scored(*args, riichi=True, ura="1s3m", rules=PARLOR)
    first = scored(*args, riichi=True, ura="1s3m",
                   rules=PARLOR.with_options(chips=Chips(red_five=1, ura=1, kan_ura=False)))
    assert (every.ura_dora, win_chips(every).each) == (3, 5)
    assert (first.ura_dora, win_chips(first).each) == (3, 4)


def test_a_yakuman_pays_its_own_chips() -> None:
    # Suuankou by tsumo: 5 chips from each (15 in all); by ron (tanki): 10 from the discarder.
    tsumo = scored("111m999m222p777z1s", "1s", tsumo=True, rules=PARLOR)
    assert (win_chips(tsumo).items, win_chips(tsumo).total(4)) == \
        ((ChipItem("yakuman", 1, 5),), 15)
    ron = scored("111m999m222p777z1s", "1s", rules=PARLOR)
    assert win_chips(ron).total(4) == 10
    assert win_chips(scored("111m999m222p777z1s", "1s", tsumo=True)).items == ()  # tenhou


def test_the_table_keeps_chips_beside_points_through_undo_and_the_record() -> None:
    table = Table.begin(GameStarted(NAMES, PARLOR))
    table = table.play(RiichiDeclared(1))
    # Ben tsumo 3 han 40 fu (1,300 / 2,600) with 5 chips from each; then Chie rons Dai for 2.
    table = table.play(Win.tsumo(WinningHand(1, 3, 40, chips=5)))
    table = table.play(Win.ron(3, WinningHand(2, 1, 30, chips=2)))
    assert table.state.chips == (-5, 15, -3, -7)
    assert [row.chips for row in table.state.history] == [
        (0, 0, 0, 0), (0, 0, 0, 0), (-5, 15, -5, -5), (-5, 15, -3, -7)]
    assert table.undo().state.chips == (-5, 15, -5, -5)
    record = json.loads(dumps(table.events))
    assert record["events"][2]["hands"][0]["chips"] == 5
    assert record["events"][3]["after"]["chips"] == [-5, 15, -3, -7]
    assert replay(loads(dumps(table.events))).chips == (-5, 15, -3, -7)
    record["events"][3]["after"]["chips"] = [-5, 15, -3, -6]
    with pytest.raises(ValueError, match="after.chips"):
        loads(json.dumps(record))
    # A record without chips (every older one) says nothing of them and still loads.
    plain = json.loads(dumps((GameStarted(NAMES, RULESETS["tenhou"]), ExhaustiveDraw())))
    assert "chips" not in plain["events"][1]["after"]
    assert replay(loads(json.dumps(plain))).chips == (0, 0, 0, 0)
    with pytest.raises(IllegalEvent, match="pays no chips"):
        replay((GameStarted(NAMES, RULESETS["tenhou"]), Win.tsumo(WinningHand(1, 3, 40, chips=1))))


def test_the_money_at_the_end_worked_by_hand() -> None:
    # parlor: 25,000 start, 30,000 return (oka 20 to first), uma +10/+5/-5/-10. Final points
    # 45,200 / 31,300 / 18,900 / 4,600: (points - 30,000)/1000 + uma, first takes the oka:
    # +15.2 + 10 + 20 = +45.2; +1.3 + 5 = +6.3; -11.1 - 5 = -16.1; -25.4 - 10 = -35.4.
    # At 点5 (50 yen a thousand), 100 yen a chip, 400 yen a game, the top pays 200 more:
    # Ana 45.2 x 50 = 2,260 + 4 chips 400 - 600 = 2,060; Ben 315 - 200 - 400 = -285;
    # Chie -805 + 300 - 400 = -905; Dai -1,770 - 500 - 400 = -2,670. Sum: -1,800, the fees.
    points = (45200, 31300, 18900, 4600)
    rows = standings(NAMES, points, (0, 0, 0, 0), 0, PARLOR)
    assert [r.score for r in rows] == [Fraction("45.2"), Fraction("6.3"), Fraction("-16.1"),
                                       Fraction("-35.4")]
    lines = settle_money(rows, (4, -2, 3, -5), Stakes(rate=50, chip=100, game_fee=400,
                                                      top_fee=200))
    assert [(m.name, m.for_score, m.for_chips, m.fee, m.total) for m in lines] == [
        ("Ana", 2260, 400, 600, 2060), ("Ben", 315, -200, 400, -285),
        ("Chie", -805, 300, 400, -905), ("Dai", -1770, -500, 400, -2670)]
    assert sum(m.total for m in lines) == -1800


def test_the_stakes_are_a_rule_option_the_record_keeps() -> None:
    # The parlor presets play 点5: 50 yen a thousand, 100 yen a chip, 400 yen a game.
    assert PARLOR.stakes == Stakes(rate=50, chip=100, game_fee=400)
    assert PARLOR_RULESETS["parlor_sanma"].stakes == PARLOR.stakes
    assert not RULESETS["tenhou"].stakes.settles and PARLOR.stakes.settles
    pin = PARLOR.with_options(stakes=Stakes(rate=100, chip=200, game_fee=600, top_fee=300))
    record = json.loads(dumps((GameStarted(NAMES, pin),)))
    options = record["events"][0]["rules"]["options"]
    assert options["stakes"] == {"rate": 100, "chip": 200, "game_fee": 600, "top_fee": 300}
    assert replay(loads(json.dumps(record))).rules.stakes == pin.stakes
    # An older record says nothing of stakes: the preset's; keys left out keep the preset's.
    del options["stakes"]
    assert replay(loads(json.dumps(record))).rules.stakes == PARLOR.stakes
    options["stakes"] = {"rate": 100}
    assert replay(loads(json.dumps(record))).rules.stakes == Stakes(100, 100, 400)
    options["stakes"] = {"rate": 1_000_001}
    with pytest.raises(ValueError, match="stakes.rate"):
        replay(loads(json.dumps(record)))
    options["stakes"] = {"yen": 1}
    with pytest.raises(ValueError, match="stakes.yen"):
        loads(json.dumps(record))
