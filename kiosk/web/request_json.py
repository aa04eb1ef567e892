"""The JSON body of a request, parsed within bounds: shared by the kiosk's API and the parlor's."""

from __future__ import annotations

import re
from typing import Any

from flask import request

from kiosk.errors import ApiError
from scorer.limits import JSON_MAX_BYTES, JsonError, JsonTooDeep, JsonTooLarge, load_json

_WHERE = re.compile(r"line (\d+) column (\d+)")


def json_body(required: bool = True, max_bytes: int = JSON_MAX_BYTES) -> Any:
    """The request's JSON, bounded in size and nesting (`scorer.limits.load_json`) so no body
    can exhaust the parser; malformed JSON is a 400 naming where it breaks."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise ApiError(400, "expected a JSON body", code="no_body")
        return {}
    try:
        return load_json(raw, max_bytes=max_bytes)
    except JsonTooLarge:
        raise ApiError(413, f"request body too large (at most {max_bytes // 1024:,} KB "
                       "of JSON)", code="json_too_large",
                       words={"kb": f"{max_bytes // 1024:,}"}) from None
    except JsonTooDeep:
        raise ApiError(400, "request body nested too deeply", code="json_too_deep") from None
    except JsonError as e:
        # Where it breaks, for a page in another language (json's own words are English).
        at = _WHERE.search(str(e))
        raise ApiError(400, f"malformed JSON: {e}", code="bad_json" if at else "bad_json_any",
                       words={"line": int(at[1]), "column": int(at[2])} if at else {}) from None


def json_object(required: bool = True, max_bytes: int = JSON_MAX_BYTES) -> dict[str, Any]:
    """`json_body`, which must be an object; a 400 otherwise."""
    body = json_body(required, max_bytes)
    if not isinstance(body, dict):
        raise ApiError(400, "expected a JSON object", code="not_object")
    return body
