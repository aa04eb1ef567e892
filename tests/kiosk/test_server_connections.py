"""The front's connection caps shared by network, with a reserve for requests carrying
credentials (issue 35, item 9): the parlor's real server (`build_server`), its protocol driven in
this process over made-up transports with made-up client addresses (no socket, no network)."""

from __future__ import annotations

import asyncio
import functools
import json
import time
from pathlib import Path
from typing import Any

from uvicorn.server import ServerState

from kiosk.config import KioskConfig
from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app
from kiosk.serve.live import LiveUpdates
from kiosk.serve.server import build_server
from tests.kiosk.parlor.test_api import START, one_game


class FakeTransport(asyncio.Transport):
    """What the protocol writes, from a made-up peer; closing it loses the connection soon."""

    def __init__(self, peer: str, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self.peer, self.loop, self.written, self.closed = peer, loop, bytearray(), False
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.peer, 40000), "sockname": ("192.0.2.1", 8090)}.get(name,
                                                                                   default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.loop.call_soon(self.protocol.connection_lost, None)

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class Parlor:
    def __init__(self, tmp_path: Path) -> None:
        self.store = ParlorStore(open_database(f"sqlite:///{tmp_path / 'parlor.sqlite3'}"))
        self.token = self.store.add_table("Table 1")
        app = create_app(self.store)
        server = build_server(KioskConfig(host="127.0.0.1", port=8090, threads=4), app,
                              LiveUpdates())
        self.config = server.config
        self.config.load()
        self.state = ServerState()

    def connect(self, peer: str) -> FakeTransport:
        loop = asyncio.get_running_loop()
        protocol = functools.partial(self.config.http_protocol_class, config=self.config,
                                     server_state=self.state, app_state={})(_loop=loop)
        transport = FakeTransport(peer, loop)
        transport.protocol = protocol
        protocol.connection_made(transport)
        return transport

    async def ask(self, peer: str, method: str, path: str, body: bytes = b"",
                  headers: str = "") -> tuple[int, bytes]:
        """One request on a new connection from `peer`: the answer's status and body."""
        transport = self.connect(peer)
        if not transport.closed:
            transport.protocol.data_received(
                f"{method} {path} HTTP/1.1\r\nHost: 192.0.2.1:8090\r\nContent-Type: "
                f"application/json\r\nContent-Length: {len(body)}\r\n{headers}\r\n".encode()
                + body)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            head, _, rest = bytes(transport.written).partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if length is not None and len(rest) >= length:
                return int(head.split()[1]), rest[:length]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no answer: {bytes(transport.written)[:200]!r}")

    def post_game(self, peer: str, game: str) -> Any:
        batch = one_game(START)
        batch["games"][0]["game"] = game
        return self.ask(peer, "POST", "/api/tables/Table%201/events", json.dumps(batch).encode(),
                        f"Authorization: Bearer {self.token}\r\n")


def flood(parlor: Parlor, addresses: list[str], each: int = 23) -> list[FakeTransport]:
    """`each` idle connections from every address (a request never sent)."""
    return [parlor.connect(address) for address in addresses for _ in range(each)]


def refused(connections: list[FakeTransport]) -> list[bytes]:
    return [bytes(c.written).rsplit(b"\r\n\r\n", 1)[1] for c in connections if c.written]


def test_one_network_cannot_shut_out_the_others(tmp_path: Path) -> None:
    """88 addresses of one /24 with 23 idle connections each (2,024, over the 2,000 in all):
    that network holds its share and no more; a kiosk from another network posts as ever."""
    parlor = Parlor(tmp_path)

    async def run() -> None:
        held = flood(parlor, [f"10.77.1.{n}" for n in range(1, 89)])
        answer = await parlor.post_game("192.0.2.10", "elsewhere")
        assert answer[0] == 200, answer
        assert json.loads(answer[1])["games"]["elsewhere"]["stored"] == 1
        # Its network's share is taken: a request without credentials is told so...
        assert await parlor.ask("10.77.1.200", "GET", "/api/session") == (
            503, b"too many connections from your network; try again in a moment\n")
        # ... a kiosk of the same network with its token is served from the reserve.
        status, _ = await parlor.post_game("10.77.1.201", "same-network")
        assert status == 200
        caps = parlor.config.http.keywords["caps"]  # type: ignore[union-attr]
        assert (caps.ordinary, caps.networks["10.77.1.0/24"]) == (251, 250)
        assert caps.reserved == 200  # the reserve: idle ones of that network, and the kiosk
        assert refused(held) == []  # none answered: the oldest unsent ones were closed instead
        assert sum(c.closed for c in held) == 2024 - 250 - 199
        for connection in held:
            connection.close()
        await asyncio.sleep(0.05)
        assert (caps.ordinary, caps.reserved, dict(caps.held)) == (1, 1, {
            "192.0.2.10": 1, "10.77.1.201": 1})  # the two kiosks' kept-alive connections

    asyncio.run(run())
    parlor.store.close()


def test_a_full_server_says_so_and_keeps_a_place_for_credentials(tmp_path: Path) -> None:
    """88 addresses each in a network of its own fill every ordinary place: a request without
    credentials hears that the server is full; a kiosk's post (its bearer token) and a signed-in
    browser (the parlor's session cookie) are served from the reserve."""
    parlor = Parlor(tmp_path)

    async def run() -> None:
        held = flood(parlor, [f"10.78.{n}.1" for n in range(88)])
        assert await parlor.ask("192.0.2.20", "GET", "/api/session") == (
            503, b"the server is at its connection limit; try again in a moment\n")
        status, _ = await parlor.post_game("192.0.2.10", "full")
        assert status == 200
        status, body = await parlor.ask("192.0.2.21", "GET", "/api/session",
                                        headers="Cookie: parlor_session=x\r\n")
        assert status == 200 and json.loads(body)["staff"] is None  # served, not trusted
        # One address still has its own cap, worded as before.
        mine = flood(parlor, ["192.0.2.30"], 25)
        assert refused(mine)[-1] == (b"too many connections from this address; close some "
                                     b"and try again\n")
        for connection in held + mine:
            connection.close()

    asyncio.run(run())
    parlor.store.close()
