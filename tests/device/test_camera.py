"""Cameras without camera hardware: the folder source, the grabber, the MJPEG stream, and a
machine with no V4L2 camera (a clear "no camera" state, never a crash)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.__main__ import main
from device.camera import (
    MJPEG_MIMETYPE,
    CameraError,
    CameraKind,
    CameraSpec,
    CameraState,
    FolderCamera,
    Grabber,
    OpenCVCamera,
    PiCamera,
    camera_from_spec,
    encode_jpeg,
    mjpeg_stream,
    open_camera,
)
from device.camera.factory import candidates
from device.camera.v4l2 import video_nodes
from tests.device.peers import wait_until

COLOURS = {"a.png": (0, 0, 255), "b.jpg": (0, 255, 0), "c.png": (255, 0, 0)}  # BGR


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    """Three 160x90 images of one colour each, plus files a camera must skip."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for name, colour in COLOURS.items():
        cv2.imwrite(str(folder / name), np.full((90, 160, 3), colour, np.uint8))
    (folder / "broken.jpg").write_bytes(b"not a jpeg")
    (folder / "notes.txt").write_text("not an image")
    return folder


def colour_of(image: np.ndarray) -> tuple[int, int, int]:
    b, g, r = (int(round(c / 255) * 255) for c in image.reshape(-1, 3).mean(axis=0))
    return b, g, r


@pytest.fixture
def grabber(frames: Path) -> Iterator[Grabber]:
    g = Grabber(FolderCamera(frames), fps=20, backoff_s=(0.05, 0.2)).start()
    yield g
    g.stop()


def test_folder_camera_cycles_in_name_order_and_skips_unreadable_files(frames: Path) -> None:
    cam = FolderCamera(frames)
    assert cam.resolution is None
    cam.open()
    assert cam.name == f"folder:{frames}" and cam.resolution == (160, 90)
    seen = [colour_of(cam.read()) for _ in range(4)]
    assert seen == [COLOURS["a.png"], COLOURS["b.jpg"], COLOURS["c.png"], COLOURS["a.png"]]
    assert colour_of(cam.capture()) == COLOURS["a.png"]  # the image in view, at full size
    assert cam.capture().shape == (90, 160, 3)
    cam.close()


def test_folder_camera_holds_each_image(frames: Path) -> None:
    cam = FolderCamera(frames, hold_s=60)
    cam.open()
    assert {colour_of(cam.read()) for _ in range(5)} == {COLOURS["a.png"]}


@pytest.mark.parametrize("make, words", [
    (lambda p: p / "missing", "no such folder"),
    (lambda p: p, "no images"),
])
def test_folder_camera_errors_name_the_folder(tmp_path: Path, make, words: str) -> None:  # noqa: ANN001
    folder = make(tmp_path)
    with pytest.raises(CameraError, match=words) as error:
        FolderCamera(folder).open()
    assert str(folder) in str(error.value)


def test_folder_of_only_unreadable_images_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "x.jpg").write_bytes(b"junk")
    with pytest.raises(CameraError, match="none of the 1 images can be read"):
        FolderCamera(tmp_path).open()


@pytest.mark.parametrize("text, kind, target", [
    ("auto", CameraKind.AUTO, None), ("demo", CameraKind.DEMO, None),
    ("none", CameraKind.NONE, None), ("folder:/srv/frames", CameraKind.FOLDER, "/srv/frames"),
    ("v4l2:0", CameraKind.V4L2, "0"), ("v4l2:/dev/video2", CameraKind.V4L2, "/dev/video2"),
    ("picamera", CameraKind.PICAMERA, None), ("picamera:1", CameraKind.PICAMERA, "1"),
])
def test_camera_specs(text: str, kind: CameraKind, target: str | None) -> None:
    assert CameraSpec.parse(text) == CameraSpec(kind, target)


@pytest.mark.parametrize("text, words", [
    ("webcam", "expected auto, demo"), ("v4l2", "needs a target"), ("folder:", "needs a target"),
    ("picamera:x", "not a number"), ("auto:1", "takes no target"),
])
def test_bad_camera_specs_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        CameraSpec.parse(text)


