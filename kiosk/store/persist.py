"""Opening the event store (`kiosk.store.event_log`) a database URL names: SQLite or PostgreSQL. The
backends import `kiosk.store.event_log` for the interface; only this module knows them both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.store.event_log import EventStore, StoreError
from kiosk.store.sqlite import SqliteStore


def open_store(url: str | Path) -> EventStore:
    """A store from a database URL: ``postgresql://...`` (or ``postgres://``), ``sqlite:///path``,
    or a plain file path (SQLite)."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        from kiosk.store.postgres import PostgresStore  # psycopg only for a parlor
        return PostgresStore(text)
    if text.startswith("sqlite:///"):
        return SqliteStore(Path(text[len("sqlite:///"):]))
    if "://" in text:
        raise StoreError(f"unknown database URL {text!r}: use sqlite:///PATH or postgresql://...")
    return SqliteStore(Path(text))


def open_log(url: str) -> tuple[EventStore, Any]:
    """(event log, handle to close) for a database URL."""
    store = open_store(url)
    return store, store
