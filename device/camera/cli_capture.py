"""`python -m device capture SPEC OUT.jpg`: one full-resolution still, through the grabber.

SPEC is a camera spec as in the kiosk's `camera` option: v4l2:0, v4l2:/dev/video2, picamera,
folder:PATH, auto. Exits 1 with the reason when there is no camera.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2

from device.camera.factory import camera_from_spec
from device.camera.grabber import CameraState, Grabber
from device.camera.source import CameraError


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    if not (w.isdigit() and h.isdigit()):
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT")
    return int(w), int(h)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="camera spec: v4l2:N, v4l2:PATH, picamera[:N], folder:PATH, "
                                     "auto")
    parser.add_argument("out", type=Path, help="JPEG file to write")
    parser.add_argument("--size", type=_size, metavar="WxH", help="resolution to ask for")
    parser.add_argument("--exposure-us", type=int, help="manual exposure in microseconds")
    parser.add_argument("--wait", type=float, default=5.0,
                        help="seconds to wait for the camera (default 5)")


def run(args: argparse.Namespace) -> int:
    try:
        source = camera_from_spec(args.spec, resolution=args.size, exposure_us=args.exposure_us)
    except (CameraError, ValueError) as e:
        print(f"capture: {e}")
        return 1
    grabber = Grabber(source).start()
    deadline = time.monotonic() + args.wait
    while grabber.status().state not in (CameraState.OK,) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        image = grabber.capture(timeout=max(0.5, deadline - time.monotonic()))
    except CameraError as e:
        print(f"capture: {e}")
        return 1
    finally:
        grabber.stop()
    if not cv2.imwrite(str(args.out), image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        print(f"capture: cannot write {args.out}")
        return 1
    print(f"{args.out}: {image.shape[1]}x{image.shape[0]} from {source.name if source else '?'}")
    return 0
