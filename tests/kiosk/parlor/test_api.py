"""The parlor's HTTP API through Flask's test client on a real store: kiosks' posts (token,
bad batches named by field), staff sign-in and CSRF, every table live, members."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from scorer.rules import RULESETS
from scorer.table import GameStarted, RiichiDeclared, Win, WinningHand, event_to_dict
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff

START = event_to_dict(GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["tenhou"]))
RIICHI = event_to_dict(RiichiDeclared(1))
WIN = event_to_dict(Win.ron(0, WinningHand(1, 3, 30)))


def post(app: Flask, token: str, body: Any, table: str = "Table 1") -> Any:
    return app.test_client().post(f"/api/tables/{table}/events", json=body,
                                  headers={"Authorization": f"Bearer {token}"})


def one_game(*events: dict[str, Any], first: int = 0, **extra: Any) -> dict[str, Any]:
    return {"games": [{"game": "g1", "revision": 0, **extra, "events": [
        {"index": first + i, "event": e} for i, e in enumerate(events)]}]}


@pytest.fixture
def token(parlor_store: ParlorStore) -> str:
    return parlor_store.add_table("Table 1")


def test_a_kiosk_posts_its_events_and_hears_what_arrived(parlor_app: Flask, token: str) -> None:
    answer = post(parlor_app, token, one_game(START, RIICHI))
    assert answer.status_code == 200
    assert answer.get_json() == {"table": "Table 1", "games": {
        "g1": {"stored": 2, "last_index": 1, "revision": 0}}}
    again = post(parlor_app, token, one_game(START, RIICHI, WIN))
    assert again.get_json()["games"]["g1"]["last_index"] == 2


@pytest.mark.parametrize(("headers", "status", "words"), [
    ({}, 401, "Bearer"),
    ({"Authorization": "Bearer nope"}, 401, "unknown or revoked"),
    ({"Authorization": "Basic eDp5"}, 401, "Bearer"),
], ids=["no-token", "unknown-token", "not-bearer"])
def test_no_token_no_entry(parlor_app: Flask, token: str, headers: dict[str, str], status: int,
                           words: str) -> None:
    answer = parlor_app.test_client().post("/api/tables/Table 1/events",
                                           json=one_game(START), headers=headers)
    assert answer.status_code == status and words in answer.get_json()["error"]


def test_a_revoked_token_is_refused(parlor_app: Flask, parlor_store: ParlorStore,
                                    token: str) -> None:
    assert post(parlor_app, token, one_game(START)).status_code == 200
    parlor_store.revoke_table("Table 1")
    assert post(parlor_app, token, one_game(START, RIICHI)).status_code == 401
    fresh = parlor_store.add_table("Table 1", replace=True)
    assert post(parlor_app, token, one_game(START)).status_code == 401  # the old one stays dead
    assert post(parlor_app, fresh, one_game(START, RIICHI)).status_code == 200


def test_a_token_is_for_its_own_table_only(parlor_app: Flask, parlor_store: ParlorStore,
                                           token: str) -> None:
    parlor_store.add_table("Table 2")
    answer = post(parlor_app, token, one_game(START), table="Table 2")
    assert answer.status_code == 403 and "Table 1" in answer.get_json()["error"]


TOO_MANY = {"games": [{"game": f"g{i}", "revision": 0, "events": []} for i in range(21)]}
BAD_HAN = {**WIN, "hands": [{**WIN["hands"][0], "han": "three"}]}


@pytest.mark.parametrize(("body", "field"), [
    ({}, "games"),
    ({"games": "all"}, "games"),
    ({"games": []}, "games"),
    (TOO_MANY, "games"),
    ({"games": [], "extra": 1}, ""),
    ({"games": [{"game": "a/b", "revision": 0, "events": []}]}, "games[0].game"),
    ({"games": [{"game": "g", "events": []}]}, "games[0].revision"),
    (one_game(START, revision=-1), "games[0].revision"),
    (one_game(START, revision=True), "games[0].revision"),
    (one_game(START, cut=5000), "games[0].cut"),
    (one_game(START, first=1000), "games[0].events[0].index"),
    ({"games": [{"game": "g", "revision": 0, "events": [
        {"index": 0, "event": START}, {"index": 2, "event": RIICHI}]}]},
     "games[0].events[1].index"),
    (one_game({"type": "teleport"}), "games[0].events[0].event.type"),
    (one_game(START, BAD_HAN), "games[0].events[1].event.hands[0].han"),
    (one_game(START, "riichi"), "games[0].events[1].event"),
    ({"games": [{"game": "g", "revision": 0, "events": [{"index": 0}]}]},
     "games[0].events[0].event"),
    (one_game(*[RIICHI] * 201), "games[0].events"),
    ({"games": [{"game": "g", "revision": 0, "events": []}] * 2}, "games[1].game"),
], ids=["no-games", "games-not-list", "games-empty", "too-many-games", "unknown-field",
        "bad-game-id", "no-revision", "negative-revision", "bool-revision", "cut-too-far",
        "index-too-far", "gap-in-batch", "unknown-event", "bad-han", "event-not-object",
        "no-event", "too-many-events", "game-twice"])
def test_a_bad_batch_is_a_400_naming_the_field(parlor_app: Flask, token: str,
                                               body: dict[str, Any], field: str) -> None:
    answer = post(parlor_app, token, body)
    assert answer.status_code == 400, answer.get_json()
    found = answer.get_json()
    assert found["field"] == field and found["error"].startswith(field)


def test_a_body_that_is_not_json_is_a_400(parlor_app: Flask, token: str) -> None:
    answer = parlor_app.test_client().post(
        "/api/tables/Table 1/events", data=b"{games", headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert answer.status_code == 400 and "malformed JSON" in answer.get_json()["error"]


def test_staff_pages_need_a_sign_in(parlor_app: Flask, parlor_store: ParlorStore) -> None:
    client = parlor_app.test_client()
    assert client.get("/api/tables").status_code == 401
    assert client.get("/api/members").status_code == 401
    csrf = client.get("/api/session").get_json()["csrf"]
    parlor_store.add_staff(STAFF, PASSWORD)
    no_csrf = client.post("/api/login", json={"name": STAFF, "password": PASSWORD})
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.get_json()["error"]
    wrong = client.post("/api/login", json={"name": STAFF, "password": "guess1234"},
                        headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 403
    for _ in range(5):
        client.post("/api/login", json={"name": STAFF, "password": "guess1234"},
                    headers={"X-CSRF-Token": csrf})
    limited = client.post("/api/login", json={"name": STAFF, "password": PASSWORD},
                          headers={"X-CSRF-Token": csrf})
    assert limited.status_code == 429


def test_a_change_needs_the_sessions_csrf_token(staff: Staff) -> None:
    answer = staff.client.post("/api/members", json={"name": "Ann"},
                               headers={"X-CSRF-Token": "forged"})
    assert answer.status_code == 403
    assert staff.post("/api/logout").status_code == 200
    assert staff.get("/api/members").status_code == 401


def test_every_table_live(parlor_app: Flask, parlor_store: ParlorStore, token: str,
                          staff: Staff) -> None:
    parlor_store.add_table("Table 2")
    post(parlor_app, token, one_game(START, RIICHI, WIN, RIICHI))
    tables = staff.get("/api/tables").get_json()["tables"]
    assert [t["name"] for t in tables] == ["Table 1", "Table 2"]
    assert tables[1]["game"] is None
    game = tables[0]["game"]
    assert game["points"] == [21100, 27900, 25000, 25000]  # Ben won, then declared riichi
    assert (game["label"], game["honba"], game["riichi_sticks"]) == ("East 2, 0 honba", 0, 1)
    assert (game["dealer"], game["riichi"], game["events"]) == (1, [1], 4)
    assert game["playing_seconds"] >= 0 and not game["finished"]


def test_members_create_read_update_delete(staff: Staff) -> None:
    made = staff.post("/api/members", {"name": "Ann Ito"})
    assert made.status_code == 201 and made.get_json()["number"] == "00001"
    assert staff.post("/api/members", {"name": "Bo", "number": "A-7"}).status_code == 201
    clash = staff.post("/api/members", {"name": "Cy", "number": "A-7"})
    assert clash.status_code == 409 and clash.get_json()["field"] == "number"
    assert [m["name"] for m in staff.get("/api/members?q=ann").get_json()["members"]] == [
        "Ann Ito"]
    renamed = staff.post("/api/members/A-7", {"name": "Bo Sato"}, method="PATCH")
    assert renamed.get_json()["name"] == "Bo Sato"
    assert staff.get("/api/members/A-7").get_json()["name"] == "Bo Sato"
    assert staff.post("/api/members/A-7", method="DELETE").status_code == 200
    assert staff.get("/api/members/A-7").status_code == 404


@pytest.mark.parametrize(("body", "field"), [
    ({}, "name"), ({"name": ""}, "name"), ({"name": "x" * 25}, "name"),
    ({"name": "Ann\x07"}, "name"), ({"name": "Ann", "number": "1 2"}, "number"),
    ({"name": "Ann", "number": 7}, "number"), ({"name": "Ann", "age": 3}, "age"),
], ids=["missing", "empty", "too-long", "control-char", "number-space", "number-int",
        "unknown"])
def test_a_bad_member_is_a_400_naming_the_field(staff: Staff, body: dict[str, Any],
                                                field: str) -> None:
    answer = staff.post("/api/members", body)
    assert answer.status_code == 400 and answer.get_json()["field"] == field


def test_member_lists_are_bounded(staff: Staff) -> None:
    assert staff.get("/api/members?limit=100000").status_code == 400
    assert staff.get("/api/members?q=" + "x" * 41).status_code == 400


@pytest.mark.parametrize("mark", ["\u202e", "\u202d", "\u2066", "\u2069", "\u200f", "\u061c"])
def test_a_name_with_a_bidirectional_control_is_refused(staff: Staff, mark: str) -> None:
    """U+202E in a name turned the rest of the counter's row around (issue 35, item 12)."""
    code = f"U+{ord(mark):04X}"
    made = staff.post("/api/members", {"name": f"Ana{mark}Ben"})
    assert made.status_code == 400 and made.get_json()["field"] == "name"
    assert made.get_json()["error"] == (f"name: has a bidirectional control character ({code}), "
                                        "which would turn the text around it")
    assert staff.post("/api/members", {"name": "Ana"}).status_code == 201
    renamed = staff.post("/api/members/00001", {"name": f"{mark}Ana"}, method="PATCH")
    assert renamed.status_code == 400 and code in renamed.get_json()["error"]
    assert staff.get("/api/members/00001").get_json()["name"] == "Ana"


