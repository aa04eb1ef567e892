"""Live updates: the table's state rendered once per change and fanned out to every open page.

A change (on a worker thread) renders the new state as one Server-Sent Event and wakes the
event loop; each open stream is a coroutine there that sends the latest state it has not sent
yet. An open page therefore costs a socket and a coroutine, never a worker thread, and a slow
page skips states it was too slow for instead of queueing them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

RETRY = b"retry: 1000\n"
HEARTBEAT = b": heartbeat\n\n"


class LiveUpdates:
    def __init__(self, heartbeat: float = 15.0):
        self.heartbeat = heartbeat
        self._lock = threading.Lock()
        self._snapshot: Callable[[], dict[str, Any]] = dict
        self._latest: tuple[int, bytes] = (0, b"")
        self._listeners: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._closed = False

    @property
    def version(self) -> int:
        return self._latest[0]

    def publish(self, snapshot: Callable[[], dict[str, Any]]) -> None:
        """Serve `snapshot()` (the state a page shows) from now on."""
        self._snapshot = snapshot
        self.changed(notify=False)

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener` (e.g. the serial display) after every change, outside the lock."""
        self._listeners.append(listener)

    def changed(self, notify: bool = True) -> None:
        # Rendered under the lock: two writers finishing together leave the newer state last.
        with self._lock:
            version = self._latest[0] + 1
            self._latest = (version, _event("state", self._snapshot()))
        self._wake_streams()
        if notify:
            for listener in self._listeners:
                listener()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Streams run on `loop` (the server's), from where they are woken."""
        self._loop = loop
        self._wake = asyncio.Event()

    def close(self) -> None:
        """End every stream (shutdown)."""
        self._closed = True
        self._wake_streams()

    def _wake_streams(self) -> None:
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody to wake
                self._loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        wake, self._wake = self._wake, asyncio.Event()
        if wake is not None:
            wake.set()

    async def stream(self) -> AsyncIterator[bytes]:
        """SSE bytes: the state now, then the latest state after each change, with heartbeats.
        Runs on the attached loop."""
        yield RETRY
        sent = 0
        while not self._closed:
            wake = self._wake
            version, data = self._latest
            if version != sent:
                sent = version
                yield data
                continue
            assert wake is not None, "LiveUpdates.attach(loop) first"
            try:
                await asyncio.wait_for(wake.wait(), self.heartbeat)
            except TimeoutError:
                yield HEARTBEAT


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
