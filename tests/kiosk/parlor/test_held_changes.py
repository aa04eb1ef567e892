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
