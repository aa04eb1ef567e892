"""The OpenAPI 3.1 description of the parlor's JSON API (docs/parlor.md), served at
`GET /api/openapi.json`: what kiosks call with their table's token, what staff and members call
with their session. Written as data beside the views, on the kiosk's building blocks
(`kiosk.web.openapi.parts`); tests/kiosk/test_openapi.py keeps it true."""

from __future__ import annotations

from typing import Any

from kiosk.parlor.store.auth import PASSWORD_MAX, PASSWORD_MIN
from kiosk.parlor.store.integrity import DIGEST_LENGTH
from kiosk.parlor.store.registry import MEMBER_NUMBER, MEMBERS_LISTED
from kiosk.parlor.store.settings import FEE, SEASON_NAME
from kiosk.parlor.web.batch import MAX_EVENTS, MAX_GAMES, MAX_REVISION
from kiosk.parlor.web.query import MAX_LIMIT, MAX_OFFSET
from kiosk.web.openapi.parts import (
    ANY_OBJECT,
    BOOL,
    INT,
    NULL_STR,
    PATH,
    STR,
    Schema,
    answer,
    arr,
    choice,
    document,
    in_path,
    obj,
    op,
    query,
    ref,
    text,
    whole,
)
from scorer.limits import GAME_EVENTS, NAME_LENGTH

DESCRIPTION = """The JSON API of a parlor of many tables (docs/parlor.md). Kiosks post their
events and look members up with `Authorization: Bearer <table token>`. Staff sign in with name
and password (`POST /api/login`), members with number and password (`POST /api/member/login`);
their cookie session (`parlor_session`) then works as the kiosk's PIN session does, and every
change needs the session's CSRF token in `X-CSRF-Token` (from `GET /api/session`), signed in or
not. Every refusal is a 4xx in one shape: `{error, status, field?}`, `field` naming the wrong
field or query parameter; an unknown query parameter is a 400 too."""

SECURITY_SCHEMES = {
    "tableToken": {"type": "http", "scheme": "bearer",
                   "description": "the table's token (python -m kiosk.parlor add-table NAME)"},
    "staffSession": {"type": "apiKey", "in": "cookie", "name": "parlor_session",
                     "description": "a staff or member sign-in (POST /api/login, "
                                    "/api/member/login)"},
    "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                  "description": "the session's CSRF token, from GET /api/session"},
}
TABLE = [{"tableToken": []}]
SIGNED_IN = [{"staffSession": []}]
CHANGE = [{"staffSession": [], "csrfToken": []}]
CSRF_ONLY = [{"csrfToken": []}]
NUMBER = text(1, 16, pattern=f"^{MEMBER_NUMBER.pattern}$")
DAY = text(10, 10, format="date")
PERIOD = [query("from", DAY, "first local day (left out: all time before)"),
          query("to", DAY, "last local day, included")]
PAGE = [query("limit", whole(0, MAX_LIMIT)), query("offset", whole(0, MAX_OFFSET))]
MEMBER_PARAM = in_path("number", NUMBER, example="00012")
PAGED = {"total": INT, "offset": INT, "limit": INT, "next": NULL_STR}  # query.page's fields

SCHEMAS: dict[str, Schema] = {
    "Member": obj({"number": STR, "name": STR, "created": STR}, ["number", "name"],
                  example={"number": "00012", "name": "Aki", "created": "2024-03-01T10:00:00Z"}),
    "Period": obj({"from": STR, "to": STR}, ["from", "to"]),
    "Stats": obj({"games": INT, "hands": INT, "average_place": {"type": ["number", "null"]},
                  "average_score": {"type": ["number", "null"]}, "chips": INT,
                  "money": {"type": ["integer", "null"]}}, ["games"]),
    "Session": obj({"staff": NULL_STR, "member": NULL_STR, "csrf": STR}, ["csrf"]),
    "Batch": obj({"games": arr(obj({
        "game": text(1, 40, pattern="^[0-9A-Za-z_-]+$"), "revision": whole(0, MAX_REVISION),
        "cut": {"oneOf": [whole(0, GAME_EVENTS), {"type": "null"}]},
        "events": arr(obj({"index": whole(0, GAME_EVENTS - 1), "event": ANY_OBJECT},
                          ["index", "event"], closed=True), maxItems=MAX_EVENTS)},
        ["game", "revision", "events"], closed=True), minItems=1, maxItems=MAX_GAMES)},
        ["games"], closed=True,
        example={"games": [{"game": "0f3a9c2e11b4", "revision": 0, "cut": None, "events": []}]}),
}


