"""The games (issue 18, item 11) through the API on a real SQLite store: the list says where each
game stands, resuming switches the table (and survives a restart), importing a record adds a
game and makes it current, a broken record is refused naming the event and field with nothing
stored changed, and every write here needs what every change needs (CSRF, the PIN on the LAN).

Expected points (Tenhou rules): riichi puts 1,000 on the table (25,000 -> 24,000); WRC starts
on 30,000; a correction moves exactly the points it names.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.services import Services
from kiosk.store.event_log import EventStore, UnknownGame
from kiosk.store.sqlite import SqliteStore
from scorer.limits import JSON_MAX_BYTES
from scorer.rules import RULESETS
from scorer.table import GameStarted, RiichiDeclared
from tests.kiosk.conftest import LAN, Api, lan_client, make_kiosk, points

ANN = ["Ann", "Bo", "Cy", "Di"]


def listed(api: Api) -> list[dict[str, Any]]:
    return api.get("/api/games").get_json()["games"]


def current_id(api: Api) -> str:
    return api.get("/api/state").get_json()["game"]["id"]


def upload(api: Api, data: bytes, name: str = "game.json", **fields: Any) -> Any:
    form = {"record": (io.BytesIO(data), name), **fields}
    return api.post("/api/import", data=form, content_type="multipart/form-data")


@pytest.fixture
def two_games(api: Api) -> tuple[str, str]:
    """The fresh kiosk's game with seat 1's riichi, then a WRC game of Ann, Bo, Cy and Di."""
    api.post("/api/riichi", {"seat": 1})
    first = current_id(api)
    api.post("/api/games", {"players": ANN, "ruleset": "wrc"})
    return first, current_id(api)


def test_the_list_says_where_each_game_stands(api: Api, two_games: tuple[str, str]) -> None:
    first, second = two_games
    out = api.get("/api/games").get_json()
    assert out["current"] == second and out["total"] == 2
    newest, older = out["games"]
    assert newest["id"] == second and newest["current"] is True
    assert newest["players"] == ANN and newest["rules"] == "wrc" and newest["events"] == 1
    assert newest["points"] == [30000] * 4 and newest["finished"] is False
    assert older["id"] == first and older["current"] is False and older["events"] == 2
    assert older["points"] == [25000, 24000, 25000, 25000] and older["riichi_sticks"] == 1
    assert (older["round_wind"], older["hand"], older["honba"]) == (1, 1, 0)
    assert older["unreadable"] is None
    assert [g["id"] for g in api.get("/api/games?limit=1").get_json()["games"]] == [second]


@pytest.mark.parametrize("limit", ["0", "501", "ten", "1" * 5000, "-1"])
def test_a_bad_limit_is_400_naming_it(api: Api, limit: str) -> None:
    r = api.get(f"/api/games?limit={limit}")
    assert r.status_code == 400 and r.get_json()["error"].startswith("limit: expected")


def test_resume_switches_the_table_and_a_restart_keeps_it(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    api.post("/api/riichi", {"seat": 1})
    first = current_id(api)
    api.post("/api/games", {"players": ANN, "ruleset": "wrc"})
    r = api.post(f"/api/games/{first}/resume")
    assert r.status_code == 200 and r.get_json()["game"]["id"] == first
    assert points(api) == [25000, 24000, 25000, 25000]
    assert [g["current"] for g in listed(api)] == [False, True]
    api.post("/api/riichi", {"seat": 2})  # play goes on in the resumed game
    services.stop()

    app, services = make_kiosk(tmp_path)  # the kiosk restarts: the resumed game is the table's
    services.start(camera=False, recogniser=False)
    try:
        again = Api(app.test_client())
        assert current_id(again) == first
        assert points(again) == [25000, 24000, 24000, 25000]
        assert [g["events"] for g in listed(again)] == [1, 3]
    finally:
        services.stop()


def test_a_new_game_after_a_resume_is_the_one_a_restart_keeps(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    first = current_id(api)
    api.post("/api/games", {"players": ANN, "ruleset": "wrc"})
    api.post(f"/api/games/{first}/resume")
    api.post("/api/games", {"players": ["E", "F", "G", "H"], "ruleset": "tenhou"})
    newest = current_id(api)
    services.stop()
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    try:
        assert current_id(Api(app.test_client())) == newest
    finally:
        services.stop()


@pytest.mark.parametrize("game, status", [("0123456789ab", 404), ("..", 404), ("a" * 65, 404)])
def test_resuming_an_unknown_game_changes_nothing(api: Api, two_games: tuple[str, str],
                                                  game: str, status: int) -> None:
    r = api.post(f"/api/games/{game}/resume")
    assert r.status_code == status and "no game" in r.get_json()["error"]
    assert current_id(api) == two_games[1]


def test_resume_takes_no_fields(api: Api, two_games: tuple[str, str]) -> None:
    r = api.post(f"/api/games/{two_games[0]}/resume", {"force": True})
    assert r.status_code == 400 and "force" in r.get_json()["error"]
    assert current_id(api) == two_games[1]


def test_import_adds_a_game_to_the_list(api: Api) -> None:
    """The game played stays the table's (issue 38, item 6): the import is listed beside it."""
    api.post("/api/corrections", {"deltas": [3000, -1000, -2000, 0], "reason": "tally"})
    original = current_id(api)
    record = api.get("/api/export.json").data
    assert api.post("/api/undo").status_code == 200  # the stored game is no longer the record
    r = upload(api, record, "tally.json")
    assert r.status_code == 201
    imported = r.get_json()["game"]["id"]
    assert imported != original and points(api) == [25000] * 4
    games = listed(api)
    assert [(g["id"], g["current"], g["events"]) for g in games] == [
        (imported, False, 2), (original, True, 1)]
    assert games[0]["points"] == [28000, 24000, 23000, 25000]
    assert games[1]["points"] == [25000] * 4  # the original is kept as it was


