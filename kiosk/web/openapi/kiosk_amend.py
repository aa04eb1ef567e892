"""The kiosk's description, correcting a hand already played: the preview of what it changes
and the apply (docs/api.md, "Correcting a hand")."""

from __future__ import annotations

from typing import Any

from kiosk.web.openapi.kiosk_game import SEATS, body, change
from kiosk.web.openapi.parts import (
    ANY_OBJECT,
    BOOL,
    INT,
    NULL_STR,
    STR,
    Schema,
    arr,
    in_path,
    obj,
    ref,
    whole,
)
from scorer.limits import GAME_EVENTS

INDEX = in_path("index", whole(1, GAME_EVENTS - 1),
                "the event's index in the history (0 is the game's start)")
#: What the table really saw instead: a win as POST /api/wins takes it (or the rons on one
#: discard), scored as the table stood at that hand; or any event as the game record writes it.
CORRECTION: dict[str, Schema] = {
    "win": {"oneOf": [ref("Win"), arr(ref("Win"), minItems=1, maxItems=3)]},
    "event": obj({"type": STR, "tenpai": SEATS, "nagashi": SEATS}, ["type"]),
}
SIDE = obj({"round": STR, "round_text": STR, "text": STR, "deltas": arr(INT),
            "points": arr(INT), "honba": INT, "sticks": INT}, ["round", "deltas", "points"])
OLD_NEW_POINTS = obj({"old": arr(INT), "new": arr(INT)}, ["old", "new"])

SCHEMAS: dict[str, Schema] = {
    "Amendment": obj({
        "index": INT, "event": ANY_OBJECT,
        "changes": arr(obj({"index": INT, "type": STR, "changed": BOOL, "old": SIDE,
                            "new": SIDE}, ["index", "changed", "old", "new"])),
        "points": OLD_NEW_POINTS,
        "finished": obj({"old": BOOL, "new": BOOL}, ["old", "new"]),
        "end_reason": obj({"old": NULL_STR, "new": NULL_STR}),
        "dropped": arr(INT), "dropped_text": arr(STR),
        "refusal": {"oneOf": [{"type": "null"}, obj({
            "index": INT, "type": STR, "code": STR, "words": ANY_OBJECT, "error": STR,
            "text": STR}, ["code", "text"])]},
        "game": STR, "events": INT,
    }, ["index", "changes", "points", "dropped", "refusal"]),
}

EXAMPLE = {"win": {"winner": 0, "discarder": 2, "quick": {"han": 3, "fu": 30}}}

PATHS: dict[str, Any] = {
    "/api/history/{index}/preview": {"post": change(
        "what correcting that hand changes: each later event's payment and the final points, "
        "before and after; nothing is stored", "game", {200: ref("Amendment")},
        params=[INDEX], body=body(CORRECTION), example=EXAMPLE,
        description="Give `win` or `event`. Answers with `game` and `events`, which the apply "
                    "sends back.")},
    "/api/history/{index}": {"post": change(
        "correct that hand: the game replayed and re-paid from there", "game", {
            200: obj({"state": ref("State"), "amendment": ref("Amendment")},
                     ["state", "amendment"])},
        params=[INDEX], body=body({**CORRECTION, "game": STR, "events": whole(1, GAME_EVENTS),
                                   "drop_later": BOOL}, ("game", "events")),
        example={**EXAMPLE, "game": "0f3a9c2e11b4", "events": 6},
        description="409 `amend_changed` when the game changed since the preview; 409 "
                    "`amend_drops` when later events can no longer happen and `drop_later` "
                    "is not true.")},
}
