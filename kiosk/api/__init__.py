"""The JSON API under /api/ (documented in docs/api.md); the pages use nothing else."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from kiosk.errors import ApiError
from scorer.limits import JSON_MAX_BYTES, JsonError, JsonTooDeep, JsonTooLarge, load_json

blueprint = Blueprint("api", __name__, url_prefix="/api")


def json_body(required: bool = True) -> Any:
    """The request's JSON, bounded in size and nesting (`scorer.limits.load_json`) so no body
    can exhaust the parser; malformed JSON is a 400 naming where it breaks."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise ApiError(400, "expected a JSON body")
        return {}
    try:
        return load_json(raw)
    except JsonTooLarge:
        raise ApiError(413, f"request body too large (at most {JSON_MAX_BYTES // 1024:,} KB "
                       "of JSON)") from None
    except JsonTooDeep:
        raise ApiError(400, "request body nested too deeply") from None
    except JsonError as e:
        raise ApiError(400, f"malformed JSON: {e}") from None


def json_object(required: bool = True) -> dict[str, Any]:
    body = json_body(required)
    if not isinstance(body, dict):
        raise ApiError(400, "expected a JSON object")
    return body


from kiosk.api import capture, game, games, session, teach, wins  # noqa: E402,F401  (the routes)
