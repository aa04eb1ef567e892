"""One error type for the API and one handler that answers JSON to API clients, HTML to browsers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from scorer.hand import InvalidInput


class ApiError(Exception):
    """A request the kiosk refuses, with an HTTP status and the problems named."""

    def __init__(self, status: int, message: str, problems: Sequence[str] = (),
                 **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.problems = list(problems)
        self.extra = extra


def bad_request(message: str, problems: Sequence[str] = (), **extra: Any) -> ApiError:
    return ApiError(400, message, problems, **extra)


def unprocessable(message: str, problems: Sequence[str] = (), **extra: Any) -> ApiError:
    return ApiError(422, message, problems, **extra)


def from_invalid(e: InvalidInput, message: str = "the hand or situation is not valid") -> ApiError:
    return ApiError(422, message, [str(p) for p in e.problems])


def _wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json"


def _answer(status: int, message: str, problems: list[str], extra: dict[str, Any]):  # noqa: ANN202
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
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH") or 0
            message = f"the upload is too large (at most {limit // (1024 * 1024)} MB)"
        return _answer(status, message, [], {})

    @app.errorhandler(Exception)
    def unexpected(e: Exception):  # noqa: ANN202
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return _answer(500, f"internal error: {type(e).__name__}", [], {})
