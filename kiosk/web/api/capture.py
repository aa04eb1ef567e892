"""Camera, captures and uploads: a photo in, the recognised tiles out; and the tiles checked again
as the page edits them."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, url_for

from kiosk.errors import ApiError
from kiosk.photos import reading_check
from kiosk.photos.camera import Still
from kiosk.table import checks
from kiosk.web.api import photos
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from scorer.tiles import MODEL_CLASSES


@blueprint.get("/camera")
def camera_status() -> dict[str, Any]:
    kiosk = services()
    return {**kiosk.camera.status(), "recogniser": kiosk.recogniser.status()}


# GET /api/camera/stream, the live view, is served on the event loop (kiosk.serve.camera_stream).


@blueprint.get("/camera/frame.jpg")
def camera_frame() -> Response:
    jpeg = services().camera.frame_jpeg()
    if jpeg is None:
        raise ApiError(503, "no camera picture yet", code="camera_no_picture")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-cache"})


@blueprint.get("/tiles")
def tiles() -> dict[str, Any]:
    return {"tiles": list(MODEL_CLASSES)}


def _red_fives() -> tuple[int, int, int]:
    """The red fives the game's set holds per suit (issue 39): the decoder allows that many;
    one of each before any game is started."""
    try:
        return services().game.table.state.rules.red_fives.counts
    except ApiError:
        return (1, 1, 1)


def _recognise(still: Still, source: str) -> dict[str, Any]:
    kiosk = services()
    started = time.perf_counter()
    reading = kiosk.recogniser.read(still.image, language(), _red_fives())
    elapsed = (time.perf_counter() - started) * 1000
    capture = kiosk.captures.add(still, reading, source)
    return {"id": capture.id, "image_url": url_for("api.capture_image", capture_id=capture.id),
            "width": still.width, "height": still.height, "recognise_ms": round(elapsed, 1),
            **reading}


@blueprint.post("/captures")
def capture() -> tuple[dict[str, Any], int]:
    return _recognise(photos.from_camera(), "camera"), 201


@blueprint.post("/captures/upload")
def upload() -> tuple[dict[str, Any], int]:
    data = photos.sent()
    if data is None:
        raise photos.missing("send the photo as multipart field 'photo' or an image/* body")
    return _recognise(photos.decoded(data), "upload"), 201


@blueprint.post("/reading/check")
def check_reading() -> dict[str, Any]:
    """The page's tiles checked again after an edit (issue 38, item 2): the problems now, and
    where only the winning tile is not set apart, the hand's tiles to ask it by."""
    body = json_object()
    checks.known_fields(body, {"hand"})
    return reading_check.check(body.get("hand"), language(), _red_fives())


@blueprint.get("/captures/<capture_id>.jpg")
def capture_image(capture_id: str) -> Response:
    return Response(services().captures.get(capture_id).still.jpeg, mimetype="image/jpeg")
