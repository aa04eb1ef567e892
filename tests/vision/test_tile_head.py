"""The classifier's tile head (a linear probe on its pooled features) drops crops it calls no
tile: a finger, a point stick's end, a patch of table. On a set the classifier never learned it
also calls tiles no tile (the roboflow-less classifier on roboflow's photos: Whites and Norths
most) where the class head reads many of them right and surely, so a crop read surely
(``flip_below``) as a face is kept; one read surely as a White or a back is not, as a plain
patch of table reads so. Roboflow's train photos, which that classifier never saw."""

from functools import cache

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES
from tests.shared import ROBOFLOW, need
from vision.boxes import boxes_of
from vision.classify import WHITE, Classifier
from vision.manifest import LabelledTile, read_manifest
from vision.postprocess import Candidate
from vision.recogniser import Recogniser, default_models_dir

LEFT_OUT = default_models_dir() / "left-out" / "roboflow-chinese-mahjong-v4"
HONOURS = "387495486_621370556613476"  # 19 tiles, four under the tile head's bar
WHITES = "IMG_20231219_163255"  # 36 tiles, three Whites under it


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


def test_a_white_read_surely_stays_dropped():
    """Three Whites under the bar, one read surely as a White (0.72): all three are dropped,
    as a plain patch of table reads surely as a White too."""
    tiles, _, probs, under, kept = _read(WHITES)
    assert [tiles[k].label for k in under] == ["5z", "5z", "5z"]
    sure = [k for k in under if probs[k].max() >= _classifier().config.flip_below]
    assert len(sure) == 1 and int(probs[sure[0]].argmax()) == WHITE
    assert kept == [k for k in range(len(tiles)) if k not in under]
