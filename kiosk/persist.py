"""The game service's event log is the event store (`kiosk.store`): SQLite or PostgreSQL."""

from __future__ import annotations

from typing import Any

from kiosk.store import EventStore, open_store


def open_log(url: str) -> tuple[EventStore, Any]:
    """(event log, handle to close) for a database URL."""
    store = open_store(url)
    return store, store
