"""`python -m device cameras`: the cameras this machine has and which one `auto` would use.

Lists every /dev/videoN with its driver (USB cameras are `uvcvideo`; a Raspberry Pi also has
codec and ISP nodes, which are not cameras) and the CSI cameras picamera2 sees.
"""

from __future__ import annotations

import argparse

from device.camera.factory import camera_from_spec
from device.camera.picam import list_picameras, load_picamera2
from device.camera.source import CameraError
from device.camera.v4l2 import video_nodes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--probe", action="store_true",
                        help="also open the cameras to find the one `auto` would use")


def run(args: argparse.Namespace) -> int:
    nodes, problems = video_nodes()
    print("V4L2 devices:" if nodes or problems else "V4L2 devices: none")
    for n in nodes:
        kind = "USB camera" if n.is_usb_camera else ("capture" if n.captures else "not a camera")
        print(f"  {n.path}: {n.card} [{n.driver}, {n.bus}] {kind}  -> camera = v4l2:{n.path}")
    for problem in problems:
        print(f"  {problem}")
    try:
        load_picamera2()
        cams = list_picameras()
        print("CSI cameras (picamera2):" if cams else "CSI cameras (picamera2): none")
        for i, model in enumerate(cams):
            print(f"  picamera:{i}: {model}")
    except CameraError as e:
        print(f"CSI cameras: {e}")
    if args.probe:
        try:
            source = camera_from_spec("auto")
            print(f"auto would use: {source.name if source else 'nothing'}")
        except CameraError:
            print("auto would use: the demo frames (no working camera)")
    return 0
