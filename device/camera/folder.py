"""A folder of images as a camera: the demo camera when none is attached, and the tests' camera."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import cv2
import numpy as np

from device.camera.source import CameraError, Resolution

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class FolderCamera:
    """Shows the images of `folder` in name order, over and over.

    With `hold_s` = 0 every `read()` moves to the next image (tests); with `hold_s` > 0 each
    image stays in view that long, like a camera looking at a table. `capture()` returns the
    image in view at full size. Unreadable files are skipped with a warning.
    """

    def __init__(self, folder: str | Path, *, hold_s: float = 0.0) -> None:
        self.folder = Path(folder)
        self.hold_s = hold_s
        self._files: list[Path] = []
        self._index = -1
        self._current: np.ndarray | None = None
        self._shown_at = 0.0
        self._unseen = False  # the first image is loaded by open() and not yet read

    @property
    def name(self) -> str:
        return f"folder:{self.folder}"

    @property
    def resolution(self) -> Resolution | None:
        if self._current is None:
            return None
        return (self._current.shape[1], self._current.shape[0])

    def open(self) -> None:
        if self._files:
            return  # already open
        if not self.folder.is_dir():
            raise CameraError(f"{self.name}: no such folder")
        self._files = sorted(p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self._files:
            raise CameraError(f"{self.name}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self._index, self._current = -1, None
        self._advance()  # fails now, with the reason, when no image can be read
        self._unseen = True

    def read(self) -> np.ndarray:
        if not self._files:
            raise CameraError(f"{self.name}: not open")
        if self._unseen:
            self._unseen = False
        elif self._current is None or time.monotonic() - self._shown_at >= self.hold_s:
            self._advance()
        assert self._current is not None
        return self._current.copy()

    def capture(self) -> np.ndarray:
        if self._current is None:
            return self.read()
        return self._current.copy()

    def close(self) -> None:
        self._files, self._current = [], None

    def _advance(self) -> None:
        for _ in range(len(self._files)):
            self._index = (self._index + 1) % len(self._files)
            path = self._files[self._index]
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                self._current, self._shown_at = image, time.monotonic()
                return
            log.warning("%s: cannot read %s, skipped", self.name, path.name)
        raise CameraError(f"{self.name}: none of the {len(self._files)} images can be read")
