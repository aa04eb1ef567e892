"""The Raspberry Pi camera (CSI) through picamera2, which OpenCV cannot open on a Pi 5.

picamera2 comes from Debian (`apt install python3-picamera2`), not from PyPI, so the kiosk's
venv must be made with `--system-site-packages`. It is imported only when the camera is opened.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from device.camera.source import CameraError, Resolution

NOT_INSTALLED = ("picamera2 is not installed; on Raspberry Pi OS: sudo apt install "
                 "python3-picamera2, and make the venv with --system-site-packages")


def load_picamera2() -> Any:
    """The `Picamera2` class, or a `CameraError` that says how to install it."""
    try:
        from picamera2 import Picamera2
    except ImportError as e:
        raise CameraError(f"picamera: {NOT_INSTALLED} ({e})") from None
    return Picamera2


def list_picameras() -> list[str]:
    """Model names of the attached CSI cameras; empty where picamera2 is absent."""
    try:
        cls = load_picamera2()
        return [str(info.get("Model", "camera")) for info in cls.global_camera_info()]
    except CameraError:
        return []
    except Exception:  # libcamera present but broken: no cameras for our purposes
        return []


class PiCamera:
    """A CSI camera: previews at `preview` size, stills at `still` size (default: the sensor's)."""

    def __init__(self, number: int = 0, *, preview: Resolution = (1280, 720),
                 still: Resolution | None = None, exposure_us: int | None = None) -> None:
        self.number = number
        self.preview = preview
        self.still = still
        self.exposure_us = exposure_us
        self._cam: Any = None

    @property
    def name(self) -> str:
        return f"picamera:{self.number}"

    @property
    def resolution(self) -> Resolution | None:
        return self.preview if self._cam is not None else None

    def open(self) -> None:
        if self._cam is not None:
            return
        cls = load_picamera2()
        found = len(cls.global_camera_info())
        if self.number >= found:
            raise CameraError(f"{self.name}: no camera (picamera2 found {found})")
        try:
            cam = cls(self.number)
            # RGB888 is laid out B, G, R in memory: exactly OpenCV's BGR.
            cam.configure(cam.create_preview_configuration(
                main={"size": self.preview, "format": "RGB888"}))
            if self.exposure_us is not None:
                cam.set_controls({"AeEnable": False, "ExposureTime": self.exposure_us})
            cam.start()
        except Exception as e:  # libcamera raises RuntimeError and friends
            raise CameraError(f"{self.name}: cannot start ({e})") from e
        self._cam = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError(f"{self.name}: not open")
        try:
            return np.asarray(self._cam.capture_array("main"))
        except Exception as e:
            raise CameraError(f"{self.name}: stopped delivering frames ({e})") from e

    def capture(self) -> np.ndarray:
        """A full-resolution still: switch to the still mode for one frame, then back."""
        if self._cam is None:
            raise CameraError(f"{self.name}: not open")
        main: dict[str, Any] = {"format": "RGB888"}
        if self.still:
            main["size"] = self.still
        try:
            config = self._cam.create_still_configuration(main=main)
            return np.asarray(self._cam.switch_mode_and_capture_array(config, "main"))
        except Exception as e:
            raise CameraError(f"{self.name}: still capture failed ({e})") from e

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:
                pass  # already gone
        self._cam = None
