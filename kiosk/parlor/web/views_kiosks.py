"""What kiosks call with their table's bearer token: ``POST /api/tables/<name>/events`` and the
member picker's ``GET /api/tables/<name>/members?q=``."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, request

from kiosk.errors import ApiError
from kiosk.parlor.store import auth, ledger
from kiosk.parlor.store.registry import TableRow
from kiosk.parlor.web import batch
from kiosk.parlor.web.context import json_object, parlor

blueprint = Blueprint("kiosks", __name__, url_prefix="/api")
log = logging.getLogger(__name__)
SEARCH_LENGTH = 40  # characters of a search
SEARCH_RESULTS = 20  # members one search answers at most


def _table(name: str) -> TableRow:
    """The table whose bearer token came with the request, which must be table `name`."""
    token = auth.bearer(request.headers.get("Authorization", ""))
    if token is None:
        raise ApiError(401, "Authorization: send the table's token as 'Bearer <token>'")
    table = parlor().store.table_for_token(token)
    if table is None:
        raise ApiError(401, "unknown or revoked table token (ask the parlor's staff for a new "
                       "one: python -m kiosk.parlor add-table NAME --replace)")
    if table.name != name:
        raise ApiError(403, f"this token is table {table.name!r}'s, not {name[:40]!r}'s")
    return table


@blueprint.post("/tables/<name>/events")
def post_events(name: str) -> dict[str, Any]:
    """Store a batch of the table's events, in order; answer what the parlor holds of each game
    (``stored`` events, so ``last_index`` = stored - 1, and the ``revision``)."""
    table = _table(name)
    sent = batch.parse(json_object())
    services = parlor()
    receipts = ledger.store_batch(services.store.db, table.id, sent, services.options.quota)
    log.debug("table %s: %d events in %d games", table.name, sent.event_count, len(receipts))
    return {"table": table.name, "games": {r.game: r.to_json() for r in receipts}}


@blueprint.get("/tables/<name>/members")
def find_members(name: str) -> dict[str, Any]:
    """The kiosk's member picker: members whose name holds ``q`` (any case) or whose number is
    ``q``, at most ``limit`` (default 10, at most `SEARCH_RESULTS`), by number. Bounded so a
    table's token can look a member up but not page through the member list: ``q`` is needed,
    1-`SEARCH_LENGTH` characters, there is no offset, and a table has 10 look-ups at once,
    then one every 6 s (a game's four seats need a few; 40 listed every member). Numbers and
    names only."""
    table = _table(name)
    wait = parlor().look_ups.take(str(table.id))
    if wait:
        raise ApiError(429, f"too many member look-ups from this table; try again in {wait} s",
                       retry_after=wait)
    unknown = sorted(set(request.args) - {"q", "limit"})
    if unknown:
        raise ApiError(400, f"unknown parameter {unknown[0][:40]!r} (known: limit, q)",
                       field=unknown[0][:40])
    search = request.args.get("q", "").strip()
    # The store drops LIKE's wildcards from a search: one made of them alone would match all.
    if not 1 <= len(search) <= SEARCH_LENGTH or not search.strip("%_\\ "):
        raise ApiError(400, f"q: 1-{SEARCH_LENGTH} characters of a name or a member number",
                       field="q")
    raw = request.args.get("limit", "10")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2 and 1 <= int(raw) <= SEARCH_RESULTS):
        raise ApiError(400, f"limit: a whole number from 1 to {SEARCH_RESULTS}", field="limit")
    found = parlor().store.members(search, int(raw))
    return {"members": [{"number": m.number, "name": m.name} for m in found]}
