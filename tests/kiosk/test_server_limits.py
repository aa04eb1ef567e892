"""The server's limits (kiosk.serve.server) against clients that try to hold the kiosk: many open
live pages, half-open connections, too many streams from one address, a foreign Host and a body over
the limit (slow LAN requests and a trickled body: test_server_protocol.py; camera views:
test_camera_stream.py).

Most tests run the real `python -m kiosk`. A LAN client is this machine itself, connecting to
its own non-loopback address (the kiosk then sees that address, not loopback); where there is
none those tests are skipped. The kiosk's own screen is a loopback client."""

from __future__ import annotations

import contextlib
import http.client
import json
import selectors
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from kiosk.words import i18n
from tests.kiosk.server import get_json, lan_address, running_kiosk, shown_points
from tests.kiosk.test_server import post, session

LAN = lan_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no non-loopback IPv4 "
                               "address to act as a LAN client from")
ERROR_KEYS = {"error", "problems", "status"}  # kiosk.errors' shape
CODED = {"code", "words", "untranslated"}  # worded by the page from its code (app.js)


def port_of(base: str) -> int:
    port = urlsplit(base).port
    assert port is not None
    return port


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.monotonic()
    result = call()
    return time.monotonic() - started, result


def fetch(url: str, timeout: float = 5.0) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read()


def request(host: str, port: int, method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes | None = None, timeout: float = 5.0,
            ) -> tuple[http.client.HTTPResponse, bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response, response.read()
    finally:
        conn.close()


def assert_error(body: bytes, status: int) -> dict[str, Any]:
    error = json.loads(body)
    assert set(error) == ERROR_KEYS | CODED and error["status"] == status
    assert error["untranslated"] is True and i18n.has(f"err.{error['code']}")
    assert isinstance(error["error"], str) and error["error"] and error["problems"] == []
    return error


class LiveStream:
    """An open live page: `GET /api/events`, its states read on a thread."""

    def __init__(self, host: str, port: int, timeout: float = 20.0) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)
        self.conn.request("GET", "/api/events")
        self.sock = self.conn.sock
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.body = b""
        self.states: list[dict[str, Any]] = []
        self._seen = threading.Condition()
        self._reader: threading.Thread | None = None
        if self.status == 200:
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()
        else:
            self.body = self.response.read()

    def _read(self) -> None:
        try:
            while line := self.response.readline():
                if line.startswith(b"data: "):
                    with self._seen:
                        self.states.append(json.loads(line[6:]))
                        self._seen.notify_all()
        except (OSError, ValueError, http.client.HTTPException):
            pass

    def wait_for(self, test: Callable[[dict[str, Any]], bool], timeout: float) -> bool:
        """True once a state passing `test` has arrived (within `timeout` seconds)."""
        with self._seen:
            return self._seen.wait_for(lambda: any(test(s) for s in self.states), timeout)

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):  # the reader's file keeps the socket open
                self.sock.shutdown(socket.SHUT_RDWR)
        if self._reader is not None:
            self._reader.join(5)  # it sees the end; then nothing reads the response any more
        self.conn.close()


def open_stream(host: str, port: int, wait_s: float = 3.0) -> LiveStream:
    """A live stream, retrying while the kiosk still counts one that was just closed."""
    deadline = time.monotonic() + wait_s
    while True:
        stream = LiveStream(host, port)
        if stream.status == 200 or time.monotonic() > deadline:
            return stream
        stream.close()
        time.sleep(0.1)


