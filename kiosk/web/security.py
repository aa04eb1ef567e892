"""Who may change the table: the kiosk itself, a session that entered the PIN, or a device token.

Reads are open. A change (any POST/PUT/DELETE under /api/) is allowed when the client is on the
loopback interface (the kiosk's own screen), when its cookie session has entered the table PIN,
or when it sends `Authorization: Bearer <device token>`. Cookie-based changes (loopback and PIN
sessions alike) also need the session's CSRF token in the `X-CSRF-Token` header, so another web
page cannot make the browser post to the kiosk. Wrong PINs are rate-limited per client address.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Request, session

from kiosk.errors import ApiError

PIN_FILE = "pin.txt"
SECRET_FILE = "secret_key"
TOKENS_FILE = "device_tokens.json"
SESSIONS_FILE = "pin_sessions.json"
SESSION_TTL = 12 * 3600.0  # a PIN session lasts a playing day
MAX_SESSIONS = 200
TOKEN_DAYS = 180
TOKEN_ID = 12  # hex characters of a token's digest that name it in lists
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _read_json(path: Path) -> dict[str, Any]:
    """A small JSON object file; missing or unreadable counts as empty (nothing is granted)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write_json(path: Path, value: dict[str, Any]) -> None:
    """Write owner-only, replacing the file whole (a crash leaves the old one)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(value, indent=1), encoding="utf-8")
    tmp.chmod(0o600)
    tmp.replace(path)


def load_or_create(path: Path, make: Callable[[], str]) -> str:
    """Read a small secret file, creating it (owner-only) on first start."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = make()
    path.write_text(value + "\n", encoding="utf-8")
    path.chmod(0o600)
    return value


def is_loopback_client(address: str | None) -> bool:
    if not address:
        return False
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def host_name(host_header: str) -> str:
    """The name or address of a Host header, without its port, lower case.

    >>> host_name("Kiosk.local:8080"), host_name("[::1]:8080"), host_name("192.168.1.5")
    ('kiosk.local', '::1', '192.168.1.5')
    """
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def is_loopback_host(host_header: str) -> bool:
    """A Host naming this machine's loopback: localhost or a loopback address."""
    name = host_name(host_header)
    address = _address(name)
    return name == "localhost" or (address is not None and address.is_loopback)


@dataclass(frozen=True)
class HostCheck:
    """Which Host headers this kiosk answers. A DNS-rebinding page reaches the kiosk under a
    name of the attacker's (``evil.example`` resolving to the kiosk's address), so names are
    accepted only when they are the kiosk's own: loopback names from a loopback client, the
    machine's host name (and its mDNS ``.local``), the public URL's and the configured ones.
    Addresses are always accepted: a rebinding page cannot send one as its Host."""

    names: frozenset[str]

    @classmethod
    def for_kiosk(cls, allowed: tuple[str, ...] = (), public_url: str = "") -> HostCheck:
        machine = socket.gethostname().lower()
        names = {machine, f"{machine}.local", *(n.lower() for n in allowed)}
        if public_url:
            names.add(host_name(urlsplit(public_url).netloc))
        return cls(frozenset(n for n in names if n))

    def allows(self, host_header: str, client: str | None) -> bool:
        name = host_name(host_header)
        if _address(name) is not None:
            return True
        if name == "localhost":
            return is_loopback_client(client)
        return name in self.names


def is_local(request: Request) -> bool:
    """The kiosk's own screen: a loopback client that also named the kiosk by a loopback name
    (a rebinding page in the kiosk's own browser names it otherwise)."""
    return is_loopback_client(request.remote_addr) and is_loopback_host(request.host)


