"""Hardware at the table's edge: cameras and the serial honba / points display.

- `device.camera`: `camera_from_spec(spec, demo_folder=...)` -> a `FrameSource` (folder of
  images, V4L2 / USB through OpenCV, Raspberry Pi camera through picamera2); `Grabber` keeps its
  latest frame in a thread and reports ok / no-camera / reconnecting; `mjpeg_stream` is the live
  view; `Grabber.capture()` a full-resolution still.
- `device.display`: `make_display(url)` -> `DisplaySupervisor` (or `NullDisplay` for "none");
  `publish(DisplayState(...))` never blocks; the protocol is in docs/serial-protocol.md.
- `python -m device --help`: the display simulator, a display tester, camera listing and capture.

Nothing here opens a camera or a port at import time. The only import from our packages would be
`scorer` (none is needed: `DisplayState` is device's own small value type).
"""
