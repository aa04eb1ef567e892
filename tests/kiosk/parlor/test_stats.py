"""Member statistics, leaderboards and Tenhou's R from games posted as a kiosk posts them, on a
real store (SQLite, and PostgreSQL like the other parlor tests). Every expected value is worked
out by hand below from the rules (WRC: 30,000 start and return, uma 15/5/-5/-15, no oka, exact
scores), never by the code under test.

The games (seat: player; the #NUMBER in a name makes the seat that member's once staff confirm
it, as the fixture does for every tagged seat of g1-g3):

- g1, Table 1, 2024-03-05: Ana #00001 (dealer), Ben #00002, Chie #00003, Dai (a guest).
  Ben riichi (29,000), Ben rons Ana 3 han 30 fu = 3,900 + the stick: Ben 33,900, Ana 26,100;
  draw, Chie alone tenpai (+3,000, others -1,000): Ana 25,100, Ben 32,900, Chie 33,000,
  Dai 29,000; ended. Scores: Chie 3.0+15 = 18.0, Ben 2.9+5 = 7.9, Dai -1.0-5 = -6.0,
  Ana -4.9-15 = -19.9. Two hands.
- g2, Table 2, 2024-03-05: Ben #00002 (dealer), Ana #00001, Dai, Chie #00003. Chie tsumo 1 han
  30 fu = 300/500 (1,100): Ben 29,500, Ana 29,700, Dai 29,700, Chie 31,100; ended. Ana and Dai
  tie: the scorer puts the seat nearer the first dealer first, so Ana 2nd. Scores: Chie
  1.1+15 = 16.1, Ana -0.3+5 = 4.7, Dai -0.3-5 = -5.3, Ben -0.5-15 = -15.5. One hand.
- g3, Table 1, 2024-04-02: as g1; staff link Dai's seat to member 00004. Chie riichi (29,000);
  Ana (dealer) rons Ben 2 han 30 fu = 2,900 + the stick: Ana 33,900, Ben 27,100; ended.
  Scores: Ana 3.9+15 = 18.9, Dai 0+5 = 5.0, Chie -1.0-5 = -6.0, Ben -2.9-15 = -17.9. One hand.
- g4, Table 2, 2024-04-02: started, never finished: counts nowhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from scorer.rules import RULESETS
from scorer.table import (
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    Win,
    WinningHand,
    event_to_dict,
)
from tests.kiosk.parlor.conftest import Staff

WRC = RULESETS["wrc"]
ANA, BEN, CHIE = "Ana #00001", "Ben #00002", "Chie #00003"
GAMES = {
    "g1": ("Table 1", "2024-03-05T10:00:00.000+00:00", "2024-03-05T11:30:00.000+00:00", [
        GameStarted((ANA, BEN, CHIE, "Dai"), WRC), RiichiDeclared(1),
        Win.ron(0, WinningHand(1, 3, 30)), ExhaustiveDraw(frozenset({2})), GameEnded("time")]),
    "g2": ("Table 2", "2024-03-05T11:00:00.000+00:00", "2024-03-05T12:00:00.000+00:00", [
        GameStarted((BEN, ANA, "Dai", CHIE), WRC), Win.tsumo(WinningHand(3, 1, 30)),
        GameEnded("time")]),
    "g3": ("Table 1", "2024-04-02T10:00:00.000+00:00", "2024-04-02T11:00:00.000+00:00", [
        GameStarted((ANA, BEN, CHIE, "Dai"), WRC), RiichiDeclared(2),
        Win.ron(1, WinningHand(0, 2, 30)), GameEnded("time")]),
    "g4": ("Table 2", "2024-04-02T12:00:00.000+00:00", "2024-04-02T12:10:00.000+00:00", [
        GameStarted((ANA, BEN, CHIE, "Dai"), WRC), RiichiDeclared(0)]),
}


def play(app: Flask, store: ParlorStore) -> None:
    tokens = {name: store.add_table(name) for name in ("Table 1", "Table 2")}
    for game, (table, started, ended, events) in GAMES.items():
        body = {"games": [{"game": game, "revision": 0, "events": [
            {"index": i, "event": event_to_dict(e)} for i, e in enumerate(events)]}]}
        answer = app.test_client().post(f"/api/tables/{table}/events", json=body,
                                        headers={"Authorization": f"Bearer {tokens[table]}"})
        assert answer.status_code == 200, answer.get_json()
        with store.db.transaction() as tx:  # as if played on those days
            tx.run("UPDATE parlor_games SET first_received = ?, last_received = ? WHERE "
                   "game_id = ?", (started, ended, game))


@pytest.fixture
def played(parlor_app: Flask, parlor_store: ParlorStore, staff: Staff) -> Staff:
    for name in ("Ana", "Ben", "Chie", "Dai"):
        parlor_store.add_member(name)  # numbers 00001-00004
    play(parlor_app, parlor_store)
    assert staff.post("/api/settings", {"timezone": "UTC"}, "PATCH").status_code == 200
    linked = staff.post("/api/tables/Table 1/games/g3/seats/3", {"member": "00004"}, "PUT")
    assert linked.status_code == 200, linked.get_json()
    confirm(staff, TAGGED)
    return staff


#: The seats a #NUMBER names, which staff confirm (a tag alone counts for nobody).
TAGGED = {("Table 1", "g1"): (0, 1, 2), ("Table 2", "g2"): (0, 1, 3), ("Table 1", "g3"): (0, 1, 2)}


def confirm_shown(staff: Staff) -> None:
    """Staff confirm every seat today's games show a member at (by its #NUMBER)."""
    games = staff.get("/api/games?limit=500").get_json()["games"]
    confirm(staff, {(g["table"], g["game"]): tuple(s["seat"] for s in g["seats"]
                                                   if s["member"] is not None) for g in games})


