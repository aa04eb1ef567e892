"""The JSON API under /api/ (documented in docs/api.md); the pages use nothing else."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from flask import Blueprint, request

from kiosk.errors import ApiError

if TYPE_CHECKING:
    from kiosk.services import Services

blueprint = Blueprint("api", __name__, url_prefix="/api")


def json_body(required: bool = True) -> Any:
    """The request's JSON; malformed JSON is a 400 naming where it breaks."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise ApiError(400, "expected a JSON body")
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, f"malformed JSON: {e}") from None


def json_object(required: bool = True) -> dict[str, Any]:
    body = json_body(required)
    if not isinstance(body, dict):
        raise ApiError(400, "expected a JSON object")
    return body


def services() -> Services:
    from kiosk.app import services as current

    return current()


from kiosk.api import capture, game, session, wins  # noqa: E402,F401  (register the routes)
