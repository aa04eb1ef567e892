"""The kiosk's description, part one: the session, the PIN and device tokens, the game and its
changes, wins, the games list and records (docs/api.md)."""

from __future__ import annotations

from typing import Any

from kiosk.web.openapi.parts import (
    ANY_OBJECT,
    BOOL,
    INT,
    NULL_STR,
    STR,
    Schema,
    answer,
    arr,
    choice,
    in_path,
    obj,
    op,
    query,
    ref,
    text,
    whole,
)
from kiosk.words.i18n import LANGS
from scorer.hand import CalledFrom, MeldKind
from scorer.limits import GAME_EVENTS, NAME_LENGTH, POINTS, REASON_LENGTH

#: Who may change the table (docs/api.md): the kiosk's own screen (loopback, not describable
#: here) or a PIN session, each with the session's CSRF token; or a device token.
CHANGE = [{"pinSession": [], "csrfToken": []}, {"deviceToken": []}]
OPEN: list[dict[str, list[str]]] = []
KEY = {"$ref": "#/components/parameters/IdempotencyKey"}
SEAT = whole(0, 3, description="0-3 counter-clockwise from the first dealer (0-2 at three)")
SEATS = arr(SEAT, maxItems=4, uniqueItems=True)
TILES = text(0, 200, description="mpsz, compact (`234m06p`) or comma-separated labels")
STATE_EXAMPLE = {
    "game": {"id": "0f3a9c2e11b4", "ruleset": "tenhou", "players": ["A", "B", "C", "D"],
             "events": 1, "kita": False,
             "ruleset_name": {"en": "Tenhou", "ja": "天鳳", "zh-Hans": "天凤"},
             "offers": {"aborts": ["nine_terminals", "four_winds", "four_riichi", "four_kans",
                                   "triple_ron"], "chi": True, "riichi_from": 1000}},
    "seats": [{"seat": s, "name": "ABCD"[s], "points": 25000, "wind": s + 1,
               "dealer": s == 0, "riichi": False} for s in range(4)],
    "round_wind": 1, "hand": 1, "label": "East 1, 0 honba", "honba": 0, "riichi_sticks": 0,
    "dealer": 0, "finished": False, "end_reason": None, "can_undo": False, "can_redo": False,
    "last_event": {"summary": "game started (tenhou)", "deltas": [0, 0, 0, 0],
                   "text": {"en": "Game started (Tenhou)", "ja": "対局開始（天鳳）",
                            "zh-Hans": "对局开始（天凤）"}},
    "unreadable_game": None}


def change(summary: str, tag: str, answers: dict[int | str, Any], **kw: Any) -> dict[str, Any]:
    """A change: the PIN session with its CSRF token or a device token, and the
    Idempotency-Key header every change may carry."""
    return op(summary, tag, answers, security=CHANGE, params=[KEY, *kw.pop("params", ())], **kw)


def read(summary: str, tag: str, answers: dict[int | str, Any], **kw: Any) -> dict[str, Any]:
    return op(summary, tag, answers, security=OPEN, **kw)


