"""Words and offers (issue 38, item 4), through the API: an English page gets a refusal in a
player's words (`said`), each problem once; the state says what the pages may offer at this
table (abortive draws the rules know, chi, riichi's points); Quick -> Points keeps what was
entered.

Expected points: a non-dealer's mangan ron is 8,000; 3,900 is a non-dealer's 3 han 30 fu ron
(or 2 han 60 fu: which, nobody entered)."""

from __future__ import annotations

import pytest

from tests.kiosk.conftest import Api

PLAYERS = ["Aki", "Bun", "Chie", "Dai"]


def new_game(api: Api, ruleset: str, players: list[str] = PLAYERS) -> dict:
    r = api.post("/api/games", {"players": players, "ruleset": ruleset})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


@pytest.mark.parametrize("ruleset, aborts, chi", [
    ("tenhou", ["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"], True),
    ("mahjong_soul", ["nine_terminals", "four_winds", "four_riichi", "four_kans"], True),
    ("wrc", [], True),
    ("mahjong_soul_sanma", ["nine_terminals", "four_riichi", "four_kans"], False),
])
def test_the_state_offers_what_applies(api: Api, ruleset: str, aborts: list[str],
                                       chi: bool) -> None:
    players = PLAYERS[:3] if "sanma" in ruleset else PLAYERS
    offers = new_game(api, ruleset, players)["game"]["offers"]
    chombo = offers.pop("chombo")
    assert offers == {"aborts": aborts, "chi": chi, "riichi_from": 1000, "ura": True}
    assert len(chombo) == len(players)


def test_ura_dora_offered_only_where_the_rules_count_them(api: Api) -> None:
    """The win page asks for the ura dora of a riichi win only where they count (issue 38,
    item 7): JPML's rules play without them."""
    assert new_game(api, "jpml")["game"]["offers"]["ura"] is False
    assert new_game(api, "tenhou")["game"]["offers"]["ura"] is True


def test_english_refusals_in_a_players_words(api: Api) -> None:
    new_game(api, "tenhou")
    api.post("/api/corrections", {"deltas": [24500, 0, 0, -24500], "reason": "test"})
    body = api.post("/api/riichi", {"seat": 3}).get_json()
    assert body["error"] == "field 'seat': seat 3 has 500 points; riichi needs 1000"  # scripts
    assert body["said"] == {"error": "Dai has 500 points; riichi needs 1,000", "problems": []}
    body = api.post("/api/score", {"winner": 1, "hand": {"concealed": "123m456p789s22z"}})
    body = body.get_json()
    assert body["error"] == "hand.win: the winning tile is missing"
    assert body["said"]["error"] == "the winning tile is missing"
    body = api.post("/api/score", {"winner": 1, "hand": {"concealed": "11111m456p789s22z",
                                                         "win": "2z"}}).get_json()
    assert body["said"] == {"error": "the hand is not possible",
                            "problems": ["5 copies of 1m; a set has 4"]}
    for said in (body["said"]["error"], *body["said"]["problems"]):
        assert "field '" not in said and "hand." not in said


def test_the_same_problem_is_said_once(api: Api) -> None:
    """A three-player hand of 2m-7m: each such tile is one problem for scripts, one sentence for
    a player."""
    new_game(api, "mahjong_soul_sanma", PLAYERS[:3])
    body = api.post("/api/score", {"winner": 1, "discarder": 0, "hand": {
        "concealed": "234567m456p789s2z", "win": "2z"}}).get_json()
    assert len(body["problems"]) == 6
    assert body["said"]["problems"] == ["2m, 3m, 4m, 5m, 6m, 7m are not in a three-player set"]


@pytest.mark.parametrize("points, worth, han", [(8000, "Mangan", 5), (12000, "Haneman", 6),
                                                (3900, "Points entered", None)])
def test_quick_points_stored_as_entered(api: Api, points: int, worth: str,
                                        han: int | None) -> None:
    new_game(api, "tenhou")
    r = api.post("/api/wins", {"winner": 1, "discarder": 0, "quick": {"points": points}})
    assert r.status_code == 201 and r.get_json()["deltas"] == [-points, points, 0, 0]
    line = api.get("/api/history").get_json()["entries"][-1]
    assert line["hands"][0]["text"] == f"{worth} — {points:,}"
    assert line["text"] == f"Ron off Aki: Bun {worth}"
    record = api.get("/api/export.json").get_json()
    hand = [e for e in record["events"] if e["type"] == "win"][0]["hands"][0]
    assert hand["breakdown"]["entered_points"] == points
    if han is not None:
        assert (hand["han"], hand["yakuman"]) == (han, 0)


@pytest.mark.parametrize("ruleset, pays, final", [
    # a reverse mangan: a non-dealer pays 8,000 (4,000 + 2,000 + 2,000), the dealer 12,000
    ("tenhou", [12000, 8000, 8000, 8000], 0),
    # WRC takes 20,000 off the final score and moves no points now
    ("wrc", [0, 0, 0, 0], 20000),
])
def test_a_chombo_says_its_cost_before_it_is_applied(api: Api, ruleset: str, pays: list[int],
                                                    final: int) -> None:
    offers = new_game(api, ruleset)["game"]["offers"]
    assert offers["chombo"] == [{"pays": p, "final": final} for p in pays]
