"""Scoring and applying wins through the API.

Expected values are from the rule texts' payment tables: a non-dealer haneman tsumo is
3,000/6,000; a non-dealer 3 han 30 fu ron is 3,900, 2 han 30 fu 2,000, 4 han 30 fu 7,700; a
yakuman ron 32,000 (pao on a ron: the liable player and the discarder split it). The tables of
WRC 2015 (annex A-1) have 20 fu only by tsumo from 2 han and 25 fu from 2 han by ron, 3 by
tsumo; a dealer's 4 han 30 fu ron is 11,600; each honba is 300 (100 from each on a tsumo).
Every point of a win explained (payment lines, fu items in words): test_api_win_breakdown.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.table.scoring import fewest_han
from scorer.rules import RULESETS
from tests.kiosk.conftest import Api, points

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
