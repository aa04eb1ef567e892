"""The parlor's Flask app: `create_app(store)`, its guard and its one error handler.

Two kinds of caller. A kiosk posts its events with ``Authorization: Bearer <table token>``.
Staff sign in with name and password; their cookie session then works as the kiosk's PIN
session does (kiosk.security): every change needs the session's CSRF token in ``X-CSRF-Token``,
so another web page cannot make a signed-in browser post here. Services live in
``app.extensions["parlor"]``, never in module globals, so tests run several parlors at once.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, jsonify, request, session
from werkzeug.exceptions import HTTPException

from kiosk import request_json
from kiosk.errors import ApiError
from kiosk.parlor.batch import MAX_BODY, BatchError
from kiosk.parlor.live import LiveTables
from kiosk.parlor.results import Results
from kiosk.parlor.store import ParlorError, ParlorStore
from kiosk.security import SESSION_TTL, PinLimiter, same_secret

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KIOSK_ENDPOINTS = frozenset({"kiosks.post_events"})  # bearer token, no cookie, no CSRF


@dataclass
class Parlor:
    """The parlor's services, built once per app."""

    store: ParlorStore
    live: LiveTables
    results: Results  # each game's result per seat, rebuilt from its events when they move
    sign_ins: PinLimiter  # wrong passwords, limited per address and over all of them


def parlor() -> Parlor:
    from flask import current_app

    found: Parlor = current_app.extensions["parlor"]
    return found


def json_object(required: bool = True) -> dict[str, Any]:
    """The request's JSON object, bounded in size (`MAX_BODY`) and nesting; a 400 says what is
    wrong."""
    return request_json.json_object(required, MAX_BODY)


def staff_name() -> str:
    """The signed-in staff member, or a 401. A sign-in lasts `SESSION_TTL` (a signed cookie
    cannot be withdrawn, so a copied one must not work for ever)."""
    name, since = session.get("staff"), session.get("since")
    if (not isinstance(name, str) or not isinstance(since, int | float)
            or not 0 <= time.time() - since <= SESSION_TTL or not parlor().store.is_staff(name)):
        raise ApiError(401, "staff only: sign in first (POST /api/login)", needs_login=True)
    return name


def begin_session(role: str, who: str) -> str:
    """A new session (a new id: no fixation) for `who`, signed in as `role` ("staff" or
    "member"), never both at once; returns its CSRF token."""
    session.clear()
    session[role], session["since"] = who, time.time()
    session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def create_app(store: ParlorStore) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=store.secret_key(),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",  # staff open the counter pages directly, never by link
        JSON_SORT_KEYS=False,
    )
    app.extensions["parlor"] = Parlor(store, LiveTables(store.db), Results(store.db),
                                      PinLimiter())

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
