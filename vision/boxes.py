"""Box arithmetic the stages share: boxes as arrays, each box's nearest boxes, boxes lying inside
others (and inside larger ones), a box cut in halves, boxes mapped back from a turned canvas, and
whether a row runs along a frame axis."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.postprocess import intersections

Box = tuple[float, float, float, float]  # x1, y1, x2, y2


def boxes_of(items: Sequence[Any]) -> np.ndarray:
    """[N, 4] float32 boxes of candidates or detected tiles."""
    return np.array([x.box for x in items], np.float32).reshape(-1, 4)


def nearest(boxes: np.ndarray, k: int) -> np.ndarray:
    """[N, min(k, N - 1)] indices of each box's nearest other boxes by centre distance, nearest
    first: sizes judged against the boxes around a box, not the whole frame (perspective, a
    shelf of books behind the table)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    centres = (b[:, :2] + b[:, 2:]) / 2
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    return np.argsort(apart, axis=1, kind="stable")[:, : min(k, len(b) - 1)]


def inside(a: np.ndarray, b: np.ndarray, share: float) -> np.ndarray:
    """[N, M] bool: box i of ``a`` lies ``share`` of its area or more inside box j of ``b``.

    >>> inside(np.array([[2, 3, 8, 11], [9, 0, 12, 14]]), np.array([[0, 0, 10, 14]]), 0.5)
    array([[ True],
           [False]])
    """
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    area = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    return intersections(a, b) >= share * area[:, None]


def nested(boxes: np.ndarray, share: float) -> np.ndarray:
    """[N, N] bool: box i lies ``share`` of its area or more inside box j, a larger box. Tiles are
    solid and never lie inside one another in a photo; boxes that do are a tile's part or a
    group's tiles.

    >>> nested(np.array([[0, 0, 10, 14], [2, 3, 8, 11], [10, 0, 20, 14]]), 0.5).astype(int)
    array([[0, 0, 0],
           [1, 0, 0],
           [0, 0, 0]])
    """
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inside(b, b, share) & (area[None, :] > area[:, None])


def halves(box: Sequence[float], side_by_side: bool) -> tuple[Box, Box]:
    """``box`` cut in two through its middle: side by side (cut across x) or one above the other.

    >>> halves((0.0, 0.0, 4.0, 2.0), True), halves((0.0, 0.0, 4.0, 2.0), False)
    (((0.0, 0.0, 2.0, 2.0), (2.0, 0.0, 4.0, 2.0)), ((0.0, 0.0, 4.0, 1.0), (0.0, 1.0, 4.0, 2.0)))
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    if side_by_side:
        xm = (x1 + x2) / 2
        return (x1, y1, xm, y2), (xm, y1, x2, y2)
    ym = (y1 + y2) / 2
    return (x1, y1, x2, ym), (x1, ym, x2, y2)


def along_x(angle: float) -> bool | None:
    """Whether a row at ``angle`` runs along the frame's x axis (else its y axis), or None when
    it lies more than 15 degrees off both: only then do a box's sides measure along and across
    the row."""
    if min(angle % (math.pi / 2), -angle % (math.pi / 2)) > math.radians(15):
        return None
    return abs(math.cos(angle)) > math.sqrt(0.5)


def framed_box(box: tuple[float, ...], back: np.ndarray) -> tuple[float, float, float, float]:
    """A box on a turned canvas in frame pixels: the box around its corners mapped back by the
    2x3 affine ``back``."""
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ back.T
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