@dataclass
class PinLimiter:
    """Wrong PINs are limited per address (``attempts`` a ``window``) and over all addresses
    together (``total`` a ``total_window``), so a phone changing its address, or a hundred
    phones, search the PIN space no faster; past the total, PIN entry pauses for everyone (the
    kiosk's own screen needs no PIN) and the screen says so."""

    attempts: int = 5
    window: float = 300.0
    total: int = 20
    total_window: float = 600.0
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @staticmethod
    def _wait(fails: deque[float], limit: int, window: float, now: float) -> int:
        while fails and now - fails[0] > window:
            fails.popleft()
        return int(window - (now - fails[0])) + 1 if len(fails) >= limit else 0

    def retry_after(self, address: str) -> int:
        now = time.monotonic()
        with self._lock:
            mine = self._wait(self._failures.get(address, deque()), self.attempts, self.window,
                              now)
            if not self._failures.get(address):
                self._failures.pop(address, None)
            return max(mine, self._wait(self._all, self.total, self.total_window, now))

    def paused_for(self) -> int:
        """Seconds until PIN entry opens again for everyone (0: open)."""
        with self._lock:
            return self._wait(self._all, self.total, self.total_window, time.monotonic())

    def recent_failures(self) -> int:
        with self._lock:
            now = time.monotonic()
            return sum(1 for at in self._all if now - at <= self.total_window)

    def failed(self, address: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._failures.setdefault(address, deque()).append(now)
            self._all.append(now)
            if len(self._failures) > 10_000:  # addresses are cheap to a scanner: forget the oldest
                self._failures.pop(next(iter(self._failures)))

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)


def same_secret(sent: object, expected: str) -> bool:
    """Constant-time comparison of text from outside (any characters) with a secret.

    >>> same_secret("2468", "2468"), same_secret("２４６８", "2468"), same_secret(7, "7")
    (True, False, False)
    """
    if not isinstance(sent, str):
        return False
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


