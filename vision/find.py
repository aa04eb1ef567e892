"""Find: the finder over a frame -> located tiles (boxes in frame pixels, strongest first).

Takes a BGR frame; gives ``Located``: the tiles found at ``detect_threshold`` and the finder's
view they came from, which later stages ask again for weaker peaks. Where too few tiles are found
to be a hand seen whole, the frame is looked at again shrunk (``Finder.close_up``); where they are
larger than the finder learned (a close-up of several tiles, whose prints it boxes), it is read
shrunk until they are as large as its usual ones (``Finder.locate``). Where a close-up finder
ships, it takes every look at a frame seen close.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.boxes import boxes_of, inside, nested
from vision.config import VisionConfig
from vision.postprocess import Candidate, decode_finder, nms
from vision.preprocess import Letterbox, letterbox, to_nchw
from vision.session import ModelSession

CANVAS_STEP = 32  # a canvas side is a multiple of the finder's coarsest stride
# A frame shrunk below the finder's view is read with this much grey around it: the finder sees a
# tile filling the frame only with context (the demo hand's tiles cut tight, enlarged, at a
# fifth: 13 of 14 found with 96 px, 4 with 16)
CANVAS_MARGIN = 96
# A frame widened to its tiles' proportions (a 16:9 camera's squeezed to a square, widened back) is
# seen with one coarsest stride of grey around it, not on the square, which it left 44 % grey
WIDENED_MARGIN = CANVAS_STEP
# a close-up look's box this share inside a larger one is that tile's print
CLOSE_UP_NESTED = 0.8
# how surely the classifier reads the boxes of a frame as tiles (``Classifier.sureness``)
Sureness = Callable[[np.ndarray, Sequence[Candidate]], float]


@dataclass(frozen=True)
class FinderView:
    """Finder maps over a frame."""

    maps: np.ndarray
    letterbox: Letterbox
    shape: tuple[int, ...]  # the image the finder saw: height, width

    def peaks(self, threshold: float, nms_iou: float) -> list[Candidate]:
        h, w = self.shape[:2]
        return decode_finder(self.maps, self.letterbox, (w, h), threshold, nms_iou)


# one frame's looks shrunk, by how much: each is taken once (``Finder.shrunk``)
Looks = dict[float, FinderView]


@dataclass(frozen=True)
class Located:
    """The tiles the finder located in a frame and the view of it they came from."""

    view: FinderView
    found: tuple[Candidate, ...]
    close: bool = False  # found in the frame shrunk: tiles larger than the finder learned


@dataclass(frozen=True)
class Finder:
    """The finder model with the thresholds that pick tiles from its maps; ``near``, where one
    ships, the finder that looks at a frame seen close (shrunk: one or a few tiles filling it)."""

    session: ModelSession
    config: VisionConfig
    near: ModelSession | None = None

    @property
    def size(self) -> int:
        """The side of the square the finder sees (its card's input)."""
        return int(self.session.card["input"]["shape"][2])

    def input(self, image: np.ndarray) -> np.ndarray:
        """The finder's [1, 3, S, S] input for an image (letterboxed as its card says)."""
        return to_nchw(letterbox(image, self.size)[0])

    def look(
        self, image: np.ndarray, fill: float = 1.0, close: bool = False, widened: bool = False
    ) -> FinderView:
        """The finder's maps over an image, its long side ``fill`` of the finder's view: seen
        whole on the grey square it learned on (tiles at a frame's edge read better with that
        grey around them); shrunk, where the finder takes any size, on a canvas only as large
        as the image with ``CANVAS_MARGIN`` around it: the same scale, less work; ``widened``
        (a frame widened to its tiles' proportions), seen whole with ``WIDENED_MARGIN`` around
        it. ``close``: a look at a frame seen close, by the close-up finder where one ships."""
        session = self.near if close and self.near is not None else self.session
        side = self.size
        canvas = (side, side)
        if (fill < 1 or widened) and session.any_size:  # finders since session 24 take any size
            h, w = image.shape[:2]
            scale = side * fill / max(h, w)
            margin = CANVAS_MARGIN if fill < 1 else WIDENED_MARGIN
            canvas = (_fitted(round(h * scale), side, margin),
                      _fitted(round(w * scale), side, margin))
        square, lb = letterbox(image, side, fill, canvas)
        return FinderView(session.run(to_nchw(square))[0], lb, image.shape[:2])

    def shrunk(self, frame_bgr: np.ndarray, shrink: float, seen: Looks | None = None) -> FinderView:
        """The close look at a frame shrunk to 1 / ``shrink`` of the finder's view; ``seen``
        keeps one frame's shrunk looks, so that none is taken twice."""
        seen = {} if seen is None else seen
        if shrink not in seen:
            seen[shrink] = self.look(frame_bgr, 1 / shrink, close=True)
        return seen[shrink]

    def tile_size(self, frame_bgr: np.ndarray, seen: Looks | None = None) -> float:
        """The median short side of the tiles, in the finder's view of the whole frame, as seen
        in the frame shrunk by the first of ``closeup_shrinks`` that shows some (a third, else a
        fifth): seen whole, a close-up's tiles are too large for the finder, which boxes their
        prints; 0: none seen."""
        cfg = self.config
        for shrink in cfg.closeup_shrinks:
            found = self.shrunk(frame_bgr, shrink, seen).peaks(cfg.detect_threshold, cfg.nms_iou)
            if found:
                return _short_side(found, frame_bgr, self.size)
        return 0.0

    def close_up(self, frame_bgr: np.ndarray, seen: Looks | None = None) -> Located | None:
        """The tiles of a frame seen close, or None: the frame shrunk to each of
        ``closeup_shrinks`` of the finder's view (a tile filling the frame, or held at a hand's
        length, is then as large as the tiles it learned), the views' boxes merged."""
        views = [self.shrunk(frame_bgr, k, seen) for k in self.config.closeup_shrinks]
        found = _merged(views, self.config)
        return Located(views[0], tuple(found), close=True) if found else None

    def locate(
        self, frame_bgr: np.ndarray, sureness: Sureness | None = None, widened: bool = False
    ) -> Located:
        """The tiles of a frame. Where the whole view finds fewer than a hand's (``closeup_below``)
        the frame is looked at shrunk (``close_up``). With ``sureness`` (the classifier's), so
        too where it finds fewer than ``closeup_prints_below``: the shrunk look is kept if most
        of the whole view's boxes lie in its tiles, two or more in each, and its tiles are read
        more surely than those boxes (tiles seen close and sharp, their prints boxed as tiles;
        not two narrow tiles of a squeezed frame boxed as one). Where it finds larger boxes than
        the finder's usual tiles (``closeup_target``: a close-up of several tiles, whose prints
        it boxes), the tiles are measured in the frame shrunk to a third, and if larger than any
        the finder learned (``closeup_above``), read in the frame shrunk until they are usual.
        ``widened``: the frame was widened to its tiles' proportions (``Finder.look``)."""
        cfg = self.config
        seen: Looks = {}
        whole = self.look(frame_bgr, widened=widened)
        found = whole.peaks(cfg.detect_threshold, cfg.nms_iou)
        if len(found) < cfg.closeup_below and cfg.closeup_shrinks:
            near = self.close_up(frame_bgr, seen)
            if near is not None:
                return near
            return Located(whole, tuple(found))
        if sureness is not None and len(found) < cfg.closeup_prints_below and cfg.closeup_shrinks:
            near = self.close_up(frame_bgr, seen)
            if (near is not None and _holds_prints(near.found, found)
                    and sureness(frame_bgr, near.found) > sureness(frame_bgr, found)):
                return near
        if cfg.closeup_above and _short_side(found, frame_bgr, self.size) > cfg.closeup_target:
            size = self.tile_size(frame_bgr, seen)
            if size > cfg.closeup_above:
                view = self.look(frame_bgr, cfg.closeup_target / size, close=True)
                close = view.peaks(cfg.detect_threshold, cfg.nms_iou)
                if close:
                    return Located(view, tuple(close), close=True)
            elif self.near is not None:  # larger than usual, as large as learned: seen close
                view = self.look(frame_bgr, close=True, widened=widened)
                near = view.peaks(cfg.detect_threshold, cfg.nms_iou)
                if near:
                    return Located(view, tuple(near))
        return Located(whole, tuple(found))


def _holds_prints(tiles: Sequence[Candidate], found: Sequence[Candidate]) -> bool:
    """Whether most of the whole look's boxes (``found``) lie inside tiles of a shrunk look that
    hold two or more each: those boxes are the prints of tiles seen close. (Where a shrunk look
    boxes two tiles of a hand as one, only those two lie in it, a few of the hand's.)"""
    if not tiles or len(found) < 2:
        return False
    held = inside(boxes_of(list(found)), boxes_of(list(tiles)), CLOSE_UP_NESTED)
    holders = held.sum(axis=0) >= 2
    return 2 * int(held[:, holders].any(axis=1).sum()) > len(found)


def _fitted(need: int, most: int, margin: int) -> int:
    """A canvas side: ``need`` pixels and ``margin`` each side, rounded up to the finder's
    stride, at most ``most``."""
    return min(most, math.ceil((need + 2 * margin) / CANVAS_STEP) * CANVAS_STEP)


def _short_side(found: list[Candidate], frame_bgr: np.ndarray, view: int) -> float:
    """The median short side of boxes in frame pixels, in the finder's view of the whole frame."""
    sides = [min(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in found]
    return float(np.median(sides)) * view / max(frame_bgr.shape[:2]) if sides else 0.0


def _merged(views: Sequence[FinderView], config: VisionConfig) -> list[Candidate]:
    """The peaks of every view, the stronger of two overlapping boxes kept."""
    found = [c for v in views for c in v.peaks(config.detect_threshold, config.nms_iou)]
    if not found:
        return []
    scores = np.array([c.score for c in found])
    boxes = boxes_of(found).astype(np.float64)
    kept = nms(boxes, scores, config.nms_iou)
    # seen close, a tile's print is boxed again on its own, inside the tile's box
    inner = nested(boxes[kept], CLOSE_UP_NESTED).any(axis=1)
    return [found[i] for i, drop in zip(kept, inner, strict=True) if not drop]
