"""Live updates: a version counter and a condition every Server-Sent-Events stream waits on.

A change bumps the version; each open stream wakes, reads the new state and sends it. Streams end
on their own after `max_age` seconds (the browser's EventSource reconnects at once) so a server
thread is never held forever, and `close()` releases them all at shutdown.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any


class LiveUpdates:
    def __init__(self, heartbeat: float = 15.0, max_age: float = 300.0):
        self._cond = threading.Condition()
        self._version = 0
        self._closed = False
        self.heartbeat = heartbeat
        self.max_age = max_age
        self._listeners: list[Callable[[], None]] = []

    @property
    def version(self) -> int:
        return self._version

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener` (e.g. the serial display) after every change, outside the lock."""
        self._listeners.append(listener)

    def changed(self) -> None:
        with self._cond:
            self._version += 1
            self._cond.notify_all()
        for listener in self._listeners:
            listener()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def stream(self, snapshot: Callable[[], dict[str, Any]]) -> Iterator[str]:
        """SSE text: the state now, then the state after every change, with heartbeats."""
        seen = self._version
        started = time.monotonic()
        yield "retry: 1000\n"
        yield _event("state", snapshot())
        while not self._closed and time.monotonic() - started < self.max_age:
            with self._cond:
                self._cond.wait_for(lambda last=seen: self._version != last or self._closed,
                                    timeout=self.heartbeat)
                current = self._version
            if self._closed:
                break
            if current == seen:
                yield ": heartbeat\n\n"
                continue
            seen = current
            yield _event("state", snapshot())


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
