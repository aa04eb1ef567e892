"""The frame-source interface every camera implements, and its error."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

Resolution = tuple[int, int]  # (width, height) in pixels


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped delivering frames; the message names it."""


@runtime_checkable
class FrameSource(Protocol):
    """A camera. Frames are BGR `uint8` arrays of shape (height, width, 3), as OpenCV uses.

    `open()` may be called again after `close()` (the grabber reopens a camera that vanished);
    `read()` returns the next preview frame; `capture()` a full-resolution still. Both raise
    `CameraError` when the camera is gone. Only the grabber's thread calls them.
    """

    @property
    def name(self) -> str:
        """How the camera is called in the UI and in logs, e.g. `v4l2:/dev/video0`."""
        ...

    @property
    def resolution(self) -> Resolution | None:
        """The preview size once open, else None."""
        ...

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...