def test_a_table_cannot_page_through_the_members(parlor_app: Flask, parlor_store: ParlorStore,
                                                 token: str) -> None:
    """40 one-letter look-ups listed the whole directory (issue 35, item 12): a table has 10
    at once, then one every 6 s."""
    from kiosk.parlor.web.throttle import Clock, TokenBucket

    clock = Clock()
    parlor_app.extensions["parlor"].look_ups = TokenBucket(size=10, every=6.0, clock=clock)
    other = parlor_store.add_table("Table 2")
    for name in ("Ana", "Ben", "Chie"):
        parlor_store.add_member(name)

    def look_up(q: str, table: str = "Table 1", bearer: str = token) -> Any:
        return parlor_app.test_client().get(f"/api/tables/{table}/members", query_string={
            "q": q}, headers={"Authorization": f"Bearer {bearer}"})

    answers = [look_up(letter) for letter in "abcdefghijklmnopqrstuvwxyzabcdefghijklmn"]
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 30
    assert answers[10].get_json()["retry_after"] == 6
    assert answers[10].get_json()["error"] == ("too many member look-ups from this table; try "
                                               "again in 6 s")
    assert look_up("00002", "Table 2", other).get_json()["members"] == [
        {"number": "00002", "name": "Ben"}]  # each table has its own
    clock.now += 6
    assert look_up("00003").get_json()["members"] == [{"number": "00003", "name": "Chie"}]
    assert look_up("00003").status_code == 429
