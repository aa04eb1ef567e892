"""The counter's pages and daily report, and what a signed-in member may see, on the games of
test_stats (values worked out there and below by hand)."""

from __future__ import annotations

import re

from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff
from tests.kiosk.parlor.test_stats import played  # noqa: F401  (the fixture)


def test_pages_need_a_staff_sign_in(parlor_app: Flask, parlor_store: ParlorStore) -> None:
    parlor_store.add_staff(STAFF, PASSWORD)
    client = parlor_app.test_client()
    for path in ("/counter/", "/counter/members", "/counter/leaderboard", "/counter/today",
                 "/counter/report.csv"):
        answer = client.get(path)
        assert answer.status_code == 302 and answer.location.endswith("/counter/login")
    form = client.get("/counter/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf is not None
    wrong = client.post("/counter/login", data={"csrf": csrf.group(1), "name": STAFF,
                                                "password": "not it at all"})
    assert wrong.status_code == 403 and "Wrong name or password" in wrong.get_data(as_text=True)
    no_token = client.post("/counter/login", data={"name": STAFF, "password": PASSWORD})
    assert no_token.status_code == 403  # a form from another site cannot sign anyone in
    right = client.post("/counter/login", data={"csrf": csrf.group(1), "name": STAFF,
                                                "password": PASSWORD})
    assert right.status_code == 302 and client.get("/counter/").status_code == 200


def test_the_pages_show_the_games(played: Staff) -> None:  # noqa: F811
    tables = played.get("/counter/").get_data(as_text=True)
    assert "Table 1" in tables and "Table 2" in tables and "playing" in tables  # g4
    members = played.get("/counter/members?from=2024-03-01&to=2024-03-31").get_data(as_text=True)
    assert "Chie" in members and "34.1" not in members  # averages, not totals: 17.1 for Chie
    assert "17.1" in members  # (18.0 + 16.1) / 2 = 17.05 -> 17.1
    board = played.get("/counter/leaderboard?month=2024-03&min_games=2").get_data(as_text=True)
    assert board.index("Chie (00003)") < board.index("Ben (00002)") < board.index("Ana (00001)")
    day = played.get("/counter/today?date=2024-03-05").get_data(as_text=True)
    assert "1. Chie #00003:\n18.0 / 33,000" in day and "4. Ben #00002:\n-15.5 / 29,500" in day
    bad = played.get("/counter/leaderboard?month=March")
    assert bad.status_code == 400 and "month: expected a month YYYY-MM" in bad.get_data(
        as_text=True)


def test_the_daily_report(played: Staff) -> None:  # noqa: F811
    assert played.post("/api/settings", {"fee_per_game": "500"}, "PATCH").status_code == 200
    answer = played.get("/counter/report.csv?date=2024-03-05")
    assert answer.mimetype == "text/csv"
    assert "parlor-report-2024-03-05.csv" in answer.headers["Content-Disposition"]
    # g1 on Table 1 ran 10:00-11:30 (1.5 h), g2 on Table 2 11:00-12:00 (1 h); 500 a game.
    assert answer.get_data(as_text=True).splitlines() == [
        "date,table,games,running,hours,fee_per_game,fees,held_changes,chips,stake_fees",
        "2024-03-05,Table 1,1,0,1.50,500.00,500.00,,0,0",
        "2024-03-05,Table 2,1,0,1.00,500.00,500.00,,0,0",
        "2024-03-05,total,2,0,2.50,500.00,1000.00,0,0,0",
    ]
    april = played.get("/api/report.csv?date=2024-04-02").get_data(as_text=True).splitlines()
    assert april[1:] == ["2024-04-02,Table 1,1,0,1.00,500.00,500.00,,0,0",
                         "2024-04-02,Table 2,0,1,0.00,500.00,0.00,,0,0",  # g4 still running
                         "2024-04-02,total,1,1,1.00,500.00,500.00,0,0,0"]
    games = played.get("/api/games?date=2024-03-05").get_json()["games"]
    assert [(g["table"], g["game"], [s["member"] for s in g["seats"]]) for g in games] == [
        ("Table 1", "g1", ["00001", "00002", "00003", None]),
        ("Table 2", "g2", ["00002", "00001", None, "00003"])]


def test_a_member_sees_their_own_history_and_the_boards(parlor_app: Flask,
                                                        played: Staff) -> None:  # noqa: F811
    assert played.post("/api/members/00001/password",
                       {"password": "ana's secret"}).status_code == 200
    client = parlor_app.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    wrong = client.post("/api/member/login", json={"number": "00001", "password": "nope nope"},
                        headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 403
    nobody = client.post("/api/member/login", json={"number": "00009", "password": "x" * 8},
                         headers={"X-CSRF-Token": csrf})
    assert nobody.status_code == 403 and nobody.get_json() == wrong.get_json()
    signed = client.post("/api/member/login", json={"number": "00001",
                                                    "password": "ana's secret"},
                         headers={"X-CSRF-Token": csrf})
    assert signed.status_code == 200, signed.get_json()
    assert client.get("/api/me").get_json()["stats"]["games"] == 3
    history = client.get("/api/members/00001/games?limit=2").get_json()
    assert history["total"] == 3 and [g["game"] for g in history["games"]] == ["g3", "g2"]
    assert history["games"][0]["own_seat"] == 0
    assert client.get("/api/leaderboard?month=2024-03&min_games=2").status_code == 200
    assert client.get("/api/members/00002/stats").status_code == 403
    for path in ("/api/stats", "/api/games", "/api/report.csv", "/api/members", "/counter/"):
        assert client.get(path).status_code in (302, 401), path


def test_a_members_history_names_the_others_without_their_numbers(
        parlor_app: Flask, played: Staff) -> None:  # noqa: F811
    """Ana's games showed 'Ben #00002' and 'Chie #00003' (issue 35, item 12)."""
    assert played.post("/api/members/00001/password",
                       {"password": "ana's secret"}).status_code == 200
    client = parlor_app.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    assert client.post("/api/member/login", json={"number": "00001", "password": "ana's secret"},
                       headers={"X-CSRF-Token": csrf}).status_code == 200
    games = client.get("/api/members/00001/games").get_json()["games"]
    assert [(g["game"], g["own_seat"], [s["player"] for s in g["seats"]]) for g in games] == [
        ("g3", 0, ["Ana #00001", "Ben", "Chie", "Dai"]),
        ("g2", 1, ["Ben", "Ana #00001", "Dai", "Chie"]),
        ("g1", 0, ["Ana #00001", "Ben", "Chie", "Dai"])]
    assert all(s["member"] is None for g in games for s in g["seats"])
