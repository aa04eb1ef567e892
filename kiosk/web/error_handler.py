"""The one error handler of the kiosk's app: a refusal (`kiosk.errors.ApiError`), the web server's
own refusals and any unexpected error, answered as JSON to API clients and as an HTML page to
browsers, in the session's language."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from kiosk.errors import ApiError
from kiosk.web.context import language
from kiosk.words import i18n, refusal_words

#: What the web server itself refuses, coded as the kiosk's own refusals; any other status is
#: ``http_error`` (kiosk/words/locale/).
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "upload_too_large"}


def _wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json"


def _in_language(message: str, problems: list[str],
                 extra: dict[str, Any]) -> tuple[str, list[str], dict[str, Any]]:
    """The message, problems and words in the session's language: a coded refusal worded from
    the catalogue where the session is not in English (the English problems then left out)."""
    code = extra.get("code")
    if not code:
        return message, problems, extra
    try:
        lang = language()
    except (RuntimeError, KeyError):  # outside a request, or before the app's services
        lang = "en"
    words = {k: refusal_words.word(v, lang) for k, v in extra.get("words", {}).items()}
    extra = {**extra, "words": words}
    if not i18n.has("err." + code):
        return message, problems, extra
    # Each problem said once: five tiles a three-player set lacks are one sentence, not five.
    said = refusal_words.said(extra.get("problem_codes", ()), lang)
    worded = i18n.t("err." + code, lang, **words)
    if lang == "en":
        # English keeps the API's own words for scripts (`error`, `problems`); `said` is the
        # refusal in a player's words, which the pages show (the generic code keeps the API's;
        # a record's import says what in the file is wrong as its {problem}).
        if code != "illegal_event":
            extra["said"] = {"error": worded,
                             "problems": said if extra.get("problem_codes") else problems}
        return message, problems, extra
    return worded, said, extra


def _answer(status: int, message: str, problems: list[str], extra: dict[str, Any]):  # noqa: ANN202
    message, problems, extra = _in_language(message, problems, extra)
    if _wants_json():
        body = {"error": message, "problems": problems, "status": status, **extra}
        return jsonify(body), status
    return render_template("error.html", status=status, message=message,
                           problems=problems), status


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(e: ApiError):  # noqa: ANN202
        return _answer(e.status, e.message, e.problems, e.extra)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):  # noqa: ANN202
        status = e.code or 500
        message = e.description or e.name
        coded: dict[str, Any] = {"code": _HTTP_CODES.get(status, "http_error"),
                                 "words": {"status": status}}
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH") or 0
            message = f"the upload is too large (at most {limit // (1024 * 1024)} MB)"
            coded["words"] = {"mb": limit // (1024 * 1024)}
        return _answer(status, message, [], coded)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):  # noqa: ANN202
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return _answer(500, f"internal error: {type(e).__name__}", [],
                       {"code": "internal", "words": {"name": type(e).__name__}})
