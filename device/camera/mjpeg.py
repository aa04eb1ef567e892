"""The live view as an MJPEG stream (`multipart/x-mixed-replace`), which every browser shows in
a plain `<img>`, plus single JPEG snapshots.

The kiosk serves `mjpeg_stream(grabber)` as a streaming response with `MJPEG_MIMETYPE`. Frames
are downscaled to `max_width` and sent at most `fps` times a second; when there is no camera a
grey card saying why is sent once a second, so the page shows the state instead of a frozen
picture.
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


def no_picture(text: str, size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """A grey card with `text` on it (what the live view shows without a camera)."""
    card = np.full((size[1], size[0], 3), 64, np.uint8)
    words, lines, line = text.split(), [], ""
    for word in words:  # wrap to the card's width
        if line and cv2.getTextSize(f"{line} {word}", cv2.FONT_HERSHEY_SIMPLEX, 0.7, 2)[0][0] \
                > size[0] - 40:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    for i, line in enumerate(lines[:8]):
        cv2.putText(card, line, (20, 60 + 34 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    (230, 230, 230), 2, cv2.LINE_AA)
    return card


def mjpeg_stream(grabber: Grabber, *, fps: float = 8.0, quality: int = 70,
                 max_width: int | None = 960, stop: threading.Event | None = None,
                 max_frames: int | None = None) -> Iterator[bytes]:
    """Multipart chunks of the grabber's frames until `stop` is set or the client goes away.

    A waiting generator holds one server thread, so each wait is bounded (one second) and the
    caller's `stop` event is checked between frames.
    """
    period, seq, sent = 1.0 / fps, 0, 0
    while (stop is None or not stop.is_set()) and (max_frames is None or sent < max_frames):
        started = time.monotonic()
        status = grabber.status()
        if status.state is not CameraState.OK:
            why = status.message or status.state.value
            yield part(encode_jpeg(no_picture(f"{status.state.value}: {why}"), quality))
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
