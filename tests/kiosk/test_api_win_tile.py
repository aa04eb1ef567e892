"""A hand of 14 with no winning tile set apart (the photo's missing gap), through the API.

888m 11m 234m 555m 666z by tsumo (seat 1, not the dealer, East round): menzen tsumo 1, hatsu 1,
honitsu 3, sanankou 2 = 7 han, a haneman (3,000/6,000) whichever tile came last; taken on the row's
last tile, 6z. By ron it matters: on 2m (a ryanmen of 34m) the three triplets stay
concealed, hatsu 1 + honitsu 3 + sanankou 2 = 6 han, haneman 12,000; on 8m (a shanpon with 11m)
the 8m triplet counts as open, no sanankou: 4 han, 50 fu (20, 10 for a closed ron, 2, 4 and 8
for the triplets), 8,000 (the rule texts' payment table). So a ron asks which tile won, naming
every tile that could have.
"""

from __future__ import annotations

from tests.kiosk.conftest import Api, points

ROW = "888m11m234m555m666z"


def test_a_tsumo_worth_the_same_whichever_tile_won_is_scored_on_the_rows_last(api: Api) -> None:
    preview = api.post("/api/score", {"winner": 1, "discarder": None,
                                      "hand": {"concealed": ROW}}).get_json()
    assert preview["is_win"] and preview["han"] == 7 and preview["limit"] == "haneman"
    assert sorted(y["id"] for y in preview["yaku"]) == [
        "hatsu", "honitsu", "menzen_tsumo", "sanankou"]
    assert preview["win_inferred"]["tile"] == "6z"
    assert preview["win_inferred"]["text"] == (
        "Scored as won on Green dragon: whichever of these tiles won, the hand is worth the same.")
    out = api.post("/api/wins", {"winner": 1, "discarder": None,
                                 "hand": {"concealed": ROW}}).get_json()
    assert out["deltas"] == [-6000, 12000, -3000, -3000]
    assert points(api) == [19000, 37000, 22000, 22000]
    entry = api.get("/api/history").get_json()["entries"][-1]
    assert entry["hands"][0]["reading"] == "234m 666z 555m 888m 11m (shanpon wait on 666z)"
    assert entry["breakdowns"][0]["win_inferred"]["tile"] == "6z"


def test_a_ron_whose_winning_tile_changes_the_score_is_asked(api: Api) -> None:
    r = api.post("/api/score", {"winner": 1, "discarder": 3, "hand": {"concealed": ROW}})
    body = r.get_json()
    assert r.status_code == 422
    assert body["code"] == "win_choice"
    # every tile that completes the hand, from the row's end back
    assert body["error"] == ("hand.win: which tile won changes the score (it could be 6z, 5m, "
                             "4m, 3m, 2m, 1m, 8m): set the winning tile apart")
    assert body["said"]["error"] == ("which tile won changes the score (it could be Green "
                                     "dragon, 5m, 4m, 3m, 2m, 1m, 8m): tap the winning tile under "
                                     "“Which tile won?”")
    r = api.post("/api/wins", {"winner": 1, "discarder": 3, "hand": {"concealed": ROW}})
    assert r.status_code == 422 and points(api) == [25000] * 4
    # set apart, each is scored as itself: 2m is 6 han, 8m 4 han 50 fu
    two = api.post("/api/score", {"winner": 1, "discarder": 3,
                                  "hand": {"concealed": "888m11m34m555m666z", "win": "2m"}})
    eight = api.post("/api/score", {"winner": 1, "discarder": 3,
                                    "hand": {"concealed": "88m11m234m555m666z", "win": "8m"}})
    assert (two.get_json()["han"], two.get_json()["points"]) == (6, 12000)
    assert (eight.get_json()["han"], eight.get_json()["fu"], eight.get_json()["points"]) == (
        4, 50, 8000)


def test_thirteen_tiles_still_lack_the_winning_tile(api: Api) -> None:
    body = api.post("/api/score", {"winner": 1, "hand": {"concealed": "888m11m234m555m66z"}})
    assert body.status_code == 422 and body.get_json()["code"] == "win_missing"
