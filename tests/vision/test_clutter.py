"""Printed clutter beside a rendered table: clear of every tile, and the tiles as without it."""

import random

import numpy as np
import pytest

from vision.synth.clutter import paint_clutter
from vision.synth.hands import random_hand


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_clutter_is_painted_clear_of_the_tiles_and_carries_print():
    tiles = [(200.0, 200.0, 440.0, 280.0), (300.0, 60.0, 330.0, 100.0)]
    painted_any = 0
    for seed in range(20):
        img = np.full((480, 640, 3), 90.0, np.float32)
        painted = paint_clutter(img, random.Random(seed), tiles)
        for area in painted:
            assert not any(_overlaps(area, t) for t in tiles), (seed, area)
            x0, y0, x1, y1 = (int(v) for v in area)
            # a shelf or a card: more than one colour inside (spines, bands, print)
            assert len(np.unique(img[y0:y1, x0:x1].reshape(-1, 3), axis=0)) > 2, (seed, area)
        for t in tiles:  # nothing painted where a tile lies
            x0, y0, x1, y1 = (int(v) for v in t)
            assert (img[y0:y1, x0:x1] == 90.0).all(), seed
        painted_any += bool(painted)
    assert painted_any >= 15  # a tile-free edge or spot exists in every one of these frames


def test_a_scene_with_clutter_holds_the_same_tiles_as_without():
    from vision.synth.art import ArtSource
    from vision.synth.fonts import FontsMissingError
    from vision.synth.scene import render

    try:
        art = ArtSource(1.0).for_scene(3, 0)  # procedural faces: no ../shared needed
    except FontsMissingError as e:
        pytest.skip(str(e))
    hand = random_hand(random.Random(8))
    plain_img, plain = render(hand, art, random.Random(8))
    busy_img, busy = render(hand, art, random.Random(8), clutter=True)
    assert plain == busy
    assert not np.array_equal(plain_img, busy_img)
