"""Teach the recogniser a table's own tiles: photos of the set laid out in the kiosk's order, the
located tiles labelled by their place, confirmed (or corrected) by the player; and forget it."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, request, url_for

from kiosk.errors import ApiError
from kiosk.photos.camera import Still
from kiosk.photos.recognition import TeachingUnavailable
from kiosk.photos.teach_check import Evidence, TeachingWorse
from kiosk.photos.teaching import DEFAULT_ORDER, order_rows, parse_row_choice
from kiosk.table import checks
from kiosk.web.api import photos
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from scorer.limits import brief
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
    data = photos.sent()
    if data is not None:
        return photos.decoded(data, "photo: ")
    if request.content_length:
        raise photos.missing("photo: send it as multipart field 'photo' or an image/* body "
                             "(or nothing, for the camera's)")
    return photos.from_camera()


@blueprint.post("/teach/photo")
def teach_photo() -> tuple[dict[str, Any], int]:
    kiosk = services()
    rows = parse_row_choice(request.args.get("rows", request.form.get("rows")), len(ORDER))
    if not kiosk.recogniser.available:
        raise ApiError(503, f"nothing to teach: {kiosk.recogniser.error}",
                       code="teach_unavailable")
    still = _photo()
    expected = [ORDER[r] for r in rows]
    started = time.perf_counter()
    try:
        layout = kiosk.recogniser.lay_out(still.image, expected)
    except TeachingUnavailable as e:
        raise ApiError(503, f"nothing to teach: {e}", code="teach_unavailable") from None
    elapsed = (time.perf_counter() - started) * 1000
    shot = kiosk.teaching.shot(still, rows, layout)
    return {**shot.answer(ORDER, language()), "layout_ms": round(elapsed, 1),
            "image_url": url_for("api.teach_image", shot_id=shot.id)}, 201


@blueprint.get("/teach/photo/<shot_id>.jpg")
def teach_image(shot_id: str) -> Response:
    shot = services().teaching.get(shot_id)
    if shot is None:
        raise ApiError(404, f"no teaching photo {shot_id!r} (it may have expired; take it again)",
                       code="teach_photo_gone")
    return Response(shot.still.jpeg, mimetype="image/jpeg")


def _confirmed(body: dict[str, Any]) -> tuple[list[Any], bool]:
    """The shots the player confirmed, each (frame, boxes, labels), and `replace`."""
    checks.known_fields(body, {"shots", "replace"})
    replace = checks.flag(body.get("replace", False), "replace")
    shots = body.get("shots")
    if not isinstance(shots, list) or not shots:
        raise ApiError(400, "shots: expected a list of {id, labels?} of the photos to teach from",
                       code="teach_shots")
    teaching = services().teaching
    if len(shots) > teaching.keep:
        raise ApiError(400, f"shots: at most {teaching.keep} photos at once",
                       code="teach_shots_many", words={"most": teaching.keep})
    out = []
    seen = set()
    for i, spec in enumerate(shots):
        if not isinstance(spec, dict):
            raise ApiError(400, f"shots[{i}]: expected {{id, labels?}}", code="field_object",
                           words={"field": f"shots[{i}]"})
        checks.known_fields(spec, {"id", "labels"}, f"shots[{i}]")
        shot_id = spec.get("id")
        if not isinstance(shot_id, str):
            raise ApiError(400, f"shots[{i}].id: expected the id of a teaching photo",
                           code="teach_shot_id", words={"n": i + 1})
        if shot_id in seen:
            raise ApiError(400, f"shots[{i}].id: {shot_id!r} is given twice",
                           code="teach_shot_twice", words={"n": i + 1})
        seen.add(shot_id)
        shot = teaching.get(shot_id)
        if shot is None:
            raise ApiError(404, f"shots[{i}].id: no teaching photo {shot_id!r} (it may have "
                           "expired; take it again)", code="teach_shot_gone", words={"n": i + 1})
        labels = spec.get("labels", list(shot.layout.labels))
        tiles = len(shot.layout.tiles)
        if not isinstance(labels, list) or len(labels) != tiles:
            got = f"{len(labels)} labels" if isinstance(labels, list) else "not a list"
            raise ApiError(400, f"shots[{i}].labels: {got} for the photo's {tiles} tiles "
                           "(one label or null each, in the order answered)", code="teach_labels",
                           words={"n": i + 1, "tiles": tiles,
                                  "got": len(labels) if isinstance(labels, list) else 0})
        for k, label in enumerate(labels):
            if label is not None and label not in MODEL_CLASSES:
                raise ApiError(400, f"shots[{i}].labels[{k}]: {label!r} is not a tile label",
                               code="tile_label", words={"field": f"shots[{i}].labels[{k}]",
                                                         "got": brief(label)})
        # Confirmed only as laid out as asked: a row with a tile too many (a book read as a
        # tile) or too few would label the wrong crops and teach them
        problems = shot.problems(ORDER, language())
        if problems:
            said = "; ".join(problems)
            raise ApiError(422, f"shots[{i}]: the photo does not show the rows asked ({said}): "
                           "take another photo", code="teach_layout",
                           words={"n": i + 1, "problems": said})
        out.append((shot.still.image, shot.layout.boxes, labels))
    return out, replace


def _evidence(body: dict[str, Any], shots: list[Any]) -> list[Evidence]:
    """What a new teaching must not read worse: the teaching photos, row by row (numbered as
    the page numbers them), and the table's last confirmed wins."""
    teaching = services().teaching
    out = []
    for n, (spec, (frame, boxes, labels)) in enumerate(zip(body["shots"], shots, strict=True)):
        shot = teaching.get(spec["id"])
        rows = tuple(shot.rows[t.row] + 1 for t in shot.layout.tiles) if shot else None
        out.append(Evidence(frame, tuple(boxes), tuple(labels), "teach.worse_photo",
                            {"n": n + 1}, rows))
    return out + services().captures.last_confirmed()


@blueprint.post("/teach")
def teach() -> dict[str, Any]:
    kiosk = services()
    body = json_object()
    shots, replace = _confirmed(body)
    started = time.perf_counter()
    try:
        kiosk.recogniser.teach(shots, replace=replace, evidence=_evidence(body, shots))
    except TeachingUnavailable as e:
        raise ApiError(503, f"nothing to teach: {e}", code="teach_unavailable") from None
    except TeachingWorse as e:  # nothing kept: the table reads as before
        raise ApiError(422, f"not taught: {e}; check the labels, or take the photo again",
                       code="teach_worse", words={"why": e.worse.words(language())}) from None
    except ValueError as e:  # every label null
        raise ApiError(422, f"shots: {e}", code="teach_no_labels") from None
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
