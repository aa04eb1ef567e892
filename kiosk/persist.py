"""Adapter from the game service's `EventLog` to the event store (`kiosk.store`).

Until the store module lands, a minimal SQLite log (one table, one row per event, WAL) keeps the
kiosk runnable; it is replaced by `kiosk.store` as soon as that exists.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any

from scorer.record import event_from_json, event_to_json
from scorer.table import Event, GameStarted


class SqliteLog:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS events (game TEXT, idx INTEGER, body TEXT, "
                         "PRIMARY KEY (game, idx))")
        self._db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, "
                         "seq INTEGER)")
        self._lock = threading.Lock()

    def latest(self) -> tuple[str, list[Event]] | None:
        with self._lock:
            row = self._db.execute("SELECT id FROM games ORDER BY seq DESC LIMIT 1").fetchone()
            if row is None:
                return None
            bodies = self._db.execute("SELECT body FROM events WHERE game=? ORDER BY idx",
                                      (row[0],)).fetchall()
        return row[0], [event_from_json(b[0]) for b in bodies]

    def create(self, first: GameStarted) -> str:
        game = uuid.uuid4().hex[:12]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM games").fetchone()[0]
            self._db.execute("INSERT INTO games VALUES (?, ?)", (game, seq))
            self._db.execute("INSERT INTO events VALUES (?, 0, ?)", (game, event_to_json(first)))
            self._db.execute("COMMIT")
        return game

    def append(self, game_id: str, index: int, event: Event) -> None:
        with self._lock:
            self._db.execute("INSERT INTO events VALUES (?, ?, ?)",
                             (game_id, index, event_to_json(event)))

    def truncate(self, game_id: str, length: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM events WHERE game=? AND idx>=?", (game_id, length))

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT id FROM games ORDER BY seq").fetchall()
        return [{"id": r[0]} for r in rows]

    def close(self) -> None:
        self._db.close()


def open_log(url: str) -> tuple[Any, Any]:
    """(event log, handle to close) for a database URL."""
    if url.startswith("sqlite:///"):
        log = SqliteLog(Path(url[len("sqlite:///"):]))
        return log, log
    raise ValueError(f"database_url {url!r}: PostgreSQL needs the kiosk.store module")
