"""Players and games (issue 38, item 6), through the API on a real SQLite store: the players of
recent games suggested for a new one; a stored game deleted (not the one played; a delete sent
again deletes nothing more); an imported record goes to the games list and leaves the game
played where it is, also after a restart; exports named by date and players."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from kiosk.store.sqlite import SqliteStore
from scorer.rules import RULESETS
from scorer.table import GameStarted, RiichiDeclared
from tests.kiosk.conftest import LAN, Api, lan_client, make_kiosk, points

ANN = ["Ann", "Bo", "Cy", "Di"]


def current_id(api: Api) -> str:
    return api.get("/api/state").get_json()["game"]["id"]


def listed(api: Api) -> list[dict[str, Any]]:
    return api.get("/api/games").get_json()["games"]


def delete(api: Api, game: str, **kw: Any) -> Any:
    return api.client.delete(f"/api/games/{game}", headers={"X-CSRF-Token": api.csrf}, **kw)


def test_the_players_of_recent_games_are_suggested(api: Api) -> None:
    """Newest game first, each name once; the fresh kiosk's "Player 1-4" and the form's own
    filled-in names in any language are nobody's."""
    assert api.get("/api/players/recent").get_json() == {"players": [], "last": None}
    api.post("/api/games", {"players": ANN})
    api.post("/api/games", {"players": ["プレイヤー1", "Eve", "Bo", "Fay #0042"]})
    out = api.get("/api/players/recent").get_json()
    assert out == {"players": ["Eve", "Bo", "Fay #0042", "Ann", "Cy", "Di"],
                   "last": [None, "Eve", "Bo", "Fay #0042"]}


