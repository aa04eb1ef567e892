"""The SQLite event store (the kiosk's default): one file, WAL, synchronous=FULL.

WAL with synchronous=FULL makes each commit durable before `append` returns, and a writer that
dies mid-transaction leaves the database as it was before that transaction. `BEGIN IMMEDIATE`
takes the write lock up front, so a read-check-insert cannot interleave with another writer.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kiosk.store.event_log import EventStore, StoreError, StoreFull, create_schema
from kiosk.store.receipts import SCHEMA as RECEIPTS

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS games (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, "
    "created TEXT NOT NULL, players TEXT NOT NULL, rules TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL REFERENCES games (id), "
    "idx INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game_id, idx))",
    RECEIPTS.format(serial="INTEGER"),
)


class _SqliteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._db.execute(sql, params)


class SqliteStore(EventStore):
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # Autocommit mode: transactions are the explicit BEGIN IMMEDIATE ... COMMIT below.
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                       timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot open the SQLite store {path}: {error}") from None
        self._lock = threading.Lock()
        with self.transaction() as tx:
            create_schema(tx, SCHEMA, str(path))

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[_SqliteTx]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.OperationalError as error:  # e.g. locked past the timeout
                raise StoreError(f"the SQLite store {self.path} is unavailable: {error}") from None
            try:
                yield _SqliteTx(self._db)
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as error:
                self._rollback()
                if error.sqlite_errorcode == sqlite3.SQLITE_FULL:
                    raise StoreFull(f"the disk of {self.path} is full") from None
                raise StoreError(f"the SQLite store {self.path} failed: {error}") from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._db.in_transaction:  # a failed COMMIT may have ended it already
            self._db.execute("ROLLBACK")

    def pragma(self, name: str) -> Any:
        """A PRAGMA's value (tests check journal_mode, synchronous, integrity_check)."""
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def close(self) -> None:
        self._db.close()
