"""What staff call: sign-in, every table live, members (create, read, update, delete)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from kiosk.errors import ApiError
from kiosk.parlor.store import held, integrity, ledger
from kiosk.parlor.store.registry import MEMBERS_LISTED, member_name, member_number
from kiosk.parlor.web import query, sessions
from kiosk.parlor.web.context import (
    json_object,
    known_fields,
    parlor,
    password_checked,
    signed_in_staff,
    staff_name,
)
from kiosk.web.security import Security

blueprint = Blueprint("staff", __name__, url_prefix="/api")
SEARCH_LENGTH = 40
MAX_OFFSET = 1_000_000


@blueprint.get("/session")
def get_session() -> dict[str, Any]:
    """Who is signed in (or null) and the CSRF token every change must carry."""
    return {"staff": signed_in_staff(), "csrf": Security.csrf_token()}


@blueprint.post("/login")
def login() -> dict[str, Any]:
    body = json_object()
    name, password = body.get("name"), body.get("password")
    store = parlor().store
    if not password_checked(f"staff:{str(name)[:40]}",
                            lambda: store.check_staff(name, password)):
        raise ApiError(403, "wrong name or password")
    return {"staff": name, "csrf": sessions.begin(store.db, staff=str(name))}


@blueprint.post("/logout")
def logout() -> dict[str, Any]:
    sessions.end(parlor().store.db)  # every copy of the cookie is signed out too
    return {"staff": None, "csrf": Security.csrf_token()}


@blueprint.get("/tables")
def tables() -> dict[str, Any]:
    """Every table live: its latest game's round, honba, sticks, points, dealer, time playing."""
    staff_name()
    services = parlor()
    return {"tables": services.live.tables_json(services.store.tables())}


def _int_arg(name: str, default: int, high: int) -> int:
    raw = request.args.get(name, str(default))
    if not raw.isdigit() or len(raw) > 9 or not 0 <= int(raw) <= high:
        raise ApiError(400, f"{name}: expected a whole number from 0 to {high:,}, got "
                       f"{raw[:20]!r}", field=name)
    return int(raw)


@blueprint.get("/members")
def members() -> dict[str, Any]:
    """Members by number; ``q`` finds a part of the name or a whole number."""
    staff_name()
    search = request.args.get("q", "").strip()
    if len(search) > SEARCH_LENGTH:
        raise ApiError(400, f"q: at most {SEARCH_LENGTH} characters", field="q")
    found = parlor().store.members(search, _int_arg("limit", 100, MEMBERS_LISTED) or 1,
                                   _int_arg("offset", 0, MAX_OFFSET))
    return {"members": [m.to_json() for m in found]}


@blueprint.post("/members")
def add_member() -> tuple[dict[str, Any], int]:
    staff_name()
    body = json_object()
    known_fields(body, {"name", "number"})
    name = member_name(body.get("name"))
    number = body.get("number")
    member = parlor().store.add_member(name, None if number is None else member_number(number))
    return member.to_json(), 201


@blueprint.get("/members/<number>")
def get_member(number: str) -> dict[str, Any]:
    staff_name()
    return parlor().store.member(member_number(number)).to_json()


@blueprint.patch("/members/<number>")
def update_member(number: str) -> dict[str, Any]:
    staff_name()
    body = json_object()
    known_fields(body, {"name"})
    return parlor().store.update_member(member_number(number),
                                        member_name(body.get("name"))).to_json()


@blueprint.delete("/members/<number>")
def delete_member(number: str) -> dict[str, Any]:
    staff_name()
    parlor().store.delete_member(member_number(number))
    return {"deleted": number}


def _rules_digest(digest: str) -> str:
    if len(digest) != integrity.DIGEST_LENGTH or digest.strip("0123456789abcdef"):
        raise ApiError(400, "a ruleset's digest: 64 hex digits (GET /api/rules)", field="digest")
    return digest


@blueprint.get("/rules")
def rules() -> dict[str, Any]:
    """Every ruleset the parlor has seen: only games under approved ones (the scorer's presets,
    or rules staff approved) count in the statistics and boards."""
    staff_name()
    return query.page(query.checked(request.args, {"limit", "offset"}), "/api/rules", "rules",
                      integrity.rules_seen(parlor().store.db))


@blueprint.put("/rules/<digest>")
def approve_rules(digest: str) -> dict[str, Any]:
    integrity.approve(parlor().store.db, _rules_digest(digest), staff_name())
    return rules()


@blueprint.delete("/rules/<digest>")
def withdraw_rules(digest: str) -> dict[str, Any]:
    staff_name()
    integrity.approve(parlor().store.db, _rules_digest(digest), None)
    return rules()


@blueprint.get("/held")
def held_changes() -> dict[str, Any]:
    """Kiosks' cuts and rewrites of finished games, waiting for staff (`store.held`)."""
    staff_name()
    return query.page(query.checked(request.args, {"limit", "offset"}), "/api/held", "held",
                      held.waiting(parlor().store.db))


@blueprint.post("/held/<table>/<game>")
def decide_held(table: str, game: str) -> dict[str, Any]:
    """``{"accept": true}``: the game becomes what its kiosk sent; ``false``: it stays."""
    staff_name()
    body = json_object()
    known_fields(body, {"accept"})
    if not isinstance(body.get("accept"), bool):
        raise ApiError(400, "accept: true (take the kiosk's change) or false (refuse it)",
                       field="accept")
    found = [t for t in parlor().store.tables() if t.name == table]
    if not found:
        raise ApiError(404, f"no table {table[:40]!r}", field="table")
    receipt = ledger.decide_held(parlor().store.db, found[0].id, game, body["accept"])
    return {"table": table, "game": game, "accepted": body["accept"],
            "receipt": receipt.to_json() if receipt else None}
