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
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from flask import Request, session

from kiosk.errors import ApiError

PIN_FILE = "pin.txt"
SECRET_FILE = "secret_key"
TOKENS_FILE = "device_tokens.json"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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


@dataclass
class PinLimiter:
    """At most `attempts` wrong PINs per `window` seconds from one address."""

    attempts: int = 5
    window: float = 300.0
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def retry_after(self, address: str) -> int:
        now = time.monotonic()
        with self._lock:
            fails = self._failures.get(address, deque())
            while fails and now - fails[0] > self.window:
                fails.popleft()
            if len(fails) >= self.attempts:
                return int(self.window - (now - fails[0])) + 1
            return 0

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures.setdefault(address, deque()).append(time.monotonic())

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)


class Security:
    """The table PIN, device tokens and the checks every change goes through."""

    def __init__(self, data_dir: Path, pin: str = ""):
        self.data_dir = data_dir
        self.pin = pin or load_or_create(data_dir / PIN_FILE,
                                         lambda: f"{secrets.randbelow(10**6):06d}")
        self.secret_key = load_or_create(data_dir / SECRET_FILE, lambda: secrets.token_hex(32))
        self.limiter = PinLimiter()
        self._tokens_path = data_dir / TOKENS_FILE
        self._lock = threading.Lock()

    # --- PIN sessions -------------------------------------------------------------------
    def check_pin(self, address: str, pin: object) -> None:
        wait = self.limiter.retry_after(address)
        if wait:
            raise ApiError(429, f"too many wrong PINs; try again in {wait} s",
                           retry_after=wait)
        if not isinstance(pin, str) or not hmac.compare_digest(pin.strip(), self.pin):
            self.limiter.failed(address)
            raise ApiError(403, "wrong PIN")
        self.limiter.succeeded(address)

    @staticmethod
    def csrf_token() -> str:
        token = session.get("csrf")
        if not token:
            token = secrets.token_urlsafe(24)
            session["csrf"] = token
        return token

    # --- device tokens ------------------------------------------------------------------
    def _read_tokens(self) -> dict[str, str]:
        if not self._tokens_path.exists():
            return {}
        tokens: dict[str, str] = json.loads(self._tokens_path.read_text(encoding="utf-8"))
        return tokens

    def issue_token(self, name: str) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            tokens = self._read_tokens()
            tokens[hashlib.sha256(token.encode()).hexdigest()] = name
            self._tokens_path.write_text(json.dumps(tokens, indent=1), encoding="utf-8")
            self._tokens_path.chmod(0o600)
        return token

    def token_name(self, token: str) -> str | None:
        digest = hashlib.sha256(token.encode()).hexdigest()
        with self._lock:
            return self._read_tokens().get(digest)

    # --- the check -----------------------------------------------------------------------
    def authorise_change(self, request: Request) -> str:
        """Return who is changing the table, or raise 401/403 naming what is missing."""
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            name = self.token_name(auth[len("Bearer "):].strip())
            if name is None:
                raise ApiError(401, "unknown device token")
            return f"device:{name}"
        if is_loopback_client(request.remote_addr):
            who = "kiosk"
        elif session.get("pin_ok"):
            who = "pin"
        else:
            raise ApiError(401, "this change needs the table PIN (shown on the kiosk's screen)",
                           needs_pin=True)
        sent = request.headers.get("X-CSRF-Token", "")
        expected = session.get("csrf", "")
        if not expected or not hmac.compare_digest(sent, expected):
            raise ApiError(403, "missing or wrong CSRF token (send the X-CSRF-Token header "
                           "from GET /api/session)")
        return who
