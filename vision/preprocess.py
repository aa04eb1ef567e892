"""Pure pre-processing: frame -> finder input, boxes -> classifier crops.

No state and no onnxruntime here, so the training code uses exactly the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CROP_SIZE = 48  # classifier input: square crop, width = height
CROP_PAD = 0.08  # each side, as a share of the box size, so the tile's edges are in view
FINDER_SIZE = 416  # finder input: the frame letterboxed into a square of this side (the card says)


@dataclass(frozen=True)
class Letterbox:
    """How a frame was scaled and padded into the finder input (to map boxes back)."""

    scale: float
    pad_x: int
    pad_y: int

    def to_image(self, boxes: np.ndarray) -> np.ndarray:
        """Map [N, 4] finder-input boxes back to frame pixels."""
        out = boxes.astype(np.float32).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        return out


def letterbox(
    frame_bgr: np.ndarray,
    size: int = FINDER_SIZE,
    fill: float = 1.0,
    canvas: tuple[int, int] | None = None,
) -> tuple[np.ndarray, Letterbox]:
    """Scale the frame so its long side is ``fill`` of ``size``, centre it on a grey square of
    that side, or on a grey ``canvas`` (height, width) as large as the scaled frame or larger.

    Returns an HxWx3 uint8 BGR image and the mapping back to frame pixels.
    """
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise ValueError(f"frame must be HxWx3 BGR, got shape {frame_bgr.shape}")
    h, w = frame_bgr.shape[:2]
    scale = size * fill / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    resized = cv2.resize(frame_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
    ch, cw = canvas or (size, size)
    if nw > cw or nh > ch:
        raise ValueError(f"a {nw}x{nh} frame does not fit a {cw}x{ch} canvas")
    out = np.full((ch, cw, 3), 114, np.uint8)
    px, py = (cw - nw) // 2, (ch - nh) // 2
    out[py : py + nh, px : px + nw] = resized
    return out, Letterbox(scale, px, py)


def to_nchw(images_bgr: np.ndarray) -> np.ndarray:
    """[N, H, W, 3] uint8 BGR -> [N, 3, H, W] float32 0..255 (the models normalise inside)."""
    if images_bgr.ndim == 3:
        images_bgr = images_bgr[None]
    return np.ascontiguousarray(images_bgr.transpose(0, 3, 1, 2), dtype=np.float32)


def crop_affine(
    box: tuple[float, ...] | np.ndarray,
    size: int,
    pad: float,
    shift: tuple[float, float] = (0.0, 0.0),
    angle: float = 0.0,
) -> np.ndarray:
    """The 2x3 affine mapping the padded box (optionally shifted, rotated) onto the square.

    ``shift`` is in box widths/heights, ``angle`` in degrees (counter-clockwise); the box is
    stretched to a square, as the training photos were stretched by their publisher.
    """
    x1, y1, x2, y2 = (float(v) for v in box[:4])
    bw, bh = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    cx, cy = (x1 + x2) / 2 + shift[0] * bw, (y1 + y2) / 2 + shift[1] * bh
    sx, sy = size / (bw * (1 + 2 * pad)), size / (bh * (1 + 2 * pad))
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]], np.float64)
    lin = rot @ np.diag([sx, sy])
    t = np.array([size / 2, size / 2]) - lin @ np.array([cx, cy])
    return np.hstack([lin, t[:, None]]).astype(np.float32)


def crop_tiles(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    size: int = CROP_SIZE,
    pad: float = CROP_PAD,
    angle: float = 0.0,
) -> np.ndarray:
    """[N, 4] image-pixel boxes -> [N, size, size, 3] uint8 crops (edges replicated), turned
    ``angle`` degrees counter-clockwise about each box's centre."""
    out = np.empty((len(boxes), size, size, 3), np.uint8)
    for i, box in enumerate(boxes):
        m = crop_affine(box, size, pad, angle=angle)
        out[i] = cv2.warpAffine(
            frame_bgr, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out


def turned_squares(boxes: np.ndarray, side: float) -> np.ndarray:
    """Squares about the boxes' centres, ``side`` times the square root of each box's area: what
    a tile lying at an angle fills once its crop is turned level with its row (its axis-aligned
    box is then too wide one way and too tall the other)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = side * np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)) / 2
    return np.concatenate([centre - half[:, None], centre + half[:, None]], axis=1)
