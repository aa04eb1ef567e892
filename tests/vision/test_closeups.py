"""A tile seen close, filling the frame, is found: too few tiles found for a hand seen whole and
the finder looks again at the frame shrunk to a third and a fifth of its view
(``closeup_shrinks``), where such a tile is as large as the tiles it learned."""

import shutil
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.boxes import nested
from vision.config import VisionConfig
from vision.recogniser import Recogniser, default_models_dir

DEMO = Path(__file__).resolve().parents[2] / "vision" / "sample_frames" / "hand_12_000.jpg"


@cache
def reader(shrinks: tuple[float, ...], filling: bool = True) -> Recogniser:
    return Recogniser.load(config=VisionConfig(closeup_shrinks=shrinks, read_filling=filling))


ON, OFF = (3.0, 5.0), ()


def without_close_finder(folder: Path) -> Path:
    """A copy of the shipped models in ``folder`` but the close-up finder: the finder then takes
    every look, a frame seen close too."""
    folder.mkdir()
    for name in ("tile_finder", "tile_classifier"):
        for suffix in (".onnx", ".json"):
            shutil.copy(default_models_dir() / f"{name}{suffix}", folder / f"{name}{suffix}")
    return folder


@pytest.fixture(scope="module")
def finder_alone(tmp_path_factory: pytest.TempPathFactory) -> Recogniser:
    return Recogniser.load(without_close_finder(tmp_path_factory.mktemp("m") / "models"))


def close_ups() -> list[tuple[str, np.ndarray]]:
    """Each tile of a demo hand (read exactly by the shipped models) cut out with 40 % of its
    size around it and enlarged to 640 px: its neighbours show in part at the edges."""
    frame = cv2.imread(str(DEMO))
    out = []
    for t in reader(ON).read(frame).tiles:
        x1, y1, x2, y2 = t.box
        mw, mh = 0.4 * (x2 - x1), 0.4 * (y2 - y1)
        crop = frame[max(0, int(y1 - mh)) : int(y2 + mh), max(0, int(x1 - mw)) : int(x2 + mw)]
        scale = 640 / max(crop.shape[:2])
        out.append((t.label, cv2.resize(crop, None, fx=scale, fy=scale,
                                        interpolation=cv2.INTER_CUBIC)))
    return out


def centre_label(rec: Recogniser, image: np.ndarray) -> str | None:
    """The label of the tile read whose box holds the image's centre (None: no such tile)."""
    cy, cx = image.shape[0] / 2, image.shape[1] / 2
    for t in rec.read(image).tiles:
        x1, y1, x2, y2 = t.box
        if x1 <= cx <= x2 and y1 <= cy <= y2:
            return t.label
    return None


def test_a_tile_filling_the_frame_is_found_and_read(finder_alone):
    """The shipped finder alone reads all 14 through its shrunk looks. The close-up finder
    (session 31), which takes those looks where it ships, finds three of these rendered tiles
    nowhere (two 9p and a 6s; its renders read worse than the finder's, docs/vision.md), while
    real close-ups read far better with it (mario 120 -> 160 photos exact of 176); the 6s is
    then read as one tile filling the frame (session 34), the two 9p are read as nothing."""
    shots = close_ups()
    assert len(shots) == 14
    assert all(centre_label(finder_alone, img) == label for label, img in shots)
    read = [centre_label(reader(ON), img) for _, img in shots]
    assert [label for (label, _), r in zip(shots, read, strict=True) if r != label] == [
        "9p", "9p"]
    assert sum(r is None for r in read) == 2
    # without the shrunk look the finder finds no tile at the centre of any of them
    assert [centre_label(reader(OFF, filling=False), img) for _, img in shots] == [None] * 14


def test_a_hand_seen_whole_is_looked_at_once():
    """14 tiles found: no shrunk look, the reading is the reader's without the step."""
    frame = cv2.imread(str(DEMO))
    with_step, without = reader(ON).read(frame), reader(OFF).read(frame)
    assert with_step.to_json() == without.to_json()


def test_only_tiles_found_in_a_shrunk_look_are_larger_than_the_finder_learned():
    """``Located.close`` (boxes that nest are then a tile's parts, ``without_nested``): the demo
    hand seen whole is not; each of its tiles cut out and enlarged is."""
    from vision.find import Finder

    finder = Finder(reader(ON).finder, reader(ON).config)
    assert not finder.locate(cv2.imread(str(DEMO))).close
    assert all(finder.locate(shot).close for _, shot in close_ups())


def test_a_box_inside_a_larger_one_is_dropped_from_close_up_looks():
    """Seen close, a tile's print is boxed again on its own, inside the tile's box; tiles lying
    side by side or touching never nest so."""
    from vision.find import CLOSE_UP_NESTED

    boxes = np.array([[0, 0, 100, 140], [20, 30, 80, 110], [100, 0, 200, 140], [90, 0, 190, 140]],
                     np.float64)
    assert nested(boxes, CLOSE_UP_NESTED).any(axis=1).tolist() == [False, True, False, False]