def seat_points(seat: int, points: int, sticks: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: s["seats"][seat]["points"] == points and s["riichi_sticks"] == sticks


def test_forty_live_pages_leave_the_kiosk_screen_answering(tmp_path: Path) -> None:
    """Waitress had 24 threads: 24 open pages stopped every request."""
    with running_kiosk(tmp_path / "data", "--camera", "none") as base, ExitStack() as pages:
        port = port_of(base)
        streams = []
        for _ in range(40):
            streams.append(stream := LiveStream("127.0.0.1", port))
            pages.callback(stream.close)
        assert [s.status for s in streams] == [200] * 40
        assert all(s.wait_for(seat_points(2, 25000, 0), 10) for s in streams)

        elapsed, (status, html) = timed(lambda: fetch(base + "/"))
        assert status == 200 and shown_points(html.decode()) == ["25,000"] * 4 and elapsed < 1.0
        csrf, cookie = session(base)
        elapsed, state = timed(lambda: post(base, "/api/riichi", {"seat": 2}, csrf, cookie))
        assert elapsed < 1.0
        assert state["seats"][2]["points"] == 24000 and state["riichi_sticks"] == 1

        assert sum(s.wait_for(seat_points(2, 24000, 1), 5) for s in streams) == 40


def read_all(sock: socket.socket, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


@needs_lan
@pytest.mark.slow
def test_half_open_connections_from_one_address_are_capped_and_closed_in_10_s(
        tmp_path: Path) -> None:
    """Waitress held 110 unfinished requests and froze for about 48 s."""
    assert LAN is not None
    with running_kiosk(tmp_path / "data", "--camera", "none", "--host", "0.0.0.0") as base, \
            ExitStack() as connections:
        port = port_of(base)
        opened: dict[socket.socket, float] = {}
        for _ in range(110):
            sock = socket.create_connection((LAN, port), timeout=5)
            connections.callback(sock.close)
            opened[sock] = time.monotonic()

        elapsed, (status, _) = timed(lambda: fetch(base + "/"))
        assert status == 200 and elapsed < 1.0  # the kiosk's own screen

        # Past the 24th, a connection is answered at once and closed; the 24 are held.
        refused: list[bytes] = []
        with selectors.DefaultSelector() as waiting:
            for sock in opened:
                waiting.register(sock, selectors.EVENT_READ)
            until = time.monotonic() + 3.0
            while len(refused) < 86 and (left := until - time.monotonic()) > 0:
                for key, _ in waiting.select(left):
                    waiting.unregister(key.fileobj)
                    refused.append(read_all(key.fileobj))  # type: ignore[arg-type]
            held = [key.fileobj for key in waiting.get_map().values()]
        assert len(refused) == 86 and len(held) == 24
        for answer in refused:
            assert answer.startswith(b"HTTP/1.1 503 ")
            assert answer.endswith(b"too many connections from this address; close some and "
                                   b"try again\n")

        # The held ones start a request and never finish its headers: closed at 10 s.
        closed: dict[socket.socket, float] = {}
        with selectors.DefaultSelector() as waiting:
            for sock in held:
                sock.sendall(f"GET /api/state HTTP/1.1\r\nHost: {LAN}:{port}\r\n".encode())
                waiting.register(sock, selectors.EVENT_READ)
            until = time.monotonic() + 15.0
            while len(closed) < 24 and (left := until - time.monotonic()) > 0:
                for key, _ in waiting.select(left):
                    sock = key.fileobj  # type: ignore[assignment]
                    waiting.unregister(sock)
                    closed[sock] = time.monotonic()
                    assert read_all(sock) == b""  # closed without an answer
        assert len(closed) == 24
        after = sorted(round(closed[sock] - opened[sock], 2) for sock in held)
        assert 9.0 <= after[0] and after[-1] <= 13.0, after

        # Their places are given back: the address is served again.
        assert get_json(f"http://{LAN}:{port}/api/state")["riichi_sticks"] == 0


@needs_lan
def test_a_lan_address_may_hold_six_live_pages(tmp_path: Path) -> None:
    assert LAN is not None
    with running_kiosk(tmp_path / "data", "--camera", "none", "--host", "0.0.0.0") as base, \
            ExitStack() as pages:
        port = port_of(base)
        streams = []
        for _ in range(6):
            streams.append(stream := LiveStream(LAN, port))
            pages.callback(stream.close)
        assert [s.status for s in streams] == [200] * 6
        assert all(s.wait_for(seat_points(0, 25000, 0), 5) for s in streams)

        seventh = LiveStream(LAN, port)
        pages.callback(seventh.close)
        assert seventh.status == 429
        assert seventh.response.headers["Content-Type"] == "application/json"
        assert seventh.response.headers["Retry-After"] == "5"
        assert "too many live pages" in assert_error(seventh.body, 429)["error"]

        own = LiveStream("127.0.0.1", port)  # the kiosk's own screen is not capped
        pages.callback(own.close)
        assert own.status == 200

        streams[0].close()
        again = open_stream(LAN, port)
        pages.callback(again.close)
        assert again.status == 200 and again.wait_for(seat_points(0, 25000, 0), 5)


def test_live_stream_checks_the_host_and_answers_head(tmp_path: Path) -> None:
    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        port = port_of(base)
        for host in ("evil.example", f"evil.example:{port}"):
            response, body = request("127.0.0.1", port, "GET", "/api/events", {"Host": host})
            assert response.status == 400  # DNS rebinding: a page of evil.example's
            assert response.headers["Content-Type"] == "application/json"
            assert "evil.example" in assert_error(body, 400)["error"]

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("HEAD", "/api/events")
            response = conn.getresponse()
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/event-stream")
            assert response.read() == b""
            sock = conn.sock
            conn.request("GET", "/api/state")  # the same connection: no body came after it
            response = conn.getresponse()
            assert conn.sock is sock and response.status == 200
            assert json.loads(response.read())["riichi_sticks"] == 0
        finally:
            conn.close()


@needs_lan
def test_live_stream_refuses_localhost_from_the_lan(tmp_path: Path) -> None:
    assert LAN is not None
    with running_kiosk(tmp_path / "data", "--camera", "none", "--host", "0.0.0.0") as base:
        port = port_of(base)
        response, body = request(LAN, port, "GET", "/api/events", {"Host": f"localhost:{port}"})
        assert response.status == 400
        assert_error(body, 400)


def test_a_body_declared_over_the_limit_is_refused_before_it_is_sent(tmp_path: Path) -> None:
    with running_kiosk(tmp_path / "data", "--camera", "none", "--max-upload-mb", "1") as base:
        port = port_of(base)
        limit = 2**20 + 2**16  # 1 MB and a multipart form's own
        for declared in (limit + 1, 100 * 2**20):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(f"POST /api/captures/upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                             f"Content-Type: image/jpeg\r\nContent-Length: {declared}\r\n\r\n"
                             .encode())  # and not a byte of the body
                response = http.client.HTTPResponse(sock, method="POST")
                elapsed, _ = timed(response.begin)
                assert response.status == 413 and elapsed < 2.0
                error = assert_error(response.read(), 413)
                assert error["error"] == "the request body is over 1 MB"


@contextmanager
def mjpeg_stream(host: str, port: int) -> Iterator[socket.socket]:
    """An open live camera view, its first picture received."""
    sock = socket.create_connection((host, port), timeout=10)
    try:
        sock.sendall(f"GET /api/camera/stream HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        seen = b""
        while b"\r\n\r\n" not in seen or b"image/jpeg" not in seen.split(b"\r\n\r\n", 1)[1]:
            chunk = sock.recv(65536)
            assert chunk, seen[:200]
            seen += chunk
        assert seen.startswith(b"HTTP/1.1 200 "), seen[:200]
        yield sock
    finally:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


@pytest.mark.slow
def test_camera_views_the_kiosk_screen_closed_leave_it_answering(tmp_path: Path) -> None:
    """The win page shows the camera view; leaving it four times must not freeze the screen."""
    with running_kiosk(tmp_path / "data", "--camera", "demo") as base:
        port = port_of(base)
        for _ in range(4):
            with mjpeg_stream("127.0.0.1", port):
                pass  # the page is left
        time.sleep(0.3)
        elapsed, (status, body) = timed(lambda: fetch(base + "/api/state", timeout=3.0))
        assert status == 200 and elapsed < 1.0 and json.loads(body)["riichi_sticks"] == 0
