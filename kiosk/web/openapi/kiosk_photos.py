"""The kiosk's description, part two: the camera, captures, teaching tiles, the parlor's member
picker, the live streams the server itself serves, and the description itself (docs/api.md)."""

from __future__ import annotations

from typing import Any

from kiosk.web.openapi.kiosk_game import body, change, read
from kiosk.web.openapi.parts import (
    ANY_OBJECT,
    BINARY,
    BOOL,
    INT,
    NULL_STR,
    NUM,
    PATH,
    STR,
    Schema,
    answer,
    arr,
    in_path,
    obj,
    query,
    ref,
    text,
)
from scorer.tiles import MODEL_CLASSES

ID = text(1, 64)
JPEG = answer("the photo", BINARY, media="image/jpeg")
#: A photo: multipart field `photo`, or an image/* body (the OpenAPI media types of both).
PHOTO = {"multipart/form-data": {"schema": obj({"photo": BINARY}, ["photo"])},
         "image/jpeg": {"schema": BINARY}, "image/png": {"schema": BINARY}}
TILE = obj({"label": STR, "confidence": NUM, "low": BOOL, "box": arr(NUM, minItems=4,
                                                                     maxItems=4)}, ["label"])

#: A tile as the win page holds it (POST /api/reading/check).
SEEN = obj({"label": {"enum": list(MODEL_CLASSES)}, "confidence": {"type": "number", "minimum": 0,
                                                                  "maximum": 1},
            "box": arr(NUM, minItems=4, maxItems=4)}, ["label"], closed=True)

SCHEMAS: dict[str, Schema] = {
    "Capture": obj({
        "id": STR, "image_url": STR, "width": INT, "height": INT, "recognise_ms": NUM,
        "recognised": BOOL, "taught": BOOL, "message": NULL_STR, "problems": arr(STR),
        "hand": obj({"concealed": arr(TILE), "win": {"oneOf": [TILE, {"type": "null"}]},
                     "melds": arr(ANY_OBJECT), "dora": arr(TILE), "ura": arr(TILE),
                     "unplaced": arr(TILE)})}, ["id", "image_url", "width", "height"]),
    "TeachingPhoto": obj({
        "id": STR, "image_url": STR, "width": INT, "height": INT, "rows": arr(INT),
        "tiles": arr(obj({"box": arr(NUM), "row": INT, "label": NULL_STR})),
        "problems": arr(STR), "ok": BOOL, "layout_ms": NUM}, ["id", "image_url", "tiles"]),
    "Member": obj({"number": NULL_STR, "name": NULL_STR, "seat_name": NULL_STR},
                  ["number", "name"], example={"number": "00012", "name": "Aki",
                                               "seat_name": "Aki #00012"}),
}


def photo_upload(summary: str, tag: str, answers: dict[int | str, Any], *, required: bool = True,
                 **kw: Any) -> dict[str, Any]:
    out = change(summary, tag, answers, **kw)
    out["requestBody"] = {"required": required, "content": PHOTO}
    return out


