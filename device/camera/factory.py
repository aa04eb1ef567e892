"""Camera specs as the kiosk's `camera` option writes them, and the sources they name.

`auto` (a CSI camera, else the first USB camera that delivers a frame, else the demo folder),
`demo` (the demo folder), `none`, `folder:PATH`, `v4l2:N` or `v4l2:/dev/PATH`,
`picamera` or `picamera:N`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from device.camera.folder import FolderCamera
from device.camera.opencv import OpenCVCamera
from device.camera.picam import PiCamera, list_picameras
from device.camera.source import CameraError, FrameSource, Resolution
from device.camera.v4l2 import video_nodes

log = logging.getLogger(__name__)

DEMO_HOLD_S = 6.0  # each demo frame stays in view this long, like a camera over a table


class CameraKind(Enum):
    AUTO = "auto"
    DEMO = "demo"
    NONE = "none"
    FOLDER = "folder"
    V4L2 = "v4l2"
    PICAMERA = "picamera"


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """A parsed camera spec; `target` is the folder, device or camera number where one is given."""

    kind: CameraKind
    target: str | None = None

    @classmethod
    def parse(cls, text: str) -> CameraSpec:
        """Parse `text`; a `ValueError` names what is wrong.

        >>> CameraSpec.parse("v4l2:0")
        CameraSpec(kind=<CameraKind.V4L2: 'v4l2'>, target='0')
        """
        kind_text, _, target = text.strip().partition(":")
        try:
            kind = CameraKind(kind_text.lower())
        except ValueError:
            raise ValueError(f"camera spec {text!r}: expected auto, demo, none, folder:PATH, "
                             "v4l2:N, v4l2:/dev/PATH or picamera[:N]") from None
        takes_target = {CameraKind.FOLDER: True, CameraKind.V4L2: True}
        if takes_target.get(kind) and not target:
            raise ValueError(f"camera spec {text!r}: {kind.value} needs a target after ':'")
        if kind is CameraKind.PICAMERA and target and not target.isdigit():
            raise ValueError(f"camera spec {text!r}: picamera number {target!r} is not a number")
        if kind in (CameraKind.AUTO, CameraKind.DEMO, CameraKind.NONE) and target:
            raise ValueError(f"camera spec {text!r}: {kind.value} takes no target")
        return cls(kind, target or None)


def camera_from_spec(spec: str | CameraSpec, *, demo_folder: str | Path | None = None,
                     resolution: Resolution | None = None,
                     exposure_us: int | None = None) -> FrameSource | None:
    """The source `spec` names, not yet opened (the grabber opens it); None for `none`.

    Only `auto` touches hardware here: it probes the cameras it finds. A named camera that is
    absent is not an error yet: the grabber reports "no camera" and keeps looking for it.
    """
    spec = spec if isinstance(spec, CameraSpec) else CameraSpec.parse(spec)
    match spec.kind:
        case CameraKind.NONE:
            return None
        case CameraKind.DEMO:
            return _demo(demo_folder)
        case CameraKind.FOLDER:
            return FolderCamera(spec.target or "")
        case CameraKind.V4L2:
            target = spec.target or ""
            device: int | str = int(target) if target.isdigit() else target
            return OpenCVCamera(device, resolution=resolution, exposure_us=exposure_us)
        case CameraKind.PICAMERA:
            return PiCamera(int(spec.target or 0), preview=resolution or (1280, 720),
                            exposure_us=exposure_us)
    for source in candidates(resolution=resolution, exposure_us=exposure_us):
        try:
            source.open()
            source.read()
        except CameraError as e:
            log.info("auto camera: skipping %s (%s)", source.name, e)
            continue
        finally:
            source.close()
        log.info("auto camera: using %s", source.name)
        return source
    log.info("auto camera: no camera found, using the demo frames")
    return _demo(demo_folder)


def candidates(*, resolution: Resolution | None = None,
               exposure_us: int | None = None) -> list[FrameSource]:
    """The cameras `auto` tries, in order: CSI cameras, then USB (UVC) cameras."""
    found: list[FrameSource] = [
        PiCamera(i, preview=resolution or (1280, 720), exposure_us=exposure_us)
        for i in range(len(list_picameras()))]
    nodes, _ = video_nodes()
    found += [OpenCVCamera(n.path, resolution=resolution, exposure_us=exposure_us)
              for n in nodes if n.is_usb_camera]
    return found


def open_camera(spec: str | CameraSpec, **options: object) -> FrameSource:
    """`camera_from_spec`, opened: for scripts that want a camera now or a `CameraError`."""
    source = camera_from_spec(spec, **options)  # type: ignore[arg-type]
    if source is None:
        raise CameraError("camera: disabled (spec 'none')")
    source.open()
    return source


def _demo(folder: str | Path | None) -> FrameSource:
    if folder is None:
        raise CameraError("demo camera: no demo folder given")
    return FolderCamera(folder, hold_s=DEMO_HOLD_S)
