"""How many connections (and streams) each client may hold, and whose they are when full.

`ClientCaps` counts something per address and in all (live pages, camera views).
`ConnectionCaps` shares the connections: one address holds at most `per_client`; the ordinary
places (`total - reserve`) are shared by network (a /24 for IPv4, a /64 for IPv6), each holding at
most `share` of them, so addresses of one network cannot shut out every other device. The last
`reserve` places are for requests that carry credentials: an ``Authorization: Bearer`` header
(a kiosk's table token, a device token) or the app's session cookie (signed-in staff, a PIN
session). The front cannot check them cheaply, so a place is for a request that *carries* one;
a connection taken into the reserve before its request is read holds it `pending` and loses it
when its request carries none (503) or, not yet sent, when a newer connection needs the place.
Loopback clients (the kiosk's own screen) are never counted.
"""

from __future__ import annotations

import ipaddress
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.web.security import is_loopback_client

ADDRESS, NETWORK, FULL = "address", "network", "full"
REFUSALS = {  # the 503's words, by what is full
    ADDRESS: "too many connections from this address; close some and try again",
    NETWORK: "too many connections from your network; try again in a moment",
    FULL: "the server is at its connection limit; try again in a moment",
}
FREE, ORDINARY, RESERVE, REFUSED = "free", "ordinary", "reserve", "refused"


@dataclass
class ClientCaps:
    """How many of something each non-loopback address may hold, and all of them together."""

    per_client: int
    total: int
    held: Counter[str] = field(default_factory=Counter)

    def take(self, address: str) -> bool:
        if is_loopback_client(address):
            return True
        if self.held[address] >= self.per_client or self.held.total() >= self.total:
            return False
        self.held[address] += 1
        return True

    def give_back(self, address: str) -> None:
        if address in self.held:
            self.held[address] -= 1
            if self.held[address] <= 0:
                del self.held[address]


def network(address: str) -> str:
    """The /24 (IPv4, IPv4-mapped too) or /64 (IPv6) an address is in; itself if unparsable."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


@dataclass(eq=False)
class Place:
    """One connection's place: its pool, and in the reserve why it would be refused otherwise."""

    address: str
    network: str
    pool: str
    refusal: str = ""
    close: Callable[[], None] | None = None

    @property
    def pending(self) -> bool:
        return self.pool == RESERVE and bool(self.refusal)


@dataclass
class ConnectionCaps:
    per_client: int = 24
    total: int = 2000
    reserve: int = 200
    share: int = 250  # ordinary places one network may hold
    cookies: tuple[str, ...] = ("session",)  # the session cookies that may use the reserve
    held: Counter[str] = field(default_factory=Counter)
    networks: Counter[str] = field(default_factory=Counter)
    ordinary: int = 0
    reserved: int = 0
    waiting: OrderedDict[int, Place] = field(default_factory=OrderedDict)  # pending, oldest first

    def take(self, address: str, close: Callable[[], None] | None = None) -> Place:
        """A place for a new connection from `address` (its pool REFUSED when there is none)."""
        if is_loopback_client(address):
            return Place(address, "", FREE)
        net = network(address)
        if self.held[address] >= self.per_client:
            return Place(address, net, REFUSED, ADDRESS)
        why = (FULL if self.ordinary >= self.total - self.reserve
               else NETWORK if self.networks[net] >= self.share else "")
        if not why:
            self.ordinary += 1
            self.networks[net] += 1
            place = Place(address, net, ORDINARY)
        else:
            if self.reserved >= self.reserve and self.waiting:  # the oldest unsent one goes
                _, oldest = self.waiting.popitem(last=False)
                self.give_back(oldest)
                if oldest.close is not None:
                    oldest.close()
            if self.reserved >= self.reserve:
                return Place(address, net, REFUSED, why)
            self.reserved += 1
            place = Place(address, net, RESERVE, why, close)
            self.waiting[id(place)] = place
        self.held[address] += 1
        return place

    def keep(self, place: Place) -> None:
        """A pending connection's request carried credentials: its place is its own now."""
        self.waiting.pop(id(place), None)
        place.refusal = ""

    def give_back(self, place: Place) -> None:
        if place.pool not in (ORDINARY, RESERVE):
            return
        if place.pool == ORDINARY:
            self.ordinary -= 1
            _less(self.networks, place.network)
        else:
            self.reserved -= 1
            self.waiting.pop(id(place), None)
        _less(self.held, place.address)
        place.pool = FREE

    def carries_credentials(self, headers: list[tuple[bytes, bytes]]) -> bool:
        for name, value in headers:
            if name == b"authorization" and value[:7].lower() == b"bearer ":
                return True
            if name == b"cookie":
                sent = {c.split(b"=", 1)[0].strip() for c in value.split(b";")}
                if any(cookie.encode() in sent for cookie in self.cookies):
                    return True
        return False


def _less(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def refusal_response(why: str) -> bytes:
    """The raw 503 for a connection refused before its request was read."""
    body = REFUSALS[why].encode() + b"\n"
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 5\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
            + body)


App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


def reserve_gate(app: App, caps: ConnectionCaps, place: Place, restore: Callable[[], None]) -> App:
    """The ASGI app for a pending connection's first request: with credentials it keeps its
    place (and the connection its app, `restore`); without, a 503 saying what is full."""

    async def gate(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if place.pool == RESERVE and caps.carries_credentials(scope.get("headers", [])):
            caps.keep(place)
            restore()
            await app(scope, receive, send)
            return
        body = REFUSALS[place.refusal or FULL].encode() + b"\n"
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"text/plain"), (b"retry-after", b"5"),
            (b"connection", b"close"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return gate
