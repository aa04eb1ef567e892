"""The OpenAPI 3.1 description of the kiosk's JSON API, served at `GET /api/openapi.json` and
written as data beside the views: `kiosk_game`, `kiosk_amend` and `kiosk_photos` the paths,
`parts` the building blocks the parlor's description (`kiosk.parlor.web.openapi`) shares."""

from __future__ import annotations

from typing import Any

from kiosk.web.idempotency import HEADER, KEY
from kiosk.web.openapi import kiosk_amend, kiosk_game, kiosk_photos
from kiosk.web.openapi.parts import document, param, text

DESCRIPTION = """The JSON API of the Riichi table assistant's kiosk (docs/api.md). Reads (GET)
are open. Every POST and DELETE under /api/ needs one of: a client on the loopback interface
(the kiosk's own screen) or a cookie session that entered the PIN (`POST /api/session/pin`),
each with the session's CSRF token in `X-CSRF-Token` (from `GET /api/session`); or
`Authorization: Bearer TOKEN` with a device token (`POST /api/tokens`). Every refusal is a 4xx
(or a documented 503 or 507) in one shape: `{error, problems, status, code?, words?}`."""

SECURITY_SCHEMES = {
    "pinSession": {"type": "apiKey", "in": "cookie", "name": "session",
                   "description": "a session that entered the PIN (or the kiosk's own screen)"},
    "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                  "description": "the session's CSRF token, from GET /api/session"},
    "deviceToken": {"type": "http", "scheme": "bearer",
                    "description": "a device token from POST /api/tokens (no CSRF needed)"},
}

IDEMPOTENCY_KEY = param(
    HEADER, "header", text(16, 64, pattern=f"^{KEY.pattern}$"),
    "One key per action, sent again with the same action: a change of the game already "
    "recorded with this key answers its first answer again (`Idempotent-Replayed: true`).",
    required=False, example="0123456789abcdef0123456789abcdef")


def kiosk_description() -> dict[str, Any]:
    """The kiosk's description as a dict (built anew each call)."""
    return document(
        "Riichi table assistant: the kiosk", DESCRIPTION,
        {**kiosk_game.PATHS, **kiosk_amend.PATHS, **kiosk_photos.PATHS},
        schemas={**kiosk_game.SCHEMAS, **kiosk_amend.SCHEMAS, **kiosk_photos.SCHEMAS},
        security_schemes=SECURITY_SCHEMES, parameters={"IdempotencyKey": IDEMPOTENCY_KEY},
        tags=("session", "game", "wins", "games", "photos", "teach", "parlor", "meta"))
