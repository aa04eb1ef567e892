"""A USB / V4L2 camera through OpenCV, by index (`v4l2:0`) or device path (`v4l2:/dev/video2`)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import cv2
import numpy as np

from device.camera.source import CameraError, Resolution

log = logging.getLogger(__name__)

V4L2_AUTO_EXPOSURE_MANUAL = 1  # V4L2_EXPOSURE_MANUAL; OpenCV's V4L2 backend passes it through
V4L2_AUTO_EXPOSURE_AUTO = 3  # V4L2_EXPOSURE_APERTURE_PRIORITY, what UVC cameras call "auto"


class OpenCVCamera:
    """A camera that OpenCV's V4L2 backend (any backend off Linux) can open.

    `resolution` asks for a size (the camera picks the nearest it has); `exposure_us` switches to
    manual exposure where the driver supports it (a warning otherwise). MJPG is requested so a
    USB camera can deliver its full resolution at a useful frame rate.
    """

    def __init__(self, device: int | str, *, resolution: Resolution | None = None,
                 exposure_us: int | None = None, fourcc: str | None = "MJPG") -> None:
        self.device = device
        self.requested = resolution
        self.exposure_us = exposure_us
        self.fourcc = fourcc
        self._cap: cv2.VideoCapture | None = None
        self._size: Resolution | None = None

    @property
    def name(self) -> str:
        return f"v4l2:{self._path()}"

    @property
    def resolution(self) -> Resolution | None:
        return self._size

    def _path(self) -> str:
        return f"/dev/video{self.device}" if isinstance(self.device, int) else str(self.device)

    def open(self) -> None:
        if self._cap is not None:
            return
        linux = sys.platform.startswith("linux")
        # Checking the node first gives a clear message instead of OpenCV's warnings.
        if linux and not Path(self._path()).exists():
            raise CameraError(f"{self.name}: no camera (no device {self._path()})")
        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2 if linux else cv2.CAP_ANY)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"{self.name}: cannot open (not a camera, or in use)")
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the freshest frame, not one queued seconds ago
        if self.fourcc:
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*self.fourcc))
        if self.requested:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.requested[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.requested[1])
        if self.exposure_us is not None:
            ok = cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_AUTO_EXPOSURE_MANUAL)
            # V4L2's exposure_time_absolute counts in units of 100 microseconds.
            ok = ok and cap.set(cv2.CAP_PROP_EXPOSURE, max(1, self.exposure_us // 100))
            if not ok:
                log.warning("%s: manual exposure not supported; using auto", self.name)
        ok, frame = cap.read()
        if not ok or frame is None:
            cap.release()
            raise CameraError(f"{self.name}: opened but delivers no frames")
        self._cap, self._size = cap, (frame.shape[1], frame.shape[0])

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"{self.name}: not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self.name}: stopped delivering frames (unplugged?)")
        return frame

    def capture(self) -> np.ndarray:
        """A fresh frame at the configured size: drop what the driver had queued first."""
        if self._cap is not None:
            self._cap.grab()
        return self.read()

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap = None
