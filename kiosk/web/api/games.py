"""The games: the list (where each stands), resuming one, deleting one, importing a game record,
and the players seen in them (the new-game form's suggestions).

Every POST here passes the same check as every other change (`kiosk.web.app.guard_changes`: the
kiosk's own screen or a PIN session with its CSRF token, or a device token).
"""

from __future__ import annotations

import re
from typing import Any

from flask import request

from kiosk.errors import ApiError
from kiosk.table import checks, game_list, recent_players
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import services
from kiosk.web.idempotency import Answer, keyed
from scorer.limits import JSON_MAX_BYTES, Range, brief

LISTED = Range(1, 500)  # games one list answers (each is replayed)
LISTED_DEFAULT = 100
GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # the store's ids are 12 hex digits
RECORD_FIELD = "record"


@blueprint.get("/games")
def games() -> dict[str, Any]:
    raw = request.args.get("limit", str(LISTED_DEFAULT))
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3
            and LISTED.low <= int(raw) <= LISTED.high):
        raise ApiError(400, f"limit: expected a whole number {LISTED.low}-{LISTED.high}, got "
                       f"{brief(raw)}", code="field_number", words={
                           "field": "limit", "low": LISTED.low, "high": LISTED.high,
                           "got": brief(raw)})
    game = services().game
    return {**game_list.listing(game.log, game.game_id, int(raw)),
            "unreadable_game": game.unreadable_game}


@blueprint.get("/players/recent")
def players_recent() -> dict[str, Any]:
    """The players of the stored games, newest first, and the last game's line-up."""
    return recent_players.recent(services().game.log.games(), recent_players.placeholders())


@blueprint.delete("/games/<game_id>")
def delete_game(game_id: str) -> dict[str, Any]:
    """Delete a stored game (not the one the table plays). Sent again, it answers the same with
    `deleted` false: nothing is left to delete."""
    checks.known_fields(json_object(required=False), ())
    if not GAME_ID.fullmatch(game_id):
        raise ApiError(404, f"no game {brief(game_id)}", code="game_missing",
                       words={"id": brief(game_id)})
    game = services().game
    deleted = game.delete(game_id)
    return {"id": game_id, "deleted": deleted, "total": len(game.log.games())}


@blueprint.post("/games/<game_id>/resume")
@keyed()
def resume_game(answer: Answer, game_id: str) -> None:
    """The stored game becomes the table's current game (here and after a restart)."""
    body = json_object(required=False)
    checks.known_fields(body, ())
    if not GAME_ID.fullmatch(game_id):
        raise ApiError(404, f"no game {brief(game_id)}", code="game_missing",
                       words={"id": brief(game_id)})
    services().game.resume(game_id, answer)


def _record() -> bytes:
    """The uploaded record: the body, or the multipart field `record` and nothing else; at most
    `JSON_MAX_BYTES` (read no further), so an oversized file is refused before it is parsed."""
    if request.mimetype == "multipart/form-data":
        unknown = sorted((set(request.files) | set(request.form)) - {RECORD_FIELD})
        if unknown:
            fields = ", ".join(brief(u) for u in unknown)
            raise ApiError(400, f"unknown field(s): {fields}; send the game record as field "
                           f"'{RECORD_FIELD}'", code="unknown_fields", words={"fields": fields})
        uploads = request.files.getlist(RECORD_FIELD)
        if len(uploads) > 1:
            raise ApiError(400, f"{len(uploads)} files in '{RECORD_FIELD}': one record at a time",
                           code="import_many", words={"n": len(uploads)})
        data = uploads[0].stream.read(JSON_MAX_BYTES + 1) if uploads else b""
    else:
        data = request.get_data()
    if len(data) > JSON_MAX_BYTES:
        raise ApiError(413, f"the game record is too large (at most {JSON_MAX_BYTES // 1024:,} "
                       "KB)", code="import_too_large", words={"kb": f"{JSON_MAX_BYTES // 1024:,}"})
    if not data.strip():
        raise ApiError(400, "the game record is empty: send it as the body or as multipart "
                       f"field '{RECORD_FIELD}'", code="import_empty")
    return data


@blueprint.post("/import")
def import_record() -> tuple[dict[str, Any], int]:
    """A JSON game record (as exported) becomes a game of the list, all or nothing; the game
    played stays the table's. 201 a new game, 200 a record stored already (the same game)."""
    game = services().game
    game_id, new = game.import_record(_record())
    info = next(g for g in game.log.games() if g["id"] == game_id)
    return {"game": game_list.summary(game.log, info, game.game_id), "new": new,
            "state": game.state_json()}, 201 if new else 200
