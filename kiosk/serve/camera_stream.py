"""The camera's live view (`GET /api/camera/stream`, MJPEG) for every open `<img>` at once.

A view used to be a streaming Flask answer holding a worker thread for as long as it was open:
eight phones watching the camera stopped every other request. Here each view is a coroutine on
the server's event loop (`kiosk.serve.server.Front`), like a live page, and one producer makes the
JPEG parts: it reads the grabber's newest frame, encodes it on a thread of its own (off the
loop) and hands the same bytes to every view. N views cost one encode per frame, not N; a view
too slow to read skips to the newest part. With no view open the producer stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from device.camera import MJPEG_MIMETYPE, encode_jpeg
from device.camera.grabber import CameraState
from device.camera.mjpeg import NO_PICTURE_INTERVAL_S, no_picture, part
from kiosk.photos.camera import CameraService

PATH = "/api/camera/stream"
#: Views one address other than the kiosk's own may hold, and all of them together: a phone
#: needs one; each costs the kiosk a few hundred KB/s of its network.
PER_CLIENT_VIEWS = 2
LAN_VIEWS = 16
HEADERS = [(b"content-type", MJPEG_MIMETYPE.encode()), (b"cache-control", b"no-cache"),
           (b"x-accel-buffering", b"no"), (b"x-content-type-options", b"nosniff")]


class CameraViews:
    def __init__(self, camera: CameraService, *, fps: float = 8.0, quality: int = 70,
                 max_width: int = 960) -> None:
        self.camera, self.period = camera, 1.0 / fps
        self.quality, self.max_width = quality, max_width
        self._part = b""  # the newest part; empty while no producer runs
        self._version = 0
        self._wake: asyncio.Event | None = None
        self._producer: asyncio.Task[None] | None = None
        self._encoder: ThreadPoolExecutor | None = None
        self._card = b""  # the no-camera part: drawn once, it never changes
        self._closed = False

    def close(self) -> None:
        """End every view (shutdown); called on the event loop."""
        self._closed = True
        self._wake_views()
        if self._producer is not None:
            self._producer.cancel()
        if self._encoder is not None:
            self._encoder.shutdown(wait=False, cancel_futures=True)

    async def stream(self) -> AsyncIterator[bytes]:
        """The parts one view sends: the newest part, then each newer one as it is made."""
        self.camera.viewers += 1
        try:
            self._start()
            sent = 0
            while not self._closed:
                wake = self._wake
                if self._version != sent and self._part:
                    sent = self._version
                    yield self._part
                elif wake is not None:
                    await wake.wait()
        finally:
            self.camera.viewers -= 1

    def _start(self) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._producer is None or self._producer.done():
            self._producer = asyncio.ensure_future(self._produce())

    def _publish(self, data: bytes) -> None:
        self._part, self._version = data, self._version + 1
        self._wake_views()

    def _wake_views(self) -> None:
        wake, self._wake = self._wake, asyncio.Event()
        if wake is not None:
            wake.set()

    async def _produce(self) -> None:
        loop = asyncio.get_running_loop()
        if self._encoder is None:
            self._encoder = ThreadPoolExecutor(1, thread_name_prefix="camera-view")
        seen = 0
        try:
            while self.camera.viewers > 0 and not self._closed:
                started, pause = loop.time(), self.period
                grabber = self.camera.grabber
                frame = grabber.latest() if grabber is not None else None
                if grabber is None or grabber.status().state is not CameraState.OK \
                        or frame is None:
                    if not self._card:
                        self._card = await loop.run_in_executor(self._encoder, self._draw_card)
                    self._publish(self._card)  # again each second: the page sees it is alive
                    pause = NO_PICTURE_INTERVAL_S
                elif frame.seq != seen:
                    seen = frame.seq
                    self._publish(await loop.run_in_executor(self._encoder, self._encode,
                                                             frame.image))
                await asyncio.sleep(max(0.0, pause - (loop.time() - started)))
        except RuntimeError:  # the encoder was shut down: the server is stopping
            pass
        finally:
            self._part = b""  # a view opened later waits for a fresh picture

    def _encode(self, image: np.ndarray) -> bytes:
        return part(encode_jpeg(image, self.quality, self.max_width))

    def _draw_card(self) -> bytes:
        return part(encode_jpeg(no_picture(), self.quality))
