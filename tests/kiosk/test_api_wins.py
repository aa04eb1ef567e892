"""Scoring and applying wins through the API.

Expected values are from the rule texts' payment tables: a non-dealer haneman tsumo is
3,000/6,000; a non-dealer 3 han 30 fu ron is 3,900, 2 han 30 fu 2,000, 4 han 30 fu 7,700; a
yakuman ron 32,000 (pao on a ron: the liable player and the discarder split it). The tables of
WRC 2015 (annex A-1) have 20 fu only by tsumo from 2 han and 25 fu from 2 han by ron, 3 by
tsumo; a dealer's 4 han 30 fu ron is 11,600; each honba is 300 (100 from each on a tsumo).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kiosk.table.scoring import fewest_han
from kiosk.words import i18n
from kiosk.words.yaku_names import fu_words, limit_name, tile_name
from scorer.context import Riichi, WinContext, Wind
from scorer.hand import Hand, Meld
from scorer.points import Limit
from scorer.rules import RULESETS
from scorer.score import score
from tests.kiosk.catalogues import words
from tests.kiosk.conftest import Api, points

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"

# Riichi, menzen tsumo, pinfu, tanyao + 2 dora (indicator 1s -> 2s pair): 6 han haneman.
PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}


def test_score_preview_gives_the_breakdown_and_changes_nothing(api: Api) -> None:
    api.post("/api/riichi", {"seat": 1})
    before = points(api)
    r = api.post("/api/score", {"winner": 1, "discarder": None, "hand": PINFU})
    out = r.get_json()
    assert r.status_code == 200 and out["is_win"]
    assert [(y["id"], y["han"]) for y in out["yaku"]] == [
        ("menzen_tsumo", 1), ("riichi", 1), ("pinfu", 1), ("tanyao", 1)]
    assert out["dora"] == 2 and out["han"] == 6 and out["fu"] == 20
    assert out["limit"] == "haneman" and out["points"] == 12000
    assert out["fu_items"] == [{"reason": "base (futei)", "fu": 20, "text": "Base (futei)"}]
    # 3,000 from each non-dealer, 6,000 from the dealer, plus the riichi stick.
    assert out["payments"] == [-6000, 13000, -3000, -3000]
    assert points(api) == before


def test_ron_3_han_30_fu_pays_3900(api: Api) -> None:
    # Tanyao, pinfu, iipeikou: 3 han; closed ron pinfu is 30 fu. Non-dealer seat 1 from seat 3.
    hand = {"concealed": "223344m456p67s55p", "win": "8s"}
    out = api.post("/api/wins", {"winner": 1, "discarder": 3, "hand": hand}).get_json()
    assert sorted((y["id"], y["han"]) for y in out["breakdowns"][0]["yaku"]) == [
        ("iipeikou", 1), ("pinfu", 1), ("tanyao", 1)]
    assert out["breakdowns"][0]["han"] == 3 and out["breakdowns"][0]["fu"] == 30
    assert out["deltas"] == [0, 3900, 0, -3900]
    history = api.get("/api/history").get_json()["entries"]
    assert history[-1]["breakdowns"][0]["points"] == 3900


def test_not_a_win_is_said_plainly_and_refused(api: Api) -> None:
    hand = {"concealed": "234m456p22s34567s", "win": "9s"}
    preview = api.post("/api/score", {"winner": 1, "discarder": 0, "hand": hand}).get_json()
    assert not preview["is_win"] and preview["verdict"].startswith("Not a winning hand")
    r = api.post("/api/wins", {"winner": 1, "discarder": 0, "hand": hand})
    assert r.status_code == 422 and "not applied" in r.get_json()["error"]
    assert points(api) == [25000] * 4


def test_no_yaku_is_said_plainly(api: Api) -> None:
    # Open hand (chi 789m), East pair, no tanyao: a winning shape without a yaku.
    hand = {"concealed": "234m678p23s11z", "win": "1s",
            "melds": [{"kind": "chi", "tiles": "789m", "called": "7m", "source": "kamicha"}]}
    out = api.post("/api/score", {"winner": 1, "discarder": 0, "hand": hand}).get_json()
    assert not out["is_win"] and out["outcome"] == "no yaku"
    assert out["verdict"].lower().startswith("no yaku")


def test_furiten_ron_is_refused(api: Api) -> None:
    hand = dict(PINFU, discards="5s1m")
    out = api.post("/api/score", {"winner": 1, "discarder": 0, "hand": hand}).get_json()
    assert not out["is_win"] and out["outcome"] == "furiten" and "5s" in out["verdict"]
    tsumo = api.post("/api/score", {"winner": 1, "discarder": None, "hand": hand}).get_json()
    assert tsumo["is_win"]  # furiten still allows tsumo


@pytest.mark.parametrize("body, status, named", [
    ({"winner": 1, "discarder": 0, "hand": {"concealed": "234m456p22s3456Xs", "win": "8s"}},
     400, "hand.concealed"),
    ({"winner": 1, "discarder": 0, "hand": {"concealed": "234m456p22s34567s", "win": "8q"}},
     400, "hand.win"),
    ({"winner": 1, "discarder": 0, "hand": {"concealed": "11111m456p22s3456s", "win": "8s"}},
     422, "copies of 1m"),
    ({"winner": 1, "discarder": 0, "hand": {"concealed": "234m456p22s34567s"}}, 422, "missing"),
    ({"winner": 1, "discarder": 1, "hand": PINFU}, 400, "discarder"),
    ({"winner": 5, "discarder": 0, "hand": PINFU}, 400, "winner"),
    ({"winner": 1, "discarder": 0, "hand": PINFU, "riichi": "riichi"}, 422, "riichi"),
    ({"winner": 1, "discarder": 0, "hand": PINFU, "ippatsu": "yes"}, 400, "ippatsu"),
    ({"winner": 1, "discarder": 0, "hand": PINFU, "rinshan": True}, 422, "rinshan"),
    ({"winner": 1, "discarder": 0}, 400, "either"),
    ({"winner": 1, "discarder": 0, "hand": PINFU, "quick": {"han": 1}}, 400, "either"),
    ({"winner": 1, "discarder": 0,
      "hand": {**PINFU, "melds": [{"kind": "chow", "tiles": "123m"}]}}, 400, "chow"),
    ({"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 35}}, 422, "fu"),
    ({"winner": 1, "discarder": 0, "quick": {"points": 1234}}, 422, "1,234"),
    ({"winner": 1, "discarder": 0, "quick": {"han": 3}, "pao": 1}, 400, "pao"),
], ids=["unknown-tile", "unknown-win-tile", "five-copies", "no-win-tile", "self-ron",
        "bad-winner", "riichi-not-declared", "flag-not-bool", "rinshan-ron", "no-hand",
        "hand-and-quick", "unknown-meld-kind", "bad-fu", "impossible-points", "pao-self"])
def test_bad_win_input_is_a_clear_4xx_and_changes_nothing(api: Api, body: dict, status: int,
                                                          named: str) -> None:
    for path in ("/api/score", "/api/wins"):
        r = api.post(path, body)
        assert r.status_code == status, r.get_json()
        assert named in str(r.get_json())
    assert points(api) == [25000] * 4 and len(api.get("/api/history").get_json()["entries"]) == 1


@pytest.mark.parametrize("quick, dealer_seat_wins, tsumo, expected", [
    ({"han": 4, "fu": 30}, False, False, [-7700, 7700, 0, 0]),
    ({"points": 7700}, False, False, [-7700, 7700, 0, 0]),
    ({"points": 12000}, True, False, [12000, -12000, 0, 0]),
    ({"han": 1, "fu": 30}, False, True, [-500, 1100, -300, -300]),
    ({"yakuman": 1}, False, False, [-32000, 32000, 0, 0]),
], ids=["4han30fu-ron", "7700-ron", "dealer-12000-ron", "1han30fu-tsumo", "yakuman-ron"])
def test_quick_mode(api: Api, quick: dict, dealer_seat_wins: bool, tsumo: bool,
                    expected: list[int]) -> None:
    winner, other = (0, 1) if dealer_seat_wins else (1, 0)
    r = api.post("/api/wins", {"winner": winner, "discarder": None if tsumo else other,
                               "quick": quick})
    assert r.status_code == 201 and r.get_json()["deltas"] == expected


def test_double_ron_pays_each_winner(api: Api) -> None:
    api.post("/api/riichi", {"seat": 3})
    wins = [{"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 30}},
            {"winner": 2, "discarder": 0, "quick": {"han": 2, "fu": 30}}]
    out = api.post("/api/wins", {"wins": wins}).get_json()
    # The stick goes to the winner nearest the discarder (seat 1); the riichi player lost 1,000.
    assert out["deltas"] == [-5900, 4900, 2000, 0]
    assert points(api) == [19100, 29900, 27000, 24000]


def test_double_ron_must_share_the_discard(api: Api) -> None:
    wins = [{"winner": 1, "discarder": 0, "quick": {"han": 1, "fu": 30}},
            {"winner": 2, "discarder": 3, "quick": {"han": 1, "fu": 30}}]
    r = api.post("/api/wins", {"wins": wins})
    assert r.status_code == 400 and "same discard" in r.get_json()["error"]


def test_pao_on_a_ron_splits_the_yakuman(api: Api) -> None:
    out = api.post("/api/wins", {"winner": 1, "discarder": 2, "pao": 3,
                                 "quick": {"yakuman": 1}}).get_json()
    assert out["deltas"] == [0, 32000, -16000, -16000]


def test_pao_with_tiles_needs_a_pao_yakuman(api: Api) -> None:
    # Daisangen with two dragon pons: the liable seat pays all of a tsumo.
    daisangen = {"concealed": "666z23m99p", "win": "1m",
                 "melds": [{"kind": "pon", "tiles": "555z", "called": "5z", "source": "toimen"},
                           {"kind": "pon", "tiles": "777z", "called": "7z", "source": "kamicha"}]}
    plain = api.post("/api/score", {"winner": 2, "discarder": None, "pao": 1, "hand": PINFU})
    assert plain.status_code == 422 and "pao" in plain.get_json()["error"]
    out = api.post("/api/wins", {"winner": 1, "discarder": None, "pao": 3,
                                 "hand": daisangen}).get_json()
    assert out["breakdowns"][0]["yakuman_ids"] == ["daisangen"]
    assert out["deltas"] == [0, 32000, 0, -32000]
    assert out["state"]["end_reason"] == "bust"  # seat 3 is below zero: tobi ends the game


def test_win_after_the_game_ended_is_409(api: Api) -> None:
    api.post("/api/end", {"reason": "time"})
    r = api.post("/api/score", {"winner": 1, "discarder": 0, "quick": {"han": 1, "fu": 30}})
    assert r.status_code == 409


def test_tenpai_check_for_the_draw(api: Api) -> None:
    out = api.post("/api/tenpai", {"concealed": "234m456p22s34567s"}).get_json()
    assert out == {"tenpai": True, "waits": ["2s", "5s", "8s"]}
    noten = api.post("/api/tenpai", {"concealed": "1379m1379p1379s1z"}).get_json()
    assert noten == {"tenpai": False, "waits": []}
    open_hand = api.post("/api/tenpai", {"concealed": "234m456p22s34s", "melds": [
        {"kind": "pon", "tiles": "777z"}]}).get_json()
    assert open_hand["waits"] == ["2s", "5s"]
    short = api.post("/api/tenpai", {"concealed": "234m"})
    assert short.status_code == 422 and "13" in short.get_json()["error"]
    assert api.post("/api/tenpai", {"concealed": "23Xm"}).status_code == 400


def test_breakdown_in_japanese(api: Api) -> None:
    api.post("/api/session/language", {"language": "ja"})
    out = api.post("/api/score", {"winner": 1, "discarder": None, "hand": PINFU}).get_json()
    assert [y["name"] for y in out["yaku"]] == ["門前清自摸和", "平和", "断么九"]


def test_only_kokushi_may_rob_a_closed_kan(api: Api) -> None:
    # Tenhou rules let thirteen orphans rob a closed kan (a yakuman ron: 32,000 from the kan's
    # owner); any other hand robbing a closed kan is not a legal win, said plainly.
    kokushi = {"concealed": "19m19p19s1123456z", "win": "7z"}
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "chankan_of_ankan": True,
                                  "hand": kokushi}).get_json()
    assert out["is_win"] and out["yakuman_ids"] == ["kokushi_musou"]
    assert out["payments"] == [0, 32000, -32000, 0]
    plain = {"concealed": "223344m456p67s55p", "win": "8s"}
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "chankan_of_ankan": True,
                                  "hand": plain}).get_json()
    assert not out["is_win"] and out["outcome"] == "illegal chankan"
    assert out["verdict"].startswith("Not a legal win") and "kokushi" in out["verdict"]


# --- quick mode: only hands that can exist (issue 18, item 4) ------------------------------

@pytest.mark.parametrize("quick, tsumo, said", [
    ({"han": 1, "fu": 20}, False, "1 han 20 fu ron cannot happen: 20 fu is pinfu tsumo"),
    ({"han": 3, "fu": 20}, False, "3 han 20 fu ron cannot happen: 20 fu is pinfu tsumo"),
    ({"han": 6, "fu": 20}, False, "6 han 20 fu ron cannot happen: 20 fu is pinfu tsumo"),
    ({"han": 1, "fu": 20}, True, "1 han 20 fu tsumo cannot happen: 20 fu is pinfu tsumo, at "
                                 "least 2 han"),
    ({"han": 1, "fu": 25}, False, "1 han 25 fu ron cannot happen: 25 fu is chiitoitsu, at "
                                  "least 2 han"),
    ({"han": 2, "fu": 25}, True, "2 han 25 fu tsumo cannot happen: 25 fu is chiitoitsu, at "
                                 "least 3 han with menzen tsumo"),
    ({"han": 3, "fu": 120}, False, "3 han 120 fu ron cannot happen: more than 110 fu needs "
                                   "three closed kans"),
    ({"han": 2, "fu": 45}, True, "45 is not a fu value (20, 25, or 30 to 110 in steps of 10)"),
], ids=["1han20fu-ron", "3han20fu-ron", "6han20fu-ron", "1han20fu-tsumo", "1han25fu-ron",
        "2han25fu-tsumo", "3han120fu", "45fu"])
def test_quick_refuses_hands_that_cannot_exist(api: Api, quick: dict, tsumo: bool,
                                               said: str) -> None:
    for path in ("/api/score", "/api/wins"):
        r = api.post(path, {"winner": 1, "discarder": None if tsumo else 0, "quick": quick})
        assert r.status_code == 422, r.get_json()
        assert r.get_json()["error"].startswith("quick.fu: ") and said in r.get_json()["error"]
    assert points(api) == [25000] * 4


@pytest.mark.parametrize("winner, quick, tsumo, expected, summary", [
    (1, {"han": 2, "fu": 20}, True, [-700, 1500, -400, -400], "2 han 20 fu — 400/700 (1,500)"),
    (1, {"han": 3, "fu": 25}, True, [-1600, 3200, -800, -800],
     "3 han 25 fu — 800/1,600 (3,200)"),
    (1, {"han": 2, "fu": 25}, False, [-1600, 1600, 0, 0], "2 han 25 fu — 1,600"),
    (0, {"han": 2, "fu": 20}, True, [2100, -700, -700, -700], "2 han 20 fu — 700 all (2,100)"),
    (1, {"han": 4, "fu": 140}, False, [-8000, 8000, 0, 0], "4 han 140 fu mangan — 8,000"),
    (1, {"han": 6}, False, [-12000, 12000, 0, 0], "6 han haneman — 12,000"),
], ids=["2han20fu-tsumo", "3han25fu-tsumo", "2han25fu-ron", "dealer-2han20fu-tsumo",
        "4han140fu", "6han-no-fu"])
def test_quick_takes_every_real_combination(api: Api, winner: int, quick: dict, tsumo: bool,
                                            expected: list[int], summary: str) -> None:
    body = {"winner": winner, "discarder": None if tsumo else 0, "quick": quick}
    preview = api.post("/api/score", body).get_json()
    assert preview["summary"] == summary and preview["payments"] == expected
    assert preview["fu_counts"] is (quick["han"] < 5)
    r = api.post("/api/wins", body)
    assert r.status_code == 201 and r.get_json()["deltas"] == expected


@pytest.mark.parametrize("ruleset, quick, base", [
    ("tenhou", {"han": 3, "fu": 40}, "Base points: 40 fu × 2^(3 + 2) = 1,280"),
    ("tenhou", {"han": 4, "fu": 40}, "Base points: 40 fu × 2^(4 + 2) = 2,560, capped at mangan: "
                                     "2,000"),
    ("casual", {"han": 4, "fu": 30}, "Base points: 30 fu × 2^(4 + 2) = 1,920, rounded up to "
                                     "mangan (kiriage): 2,000"),
    ("tenhou", {"han": 11}, "Sanbaiman: base points 6,000"),
    ("tenhou", {"yakuman": 2}, "2x yakuman: base points 16,000"),
], ids=["formula", "capped", "kiriage", "sanbaiman", "double-yakuman"])
def test_base_points_say_where_they_come_from(api: Api, ruleset: str, quick: dict,
                                              base: str) -> None:
    api.post("/api/games", {"players": ["A", "B", "C", "D"], "ruleset": ruleset})
    out = api.post("/api/score", {"winner": 1, "discarder": 0, "quick": quick}).get_json()
    assert out["base"]["text"] == base


def test_quick_choices_follow_the_table_rules(api: Api) -> None:
    tens = list(range(30, 111, 10))
    q = api.get("/api/quick").get_json()
    assert q["ruleset"] == "tenhou" and q["han"] == list(range(1, 14))
    assert q["fu"]["ron"]["1"] == tens and q["fu"]["tsumo"]["1"] == tens
    assert q["fu"]["ron"]["2"] == [25, *tens] and q["fu"]["tsumo"]["2"] == [20, *tens]
    assert q["fu"]["ron"]["3"] == [25, *tens] and q["fu"]["tsumo"]["3"] == [20, 25, *tens]
    assert q["fu"]["ron"]["4"] == [25, *tens, 120, 130, 140]
    assert all(q["fu"][how][str(h)] == [] for how in ("ron", "tsumo") for h in range(5, 14))
    assert [q["limits"][str(h)] for h in range(5, 14)] == [
        "Mangan", *["Haneman"] * 2, *["Baiman"] * 3, *["Sanbaiman"] * 2, "Kazoe yakuman"]
    # A WRC table playing ryanhan shibari: 2 han at least, 13 han is a sanbaiman.
    assert api.post("/api/games", {"players": ["A", "B", "C", "D"], "ruleset": "wrc",
                                   "options": {"min_han": 2}}).status_code == 201
    q = api.get("/api/quick").get_json()
    assert q["han"][0] == 2 and "1" not in q["fu"]["ron"] and q["limits"]["13"] == "Sanbaiman"
    r = api.post("/api/score", {"winner": 1, "discarder": 0, "quick": {"han": 1, "fu": 30}})
    assert r.get_json() == {"error": "quick.han: these rules (wrc) need at least 2 han to win",
                            "problems": [], "status": 422, "code": "quick_min_han",
                            "words": {"han": 1, "fu": 30, "least": 2, "how": "ron"},
                            # an English page's words (issue 38, item 4)
                            "said": {"error": "these rules need at least 2 han to win",
                                     "problems": []}}
    r = api.post("/api/score", {"winner": 1, "discarder": 0, "quick": {"points": 1000}})
    assert r.status_code == 422 and "no hand is worth 1,000" in r.get_json()["error"]


def test_fewest_han_are_measured_under_each_ruleset() -> None:
    for rules in RULESETS.values():
        assert [fewest_han(rules, fu, tsumo) for fu in (20, 25) for tsumo in (False, True)] == [
            None, 2, 2, 3], rules.name
    three = replace(RULESETS["tenhou"], min_han=3)
    assert [fewest_han(three, fu, tsumo) for fu in (20, 25, 30) for tsumo in (False, True)] == [
        None, 3, 3, 3, 3, 3]


# --- every point explained (issue 18, item 5) ----------------------------------------------

def dealer_keeps_the_deal(api: Api, draws: int) -> None:  # each draw adds a honba
    for _ in range(draws):
        assert api.post("/api/draws", {"tenpai": [0]}).status_code == 200


def lines(breakdown: dict[str, Any]) -> list[tuple[str, list[int], int, int, str]]:
    return [(line["kind"], line["from"], line["to"], line["amount"], line["detail"])
            for line in breakdown["payment_lines"]]


def paid_by_lines(out: dict[str, Any]) -> list[int]:  # each seat's change, line by line
    seats = [0, 0, 0, 0]
    for breakdown in out.get("breakdowns", [out]):
        for line in breakdown["payment_lines"]:
            if line["to"] is not None:
                seats[line["to"]] += line["amount"]
            for payer in line["from"]:
                seats[payer] -= line["each"]
    return seats


def test_worked_example_dealer_ron_with_two_honba_and_a_stick(api: Api) -> None:
    # A dealer's 4 han 30 fu ron with 2 honba and 1 riichi stick: 11,600 + 600 + 1,000 = 13,200.
    dealer_keeps_the_deal(api, 2)
    api.post("/api/riichi", {"seat": 2})
    body = {"winner": 0, "discarder": 1, "quick": {"han": 4, "fu": 30}}
    out = api.post("/api/score", body).get_json()
    assert out["summary"] == "4 han 30 fu — 11,600"  # once: not "11,600 (11,600)"
    assert out["base"]["text"] == "Base points: 30 fu × 2^(4 + 2) = 1,920"
    assert lines(out) == [
        ("hand", [1], 0, 11600, "1,920 × 6 = 11,520, rounded up to the next 100"),
        ("honba", [1], 0, 600, "2 × 300"),
        ("sticks", [], 0, 1000, "1 × 1,000")]
    assert [line["text"] for line in out["payment_lines"]] == [
        "Player 2 (South) pays Player 1 (East)", "Honba: Player 2 (South) pays Player 1 (East)",
        "Riichi sticks on the table to Player 1 (East)"]
    assert out["payments"] == [13200, -12200, 0, 0] == paid_by_lines(out)
    applied = api.post("/api/wins", body).get_json()
    assert applied["deltas"] == [13200, -12200, 0, 0]
    kept = api.get("/api/history").get_json()["entries"][-1]["breakdowns"][0]
    assert kept["payment_lines"] == out["payment_lines"]


def test_haneman_tsumo_with_three_honba_two_sticks_and_each_kind_of_dora(api: Api) -> None:
    # The "+14,900 on a 12,000 hand": 3,000/6,000 + 3 x 100 from each + 2 sticks.
    # Riichi, menzen tsumo, pinfu, tanyao; dora 2m (indicator 1m), the red 5s, ura 4p
    # (indicator 3p): 7 han haneman.
    dealer_keeps_the_deal(api, 3)
    api.post("/api/riichi", {"seat": 1})
    api.post("/api/riichi", {"seat": 3})
    hand = {"concealed": "234m456p22s34067s", "win": "8s", "dora": "1m", "ura": "3p"}
    out = api.post("/api/score", {"winner": 1, "discarder": None, "hand": hand}).get_json()
    assert [(y["name"], y["han"]) for y in out["yaku"]] == [
        ("Menzen tsumo", 1), ("Riichi", 1), ("Pinfu", 1), ("Tanyao", 1)]
    assert [(d["name"], d["han"]) for d in out["dora_lines"]] == [
        ("Dora", 1), ("Red fives", 1), ("Ura dora", 1)]
    assert out["summary"] == "7 han haneman — 3,000/6,000 (12,000)"
    assert out["base"]["text"] == "Haneman: base points 3,000" and not out["fu_counts"]
    assert lines(out) == [
        ("hand", [2], 1, 3000, "3,000 × 1"), ("hand", [3], 1, 3000, "3,000 × 1"),
        ("hand", [0], 1, 6000, "3,000 × 2"), ("honba", [2, 3, 0], 1, 900, "3 × 100 = 300 each"),
        ("sticks", [], 1, 2000, "2 × 1,000")]
    assert out["payment_lines"][3]["text"] == "Honba: the other three each pay Player 2 (South)"
    assert out["payments"] == [-6300, 14900, -3300, -3300] == paid_by_lines(out)


# An open hand: concealed pon of Green dragon (8), open pon of 6s (2), kanchan 4-6p on 5p (2):
# 20 + 2 + 8 + 2 = 32 fu, rounded up to 40; hatsu 1 han, 1,300 off a non-dealer ron.
HATSU = {"concealed": "666z123m46p99s", "win": "5p",
         "melds": [{"kind": "pon", "tiles": "666s", "called": "6s", "source": "toimen"}]}


@pytest.mark.parametrize("lang, words, total, summary", [
    ("en", ["Base (futei)", "Closed wait (kanchan)", "Closed pon of Green dragon (honour)",
            "Open pon of 6s (simple)"], "Total: 32 fu → 40 fu (rounded up to 10)",
     "1 han 40 fu — 1,300"),
    ("ja", ["副底", "嵌張待ち", "發の暗刻（字牌）", "6索の明刻（中張牌）"],
     "合計：32符 → 40符（10符単位に切り上げ）", "1翻40符 1,300点"),
])
def test_fu_items_in_words_with_their_rounding(api: Api, lang: str, words: list[str], total: str,
                                               summary: str) -> None:
    api.post("/api/session/language", {"language": lang})
    out = api.post("/api/score", {"winner": 1, "discarder": 3, "hand": HATSU}).get_json()
    assert [(f["text"], f["fu"]) for f in out["fu_items"]] == list(zip(words, [20, 2, 8, 2],
                                                                       strict=True))
    assert out["fu_raw"] == 32 and out["fu"] == 40 and out["fu_text"] == total
    assert out["summary"] == summary and out["fu_counts"]
    assert lines(out)[0][3] == 1300 and out["payments"] == [0, 1300, 0, -1300]
    assert not any("666" in f["text"] for f in out["fu_items"])  # not "666z", nor "666s"


def test_yakuman_breakdown_names_its_size(api: Api) -> None:
    kokushi = {"concealed": "19m19p19s1123456z", "win": "7z"}
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "hand": kokushi}).get_json()
    assert [(y["id"], y["yakuman"], y["han_text"]) for y in out["yaku"]] == [
        ("kokushi_musou", 1, "Yakuman")]
    assert out["dora_lines"] == [] and not out["fu_counts"]
    assert (out["summary"], out["base"]["text"]) == ("Yakuman — 32,000",
                                                     "Yakuman: base points 8,000")
    assert lines(out) == [("hand", [2], 1, 32000, "8,000 × 4")]


def test_double_ron_lines_add_up(api: Api) -> None:
    api.post("/api/riichi", {"seat": 3})
    wins = [{"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 30}},
            {"winner": 2, "discarder": 0, "quick": {"han": 2, "fu": 30}}]
    out = api.post("/api/score", {"wins": wins}).get_json()
    first, second = out["breakdowns"]
    assert lines(first) == [("hand", [0], 1, 3900, "960 × 4 = 3,840, rounded up to the next 100"),
                            ("sticks", [], 1, 1000, "1 × 1,000")]
    assert lines(second) == [("hand", [0], 2, 2000,
                              "480 × 4 = 1,920, rounded up to the next 100")]
    assert out["payments"] == [-5900, 4900, 2000, 0] == paid_by_lines(out)


def test_head_bump_and_pao_lines(api: Api) -> None:
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "pao": 3,
                                  "quick": {"yakuman": 1}}).get_json()
    assert lines(out) == [("hand", [2], 1, 16000, "the rest, not covered by pao"),
                          ("hand", [3], 1, 16000, "liable for the yakuman (pao)")]
    assert out["payments"] == [0, 32000, -16000, -16000] == paid_by_lines(out)
    api.post("/api/games", {"players": ["A", "B", "C", "D"], "ruleset": "mleague"})
    wins = [{"winner": 2, "discarder": 0, "quick": {"han": 2, "fu": 30}},
            {"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 30}}]
    out = api.post("/api/score", {"wins": wins}).get_json()
    assert [line["kind"] for line in out["breakdowns"][0]["payment_lines"]] == ["not_paid"]
    assert out["payments"] == [-3900, 3900, 0, 0] == paid_by_lines(out)


def _fu_reasons() -> set[str]:
    """Every kind of fu item the rules core gives, from winning hands that show each."""
    haku = Meld.parse("pon", "555z", called="5z", source="toimen")
    chi = Meld.parse("chi", "234s", called="2s", source="kamicha")
    kans = [Meld.parse("minkan", "5555z", called="5z", source="toimen"),
            Meld.parse("kakan", "8888s", called="8s", source="kamicha")]
    hands = [  # (hand, tsumo): what it shows
        (Hand.parse("234m456p345789s33z", win="3z"), False),  # closed ron, tanki
        (Hand.parse("123m456p789s55p789s", win="7s"), True),  # tsumo, penchan
        (Hand.parse("123m456p789s55p789s", win="2m"), True),  # kanchan
        (Hand.parse("123m456p789s77z", win="7z", melds=[haku]), False),  # dragon pair, pon
        (Hand.parse("123m456p789s22z", win="2z", melds=[haku]), False),  # seat wind pair
        (Hand.parse("123m456p789s11z", win="1z", melds=[haku]), False),  # round wind pair
        (Hand.parse("234m456p678s55p", win="6s", melds=[chi]), False),  # open pinfu shape
        (Hand.parse("1133m5577p2244s66z", win="6z"), False),  # chiitoitsu
        (Hand.parse("111m999p55s789s234m", win="9p"), False),  # concealed and ron triplets
        (Hand.parse("123m456p11z", win="1z", melds=kans), False),  # open and added kans
        (Hand.parse("123m456p789s11z", win="1z", melds=[Meld.parse("ankan", "2222p")]), True),
    ]
    reasons = set()
    for hand, tsumo in hands:
        closed = all(m.kind.value == "ankan" for m in hand.melds)
        ctx = WinContext(tsumo=tsumo, seat_wind=Wind.SOUTH,
                         riichi=Riichi.RIICHI if closed else Riichi.NONE)
        result = score(hand, ctx, RULESETS["tenhou"])
        assert result.is_win, (hand, result.message)
        reasons.update(item.reason for item in result.fu_items)
    return reasons


def test_every_fu_item_of_the_rules_core_has_words_in_both_languages() -> None:
    reasons = _fu_reasons()
    kinds = {re.sub(r" [1-9]+[mpsz]$", "", re.sub(" of terminals/honours", "", r))
             for r in reasons}
    assert {"base (futei)", "closed ron (menzen kafu)", "tsumo", "kanchan wait", "penchan wait",
            "tanki wait", "open hand of pinfu shape", "chiitoitsu (fixed, not rounded)",
            "pair of the dragon", "pair of the seat wind", "pair of the round wind",
            "concealed triplet", "triplet completed by ron", "open triplet", "open quad",
            "open quad (added)", "closed quad"} <= kinds, kinds
    for reason in reasons:
        for lang in ("en", "ja"):
            words = fu_words(reason, lang)  # t() would answer a missing key with the key
            assert words and not re.search(r"\d{3}[mpsz]|^fu\.|tile\.|\{", words), words
    assert fu_words("pair of the double wind 1z") == "Pair of East wind (seat and round wind)"
    assert tile_name("0p") == "5p" and tile_name("7z", "ja") == "中"


#: The message keys the kiosk puts together from a prefix and a name ("meld." + kind).
KEY_FAMILIES = {
    "abort": "nine_terminals four_winds four_riichi four_kans triple_ron",
    "blessing": "tenhou chiihou renhou", "meld": "chi pon minkan ankan kakan",
    "flag": "ippatsu last_tile rinshan chankan chankan_of_ankan", "wind": "1 2 3 4",
    "limit": " ".join(limit.value.replace(" ", "_") for limit in Limit if limit.value),
    "tile": "m p s 1z 2z 3z 4z 5z 6z 7z", "pay": "not_paid aborted",
    "quick": "by_tsumo by_ron kind_hanfu kind_yakuman kind_points",
    "fu": "simple terminal honour pair_dragon pair_seat_wind pair_round_wind pair_double_wind"}


def test_every_message_key_in_use_exists_in_both_languages() -> None:
    used = set()
    for path in [*(p for p in KIOSK.rglob("*.py") if "parlor" not in p.parts),
                 *KIOSK.glob("web/static/*.js"), *KIOSK.glob("web/templates/*.html")]:
        used |= set(re.findall(r"\bt\(\s*f?[\"']([A-Za-z0-9_.]+)[\"'{]", path.read_text()))
    # Keys put together from a prefix ("meld." + kind): every one the kiosk can ask for.
    prefixes = {key for key in used if key.endswith((".", "_"))}
    used -= prefixes
    for prefix in prefixes:  # the families listed below, and any other page's: not empty
        assert any(key.startswith(prefix) for key in words("en")), prefix
    used |= {f"{family}.{name}" for family, names in KEY_FAMILIES.items()
             for name in names.split()}
    missing = sorted(key for key in used if not i18n.has(key))
    assert missing == []
    blank = sorted(key for lang in i18n.LANGS for key, text in words(lang).items() if not text)
    assert blank == []
    assert limit_name("mangan", "ja") == "満貫" and limit_name("yakuman", "en", 2) == "2x yakuman"
