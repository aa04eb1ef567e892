"""Find: the finder over a frame -> located tiles (boxes in frame pixels, strongest first).

Takes a BGR frame; gives ``Located``: the tiles found at ``detect_threshold`` and the finder's
view they came from, which later stages ask again for weaker peaks. A hand far from the camera
is found again, magnified, in a crop around the first pass's tiles (``zoom_region``); its
boxes replace the first pass's. The crops the classifier reads are cut from the frame itself
either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.boxes import boxes_of
from vision.config import VisionConfig
from vision.postprocess import Candidate, decode_finder, nms
from vision.preprocess import Letterbox, letterbox, to_nchw
from vision.session import ModelSession


@dataclass(frozen=True)
class FinderView:
    """Finder maps over a frame or a crop of it (``offset``: the crop's corner in the frame)."""

    maps: np.ndarray
    letterbox: Letterbox
    shape: tuple[int, ...]  # the image the finder saw: height, width
    offset: tuple[int, int]

    def peaks(self, threshold: float, nms_iou: float) -> list[Candidate]:
        h, w = self.shape[:2]
        found = decode_finder(self.maps, self.letterbox, (w, h), threshold, nms_iou)
        dx, dy = self.offset
        if not (dx or dy):
            return found
        return [
            replace(c, box=(c.box[0] + dx, c.box[1] + dy, c.box[2] + dx, c.box[3] + dy))
            for c in found
        ]


@dataclass(frozen=True)
class Located:
    """The tiles the finder located in a frame and the view of it they came from."""

    view: FinderView
    found: tuple[Candidate, ...]


@dataclass(frozen=True)
class Finder:
    """The finder model with the thresholds that pick tiles from its maps."""

    session: ModelSession
    config: VisionConfig

    @property
    def size(self) -> int:
        """The side of the square the finder sees (its card's input)."""
        return int(self.session.card["input"]["shape"][2])

    def input(self, image: np.ndarray) -> np.ndarray:
        """The finder's [1, 3, S, S] input for an image (letterboxed as its card says)."""
        return to_nchw(letterbox(image, self.size)[0])

    def look(
        self, image: np.ndarray, offset: tuple[int, int] = (0, 0), fill: float = 1.0
    ) -> FinderView:
        """The finder's maps over an image (a crop of the frame whose corner is ``offset``),
        its long side ``fill`` of the finder's view."""
        square, lb = letterbox(image, self.size, fill)
        return FinderView(self.session.run(to_nchw(square))[0], lb, image.shape[:2], offset)

    def close_up(self, frame_bgr: np.ndarray) -> Located | None:
        """The tiles of a frame seen close, or None: the frame shrunk to each of
        ``closeup_shrinks`` of the finder's view (a tile filling the frame, or held at a hand's
        length, is then as large as the tiles it learned), the views' boxes merged."""
        views = [self.look(frame_bgr, fill=1 / k) for k in self.config.closeup_shrinks]
        found = _merged(views, self.config)
        return Located(views[0], tuple(found)) if found else None

    def locate(self, frame_bgr: np.ndarray) -> Located:
        """The tiles of a frame, found again magnified where they are small (``zoom_region``),
        or shrunk where too few are found to be a hand seen whole (a close-up)."""
        cfg = self.config
        whole = self.look(frame_bgr)
        found = whole.peaks(cfg.detect_threshold, cfg.nms_iou)
        if len(found) < cfg.closeup_below and cfg.closeup_shrinks:
            near = self.close_up(frame_bgr)
            if near is not None:
                return near
        region = zoom_region(found, frame_bgr.shape[:2], self.size, cfg)
        if region is None:
            return Located(whole, tuple(found))
        x1, y1, x2, y2 = region
        zoomed = self.look(frame_bgr[y1:y2, x1:x2], (x1, y1))
        return Located(zoomed, tuple(zoomed.peaks(cfg.detect_threshold, cfg.nms_iou)))


def _merged(views: Sequence[FinderView], config: VisionConfig) -> list[Candidate]:
    """The peaks of every view, the stronger of two overlapping boxes kept."""
    found = [c for v in views for c in v.peaks(config.detect_threshold, config.nms_iou)]
    if not found:
        return []
    scores = np.array([c.score for c in found])
    boxes = boxes_of(found).astype(np.float64)
    kept = nms(boxes, scores, config.nms_iou)
    return [found[i] for i in kept if not _inside_another(boxes, i, kept)]


def _inside_another(boxes: np.ndarray, i: int, among: Sequence[int], share: float = 0.8) -> bool:
    """Whether box ``i`` lies mostly (``share`` of it) inside a larger box of ``among``: seen
    close, a tile's print is boxed again on its own; tiles lying side by side never nest."""
    x1, y1, x2, y2 = boxes[i]
    area = (x2 - x1) * (y2 - y1)
    for j in among:
        if j == i:
            continue
        a1, b1, a2, b2 = boxes[j]
        inter = max(0.0, min(x2, a2) - max(x1, a1)) * max(0.0, min(y2, b2) - max(y1, b1))
        if (a2 - a1) * (b2 - b1) > area and inter >= share * area:
            return True
    return False


def zoom_region(
    found: Sequence[Candidate], frame_shape: tuple[int, ...], size: int, config: VisionConfig
) -> tuple[int, int, int, int] | None:
    """The part of the frame to find tiles in again, magnified, or None: when the tiles found
    are smaller than ``zoom_below`` finder pixels (short side, median) and a box around them
    (a margin of ``zoom_margin`` tile lengths) lets the finder see them at least
    ``zoom_min_gain`` times larger; never magnified past ``zoom_target`` pixels a tile."""
    if not found or config.zoom_below <= 0:
        return None
    h, w = frame_shape[:2]
    boxes = boxes_of(found).astype(np.float64)
    sides = np.sort(boxes[:, 2:] - boxes[:, :2], axis=1)
    short, long_ = float(np.median(sides[:, 0])), float(np.median(sides[:, 1]))
    scale = size / max(h, w)
    if short * scale >= config.zoom_below:
        return None
    margin = config.zoom_margin * long_
    x1, y1 = boxes[:, 0].min() - margin, boxes[:, 1].min() - margin
    x2, y2 = boxes[:, 2].max() + margin, boxes[:, 3].max() + margin
    side = max(x2 - x1, y2 - y1, size * short / config.zoom_target)
    if size / side < config.zoom_min_gain * scale:
        return None
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half_w, half_h = min(side, w) / 2, min(side, h) / 2
    cx, cy = min(max(cx, half_w), w - half_w), min(max(cy, half_h), h - half_h)
    return (int(cx - half_w), int(cy - half_h), int(round(cx + half_w)), int(round(cy + half_h)))
