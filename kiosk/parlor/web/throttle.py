"""Slowing guessers down without locking anyone out: wrong passwords and member look-ups.

Wrong passwords are counted per client address and per account (a staff name, a member
number). Past a few free mistakes each further attempt waits a delay that doubles per failure
up to a minute, never longer: a guesser is slowed, a person is never locked out. An account's
failures hold up only addresses that are failing themselves, so a correct password from an
address that has not failed always gets in, whatever others did to the account. (The kiosk's
`PinLimiter` also pauses every address past a total; a parlor must not, or any guesser locks
every staff member out.)

The client address is the peer's, or, from a configured proxy only (`trusted_proxies`), the
last address in ``X-Forwarded-For`` that is not one of those proxies: behind a local TLS proxy
every peer is 127.0.0.1, and a header sent by anyone else would let a guesser pick its address.

>>> clock = Clock()
>>> backoff = Backoff(free=2, base=1.0, most=4.0, clock=clock)
>>> [backoff.failed("a") or backoff.wait("a") for _ in range(5)]
[0.0, 1.0, 2.0, 4.0, 4.0]
>>> clock.now += 4.0; backoff.wait("a")
0.0
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
KEYS = 10_000  # addresses and names are cheap to a guesser: the oldest are forgotten past this


@dataclass(eq=False)  # hashable: one shared default clock
class Clock:
    """`time.monotonic`, or a hand-moved clock in tests (``now`` set)."""

    now: float | None = 0.0

    def __call__(self) -> float:
        return time.monotonic() if self.now is None else self.now


MONOTONIC = Clock(None)


@dataclass
class Backoff:
    """Failures per key; past `free` of them the next attempt waits ``base * 2**(n - free)`` s
    after the key's latest failure, at most `most`. A key is forgotten `forget` s after its
    latest failure."""

    free: int
    base: float = 1.0
    most: float = 60.0
    forget: float = 900.0
    clock: Callable[[], float] = MONOTONIC
    _keys: OrderedDict[str, tuple[int, float]] = field(default_factory=OrderedDict)

    def _get(self, key: str) -> tuple[int, float]:
        count, last = self._keys.get(key, (0, 0.0))
        if count and self.clock() - last > self.forget:
            del self._keys[key]
            return 0, 0.0
        return count, last

    def failing(self, key: str) -> bool:
        return self._get(key)[0] > 0

    def wait(self, key: str) -> float:
        count, last = self._get(key)
        if count < self.free:
            return 0.0
        delay = min(self.most, self.base * 2.0 ** min(count - self.free, 32))
        return max(0.0, last + delay - self.clock())

    def failed(self, key: str) -> None:
        count, _ = self._get(key)
        self._keys[key] = (count + 1, self.clock())
        self._keys.move_to_end(key)
        while len(self._keys) > KEYS:
            self._keys.popitem(last=False)


@dataclass
class SignInThrottle:
    """Wrong passwords, per address (5 free) and per account (10 free, from any address)."""

    clock: Callable[[], float] = MONOTONIC
    addresses: Backoff = field(init=False)
    accounts: Backoff = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.addresses = Backoff(free=5, clock=self.clock)
        self.accounts = Backoff(free=10, clock=self.clock)

    def retry_after(self, address: str, account: str) -> int:
        """Seconds this address must wait before trying `account` (0: try now)."""
        with self._lock:
            if not self.addresses.failing(address):
                return 0  # never held up by other addresses' failures
            wait = max(self.addresses.wait(address), self.accounts.wait(account))
        return math.ceil(wait)

    def failed(self, address: str, account: str) -> None:
        with self._lock:
            self.addresses.failed(address)
            self.accounts.failed(account)


@dataclass
class TokenBucket:
    """`size` look-ups at once per key, then one every `every` s."""

    size: int
    every: float
    clock: Callable[[], float] = MONOTONIC
    _keys: OrderedDict[str, tuple[float, float]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: str) -> int:
        """0 when a token was taken, else the seconds until the next one."""
        with self._lock:
            now = self.clock()
            tokens, at = self._keys.get(key, (float(self.size), now))
            tokens = min(float(self.size), tokens + (now - at) / self.every)
            took = tokens >= 1.0
            self._keys[key] = (tokens - 1.0 if took else tokens, now)
            self._keys.move_to_end(key)
            while len(self._keys) > KEYS:
                self._keys.popitem(last=False)
        return 0 if took else math.ceil((1.0 - tokens) * self.every)


def networks(values: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``127.0.0.1``, ``10.0.0.0/8``); ValueError names a wrong one."""
    found = []
    for value in values:
        try:
            found.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {value.strip()[:60]!r}") from None
    return tuple(found)


def _within(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return any(ip in net for net in trusted)


def client_address(peer: str, forwarded: str, trusted: tuple[Network, ...]) -> str:
    """The client's address: `peer`, unless `peer` is a trusted proxy, then the last address of
    ``X-Forwarded-For`` that is not a trusted proxy (each proxy appends its own peer).

    >>> proxy = networks(["127.0.0.1"])
    >>> client_address("127.0.0.1", "6.6.6.6, 203.0.113.5", proxy)
    '203.0.113.5'
    >>> client_address("198.51.100.7", "203.0.113.5", proxy), client_address("127.0.0.1", "", ())
    ('198.51.100.7', '127.0.0.1')
    """
    if not trusted or not _within(peer, trusted):
        return peer
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        if not _within(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:  # not an address: count the proxy's own peer
                return peer
    return peer