def test_camera_from_spec_builds_without_opening(frames: Path) -> None:
    assert camera_from_spec("none") is None
    cam = camera_from_spec("v4l2:3", resolution=(1920, 1080), exposure_us=8000)
    assert isinstance(cam, OpenCVCamera) and cam.device == 3 and cam.requested == (1920, 1080)
    assert cam.name == "v4l2:/dev/video3" and cam.resolution is None
    assert camera_from_spec("v4l2:/dev/video2").name == "v4l2:/dev/video2"  # type: ignore[union-attr]
    assert isinstance(camera_from_spec(f"folder:{frames}"), FolderCamera)
    demo = camera_from_spec("demo", demo_folder=frames)
    assert isinstance(demo, FolderCamera) and demo.hold_s > 0
    assert camera_from_spec("picamera:1").name == "picamera:1"  # type: ignore[union-attr]
    with pytest.raises(CameraError, match="no demo folder"):
        camera_from_spec("demo")


def test_auto_without_cameras_falls_back_to_the_demo_frames(frames: Path) -> None:
    if candidates():
        pytest.skip("this machine has a camera; auto would pick it")
    demo = camera_from_spec("auto", demo_folder=frames)
    assert isinstance(demo, FolderCamera) and demo.folder == frames


# --- a machine without V4L2 cameras -------------------------------------------------------

def test_absent_v4l2_camera_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match=r"v4l2:/dev/video97: no camera"):
        OpenCVCamera(97).open()
    with pytest.raises(CameraError, match="no camera"):
        open_camera("v4l2:/dev/video-nope")
    not_a_camera = tmp_path / "video0"
    not_a_camera.write_bytes(b"")  # exists, but OpenCV cannot open it as a camera
    with pytest.raises(CameraError, match="cannot open"):
        OpenCVCamera(str(not_a_camera)).open()


def test_grabber_reports_no_camera_and_never_blocks() -> None:
    g = Grabber(camera_from_spec("v4l2:97"), backoff_s=(0.05, 0.1)).start()
    try:
        assert wait_until(lambda: g.status().state is CameraState.NO_CAMERA, 2.0)
        status = g.status()
        assert status.message is not None and "/dev/video97" in status.message
        assert status.as_dict()["ok"] is False and status.as_dict()["state"] == "no-camera"
        t = time.perf_counter()
        assert g.latest() is None
        with pytest.raises(CameraError, match="no camera"):
            g.capture()
        assert time.perf_counter() - t < 0.1
        # the live view shows a crossed-out camera, no words: the page says why in its language
        part = next(mjpeg_stream(g))
        jpeg = part[part.index(b"\r\n\r\n") + 4:-2]
        card = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert card is not None and card.shape == (360, 640, 3)
        b, _, r = (card[..., i].astype(int) for i in range(3))
        assert ((r - b) > 80).sum() > 500  # the red slash
        assert (card[:40] == card[0, 0]).all(axis=-1).mean() > 0.9  # a plain card around it
    finally:
        g.stop()


def test_picamera_without_picamera2_says_how_to_install_it() -> None:
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    with pytest.raises(CameraError, match="python3-picamera2.*--system-site-packages"):
        PiCamera().open()
    g = Grabber(PiCamera(), backoff_s=(0.05, 0.1)).start()
    try:
        assert wait_until(lambda: g.status().state is CameraState.NO_CAMERA, 2.0)
    finally:
        g.stop()


def test_video_node_listing_survives_things_that_are_not_cameras(tmp_path: Path) -> None:
    for name in ("video0", "video10", "videox"):
        (tmp_path / name).write_bytes(b"")
    nodes, problems = video_nodes(tmp_path)
    assert nodes == []
    assert [p.split(":")[0] for p in problems] == [str(tmp_path / "video0"),
                                                  str(tmp_path / "video10")]


# --- the grabber ------------------------------------------------------------------------------

def test_grabber_keeps_the_latest_frame_at_a_bounded_rate(grabber: Grabber) -> None:
    assert wait_until(lambda: grabber.status().state is CameraState.OK, 2.0)
    first = grabber.latest()
    assert first is not None
    time.sleep(0.5)
    last = grabber.latest()
    assert last is not None and last.seq > first.seq
    assert last.seq - first.seq <= 0.5 * 20 + 2  # never faster than fps=20
    status = grabber.status()
    assert status.camera == grabber.name and status.resolution == (160, 90)
    assert status.frame_age_s is not None and status.frame_age_s < 0.5