def confirm(staff: Staff, seats: dict[tuple[str, str], tuple[int, ...]]) -> None:
    for (table, game), numbers in seats.items():
        for seat in numbers:
            answer = staff.post(f"/api/games/{table}/{game}/seats/{seat}/confirm", {})
            assert answer.status_code == 200, answer.get_json()


def stats(staff: Staff, number: str, **args: str) -> dict[str, Any]:
    answer = staff.get(f"/api/members/{number}/stats", query_string=args)
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json()["stats"])


def test_member_statistics_over_all_time(played: Staff) -> None:
    assert stats(played, "00001") == {
        "games": 3, "hands": 4,  # 2 + 1 + 1 hands
        "total_score": pytest.approx(3.7),  # -19.9 + 4.7 + 18.9
        "average_score": pytest.approx(1.233),  # 3.7 / 3
        "average_place": pytest.approx(2.333),  # (4 + 2 + 1) / 3
        "first_share": pytest.approx(0.3333), "last_share": pytest.approx(0.3333),  # 1/3 each
        "wins": 1, "win_rate": 0.25,  # g3's win, of 4 hands
        "deal_in_rate": 0.25,  # g1's ron off Ana
        "riichi_rate": 0.0, "average_win": 2900.0,  # dealer 2 han 30 fu ron
        "chips": 0, "money": None,  # tenhou's rules: no chips, no stakes
    }
    assert stats(played, "00002") == {
        "games": 3, "hands": 4, "total_score": pytest.approx(-25.5),  # 7.9 - 15.5 - 17.9
        "average_score": pytest.approx(-8.5), "average_place": pytest.approx(3.333),  # 10/3
        "first_share": 0.0, "last_share": pytest.approx(0.6667),  # last in g2 and g3
        "wins": 1, "win_rate": 0.25, "deal_in_rate": 0.25, "riichi_rate": 0.25,
        "average_win": 3900.0,  # 3 han 30 fu ron; the riichi stick it took is left out
        "chips": 0, "money": None,
    }
    chie = stats(played, "00003")
    assert chie["average_place"] == pytest.approx(1.667)  # (1 + 1 + 3) / 3
    assert chie["first_share"] == pytest.approx(0.6667) and chie["last_share"] == 0.0
    assert chie["total_score"] == pytest.approx(28.1)  # 18.0 + 16.1 - 6.0
    assert chie["average_win"] == 1100.0 and chie["riichi_rate"] == 0.25  # the tsumo; g3
    # Dai counts only where staff linked the seat (g3): a guest in g1 and g2.
    assert stats(played, "00004") == {
        "games": 1, "hands": 1, "total_score": 5.0, "average_score": 5.0, "average_place": 2.0,
        "first_share": 0.0, "last_share": 0.0, "wins": 0, "win_rate": 0.0,
        "deal_in_rate": 0.0, "riichi_rate": 0.0, "average_win": None, "chips": 0, "money": None,
    }


def test_statistics_over_a_period(played: Staff) -> None:
    march = stats(played, "00001", **{"from": "2024-03-01", "to": "2024-03-31"})
    assert march["games"] == 2 and march["average_place"] == 3.0  # (4 + 2) / 2
    assert march["total_score"] == pytest.approx(-15.2)  # -19.9 + 4.7
    assert march["deal_in_rate"] == pytest.approx(0.3333)  # 1 of 3 hands
    assert stats(played, "00004", to="2024-03-31")["games"] == 0
    everyone = played.get("/api/stats", query_string={"from": "2024-04-01"}).get_json()
    assert [(m["number"], m["stats"]["games"]) for m in everyone["members"]] == [
        ("00001", 1), ("00002", 1), ("00003", 1), ("00004", 1)]  # g3 only; g4 never ended


