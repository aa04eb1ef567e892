"""Serving the kiosk: uvicorn (asyncio, h11) in front of the Flask app.

Why not a thread per connection: a live page keeps its `/api/events` stream open for as long as
it is shown, a camera view its `/api/camera/stream`, and a phone on the LAN can open as many as
it likes. Here a stream is a coroutine on the event loop (`kiosk.serve.live`,
`kiosk.serve.camera_stream`), and only ordinary requests reach the Flask app, each on a worker
thread (a2wsgi). Against a client that tries to hold the kiosk:

- a request must arrive whole in time (headers in `HEADER_TIMEOUT_S`, the body in
  `BODY_TIMEOUT_S`), and its body is read in full before a worker thread is taken;
- each other address has its own caps on connections, live pages, camera views and requests
  being served (more wait in the event loop, not on a thread); connections are shared by network
  and keep a reserve for requests carrying credentials (`kiosk.serve.caps`);
- the kiosk's own screen (a loopback client) is exempt from the caps and has worker threads of
  its own, so a busy LAN never delays it.

uvicorn and a2wsgi are small, pure-Python and well kept (they run on a Raspberry Pi); the one
thing neither does, a deadline for a whole request, is the `GuardedProtocol` below.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import resource
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import h11
import uvicorn
from a2wsgi import WSGIMiddleware
from flask import Flask
from uvicorn.protocols.http.h11_impl import H11Protocol

from kiosk.config import KioskConfig
from kiosk.photos.camera import CameraService
from kiosk.serve import camera_stream
from kiosk.serve.camera_stream import CameraViews
from kiosk.serve.caps import (
    REFUSED,
    ClientCaps,
    ConnectionCaps,
    Place,
    refusal_response,
    reserve_gate,
)
from kiosk.serve.live import LiveUpdates
from kiosk.web.security import HostCheck, is_loopback_client

log = logging.getLogger(__name__)

HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 60.0
PENDING_HEADER_TIMEOUT_S = 2.0  # a connection in the reserve before its request is read
PER_CLIENT_STREAMS = 6
PER_CLIENT_REQUESTS = 4
LAN_STREAMS = 1000
LOCAL_WORKERS = 4
STREAM_PATH = "/api/events"
LIVE_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no"),
                (b"x-content-type-options", b"nosniff")]

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with the connection caps (`ConnectionCaps`) and a deadline for each
    request: its headers within `header_timeout` of the connection (or of the last answer on a
    kept-alive one), its body within `body_timeout` of the headers. A request never sent whole
    closes the connection; one trickled a byte at a time no longer holds it for ever."""

    def __init__(self, *args: Any, caps: ConnectionCaps, header_timeout: float = HEADER_TIMEOUT_S,
                 body_timeout: float = BODY_TIMEOUT_S, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.caps, self.header_timeout, self.body_timeout = caps, header_timeout, body_timeout
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str = ""
        self._place = Place("", "", REFUSED)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._place = self.caps.take(self.client[0] if self.client else "", transport.close)
        if self._place.pool == REFUSED:
            transport.write(refusal_response(self._place.refusal))
            transport.close()
            return
        if self._place.pending:  # its first request decides (kiosk.serve.caps)
            app = self.app
            self.app = reserve_gate(app, self.caps, self._place,
                                    lambda: setattr(self, "app", app))
            self._expect("headers", min(self.header_timeout, PENDING_HEADER_TIMEOUT_S))
        else:
            self._expect("headers", self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect("", 0)
        self.caps.give_back(self._place)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._place.pool == REFUSED:
            return
        super().data_received(data)
        self._follow_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            if self.conn.their_state is h11.IDLE:
                self._expect("headers", self.header_timeout)
            self._follow_request()

    def _follow_request(self) -> None:
        state = self.conn.their_state
        if state is h11.SEND_BODY and self._waiting_for == "headers":
            self._expect("body", self.body_timeout)
        elif state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._expect("", 0)

    def _expect(self, what: str, seconds: float) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting_for = what
        if what:
            self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.debug("closed a connection from %s: its request's %s took over its deadline",
                     self._place.address, self._waiting_for)
            self.transport.close()


class Front:
    """The ASGI app uvicorn serves: live streams here, everything else to Flask on a worker."""

    def __init__(self, app: Flask, live: LiveUpdates, hosts: HostCheck, *, lan_workers: int,
                 max_body: int, camera: CameraService | None = None) -> None:
        self.live, self.hosts, self.max_body = live, hosts, max_body
        self.local = WSGIMiddleware(app, workers=LOCAL_WORKERS)  # type: ignore[arg-type]
        self.lan = WSGIMiddleware(app, workers=lan_workers)  # type: ignore[arg-type]
        self.streams = ClientCaps(PER_CLIENT_STREAMS, LAN_STREAMS)
        self.camera = CameraViews(camera) if camera is not None else None
        self.views = ClientCaps(camera_stream.PER_CLIENT_VIEWS, camera_stream.LAN_VIEWS)
        self._turns: dict[str, tuple[asyncio.Semaphore, int]] = {}

    def close(self) -> None:
        """Shutdown: end live pages and camera views."""
        self.live.close()
        if self.camera is not None:
            self.camera.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            reads = scope["method"] in ("GET", "HEAD")
            if reads and scope["path"] == STREAM_PATH:
                await self._stream(scope, receive, send, self.streams, LIVE_HEADERS,
                                   self.live.stream, "too many live pages open from this "
                                   "address; close one", "live_pages")
            elif reads and scope["path"] == camera_stream.PATH and self.camera is not None:
                await self._stream(scope, receive, send, self.views, camera_stream.HEADERS,
                                   self.camera.stream, "too many camera views open from this "
                                   "address; close one", "camera_views")
            else:
                await self._app(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.live.attach(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.live.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _stream(self, scope: Scope, receive: Receive, send: Send, caps: ClientCaps,
                      headers: list[tuple[bytes, bytes]],
                      chunks: Callable[[], AsyncIterator[bytes]], refusal: str,
                      code: str) -> None:
        """A stream that lasts as long as its client stays: a coroutine here, its place in
        `caps` given back when the client goes."""
        client = _client(scope)
        host = _header(scope, b"host")
        if not self.hosts.allows(host, client):
            await _error(send, 400, f"Host {host[:80]!r} is not a name of this kiosk (open it by "
                                    "its address, or add the name to allowed_hosts)",
                         code="host_unknown", words={"host": host[:80]})
            return
        if not caps.take(client):
            await _error(send, 429, refusal, retry_after=5, code=code)
            return
        try:
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            sending = asyncio.ensure_future(_send_stream(send, chunks()))
            leaving = asyncio.ensure_future(_disconnected(receive))
            await asyncio.wait({sending, leaving}, return_when=asyncio.FIRST_COMPLETED)
            for task in (sending, leaving):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, OSError):
                    await task
        finally:
            caps.give_back(client)

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = _client(scope)
        declared = _header(scope, b"content-length")
        try:
            if declared.isdigit() and int(declared) > self.max_body:
                raise _TooLarge
            body = await _read_body(receive, self.max_body)
        except _TooLarge:
            await _error(send, 413, f"the request body is over {self.max_body // 2**20} MB",
                         code="upload_too_large", words={"mb": self.max_body // 2**20})
            return
        if body is None:
            return  # the client has gone
        if is_loopback_client(client):
            await self.local(scope, _replay(body), send)  # type: ignore[arg-type]
        else:
            async with self._turn(client):
                await self.lan(scope, _replay(body), send)  # type: ignore[arg-type]

    @contextlib.asynccontextmanager
    async def _turn(self, client: str) -> AsyncIterator[None]:
        """At most PER_CLIENT_REQUESTS of one address on worker threads; the rest wait here."""
        turn, users = self._turns.get(client) or (asyncio.Semaphore(PER_CLIENT_REQUESTS), 0)
        self._turns[client] = (turn, users + 1)
        try:
            async with turn:
                yield
        finally:
            turn, users = self._turns[client]
            if users <= 1:
                del self._turns[client]
            else:
                self._turns[client] = (turn, users - 1)


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


class _TooLarge(Exception):
    pass


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None when the client left before sending it; _TooLarge past `limit`."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    """The request's body again, read already (the client's leaving is watched elsewhere)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def again() -> Message:
        return pending.pop() if pending else {"type": "http.request", "body": b""}
    return again


async def _send_stream(send: Send, chunks: AsyncIterator[bytes]) -> None:
    # aclosing: a stream cancelled in `send` runs its generator's cleanup now, not at GC.
    async with contextlib.aclosing(chunks):  # type: ignore[type-var]
        async for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _error(send: Send, status: int, message: str, retry_after: int = 0, *, code: str,
                 words: dict[str, Any] | None = None) -> None:
    """The API's error shape (kiosk.errors) for answers given before Flask is reached. Without
    the session here, the page words it from its code (`untranslated`: app.js's ApiError)."""
    body = json.dumps({"error": message, "problems": [], "status": status, "code": code,
                       "words": words or {}, "untranslated": True}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"x-content-type-options", b"nosniff")]
    if retry_after:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def raise_open_files_limit(wanted: int = 8192) -> None:
    """Each connection is a file descriptor; many systems start a process at 1024."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


class KioskServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, front: Front) -> None:
        super().__init__(config)
        self.front = front

    async def shutdown(self, sockets: Any = None) -> None:
        self.front.close()  # open streams end, so the graceful wait is short
        await super().shutdown(sockets)


def build_server(config: KioskConfig, app: Flask, live: LiveUpdates,
                 camera: CameraService | None = None) -> KioskServer:
    hosts = HostCheck.for_kiosk(config.host_names, config.public_url)
    front = Front(app, live, hosts, lan_workers=config.threads, camera=camera,
                  max_body=config.max_upload_mb * 2**20 + 2**16)  # + a multipart form's own
    cookie = str(app.config.get("SESSION_COOKIE_NAME") or "session")
    protocol = functools.partial(GuardedProtocol, caps=ConnectionCaps(cookies=(cookie,)))
    return KioskServer(uvicorn.Config(
        front, host=config.host, port=config.port, http=protocol,  # type: ignore[arg-type]
        ws="none", lifespan="on", interface="asgi3", loop="asyncio",
        proxy_headers=False,  # the peer's address is the client's; X-Forwarded-For is not trusted
        server_header=False, headers=[("server", "kiosk")], access_log=False, log_config=None,
        timeout_keep_alive=5, timeout_graceful_shutdown=3), front)


def serve(config: KioskConfig, app: Flask, live: LiveUpdates,
          camera: CameraService | None = None) -> None:
    """Serve until SIGINT/SIGTERM; raises SystemExit(1) when the port cannot be had."""
    raise_open_files_limit()
    build_server(config, app, live, camera).run()
