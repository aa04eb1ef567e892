"""Fixtures: a parlor on a real SQLite file or a real PostgreSQL server (the session's, see
tests/conftest.py), its Flask app, a signed-in staff client, and kiosks that join it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app
from kiosk.services import Services
from tests.kiosk.conftest import make_kiosk

PARLOR_TABLES = ("parlor_events", "parlor_games", "parlor_members", "parlor_staff",
                 "parlor_tables", "parlor_meta", "parlor_results", "parlor_result_seats",
                 "parlor_seats", "parlor_seasons", "parlor_member_logins", "parlor_sessions",
                 "parlor_result_keys", "parlor_rules", "parlor_held", "parlor_usage",
                 "parlor_result_money")
STAFF, PASSWORD = "alice", "correct horse battery"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def parlor_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty parlor database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'parlor.sqlite3'}"
    import psycopg

    url = request.getfixturevalue("postgres_url")
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"DROP TABLE IF EXISTS {', '.join(PARLOR_TABLES)} CASCADE")
    return str(url)


@pytest.fixture
def parlor_store(parlor_db: str) -> Iterator[ParlorStore]:
    store = ParlorStore(open_database(parlor_db))
    yield store
    store.close()


@pytest.fixture
def parlor_app(parlor_store: ParlorStore) -> Flask:
    app = create_app(parlor_store)
    app.config["TESTING"] = True
    return app


class Staff:
    """A browser of the counter: signed in, sending the CSRF token like a page would."""

    def __init__(self, client: FlaskClient, name: str = STAFF, password: str = PASSWORD):
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]
        answer = self.post("/api/login", {"name": name, "password": password})
        assert answer.status_code == 200, answer.get_json()
        self.csrf = answer.get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, json: Any = None, method: str = "POST") -> Any:
        return self.client.open(path, method=method, json=json,
                                headers={"X-CSRF-Token": self.csrf})


@pytest.fixture
def staff(parlor_app: Flask, parlor_store: ParlorStore) -> Staff:
    parlor_store.add_staff(STAFF, PASSWORD)
    return Staff(parlor_app.test_client())


def join_kiosk(tmp_path: Path, url: str, table: str, token: str,
               name: str = "kiosk") -> tuple[Flask, Services]:
    """A real kiosk (its own SQLite store) whose outbox sends to `url`, retrying quickly."""
    app, services = make_kiosk(tmp_path / name, parlor_url=url, parlor_table=table,
                               parlor_token=token)
    outbox = services.outbox
    outbox.poll, outbox.timeout, outbox.first_backoff, outbox.max_backoff = 0.2, 3.0, 0.05, 0.3
    services.start(camera=False, recogniser=False)
    return app, services


def kiosk_events(services: Services) -> dict[str, list[str]]:
    """Every game's stored events (JSON, by index) in the kiosk's own store."""
    with services.game.log.transaction(write=False) as tx:  # type: ignore[attr-defined]
        rows = tx.rows("SELECT game_id, idx, body FROM events ORDER BY game_id, idx")
    out: dict[str, list[str]] = {}
    for game, index, body in rows:
        assert index == len(out.setdefault(game, []))
        out[game].append(body)
    return out


def parlor_events(store: ParlorStore, table: str) -> dict[str, list[str]]:
    """The same, as the parlor holds them for `table` (indices checked gap-free)."""
    with store.db.transaction() as tx:
        rows = tx.rows("SELECT e.game_id, e.idx, e.body FROM parlor_events e JOIN parlor_tables t "
                       "ON t.id = e.table_id WHERE t.name = ? ORDER BY e.game_id, e.idx",
                       (table,))
    out: dict[str, list[str]] = {}
    for game, index, body in rows:
        assert index == len(out.setdefault(game, [])), f"game {game}: a gap at {index}"
        out[game].append(body)
    return out
