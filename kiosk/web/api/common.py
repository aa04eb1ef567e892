"""What every resource module of the API shares: the blueprint they add their routes to, and the
request body parsed within bounds."""

from __future__ import annotations

from flask import Blueprint

from kiosk.web.request_json import json_body, json_object

blueprint = Blueprint("api", "kiosk.web.api", url_prefix="/api")
__all__ = ["blueprint", "json_body", "json_object"]
