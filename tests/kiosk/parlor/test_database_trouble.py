"""The parlor's database in trouble (issue 35, item 11): a full disk answers 507, a damaged or
absent database 503, each with its reason and no traceback, and nothing half stored; a damaged
SQLite file is said when the parlor starts."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from flask import Flask

from kiosk.parlor.store.db import DatabaseError, SqliteDatabase, open_database
from kiosk.parlor.store.registry import ParlorStore
from scorer.table import ExhaustiveDraw, event_to_dict
from tests.kiosk.parlor.conftest import Staff, parlor_events
from tests.kiosk.parlor.test_api import START, post

DRAW = event_to_dict(ExhaustiveDraw(frozenset(range(4))))  # all tenpai: the dealer stays


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def game(name: str, draws: int) -> dict[str, object]:
    return {"games": [{"game": name, "revision": 0, "events": [
        {"index": i, "event": START if i == 0 else DRAW} for i in range(draws + 1)]}]}


def test_a_full_disk_is_a_507_that_stores_nothing_and_recovers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = ParlorStore(SqliteDatabase(tmp_path / "parlor.sqlite3"))
    app = create(store)
    token = store.add_table("Table 1")
    store.add_staff("alice", "correct horse battery")
    staff = Staff(app.test_client())
    for n in range(40):  # games whose results are not cached yet
        assert post(app, token, game(f"old{n}", 5)).status_code == 200
    raw = store.db._db  # type: ignore[attr-defined]
    # SQLite's page quota stands in for the disk: it fails a write as a full disk does.
    raw.execute(f"PRAGMA max_page_count = {raw.execute('PRAGMA page_count').fetchone()[0]}")
    caplog.set_level(logging.ERROR)
    stats = staff.get("/api/stats")  # rebuilds its cache of results: a write too
    assert stats.status_code == 507 and "is full" in stats.get_json()["error"]
    page = staff.get("/counter/members")
    assert page.status_code == 507 and "is full" in page.text and "Traceback" not in page.text
    answer, stored = None, 0
    for n in range(300):
        answer = post(app, token, game(f"g{n}", 30))
        if answer.status_code != 200:
            break
        stored += 1
    assert answer is not None and answer.status_code == 507, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["status"] == 507 and "is full: nothing was stored" in body["error"]
    assert answer.headers["Retry-After"] == "30"
    assert {g for g in parlor_events(store, "Table 1") if g.startswith("g")} == {
        f"g{n}" for n in range(stored)}
    no_traceback(caplog)
    raw.execute("PRAGMA max_page_count = 1073741823")  # space again
    assert post(app, token, game(f"g{stored}", 30)).status_code == 200
    assert staff.get("/api/stats").status_code == 200


def create(store: ParlorStore) -> Flask:
    from kiosk.parlor.web.app import create_app

    app = create_app(store)
    app.config["TESTING"] = True
    return app


def damaged(path: Path) -> None:
    """A parlor file with a table page overwritten: it opens, and reading it fails."""
    store = ParlorStore(open_database(f"sqlite:///{path}"))
    for n in range(40):
        store.add_table(f"Table {n}")
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'parlor_tables'"
                          ).fetchone()[0]
    data = bytearray(path.read_bytes())
    at = (root - 1) * 4096
    data[at:at + 8] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"  # a leaf page with nonsense counts
    path.write_bytes(data)


def test_a_damaged_sqlite_file_is_said_at_start(tmp_path: Path) -> None:
    path = tmp_path / "parlor.sqlite3"
    damaged(path)
    with pytest.raises(DatabaseError, match="parlor.sqlite3 is damaged .*restore it from a backup"):
        open_database(f"sqlite:///{path}")
    ran = subprocess.run([sys.executable, "-m", "kiosk.parlor", "--db", f"sqlite:///{path}",
                          "list-tables"], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert "is damaged" in ran.stderr and len(ran.stderr.strip().splitlines()) == 1


@pytest.mark.postgres
@pytest.mark.parametrize("parlor_db", ["postgres"], indirect=True)  # a server's connection
def test_postgres_going_away_is_a_503_then_it_reconnects(
        parlor_db: str, caplog: pytest.LogCaptureFixture) -> None:
    store = ParlorStore(open_database(parlor_db))
    try:
        app = create(store)
        token = store.add_table("Table 1")
        assert post(app, token, game("g1", 1)).status_code == 200
        with psycopg.connect(parlor_db, autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)",
                          (store.db._db.info.backend_pid,))  # type: ignore[attr-defined]
        caplog.set_level(logging.ERROR)
        away = post(app, token, game("g2", 1))
        assert away.status_code == 503 and away.headers["Retry-After"] == "30"
        assert away.get_json()["error"].startswith("PostgreSQL is unavailable")
        no_traceback(caplog)
        assert post(app, token, game("g2", 1)).status_code == 200  # connected again
        assert sorted(parlor_events(store, "Table 1")) == ["g1", "g2"]
    finally:
        store.close()


def test_postgres_is_asked_at_start() -> None:
    with pytest.raises(DatabaseError, match="cannot connect to PostgreSQL"):
        open_database("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
