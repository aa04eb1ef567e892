"""The parlor's Flask app: `create_app(store)`, its guard and its one error handler.

Two kinds of caller. A kiosk posts its events with ``Authorization: Bearer <table token>``.
Staff sign in with name and password; their cookie session then works as the kiosk's PIN
session does (kiosk.web.security): kept on the server (`kiosk.parlor.web.sessions`), and every
change needs the session's CSRF token in ``X-CSRF-Token``, so another web page cannot make a
signed-in browser post here. Only requests naming the parlor by one of its own names are answered
(the kiosk's `HostCheck`: a DNS-rebinding page names it otherwise). Services live in
``app.extensions["parlor"]``, never in module globals, so tests run several parlors at once.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, make_response, request, session
from werkzeug.exceptions import HTTPException

from kiosk.errors import ApiError
from kiosk.parlor.standings.live import LiveTables
from kiosk.parlor.store import auth
from kiosk.parlor.store.db import DatabaseError
from kiosk.parlor.store.registry import ParlorError, ParlorStore
from kiosk.parlor.store.results import Results
from kiosk.parlor.web.batch import MAX_BODY, BatchError
from kiosk.parlor.web.context import Parlor, ParlorOptions
from kiosk.web.openapi.parts import serve as serve_openapi
from kiosk.web.security import HostCheck, same_secret

__all__ = ["CHANGING", "COOKIE", "KIOSK_ENDPOINTS", "ParlorOptions", "create_app"]

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KIOSK_ENDPOINTS = frozenset({"kiosks.post_events"})  # bearer token, no cookie, no CSRF
COOKIE = "parlor_session"  # not the kiosk's "session": both may be open in one browser


def create_app(store: ParlorStore, options: ParlorOptions | None = None) -> Flask:
    options = options or ParlorOptions()
    auth.dummy_hash()  # made now, so the first unknown name costs no more than any other
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

    from kiosk.parlor.web.openapi import parlor_description
    from kiosk.parlor.web.views_counter import blueprint as counter
    from kiosk.parlor.web.views_kiosks import blueprint as kiosks
    from kiosk.parlor.web.views_staff import blueprint as staff
    from kiosk.parlor.web.views_stats import blueprint as stats

    app.register_blueprint(kiosks)
    app.register_blueprint(staff)
    app.register_blueprint(stats)
    app.register_blueprint(counter)
    serve_openapi(app, parlor_description)  # GET /api/openapi.json
    _errors(app)
    return app


def _answer(status: int, message: str, **extra: Any) -> Any:
    if request.path.startswith("/counter"):  # the counter's pages: a page a person can read
        from kiosk.parlor.web.pages import error_page

        return error_page(status, message, extra.get("field")), status
    return jsonify({"error": message, "status": status, **extra}), status


def _waiting(answer: Any) -> Any:
    """An answer whose JSON says `retry_after` says it in its ``Retry-After`` header too."""
    response = make_response(answer)
    wait = (response.get_json(silent=True) or {}).get("retry_after")
    if isinstance(wait, int):
        response.headers["Retry-After"] = str(wait)
    return response


def _errors(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(e: ApiError) -> Any:
        return _waiting(_answer(e.status, e.message, problems=e.problems, **e.extra))

    @app.errorhandler(BatchError)
    def batch_error(e: BatchError) -> Any:
        return _answer(e.status, str(e), field=e.field)

    @app.errorhandler(ParlorError)
    def parlor_error(e: ParlorError) -> Any:
        extra = {k: getattr(e, k) for k in ("game", "stored", "revision", "retry_after")
                 if hasattr(e, k)}
        return _waiting(_answer(e.status, str(e), field=e.field, **extra))

    @app.errorhandler(DatabaseError)
    def database_error(e: DatabaseError) -> Any:
        # The database's own trouble (a full disk, a damaged file, a server away): its reason in
        # one line, no traceback; the kiosk's outbox keeps what was not stored and retries.
        app.logger.error("%s %s: %s", request.method, request.path, e)
        answer = make_response(_answer(e.status, str(e)))
        answer.headers["Retry-After"] = "30"
        return answer

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
