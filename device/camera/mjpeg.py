"""The live view as an MJPEG stream (`multipart/x-mixed-replace`), which every browser shows in
a plain `<img>`, plus single JPEG snapshots.

The kiosk serves `mjpeg_stream(grabber)` as a streaming response with `MJPEG_MIMETYPE`. Frames
are downscaled to `max_width` and sent at most `fps` times a second; when there is no camera a
grey card with a crossed-out camera is sent once a second (the page says why), so the page shows
the state instead of a frozen picture.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import cv2
import numpy as np

from device.camera.grabber import CameraState, Grabber

BOUNDARY = "frame"
MJPEG_MIMETYPE = f"multipart/x-mixed-replace; boundary={BOUNDARY}"
NO_PICTURE_INTERVAL_S = 1.0


def encode_jpeg(image: np.ndarray, quality: int = 80, max_width: int | None = None) -> bytes:
    """JPEG bytes of a BGR image, shrunk to `max_width` (keeping its aspect) when wider."""
    if not 1 <= quality <= 100:
        raise ValueError(f"quality: {quality} is not 1-100")
    if max_width is not None and image.shape[1] > max_width:
        height = max(1, round(image.shape[0] * max_width / image.shape[1]))
        image = cv2.resize(image, (max_width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"cannot encode a {image.shape} image as JPEG")
    return data.tobytes()


def part(jpeg: bytes) -> bytes:
    """One part of the multipart stream."""
    head = (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(jpeg)}\r\n\r\n").encode("ascii")
    return head + jpeg + b"\r\n"


def no_picture(size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """A grey card with a crossed-out camera (what the live view shows without a camera). It
    has no words: the page beside it says why, in the page's language."""
    w, h = size
    card = np.full((h, w, 3), 64, np.uint8)
    ink, s = (200, 200, 200), min(w, h) / 360
    cx, cy = w // 2, h // 2
    body = ((int(cx - 90 * s), int(cy - 55 * s)), (int(cx + 90 * s), int(cy + 65 * s)))
    cv2.rectangle(card, *body, ink, max(2, int(6 * s)), cv2.LINE_AA)
    cv2.rectangle(card, (int(cx - 35 * s), int(cy - 80 * s)), (int(cx + 35 * s), int(cy - 55 * s)),
                  ink, -1, cv2.LINE_AA)
    cv2.circle(card, (cx, int(cy + 5 * s)), int(35 * s), ink, max(2, int(6 * s)), cv2.LINE_AA)
    cv2.line(card, (int(cx - 120 * s), int(cy + 100 * s)), (int(cx + 120 * s), int(cy - 100 * s)),
             (90, 90, 220), max(3, int(10 * s)), cv2.LINE_AA)
    return card


def mjpeg_stream(grabber: Grabber, *, fps: float = 8.0, quality: int = 70,
                 max_width: int | None = 960, stop: threading.Event | None = None,
                 max_frames: int | None = None) -> Iterator[bytes]:
    """Multipart chunks of the grabber's frames until `stop` is set or the client goes away.

    A waiting generator holds one server thread, so each wait is bounded (one second) and the
    caller's `stop` event is checked between frames.
    """
    period, seq, sent = 1.0 / fps, 0, 0
    card: bytes | None = None  # the no-camera part, drawn and encoded once (it never changes)
    while (stop is None or not stop.is_set()) and (max_frames is None or sent < max_frames):
        started = time.monotonic()
        status = grabber.status()
        if status.state is not CameraState.OK:
            if card is None:
                card = part(encode_jpeg(no_picture(), quality))
            yield card
            sent += 1
            _pause(stop, NO_PICTURE_INTERVAL_S)
            continue
        frame = grabber.wait_frame(seq, timeout=NO_PICTURE_INTERVAL_S)
        if frame is None:
            continue  # slow camera or just lost: look at the status again
        seq = frame.seq
        yield part(encode_jpeg(frame.image, quality, max_width))
        sent += 1
        _pause(stop, period - (time.monotonic() - started))


def _pause(stop: threading.Event | None, seconds: float) -> None:
    if seconds > 0:
        if stop is not None:
            stop.wait(seconds)
        else:
            time.sleep(seconds)
