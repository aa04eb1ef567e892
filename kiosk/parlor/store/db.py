"""The parlor's database: SQLite for a trial, PostgreSQL by URL for real use.

One small face for both, the same as the kiosk's event store (`kiosk.store.event_log.Tx`): a
transaction yields `rows(sql, params)` and `run(sql, params)` with ``?`` placeholders, commits when
the block ends and rolls back on an exception. The schema is written once in the SQL both read; the
only difference, an auto-numbered key, is the `{serial}` placeholder.
"""

from __future__ import annotations

import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from kiosk.store.event_log import Tx


class DatabaseError(Exception):
    """The database cannot be opened or failed; the message says which and why. `status` is
    the HTTP answer (503: unavailable or damaged, try later; 507: its disk is full)."""

    status = 503


class DiskFull(DatabaseError):
    status = 507


class Database(ABC):
    serial = ""  # the column type of an auto-numbered key
    dialect = ""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Tx]: ...

    @abstractmethod
    def close(self) -> None: ...


class _Tx:
    def __init__(self, execute: Any, fetch: Any, pg: bool) -> None:
        self._execute, self._fetch, self._pg = execute, fetch, pg

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self._pg else sql

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        found: list[tuple[Any, ...]] = self._fetch(self._execute(self._sql(sql), params))
        return found

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._execute(self._sql(sql), params)


class SqliteDatabase(Database):
    """One file, WAL, synchronous=FULL (an acknowledged event survives a power cut), and
    BEGIN IMMEDIATE so a read-check-insert never interleaves with another writer."""

    serial = "INTEGER PRIMARY KEY"
    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # /proc/x, a read-only disk: one line, not a traceback
            raise DatabaseError(f"cannot create the folder of the SQLite database {path}: "
                                f"{error.strerror or error}") from None
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                       timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            # A damaged file is said at start, not as a failure of some later request.
            found = [r[0] for r in self._db.execute("PRAGMA quick_check(3)").fetchall()]
        except sqlite3.DatabaseError as error:
            raise _sqlite_error(path, error, opening=True) from None
        if found != ["ok"]:
            self._db.close()
            said = " ".join(" ".join(found).split())[:300]
            raise DatabaseError(f"the SQLite database {path} is damaged (quick_check: {said}): "
                                "restore it from a backup")
        self._lock = threading.Lock()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as error:
                raise _sqlite_error(self.path, error) from None
            try:
                yield _Tx(self._db.execute, lambda cursor: cursor.fetchall(), pg=False)
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.DatabaseError):
                    raise _sqlite_error(self.path, error) from None
                raise

    def close(self) -> None:
        self._db.close()


def _sqlite_error(path: Path, error: sqlite3.DatabaseError,
                  opening: bool = False) -> DatabaseError:
    code = error.sqlite_errorcode & 0xFF  # the primary code of an extended one
    if code == sqlite3.SQLITE_FULL:
        return DiskFull(f"the disk of the SQLite database {path} is full: nothing was stored; "
                        "free some space")
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return DatabaseError(f"the SQLite database {path} is damaged ({error}): restore it "
                             "from a backup")
    if opening:
        return DatabaseError(f"cannot open the SQLite database {path}: {error}")
    return DatabaseError(f"the SQLite database {path} is unavailable: {error}")


class PostgresDatabase(Database):
    """psycopg 3, one connection (reconnected when the server restarted), serialised by a lock:
    the parlor's writes are small and a kiosk posts a batch every few seconds at most."""

    serial = "BIGSERIAL PRIMARY KEY"
    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg  # only for a parlor on PostgreSQL

        self._psycopg = psycopg
        self._url = url
        self._lock = threading.Lock()
        self._db = self._connect()
        with self.transaction() as tx:  # connected is not yet answering: ask it once at start
            tx.rows("SELECT 1")

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self._url, autocommit=True)
        except self._psycopg.Error as error:
            raise DatabaseError(f"cannot connect to PostgreSQL: {error}") from None

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._lock:
            if self._db.closed or self._db.broken:
                self._db = self._connect()
            try:
                with self._db.transaction(), self._db.cursor() as cursor:
                    def execute(sql: str, params: Sequence[Any]) -> Any:
                        cursor.execute(sql, params)
                        return cursor
                    yield _Tx(execute, lambda c: c.fetchall(), pg=True)
            except self._psycopg.errors.DiskFull as error:
                raise DiskFull(f"PostgreSQL's disk is full: nothing was stored ({error})") from None
            except (self._psycopg.OperationalError, self._psycopg.errors.DataCorrupted,
                    self._psycopg.errors.IndexCorrupted) as error:
                raise DatabaseError(f"PostgreSQL is unavailable: {error}") from None

    def close(self) -> None:
        self._db.close()


def open_database(url: str) -> Database:
    """``postgresql://...`` (or ``postgres://``), ``sqlite:///PATH`` or a plain file path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresDatabase(url)
    if url.startswith("sqlite:///"):
        return SqliteDatabase(Path(url[len("sqlite:///"):]))
    if "://" in url:
        raise DatabaseError(f"unknown database URL {url[:80]!r}: use sqlite:///PATH or "
                            "postgresql://...")
    return SqliteDatabase(Path(url))