def test_the_same_record_imported_again_is_the_game_stored(api: Api) -> None:
    """Plain, with a BOM and as UTF-16: one game (the parlor counted each copy as a game of its
    own, issue 35 item 6); the game played stays the table's (issue 38, item 6)."""
    api.post("/api/corrections", {"deltas": [3000, -1000, -2000, 0], "reason": "tally"})
    original = current_id(api)
    record = api.get("/api/export.json").data
    api.post("/api/games", {"players": ["Ann", "Ben", "Cho", "Dai"]})
    copies = (record, b"\xef\xbb\xbf" + record, record.decode("utf-8").encode("utf-16"))
    answers = [upload(api, copy, "again.json") for copy in copies]
    assert [a.get_json()["game"]["id"] for a in answers] == [original] * 3
    assert [a.status_code for a in answers] == [200] * 3  # stored already
    games = sorted((g["id"] == original, g["current"]) for g in listed(api))
    assert games == [(False, True), (True, False)]  # the new game is still the one played
    assert points(api) == [25000] * 4


BROKEN = [
    (lambda r: r["events"][1].update(seat=9), "event 1 (riichi), field 'seat'"),
    (lambda r: r["events"][1]["after"]["points"].__setitem__(1, 25000),
     "event 1 (riichi), field 'after.points'"),
    (lambda r: r.update(version=2), "field 'version'"),
    (lambda r: r["events"].pop(0), "event 0 (riichi)"),
]


@pytest.mark.parametrize("breaking, named", BROKEN,
                         ids=["bad-seat", "edited-points", "unknown-version", "no-start"])
def test_a_broken_record_is_refused_naming_the_problem(api: Api, breaking: Any,
                                                       named: str) -> None:
    api.post("/api/riichi", {"seat": 1})
    record = json.loads(api.get("/api/export.json").data)
    breaking(record)
    before, current = listed(api), current_id(api)
    r = upload(api, json.dumps(record).encode())
    assert r.status_code == 400 and named in r.get_json()["error"]
    assert listed(api) == before and current_id(api) == current


@pytest.mark.parametrize("data, status, named", [
    (b"hello", 400, "not JSON"),
    (b"  ", 400, "the game record is empty"),
    (b" " * (JSON_MAX_BYTES + 1), 413, "at most 4,096 KB"),
], ids=["not-json", "empty", "too-large"])
def test_an_unreadable_upload_is_refused(api: Api, data: bytes, status: int, named: str) -> None:
    before = listed(api)
    r = upload(api, data)
    assert r.status_code == status and named in r.get_json()["error"]
    assert listed(api) == before


def test_an_upload_takes_one_record_field_only(api: Api) -> None:
    record = api.get("/api/export.json").data
    extra = upload(api, record, note="hi")
    assert extra.status_code == 400 and "'note'" in extra.get_json()["error"]
    two = api.post("/api/import", content_type="multipart/form-data", data={
        "record": [(io.BytesIO(record), "a.json"), (io.BytesIO(record), "b.json")]})
    assert two.status_code == 400 and "one record at a time" in two.get_json()["error"]
    assert len(listed(api)) == 1


@pytest.fixture
def lan_kiosk(tmp_path: Path) -> Any:
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    services.start(camera=False, recogniser=False)
    yield app, services
    services.stop()


def test_resume_and_import_need_the_pin_on_the_lan(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    kiosk = Api(app.test_client())
    first = current_id(kiosk)
    record = kiosk.get("/api/export.json").data
    kiosk.post("/api/games", {"players": ANN})
    phone = lan_client(app, LAN["REMOTE_ADDR"])
    csrf = phone.get("/api/session").get_json()["csrf"]
    headers = {"X-CSRF-Token": csrf}
    resume = phone.post(f"/api/games/{first}/resume", headers=headers)
    assert resume.status_code == 401 and resume.get_json()["needs_pin"] is True
    imported = phone.post("/api/import", data=record, headers=headers)
    assert imported.status_code == 401
    assert phone.get("/api/games").status_code == 200  # reading is open
    assert phone.post("/api/session/pin", json={"pin": "2468"}).status_code == 200
    no_csrf = phone.post(f"/api/games/{first}/resume")
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.get_json()["error"]
    assert len(listed(kiosk)) == 2 and current_id(kiosk) != first


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        opened: EventStore = SqliteStore(tmp_path / "games.sqlite3")
    else:
        import psycopg

        from kiosk.store.postgres import PostgresStore

        url = request.getfixturevalue("postgres_url")
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("DROP TABLE IF EXISTS receipts, events, games, store_meta CASCADE")
        opened = PostgresStore(url)
    yield opened
    opened.close()


def test_the_store_keeps_the_game_played_last(store: EventStore) -> None:
    """Created, imported or resumed: the game a restart replays (`latest`) in both databases."""
    first = store.create(GameStarted(("Ann", "Bo", "Cy", "Di"), RULESETS["tenhou"]))
    store.append(first, 1, RiichiDeclared(1))
    second = store.create(GameStarted(("E", "F", "G", "H"), RULESETS["wrc"]))
    assert store.latest() == (second, store.events(second))
    store.resume(first)
    assert store.latest() == (first, store.events(first)) and len(store.events(first)) == 2
    record = store.export_record(second)
    store.append(second, 1, RiichiDeclared(2))  # the record is no longer the stored game
    imported = store.import_record(record)
    assert imported != second and store.latest() == (first, store.events(first))  # an import
    with pytest.raises(UnknownGame):  # goes to the list, the game played stays (issue 38)
        store.resume("0123456789ab")
    assert store.latest() is not None and store.latest()[0] == first  # type: ignore[index]
