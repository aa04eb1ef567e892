"""The parlor's Flask app: `create_app(store)`, its guard and its one error handler.

Two kinds of caller. A kiosk posts its events with ``Authorization: Bearer <table token>``.
Staff sign in with name and password; their cookie session then works as the kiosk's PIN
session does (kiosk.security): kept on the server (`kiosk.parlor.sessions`), and every change
needs the session's CSRF token in ``X-CSRF-Token``, so another web page cannot make a signed-in
browser post here. Only requests naming the parlor by one of its own names are answered (the
kiosk's `HostCheck`: a DNS-rebinding page names it otherwise). Services live in
``app.extensions["parlor"]``, never in module globals, so tests run several parlors at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, jsonify, request, session
from werkzeug.exceptions import HTTPException

from kiosk import request_json
from kiosk.errors import ApiError
from kiosk.parlor import sessions, throttle
from kiosk.parlor.batch import MAX_BODY, BatchError
from kiosk.parlor.live import LiveTables
from kiosk.parlor.results import Results
from kiosk.parlor.store import ParlorError, ParlorStore
from kiosk.security import HostCheck, same_secret

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KIOSK_ENDPOINTS = frozenset({"kiosks.post_events"})  # bearer token, no cookie, no CSRF
COOKIE = "parlor_session"  # not the kiosk's "session": both may be open in one browser


@dataclass(frozen=True)
class ParlorOptions:
    """How the parlor is reached: the proxies whose ``X-Forwarded-For`` names the client (none
    by default), the host names it answers besides its addresses, a cookie sent over TLS only."""

    trusted_proxies: tuple[throttle.Network, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    secure_cookie: bool = False


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


def create_app(store: ParlorStore, options: ParlorOptions = ParlorOptions()) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=store.secret_key(),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_NAME=COOKIE,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",  # staff open the counter pages directly, never by link
        SESSION_COOKIE_SECURE=options.secure_cookie,  # behind TLS: never sent in clear
        JSON_SORT_KEYS=False,
    )
    app.extensions["parlor"] = Parlor(store, LiveTables(store.db), Results(store.db), options)
    hosts = HostCheck.for_kiosk(options.allowed_hosts)

    @app.before_request
    def check_host() -> None:
        if not hosts.allows(request.host, request.remote_addr):
            raise ApiError(400, f"Host {request.host[:80]!r} is not a name of this parlor (open "
                           "it by its address, or add the name with --allowed-hosts)")

    @app.before_request
    def guard_changes() -> None:
        # Cookie-based changes need the CSRF token, signed in or not (a forged sign-in too).
        if request.method in CHANGING and request.endpoint not in KIOSK_ENDPOINTS:
            expected = session.get("csrf", "")
            # The counter's plain HTML forms cannot send a header: they carry it as a field.
            sent = request.headers.get("X-CSRF-Token") or (
                request.form.get("csrf", "") if request.path.startswith("/counter/") else "")
            if not expected or not same_secret(sent, expected):
                raise ApiError(403, "missing or wrong CSRF token (send the X-CSRF-Token header "
                               "from GET /api/session)")

    @app.after_request
    def security_headers(response):  # noqa: ANN001, ANN202
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    from kiosk.parlor.views_counter import blueprint as counter
    from kiosk.parlor.views_kiosks import blueprint as kiosks
    from kiosk.parlor.views_staff import blueprint as staff
    from kiosk.parlor.views_stats import blueprint as stats

    app.register_blueprint(kiosks)
    app.register_blueprint(staff)
    app.register_blueprint(stats)
    app.register_blueprint(counter)
    _errors(app)
    return app


def _answer(status: int, message: str, **extra: Any) -> Any:
    if request.path.startswith("/counter"):  # the counter's pages: a page a person can read
        from kiosk.parlor.pages import error_page

        return error_page(status, message, extra.get("field")), status
    return jsonify({"error": message, "status": status, **extra}), status


def _errors(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(e: ApiError) -> Any:
        return _answer(e.status, e.message, problems=e.problems, **e.extra)

    @app.errorhandler(BatchError)
    def batch_error(e: BatchError) -> Any:
        return _answer(400, str(e), field=e.field)

    @app.errorhandler(ParlorError)
    def parlor_error(e: ParlorError) -> Any:
        extra = {k: getattr(e, k) for k in ("game", "stored", "revision") if hasattr(e, k)}
        return _answer(e.status, str(e), field=e.field, **extra)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Any:
        status = e.code or 500
        if status == 413:
            return _answer(413, f"request body too large (at most {MAX_BODY // 1024:,} KB)")
        return _answer(status, e.description or e.name)

    @app.errorhandler(Exception)
    def unexpected(e: Exception) -> Any:
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return _answer(500, f"internal error: {type(e).__name__}")
