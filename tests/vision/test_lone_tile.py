"""A tile seen close, filling at least half the frame, that the finder boxes but the tile head
calls no tile (the roboflow-less classifier on roboflow's Norths: it never learned that style)
is read as the tile it is where nothing else is read (``recogniser._lone``), unless it reads
likeliest as a White or a back. Roboflow's train photos, which that classifier never saw, cut
close round one North as a shop's or a user's close-up is (5 % of its width of table around)."""

from functools import cache

import cv2
import numpy as np
import pytest

from tests.shared import ROBOFLOW, need
from vision.config import VisionConfig
from vision.manifest import read_manifest
from vision.recogniser import Recogniser, default_models_dir

LEFT_OUT = default_models_dir() / "left-out" / "roboflow-chinese-mahjong-v4"
# photo name's start, the North's index among its labelled tiles
NORTHS = [("379656137_1383786199236233", 4), ("381844741_274030938430577", 2),
          ("382348783_365606705794018", 0)]


@cache
def reader(filling: bool) -> Recogniser:
    return Recogniser.load(classifiers=LEFT_OUT, config=VisionConfig(read_filling=filling))


def close_up(photo: str, index: int) -> np.ndarray:
    """The photo cut round its ``index``-th labelled tile, 5 % of the tile's width around it."""
    entry = next(e for e in read_manifest(need(*ROBOFLOW), ("train",))
                 if e.path.name.startswith(photo))
    tile = entry.tiles[index]
    assert tile.label == "4z" and tile.box is not None
    img = cv2.imread(str(entry.path))
    x1, y1, x2, y2 = tile.box
    m = 0.05 * (x2 - x1)
    h, w = img.shape[:2]
    return img[int(max(0, y1 - m)):int(min(h, y2 + m)), int(max(0, x1 - m)):int(min(w, x2 + m))]


@pytest.mark.parametrize(("photo", "index"), NORTHS)
def test_a_north_filling_the_frame_is_read_though_the_tile_head_calls_it_no_tile(photo, index):
    frame = close_up(photo, index)
    h, w = frame.shape[:2]
    found = reader(True)._finder().locate(frame).found
    big = [c for c in found if (c.box[2] - c.box[0]) * (c.box[3] - c.box[1]) >= h * w / 2]
    assert big, "the finder boxes the North filling the frame"
    classifier = reader(True)._classifier()
    _, _, tile = classifier.classify(frame, np.array([big[0].box], np.float32))
    assert tile is not None and tile[0] < classifier.config.no_tile_below
    assert [t.label for t in reader(True).read(frame).tiles] == ["4z"]
    assert [t.label for t in reader(False).read(frame).tiles] == []  # the stage off
