"""The camera views of `python -m kiosk.bench.live`: phones watching the camera
(`GET /api/camera/stream`) while the writers write, each counting the pictures it receives."""

from __future__ import annotations

import asyncio
from typing import Any

BOUNDARY = b"--frame\r\n"  # device.camera.mjpeg's part boundary


class CameraView(asyncio.Protocol):
    def __init__(self, host: str) -> None:
        self.request = f"GET /api/camera/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        self.status, self.pictures, self.tail = 0, 0, b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if not self.status and data.startswith(b"HTTP/1.1 "):
            self.status = int(data[9:12])
        buf = self.tail + data  # a boundary split between two reads is counted once
        self.pictures += buf.count(BOUNDARY)
        self.tail = buf[1 - len(BOUNDARY):]


async def open_views(addr: str, port: int, n: int) -> list[CameraView]:
    loop = asyncio.get_running_loop()
    conns = await asyncio.gather(*(loop.create_connection(lambda: CameraView(f"{addr}:{port}"),
                                                          addr, port) for _ in range(n)),
                                 return_exceptions=True)
    return [c[1] for c in conns if not isinstance(c, BaseException)]


def figures(views: list[CameraView], asked: int, seconds: float) -> dict[str, Any]:
    """Closes the views; how many were served and their pictures a second."""
    for view in views:
        view.transport.close()
    fps = sorted(v.pictures / seconds for v in views if v.status == 200) or [0.0]
    return {"asked": asked, "connected": sum(v.status == 200 for v in views),
            "pictures_per_s_min": fps[0], "pictures_per_s_median": fps[len(fps) // 2]}


def summary(c: dict[str, Any]) -> str:
    return (f"camera views: {c['connected']}/{c['asked']} connected, pictures/s per view min "
            f"{c['pictures_per_s_min']:.1f}, median {c['pictures_per_s_median']:.1f}")


def missed(c: dict[str, Any]) -> str:
    """The target missed in words ('' when met): every view served, a picture a second each."""
    if c["connected"] < c["asked"] or (c["asked"] and not c["pictures_per_s_min"] >= 1):
        return summary(c)
    return ""
