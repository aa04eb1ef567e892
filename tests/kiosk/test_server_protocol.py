"""kiosk.serve.server's GuardedProtocol (request deadlines), ClientCaps (per-address caps) and
Front's turns, in this process: uvicorn with short deadlines in front of a tiny ASGI app, and
Front called directly."""

from __future__ import annotations

import asyncio
import functools
import http.client
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from flask import Flask

from kiosk.serve.live import LiveUpdates
from kiosk.serve.server import ClientCaps, ConnectionCaps, Front, GuardedProtocol
from kiosk.web.security import HostCheck
from tests.kiosk.test_server_limits import read_all, request


async def echo_length(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A tiny ASGI app: reads the whole body, answers its length."""
    if scope["type"] != "http":
        return
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    body = str(size).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture
def guarded() -> Iterator[int]:
    """uvicorn with GuardedProtocol (headers in 0.5 s, a body in 1 s) on a loopback port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    protocol = functools.partial(GuardedProtocol, caps=ConnectionCaps(), header_timeout=0.5,
                                 body_timeout=1.0)
    server = uvicorn.Server(uvicorn.Config(echo_length, http=protocol,  # type: ignore[arg-type]
                                           lifespan="off", log_config=None, access_log=False,
                                           timeout_keep_alive=30))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


def closed_after(sock: socket.socket, limit: float = 5.0) -> float:
    """Seconds until the server closes `sock` (which it never answers)."""
    started = time.monotonic()
    assert read_all(sock, limit) == b""
    return time.monotonic() - started


def test_a_trickled_body_is_cut_off_at_the_body_deadline(guarded: int) -> None:
    with socket.create_connection(("127.0.0.1", guarded), timeout=5) as slow:
        slow.sendall(b"POST /api/riichi HTTP/1.1\r\nHost: kiosk\r\nContent-Length: 100\r\n\r\n")
        headers_sent = time.monotonic()
        slow.setblocking(False)
        answered = None
        closed = None
        sent = 0
        while time.monotonic() - headers_sent < 5:
            try:
                slow.send(b"x")  # a byte every 0.2 s: it keeps arriving, never in time
                sent += 1
            except OSError:
                pass
            if answered is None:  # meanwhile another connection is answered at once
                status, body = post_raw(guarded, b"0123456789")
                answered = time.monotonic() - headers_sent
                assert (status, body) == (200, b"10")
            try:
                if slow.recv(1024) == b"":
                    closed = time.monotonic() - headers_sent
                    break
            except BlockingIOError:
                pass
            except ConnectionResetError:
                closed = time.monotonic() - headers_sent
                break
            time.sleep(0.2)
        assert closed is not None and 0.9 <= closed <= 3.0, closed
        assert answered is not None and answered < 0.9 and sent < 100


def post_raw(port: int, body: bytes) -> tuple[int, bytes]:
    response, answer = request("127.0.0.1", port, "POST", "/", body=body, timeout=2)
    return response.status, answer


def test_unfinished_headers_are_cut_off_at_the_header_deadline(guarded: int) -> None:
    with socket.create_connection(("127.0.0.1", guarded), timeout=5) as silent, \
            socket.create_connection(("127.0.0.1", guarded), timeout=5) as partial:
        partial.sendall(b"POST / HTTP/1.1\r\nHost: kiosk\r\n")
        assert 0.4 <= closed_after(silent) <= 2.0
        assert closed_after(partial) <= 2.0


def test_a_kept_alive_connection_gets_a_new_header_deadline(guarded: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", guarded, timeout=5)
    try:
        for _ in range(3):  # each answer restarts the clock: well past 0.5 s in all
            time.sleep(0.3)
            conn.request("POST", "/", body=b"abc")
            response = conn.getresponse()
            assert (response.status, response.read()) == (200, b"3")
        assert conn.sock is not None
        assert 0.4 <= closed_after(conn.sock) <= 2.0  # idle: closed at the header deadline
    finally:
        conn.close()


def test_client_caps_per_address_and_in_all() -> None:
    caps = ClientCaps(per_client=2, total=3)
    assert caps.take("192.168.1.23") and caps.take("192.168.1.23")
    assert not caps.take("192.168.1.23")  # its own cap
    assert caps.take("192.168.1.24")
    assert not caps.take("192.168.1.25")  # all of them together
    assert caps.held == {"192.168.1.23": 2, "192.168.1.24": 1}
    caps.give_back("192.168.1.23")
    assert caps.take("192.168.1.25") and not caps.take("192.168.1.23")
    caps.give_back("192.168.1.24")
    caps.give_back("192.168.1.24")  # more than it held: nothing goes below zero
    caps.give_back("10.0.0.9")  # never held anything
    assert caps.held == {"192.168.1.23": 1, "192.168.1.25": 1}
    assert caps.take("192.168.1.23")


def test_client_caps_exempt_loopback() -> None:
    caps = ClientCaps(per_client=1, total=1)
    assert caps.take("192.168.1.23") and not caps.take("192.168.1.24")
    assert all(caps.take(address) for address in ["127.0.0.1", "::1", "127.0.0.5"] * 10)
    assert caps.held == {"192.168.1.23": 1}
    caps.give_back("127.0.0.1")
    assert caps.held == {"192.168.1.23": 1}
    assert not caps.take("")  # an unknown peer is not the kiosk's screen


# --- Front: a LAN address's requests on worker threads take turns -----------------------------
# Driven in this process with made-up client addresses in the ASGI scope (no socket): requests
# that block on the app, as a slow one would. (Camera views held these turns until issue 35:
# now they are served on the event loop, kiosk.serve.camera_stream.)

PHONE = "203.0.113.7"  # a documentation address: only a string in the scope here


def slow_app() -> tuple[Flask, threading.Semaphore]:
    app, release = Flask(__name__), threading.Semaphore(0)

    @app.get("/slow")
    def slow() -> str:
        assert release.acquire(timeout=10)
        return "slow"

    @app.get("/fast")
    def fast() -> str:
        return "fast"
    return app, release


async def asgi_get(front: Front, client: str, path: str) -> bytes:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1")], "client": (client, 40000),
             "server": ("127.0.0.1", 8080)}
    sent: list[bytes] = []
    gone = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not sent:
            sent.append(b"")
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message.get("body", b""))
    try:
        await front(scope, receive, send)
    finally:
        gone.set()
    return b"".join(sent)


def test_lan_requests_wait_for_their_turn_and_never_delay_the_kiosk_screen() -> None:
    """Four slow requests of one address hold its four turns: its fifth waits, and is served
    when one of the four ends; the kiosk's own screen and other addresses do not wait."""
    app, release = slow_app()
    front = Front(app, LiveUpdates(), HostCheck.for_kiosk(), lan_workers=8, max_body=2**20)

    async def run() -> None:
        slow = [asyncio.ensure_future(asgi_get(front, PHONE, "/slow")) for _ in range(4)]
        await asyncio.sleep(0.3)
        fifth = asyncio.ensure_future(asgi_get(front, PHONE, "/fast"))
        for client in ("127.0.0.1", "203.0.113.8"):
            assert await asyncio.wait_for(asgi_get(front, client, "/fast"), 2) == b"fast"
        await asyncio.sleep(0.5)
        assert not fifth.done()  # it waits while the four are served
        release.release()
        assert await asyncio.wait_for(fifth, 3) == b"fast"
        for _ in range(3):
            release.release()
        assert await asyncio.wait_for(asyncio.gather(*slow), 3) == [b"slow"] * 4
        assert front._turns == {}  # nothing left of the address once it is done

    asyncio.run(run())
