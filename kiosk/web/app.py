"""The Flask application factory: `create_app(config, services)`.

Views are thin: they parse the request, call a service and present the result. Services live in
`app.extensions["kiosk"]`, never in module globals, so tests and several kiosks can run side by
side in one process.
"""

from __future__ import annotations

from flask import Flask, request, session

from kiosk import errors
from kiosk.config import KioskConfig
from kiosk.services import Services
from kiosk.web import error_handler, idempotency
from kiosk.web.context import language
from kiosk.web.form_request import KioskRequest
from kiosk.web.security import HostCheck
from kiosk.words import i18n

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def create_app(config: KioskConfig, kiosk: Services) -> Flask:
    i18n.load()  # every catalogue compiled now: a broken one stops the kiosk, named
    app = Flask(__name__)
    app.request_class = KioskRequest  # a form refused for its fields says so
    app.config.update(
        SECRET_KEY=kiosk.security.secret_key,
        MAX_CONTENT_LENGTH=config.max_upload_mb * 1024 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        # The CSRF token guards changes; Lax keeps a PIN session when a phone opens the QR link.
        SESSION_COOKIE_SAMESITE="Lax",
        JSON_SORT_KEYS=False,
    )
    app.extensions["kiosk"] = kiosk
    hosts = HostCheck.for_kiosk(config.host_names, config.public_url)

    @app.before_request
    def check_host() -> None:
        if not hosts.allows(request.host, request.remote_addr):
            raise errors.ApiError(
                400, f"Host {request.host[:80]!r} is not a name of this kiosk (open it by its "
                "address, or add the name to allowed_hosts)", code="host_unknown",
                words={"host": request.host[:80]})

    @app.before_request
    def guard_changes() -> None:
        # Every change under /api/ is authorised here, in one place (see kiosk.web.security).
        if request.method in CHANGING and request.path.startswith("/api/") \
                and request.endpoint != "api.enter_pin":
            request.environ["kiosk.who"] = kiosk.security.authorise_change(request)

    @app.before_request
    def check_idempotency_key() -> None:
        # Checked on every change, also one that does not keep it (kiosk.web.idempotency).
        if request.method in CHANGING and request.path.startswith("/api/"):
            idempotency.check_header()

    @app.before_request
    def pick_language() -> None:
        lang = request.args.get("lang")
        if lang in i18n.LANGS:
            session["lang"] = lang

    @app.context_processor
    def template_helpers() -> dict[str, object]:
        lang = language()
        return {"t": lambda key, **v: i18n.t(key, lang, **v), "lang": lang,
                "languages": i18n.LANGUAGES, "catalogue": i18n.catalogue(lang),
                "plural_tags": " ".join(i18n.plural_tags(lang)),
                "csrf": kiosk.security.csrf_token(),
                "page": request.endpoint.split(".")[-1].replace("new_game", "new")
                if request.endpoint else "error"}

    @app.after_request
    def security_headers(response):  # noqa: ANN001, ANN202
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'")
        return response

    from kiosk.web.api import blueprint as api_blueprint
    from kiosk.web.openapi import kiosk_description
    from kiosk.web.openapi.parts import serve as serve_openapi
    from kiosk.web.views import blueprint as pages_blueprint

    app.register_blueprint(pages_blueprint)
    app.register_blueprint(api_blueprint)
    serve_openapi(app, kiosk_description)  # GET /api/openapi.json
    error_handler.register(app)
    return app
