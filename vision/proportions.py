"""Frames resized out of their proportions are read again at a camera's.

A dataset's "stretch to 640x640" or an app's resize to a square squeezes a 16:9 frame, and every
tile in it then stands about twice as tall as wide; the finder boxes such tiles short (a
squeezed standing tile's top reads as table). A tile's box tells the squeeze: upright tiles are
about ``tile_aspect`` times as long as wide, so a frame whose median located box is longer than
any camera shows one (``stretched_from``) is widened along its short axis by the ratio and read
again. A squeeze beyond ``unstretch_max`` is a panorama squashed to a square, whose tiles run
off the frame: it is read as it is, as the finder learned such photos.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.boxes import boxes_of
from vision.config import VisionConfig
from vision.postprocess import Candidate

MIN_TILES = 3  # fewer boxes tell nothing about the frame's proportions


def squeeze_of(boxes: np.ndarray, config: VisionConfig) -> tuple[float, float] | None:
    """The scale (along x, along y) that brings a frame's tiles, boxed by ``boxes`` [N, 4] (the
    finder's, or a training photo's labels), back to a tile's proportions, or None when they
    have them already; however far (``stretch_of`` bounds it)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    if min(config.stretched_from, config.tile_aspect) <= 0 or len(boxes) < MIN_TILES:
        return None
    sides = np.maximum(boxes[:, 2:] - boxes[:, :2], 1e-3)
    aspect = float(np.median(np.log(sides[:, 1] / sides[:, 0])))  # > 0: tiles stand tall
    if abs(aspect) < math.log(config.stretched_from):
        return None
    scale = math.exp(abs(aspect)) / config.tile_aspect
    return (scale, 1.0) if aspect > 0 else (1.0, scale)


def stretch_of(boxes: np.ndarray, config: VisionConfig) -> tuple[float, float] | None:
    """``squeeze_of``, or None where the squeeze is past ``unstretch_max`` too."""
    scale = squeeze_of(boxes, config)
    return None if scale is None or max(scale) > config.unstretch_max else scale


def unstretched(frame_bgr: np.ndarray, scale: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The frame resized by ``scale`` (x, y) and the 2x3 affine that maps its pixels back."""
    sx, sy = scale
    h, w = frame_bgr.shape[:2]
    size = (max(1, round(w * sx)), max(1, round(h * sy)))
    canvas = cv2.resize(frame_bgr, size, interpolation=cv2.INTER_LINEAR)
    back = np.array([[w / size[0], 0.0, 0.0], [0.0, h / size[1], 0.0]], np.float64)
    return canvas, back


def at_true_proportions(
    frame_bgr: np.ndarray, found: Sequence[Candidate], config: VisionConfig
) -> tuple[np.ndarray, np.ndarray] | None:
    """The frame widened back to its tiles' proportions (``stretch_of`` its ``found`` boxes)
    and the affine that maps the widened frame's pixels back; None when it has them already."""
    scale = stretch_of(boxes_of(found), config)
    return None if scale is None else unstretched(frame_bgr, scale)
