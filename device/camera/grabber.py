"""A background thread that owns one camera and always has its latest frame ready.

Web requests never touch the camera: `latest()` returns the newest frame at once, `status()`
says whether the camera works, `capture()` asks the thread for a full-resolution still and waits
a bounded time. A camera that fails is closed and reopened with back-off; the UI sees
`no-camera` (never worked yet) or `reconnecting` (lost) with the reason.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from device.camera.source import CameraError, FrameSource, Resolution

log = logging.getLogger(__name__)


class CameraState(Enum):
    STARTING = "starting"
    OK = "ok"
    NO_CAMERA = "no-camera"  # never opened: absent, or the configured one is not there
    RECONNECTING = "reconnecting"  # worked, then failed; reopening with back-off
    DISABLED = "disabled"  # configured as none
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class Frame:
    """One preview frame: BGR pixels, its number, and when it was read (time.monotonic)."""

    image: np.ndarray
    seq: int
    at: float


@dataclass(frozen=True, slots=True)
class CameraStatus:
    state: CameraState
    camera: str | None
    message: str | None = None  # why there is no picture
    resolution: Resolution | None = None
    frames: int = 0
    frame_age_s: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for the kiosk's API."""
        return {"state": self.state.value, "ok": self.state is CameraState.OK,
                "camera": self.camera, "message": self.message,
                "resolution": list(self.resolution) if self.resolution else None,
                "frames": self.frames, "frame_age_s": self.frame_age_s}


class Grabber:
    """Reads `source` at most `fps` times a second in its own thread (None: camera disabled)."""

    def __init__(self, source: FrameSource | None, *, fps: float = 10.0,
                 backoff_s: tuple[float, float] = (0.5, 10.0)) -> None:
        if not 0.1 <= fps <= 60:
            raise ValueError(f"fps: {fps} is not 0.1-60")
        self.source, self.fps, self.backoff_s = source, fps, backoff_s
        self._cond = threading.Condition()  # guards the frame and state; wakes waiters
        self._frame: Frame | None = None
        self._state = CameraState.DISABLED if source is None else CameraState.STARTING
        self._message: str | None = None
        self._requests: list[Future[np.ndarray]] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str | None:
        return self.source.name if self.source is not None else None

    def start(self) -> Grabber:
        if self.source is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera-grabber", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._set(CameraState.STOPPED if self.source else CameraState.DISABLED, None)

    def latest(self) -> Frame | None:
        """The newest frame (None before the first); never waits for the camera."""
        return self._frame

    def wait_frame(self, after_seq: int, timeout: float) -> Frame | None:
        """The first frame newer than `after_seq`, waiting at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._frame is None or self._frame.seq <= after_seq) and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            frame = self._frame
        return frame if frame is not None and frame.seq > after_seq else None

    def status(self) -> CameraStatus:
        frame = self._frame
        resolution = self.source.resolution if self.source is not None else None
        return CameraStatus(
            self._state, self.name, self._message, resolution,
            frame.seq if frame else 0,
            round(time.monotonic() - frame.at, 3) if frame else None)

    def capture(self, timeout: float = 5.0) -> np.ndarray:
        """A full-resolution still from the camera thread; `CameraError` if none within timeout."""
        if self._state is not CameraState.OK:
            raise CameraError(f"no camera: {self._message or self._state.value}")
        request: Future[np.ndarray] = Future()
        with self._cond:
            self._requests.append(request)
        self._wake.set()
        try:
            return request.result(timeout)
        except FutureTimeout:
            request.cancel()
            raise CameraError(f"{self.name}: no still within {timeout:.0f} s") from None

    def _set(self, state: CameraState, message: str | None) -> None:
        with self._cond:
            changed = state is not self._state
            self._state, self._message = state, message
            self._cond.notify_all()
        if changed:
            bad = state in (CameraState.NO_CAMERA, CameraState.RECONNECTING)
            level = logging.WARNING if bad else logging.INFO
            log.log(level, "camera %s: %s%s", self.name, state.value,
                    f" ({message})" if message else "")

    def _fail_requests(self, error: Exception) -> None:
        with self._cond:
            requests, self._requests = self._requests, []
        for request in requests:
            if request.set_running_or_notify_cancel():
                request.set_exception(error)

    def _run(self) -> None:
        assert self.source is not None
        source, delay, seq, worked = self.source, self.backoff_s[0], 0, False
        period = 1.0 / self.fps
        while not self._stop.is_set():
            try:
                source.open()
                self._serve_captures(source)
                image = source.read()
            except Exception as e:  # a driver may raise anything; the thread must live on
                message = str(e) if isinstance(e, CameraError) else f"{type(e).__name__}: {e}"
                self._set(CameraState.RECONNECTING if worked else CameraState.NO_CAMERA, message)
                self._fail_requests(CameraError(message))
                try:
                    source.close()
                except Exception:
                    pass
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_s[1])
                continue
            worked, delay, seq = True, self.backoff_s[0], seq + 1
            started = time.monotonic()
            with self._cond:
                self._frame = Frame(image, seq, started)
                self._cond.notify_all()
            if self._state is not CameraState.OK:
                self._set(CameraState.OK, None)
            # Sleep out the frame period, but wake at once for a capture request or stop.
            self._wake.wait(max(0.0, period - (time.monotonic() - started)))
            self._wake.clear()
        try:
            source.close()
        except Exception:
            pass

    def _serve_captures(self, source: FrameSource) -> None:
        with self._cond:
            requests, self._requests = self._requests, []
        for request in requests:
            if not request.set_running_or_notify_cancel():
                continue  # the caller gave up
            try:
                request.set_result(source.capture())
            except Exception as e:
                request.set_exception(e)
                raise
