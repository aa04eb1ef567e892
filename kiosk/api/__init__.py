"""The JSON API under /api/ (documented in docs/api.md); the pages use nothing else."""

from __future__ import annotations

from flask import Blueprint

from kiosk.request_json import json_body, json_object

blueprint = Blueprint("api", __name__, url_prefix="/api")
__all__ = ["blueprint", "json_body", "json_object"]


from kiosk.api import capture, game, games, members, session, teach, wins  # noqa: E402,F401  (the routes)
