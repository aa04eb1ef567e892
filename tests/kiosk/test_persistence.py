"""The kiosk keeps its game in the event store: after a restart the table is the replay of what
was stored, in SQLite (the default) and in PostgreSQL (a real server, see tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kiosk.conftest import Api, make_kiosk, points


def play_and_restart(tmp_path: Path, **options: str) -> None:
    app, services = make_kiosk(tmp_path, **options)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    api.post("/api/games", {"players": ["Ann", "Bo", "Cy", "Di"], "ruleset": "mleague"})
    api.post("/api/riichi", {"seat": 2})
    api.post("/api/wins", {"winner": 2, "discarder": 0, "quick": {"han": 3, "fu": 30}})
    api.post("/api/riichi", {"seat": 0})
    api.post("/api/undo")  # dropped from the store too
    before = api.get("/api/state").get_json()
    assert points(api) == [21100, 25000, 28900, 25000]
    services.stop()

    app, services = make_kiosk(tmp_path, **options)  # a fresh process would do the same
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        after = api.get("/api/state").get_json()
        assert after["game"]["id"] == before["game"]["id"]
        assert after["seats"] == before["seats"] and after["label"] == "East 2, 0 honba"
        history = api.get("/api/history").get_json()["entries"]
        assert [e["type"] for e in history] == ["game_started", "riichi", "win"]
        assert history[2]["breakdowns"][0]["points"] == 3900
    finally:
        services.stop()


def test_restart_replays_the_sqlite_store(tmp_path: Path) -> None:
    play_and_restart(tmp_path)
    assert (tmp_path / "data" / "kiosk.sqlite3").exists()


@pytest.mark.postgres
def test_restart_replays_the_postgresql_store(tmp_path: Path, postgres_url: str) -> None:
    play_and_restart(tmp_path, database_url=postgres_url)
