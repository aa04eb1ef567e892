"""Teach the recogniser a table's own tiles: photos of the set laid out in the kiosk's order, the
located tiles labelled by their place, confirmed (or corrected) by the player; and forget it."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, request, url_for

from device.camera import CameraError
from kiosk.api import blueprint, json_object
from kiosk.camera import Still, decode_upload
from kiosk.context import language, services
from kiosk.errors import ApiError
from kiosk.image_header import ImageTooLarge
from kiosk.recognition import TeachingUnavailable
from kiosk.teaching import DEFAULT_ORDER, order_rows, parse_row_choice
from scorer.tiles import MODEL_CLASSES

ORDER = order_rows(DEFAULT_ORDER)


def _summary() -> dict[str, Any] | None:
    taught = services().recogniser.taught
    if taught is None:
        return None
    summary = taught.summary()
    summary.pop("classifier_sha256", None)
    return summary


@blueprint.get("/teach")
def teach_status() -> dict[str, Any]:
    kiosk = services()
    return {"available": kiosk.recogniser.available, "message": kiosk.recogniser.error,
            "taught": kiosk.recogniser.taught is not None, "summary": _summary(),
            "problem": kiosk.recogniser.taught_error, "order": DEFAULT_ORDER,
            "rows": [list(r) for r in ORDER], "pending": len(kiosk.teaching)}


def _photo() -> Still:
    """The uploaded photo (multipart field `photo` or an image/* body), else the camera's."""
    file = request.files.get("photo")
    if file is not None:
        data = file.read()
    elif request.mimetype.startswith("image/"):
        data = request.get_data()
    elif request.content_length:
        raise ApiError(415, "photo: send it as multipart field 'photo' or an image/* body "
                       "(or nothing, for the camera's)")
    else:
        try:
            return services().camera.capture()
        except CameraError as e:
            raise ApiError(503, f"no photo from the camera: {e}") from None
    try:
        return decode_upload(data)
    except ImageTooLarge as e:
        raise ApiError(413, f"photo: {e}") from None
    except ValueError as e:
        raise ApiError(415 if data else 400, f"photo: {e}") from None


@blueprint.post("/teach/photo")
def teach_photo() -> tuple[dict[str, Any], int]:
    kiosk = services()
    try:
        rows = parse_row_choice(request.args.get("rows", request.form.get("rows")), len(ORDER))
    except ValueError as e:
        raise ApiError(400, str(e)) from None
    if not kiosk.recogniser.available:
        raise ApiError(503, f"nothing to teach: {kiosk.recogniser.error}")
    still = _photo()
    expected = [ORDER[r] for r in rows]
    started = time.perf_counter()
    try:
        layout = kiosk.recogniser.lay_out(still.image, expected)
    except TeachingUnavailable as e:
        raise ApiError(503, f"nothing to teach: {e}") from None
    elapsed = (time.perf_counter() - started) * 1000
    shot = kiosk.teaching.shot(still, rows, layout)
    return {**shot.answer(expected, language()), "layout_ms": round(elapsed, 1),
            "image_url": url_for("api.teach_image", shot_id=shot.id)}, 201


@blueprint.get("/teach/photo/<shot_id>.jpg")
def teach_image(shot_id: str) -> Response:
    shot = services().teaching.get(shot_id)
    if shot is None:
        raise ApiError(404, f"no teaching photo {shot_id!r} (it may have expired; take it again)")
    return Response(shot.still.jpeg, mimetype="image/jpeg")


def _confirmed(body: dict[str, Any]) -> tuple[list[Any], bool]:
    """The shots the player confirmed, each (frame, boxes, labels), and `replace`."""
    unknown = sorted(set(body) - {"shots", "replace"})
    if unknown:
        raise ApiError(400, f"unknown field(s): {', '.join(unknown)}")
    replace = body.get("replace", False)
    if not isinstance(replace, bool):
        raise ApiError(400, "replace: expected true or false")
    shots = body.get("shots")
    if not isinstance(shots, list) or not shots:
        raise ApiError(400, "shots: expected a list of {id, labels?} of the photos to teach from")
    teaching = services().teaching
    if len(shots) > teaching.keep:
        raise ApiError(400, f"shots: at most {teaching.keep} photos at once")
    out = []
    seen = set()
    for i, spec in enumerate(shots):
        if not isinstance(spec, dict):
            raise ApiError(400, f"shots[{i}]: expected {{id, labels?}}")
        extra = sorted(set(spec) - {"id", "labels"})
        if extra:
            raise ApiError(400, f"shots[{i}]: unknown field(s): {', '.join(extra)}")
        shot_id = spec.get("id")
        if not isinstance(shot_id, str):
            raise ApiError(400, f"shots[{i}].id: expected the id of a teaching photo")
        if shot_id in seen:
            raise ApiError(400, f"shots[{i}].id: {shot_id!r} is given twice")
        seen.add(shot_id)
        shot = teaching.get(shot_id)
        if shot is None:
            raise ApiError(404, f"shots[{i}].id: no teaching photo {shot_id!r} (it may have "
                           "expired; take it again)")
        labels = spec.get("labels", list(shot.layout.labels))
        tiles = len(shot.layout.tiles)
        if not isinstance(labels, list) or len(labels) != tiles:
            got = f"{len(labels)} labels" if isinstance(labels, list) else "not a list"
            raise ApiError(400, f"shots[{i}].labels: {got} for the photo's {tiles} tiles "
                           "(one label or null each, in the order answered)")
        for k, label in enumerate(labels):
            if label is not None and label not in MODEL_CLASSES:
                raise ApiError(400, f"shots[{i}].labels[{k}]: {label!r} is not a tile label")
        out.append((shot.still.image, shot.layout.boxes, labels))
    return out, replace


@blueprint.post("/teach")
def teach() -> dict[str, Any]:
    kiosk = services()
    body = json_object()
    shots, replace = _confirmed(body)
    started = time.perf_counter()
    try:
        kiosk.recogniser.teach(shots, replace=replace)
    except TeachingUnavailable as e:
        raise ApiError(503, f"nothing to teach: {e}") from None
    except ValueError as e:  # every label null
        raise ApiError(422, f"shots: {e}") from None
    seconds = time.perf_counter() - started
    kiosk.teaching.discard([s["id"] for s in body["shots"]])
    return {"taught": True, "summary": _summary(), "seconds": round(seconds, 2),
            "tiles": sum(1 for _, _, labels in shots for lab in labels if lab is not None)}


@blueprint.delete("/teach")
def forget() -> dict[str, Any]:
    kiosk = services()
    forgot = kiosk.recogniser.forget()
    kiosk.teaching.clear()
    return {"taught": False, "forgot": forgot, "summary": None}
