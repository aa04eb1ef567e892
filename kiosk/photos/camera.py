"""The kiosk's camera: `device.camera`'s source and background grabber, started and stopped here.

Nothing opens a camera before `start()` (called by `kiosk.__main__` or a test). Web requests only
read the grabber's latest frame or ask it for a still with a bounded wait.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.camera import CameraError, Grabber, camera_from_spec, encode_jpeg
from kiosk.photos import image_header

ROOT = Path(__file__).resolve().parents[2]
#: The demo camera's frames: hands rendered by the vision package that its shipped models read.
DEMO_FRAMES = ROOT / "vision" / "demo_frames"


@dataclass(frozen=True, slots=True)
class Still:
    """A captured or uploaded photo: decoded pixels and the JPEG bytes to show and keep."""

    image: np.ndarray
    jpeg: bytes

    @property
    def width(self) -> int:
        return int(self.image.shape[1])

    @property
    def height(self) -> int:
        return int(self.image.shape[0])


def demo_folder() -> Path:
    """The folder the demo camera shows (and `auto` falls back to when no camera is found)."""
    return DEMO_FRAMES


class CameraService:
    def __init__(self, spec: str, fps: float = 10.0):
        self.spec = spec
        self.fps = fps
        self.grabber: Grabber | None = None
        self.error = ""
        self.viewers = 0  # open live views (kiosk.serve.camera_stream counts them)

    def start(self) -> None:
        try:
            source = camera_from_spec(self.spec, demo_folder=demo_folder())
        except (CameraError, ValueError) as e:
            self.error = str(e)
            source = None
        self.grabber = Grabber(source, fps=self.fps).start()

    def stop(self) -> None:
        if self.grabber is not None:
            self.grabber.stop()

    def status(self) -> dict[str, Any]:
        if self.grabber is None:
            return {"state": "stopped", "ok": False, "camera": None,
                    "message": self.error or "camera not started", "viewers": self.viewers}
        out = self.grabber.status().as_dict()
        if self.error and not out["message"]:
            out["message"] = self.error
        out["demo"] = bool(out["camera"]) and str(demo_folder()) in str(out["camera"])
        out["viewers"] = self.viewers
        return out

    def capture(self) -> Still:
        """A full-resolution still; `CameraError` naming why when there is none."""
        if self.grabber is None:
            raise CameraError("the camera is not started")
        if self.grabber.latest() is None:
            self.grabber.wait_frame(0, timeout=3.0)  # just started: give it a moment
        image = self.grabber.capture()
        return Still(image, encode_jpeg(image, 90))

    def frame_jpeg(self) -> bytes | None:
        frame = self.grabber.latest() if self.grabber is not None else None
        return encode_jpeg(frame.image, 80, 960) if frame is not None else None


class ImageTooSmall(ValueError):
    """A photo too small to read tiles from; its size, for the refusal's words."""

    def __init__(self, width: int, height: int):
        super().__init__(f"the image is too small ({width}x{height} pixels)")
        self.width, self.height = width, height


class DecoderUnbounded(RuntimeError):
    """cv2 was loaded without the kiosk's pixel bound: no upload is decoded (see kiosk/__init__)."""


def decode_upload(data: bytes) -> Still:
    """Decode an uploaded photo, raising ValueError naming the problem (`ImageTooSmall`,
    `kiosk.photos.image_header.ImageTooLarge` and `ImageHeaderError` by their types).

    OpenCV itself refuses more than MAX_PIXELS right after reading the header it decodes by,
    so no header that lies to another reader can make it allocate more (issue 35)."""
    if not data:
        raise ValueError("the upload is empty")
    image_header.check_format(data)
    image_header.check_pixels(data)  # quick, in words; OpenCV's bound below is the guarantee
    if not image_header.decoder_bounded():
        raise DecoderUnbounded("OpenCV was loaded before the kiosk set its pixel limit "
                               "(OPENCV_IO_MAX_IMAGE_PIXELS); restart the kiosk")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as e:
        if image_header.refused_by_bound(e):
            raise image_header.too_large(data) from None
        image = None
    if image is None:
        raise ValueError("the upload is not an image OpenCV can read (JPEG, PNG, BMP, WebP)")
    if min(image.shape[:2]) < 32:
        raise ImageTooSmall(image.shape[1], image.shape[0])
    return Still(image, encode_jpeg(image, 90))