def test_a_game_is_deleted_and_a_second_delete_deletes_nothing(api: Api) -> None:
    """The fresh kiosk's "Player 1-4" game goes once another is played."""
    first = current_id(api)
    api.post("/api/riichi", {"seat": 1})
    assert listed(api)[0]["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    api.post("/api/games", {"players": ANN})
    played = current_id(api)
    r = delete(api, first)
    assert (r.status_code, r.get_json()) == (200, {"id": first, "deleted": True, "total": 1})
    assert [g["id"] for g in listed(api)] == [played]
    again = delete(api, first)
    assert (again.status_code, again.get_json()) == (
        200, {"id": first, "deleted": False, "total": 1})
    assert current_id(api) == played and points(api) == [25000] * 4
    missing = api.post(f"/api/games/{first}/resume")
    assert missing.status_code == 404


def test_the_game_played_is_not_deleted(api: Api) -> None:
    played = current_id(api)
    api.post("/api/riichi", {"seat": 2})
    r = delete(api, played)
    assert r.status_code == 409 and r.get_json()["code"] == "game_in_play"
    assert r.get_json()["error"] == (f"game {played} is the game the table plays: start or "
                                     "resume another game first, then delete this one")
    assert [g["id"] for g in listed(api)] == [played] and points(api)[2] == 24000


@pytest.mark.parametrize("game, status", [("..", 404), ("a" * 65, 404)])
def test_deleting_a_malformed_id_is_404(api: Api, game: str, status: int) -> None:
    assert delete(api, game).status_code == status and len(listed(api)) == 1


def test_a_delete_takes_no_fields(api: Api) -> None:
    first = current_id(api)
    api.post("/api/games", {"players": ANN})
    r = delete(api, first, json={"force": True})
    assert r.status_code == 400 and "force" in r.get_json()["error"]
    assert len(listed(api)) == 2


def test_a_phone_deletes_with_the_pin_only(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    services.start(camera=False, recogniser=False)
    try:
        kiosk = Api(app.test_client())
        first = current_id(kiosk)
        kiosk.post("/api/games", {"players": ANN})
        phone = lan_client(app, LAN["REMOTE_ADDR"])
        csrf = phone.get("/api/session").get_json()["csrf"]
        refused = phone.delete(f"/api/games/{first}", headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 401 and len(listed(kiosk)) == 2
        assert phone.post("/api/session/pin", json={"pin": "2468"}).status_code == 200
        done = phone.delete(f"/api/games/{first}", headers={"X-CSRF-Token": csrf})
        assert done.status_code == 200 and len(listed(kiosk)) == 1
    finally:
        services.stop()


def test_a_delete_takes_the_games_receipts_and_outbox_mark(tmp_path: Path) -> None:
    """Nothing of a deleted game stays in the store; the others keep theirs."""
    store = SqliteStore(tmp_path / "games.sqlite3")
    try:
        gone = store.create(GameStarted(tuple(ANN), RULESETS["tenhou"]))
        store.append(gone, 1, RiichiDeclared(0))
        store.undo(gone)  # an outbox mark: outbox:<id>
        played = store.create(GameStarted(("E", "F", "G", "H"), RULESETS["wrc"]))
        assert store.delete(gone) is True and store.delete(gone) is False
        with store.transaction(write=False) as tx:
            left = {table: tx.rows(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?",  # noqa: S608
                                   (gone,))[0][0] for table in ("events", "receipts")}
            marks = tx.rows("SELECT key FROM store_meta WHERE key LIKE 'outbox:%'")
        assert left == {"events": 0, "receipts": 0} and marks == []
        assert [g["id"] for g in store.games()] == [played]
        assert store.latest() == (played, store.events(played))
    finally:
        store.close()


def upload(api: Api, data: bytes) -> Any:
    return api.post("/api/import", data={"record": (io.BytesIO(data), "game.json")},
                    content_type="multipart/form-data")


def test_an_import_goes_to_the_list_and_the_game_played_stays(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    api.post("/api/corrections", {"deltas": [3000, -1000, -2000, 0], "reason": "tally"})
    record = api.get("/api/export.json").data
    api.post("/api/games", {"players": ANN})
    api.post("/api/riichi", {"seat": 0})
    played = current_id(api)
    first = listed(api)[1]["id"]
    assert delete(api, first).get_json()["deleted"] is True
    r = upload(api, record)
    assert r.status_code == 201
    out = r.get_json()
    assert out["new"] is True and out["game"]["current"] is False
    assert out["game"]["points"] == [28000, 24000, 23000, 25000]
    assert out["state"]["game"]["id"] == played
    assert current_id(api) == played and points(api) == [24000, 25000, 25000, 25000]
    again = upload(api, record)  # the same record again: that game, nothing stored twice
    assert again.status_code == 200 and again.get_json()["new"] is False
    assert again.get_json()["game"]["id"] == out["game"]["id"]
    assert [(g["id"] == played, g["current"]) for g in listed(api)] == [(False, False),
                                                                        (True, True)]
    services.stop()
    app, services = make_kiosk(tmp_path)  # a restart plays the game played, not the import
    services.start(camera=False, recogniser=False)
    try:
        assert current_id(Api(app.test_client())) == played
    finally:
        services.stop()


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_exports_are_named_by_date_and_players(api: Api, utc: None) -> None:
    api.post("/api/games", {"players": ["Alice", "Bob #0042", "山田 太郎", "Dave/../x"]})
    created = listed(api)[0]["created"]
    assert created.endswith("+00:00")
    day = created[:10]
    json_name = api.get("/api/export.json").headers["Content-Disposition"]
    assert json_name == (f'attachment; filename="{day}-Alice-Bob_0042-P3-Dave_x.json"; '
                         f"filename*=UTF-8''{day}-Alice-Bob_0042-"
                         "%E5%B1%B1%E7%94%B0_%E5%A4%AA%E9%83%8E-Dave_x.json")
    csv_name = api.get("/api/export.csv").headers["Content-Disposition"]
    assert csv_name.endswith(f"''{day}-Alice-Bob_0042-%E5%B1%B1%E7%94%B0_%E5%A4%AA%E9%83%8E-"
                             "Dave_x.csv")


def test_an_export_name_stays_bounded(api: Api, utc: None) -> None:
    """16 characters a name (a full-width Ｑ is Q), 36 bytes of UTF-8 (12 kanji)."""
    api.post("/api/games", {"players": ["W" * 24, "M" * 24, "Ｑ" * 24, "Z" * 24]})
    header = api.get("/api/export.json").headers["Content-Disposition"]
    day = listed(api)[0]["created"][:10]
    assert header.split('filename="')[1].split('"')[0] == (
        f"{day}-{'W' * 16}-{'M' * 16}-{'Q' * 16}-{'Z' * 16}.json")
    api.post("/api/games", {"players": ["山" * 24, "川" * 24, "谷" * 24, "森" * 24]})
    header = api.get("/api/export.json").headers["Content-Disposition"]
    name = unquote(header.split("UTF-8''")[1])
    assert name == f"{day}-{'山' * 12}-{'川' * 12}-{'谷' * 12}-{'森' * 12}.json"
    assert len(name.encode()) == 11 + 4 * 36 + 3 + 5
    assert header.split('filename="')[1].split('"')[0] == f"{day}-P1-P2-P3-P4.json"
