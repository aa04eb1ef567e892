"""What kiosks call: ``POST /api/tables/<name>/events`` with the table's bearer token."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, request

from kiosk.errors import ApiError
from kiosk.parlor import auth, batch, ledger
from kiosk.parlor.app import json_object, parlor

blueprint = Blueprint("kiosks", __name__, url_prefix="/api")
log = logging.getLogger(__name__)


@blueprint.post("/tables/<name>/events")
def post_events(name: str) -> dict[str, Any]:
    """Store a batch of the table's events, in order; answer what the parlor holds of each game
    (``stored`` events, so ``last_index`` = stored - 1, and the ``revision``)."""
    token = auth.bearer(request.headers.get("Authorization", ""))
    if token is None:
        raise ApiError(401, "Authorization: send the table's token as 'Bearer <token>'")
    store = parlor().store
    table = store.table_for_token(token)
    if table is None:
        raise ApiError(401, "unknown or revoked table token (ask the parlor's staff for a new "
                       "one: python -m kiosk.parlor add-table NAME --replace)")
    if table.name != name:
        raise ApiError(403, f"this token is table {table.name!r}'s, not {name[:40]!r}'s")
    sent = batch.parse(json_object())
    receipts = ledger.store_batch(store.db, table.id, sent)
    log.debug("table %s: %d events in %d games", table.name, sent.event_count, len(receipts))
    return {"table": table.name, "games": {r.game: r.to_json() for r in receipts}}
