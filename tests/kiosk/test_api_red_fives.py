"""A table whose set holds two red 5p (issue 39, item 1), through the API: the game's rules say
so, a hand with both 0p scores them as two aka dora, and a third is refused naming it."""

from __future__ import annotations

from tests.kiosk.conftest import Api


def _start(api: Api, red_fives: object) -> dict:
    r = api.post("/api/games", {"players": ["Ann", "Bo", "Cy", "Di"], "ruleset": "tenhou",
                                "options": {"red_fives": red_fives}})
    assert r.status_code == 201, r.get_json()
    return api.get("/api/state").get_json()


def test_two_red_5p_score_where_the_set_holds_them(api: Api) -> None:
    _start(api, {"m": 1, "p": 2, "s": 1})
    rules = api.get("/api/history").get_json()["ruleset"]
    assert rules["red_fives"] == {"m": 1, "p": 2, "s": 1}
    # Riichi ron, non-dealer seat 1 off seat 3: riichi 1 + aka 2 = 3 han; 20 + 10 closed ron +
    # 2 tanki = 40 fu: 40 x 2^5 = 1,280 x 4 = 5,120 -> 5,200.
    api.post("/api/riichi", {"seat": 1})
    hand = {"concealed": "234m340p406p678s9s", "win": "9s"}
    out = api.post("/api/wins", {"winner": 1, "discarder": 3, "hand": hand, "riichi": "riichi"})
    assert out.status_code == 201, out.get_json()
    body = out.get_json()
    assert (body["breakdowns"][0]["han"], body["breakdowns"][0]["fu"]) == (3, 40)
    assert body["deltas"] == [0, 6200, 0, -5200]  # the riichi stick back to its owner


def test_a_third_red_5p_is_refused_and_one_each_refuses_the_second(api: Api) -> None:
    _start(api, {"m": 1, "p": 2, "s": 1})
    three = {"concealed": "234m000p678s345s9s", "win": "9s"}
    r = api.post("/api/score", {"winner": 1, "discarder": 3, "hand": three})
    assert r.status_code == 422 and "3 red 5p" in str(r.get_json())
    _start(api, True)
    two = {"concealed": "234m340p406p678s9s", "win": "9s"}
    r = api.post("/api/score", {"winner": 1, "discarder": 3, "hand": two})
    assert r.status_code == 422 and "2 red 5p" in str(r.get_json())
