"""Issue 35, item 1 (and item 4's BMP): no upload decodes to more than 50 megapixels whatever
its header says, the refusal is a 413 naming the size, the photos waiting for confirmation never
hold one larger than their cap, and a valid OS/2 BMP is read. Real app, real OpenCV."""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from kiosk.errors import ApiError
from kiosk.photos import image_header
from kiosk.photos.camera import Still
from kiosk.photos.image_header import MAX_PIXELS, declared_size
from kiosk.photos.teaching import TeachingShots
from kiosk.services import Services
from tests.kiosk.conftest import Api, make_kiosk

ROOT = Path(__file__).resolve().parents[2]
MODELS = (ROOT / "models" / "tile_classifier.onnx").exists()


def _segment(marker: int, payload: bytes) -> bytes:
    return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload


def _frame_header(width: int, height: int) -> bytes:
    return _segment(0xC0, struct.pack(">BHHB", 8, height, width, 3)
                    + b"\x01\x22\x00\x02\x11\x00\x03\x11\x00")


def jpeg_bomb(width: int, height: int) -> bytes:
    """Issue 35's JPEG: a stray FF 00 whose next two bytes a marker walker takes for a length
    that lands on a fake 64 x 64 frame header inside APP1; libjpeg skips FF 00 as stuffing,
    skips APP1 whole and reads the real `width` x `height` frame header, then a few bytes of
    scan data (it decodes the rest as grey)."""
    ok, buf = cv2.imencode(".jpg", np.full((16, 16, 3), 128, np.uint8))
    assert ok
    real, at, tables = buf.tobytes(), 2, b""
    while real[at + 1] != 0xDA:  # copy the real quantisation and Huffman tables
        end = at + 2 + struct.unpack(">H", real[at + 2:at + 4])[0]
        tables += real[at:end] if real[at + 1] in (0xDB, 0xC4) else b""
        at = end
    scan = real[at:at + 2 + struct.unpack(">H", real[at + 2:at + 4])[0] + 20]
    app1 = _segment(0xE1, b"Exif\0\0" + _frame_header(64, 64) + bytes(8))
    return b"\xff\xd8\xff\x00\x00\x0c" + app1 + tables + _frame_header(width, height) + scan


def os2_bmp(width: int, height: int) -> bytes:
    """A 24-bit BMP with OS/2's 12-byte BITMAPCOREHEADER (16-bit width and height)."""
    stride = (width * 3 + 3) & ~3
    rows = np.zeros((height, stride), np.uint8)
    rows[:, :width * 3] = 90
    core = struct.pack("<IHHHH", 12, width, height, 1, 24)
    return b"BM" + struct.pack("<IHHI", 26 + rows.size, 0, 0, 26) + core + rows.tobytes()


def test_the_bomb_hides_its_size_from_the_old_walker_but_not_from_libjpeg() -> None:
    bomb = jpeg_bomb(30_000, 30_000)
    assert len(bomb) < 700
    assert declared_size(bomb) == (30_000, 30_000)  # the walker now finds markers as libjpeg
    small = jpeg_bomb(100, 40)  # the same trick at a size that may decode: libjpeg's reading
    assert cv2.imdecode(np.frombuffer(small, np.uint8), cv2.IMREAD_COLOR).shape == (40, 100, 3)


def test_opencv_itself_refuses_more_than_50_megapixels_in_the_kiosk() -> None:
    assert image_header.decoder_bounded()
    with pytest.raises(cv2.error, match="CV_IO_MAX_IMAGE_PIXELS"):
        cv2.imdecode(np.frombuffer(jpeg_bomb(10_000, 5_001), np.uint8), cv2.IMREAD_COLOR)


