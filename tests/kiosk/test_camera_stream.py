"""The camera's live view (`GET /api/camera/stream`, kiosk.serve.camera_stream) against the real
`python -m kiosk` (issue 35, item 2): each view was a Flask streaming answer holding a worker
thread, so eight views stopped every other request. Now they cost no thread, one address holds
at most two (429 past that) and a view's place is given back when its client goes; the win page
opens the view only while it is on screen.

A LAN client is this machine connecting to its own non-loopback address (see
test_server_limits.py); those tests are skipped where there is none."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import get_json, running_kiosk
from tests.kiosk.test_server import post, session
from tests.kiosk.test_server_limits import (
    LAN,
    assert_error,
    fetch,
    needs_lan,
    port_of,
    request,
    timed,
)


class View:
    """A camera view opened on a raw socket: its request sent, its answer read on demand."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=10)
        self.sock.sendall(f"GET /api/camera/stream HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n"
                          .encode())
        self.response = http.client.HTTPResponse(self.sock, method="GET")
        self.started = False

    def status(self) -> int:
        if not self.started:
            self.response.begin()
            self.started = True
        return self.response.status

    def picture(self) -> bytes:
        """The next JPEG of the stream."""
        assert self.status() == 200
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            byte = self.response.read(1)
            assert byte, head[-200:]
            head += byte
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        jpeg = self.response.read(length)
        assert self.response.read(2) == b"\r\n"
        return jpeg

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def viewers(base: str) -> int:
    return int(get_json(base + "/api/camera")["viewers"])


def eventually(test: Callable[[], Any], seconds: float = 5.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (result := test()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return result


@contextlib.contextmanager
def views(host: str, port: int, n: int) -> Iterator[list[View]]:
    with ExitStack() as opened:
        out = []
        for _ in range(n):
            out.append(view := View(host, port))
            opened.callback(view.close)
        yield out


@pytest.mark.slow
def test_eight_camera_views_leave_the_kiosk_answering(tmp_path: Path) -> None:
    """Eight phones (here: the kiosk's own screen, whose 4 worker threads they held) watching
    the camera; the table is still read and changed at once, and every view gets pictures."""
    with running_kiosk(tmp_path / "data", "--camera", "demo") as base, \
            views("127.0.0.1", port_of(base), 8) as open_views:
        elapsed, (status, body) = timed(lambda: fetch(base + "/api/state", timeout=5.0))
        assert status == 200 and elapsed < 2.0 and json.loads(body)["riichi_sticks"] == 0
        csrf, cookie = session(base)
        elapsed, state = timed(lambda: post(base, "/api/riichi", {"seat": 0}, csrf, cookie))
        assert elapsed < 2.0 and state["riichi_sticks"] == 1
        for view in open_views:
            assert view.picture().startswith(b"\xff\xd8")  # a JPEG
            assert view.picture().startswith(b"\xff\xd8")
        assert viewers(base) == 8
        for view in open_views:
            view.close()
        assert eventually(lambda: viewers(base) == 0)  # each view's place given back


@needs_lan
def test_a_lan_address_may_hold_two_camera_views(tmp_path: Path) -> None:
    assert LAN is not None
    with running_kiosk(tmp_path / "data", "--camera", "demo", "--host", "0.0.0.0") as base:
        port = port_of(base)
        with views(LAN, port, 3) as (first, second, third):
            assert first.status() == 200 and second.status() == 200
            assert first.picture() and second.picture()
            assert third.status() == 429
            assert third.response.headers["Retry-After"] == "5"
            error = assert_error(third.response.read(), 429)
            assert error["error"] == "too many camera views open from this address; close one"
            assert error["code"] == "camera_views"

            # The address's other requests do not wait for its views.
            elapsed, state = timed(lambda: get_json(f"http://{LAN}:{port}/api/state"))
            assert elapsed < 2.0 and state["riichi_sticks"] == 0
            with views("127.0.0.1", port, 1) as (own,):  # the kiosk's own screen: not capped
                assert own.status() == 200 and own.picture()

            first.close()  # the client goes: its place is given back
            assert eventually(lambda: viewers(base) == 1)
            with views(LAN, port, 1) as (again,):
                assert again.status() == 200 and again.picture()


def test_camera_view_checks_the_host_and_answers_head(tmp_path: Path) -> None:
    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        port = port_of(base)
        response, body = request("127.0.0.1", port, "GET", "/api/camera/stream",
                                 {"Host": "evil.example"})
        assert response.status == 400  # DNS rebinding: a page of evil.example's
        assert "evil.example" in assert_error(body, 400)["error"]
        response, body = request("127.0.0.1", port, "HEAD", "/api/camera/stream")
        assert response.status == 200 and body == b""
        assert response.headers["Content-Type"].startswith("multipart/x-mixed-replace")
        with views("127.0.0.1", port, 1) as (view,):  # no camera: its card, once a second
            assert view.picture().startswith(b"\xff\xd8") and view.picture()