def board(staff: Staff, **args: str) -> list[tuple[str, Any, Any]]:
    answer = staff.get("/api/leaderboard", query_string=args)
    assert answer.status_code == 200, answer.get_json()
    return [(r["number"], r["total_score"], r["rating"]) for r in answer.get_json()["rows"]]


def test_monthly_board_and_tenhou_r(played: Staff) -> None:
    # R after g1 (everyone 1500, table average 1500, coefficient 1 - 0.002 x 0 = 1):
    #   Chie 1st 1500 + 30 = 1530, Ben 2nd 1510, Ana 4th 1470.
    # g2: average (1510 + 1470 + 1500 guest + 1530) / 4 = 1502.5, coefficient 0.998:
    #   Chie (30 + (1502.5 - 1530) / 40) x 0.998 = 29.3125 x 0.998 = 29.253875 -> 1559.253875
    #   Ana (10 + (1502.5 - 1470) / 40) x 0.998 = 10.8125 x 0.998 = 10.790875 -> 1480.790875
    #   Ben (-30 + (1502.5 - 1510) / 40) x 0.998 = -30.1875 x 0.998 = -30.127125 -> 1479.872875
    # Totals in March: Chie 18.0 + 16.1 = 34.1, Ben 7.9 - 15.5 = -7.6, Ana -19.9 + 4.7 = -15.2.
    assert board(played, month="2024-03", min_games="2") == [
        ("00003", pytest.approx(34.1), 1559.25), ("00002", pytest.approx(-7.6), 1479.87),
        ("00001", pytest.approx(-15.2), 1480.79)]
    by_r = board(played, month="2024-03", min_games="2", order="rating")
    assert [n for n, _, _ in by_r] == ["00003", "00001", "00002"]
    assert board(played, month="2024-03", min_games="3") == []  # nobody played 3 in March


def test_season_board(played: Staff) -> None:
    added = played.post("/api/seasons", {"name": "Spring 2024", "from": "2024-03-01",
                                         "to": "2024-04-30"})
    assert added.status_code == 201, added.get_json()
    # g3: average (1480.790875 + 1479.872875 + 1559.253875 + 1500) / 4 = 1504.97940625;
    #   Ana 1st, coefficient 0.996 (2 games before):
    #     (30 + (1504.97940625 - 1480.790875) / 40) x 0.996 = 30.60471328125 x 0.996
    #     = 30.482294428125 -> 1511.273169428125
    #   Ben 4th: (-30 + 25.10653125 / 40) x 0.996 = -29.254847371875 -> 1450.618027628125
    #   Chie 3rd: (-10 - 54.27446875 / 40) x 0.996 = -11.311434271875 -> 1547.942440728125
    #   Dai 2nd, first game (coefficient 1): 10 + 4.97940625 / 40 = 10.12448515625
    #     -> 1510.12448515625
    assert board(played, season="Spring 2024", min_games="1", order="rating") == [
        ("00003", pytest.approx(28.1), 1547.94), ("00001", pytest.approx(3.7), 1511.27),
        ("00004", 5.0, 1510.12), ("00002", pytest.approx(-25.5), 1450.62)]
    # By total score (the default): 28.1, 5.0, 3.7, -25.5.
    assert [n for n, _, _ in board(played, season="Spring 2024", min_games="1")] == [
        "00003", "00004", "00001", "00002"]


@pytest.mark.parametrize(("path", "args", "field"), [
    ("/api/leaderboard", {"month": "2024-13"}, "month"),
    ("/api/leaderboard", {"month": "2024-03", "season": "x"}, "season"),
    ("/api/leaderboard", {"season": "Nope"}, "season"),
    ("/api/leaderboard", {"min_games": "-1"}, "min_games"),
    ("/api/leaderboard", {"order": "name"}, "order"),
    ("/api/leaderboard", {"form": "2024-01-01"}, "form"),
    ("/api/members/00001/stats", {"from": "2024-02-30"}, "from"),
    ("/api/members/00001/stats", {"from": "2024-03-02", "to": "2024-03-01"}, "to"),
    ("/api/games", {"date": "yesterday"}, "date"),
    ("/api/stats", {"limit": "501"}, "limit"),
], ids=["month", "two-periods", "no-season", "min-games", "order", "unknown", "bad-date",
        "backwards", "day", "limit"])
def test_every_parameter_is_checked_by_name(played: Staff, path: str, args: dict[str, str],
                                            field: str) -> None:
    answer = played.get(path, query_string=args)
    assert answer.status_code in (400, 404), answer.get_json()
    assert answer.get_json()["field"] == field and field in answer.get_json()["error"]