PATHS: dict[str, Any] = {
    "/api/camera": {"get": read("the camera and the recogniser", "photos", {
        200: obj({"state": STR, "ok": BOOL, "camera": NULL_STR, "message": NULL_STR,
                  "viewers": INT, "recogniser": obj({"available": BOOL, "message": NULL_STR,
                                                     "kernels": STR})}, ["ok", "recogniser"])})},
    "/api/camera/stream": {"x-served-by": "kiosk.serve.camera_stream", "get": read(
        "the live view, MJPEG, for as long as the client stays", "photos", {
            200: answer("pictures", BINARY, media="multipart/x-mixed-replace")},
        description="Served by the server itself, not the Flask app: at most 2 open from one "
                    "address besides the kiosk's own screen, 16 from all (429 past that).")},
    "/api/events": {"x-served-by": "kiosk.serve.server", "get": read(
        "live updates: `event: state` with a State now and after every change", "game", {
            200: answer("a server-sent event stream", STR, media="text/event-stream")},
        description="Served by the server itself, not the Flask app (heartbeat every 15 s; at "
                    "most 6 open from one address besides the kiosk's own screen).")},
    "/api/camera/frame.jpg": {"get": read("the latest frame (503 before the first)", "photos", {
        200: JPEG, 503: {"$ref": "#/components/responses/Refused"}})},
    "/api/captures": {"post": change(
        "a full-resolution still, recognised", "photos", {
            201: ref("Capture"), 503: {"$ref": "#/components/responses/Refused"}})},
    "/api/captures/upload": {"post": photo_upload("a photo sent, recognised", "photos", {
        201: ref("Capture")})},
    "/api/captures/{capture_id}.jpg": {"get": read("a captured photo while it is pending",
                                                   "photos", {200: JPEG},
                                                   params=[in_path("capture_id", ID)])},
    "/api/reading/check": {"post": change(
        "the win page's tiles checked again after an edit", "photos", {200: obj({
            "problems": arr(STR), "set_aside": STR, "win_choices": arr(INT),
            "completing": INT}, ["problems", "set_aside", "win_choices", "completing"])},
        body=body({"hand": obj({
            "concealed": arr(SEEN, maxItems=64), "win": {"oneOf": [SEEN, {"type": "null"}]},
            "melds": arr(obj({"kind": {"enum": ["chi", "pon", "minkan", "ankan", "kakan"]},
                              "tiles": arr(SEEN, maxItems=4)}, ["kind"], closed=True),
                         maxItems=4),
            "dora": arr(SEEN, maxItems=64), "unplaced": arr(SEEN, maxItems=64)}, closed=True)},
            ("hand",)),
        example={"hand": {"concealed": [{"label": "1m"}], "win": None}})},
    "/api/tiles": {"get": read("the 38 tile labels", "photos", {
        200: obj({"tiles": arr(STR, minItems=38, maxItems=38)}, ["tiles"])})},
    "/api/teach": {
        "get": read("what the recogniser was taught", "teach", {200: obj({
            "available": BOOL, "message": NULL_STR, "taught": BOOL,
            "summary": {"type": ["object", "null"]}, "problem": NULL_STR, "order": STR,
            "rows": arr(arr(STR)), "pending": INT}, ["available", "taught"])}),
        "post": change("teach from the photos named", "teach", {200: obj({
            "taught": BOOL, "summary": ANY_OBJECT, "seconds": NUM, "tiles": INT},
            ["taught"])}, body=body({
                "shots": arr(obj({"id": ID, "labels": arr({"type": ["string", "null"]})},
                                 ["id"], closed=True), minItems=1, maxItems=8),
                "replace": BOOL}, ("shots",)), example={"shots": [{"id": "a1b2c3"}]}),
        "delete": change("forget what was taught", "teach", {200: obj({
            "taught": BOOL, "forgot": BOOL, "summary": {"type": "null"}}, ["taught", "forgot"])}),
    },
    "/api/teach/photo": {"post": photo_upload(
        "a photo of the set laid out in the kiosk's order (none sent: the camera's)", "teach", {
            201: ref("TeachingPhoto"), 503: {"$ref": "#/components/responses/Refused"}},
        required=False,
        params=[query("rows", text(1, 20, pattern="^[0-4](,[0-4])*$"),
                      "the order's rows the photo holds (default all)", example="0,1")])},
    "/api/teach/photo/{shot_id}.jpg": {"get": read("a teaching photo while it is pending",
                                                   "teach", {200: JPEG},
                                                   params=[in_path("shot_id", ID)])},
    "/api/members/search": {"post": change(
        "the parlor's members by name or number (404: no parlor configured)", "parlor", {
            200: obj({"members": arr(ref("Member"))}, ["members"]),
            503: {"$ref": "#/components/responses/Refused"}},
        body=body({"q": text(1, 40)}, ("q",)), example={"q": "Aki"})},
    "/api/members/scan": {"post": change(
        "the member whose card the camera sees", "parlor", {
            200: obj({"member": ref("Member"), "offline": BOOL}, ["member", "offline"]),
            503: {"$ref": "#/components/responses/Refused"}},
        body=body({}), optional_body=True)},
    PATH: {"get": read("this description (OpenAPI 3.1)", "meta", {
        200: answer("the description", ANY_OBJECT)})},
}