@pytest.fixture
def kiosk_app(tmp_path: Path) -> Iterator[tuple[Flask, Services]]:
    app, services = make_kiosk(tmp_path)
    services.start(recogniser=MODELS)
    yield app, services
    services.stop()


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.parametrize("path", ["/api/captures/upload", "/api/teach/photo"])
def test_a_lying_jpeg_is_413_at_once_and_nothing_is_decoded_or_kept(
        kiosk_app: tuple[Flask, Services], path: str) -> None:
    if path == "/api/teach/photo" and not MODELS:
        pytest.skip("no shipped models in models/: the teach page refuses before decoding")
    app, services = kiosk_app
    api = Api(app.test_client())
    bomb = jpeg_bomb(10_000, 6_000)  # 60 MP: 180 MB of pixels had it been decoded
    peak, started = _peak_mb(), time.perf_counter()
    r = api.post(path, data=bomb, headers={"Content-Type": "image/jpeg"})
    elapsed = time.perf_counter() - started
    body = r.get_json()
    assert (r.status_code, body.get("code")) == (413, "photo_too_large"), body
    assert body["error"].endswith("the photo is 10,000 x 6,000 pixels; the kiosk takes photos "
                                  "of at most 50 megapixels")
    assert body["words"] == {"width": "10,000", "height": "6,000", "most": 50}
    assert elapsed < 1.0 and _peak_mb() - peak < 50
    assert services.captures.pending_bytes() == 0 and len(services.teaching) == 0


def test_a_photo_whose_header_seems_small_is_refused_without_a_size() -> None:
    # A decoder refusal with a header that reads under the limit: the size is not made up.
    assert str(image_header.too_large(jpeg_bomb(64, 64))) == (
        "the photo has more pixels than the kiosk takes photos of at most 50 megapixels")


def test_cv2_loaded_before_the_kiosk_decodes_nothing() -> None:
    script = ("import cv2, numpy as np\n"
              "from kiosk.photos.camera import decode_upload\n"
              "ok, png = cv2.imencode('.png', np.zeros((40, 40, 3), np.uint8))\n"
              "try:\n    decode_upload(png.tobytes())\n"
              "except Exception as e:\n    print(type(e).__name__, e)\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_IO_MAX_IMAGE_PIXELS"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env=env)
    assert out.stdout.strip() == (
        "DecoderUnbounded OpenCV was loaded before the kiosk set its pixel limit "
        "(OPENCV_IO_MAX_IMAGE_PIXELS); restart the kiosk")


def test_a_pending_store_never_keeps_an_item_over_its_cap() -> None:
    shots = TeachingShots(keep=4, max_bytes=100_000)
    kept = shots.shot(Still(np.zeros((100, 100, 3), np.uint8), b"x" * 100), (0,), None)
    with pytest.raises(ApiError) as refused:  # 120,000 bytes alone: over the cap
        shots.shot(Still(np.zeros((200, 200, 3), np.uint8), b""), (0,), None)
    assert refused.value.status == 413 and refused.value.extra["code"] == "photo_too_large_to_keep"
    assert list(shots) == [kept.id] and shots.nbytes() == 30_100
    newest = shots.shot(Still(np.zeros((160, 160, 3), np.uint8), b""), (0,), None)  # 76,800
    assert list(shots) == [newest.id] and shots.nbytes() == 76_800  # the older one made room


def test_every_photo_the_kiosk_accepts_fits_its_pending_stores() -> None:
    from kiosk.photos.captures import PENDING_BYTES
    from kiosk.photos.teaching import SHOT_BYTES

    # 50 MP of BGR and its JPEG (at most a byte a pixel at quality 90 for a real photo)
    assert MAX_PIXELS * 3 + MAX_PIXELS // 2 < min(PENDING_BYTES, SHOT_BYTES)


def test_an_os2_bmp_is_read_as_its_header_says(api: Api) -> None:
    bmp = os2_bmp(64, 48)
    assert declared_size(bmp) == (64, 48)
    r = api.post("/api/captures/upload", data=bmp, headers={"Content-Type": "image/bmp"})
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["width"], r.get_json()["height"]) == (64, 48)
