"""Which games count (issue 35, item 6): a table's token can post any legal game, so the
statistics and boards count a finished game only under rules the parlor accepts (a preset, or
rules staff approved), with at least one hand, and once however often its record was sent."""

from __future__ import annotations

from typing import Any

from flask import Flask

from kiosk.parlor.store.integrity import rules_digest
from kiosk.parlor.store.registry import ParlorStore
from scorer.rules import RULESETS, Uma
from scorer.table import GameEnded, GameStarted, Win, WinningHand, event_to_dict
from tests.kiosk.parlor.conftest import Staff
from tests.kiosk.parlor.test_api import post
from tests.kiosk.parlor.test_stats import confirm

MIA = ("Mia #00003", "Bo", "Cy", "Di")
ODD = RULESETS["tenhou"].with_options(uma=Uma((1000, 0, 0, -1000)))
RICH = RULESETS["tenhou"].with_options(start_points=10_000_000, return_points=10_000_000)
HAND = Win.ron(0, WinningHand(1, 3, 30))  # Mia rons Bo: 3,900


def game(name: str, rules: Any, *middle: Any) -> dict[str, Any]:
    events = [GameStarted(MIA, rules), *middle, GameEnded("time")]
    return {"games": [{"game": name, "revision": 0, "events": [
        {"index": i, "event": event_to_dict(e)} for i, e in enumerate(events)]}]}


def mia(staff: Staff) -> dict[str, Any]:
    answer = staff.get("/api/members/00003/stats")
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json()["stats"])


def test_only_accepted_rules_with_a_hand_count_and_a_copy_counts_once(
        parlor_app: Flask, parlor_store: ParlorStore, staff: Staff) -> None:
    token = parlor_store.add_table("Table 1")
    for n in (1, 2, 3):  # Mia's number is 00003
        parlor_store.add_member(f"Member {n}")
    forged = {"odd-no-hand": game("f1", ODD), "odd": game("f2", ODD, HAND),
              "rich": game("f3", RICH, HAND)}
    for body in forged.values():
        assert post(parlor_app, token, body).status_code == 200  # stored, as played
    confirm(staff, {("Table 1", g): (0,) for g in ("f1", "f2", "f3")})  # Mia sat there
    assert mia(staff)["games"] == 0
    board = staff.get("/api/leaderboard?min_games=1").get_json()
    assert board["rows"] == []
    seen = {r["digest"]: r for r in staff.get("/api/rules").get_json()["rules"]}
    odd, rich = seen[rules_digest(ODD)], seen[rules_digest(RICH)]
    assert (odd["games"], odd["approved"], rich["games"]) == (2, None, 1)
    assert seen[rules_digest(RULESETS["tenhou"])]["approved_by"] == "preset"
    approved = staff.post(f"/api/rules/{odd['digest']}", method="PUT")
    assert approved.status_code == 200, approved.get_json()
    assert mia(staff)["games"] == 1  # f2: f1 played no hand, f3's rules are still unknown
    assert mia(staff)["hands"] == 1
    withdrawn = staff.post(f"/api/rules/{odd['digest']}", method="DELETE")
    assert withdrawn.status_code == 200 and mia(staff)["games"] == 0
    # The same record three times (a kiosk imported it plain, with a BOM, as UTF-16): one game.
    for name in ("c1", "c2", "c3"):
        assert post(parlor_app, token, game(name, RULESETS["tenhou"], HAND)).status_code == 200
    confirm(staff, {("Table 1", g): (0,) for g in ("c1", "c2", "c3")})
    stats = mia(staff)
    assert (stats["games"], stats["hands"]) == (1, 1)
    row = staff.get("/api/leaderboard?min_games=1").get_json()["rows"][0]
    assert (row["number"], row["games"]) == ("00003", 1)
    assert staff.post("/api/rules/" + "0" * 64, method="PUT").status_code == 404
    assert staff.post("/api/rules/nope", method="PUT").status_code == 400
