"""Teaching the recogniser a table's tiles through the API, with the shipped models and the
committed frame of a laid-out set (tests/kiosk/frames/teach_set.jpg, made by
tests/kiosk/teach_frame.py): the photo labelled by place, confirmed, saved, read with from the
next capture, added to by confirmed wins, forgotten; bad input refused naming the field; a phone
without the PIN changes nothing."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask

from kiosk.photos.teaching import DEFAULT_ORDER, TeachingShots, order_rows
from kiosk.services import Services
from tests.kiosk.conftest import DEMO_FRAME, Api, lan_client, make_kiosk
from tests.kiosk.teach_frame import FRAMES, ORDER
from tests.kiosk.test_api_capture import png, png_header

pytestmark = pytest.mark.skipif(
    not (Path(__file__).parents[2] / "models" / "tile_classifier.onnx").exists(),
    reason="no shipped models in models/")
FRAME = FRAMES / "teach_set.jpg"
TRUTH = json.loads((FRAMES / "teach_set.json").read_text())
LABELS = [t["label"] for t in TRUTH["tiles"]]
TRUTH_ORDER = order_rows(DEFAULT_ORDER)
HAND = json.loads((DEMO_FRAME.parent / "expected.json").read_text())[DEMO_FRAME.name]


@pytest.fixture
def taught_kiosk(tmp_path: Path) -> Iterator[tuple[Flask, Services]]:
    """A kiosk with the recogniser running (no camera frame needed: photos are uploaded)."""
    app, services = make_kiosk(tmp_path)
    services.start()
    yield app, services
    services.stop()


@pytest.fixture
def tapi(taught_kiosk: tuple[Flask, Services]) -> Api:
    return Api(taught_kiosk[0].test_client())


def upload(api: Api, path: Path = FRAME, rows: str | None = None) -> Any:
    query = f"?rows={rows}" if rows is not None else ""
    return api.post("/api/teach/photo" + query, data={"photo": (path.open("rb"), path.name)},
                    content_type="multipart/form-data")


def delete(api: Api, path: str) -> Any:
    return api.client.delete(path, headers={"X-CSRF-Token": api.csrf})


def iou(a: list[float], b: list[float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    area = lambda r: (r[2] - r[0]) * (r[3] - r[1])  # noqa: E731
    return w * h / (area(a) + area(b) - w * h)


def read_upload(api: Api) -> dict[str, Any]:
    r = api.post("/api/captures/upload", data={"photo": (FRAME.open("rb"), FRAME.name)},
                 content_type="multipart/form-data")
    assert r.status_code == 201
    return r.get_json()


def man_row(capture: dict[str, Any]) -> list[tuple[str, float]]:
    """The capture's concealed tiles and winning tile (the reader takes the 1m-9m row for the
    hand; the other rows are problems), sorted by label."""
    hand = capture["hand"]
    tiles = hand["concealed"] + ([hand["win"]] if hand["win"] else [])
    return sorted((t["label"], t["confidence"]) for t in tiles)


def test_the_committed_frame_is_the_order_the_kiosk_asks_for() -> None:
    assert ORDER == DEFAULT_ORDER and LABELS == [lab for row in TRUTH_ORDER for lab in row]
    assert FRAME.stat().st_size < 200_000


def test_untaught_status_gives_the_order(tapi: Api) -> None:
    out = tapi.get("/api/teach").get_json()
    assert out["available"] is True and out["taught"] is False and out["summary"] is None
    assert out["problem"] == "" and out["order"] == DEFAULT_ORDER
    assert out["rows"] == [list(r) for r in TRUTH_ORDER] and out["pending"] == 0


def test_a_photo_of_the_set_is_labelled_by_place(tapi: Api) -> None:
    r = upload(tapi)
    out = r.get_json()
    assert r.status_code == 201 and out["ok"] is True and out["problems"] == []
    assert [t["label"] for t in out["tiles"]] == LABELS  # every tile, in the order's places
    assert [t["row"] for t in out["tiles"]] == [r for r, row in enumerate(TRUTH_ORDER)
                                                for _ in row]
    assert all(iou(t["box"], want["box"]) > 0.6
               for t, want in zip(out["tiles"], TRUTH["tiles"], strict=True))
    assert (out["width"], out["height"]) == tuple(TRUTH["size"]) and out["rows"] == [0, 1, 2, 3, 4]
    image = tapi.get(out["image_url"])
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    assert tapi.get("/api/teach").get_json()["pending"] == 1


def test_a_photo_of_some_rows_names_what_does_not_match(tapi: Api) -> None:
    out = upload(tapi, rows="0,1").get_json()  # the photo holds all 5 rows, 2 are asked for
    assert out["rows"] == [0, 1] and out["ok"] is False
    assert out["problems"] == ["38 tiles found, 18 expected",
                               "The tiles lie in 5 rows, 2 expected"]
    assert [t["label"] for t in out["tiles"]] == LABELS[:18] + [None] * 20
    tapi.post("/api/session/language", {"language": "ja"})
    ja = upload(tapi, rows="3").get_json()
    assert ja["problems"] == ["38枚見つかりました（7枚のはず）",
                              "牌が5列に並んでいます（1列のはず）"]


def test_confirming_teaches_saves_and_the_next_capture_reads_with_it(
        tapi: Api, taught_kiosk: tuple[Flask, Services], tmp_path: Path) -> None:
    before = read_upload(tapi)
    assert before["taught"] is False
    shot = upload(tapi).get_json()
    started = time.perf_counter()
    r = tapi.post("/api/teach", {"shots": [{"id": shot["id"]}]})
    took = time.perf_counter() - started
    out = r.get_json()
    assert r.status_code == 200 and took < 60 and out["seconds"] < 60
    print(f"taught 38 tiles from one photo in {took:.2f} s (API round trip)")
    assert out["taught"] is True and out["tiles"] == 38
    summary = out["summary"]
    assert summary["kinds"] == sorted(set(LABELS), key=LABELS.index) and summary["photos"] == 1
    assert summary["exemplars"] == 38 * 4  # each tile turned 0-3 quarters
    status = tapi.get("/api/teach").get_json()
    assert status["taught"] is True and status["summary"] == summary and status["pending"] == 0
    saved = tmp_path / "data" / "taught" / "taught_tiles.npz"
    assert saved.stat().st_size > 10_000
    assert tapi.get(shot["image_url"]).status_code == 404  # taught: no longer pending

    after = read_upload(tapi)  # the very next capture reads with the taught tiles
    assert after["taught"] is True
    assert [lab for lab, _ in man_row(after)] == [lab for lab, _ in man_row(before)] == [
        f"{n}m" for n in range(1, 10)]
    assert min(c for _, c in man_row(after)) > max(0.9, min(c for _, c in man_row(before)))

    # a kiosk started again on the same data dir reads with them from the start
    taught_kiosk[1].stop()
    app, services = make_kiosk(tmp_path)
    services.start(camera=False)
    try:
        again = Api(app.test_client())
        assert again.get("/api/teach").get_json()["summary"] == summary
        assert read_upload(again)["taught"] is True
    finally:
        services.stop()


def test_corrected_labels_teach_what_the_player_says_and_replace_or_add(tapi: Api) -> None:
    first = upload(tapi).get_json()
    labels: list[str | None] = [None] * 38
    labels[:9] = [f"{n}m" for n in range(1, 10)]
    labels[9] = "0p"  # the player says this one is a red five
    out = tapi.post("/api/teach", {"shots": [{"id": first["id"], "labels": labels}]}).get_json()
    assert out["tiles"] == 10 and out["summary"]["kinds"] == [*labels[:9], "0p"]
    second = upload(tapi).get_json()
    added = tapi.post("/api/teach", {"shots": [{"id": second["id"]}]}).get_json()["summary"]
    assert added["photos"] == 2 and added["exemplars"] == (10 + 38) * 4  # added to what was
    third = upload(tapi).get_json()
    replaced = tapi.post("/api/teach", {"shots": [{"id": third["id"]}], "replace": True})
    assert replaced.get_json()["summary"]["photos"] == 1
    assert replaced.get_json()["summary"]["exemplars"] == 38 * 4


def test_forget_returns_to_untaught_and_removes_the_file(tapi: Api, tmp_path: Path) -> None:
    shot = upload(tapi).get_json()
    assert tapi.post("/api/teach", {"shots": [{"id": shot["id"]}]}).status_code == 200
    upload(tapi)  # a pending photo goes too
    r = delete(tapi, "/api/teach")
    assert r.status_code == 200 and r.get_json() == {"taught": False, "forgot": True,
                                                     "summary": None}
    assert not (tmp_path / "data" / "taught" / "taught_tiles.npz").exists()
    status = tapi.get("/api/teach").get_json()
    assert status["taught"] is False and status["pending"] == 0
    assert read_upload(tapi)["taught"] is False
    assert delete(tapi, "/api/teach").get_json()["forgot"] is False  # nothing left to forget


def test_a_confirmed_win_photo_adds_to_the_taught_tiles(
        tapi: Api, taught_kiosk: tuple[Flask, Services]) -> None:
    def win_with_capture() -> None:
        capture = tapi.post("/api/captures/upload",
                            data={"photo": (DEMO_FRAME.open("rb"), DEMO_FRAME.name)},
                            content_type="multipart/form-data").get_json()
        hand = capture["hand"]
        tiles = [{"label": t["label"], "box": t["box"]}
                 for t in hand["concealed"] + [hand["win"]]]
        assert len(tiles) == 14
        r = tapi.post("/api/wins", {"winner": 1, "discarder": None, "hand": {
            "concealed": ",".join(HAND["concealed"]), "win": HAND["winning"]},
            "capture": {"id": capture["id"], "tiles": tiles}})
        assert r.status_code == 201, r.get_json()
        taught_kiosk[1].recogniser.wait_learning(30)

    win_with_capture()  # untaught: a win teaches nothing (the shipped reader stays)
    assert tapi.get("/api/teach").get_json()["taught"] is False
    shot = upload(tapi).get_json()
    tapi.post("/api/teach", {"shots": [{"id": shot["id"]}]})
    win_with_capture()
    summary = tapi.get("/api/teach").get_json()["summary"]
    assert summary["photos"] == 2 and summary["exemplars"] == (38 + 14) * 4


def test_the_camera_photo_is_laid_out_too(tmp_path: Path) -> None:
    frames = tmp_path / "set"
    frames.mkdir()
    (frames / FRAME.name).write_bytes(FRAME.read_bytes())
    app, services = make_kiosk(tmp_path, camera=f"folder:{frames}")
    services.start()
    try:
        r = Api(app.test_client()).post("/api/teach/photo")
        assert r.status_code == 201 and [t["label"] for t in r.get_json()["tiles"]] == LABELS
    finally:
        services.stop()


def test_a_saved_set_that_cannot_be_used_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "taught"
    folder.mkdir(parents=True)
    (folder / "taught_tiles.npz").write_bytes(b"not a taught set")
    app, services = make_kiosk(tmp_path)
    services.start(camera=False)
    try:
        api = Api(app.test_client())
        status = api.get("/api/teach").get_json()
        assert status["taught"] is False and "not a taught tiles file" in status["problem"]
        assert read_upload(api)["recognised"] is True  # untaught, but reading
        shot = upload(api).get_json()
        assert api.post("/api/teach", {"shots": [{"id": shot["id"]}]}).status_code == 200
        assert api.get("/api/teach").get_json()["problem"] == ""  # taught again: fixed
    finally:
        services.stop()


@pytest.mark.parametrize("data, content_type, status, named", [
    (b"not an image at all", "image/jpeg", 415, "photo: the upload is not an image"),
    (b"", "image/png", 400, "photo: the upload is empty"),
    (b'{"photo": 1}', "application/json", 415, "photo: send it as multipart"),
    (png_header(50_000, 50_000), "image/png", 413, "megapixels"),
    (png(8, 8), "image/png", 415, "too small"),
], ids=["text-as-jpeg", "empty", "json", "pixel-bomb", "tiny"])
def test_bad_photos_are_refused_naming_the_problem(tapi: Api, data: bytes, content_type: str,
                                                   status: int, named: str) -> None:
    r = tapi.post("/api/teach/photo", data=data, headers={"Content-Type": content_type})
    assert r.status_code == status and named in r.get_json()["error"]
    assert tapi.get("/api/teach").get_json()["pending"] == 0


@pytest.mark.parametrize("rows, named", [("5", "rows: '5'"), ("x", "rows: 'x'"),
                                         ("1,1", "rows: row 1 is given twice")])
def test_bad_row_choices_are_400(tapi: Api, rows: str, named: str) -> None:
    r = upload(tapi, rows=rows)
    assert r.status_code == 400 and named in r.get_json()["error"]


@pytest.mark.parametrize("body, status, named", [
    ({}, 400, "shots: expected a list"),
    ({"shots": []}, 400, "shots: expected a list"),
    ({"shots": [{"id": "nope"}]}, 404, "shots[0].id: no teaching photo 'nope'"),
    ({"shots": [{"id": 7}]}, 400, "shots[0].id: expected"),
    ({"shots": [{"id": "SHOT", "labels": ["1m"] * 37}]}, 400,
     "shots[0].labels: 37 labels for the photo's 38 tiles"),
    ({"shots": [{"id": "SHOT", "labels": "1m"}]}, 400, "shots[0].labels: not a list"),
    ({"shots": [{"id": "SHOT", "labels": ["1m"] * 3 + ["Xq"] + ["1m"] * 34}]}, 400,
     "shots[0].labels[3]: 'Xq' is not a tile label"),
    ({"shots": [{"id": "SHOT", "labels": [None] * 38}]}, 422, "no labelled tile"),
    ({"shots": [{"id": "SHOT"}, {"id": "SHOT"}]}, 400, "is given twice"),
    ({"shots": [{"id": "SHOT", "box": 1}]}, 400, "shots[0]: unknown field(s): box"),
    ({"shots": [{"id": "SHOT"}], "replace": "yes"}, 400, "replace: expected true or false"),
    ({"shots": [{"id": "SHOT"}], "mode": 1}, 400, "unknown field(s): mode"),
], ids=["no-shots", "empty-shots", "unknown-id", "id-not-text", "too-few-labels",
        "labels-not-list", "bad-label", "all-null", "twice", "shot-field", "replace", "field"])
def test_bad_confirmations_are_refused_naming_the_field(tapi: Api, body: dict, status: int,
                                                        named: str) -> None:
    shot = upload(tapi).get_json()
    body = json.loads(json.dumps(body).replace("SHOT", shot["id"]))
    r = tapi.post("/api/teach", body)
    assert r.status_code == status and named in r.get_json()["error"], r.get_json()
    status_now = tapi.get("/api/teach").get_json()
    assert status_now["taught"] is False and status_now["pending"] == 1  # nothing changed


def test_a_phone_without_the_pin_cannot_teach_or_forget(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    services.start(camera=False)
    try:
        screen = Api(app.test_client())  # the kiosk's own screen teaches
        shot = upload(screen).get_json()
        phone = lan_client(app)
        csrf = phone.get("/api/session").get_json()["csrf"]
        headers = {"X-CSRF-Token": csrf}
        photo = phone.post("/api/teach/photo", data={"photo": (FRAME.open("rb"), FRAME.name)},
                           content_type="multipart/form-data", headers=headers)
        confirm = phone.post("/api/teach", json={"shots": [{"id": shot["id"]}]}, headers=headers)
        assert photo.status_code == confirm.status_code == 401
        assert photo.get_json()["needs_pin"] is True
        assert screen.post("/api/teach", {"shots": [{"id": shot["id"]}]}).status_code == 200
        assert phone.delete("/api/teach", headers=headers).status_code == 401
        assert phone.delete("/api/teach").status_code == 401
        status = phone.get("/api/teach")  # reading is open
        assert status.status_code == 200 and status.get_json()["taught"] is True
    finally:
        services.stop()


def test_without_the_recogniser_nothing_can_be_taught(api: Api) -> None:
    status = api.get("/api/teach").get_json()
    assert status["available"] is False and status["taught"] is False
    r = upload(api)
    assert r.status_code == 503 and "nothing to teach" in r.get_json()["error"]


def test_readings_go_on_while_the_set_is_taught_and_forgotten(
        tapi: Api, taught_kiosk: tuple[Flask, Services]) -> None:
    import cv2

    recogniser = taught_kiosk[1].recogniser
    frame = cv2.imread(str(FRAME))
    shot = upload(tapi).get_json()
    failures: list[BaseException] = []
    done = threading.Event()

    def keep_reading() -> None:
        try:
            while not done.is_set():
                assert recogniser.read(frame)["recognised"] is True
        except BaseException as e:  # noqa: BLE001  (reported below)
            failures.append(e)

    readers = [threading.Thread(target=keep_reading) for _ in range(2)]
    for t in readers:
        t.start()
    boxes = [t["box"] for t in shot["tiles"]]
    try:
        for _ in range(3):
            recogniser.teach([(frame, boxes, LABELS)], replace=True)
            recogniser.forget()
    finally:
        done.set()
        for t in readers:
            t.join(30)
    assert failures == [] and recogniser.taught is None


def test_pending_teaching_photos_are_bounded() -> None:
    from kiosk.photos.camera import Still

    shots = TeachingShots(keep=3)
    ids = [shots.shot(Still(np.zeros((10, 10, 3), np.uint8), b""), (0,), None).id
           for _ in range(5)]
    assert len(shots) == 3 and shots.get(ids[0]) is None and shots.get(ids[-1]) is not None
    big = TeachingShots(max_bytes=2 * 36_000_000)
    for _ in range(4):
        big.shot(Still(np.zeros((3000, 4000, 3), np.uint8), b""), (0,), None)
    assert len(big) == 2  # 36 MB of pixels each


def test_each_kind_keeps_its_newest_exemplars() -> None:
    from kiosk.photos.recognition import newest_exemplars
    from vision.taught import TaughtSet

    labels = ["1m", "2m", "1m", "1m", "2m", "1m"]
    taught = TaughtSet.of(labels, np.eye(6, 8, dtype=np.float32), 3, "sha")
    kept = newest_exemplars(taught, 2)
    assert kept.labels == ("2m", "1m", "2m", "1m") and kept.photos == 3
    assert np.array_equal(kept.exemplars, taught.exemplars[[1, 3, 4, 5]])
    assert newest_exemplars(taught, 4) is taught