def test_capture_is_a_full_resolution_still_and_does_not_wait_for_the_frame_period(
        frames: Path) -> None:
    g = Grabber(FolderCamera(frames), fps=0.2).start()  # one frame every 5 s
    try:
        assert wait_until(lambda: g.status().state is CameraState.OK, 2.0)
        t = time.perf_counter()
        still = g.capture(timeout=2.0)
        assert time.perf_counter() - t < 1.0
        assert still.shape == (90, 160, 3) and colour_of(still) == COLOURS["a.png"]
    finally:
        g.stop()


def test_a_camera_that_disappears_is_reported_and_reopened(frames: Path) -> None:
    g = Grabber(FolderCamera(frames), fps=20, backoff_s=(0.05, 0.2)).start()
    try:
        assert wait_until(lambda: g.status().state is CameraState.OK, 2.0)
        hidden = frames.with_name("unplugged")
        frames.rename(hidden)  # the camera goes away
        assert wait_until(lambda: g.status().state is CameraState.RECONNECTING, 2.0)
        message = g.status().message or ""
        assert "can be read" in message or "no such folder" in message, message
        with pytest.raises(CameraError):
            g.capture()
        seq = g.latest().seq  # type: ignore[union-attr]
        hidden.rename(frames)  # and comes back
        assert wait_until(lambda: g.status().state is CameraState.OK, 2.0)
        assert g.wait_frame(seq, timeout=2.0) is not None
    finally:
        g.stop()
    assert g.status().state is CameraState.STOPPED


class Exploding:
    """A driver that fails with something other than CameraError on every second read."""

    name, resolution = "exploding", (4, 4)

    def __init__(self) -> None:
        self.reads = 0

    def open(self) -> None: ...

    def read(self) -> np.ndarray:
        self.reads += 1
        if self.reads % 2 == 0:
            raise OSError("USB transfer failed")
        return np.zeros((4, 4, 3), np.uint8)

    capture = read

    def close(self) -> None: ...


def test_the_grabber_survives_unexpected_driver_errors() -> None:
    source = Exploding()
    g = Grabber(source, fps=50, backoff_s=(0.01, 0.02)).start()
    try:
        assert wait_until(lambda: source.reads >= 6, 3.0)
        assert g.status().state in (CameraState.OK, CameraState.RECONNECTING)
        assert g._thread is not None and g._thread.is_alive()
    finally:
        g.stop()


def test_disabled_camera() -> None:
    g = Grabber(None).start()
    assert g.status().state is CameraState.DISABLED and g.latest() is None
    with pytest.raises(CameraError):
        g.capture()
    g.stop()


# --- the live view --------------------------------------------------------------------------

def test_mjpeg_stream_parts(grabber: Grabber) -> None:
    assert MJPEG_MIMETYPE == "multipart/x-mixed-replace; boundary=frame"
    assert wait_until(lambda: grabber.status().state is CameraState.OK, 2.0)
    t = time.monotonic()
    parts = list(mjpeg_stream(grabber, fps=10, quality=60, max_width=80, max_frames=3))
    assert time.monotonic() - t >= 0.2  # three frames at no more than 10 a second
    for part in parts:
        head, _, rest = part.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        assert lines[0] == b"--frame" and lines[1] == b"Content-Type: image/jpeg"
        length = int(lines[2].removeprefix(b"Content-Length: "))
        assert len(rest) == length + 2 and rest.endswith(b"\r\n")
        image = cv2.imdecode(np.frombuffer(rest[:-2], np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (45, 80, 3)  # 160x90 shrunk to max_width 80, aspect kept


def test_encode_jpeg_checks_quality() -> None:
    with pytest.raises(ValueError, match="quality: 0"):
        encode_jpeg(np.zeros((8, 8, 3), np.uint8), 0)


def test_capture_command_writes_a_still(frames: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "still.jpg"
    assert main(["capture", f"folder:{frames}", str(out)]) == 0
    assert cv2.imread(str(out)).shape == (90, 160, 3)
    assert main(["capture", "v4l2:97", str(tmp_path / "no.jpg"), "--wait", "0.3"]) == 1
    assert "no camera" in capsys.readouterr().out


def test_cameras_command_lists_what_there_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cameras"]) == 0
    out = capsys.readouterr().out
    assert "V4L2 devices:" in out and "CSI cameras" in out
