"""The classifier's tile head (a linear probe on its pooled features) drops crops it calls no
tile: a finger, a point stick's end, a patch of table. On a set the classifier never learned it
also calls tiles no tile (the roboflow-less classifier on roboflow's photos: Whites and Norths
most) where the class head reads many of them right and surely, so a crop read surely
(``flip_below``) as a face is kept; one read surely as a White or a back is not, as a plain
patch of table reads so, unless it is a White with tiles of its size beside it in its row.
Roboflow's train photos, which that classifier never saw."""

import math
from functools import cache

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES
from tests.shared import ROBOFLOW, need
from vision.boxes import boxes_of
from vision.classify import WHITE, Classifier, row_mates
from vision.manifest import LabelledTile, read_manifest
from vision.postprocess import Candidate
from vision.recogniser import Recogniser, default_models_dir

LEFT_OUT = default_models_dir() / "left-out" / "roboflow-chinese-mahjong-v4"
HONOURS = "387495486_621370556613476"  # 19 tiles, four under the tile head's bar
WHITES = "IMG_20231219_163255"  # 36 tiles, three Whites under the bar


@cache
def _classifier() -> Classifier:
    return Recogniser.load(classifiers=LEFT_OUT)._classifier()


Read = tuple[list[LabelledTile], list[Candidate], np.ndarray, list[int], list[int]]


def _read(photo: str) -> Read:
    """The photo's labelled tiles, boxed as the finder would (one candidate a labelled box), the
    first classifier's class probabilities, the tiles under ``no_tile_below`` and those kept."""
    entry = next(e for e in read_manifest(need(*ROBOFLOW), ("train",))
                 if e.path.name.startswith(photo))
    tiles = [t for t in entry.tiles if t.label != "other"]
    found = [Candidate(tuple(float(v) for v in t.box), 1.0, 0.0, 0.0) for t in tiles]  # type: ignore[arg-type]
    frame, classifier = cv2.imread(str(entry.path)), _classifier()
    bar = classifier.config.no_tile_below
    probs, _, tile = classifier.classify(frame, boxes_of(found), 0.0, bar)
    assert tile is not None
    kept = classifier.label(frame, found, 0.0).found
    return (tiles, found, probs, np.flatnonzero(tile < bar).tolist(),
            [k for k, c in enumerate(found) if c in kept])


def test_faces_read_surely_are_kept_where_the_tile_head_calls_them_no_tile():
    """Two 7z, a 4z and an 8p under the bar: the class head reads the three honours surely and
    right (0.94, 0.92, 0.81) and they are kept; the 8p, read unsurely (0.62), is dropped."""
    tiles, _, probs, under, kept = _read(HONOURS)
    assert sorted(tiles[k].label for k in under) == ["4z", "7z", "7z", "8p"]
    assert [tiles[k].label for k in range(len(tiles)) if k not in kept] == ["8p"]
    saved = [k for k in under if k in kept]
    assert [MODEL_CLASSES[int(probs[k].argmax())] for k in saved] == [
        tiles[k].label for k in saved]
    assert all(probs[k].max() >= _classifier().config.flip_below for k in saved)


def test_whites_are_kept_between_tiles_of_their_size_in_their_row():
    """Three Whites under the bar, each read likeliest as a White (0.37, 0.46, 0.72): the two
    with two kept tiles of their size beside them in the row are kept; the one at the row's
    left end, beside one kept tile (a 1m) and then the other White, stays dropped."""
    tiles, found, probs, under, kept = _read(WHITES)
    assert [tiles[k].label for k in under] == ["5z", "5z", "5z"]
    assert all(int(probs[k].argmax()) == WHITE for k in under)
    dropped = [k for k in range(len(tiles)) if k not in kept]
    assert len(dropped) == 1 and found[dropped[0]].box[0] == min(
        found[k].box[0] for k in under)


def test_row_mates_counts_tiles_of_a_size_beside_a_box_along_its_row():
    """A 40 x 56 box: a tile 60 px to its left and one 50 px to its right are its row mates;
    one 100 px on (over 1.6 of its long side), one below it and a half-size one are not. Turned
    a quarter (a row running down the frame), the one below is its only mate."""
    box = np.array([[100, 0, 140, 56]], np.float64)
    others = np.array([[40, 2, 80, 58], [150, 0, 190, 56], [200, 0, 240, 56],
                       [100, 70, 140, 126], [150, 0, 170, 30]], np.float64)
    assert row_mates(box, others, 0.0).tolist() == [2]
    assert row_mates(box, others, math.pi / 2).tolist() == [1]
