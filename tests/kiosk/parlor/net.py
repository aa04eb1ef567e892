"""Real network parts for the parlor tests: the parlor (or a kiosk) served by uvicorn on a free
port in a thread (stopped and started again on the same port), and a TCP proxy between a kiosk
and it that can refuse connections, cut the open ones, or swallow the parlor's answers."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from flask import Flask

from kiosk.config import KioskConfig
from kiosk.serve.live import LiveUpdates
from kiosk.serve.server import KioskServer, build_server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ParlorServer:
    """`app` behind the kiosk's uvicorn front, as `python -m kiosk.parlor serve` runs it."""

    def __init__(self, app: Flask, port: int | None = None,
                 live: LiveUpdates | None = None) -> None:
        self.app, self.port = app, port or free_port()
        self.live = live  # a kiosk's own live updates, when `app` is a kiosk's
        self._server: KioskServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self) -> ParlorServer:
        listen = KioskConfig(host="127.0.0.1", port=self.port, threads=4, max_upload_mb=4)
        self._server = build_server(listen, self.app, self.live or LiveUpdates())
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            assert time.monotonic() < deadline, "the parlor did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(10)
            self._server = self._thread = None


class Proxy:
    """127.0.0.1:<port> -> target. `mode`: "up" forwards; "refuse" closes each new connection
    at once; "swallow" forwards the request but drops the parlor's answer (the batch is stored,
    the kiosk never hears so); "hang" takes connections and never answers. `cut()` also closes
    every open connection."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.mode = "up"
        self.cuts = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cut(self, mode: str = "refuse") -> None:
        self.mode = mode
        self.cuts += 1
        with self._lock:
            for s in list(self._open):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def mend(self) -> None:
        self.mode = "up"

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.mode == "refuse":
                client.close()
                continue
            if self.mode == "hang":  # a parlor that takes the connection and never answers
                with self._lock:
                    self._open.add(client)
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:  # the parlor itself is down
                client.close()
                continue
            with self._lock:
                self._open.update((client, server))
            swallow = self.mode == "swallow"
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, swallow),
                             daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, swallow: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if swallow:  # the answer came: the request was served; lose the answer
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
                with self._lock:
                    self._open.discard(s)
