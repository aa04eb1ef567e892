"""What a parlor view reads from the running app and its request: the parlor's services (in
``app.extensions["parlor"]``), the JSON body within bounds, the signed-in staff member, a sign-in's
password checked against guessing. Kept apart from `kiosk.parlor.web.app`, which imports the
views."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import request

from kiosk.errors import ApiError
from kiosk.parlor.standings.live import LiveTables
from kiosk.parlor.store.quota import Quota
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.store.results import Results
from kiosk.parlor.web import sessions, throttle
from kiosk.parlor.web.batch import MAX_BODY
from kiosk.web import request_json


@dataclass(frozen=True)
class ParlorOptions:
    """How the parlor is reached: the proxies whose ``X-Forwarded-For`` names the client (none
    by default), the host names it answers besides its addresses, a cookie sent over TLS only,
    each table's quota."""

    trusted_proxies: tuple[throttle.Network, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    secure_cookie: bool = False
    quota: Quota = Quota()


@dataclass
class Parlor:
    """The parlor's services, built once per app."""

    store: ParlorStore
    live: LiveTables
    results: Results  # each game's result per seat, rebuilt from its events when they move
    options: ParlorOptions = ParlorOptions()
    sign_ins: throttle.SignInThrottle = field(default_factory=throttle.SignInThrottle)
    # A table's member look-ups: enough for a game's four seats, too few to list the members.
    look_ups: throttle.TokenBucket = field(
        default_factory=lambda: throttle.TokenBucket(size=10, every=6.0))


def parlor() -> Parlor:
    from flask import current_app

    found: Parlor = current_app.extensions["parlor"]
    return found


def json_object(required: bool = True) -> dict[str, Any]:
    """The request's JSON object, bounded in size (`MAX_BODY`) and nesting; a 400 says what is
    wrong."""
    return request_json.json_object(required, MAX_BODY)


def signed_in_staff() -> str | None:
    found = sessions.current(parlor().store.db)
    return None if found is None else found.staff


def staff_name() -> str:
    """The signed-in staff member, or a 401."""
    name = signed_in_staff()
    if name is None:
        raise ApiError(401, "staff only: sign in first (POST /api/login)", needs_login=True)
    return name


def client_address() -> str:
    """The client's address; from a trusted proxy, the one it forwards (`throttle`)."""
    return throttle.client_address(request.remote_addr or "",
                                   request.headers.get("X-Forwarded-For", ""),
                                   parlor().options.trusted_proxies)


def password_checked(account: str, check: Callable[[], bool]) -> bool:
    """`check()` a sign-in's password unless this client must wait first (429 saying how long);
    a wrong one counts against the client's address and `account` ("staff:NAME")."""
    address, limits = client_address(), parlor().sign_ins
    wait = limits.retry_after(address, account)
    if wait:
        raise ApiError(429, f"too many wrong passwords from this address; try again in {wait} s",
                       retry_after=wait)
    if check():
        return True
    limits.failed(address, account)
    return False


def known_fields(body: dict[str, Any], allowed: set[str]) -> None:
    """A 400 naming the first field of ``body`` that is not ``allowed``."""
    unknown = sorted(str(k)[:40] for k in set(body) - allowed)
    if unknown:
        raise ApiError(400, f"unknown field(s): {', '.join(unknown)} (known: "
                       f"{', '.join(sorted(allowed))})", field=unknown[0])
