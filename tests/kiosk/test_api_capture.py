"""Camera, capture and upload endpoints, and keeping confirmed captures in the manifest format."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.kiosk.conftest import DEMO_FRAME, Api, make_kiosk, points

PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}


def png(width: int = 64, height: int = 48) -> bytes:
    ok, buf = cv2.imencode(".png", np.full((height, width, 3), 200, np.uint8))
    assert ok
    return buf.tobytes()


def test_camera_status_names_the_folder_camera(api: Api) -> None:
    out = api.get("/api/camera").get_json()
    assert out["camera"].startswith("folder:") and out["state"] in ("starting", "ok")
    assert out["recogniser"]["available"] is False  # not started in these tests


def test_capture_returns_the_photo_and_says_when_no_recogniser(api: Api) -> None:
    r = api.post("/api/captures")
    out = r.get_json()
    assert r.status_code == 201
    assert (out["width"], out["height"]) == (640, 480)  # the demo frame at full size
    assert not out["recognised"] and "tap the tiles in" in out["message"]
    image = api.get(out["image_url"])
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    decoded = cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (480, 640, 3)


def test_upload_a_photo(api: Api) -> None:
    r = api.post("/api/captures/upload", data={"photo": (DEMO_FRAME.open("rb"), "hand.jpg")},
                 content_type="multipart/form-data")
    assert r.status_code == 201 and r.get_json()["width"] == 640
    raw = api.post("/api/captures/upload", data=png(), headers={"Content-Type": "image/png"})
    assert raw.status_code == 201 and raw.get_json()["height"] == 48


@pytest.mark.parametrize("data, content_type, status, named", [
    (b"not an image at all", "image/jpeg", 415, "not an image"),
    (b"", "image/png", 400, "empty"),
    (b'{"photo": 1}', "application/json", 415, "multipart"),
], ids=["text-as-jpeg", "empty", "json"])
def test_bad_uploads_are_refused_naming_the_problem(api: Api, data: bytes, content_type: str,
                                                    status: int, named: str) -> None:
    r = api.post("/api/captures/upload", data=data, headers={"Content-Type": content_type})
    assert r.status_code == status and named in r.get_json()["error"]


def test_tiny_image_is_refused(api: Api) -> None:
    r = api.post("/api/captures/upload", data=png(8, 8), headers={"Content-Type": "image/png"})
    assert r.status_code == 415 and "too small" in r.get_json()["error"]


def test_oversized_upload_is_413(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, max_upload_mb=1)
    services.start(recogniser=False)
    try:
        api = Api(app.test_client())
        big = b"\xff" * (1024 * 1024 + 10)
        r = api.post("/api/captures/upload", data=big, headers={"Content-Type": "image/jpeg"})
        assert r.status_code == 413 and "at most 1 MB" in r.get_json()["error"]
    finally:
        services.stop()


def test_unknown_capture_is_404(api: Api) -> None:
    assert api.get("/api/captures/nope.jpg").status_code == 404
    r = api.post("/api/wins", {"winner": 1, "discarder": 0, "hand": PINFU,
                               "capture": {"id": "nope", "tiles": []}})
    assert r.status_code == 404 and points(api) == [25000] * 4


def test_a_confirmed_capture_is_kept_in_the_manifest_format(api: Api, app) -> None:  # noqa: ANN001
    capture = api.post("/api/captures").get_json()
    tiles = [{"label": "2m", "box": [40, 320, 102, 406]}, {"label": "8s", "box": [500, 320, 562,
                                                                                 406]}]
    r = api.post("/api/wins", {"winner": 1, "discarder": None, "hand": PINFU,
                               "capture": {"id": capture["id"], "tiles": tiles}})
    assert r.status_code == 201
    folder = Path(app.extensions["kiosk"].config.data_dir) / "captures"
    lines = (folder / "manifest.jsonl").read_text().splitlines()
    entry = json.loads(lines[0])
    assert entry["image"] == f"images/{capture['id']}.jpg"
    assert (entry["width"], entry["height"], entry["split"]) == (640, 480, "kiosk")
    assert entry["tiles"] == tiles and entry["complete"] is False
    assert entry["hand"] == "234m456p22345678s win 8s"
    assert (folder / entry["image"]).stat().st_size > 10_000
    assert api.get(capture["image_url"]).status_code == 404  # no longer pending


@pytest.mark.parametrize("tiles, named", [
    ([{"label": "2x", "box": [0, 0, 10, 10]}], "label"),
    ([{"label": "2m", "box": [0, 0, 10]}], "box"),
    ([{"label": "2m", "box": [0, 0, 5000, 10]}], "outside"),
], ids=["bad-label", "short-box", "box-outside"])
def test_bad_capture_tiles_are_400_and_nothing_applied(api: Api, tiles: list, named: str) -> None:
    capture = api.post("/api/captures").get_json()
    r = api.post("/api/wins", {"winner": 1, "discarder": None, "hand": PINFU,
                               "capture": {"id": capture["id"], "tiles": tiles}})
    assert r.status_code == 400 and named in r.get_json()["error"]
    assert points(api) == [25000] * 4


def test_saving_captures_can_be_turned_off(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, save_captures=False)
    services.start(recogniser=False)
    try:
        api = Api(app.test_client())
        capture = api.post("/api/captures").get_json()
        r = api.post("/api/wins", {"winner": 1, "discarder": None, "hand": PINFU,
                                   "capture": {"id": capture["id"], "tiles": []}})
        assert r.status_code == 201
        assert not (tmp_path / "data" / "captures").exists()
    finally:
        services.stop()


def test_tiles_and_mjpeg_stream(api: Api) -> None:
    assert len(api.get("/api/tiles").get_json()["tiles"]) == 38
    frame = api.get("/api/camera/frame.jpg")
    assert frame.status_code in (200, 503)


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and header chunk alone, declaring any size (a decompression bomb's
    first bytes: nothing after them is read)."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


@pytest.mark.parametrize("data", [png_header(50_000, 50_000), png(8_000, 7_000)],
                         ids=["declared-50000x50000", "real-8000x7000"])
def test_a_photo_of_too_many_pixels_is_refused_before_decoding(api: Api, data: bytes) -> None:
    r = api.post("/api/captures/upload", data=data, headers={"Content-Type": "image/png"})
    assert r.status_code == 413
    assert "megapixels" in r.get_json()["error"] and " x " in r.get_json()["error"]


@pytest.mark.parametrize("ext", [".jpg", ".png", ".bmp", ".webp"])
def test_the_declared_size_is_read_from_each_accepted_format(ext: str) -> None:
    from kiosk.photos.image_header import declared_size

    ok, buf = cv2.imencode(ext, np.zeros((37, 53, 3), np.uint8))
    assert ok and declared_size(buf.tobytes()) == (53, 37)


def test_pending_captures_hold_a_bounded_number_of_bytes(tmp_path: Path) -> None:
    from kiosk.photos import captures
    from kiosk.photos.camera import Still

    store = captures.CaptureStore(tmp_path)
    big = Still(np.zeros((3000, 4000, 3), np.uint8), b"")  # 36 MB of pixels each
    kept = [store.add(big, {}, "upload").id for _ in range(10)]
    assert store.pending_bytes() <= captures.PENDING_BYTES
    assert len(store._pending) == captures.PENDING_BYTES // big.image.nbytes == 7
    assert list(store._pending) == kept[-7:]  # the newest stay
