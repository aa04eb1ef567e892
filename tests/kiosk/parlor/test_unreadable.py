"""A stored game that no longer replays (issue 35, item 10) stays that game's problem: the live
pages show it as unreadable and keep every other table live; a kiosk posting to it hears 422
naming it, sets it aside and sends its other games."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.conftest import Api
from tests.kiosk.parlor.conftest import Staff, join_kiosk, kiosk_events, parlor_events
from tests.kiosk.parlor.net import ParlorServer
from tests.kiosk.parlor.test_api import RIICHI, START, one_game, post
from tests.kiosk.parlor.test_outbox import PLAYERS, ok

BROKEN = {"illegal": '{"type":"riichi","seat":9}', "unparsable": '{"type":"bogus"}'}


def damage(store: ParlorStore, game: str, body: str, index: int = 1,
           table: str = "Table 1") -> None:
    """What a changed scorer or a damaged row leaves: a stored event that does not replay."""
    with store.db.transaction() as tx:
        tx.run("UPDATE parlor_events SET body = ? WHERE game_id = ? AND idx = ? AND table_id = "
               "(SELECT id FROM parlor_tables WHERE name = ?)", (body, game, index, table))


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_live_pages_show_it_unreadable_and_the_others_live(
        parlor_app: Flask, parlor_store: ParlorStore, staff: Staff, kind: str) -> None:
    one, two = parlor_store.add_table("Table 1"), parlor_store.add_table("Table 2")
    assert post(parlor_app, one, one_game(START, RIICHI)).status_code == 200
    assert post(parlor_app, two, one_game(START, RIICHI), table="Table 2").status_code == 200
    damage(parlor_store, "g1", BROKEN[kind])
    answer = staff.get("/api/tables")
    assert answer.status_code == 200, answer.get_json()
    rows = {t["name"]: t["game"] for t in answer.get_json()["tables"]}
    assert rows["Table 1"]["id"] == "g1" and rows["Table 1"]["events"] == 2
    assert rows["Table 1"]["unreadable"].startswith("game g1 does not replay")
    assert rows["Table 2"]["riichi"] == [1] and "unreadable" not in rows["Table 2"]
    for path in ("/counter/", "/counter/live"):
        page = staff.get(path)
        assert page.status_code == 200
        assert "unreadable:" in page.text and "Ben" in page.text  # table 2's players shown


def test_a_post_to_it_is_refused_naming_it(parlor_app: Flask, parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    assert post(parlor_app, token, one_game(START, RIICHI)).status_code == 200
    damage(parlor_store, "g1", BROKEN["illegal"])
    sent = {"games": [{"game": "g0", "revision": 0, "events": [{"index": 0, "event": START}]},
                      {**one_game(RIICHI, first=2)["games"][0]}]}
    answer = post(parlor_app, token, sent)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["game"] == "g1" and body["field"] == "games[1]"
    assert "no longer replays (event 1: field 'seat': no seat 9" in body["error"]
    assert "Traceback" not in answer.text


@pytest.fixture
def parlor(parlor_app: Flask):  # type: ignore[no-untyped-def]
    server = ParlorServer(parlor_app).start()
    yield server
    server.stop()


def test_the_kiosk_sets_it_aside_and_sends_the_rest(tmp_path: Path, parlor: ParlorServer,
                                                    parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", token)
    try:
        api = Api(app.test_client())
        first = ok(api.get("/api/state"))["game"]["id"]
        ok(api.post("/api/riichi", {"seat": 0}))
        assert services.outbox.flush(20)
        damage(parlor_store, first, BROKEN["illegal"], index=0)
        ok(api.post("/api/riichi", {"seat": 1}))  # the broken game moves on at the table
        second = ok(api.post("/api/games", {"players": PLAYERS, "ruleset": "tenhou"}))
        second_id = second["game"]["id"]
        deadline = time.monotonic() + 15
        while second_id not in parlor_events(parlor_store, "Table 1"):
            assert time.monotonic() < deadline, services.outbox.stats.last_error
            time.sleep(0.05)
        assert services.outbox.stats.refused_games == {first}
        assert "422" in services.outbox.stats.last_error
        held = parlor_events(parlor_store, "Table 1")
        assert held[second_id] == kiosk_events(services)[second_id]
        assert len(held[first]) == 2  # the parlor's copy waits for staff, unchanged
    finally:
        services.stop()