def test_the_finder_reads_a_shrunk_frame_on_a_canvas_only_as_large_as_it_needs():
    """The shipped finder names its height and width (any multiple of 32). A 640 x 480 frame
    seen whole is read on the 416 px square it learned on (maps of 104 x 104 cells, stride 4);
    shrunk to a third of the view (139 x 104 px), with 96 px of grey around it: a 352 x 320
    canvas, 88 x 80 cells."""
    from vision.find import Finder

    finder = Finder(reader(ON).finder, reader(ON).config)
    assert finder.session.any_size
    frame = cv2.imread(str(DEMO))
    assert frame.shape[:2] == (480, 640)
    assert finder.look(frame).maps.shape == (7, 104, 104)
    view = finder.look(frame, 1 / 3)
    assert view.maps.shape == (7, 80, 88)
    assert view.letterbox.scale == pytest.approx(416 / 3 / 640)
    assert (view.letterbox.pad_x, view.letterbox.pad_y) == ((352 - 139) // 2, (320 - 104) // 2)


def test_a_widened_frame_is_read_on_a_canvas_with_one_stride_of_grey_around_it():
    """A frame widened to 16:9 (854 x 480) seen whole fills 416 x 234 px of the view: on the
    square it left 182 rows grey; widened, it is read with 32 px of grey above and below, a
    416 x 320 canvas (80 x 104 cells); a square frame fills the square either way."""
    from vision.find import Finder

    finder = Finder(reader(ON).finder, reader(ON).config)
    frame = cv2.imread(str(DEMO))
    wide = cv2.copyMakeBorder(frame, 0, 0, 107, 107, cv2.BORDER_REPLICATE)
    assert wide.shape[:2] == (480, 854)
    assert finder.look(wide).maps.shape == (7, 104, 104)
    view = finder.look(wide, widened=True)
    assert view.maps.shape == (7, 80, 104)
    assert (view.letterbox.pad_x, view.letterbox.pad_y) == (0, (320 - 234) // 2)
    square = cv2.resize(frame, (480, 480))
    assert finder.look(square, widened=True).maps.shape == (7, 104, 104)


def test_the_demo_hands_tiles_are_the_finders_usual_size_and_a_close_up_is_larger():
    """The demo hand's tiles measure under ``closeup_above`` (read as seen whole); one of them
    cut out with its neighbours' edges and enlarged to fill 640 px measures above it."""
    from vision.find import Finder

    finder = Finder(reader(ON).finder, reader(ON).config)
    above = finder.config.closeup_above
    assert 0 < finder.tile_size(cv2.imread(str(DEMO))) < above
    _, shot = close_ups()[0]
    assert finder.tile_size(shot) > above


def test_a_frames_shrunk_looks_are_taken_once():
    """``Finder.locate`` may ask for a frame's look at a third twice (the close-up look, then the
    tiles' size): ``seen`` keeps each shrunk look, and the size measured from it is the one a
    fresh look measures."""
    finder = reader(ON)._finder()
    _, shot = close_ups()[0]
    seen: dict = {}
    finder.close_up(shot, seen)
    looks = dict(seen)
    assert sorted(looks) == [3.0, 5.0]
    assert finder.tile_size(shot, seen) == finder.tile_size(shot) > finder.config.closeup_above
    assert all(seen[k] is looks[k] for k in looks) and len(seen) == 2
    assert finder.shrunk(shot, 3.0, seen) is looks[3.0]


def test_a_tile_seen_close_with_no_margin_is_one_tile(finder_alone):
    """The demo hand's tiles cut at their boxes and enlarged 8x (a shop's photo of one tile).
    The shipped finder alone finds 11 of 14 as that one tile; the others are blurred 35-50 px
    tiles: two 9p found nowhere, a 9p read as 8p (stage 10 found one of those 9p: 12). A 6p,
    whose print the finder boxed again (read 8s), reads as one tile since a box mostly inside
    another is that tile's part (``nested_share``; 10 without). The close-up finder, which
    looks at such frames where it ships, finds 4 of these blurred renders (the rest nowhere),
    but real single tiles better: camerash 577 -> 598 photos exact of 628, the tight stand-in
    cut from the trainable photos 284 -> 285 of 300 (docs/vision.md). A frame from which
    nothing is read is read as one tile filling it (session 34): the finder alone then reads
    13 (the 9p read 8p stays), with the close-up finder all 14."""
    frame = cv2.imread(str(DEMO))

    def one_tile(rec: Recogniser) -> list[str]:
        right = []
        for t in reader(ON).read(frame).tiles:
            x1, y1, x2, y2 = (int(round(v)) for v in t.box)
            crop = cv2.resize(frame[y1:y2, x1:x2], None, fx=8, fy=8,
                              interpolation=cv2.INTER_CUBIC)
            if [d.label for d in rec.read(crop).tiles] == [t.label]:
                right.append(t.label)
        return right

    assert len(one_tile(finder_alone)) == 13
    assert one_tile(reader(ON)) == [t.label for t in reader(ON).read(frame).tiles]
    assert len(one_tile(reader(ON, filling=False))) == 4