def body(props: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return obj(props, required, closed=True)


SCHEMAS: dict[str, Schema] = {
    "State": obj({
        "game": {"type": ["object", "null"]}, "seats": arr(obj({
            "seat": SEAT, "name": STR, "points": INT, "wind": whole(1, 4), "dealer": BOOL,
            "riichi": BOOL}, ["seat", "name", "points"])),
        "round_wind": INT, "hand": INT, "label": STR, "honba": INT, "riichi_sticks": INT,
        "dealer": INT, "finished": BOOL, "end_reason": NULL_STR, "can_undo": BOOL,
        "can_redo": BOOL, "last_event": {"type": ["object", "null"]},
        "unreadable_game": {"type": ["object", "null"]},
    }, ["game", "seats", "finished"], example=STATE_EXAMPLE),
    "Hand": obj({
        "concealed": TILES, "win": text(0, 8), "dora": TILES, "ura": TILES, "discards": TILES,
        "kita": whole(0, 4), "melds": arr(obj({
            "kind": choice(*(k.value for k in MeldKind)), "tiles": TILES,
            "called": text(0, 8), "source": choice(*(c.value for c in CalledFrom))},
            ["kind", "tiles"]), maxItems=4),
    }, ["concealed", "win"], closed=True),
    "Win": obj({
        "winner": SEAT, "discarder": {"oneOf": [SEAT, {"type": "null"}]},
        "riichi": choice("none", "riichi", "double"), "ippatsu": BOOL, "last_tile": BOOL,
        "rinshan": BOOL, "chankan": BOOL, "chankan_of_ankan": BOOL,
        "blessing": choice(None, "tenhou", "chiihou", "renhou"),
        "pao": {"oneOf": [SEAT, {"type": "null"}]}, "hand": ref("Hand"),
        "quick": obj({"han": whole(1, 13), "fu": whole(20, 140), "yakuman": whole(1, 6),
                      "points": whole(1, 200_000)}, closed=True),
        "capture": ANY_OBJECT,
    }, ["winner"], closed=True, example={
        "winner": 1, "discarder": 0, "hand": {"concealed": "234m456p22s34567s", "win": "8s",
                                              "dora": "1s"}}),
    "Wins": {"oneOf": [ref("Win"), obj({"wins": arr(ref("Win"), minItems=1, maxItems=3)},
                                       ["wins"], closed=True)]},
    "Breakdown": obj({"is_win": BOOL, "han": INT, "fu": INT, "points": INT, "yaku": arr(
        ANY_OBJECT), "payments": arr(INT), "summary": STR, "outcome": STR, "verdict": STR},
        ["is_win"]),
    "Standings": obj({"finished": BOOL, "end_reason": NULL_STR, "standings": arr(obj({
        "seat": SEAT, "name": STR, "place": INT, "points": INT, "final": {"type": "number"}}))},
        ["finished", "standings"]),
    "Record": obj({"format": {"const": "riichi-game-record"}, "version": INT,
                   "events": arr(ANY_OBJECT, minItems=1)}, ["format", "version", "events"],
                  example={"format": "riichi-game-record", "version": 1, "events": [
                      {"type": "game_started", "players": ["A", "B", "C", "D"]}]}),
    "Game": obj({"id": STR, "created": STR, "players": arr(STR), "rules": STR, "events": INT,
                 "current": BOOL, "unreadable": NULL_STR, "finished": BOOL}, ["id"]),
}

IMPORTED = obj({"game": ref("Game"), "new": BOOL, "state": ref("State")},
               ["game", "new", "state"])

PATHS: dict[str, Any] = {
    "/api/session": {"get": read("the session: CSRF token, may it change the table", "session", {
        200: answer("the session", obj({
            "csrf": STR, "local": BOOL, "can_change": BOOL, "lan": BOOL, "language": STR,
            "pin": STR, "pin_alarm": {"type": ["object", "null"]}},
            ["csrf", "local", "can_change"]),
            example={"csrf": "k3c8…", "local": False, "can_change": False, "lan": True,
                     "language": "en"})})},
    "/api/session/pin": {"post": op(
        "enter the table's PIN: the session may change the table", "session",
        {200: obj({"ok": BOOL, "csrf": STR}, ["ok", "csrf"])}, security=OPEN, params=[KEY],
        body=body({"pin": text(0, 40)}, ("pin",)), example={"pin": "4821"})},
    "/api/session/logout": {"post": change("end the PIN session for every copy of its cookie",
                                           "session", {200: obj({"ok": BOOL}, ["ok"])})},
    "/api/session/language": {"post": change(
        "the session's language", "session", {200: obj({"language": STR}, ["language"])},
        body=body({"language": choice(*LANGS)}, ("language",)), example={"language": "zh-Hans"})},
    "/api/tokens": {
        "post": change("a device token (the kiosk's own screen only)", "session", {
            201: obj({"name": STR, "token": STR}, ["name", "token"])},
            body=body({"name": text(1, 60)}, ("name",)), example={"name": "scoreboard"}),
        "get": read("the device tokens (the kiosk's own screen only)", "session", {
            200: obj({"tokens": arr(obj({"id": STR, "name": STR, "created": STR,
                                         "expires": STR, "expired": BOOL}))}, ["tokens"])}),
    },
    "/api/tokens/{token_id}": {"delete": change(
        "revoke a device token (the kiosk's own screen only)", "session",
        {200: obj({"revoked": STR}, ["revoked"])}, params=[in_path("token_id")])},
    "/api/state": {"get": read("the table now", "game", {200: ref("State")})},
    "/api/rulesets": {"get": read("the presets and the new-game form's options", "game", {
        200: obj({"default": STR, "presets": ANY_OBJECT, "fields": arr(ANY_OBJECT),
                  "groups": arr(ANY_OBJECT)}, ["default", "presets", "fields"])})},
    "/api/games": {
        "post": change("a new game", "game", {201: ref("State")}, body=body({
            "players": arr(text(1, NAME_LENGTH), minItems=3, maxItems=4),
            "ruleset": text(1, 40), "options": ANY_OBJECT, "first_dealer": SEAT},
            ("players",)), example={"players": ["Aki", "Bun", "Chie", "Dai"],
                                    "ruleset": "tenhou"}),
        "get": read("the stored games, newest first", "games", {200: obj({
            "current": NULL_STR, "total": INT, "games": arr(ref("Game")),
            "unreadable_game": {"type": ["object", "null"]}}, ["current", "total", "games"])},
            params=[query("limit", whole(1, 500), "games listed (default 100)")]),
    },
    "/api/games/{game_id}": {"delete": change(
        "delete a stored game (not the one the table plays); sent again, `deleted` is false",
        "games", {200: obj({"id": STR, "deleted": BOOL, "total": INT},
                           ["id", "deleted", "total"])},
        params=[in_path("game_id", text(1, 64, pattern="^[0-9A-Za-z_-]+$"))],
        body=body({}), optional_body=True)},
    "/api/players/recent": {"get": read(
        "the players of the stored games, newest first, and the last game's line-up", "games",
        {200: obj({"players": arr(STR), "last": {"oneOf": [arr({"type": ["string", "null"]}),
                                                          {"type": "null"}]}},
                  ["players", "last"])})},
    "/api/games/{game_id}/resume": {"post": change(
        "that stored game becomes the table's game", "games", {200: ref("State")},
        params=[in_path("game_id", text(1, 64, pattern="^[0-9A-Za-z_-]+$"))],
        body=body({}), optional_body=True)},
    "/api/riichi": {"post": change("a seat declares riichi (1,000 to the table)", "game",
                                   {200: ref("State")}, body=body({"seat": SEAT}, ("seat",)),
                                   example={"seat": 2})},
    "/api/chombo": {"post": change("a chombo", "game", {200: ref("State")},
                                   body=body({"seat": SEAT}, ("seat",)), example={"seat": 0})},
    "/api/draws": {"post": change("an exhaustive draw", "game", {200: ref("State")}, body=body(
        {"tenpai": SEATS, "nagashi": SEATS}), example={"tenpai": [0, 2]})},
    "/api/aborts": {"post": change("an abortive draw", "game", {200: ref("State")}, body=body({
        "kind": choice("nine_terminals", "four_winds", "four_riichi", "four_kans",
                       "triple_ron")}, ("kind",)), example={"kind": "four_winds"})},
    "/api/corrections": {"post": change("points moved by hand", "game", {200: ref("State")},
                                        body=body({
        "deltas": arr(whole(POINTS.low, POINTS.high), minItems=3, maxItems=4),
        "reason": text(1, REASON_LENGTH)}, ("deltas", "reason")),
        example={"deltas": [1000, -1000, 0, 0], "reason": "miscounted honba"})},
    "/api/undo": {"post": change("drop the last event", "game", {200: ref("State")}, body=body({
        "game": STR, "events": whole(1, GAME_EVENTS)}), optional_body=True,
        example={"game": "0f3a9c2e11b4", "events": 3})},
    "/api/redo": {"post": change("put back the event undone last", "game", {200: ref("State")})},
    "/api/end": {"post": change("end the game", "game", {200: ref("Standings")}, body=body(
        {"reason": text(0, REASON_LENGTH)}), optional_body=True)},
    "/api/standings": {"get": read("the standings (provisional while playing)", "game",
                                   {200: ref("Standings")})},
    "/api/history": {"get": read("the game's events in the session's language", "game", {
        200: obj({"players": arr(STR), "entries": arr(ANY_OBJECT), "undone": INT,
                  "ruleset": ANY_OBJECT}, ["entries"])})},
    "/api/export.json": {"get": read("the JSON game record (docs/game-record.md)", "games", {
        200: answer("the record, as a download", ref("Record"))})},
    "/api/export.csv": {"get": read("one row per event, as a download", "games", {
        200: answer("the CSV", STR, media="text/csv")})},
    "/api/import": {"post": change(
        "a game record becomes a game of the list; the game played stays the table's", "games",
        {201: IMPORTED, 200: IMPORTED}, body=ref("Record"),
        description="The record as the body, or multipart field `record` and no other. 201 a "
        "new game; 200 a record stored already (that game, not stored twice).")},
    "/api/quick": {"get": read("what quick mode may offer under the table's rules", "wins", {
        200: obj({"ruleset": STR, "han": arr(INT), "limit_han": INT, "fu": ANY_OBJECT,
                  "limits": ANY_OBJECT}, ["han", "fu"])})},
    "/api/score": {"post": change("score a win; nothing changes", "wins", {200: ANY_OBJECT},
                                  body=ref("Wins"),
                              description="Answers a `Breakdown`, or `{breakdowns}` for "
                              "several wins.")},
    "/api/wins": {"post": change("apply a win (or a double or triple ron)", "wins", {
        201: obj({"state": ref("State"), "deltas": arr(INT), "breakdowns": arr(
            ref("Breakdown"))}, ["state", "deltas", "breakdowns"])}, body=ref("Wins"))},
    "/api/tenpai": {"post": change("is this hand tenpai, on what", "wins", {
        200: obj({"tenpai": BOOL, "waits": arr(STR)}, ["tenpai", "waits"])},
        body=body({"concealed": TILES, "melds": arr(ANY_OBJECT, maxItems=4)}, ("concealed",)),
        example={"concealed": "123m456p789s1122z"})},
    "/api/display": {"get": read("the serial display's state", "game", {
        200: obj({"configured": BOOL, "connected": BOOL}, ["configured"])})},
}
