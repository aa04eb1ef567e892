"""The cross-set photos (../shared, never trained on) read by a reader of a given config: how
many labelled tiles it boxes at IoU 0.5 and reads right. Each config is read once per test run,
however many tests compare against it."""

import functools
from pathlib import Path

import cv2
import numpy as np

from tests.shared import CROSS_SET, SHARED, need
from vision.config import VisionConfig
from vision.manifest import read_manifest
from vision.postprocess import iou
from vision.recogniser import Recogniser

ROOT = Path(__file__).resolve().parents[2]


def read_right(config: VisionConfig = VisionConfig()) -> tuple[int, int]:  # noqa: B008 - frozen
    """Labelled cross-set tiles the reader boxes at IoU 0.5 or more, and of those, read right
    (the box overlapping the tile most has its label); skips the test without ../shared."""
    need(*CROSS_SET)
    return _counts(config)


@functools.cache
def _counts(config: VisionConfig) -> tuple[int, int]:
    reader = Recogniser.load(config=config)
    boxed = right = 0
    for image in read_manifest(SHARED.joinpath(*CROSS_SET)):
        tiles = reader.read(cv2.imread(str(image.path))).tiles
        truth = [t for t in image.tiles if t.label != "other"]
        if not tiles or not truth:
            continue
        overlap = iou(
            np.array([t.box for t in truth], np.float64), np.array([t.box for t in tiles])
        )
        for t, row in zip(truth, overlap, strict=True):
            boxed += bool(row.max() >= 0.5)
            right += bool(row.max() >= 0.5 and tiles[int(row.argmax())].label == t.label)
    return boxed, right
