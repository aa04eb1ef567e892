"""A tile seen close and sharp shows its print crisp, and the whole look boxes the print's parts
(a character's strokes, a suit's marks) as tiles: five or more, so the frame is not taken for a
close-up (``closeup_below``). Where the whole look finds fewer than a hand's tiles
(``closeup_prints_below``), the frame is looked at shrunk too, and read so where most of the
whole look's boxes lie inside tiles of the shrunk look, two or more in each, and the classifier
reads the shrunk look's tiles more surely than those boxes."""

import random
from functools import cache

import numpy as np
import pytest

from vision.classify import Classifier
from vision.config import VisionConfig
from vision.find import _holds_prints
from vision.postprocess import Candidate
from vision.recogniser import Recogniser
from vision.synth.face_style import random_style
from vision.synth.faces import render_face
from vision.synth.fonts import find_cjk_fonts

# the shipped look and none; a frame read as nothing is not read as one tile filling it here
# (that stage: test_filling.py), so the look's own effect is what is measured
PRINTS_ON = VisionConfig(read_filling=False)
PRINTS_OFF = VisionConfig(closeup_prints_below=0, read_filling=False)


def _boxes(*boxes: tuple[float, float, float, float]) -> list[Candidate]:
    return [Candidate(box, 0.9, 0.0, 1.0) for box in boxes]


TILE = (100.0, 50.0, 500.0, 650.0)  # one tile filling a 600 x 700 frame
PRINTS = ((150.0, 100.0, 230.0, 180.0), (300.0, 100.0, 380.0, 180.0), (150.0, 300.0, 230.0, 380.0),
          (300.0, 300.0, 380.0, 380.0), (220.0, 480.0, 300.0, 560.0))


def test_the_prints_of_a_tile_seen_close_lie_in_it():
    assert _holds_prints(_boxes(TILE), _boxes(*PRINTS))
    # four of the five in the tile, one on the table beside it: still most of them
    beside = (520.0, 100.0, 590.0, 180.0)
    assert _holds_prints(_boxes(TILE), _boxes(*PRINTS[:4], beside))


def test_two_tiles_of_a_hand_boxed_as_one_in_the_shrunk_look_are_no_print():
    """A hand of 12 tiles 40 px wide in a row; the shrunk look boxes two of them as one (and
    the others one by one): two of the twelve lie in a box that holds two, not most."""
    hand = [(float(x), 100.0, x + 40.0, 160.0) for x in range(0, 480, 40)]
    shrunk = [(0.0, 100.0, 80.0, 160.0), *hand[2:]]
    assert not _holds_prints(_boxes(*shrunk), _boxes(*hand))


def test_a_print_needs_two_parts_in_one_tile():
    """Each whole-look box in a tile of its own (a few tiles seen as usual) is no print, nor is
    a single box, nor a shrunk look that found nothing."""
    tiles = [(float(x), 0.0, x + 100.0, 140.0) for x in (0, 110, 220)]
    inner = [(x + 10, 10.0, x + 90, 130.0) for x, _, _, _ in tiles]
    assert not _holds_prints(_boxes(*tiles), _boxes(*inner))
    assert not _holds_prints(_boxes(TILE), _boxes(PRINTS[0]))
    assert not _holds_prints([], _boxes(*PRINTS))


@cache
def reader(config: VisionConfig) -> Recogniser:
    return Recogniser.load(config=config)


def sharp_close_up(label: str, seed: int) -> np.ndarray:
    """A tile drawn 480 px tall (procedural face, style ``seed``) on a green table: a photo of
    one tile filling the frame, its print crisp."""
    pytest.importorskip("PIL", reason="Pillow draws the faces (the train/test extras)")
    face = render_face(label, random_style(random.Random(seed), find_cjk_fonts()), (360, 480))
    frame = np.full((640, 560, 3), (60, 110, 40), np.uint8)
    frame[80:560, 100:460] = face
    return frame


def test_a_nine_of_circles_seen_close_and_sharp_reads_as_one_tile():
    """Twelve styles of 9p: the whole look boxes its circles as tiles (read as 1p, 2p and the
    like, or nothing), so without the look 1 of 12 reads 9p; with it, 8 (the other four are
    misread as other dots in both), with the nine fonts CI installs (a style draws on them:
    the bounds leave room for a machine with fewer)."""
    read = {on: [[t.label for t in reader(config).read(sharp_close_up("9p", seed)).tiles]
                 for seed in range(12)]
            for on, config in ((True, PRINTS_ON), (False, PRINTS_OFF))}
    assert sum(r == ["9p"] for r in read[True]) >= 6
    assert sum(r == ["9p"] for r in read[False]) <= 3
    assert any(len(r) >= 5 for r in read[False])  # its circles boxed as tiles (style 0: 9)


def test_the_classifier_reads_a_whole_tile_more_surely_than_its_prints():
    """``Classifier.sureness``: a drawn 9p's whole-look boxes (its circles) against the box of
    the tile; the tile's is the larger, as ``Finder.locate`` asks of a close-up look."""
    recogniser = reader(PRINTS_ON)
    frame = sharp_close_up("9p", 0)
    cfg = recogniser.config
    prints = recogniser._finder().look(frame).peaks(cfg.detect_threshold, cfg.nms_iou)
    tile = [Candidate((100.0, 80.0, 460.0, 560.0), 0.9, 0.0, 1.0)]
    classifier = Classifier(recogniser.classifier, cfg)
    assert len(prints) >= 5
    assert classifier.sureness(frame, tile) > classifier.sureness(frame, prints) + 0.3
    assert classifier.sureness(frame, []) == 0.0
