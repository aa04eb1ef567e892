"""One open serial link to a display: a writer thread and a reader thread around one port.

The port comes from `serial.serial_for_url`, so a real adapter (`/dev/riichi-display`), a
pseudo-terminal (`/dev/pts/3`), `socket://host:port` and `loop://` all take the same path.
The writer sends the latest state on every change and again every `heartbeat_s` (so a display
that reboots catches up); states published while a write is in progress replace each other,
only the newest is sent. The reader decodes replies; garbled lines are counted and ignored.
A failed read or write marks the link dead (`failed` is set); the supervisor closes it and
reconnects. A write that times out (nobody reading a pty, a peer that stopped reading) only
marks the link stalled: the frame is dropped and the next one tried.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import serial

from device.display.protocol import (
    SEQ_MODULUS,
    Ack,
    Capability,
    Hello,
    HonbaFrame,
    LineReader,
    ProtocolError,
    Query,
    StateFrame,
    decode,
    encode,
    frame_for,
)
from device.display.state import DisplayState

log = logging.getLogger(__name__)

T = TypeVar("T")
READ_POLL_S = 0.1  # read timeout: how soon the reader notices close() on ports without cancel
DEFAULT_CAPABILITIES = frozenset({Capability.FULL})


class LatestSlot(Generic[T]):
    """A queue of length one that keeps only the newest item; `put` never blocks on I/O."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._item: T | None = None
        self._full = False
        self._woken = False
        self._closed = False

    def put(self, item: T) -> None:
        with self._cond:
            self._item, self._full = item, True
            self._cond.notify()

    def wake(self) -> None:
        """End a waiting `take` early without an item."""
        with self._cond:
            self._woken = True
            self._cond.notify()

    def take(self, timeout: float) -> tuple[bool, T | None]:
        """(True, item) when one arrives within `timeout`, else (False, None)."""
        with self._cond:
            if not (self._full or self._woken or self._closed):
                self._cond.wait(timeout)
            self._woken = False
            if not self._full:
                return False, None
            item, self._item, self._full = self._item, None, False
            return True, item

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Counters of one link, for the status page."""

    frames_sent: int
    last_ack: int | None
    garbled: int
    stalled: bool
    hello: Hello | None
    error: str | None


class SerialLink:
    """A display on an open port. `open()` it, `start()` it, `send()` states, `close()` it."""

    def __init__(self, port: serial.SerialBase, *, heartbeat_s: float = 1.5,
                 on_change: Callable[[], None] | None = None) -> None:
        self.port = port
        self.heartbeat_s = heartbeat_s
        self.failed = threading.Event()  # set when the port died (not on close())
        self._on_change = on_change or (lambda: None)
        self._slot: LatestSlot[DisplayState] = LatestSlot()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._caps = DEFAULT_CAPABILITIES
        self._last: DisplayState | None = None  # owned by the writer thread
        self._resend = False  # the display asked for another format: send now
        self._seq = 0
        self._frames_sent = 0
        self._last_ack: int | None = None
        self._garbled = 0
        self._stalled = False
        self._hello: Hello | None = None
        self._error: str | None = None

    @classmethod
    def open(cls, url: str, *, baudrate: int = 9600, write_timeout_s: float = 0.5,
             heartbeat_s: float = 1.5, on_change: Callable[[], None] | None = None) -> SerialLink:
        """Open `url` at `baudrate` 8N1; raises `serial.SerialException` (or OSError) if absent."""
        port = serial.serial_for_url(url, baudrate=baudrate, bytesize=serial.EIGHTBITS,
                                     parity=serial.PARITY_NONE, stopbits=serial.STOPBITS_ONE,
                                     timeout=READ_POLL_S, write_timeout=write_timeout_s)
        return cls(port, heartbeat_s=heartbeat_s, on_change=on_change)

    def start(self) -> None:
        for name, target in (("writer", self._write_loop), ("reader", self._read_loop)):
            t = threading.Thread(target=target, name=f"display-{name}", daemon=True)
            t.start()
            self._threads.append(t)

    def send(self, state: DisplayState) -> None:
        """Queue `state` for the display; returns at once, whatever the port is doing."""
        self._slot.put(state)

    def stats(self) -> LinkStats:
        return LinkStats(self._frames_sent, self._last_ack, self._garbled, self._stalled,
                         self._hello, self._error)

    def close(self, timeout: float = 2.0) -> None:
        """Stop both threads (a write in progress ends within its write timeout), close the port."""
        self._stop.set()
        self._slot.close()
        for cancel in ("cancel_read", "cancel_write"):
            try:
                getattr(self.port, cancel)()
            except (AttributeError, NotImplementedError, OSError, serial.SerialException):
                pass  # socket:// has no cancel; its reads end within READ_POLL_S
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout)
        try:
            self.port.close()
        except (OSError, serial.SerialException):
            pass

    def _fail(self, error: BaseException) -> None:
        if self._stop.is_set():
            return  # errors while closing are expected
        self._error = f"{type(error).__name__}: {error}"
        self._stop.set()
        self._slot.close()
        self.failed.set()

    def _write(self, data: bytes) -> bool:
        try:
            self.port.write(data)
        except serial.SerialTimeoutException:
            # A partial frame may have gone out; the display drops it at the next `$`.
            self._set_stalled(True)
            return False
        except (serial.SerialException, OSError, TypeError) as e:
            self._fail(e)
            return False
        self._set_stalled(False)
        return True

    def _set_stalled(self, stalled: bool) -> None:
        if stalled != self._stalled:
            self._stalled = stalled
            self._on_change()

    def _write_loop(self) -> None:
        self._write(encode(Query()))  # a display that is already up says hello
        due = time.monotonic() + self.heartbeat_s
        while not self._stop.is_set():
            got, state = self._slot.take(max(0.0, due - time.monotonic()))
            if self._stop.is_set():
                break
            if got:
                self._last = state
            elif not self._resend and time.monotonic() < due:
                continue  # woken early for nothing
            self._resend = False
            due = time.monotonic() + self.heartbeat_s
            if self._last is None:
                continue  # nothing to show yet (no game)
            frame = frame_for(self._last, self._seq, self._caps)
            self._seq = (self._seq + 1) % SEQ_MODULUS
            if self._write(encode(frame)):
                self._frames_sent += 1

    def _read_loop(self) -> None:
        lines = LineReader()
        while not self._stop.is_set():
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError, ValueError) as e:
                self._fail(e)  # TypeError/ValueError: pyserial on a port closed under it
                return
            for line in lines.feed(data):
                self._handle(line)

    def _handle(self, line: bytes) -> None:
        try:
            message = decode(line)
        except ProtocolError as e:
            self._garbled += 1
            log.debug("display reply ignored: %s", e)
            return
        match message:
            case Ack(seq):
                self._last_ack = seq
            case Hello(_, caps):
                changed = caps != self._caps or self._hello is None
                self._hello, self._caps = message, caps or DEFAULT_CAPABILITIES
                if changed:
                    self._resend = True  # resend in the format it asked for
                    self._slot.wake()
                    self._on_change()
            case StateFrame() | HonbaFrame() | Query():
                pass  # our own frames coming back (loop://, an echoing adapter)
