"""A game the parlor has seen finish is not changed by a later post (issue 35, item 6): a cut
or a rewrite is held for staff, who accept or refuse it; the same events sent again after a
cut (a kiosk starting over) change nothing and are not held."""

from __future__ import annotations

from typing import Any

from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from scorer.rules import RULESETS
from scorer.table import ExhaustiveDraw
from tests.kiosk.parlor.conftest import Staff, parlor_events
from tests.kiosk.parlor.test_api import post
from tests.kiosk.parlor.test_counted_games import HAND, game, mia
from tests.kiosk.parlor.test_stats import confirm

DRAW = ExhaustiveDraw(frozenset({1}))


def sent(revision: int, cut: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"games": [{**body["games"][0], "game": "uma1", "revision": revision, "cut": cut}]}


def test_a_finished_game_is_changed_only_by_staff(parlor_app: Flask, parlor_store: ParlorStore,
                                                  staff: Staff) -> None:
    token = parlor_store.add_table("Table 1")
    for n in (1, 2, 3):
        parlor_store.add_member(f"Member {n}")
    played = game("uma1", RULESETS["tenhou"], HAND)
    assert post(parlor_app, token, played).status_code == 200
    confirm(staff, {("Table 1", "uma1"): (0,)})  # Mia's seat
    original = parlor_events(parlor_store, "Table 1")["uma1"]
    assert mia(staff)["games"] == 1
    erase = post(parlor_app, token, {"games": [{"game": "uma1", "revision": 1, "cut": 0,
                                                "events": []}]})
    assert erase.status_code == 200
    assert erase.get_json()["games"]["uma1"] == {"stored": 3, "last_index": 2, "revision": 1,
                                                 "held": True}
    assert parlor_events(parlor_store, "Table 1")["uma1"] == original and mia(staff)["games"] == 1
    other = game("x", RULESETS["tenhou"], DRAW)
    rewrite = post(parlor_app, token, sent(2, 0, other))
    assert rewrite.get_json()["games"]["uma1"]["held"] is True
    waiting = staff.get("/api/held").get_json()["held"]
    assert [(h["table"], h["game"], h["cut"], h["events"], h["stored"]) for h in waiting] == [
        ("Table 1", "uma1", 0, 3, 3)]  # the newer request replaced the erasure
    refused = staff.post("/api/held/Table 1/uma1", {"accept": False})
    assert refused.status_code == 200 and refused.get_json()["receipt"] is None
    assert staff.get("/api/held").get_json()["held"] == []
    assert parlor_events(parlor_store, "Table 1")["uma1"] == original and mia(staff)["hands"] == 1
    again = post(parlor_app, token, sent(3, 0, played))  # a kiosk starting over: same events
    assert again.get_json()["games"]["uma1"] == {"stored": 3, "last_index": 2, "revision": 3}
    assert post(parlor_app, token, sent(4, 0, other)).get_json()["games"]["uma1"]["held"]
    accepted = staff.post("/api/held/Table 1/uma1", {"accept": True})
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["receipt"] == {"stored": 3, "last_index": 2, "revision": 5}
    assert parlor_events(parlor_store, "Table 1")["uma1"] != original
    stats = mia(staff)
    assert (stats["games"], stats["win_rate"]) == (1, 0.0)  # the draw now, no win
    assert staff.post("/api/held/Table 1/uma1", {"accept": True}).status_code == 404


def test_the_daily_report_names_each_game_with_a_change_pending_or_refused(
        parlor_app: Flask, parlor_store: ParlorStore, staff: Staff) -> None:
    """A game cut or rewritten after it finished is billed as the parlor holds it, and the
    report, the day's games and its page say so per game (issue 35, item 6)."""
    token = parlor_store.add_table("Table 1")
    parlor_store.add_table("Table 2")
    for n in (1, 2, 3):
        parlor_store.add_member(f"Member {n}")
    for name in ("uma1", "uma2", "uma3"):
        body = game("x", RULESETS["tenhou"], HAND)
        assert post(parlor_app, token, {"games": [{**body["games"][0], "game": name}]}
                    ).status_code == 200
    erase = {"games": [{"game": "uma1", "revision": 1, "cut": 0, "events": []}]}
    assert post(parlor_app, token, erase).get_json()["games"]["uma1"]["held"] is True
    rewrite = {"games": [{**game("x", RULESETS["tenhou"], DRAW)["games"][0], "game": "uma2",
                          "revision": 1, "cut": 0}]}
    assert post(parlor_app, token, rewrite).get_json()["games"]["uma2"]["held"] is True
    assert staff.post("/api/held/Table 1/uma2", {"accept": False}).status_code == 200
    lines = staff.get("/api/report.csv").get_data(as_text=True).splitlines()
    day = lines[1].split(",")[0]
    assert lines == [
        "date,table,games,running,hours,fee_per_game,fees,held_changes,chips,stake_fees",
        f"{day},Table 1,3,0,0.00,0.00,0.00,game uma1: cut pending; game uma2: rewrite refused,"
        "0,0",
        f"{day},Table 2,0,0,0.00,0.00,0.00,,0,0",
        f"{day},total,3,0,0.00,0.00,0.00,2,0,0"]
    games = staff.get("/api/games").get_json()["games"]
    assert [(g["game"], g["held"]) for g in games] == [
        ("uma1", "cut pending"), ("uma2", "rewrite refused"), ("uma3", None)]
    page = staff.get("/counter/today").get_data(as_text=True)
    assert page.count("<strong>cut pending</strong>") == 1
    assert page.count("<strong>rewrite refused</strong>") == 1
    # uma1's cut refused, uma2 rewritten again and accepted: the refusal is forgotten.
    assert staff.post("/api/held/Table 1/uma1", {"accept": False}).status_code == 200
    again = {"games": [{**rewrite["games"][0], "revision": 2}]}
    assert post(parlor_app, token, again).get_json()["games"]["uma2"]["held"] is True
    assert staff.post("/api/held/Table 1/uma2", {"accept": True}).status_code == 200
    lines = staff.get("/api/report.csv").get_data(as_text=True).splitlines()
    assert lines[1:] == [f"{day},Table 1,3,0,0.00,0.00,0.00,game uma1: cut refused,0,0",
                         f"{day},Table 2,0,0,0.00,0.00,0.00,,0,0",
                         f"{day},total,3,0,0.00,0.00,0.00,1,0,0"]
