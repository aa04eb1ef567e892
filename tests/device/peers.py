"""The display's end of a real link, for the tests: a pty pair or a TCP server on 127.0.0.1.

Both can be unplugged (the other end closed) and replugged at the same address: the pty through
a symlink re-pointed at the new pair, exactly as udev's /dev/riichi-display follows an adapter.
"""

from __future__ import annotations

import os
import select
import socket
import time
import tty
from collections.abc import Callable
from pathlib import Path

from device.display.protocol import LineReader, Message, ProtocolError, decode


def wait_until(predicate: Callable[[], object], timeout: float, step: float = 0.01) -> bool:
    """Poll `predicate` until it is truthy or `timeout` passes; the bounded wait of every test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


class Peer:
    """Common reading side: decoded messages the host sent, in order."""

    url: str

    def __init__(self) -> None:
        self.lines = LineReader()
        self.received: list[Message] = []
        self.raw = bytearray()

    def _fd(self) -> int | None:
        raise NotImplementedError

    def pump(self, timeout: float = 0.0) -> None:
        fd = self._fd()
        if fd is None:
            return
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        self.raw += data
        for line in self.lines.feed(data):
            try:
                self.received.append(decode(line))
            except ProtocolError:
                pass

    def wait_for(self, predicate: Callable[[Message], bool], timeout: float) -> Message | None:
        """The first message from now on that satisfies `predicate`, reading as it goes."""
        start = len(self.received)
        deadline = time.monotonic() + timeout
        while True:
            for message in self.received[start:]:
                if predicate(message):
                    return message
            start = len(self.received)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.pump(min(left, 0.05))

    def write(self, data: bytes) -> None:
        fd = self._fd()
        assert fd is not None, "peer is unplugged"
        os.write(fd, data)


class PtyPeer(Peer):
    """A pty pair; the host opens `url`, a symlink to the slave side."""

    def __init__(self, tmp: Path) -> None:
        super().__init__()
        self.url = str(tmp / "riichi-display")
        self.master: int | None = None
        self.slave: int | None = None
        self.replug()

    def _fd(self) -> int | None:
        return self.master

    def replug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tmp_link = self.url + ".new"
        os.symlink(os.ttyname(self.slave), tmp_link)
        os.replace(tmp_link, self.url)  # atomic, like udev updating the symlink

    def unplug(self) -> None:
        """Close our end and remove the symlink, as udev does when the adapter is pulled."""
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None
        Path(self.url).unlink(missing_ok=True)

    def fill(self) -> int:
        """Fill the pty's buffer towards the master, as if nobody had read it for ages."""
        assert self.slave is not None
        os.set_blocking(self.slave, False)
        total, quiet = 0, 0
        while quiet < 3:  # the kernel frees room as it moves data to the line discipline
            before = total
            for chunk in (4096, 256, 16, 1):  # down to the last byte of room
                try:
                    while True:
                        total += os.write(self.slave, b"\0" * chunk)
                except BlockingIOError:
                    pass
            quiet = quiet + 1 if total == before else 0
            time.sleep(0.02)
        return total

    def drain(self) -> None:
        """Read everything waiting, as a display that resumes reading."""
        assert self.master is not None
        while select.select([self.master], [], [], 0)[0]:
            data = os.read(self.master, 65536)
            if not data:
                return
            for line in self.lines.feed(data):
                try:
                    self.received.append(decode(line))
                except ProtocolError:
                    pass


class SocketPeer(Peer):
    """A TCP server on 127.0.0.1; the host opens `socket://127.0.0.1:PORT`."""

    def __init__(self) -> None:
        super().__init__()
        self.port = 0
        self.server: socket.socket | None = None
        self.conn: socket.socket | None = None
        self.replug()
        self.url = f"socket://127.0.0.1:{self.port}"

    def replug(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(1)
        self.server, self.port = server, server.getsockname()[1]

    def accept(self, timeout: float) -> bool:
        assert self.server is not None
        if not select.select([self.server], [], [], timeout)[0]:
            return False
        self.conn, _ = self.server.accept()
        return True

    def _fd(self) -> int | None:
        if self.conn is None and self.server is not None:
            self.accept(0)
        return self.conn.fileno() if self.conn is not None else None

    def unplug(self) -> None:
        for s in (self.conn, self.server):
            if s is not None:
                s.close()
        self.conn = self.server = None
