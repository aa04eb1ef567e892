"""The PostgreSQL event store, for a parlor's server (psycopg 3).

Each operation is one transaction; an append locks its game's row (SELECT ... FOR UPDATE) so
two kiosks writing to one game are serialised and the second gets `Conflict`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from kiosk.store.event_log import EventStore, StoreError, StoreFull, create_schema
from kiosk.store.receipts import SCHEMA as RECEIPTS

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS games (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, "
    "created TEXT NOT NULL, players TEXT NOT NULL, rules TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL REFERENCES games (id), "
    "idx INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game_id, idx))",
    RECEIPTS.format(serial="BIGSERIAL"),
)


class _PostgresTx:
    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self._cursor.execute(sql.replace("?", "%s"), params)
        return self._cursor.fetchall()

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._cursor.execute(sql.replace("?", "%s"), params)


class PostgresStore(EventStore):
    lock_clause = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        self._url = url
        self._db = self._connect()
        self._lock = threading.Lock()
        with self.transaction() as tx:
            # Two kiosks starting at once must not both create the tables.
            tx.run("SELECT pg_advisory_xact_lock(7253)")
            create_schema(tx, SCHEMA, "the database")

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(self._url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to PostgreSQL: {error}") from None

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[_PostgresTx]:
        with self._lock:
            if self._db.closed or self._db.broken:  # the server restarted: connect again
                self._db = self._connect()
            try:
                with self._db.transaction(), self._db.cursor() as cursor:
                    yield _PostgresTx(cursor)
            except psycopg.errors.DiskFull as error:
                raise StoreFull(f"PostgreSQL's disk is full: {error}") from None
            except psycopg.OperationalError as error:
                raise StoreError(f"PostgreSQL is unavailable: {error}") from None

    def close(self) -> None:
        self._db.close()
