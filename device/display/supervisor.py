"""Keeps a display connected: opens the link, reconnects with back-off, reports the status.

The kiosk makes one with `make_display(url)`, calls `start()` once, `publish(state)` after every
table change (it never blocks: the state is handed to the link's writer thread) and shows
`status()` (or listens through `on_status`). With no display configured, `make_display` returns a
`NullDisplay` with the same methods, so the kiosk runs unchanged.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import serial

from device.display.link import SerialLink
from device.display.state import DisplayState

log = logging.getLogger(__name__)

NO_DISPLAY = ("", "none", "off")
PATH_CHECK_S = 0.5  # how often a connected port's path is checked against the open device


class LinkState(Enum):
    OFF = "off"  # no display configured
    CONNECTING = "connecting"  # first attempt in progress
    CONNECTED = "connected"
    STALLED = "stalled"  # port open, but the display is not taking data (writes time out)
    DISCONNECTED = "disconnected"  # absent or unplugged; retrying with back-off


@dataclass(frozen=True, slots=True)
class DisplayStatus:
    """What the kiosk shows about the display."""

    state: LinkState
    url: str | None = None
    display_name: str | None = None  # from the display's hello, when it sent one
    capabilities: tuple[str, ...] = ()
    error: str | None = None  # why it is disconnected
    frames_sent: int = 0
    last_ack: int | None = None
    garbled_replies: int = 0

    @property
    def connected(self) -> bool:
        return self.state in (LinkState.CONNECTED, LinkState.STALLED)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for the kiosk's API."""
        return {"state": self.state.value, "connected": self.connected, "url": self.url,
                "display_name": self.display_name, "capabilities": list(self.capabilities),
                "error": self.error, "frames_sent": self.frames_sent,
                "last_ack": self.last_ack, "garbled_replies": self.garbled_replies}


class Display(Protocol):
    """What the kiosk needs from a display, real or null."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def publish(self, state: DisplayState) -> None: ...
    def status(self) -> DisplayStatus: ...


class NullDisplay:
    """No display configured: accepts states and shows nothing."""

    def __init__(self) -> None:
        self.last: DisplayState | None = None

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def publish(self, state: DisplayState) -> None:
        self.last = state

    def status(self) -> DisplayStatus:
        return DisplayStatus(LinkState.OFF)


StatusCallback = Callable[[DisplayStatus], None]


class DisplaySupervisor:
    """A display at `url` (any `serial_for_url` URL), kept connected by a background thread."""

    def __init__(self, url: str, *, baudrate: int = 9600, heartbeat_s: float = 1.5,
                 write_timeout_s: float = 0.5, backoff_s: tuple[float, float] = (0.2, 2.0),
                 on_status: StatusCallback | None = None) -> None:
        if not 0.05 <= heartbeat_s <= 10:
            raise ValueError(f"heartbeat_s: {heartbeat_s} is not 0.05-10 seconds")
        self.url, self.baudrate = url, baudrate
        self.heartbeat_s, self.write_timeout_s = heartbeat_s, write_timeout_s
        self.backoff_s = backoff_s
        self._on_status = on_status
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._link: SerialLink | None = None
        self._state: DisplayState | None = None
        self._link_state = LinkState.CONNECTING
        self._error: str | None = None
        self._reported: DisplayStatus | None = None
        self._report_lock = threading.Lock()  # link threads and ours both report

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="display-supervisor",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def publish(self, state: DisplayState) -> None:
        """Show `state` on the display as soon as it can; never waits for the port."""
        with self._lock:  # held only to pair the state with the current link, never over I/O
            self._state = state
            if self._link is not None:
                self._link.send(state)

    def status(self) -> DisplayStatus:
        link = self._link
        state = self._link_state
        if link is None:
            return DisplayStatus(state, self.url, error=self._error)
        s = link.stats()
        if state is LinkState.CONNECTED and s.stalled:
            state = LinkState.STALLED
        hello = s.hello
        return DisplayStatus(
            state, self.url, display_name=hello.name if hello else None,
            capabilities=tuple(sorted(c.value for c in hello.capabilities)) if hello else (),
            error=None, frames_sent=s.frames_sent, last_ack=s.last_ack,
            garbled_replies=s.garbled)

    def _report(self) -> None:
        """Call `on_status` when what the UI shows changed (not for counters)."""
        with self._report_lock:
            status = self.status()
            seen = self._reported
            key = (status.state, status.display_name, status.capabilities, status.error)
            if seen is not None and key == (seen.state, seen.display_name, seen.capabilities,
                                            seen.error):
                return
            self._reported = status
            if self._on_status is not None:
                try:
                    self._on_status(status)
                except Exception:  # the UI's problem must not stop the display
                    log.exception("display status callback failed")

    def _set(self, state: LinkState, error: str | None = None) -> None:
        self._link_state, self._error = state, error
        self._report()

    def _run(self) -> None:
        delay = self.backoff_s[0]
        outage_since: float | None = None
        while not self._stop.is_set():
            try:
                link = SerialLink.open(self.url, baudrate=self.baudrate,
                                       write_timeout_s=self.write_timeout_s,
                                       heartbeat_s=self.heartbeat_s, on_change=self._report)
            except (serial.SerialException, OSError, ValueError) as e:
                if outage_since is None:  # log once per outage, not once per retry
                    outage_since = time.monotonic()
                    log.warning("display %s not available (%s); retrying", self.url, e)
                self._set(LinkState.DISCONNECTED, f"{type(e).__name__}: {e}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_s[1])
                continue
            with self._lock:
                self._link = link
                self._link_state, self._error = LinkState.CONNECTED, None
                if self._state is not None:
                    link.send(self._state)  # a display that was away catches up at once
            link.start()
            if outage_since is not None:
                log.info("display %s connected after %.1f s", self.url,
                         time.monotonic() - outage_since)
            else:
                log.info("display %s connected", self.url)
            outage_since, delay = None, self.backoff_s[0]
            self._report()
            error = self._watch(link)
            with self._lock:
                self._link = None
            link.close()
            if self._stop.is_set():
                break
            outage_since = time.monotonic()
            log.warning("display %s lost (%s); reconnecting", self.url, error)
            self._set(LinkState.DISCONNECTED, error)
        self._link_state = LinkState.DISCONNECTED
        self._error = "stopped"


    def _watch(self, link: SerialLink) -> str | None:
        """Wait until the link fails, the port's path names another device, or stop."""
        ident, checked = port_identity(self.url), time.monotonic()
        while not (self._stop.is_set() or link.failed.wait(0.1)):
            if ident is not None and time.monotonic() - checked >= PATH_CHECK_S:
                checked = time.monotonic()
                # udev removes /dev/riichi-display on unplug and re-points it on replug; an open
                # port that is no longer what the path names is a lost port.
                if port_identity(self.url) != ident:
                    return f"{self.url} now names another device (or none)"
        return link.stats().error


def port_identity(url: str) -> tuple[int, int, int] | None:
    """What device a port path names now (None for URLs; (0, 0, 0) when it is gone)."""
    if "://" in url:
        return None
    try:
        st = os.stat(url)
    except OSError:
        return (0, 0, 0)
    return (st.st_dev, st.st_ino, st.st_rdev)


def make_display(url: str | None, **options: Any) -> Display:
    """A `DisplaySupervisor` for `url`, or a `NullDisplay` for None / "" / "none" / "off"."""
    if url is None or url.strip().lower() in NO_DISPLAY:
        return NullDisplay()
    return DisplaySupervisor(url, **options)