def staff(summary: str, tag: str, answers: dict[int | str, Any], **kw: Any) -> dict[str, Any]:
    """A staff call: a read signed in, a change signed in with the CSRF token."""
    return op(summary, tag, answers, security=kw.pop("security", SIGNED_IN), **kw)


def change(summary: str, tag: str, answers: dict[int | str, Any], **kw: Any) -> dict[str, Any]:
    return staff(summary, tag, answers, security=CHANGE, **kw)


def body(props: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return obj(props, required, closed=True)


def link(operation: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation, "parameters": parameters}


MEMBER_LINKS = {"GetMember": link("getMember", number="$response.body#/number"),
                "UpdateMember": link("updateMember", number="$response.body#/number"),
                "MemberStats": link("getMemberStats", number="$response.body#/number"),
                "MemberGames": link("getMemberGames", number="$response.body#/number"),
                "SetPassword": link("setPassword", number="$response.body#/number"),
                "DeleteMember": link("deleteMember", number="$response.body#/number")}
SIGN_IN = answer("signed in: the session's new CSRF token", obj({
    "staff": NULL_STR, "member": STR, "csrf": STR}, ["csrf"]))
PASSWORD = text(PASSWORD_MIN, PASSWORD_MAX)
RULES = obj({"rules": arr(obj({"digest": STR, "name": STR, "approved_by": NULL_STR,
                               "approved": NULL_STR, "games": INT}, ["digest", "games"])),
             **PAGED}, ["rules"])
DIGEST = in_path("digest", text(DIGEST_LENGTH, DIGEST_LENGTH, pattern="^[0-9a-f]+$"),
                 "the ruleset's SHA-256, from GET /api/rules")
ONE_DAY = [query("date", DAY, "a local day (default today)")]

PATHS: dict[str, Any] = {
    "/api/tables/{name}/events": {"post": op(
        "store a batch of the table's events, in order", "kiosks", {200: obj({
            "table": STR, "games": {"type": "object", "additionalProperties": obj({
                "stored": INT, "last_index": INT, "revision": INT})}}, ["table", "games"]),
            409: {"$ref": "#/components/responses/Refused"}},
        security=TABLE, params=[in_path("name", text(1, 40))], body=ref("Batch"))},
    "/api/tables/{name}/members": {"get": op(
        "the kiosk's member picker: members by part of a name or a whole number", "kiosks", {
            200: obj({"members": arr(obj({"number": STR, "name": STR}, ["number", "name"]),
                                     maxItems=20)}, ["members"])},
        security=TABLE, params=[in_path("name", text(1, 40)),
                                query("q", text(1, 40), required=True, example="Aki"),
                                query("limit", whole(1, 20))])},
    "/api/session": {"get": op("who is signed in, and the CSRF token every change carries",
                               "staff", {200: ref("Session")}, security=[])},
    "/api/login": {"post": op("staff sign in", "staff", {200: SIGN_IN}, security=CSRF_ONLY,
                              body=body({"name": text(1, 40), "password": text(0, PASSWORD_MAX)},
                                        ("name", "password")),
                              example={"name": "alice", "password": "correct horse battery"})},
    "/api/logout": {"post": op("sign out every copy of this session's cookie", "staff", {
        200: ref("Session")}, security=CSRF_ONLY)},
    "/api/member/login": {"post": op(
        "a member signs in", "members", {200: SIGN_IN}, security=CSRF_ONLY,
        body=body({"number": NUMBER, "password": text(0, PASSWORD_MAX)},
                  ("number", "password")), example={"number": "00012", "password": "a secret"})},
    "/api/tables": {"get": staff("every table live: its latest game", "staff", {
        200: obj({"tables": arr(ANY_OBJECT)}, ["tables"])})},
    "/api/members": {
        "get": staff("members by number", "members", {200: obj({
            "members": arr(ref("Member"))}, ["members"])}, params=[
                query("q", text(0, 40), "a part of a name or a whole number"),
                query("limit", whole(0, MEMBERS_LISTED)), query("offset", whole(0, MAX_OFFSET))]),
        "post": change("a new member (a number chosen when left out)", "members", {
            201: answer("the member", ref("Member")) | {"links": MEMBER_LINKS}},
            body=body({"name": text(1, NAME_LENGTH), "number": NUMBER}, ("name",)),
            example={"name": "Aki"}, operationId="addMember"),
    },
    "/api/members/{number}": {
        "get": staff("one member", "members", {200: ref("Member")}, params=[MEMBER_PARAM],
                     operationId="getMember"),
        "patch": change("rename a member", "members", {200: ref("Member")},
                        params=[MEMBER_PARAM], body=body({"name": text(1, NAME_LENGTH)},
                                                         ("name",)),
                        example={"name": "Aki Sato"}, operationId="updateMember"),
        "delete": change("remove a member", "members", {200: obj({"deleted": STR},
                                                                 ["deleted"])},
                         params=[MEMBER_PARAM], operationId="deleteMember"),
    },
    "/api/members/{number}/password": {"post": change(
        "set the password a member signs in with", "members", {
            200: obj({"number": STR, "can_sign_in": BOOL}, ["number", "can_sign_in"])},
        params=[MEMBER_PARAM], body=body({"password": PASSWORD}, ("password",)),
        example={"password": "a long secret"}, operationId="setPassword")},
    "/api/members/{number}/stats": {"get": staff(
        "one member's figures (staff, or that member)", "stats", {200: obj({
            "number": STR, "name": STR, "period": ref("Period"), "stats": ref("Stats")},
            ["number", "period", "stats"])}, params=[MEMBER_PARAM, *PERIOD],
        operationId="getMemberStats")},
    "/api/members/{number}/games": {"get": staff(
        "one member's finished games, newest first (staff, or that member)", "stats", {
            200: obj({"number": STR, "period": ref("Period"), "total": INT,
                      "games": arr(ANY_OBJECT)}, ["number", "total", "games"])},
        params=[MEMBER_PARAM, *PERIOD, *PAGE], operationId="getMemberGames")},
    "/api/me": {"get": staff("the signed-in member's figures", "stats", {200: obj({
        "number": STR, "period": ref("Period"), "stats": ref("Stats")}, ["number", "stats"])},
        params=PERIOD)},
    "/api/stats": {"get": staff("members with their figures", "stats", {200: obj({
        "period": ref("Period"), "members": arr(ANY_OBJECT)}, ["period", "members"])},
        params=[*PERIOD, query("q", text(0, 40)), *PAGE])},
    "/api/leaderboard": {"get": staff("a board: a month, a season or any period", "stats", {
        200: obj({"board": STR, "period": ref("Period"), "min_games": INT, "order": STR,
                  "rows": arr(ANY_OBJECT)}, ["board", "rows"])}, params=[
            query("month", text(7, 7, pattern="^[0-9]{4}-[0-9]{2}$"), example="2024-03"),
            query("season", text(1, 40)), *PERIOD, query("min_games", whole(0, 1000)),
            query("order", choice("score", "average_score", "average_place", "rating",
                                  "games"))])},
    "/api/games": {"get": staff("one day's games per table, running games too", "stats", {
        200: obj({"date": STR, "games": arr(ANY_OBJECT), **PAGED}, ["date", "games"])},
        params=[*ONE_DAY, *PAGE])},
    "/api/report.csv": {"get": staff("the daily report", "stats", {
        200: answer("the report", STR, media="text/csv")}, params=ONE_DAY)},
    "/api/settings": {
        "get": staff("the parlor's settings and seasons", "settings", {200: obj({
            "timezone": STR, "fee_per_game": STR, "min_games": INT,
            "seasons": arr(ANY_OBJECT)}, ["timezone", "fee_per_game", "min_games"])}),
        "patch": change("change settings, all checked first", "settings", {200: obj({
            "timezone": STR, "fee_per_game": STR, "min_games": INT})}, body=body({
                "timezone": text(0, 60), "fee_per_game": {"oneOf": [
                    text(1, 10, pattern=f"^{FEE.pattern}$"), {"type": "number", "minimum": 0}]},
                "min_games": whole(0, 1000)}), example={"fee_per_game": "4.50"}),
    },
    "/api/rules": {"get": staff("every ruleset seen; games count under approved ones", "settings",
                                {200: RULES}, params=PAGE)},
    "/api/rules/{digest}": {
        "put": change("approve a ruleset", "settings", {200: RULES}, params=[DIGEST]),
        "delete": change("withdraw a ruleset's approval", "settings", {200: RULES},
                         params=[DIGEST]),
    },
    "/api/held": {"get": staff("kiosks' cuts and rewrites of finished games, waiting for staff",
                               "kiosks", {200: obj({"held": arr(ANY_OBJECT), **PAGED},
                                                   ["held"])}, params=PAGE)},
    "/api/held/{table}/{game}": {"post": change(
        "accept (the game becomes what its kiosk sent) or refuse a held change", "kiosks", {
            200: obj({"table": STR, "game": STR, "accepted": BOOL,
                      "receipt": {"type": ["object", "null"]}}, ["table", "game", "accepted"])},
        params=[in_path("table", text(1, 40)), in_path("game", text(1, 40))],
        body=body({"accept": BOOL}, ("accept",)), example={"accept": True})},
    "/api/seasons": {"post": change("a named season", "settings", {201: answer(
        "the season", obj({"name": STR, "from": STR, "to": STR}, ["name", "from", "to"])) | {
        "links": {"RemoveSeason": link("removeSeason", name="$response.body#/name")}}},
        body=body({"name": text(1, 40, pattern=f"^{SEASON_NAME.pattern}$"), "from": DAY,
                   "to": DAY}, ("name", "from", "to")),
        example={"name": "Spring 2024", "from": "2024-03-01", "to": "2024-05-31"})},
    "/api/seasons/{name}": {"delete": change("remove a season", "settings", {
        200: obj({"deleted": STR}, ["deleted"])}, params=[in_path("name", text(1, 40))],
        operationId="removeSeason")},
    "/api/tables/{name}/games/{game}/seats/{seat}": {"put": change(
        "which member sat at a game's seat (null: a guest)", "stats", {200: obj({
            "table": STR, "game": STR, "seat": INT, "member": NULL_STR},
            ["table", "game", "seat", "member"])},
        params=[in_path("name", text(1, 40)), in_path("game", text(1, 40)),
                in_path("seat", whole(0, 3))],
        body=body({"member": {"oneOf": [NUMBER, {"type": "null"}]}}, ("member",)),
        example={"member": "00012"})},
    "/api/games/{table}/{game}/seats/{seat}/confirm": {"post": change(
        "staff confirm that the member the seat's #NUMBER names sat there (only confirmed seats "
        "count for a member)", "stats", {200: obj({
            "table": STR, "game": STR, "seat": INT, "member": STR, "confirmed": BOOL},
            ["table", "game", "seat", "member", "confirmed"])},
        params=[in_path("table", text(1, 40)), in_path("game", text(1, 40)),
                in_path("seat", whole(0, 3))], body=body({}), optional_body=True)},
    PATH: {"get": op("this description (OpenAPI 3.1)", "meta", {
        200: answer("the description", ANY_OBJECT)}, security=[])},
}


def parlor_description() -> dict[str, Any]:
    """The parlor's description as a dict (built anew each call)."""
    return document("Riichi table assistant: the parlor", DESCRIPTION, PATHS, schemas=SCHEMAS,
                    security_schemes=SECURITY_SCHEMES,
                    tags=("kiosks", "staff", "members", "stats", "settings", "meta"))
