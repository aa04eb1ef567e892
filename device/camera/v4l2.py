"""Finding V4L2 video nodes and what they are (VIDIOC_QUERYCAP), standard library only."""

from __future__ import annotations

import fcntl
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path

# struct v4l2_capability: driver[16] card[32] bus_info[32] version capabilities device_caps
# reserved[3]; VIDIOC_QUERYCAP = _IOR('V', 0, struct v4l2_capability).
_CAPABILITY = struct.Struct("16s32s32sIII12x")
VIDIOC_QUERYCAP = (2 << 30) | (_CAPABILITY.size << 16) | (ord("V") << 8) | 0
V4L2_CAP_VIDEO_CAPTURE = 0x00000001
V4L2_CAP_DEVICE_CAPS = 0x80000000


@dataclass(frozen=True, slots=True)
class VideoNode:
    """One /dev/videoN: what the driver says about it."""

    path: str
    driver: str
    card: str
    bus: str
    captures: bool  # delivers frames (not a codec, ISP or metadata node)

    @property
    def is_usb_camera(self) -> bool:
        """A UVC camera: what "auto" looks for (Pi ISP and codec nodes are not cameras to us)."""
        return self.captures and self.driver == "uvcvideo"


def query(path: str | Path) -> VideoNode:
    """Ask the driver of `path`; raises OSError when it is not a V4L2 device."""
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        buf = fcntl.ioctl(fd, VIDIOC_QUERYCAP, bytes(_CAPABILITY.size))
    finally:
        os.close(fd)
    driver, card, bus, _version, caps, device_caps = _CAPABILITY.unpack(buf)
    if caps & V4L2_CAP_DEVICE_CAPS:
        caps = device_caps  # the node's own capabilities, not the whole device's

    def text(raw: bytes) -> str:
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")

    return VideoNode(str(path), text(driver), text(card), text(bus),
                     bool(caps & V4L2_CAP_VIDEO_CAPTURE))


def video_nodes(dev: Path = Path("/dev")) -> tuple[list[VideoNode], list[str]]:
    """Every /dev/videoN that answers, in number order, and a note for each that does not."""
    nodes, problems = [], []
    paths = [p for p in dev.glob("video*") if re.fullmatch(r"video\d+", p.name)]
    for path in sorted(paths, key=lambda p: int(p.name[5:])):
        try:
            nodes.append(query(path))
        except OSError as e:
            problems.append(f"{path}: not usable ({e.strerror or e})")
    return nodes, problems
