"""The JSON API under /api/ (documented in docs/api.md), one module per resource; the pages use
nothing else."""

from __future__ import annotations

from kiosk.web.api import (  # noqa: F401 (the routes)
    amend,
    capture,
    game,
    games,
    members,
    session,
    teach,
    wins,
)
from kiosk.web.api.common import blueprint, json_body, json_object

__all__ = ["blueprint", "json_body", "json_object"]
