"""Cameras: one `FrameSource` interface, three kinds of source, a grabber and the live view.

For the kiosk::

    source = camera_from_spec(config.camera, demo_folder=DEMO_FRAMES)  # None for "none"
    grabber = Grabber(source, fps=10).start()
    grabber.status().as_dict()        # state ok / no-camera / reconnecting / disabled, and why
    mjpeg_stream(grabber)             # body of a response with mimetype MJPEG_MIMETYPE
    grabber.capture()                 # full-resolution BGR still, or CameraError within 5 s
    grabber.stop()
"""

from device.camera.factory import CameraKind, CameraSpec, camera_from_spec, open_camera
from device.camera.folder import FolderCamera
from device.camera.grabber import CameraState, CameraStatus, Frame, Grabber
from device.camera.mjpeg import MJPEG_MIMETYPE, encode_jpeg, mjpeg_stream
from device.camera.opencv import OpenCVCamera
from device.camera.picam import PiCamera
from device.camera.source import CameraError, FrameSource, Resolution

__all__ = [
    "MJPEG_MIMETYPE", "CameraError", "CameraKind", "CameraSpec", "CameraState", "CameraStatus",
    "FolderCamera", "Frame", "FrameSource", "Grabber", "OpenCVCamera", "PiCamera", "Resolution",
    "camera_from_spec", "encode_jpeg", "mjpeg_stream", "open_camera",
]
