"""A member's seat counts only once staff confirmed it (issue 35, item 6): a member card holds no
secret, so a kiosk's ``#NUMBER`` alone makes no member's result. The games are test_stats's."""

from __future__ import annotations

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.parlor.conftest import Staff
from tests.kiosk.parlor.test_stats import confirm, play, stats

BOARD = "/api/leaderboard?from=2024-03-01&to=2024-03-31&min_games=1"


def games(staff: Staff) -> list[tuple[str, int]]:
    answer = staff.get("/api/stats").get_json()["members"]
    return [(m["number"], m["stats"]["games"]) for m in answer]


def test_a_tagged_seat_counts_once_staff_confirm_it(parlor_app: Flask,
                                                    parlor_store: ParlorStore,
                                                    staff: Staff) -> None:
    for name in ("Ana", "Ben", "Chie", "Dai"):
        parlor_store.add_member(name)
    play(parlor_app, parlor_store)
    assert games(staff) == [("00001", 0), ("00002", 0), ("00003", 0), ("00004", 0)]
    assert staff.get(BOARD).get_json()["rows"] == []
    day = staff.get("/api/games?date=2024-03-05").get_json()["games"]
    assert [s["member"] for s in day[0]["seats"]] == ["00001", "00002", "00003", None]  # shown
    url = "/api/games/Table 1/g1/seats/{}/confirm"
    answer = staff.post(url.format(0), {})
    assert answer.status_code == 200 and answer.get_json() == {
        "table": "Table 1", "game": "g1", "seat": 0, "member": "00001", "confirmed": True}
    assert staff.post(url.format(0), {}).get_json()["member"] == "00001"  # again: no change
    guest = staff.post(url.format(3), {})  # "Dai" names no member
    assert guest.status_code == 409 and guest.get_json()["field"] == "seat"
    assert staff.post(url.format(4), {}).status_code == 404
    assert staff.post("/api/games/Table 9/g1/seats/0/confirm", {}).status_code == 404
    assert games(staff) == [("00001", 1), ("00002", 0), ("00003", 0), ("00004", 0)]
    ana = stats(staff, "00001")
    assert (ana["games"], ana["average_place"], ana["total_score"]) == (1, 4.0, -19.9)
    confirm(staff, {("Table 1", "g1"): (1, 2)})
    rows = staff.get(BOARD).get_json()["rows"]
    assert [(r["number"], r["total_score"]) for r in rows] == [
        ("00003", pytest.approx(18.0)), ("00002", pytest.approx(7.9)),
        ("00001", pytest.approx(-19.9))]  # g1's scores, worked out there