class Security:
    """The table PIN, PIN sessions, device tokens and the checks every change goes through.

    A PIN session lives in the signed cookie only as an id; the kiosk keeps the ids it issued
    (``pin_sessions.json``, with a digest of the PIN they were issued under), so logging out
    ends one, a new PIN ends all (at start), and each expires after ``SESSION_TTL``. Device
    tokens are kept as digests with a name and an expiry, listed and revoked on the kiosk's own
    screen."""

    def __init__(self, data_dir: Path, pin: str = ""):
        self.data_dir = data_dir
        self.pin = pin or load_or_create(data_dir / PIN_FILE,
                                         lambda: f"{secrets.randbelow(10**6):06d}")
        self.secret_key = load_or_create(data_dir / SECRET_FILE, lambda: secrets.token_hex(32))
        self.limiter = PinLimiter()
        self._tokens_path = data_dir / TOKENS_FILE
        self._sessions_path = data_dir / SESSIONS_FILE
        self._lock = threading.Lock()
        self._pin_digest = hmac.new(self.secret_key.encode(), self.pin.encode(),
                                    hashlib.sha256).hexdigest()

    # --- PIN sessions -------------------------------------------------------------------
    def check_pin(self, address: str, pin: object) -> None:
        wait = self.limiter.retry_after(address)
        if wait:
            raise ApiError(429, f"too many wrong PINs; try again in {wait} s",
                           retry_after=wait, code="pin_wait", words={"wait": wait})
        if not same_secret(pin.strip() if isinstance(pin, str) else pin, self.pin):
            self.limiter.failed(address)
            raise ApiError(403, "wrong PIN", code="wrong_pin")
        self.limiter.succeeded(address)

    def pin_alarm(self) -> dict[str, int] | None:
        """Wrong PINs lately and how long PIN entry stays paused, for the kiosk's own screen."""
        wrong = self.limiter.recent_failures()
        return {"wrong_pins": wrong, "paused_for": self.limiter.paused_for()} if wrong else None

    def _sessions(self) -> dict[str, float]:
        """Live PIN session ids -> expiry (wall clock); none issued under another PIN."""
        stored = _read_json(self._sessions_path)
        if stored.get("pin") != self._pin_digest or not isinstance(stored.get("ids"), dict):
            return {}
        now = time.time()
        return {k: float(v) for k, v in stored["ids"].items()
                if isinstance(v, int | float) and v > now}

    def _write_sessions(self, ids: dict[str, float]) -> None:
        _write_json(self._sessions_path, {"pin": self._pin_digest, "ids": ids})

    def start_pin_session(self) -> None:
        sid = secrets.token_urlsafe(24)
        with self._lock:
            ids = self._sessions()
            ids[sid] = time.time() + SESSION_TTL
            self._write_sessions(dict(sorted(ids.items(), key=lambda kv: kv[1])[-MAX_SESSIONS:]))
        session["pin_sid"] = sid

    def end_pin_session(self) -> None:
        sid = session.pop("pin_sid", None)
        if sid:
            with self._lock:
                ids = self._sessions()
                if ids.pop(sid, None) is not None:
                    self._write_sessions(ids)

    def has_pin_session(self) -> bool:
        sid = session.get("pin_sid")
        if not isinstance(sid, str):
            return False
        with self._lock:
            return sid in self._sessions()

    @staticmethod
    def csrf_token() -> str:
        token = session.get("csrf")
        if not token:
            token = secrets.token_urlsafe(24)
            session["csrf"] = token
        return token

    # --- device tokens ------------------------------------------------------------------
    def _read_tokens(self) -> dict[str, dict[str, Any]]:
        """digest -> {name, created, expires}; a bare name (an older file) never expires."""
        tokens = {}
        for digest, value in _read_json(self._tokens_path).items():
            if isinstance(value, str):
                value = {"name": value, "created": 0, "expires": None}
            if isinstance(value, dict):
                tokens[digest] = value
        return tokens

    def issue_token(self, name: str, days: int = TOKEN_DAYS) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self._lock:
            tokens = self._read_tokens()
            tokens[_digest(token)] = {"name": name, "created": round(now),
                                      "expires": round(now + days * 86400)}
            _write_json(self._tokens_path, tokens)
        return token

    def token_name(self, token: str) -> str | None:
        with self._lock:
            entry = self._read_tokens().get(_digest(token))
        if entry is None or (entry.get("expires") and entry["expires"] < time.time()):
            return None
        return str(entry.get("name", "?"))

    def list_tokens(self) -> list[dict[str, Any]]:
        """Every device token: its id (a digest prefix), name, creation and expiry time."""
        with self._lock:
            tokens = self._read_tokens()
        return [{"id": digest[:TOKEN_ID], "name": e.get("name"), "created": e.get("created"),
                 "expires": e.get("expires"),
                 "expired": bool(e.get("expires") and e["expires"] < time.time())}
                for digest, e in sorted(tokens.items(), key=lambda kv: kv[1].get("created", 0))]

    def revoke_token(self, token_id: str) -> str:
        """Forget the token with this id; returns its name (ApiError 404 if none)."""
        with self._lock:
            tokens = self._read_tokens()
            found = [d for d in tokens if len(token_id) == TOKEN_ID and d.startswith(token_id)]
            if not found:
                raise ApiError(404, f"no device token {token_id[:TOKEN_ID]!r}",
                               code="token_missing", words={"id": token_id[:TOKEN_ID]})
            name = str(tokens.pop(found[0]).get("name", "?"))
            _write_json(self._tokens_path, tokens)
        return name

    # --- the check -----------------------------------------------------------------------
    def authorise_change(self, request: Request) -> str:
        """Return who is changing the table, or raise 401/403 naming what is missing."""
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            name = self.token_name(auth[len("Bearer "):].strip())
            if name is None:
                raise ApiError(401, "unknown device token", code="token_unknown")
            return f"device:{name}"
        if is_local(request):
            who = "kiosk"
        elif self.has_pin_session():
            who = "pin"
        else:
            raise ApiError(401, "this change needs the table PIN (shown on the kiosk's screen)",
                           needs_pin=True, code="pin_needed")
        sent = request.headers.get("X-CSRF-Token", "")
        expected = session.get("csrf", "")
        if not expected or not same_secret(sent, expected):
            raise ApiError(403, "missing or wrong CSRF token (send the X-CSRF-Token header "
                           "from GET /api/session)", code="csrf")
        return who
