"""The pipeline: find tiles, classify crops, lay them out, decode a legal hand -> Reading.

``Recogniser.load(models_dir)`` checks and warms both models once; ``read(frame)`` keeps no
per-frame state, so one recogniser may serve every request.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.config import VisionConfig
from vision.decode import CompleteCheck, decode
from vision.layout import TilePose, gap_problem, group_tiles, kind_of, rename_melds, row_angle
from vision.postprocess import Candidate, decode_finder, iou, softmax, top_labels
from vision.preprocess import (
    Letterbox,
    crop_tiles,
    letterbox,
    to_nchw,
    turned_region,
    turned_squares,
)
from vision.reading import DetectedTile, Grouping, MeldKind, MeldReading, Reading
from vision.session import ModelSession

FINDER_FILE = "tile_finder.onnx"
CLASSIFIER_FILE = "tile_classifier.onnx"


def default_models_dir() -> Path:
    """``models/`` at the repository root (beside the ``vision`` package)."""
    return Path(__file__).resolve().parents[1] / "models"


@dataclass(frozen=True)
class Recogniser:
    """Both checked model sessions plus the thresholds."""

    finder: ModelSession
    classifier: ModelSession
    config: VisionConfig = field(default_factory=VisionConfig)

    @classmethod
    def load(
        cls, models_dir: Path | str | None = None, config: VisionConfig | None = None
    ) -> Recogniser:
        """Load ``tile_finder.onnx`` and ``tile_classifier.onnx`` (+ cards) from ``models_dir``."""
        folder = Path(models_dir) if models_dir else default_models_dir()
        cfg = config or VisionConfig()
        return cls(
            ModelSession.load(folder / FINDER_FILE, cfg.threads, reference=cfg.reference_kernels),
            ModelSession.load(
                folder / CLASSIFIER_FILE, cfg.threads, reference=cfg.reference_kernels
            ),
            cfg,
        )

    def find(self, frame_bgr: np.ndarray) -> list[Candidate]:
        """Stage 1: located tiles (boxes in image pixels), strongest first."""
        return self._view(frame_bgr)[1]

    def _view(self, frame_bgr: np.ndarray) -> tuple[_FinderView, list[Candidate]]:
        """The finder's maps for the frame, or for the part of it where small tiles lie (a
        hand far from the camera is found again, magnified, in a crop around the first pass's
        tiles; the crops for the classifier are cut from the frame itself either way), and
        the tiles they locate."""
        cfg = self.config
        size = int(self.finder.card["input"]["shape"][2])
        whole = self._run_finder(frame_bgr, size, (0, 0))
        found = whole.peaks(cfg.detect_threshold, cfg.nms_iou)
        region = zoom_region(found, frame_bgr.shape[:2], size, cfg)
        if region is None:
            return whole, found
        x1, y1, x2, y2 = region
        zoomed = self._run_finder(frame_bgr[y1:y2, x1:x2], size, (x1, y1))
        return zoomed, zoomed.peaks(cfg.detect_threshold, cfg.nms_iou)

    def _run_finder(self, image: np.ndarray, size: int, offset: tuple[int, int]) -> _FinderView:
        square, lb = letterbox(image, size)
        return _FinderView(self.finder.run(to_nchw(square))[0], lb, image.shape[:2], offset)

    def finder_input(self, image: np.ndarray) -> np.ndarray:
        """The finder's [1, 3, S, S] input for a whole frame (letterboxed as its card says)."""
        return to_nchw(letterbox(image, int(self.finder.card["input"]["shape"][2]))[0])

    def classifier_input(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, angle: float = 0.0
    ) -> np.ndarray:
        """The classifier's [N, 3, S, S] crops of the boxes (size and padding from its card),
        turned ``angle`` degrees about each box's centre."""
        crop = self.classifier.card["input"]
        size, pad = int(crop["shape"][2]), float(crop["crop"]["pad"])
        return to_nchw(crop_tiles(frame_bgr, boxes, size, pad, angle))

    def classify(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, turn: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """Stage 2: [N, 38] class probabilities for the boxes (unsure ones half-turn averaged);
        when the classifier has the heads, [N] probabilities that the glyph stands vertical in
        its crop and [N] that the crop holds a tile at all (else None). With ``turn`` (radians,
        see ``crop_turn``), the glyph-axis crop is turned by it (the labels are still read on
        crops as the boxes lie: on `valid` those read one tile more right)."""
        if len(boxes) == 0:
            return np.zeros((0, len(MODEL_CLASSES)), np.float32), None, None
        n = len(boxes)
        batch = self.classifier_input(frame_bgr, boxes)
        if turn:  # labels from the crops as the boxes lie, the glyph's axis from level ones
            squares = turned_squares(boxes, self.config.turned_crop_side)
            level = self.classifier_input(frame_bgr, squares, math.degrees(turn))
            batch = np.concatenate([batch, level])
        outs = self.classifier.run_all(batch)
        probs = softmax(outs[0][:n])
        heads = self.classifier.card.get("outputs", {})
        axis = softmax(outs[1][-n:])[:, 0] if len(outs) > 1 and "axis" in heads else None
        tile = 1 / (1 + np.exp(-outs[2][:n, 0])) if len(outs) > 2 and "tile" in heads else None
        unsure = np.flatnonzero(probs.max(axis=1) < self.config.flip_below)
        if self.config.test_time_flip and len(unsure):
            # a half turn keeps the glyph axis; on the tuning scenes the sure 93 % never changed
            flipped = self.classifier.run_all(batch[unsure, :, ::-1, ::-1].copy())
            probs[unsure] = (probs[unsure] + softmax(flipped[0])) / 2
            if axis is not None and not turn:
                axis[unsure] = (axis[unsure] + softmax(flipped[1])[:, 0]) / 2
        return probs, axis, tile

    def _tiles(self, frame_bgr: np.ndarray, found: list[Candidate], turn: float) -> _Tiles:
        """The candidates classified, but those the tile head calls no tile (a finger, a point
        stick's end, a patch of table: below ``no_tile_below``)."""
        probs, vertical, tile = self.classify(frame_bgr, _boxes(found), turn)
        tiles = _Tiles(found, probs, vertical, turn)
        if tile is None:
            return tiles
        return tiles.only(np.flatnonzero(tile >= self.config.no_tile_below).tolist())

    def read(self, frame_bgr: np.ndarray, complete: CompleteCheck | None = None) -> Reading:
        """Read every tile of a BGR frame and group them; ``complete`` is the kiosk's optional
        winning-shape check used by the decoder."""
        return self._read(frame_bgr, complete, level=True)

    def _read(self, frame_bgr: np.ndarray, complete: CompleteCheck | None, level: bool) -> Reading:
        """``read``; with ``level``, a frame whose row runs steeply (``level_region``) and
        whose reading has a problem with its tiles (not only with the gaps between them: a photo
        of tiles not laid out as a win always has those) is read again turned level with the
        row, and the reading with fewer problems kept."""
        h, w = frame_bgr.shape[:2]
        cfg = self.config
        view, found = self._view(frame_bgr)
        steep = level_region(found, frame_bgr.shape[:2], cfg) if level else None
        found = self._split_stacks(frame_bgr, found)
        found = without_slivers(found, (h, w), cfg)
        turn = crop_turn(found, cfg)
        tiles = self._tiles(frame_bgr, found, turn)
        found, boxes = tiles.found, _boxes(tiles.found)
        if cfg.back_recovery_heat < cfg.detect_threshold and len(found):
            # weaker peaks overlapping no located tile may be a closed kan's missed back or an
            # added kan's missed stacked tile
            weak = [
                c
                for c in view.peaks(cfg.back_recovery_heat, cfg.nms_iou)
                if iou(np.array([c.box]), boxes.astype(np.float64)).max() < cfg.nms_iou / 2
            ]
            more = self._tiles(frame_bgr, weak, turn)
            weak = more.found
            if weak:
                both = np.concatenate([tiles.probs, more.probs])
                keep = set(recovered_backs(found, weak, both, cfg))
                keep |= set(recovered_stacks(found, weak, both, cfg))
                tiles = tiles.plus(more, sorted(keep))
        reading = tiles.assemble(cfg, (w, h), complete)
        reading = self._with_stacked_tiles(frame_bgr, reading, tiles, complete)
        if steep is None or all(gap_problem(p) for p in reading.problems):
            return reading
        levelled = self._read_levelled(frame_bgr, complete, *steep)
        return levelled if len(levelled.problems) < len(reading.problems) else reading

    def _read_levelled(
        self,
        frame_bgr: np.ndarray,
        complete: CompleteCheck | None,
        region: tuple[int, int, int, int],
        turn: float,
    ) -> Reading:
        """The frame's ``region`` read turned ``turn`` radians, its row then level (a tile of a
        row at 45 degrees is read better where it lies level: its frame box holds half its
        neighbours), the tiles' boxes mapped back to frame pixels."""
        canvas, back = turned_region(frame_bgr, region, turn)
        inner = self._read(canvas, complete, level=False)
        tiles = tuple(replace(t, box=framed_box(t.box, back)) for t in inner.tiles)
        h, w = frame_bgr.shape[:2]
        return Reading(tiles, inner.grouping, inner.problems, (w, h))

    def _split_stacks(self, frame_bgr: np.ndarray, found: list[Candidate]) -> list[Candidate]:
        """``stack_cuts``, made where the halves' crops read as one kind (``checked_cuts``)."""
        cuts = stack_cuts(found, self.config)
        if not cuts:
            return found
        probs = self.classify(frame_bgr, _boxes([h for _, pair in cuts for h in pair]))[0]
        labels = [MODEL_CLASSES[int(j)] for j in probs.argmax(axis=1)]
        return checked_cuts(found, cuts, labels, self.config.nms_iou)

    def _with_stacked_tiles(
        self, frame_bgr: np.ndarray, reading: Reading, tiles: _Tiles, complete: CompleteCheck | None
    ) -> Reading:
        """The reading again with the stacked tile of each pon that is an added kan whose pair
        the first pass missed or boxed as one: found by the finder looking again at the pons,
        else by probing beside their called tiles."""
        look = self._pon_look(frame_bgr, reading)
        if look is None:
            return reading
        more, add, replaced = self._stacks_found_again(frame_bgr, reading, tiles.turn, look)
        if not add:
            more, add, replaced = self._stacks_probed(frame_bgr, reading, tiles.turn, look)
        if not add:
            return reading
        gone = {reading.tiles[i].box for i in replaced}
        drop = [k for k, c in enumerate(tiles.found) if c.box in gone]
        h, w = frame_bgr.shape[:2]
        return tiles.without(drop).plus(more, add).assemble(self.config, (w, h), complete)

    def _pon_look(self, frame_bgr: np.ndarray, reading: Reading) -> PonLook | None:
        """The finder again, magnified, on a crop around the pons, turned level with their row
        when it slants (``level_turn``: the boxes of a pair stacked across a slanted row overlap
        so much that they merge into one), down to ``back_recovery_heat``; None without pons."""
        cfg = self.config
        if cfg.stack_zoom_margin <= 0:
            return None
        region = pon_region(reading, frame_bgr.shape[:2], cfg.stack_zoom_margin)
        if region is None:
            return None
        size = int(self.finder.card["input"]["shape"][2])
        level = level_turn(reading, cfg.stack_level_from)  # 0: the plain crop
        canvas, back = turned_region(frame_bgr, region, level)
        found = self._run_finder(canvas, size, (0, 0)).peaks(cfg.back_recovery_heat, cfg.nms_iou)
        return PonLook(canvas, back, level, found)

    def _stacks_found_again(
        self, frame_bgr: np.ndarray, reading: Reading, turn: float, look: PonLook
    ) -> tuple[_Tiles, list[int], list[int]]:
        """The boxes the second look found beside the pons' called tiles, read; those to add;
        the reading's tiles they replace (see ``stacked_pairs``). On a turned canvas their
        labels are read there, where they lie level (at 45 degrees a box in the frame holds
        half its neighbours too)."""
        peaks = [look.in_frame(c) for c in look.found]
        near = beside_called_tiles(reading, peaks, self.config.nms_iou)
        spots = [peaks[k] for k in near]
        more = self._tiles(frame_bgr, spots, turn)
        if look.level and more.found:
            kept = [near[spots.index(c)] for c in more.found]
            level = self.classify(look.canvas, _boxes([look.found[k] for k in kept]))[0]
            more = replace(more, probs=level)
        return (more, *stacked_pairs(reading, more.found, more.probs, self.config))

    def _stacks_probed(
        self, frame_bgr: np.ndarray, reading: Reading, turn: float, look: PonLook
    ) -> tuple[_Tiles, list[int], list[int]]:
        """Crops one tile width across the row from each pon's visibly sideways called tile
        (``kakan_probes``): (them, read; for each pon the likeliest read as its kind; none
        replaced). Where the finder sees nothing even magnified, this still finds some. Placed
        with the reading's boxes where the pons' row lies within 15 degrees of a frame axis (a
        box's sides then measure along and across it), else with the second look's boxes on
        its level canvas (an axis-aligned box of a slanted tile spans its neighbours too)."""
        cfg = self.config
        slanted = _along_x(look.level) is None
        boxes = (
            look.level_boxes(reading, cfg.nms_iou) if slanted else [t.box for t in reading.tiles]
        )
        placed = np.array([b for b in boxes if b is not None], np.float64).reshape(-1, 4)
        probes = [
            (meld, kind, c)
            for meld, kind, c in kakan_probes(reading, boxes)
            if not len(placed) or iou(np.array([c.box]), placed).max() < cfg.nms_iou
        ]
        # no tile-head check: a probe's box is the called tile's moved, not a box the finder
        # drew, and being read as the pon's kind (p >= 0.7) already says a tile lies there
        spots = [look.in_frame(c) if slanted else c for _, _, c in probes]
        probs, vertical, _ = self.classify(frame_bgr, _boxes(spots), turn)
        if slanted and probes:  # read where they lie level, as the second look's boxes
            probs = self.classify(look.canvas, _boxes([c for _, _, c in probes]))[0]
        more = _Tiles(spots, probs, vertical, turn)
        best: dict[int, int] = {}  # meld -> its likeliest probe read as the meld's kind
        for k, (meld, kind, _) in enumerate(probes):
            top = int(probs[k].argmax())
            if probs[k, top] >= cfg.stack_recovery_prob and kind_of(MODEL_CLASSES[top]) == kind:
                if meld not in best or probs[k, top] > probs[best[meld]].max():
                    best[meld] = k
        return more, sorted(best.values()), []


@dataclass(frozen=True)
class PonLook:
    """The finder's second look at the pons: the crop around them turned level with their row
    (``canvas``), the 2x3 affine mapping canvas pixels back to the frame's, the turn (radians)
    and the boxes found on the canvas (canvas pixels)."""

    canvas: np.ndarray
    back: np.ndarray
    level: float
    found: list[Candidate]

    def in_frame(self, c: Candidate) -> Candidate:
        return turned_back(c, self.back, self.level)

    def level_boxes(self, reading: Reading, min_iou: float) -> list[tuple[float, ...] | None]:
        """Each of the reading's tiles as boxed on the canvas, where it lies level: the found
        box whose frame box overlaps the tile's most, by at least ``min_iou``; else None."""
        if not self.found or not reading.tiles:
            return [None] * len(reading.tiles)
        framed = _boxes([self.in_frame(c) for c in self.found]).astype(np.float64)
        overlap = iou(_boxes(reading.tiles).astype(np.float64), framed)
        best = overlap.argmax(axis=1)
        return [
            self.found[int(j)].box if overlap[i, j] >= min_iou else None for i, j in enumerate(best)
        ]


def _boxes(items: Sequence[Any]) -> np.ndarray:
    """[N, 4] float32 boxes of candidates or detected tiles."""
    return np.array([x.box for x in items], np.float32).reshape(-1, 4)


@dataclass(frozen=True)
class _Tiles:
    """Located tiles with their class probabilities and glyph-axis chances, in one order."""

    found: list[Candidate]
    probs: np.ndarray
    vertical: np.ndarray | None
    turn: float  # radians every crop was turned by

    def plus(self, more: _Tiles, keep: list[int]) -> _Tiles:
        """These tiles and the ``keep`` ones of ``more`` (cut with the same turn)."""
        assert more.turn == self.turn
        vertical = None
        if self.vertical is not None and more.vertical is not None:
            vertical = np.concatenate([self.vertical, more.vertical[keep]])
        found = self.found + [more.found[k] for k in keep]
        return _Tiles(found, np.concatenate([self.probs, more.probs[keep]]), vertical, self.turn)

    def only(self, keep: list[int]) -> _Tiles:
        """The ``keep`` ones of these tiles."""
        vertical = None if self.vertical is None else self.vertical[keep]
        return _Tiles([self.found[k] for k in keep], self.probs[keep], vertical, self.turn)

    def without(self, drop: list[int]) -> _Tiles:
        """These tiles but the ``drop`` ones."""
        return self.only([k for k in range(len(self.found)) if k not in set(drop)])

    def assemble(
        self, config: VisionConfig, image_size: tuple[int, int], complete: CompleteCheck | None
    ) -> Reading:
        return assemble(
            self.found, self.probs, config, image_size, complete, self.vertical, self.turn
        )


@dataclass(frozen=True)
class _FinderView:
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


def level_region(
    found: list[Candidate], frame_shape: tuple[int, ...], config: VisionConfig
) -> tuple[tuple[int, int, int, int], float] | None:
    """Where the row runs further than ``level_from`` degrees off a frame axis (and at least
    ``level_on_line`` of the tiles lie on its line: a heap or a grid has no row to level): a
    square around the tiles found (``zoom_margin`` tile lengths beyond them) and the turn
    (radians, counter-clockwise) that lays the row level; else None."""
    if config.level_from <= 0 or len(found) < 2:
        return None
    angle = row_angle([TilePose(c.box, c.angle, c.orientation_strength, False) for c in found])
    turn = (angle + math.pi / 4) % (math.pi / 2) - math.pi / 4
    if abs(math.degrees(turn)) <= config.level_from:
        return None
    boxes = _boxes(found).astype(np.float64)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    across = centres @ np.array([-math.sin(angle), math.cos(angle)])
    short = float(np.median((boxes[:, 2:] - boxes[:, :2]).min(axis=1)))
    if np.mean(np.abs(across - np.median(across)) < 0.5 * short) < config.level_on_line:
        return None
    margin = config.zoom_margin * float(np.median((boxes[:, 2:] - boxes[:, :2]).max(axis=1)))
    region = square_around(boxes, margin, frame_shape)
    return (region, turn) if region is not None else None


def zoom_region(
    found: list[Candidate], frame_shape: tuple[int, ...], size: int, config: VisionConfig
) -> tuple[int, int, int, int] | None:
    """The part of the frame to find tiles in again, magnified, or None: when the tiles found
    are smaller than ``zoom_below`` finder pixels (short side, median) and a box around them
    (a margin of ``zoom_margin`` tile lengths) lets the finder see them at least
    ``zoom_min_gain`` times larger; never magnified past ``zoom_target`` pixels a tile."""
    if not found or config.zoom_below <= 0:
        return None
    h, w = frame_shape[:2]
    boxes = _boxes(found).astype(np.float64)
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


def without_slivers(
    found: list[Candidate], frame_shape: tuple[int, ...], config: VisionConfig
) -> list[Candidate]:
    """Drop boxes far smaller than a tile: short or long side under ``min_tile_ratio`` of the
    median box's (a point stick's end, a sliver of table between tiles, which the classifier
    reads as the blank White dragon). Boxes at the frame's edge stay: a tile cut off there is
    still a tile."""
    if config.min_tile_ratio <= 0 or len(found) < 3:
        return found
    h, w = frame_shape[:2]
    boxes = _boxes(found).astype(np.float64)
    sides = np.sort(boxes[:, 2:] - boxes[:, :2], axis=1)
    small = (sides < config.min_tile_ratio * np.median(sides, axis=0)).any(axis=1)
    inside = (boxes[:, :2] > 1).all(axis=1) & (boxes[:, 2] < w - 1) & (boxes[:, 3] < h - 1)
    return [c for c, drop in zip(found, small & inside, strict=True) if not drop]


def _along_x(angle: float) -> bool | None:
    """Whether a row at ``angle`` runs along the frame's x axis (else its y axis), or None when
    it lies more than 15 degrees off both: only then do a box's sides measure along and across
    the row."""
    if min(angle % (math.pi / 2), -angle % (math.pi / 2)) > math.radians(15):
        return None
    return abs(math.cos(angle)) > math.sqrt(0.5)


@dataclass(frozen=True)
class _Pon:
    """A pon's called tile, where an added kan's stacked tile would lie beside it."""

    called: int  # index into the reading's tiles
    tiles: tuple[int, ...]  # the meld's, the called one among them
    kind: str  # red fives as fives
    centre: np.ndarray
    along: np.ndarray  # unit vector along the row
    length: float  # the called box's long side

    def near(self, box: tuple[float, ...]) -> bool:
        return float(np.hypot(*(_centre(box) - self.centre))) < 1.5 * self.length

    def across(self, a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        """Whether boxes a and b lie one beside the other across the row (further across than
        along it, and under half the called box's long side along it: a box found again on
        one of the pon's upright tiles lies diagonally from one beside the called tile), their
        centres between a quarter and 1.5 of that long side apart."""
        d = _centre(b) - _centre(a)
        run = self.run(a, b)
        across = abs(float(d[0] * self.along[1] - d[1] * self.along[0]))
        apart = float(np.hypot(*d))
        return (
            run < min(across, 0.5 * self.length) and 0.25 * self.length < apart < 1.5 * self.length
        )

    def run(self, a: tuple[float, ...], b: tuple[float, ...]) -> float:
        """How far apart along the row boxes a and b lie (their centres, pixels)."""
        return abs(float((_centre(b) - _centre(a)) @ self.along))


def _centre(box: tuple[float, ...]) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])


def _pons(reading: Reading) -> list[_Pon]:
    """The pons with a called tile; never of White dragons, whose blank face an empty patch of
    table resembles."""
    out = []
    for meld in reading.grouping.melds:
        if meld.kind != MeldKind.PON or meld.called is None:
            continue
        box = reading.tiles[meld.called].box
        kind = kind_of(reading.tiles[meld.called].label)
        others = [_centre(reading.tiles[t].box) for t in meld.tiles if t != meld.called]
        if kind == "5z" or len(others) != 2:
            continue
        along = others[1] - others[0]
        along /= max(float(np.hypot(*along)), 1e-9)
        length = max(box[2] - box[0], box[3] - box[1])
        out.append(_Pon(meld.called, meld.tiles, kind, _centre(box), along, length))
    return out


def level_turn(reading: Reading, level_from: float) -> float:
    """The turn (radians, counter-clockwise) that lays the pons' row along a frame axis, or 0
    when it lies within ``level_from`` degrees of one already."""
    pons = _pons(reading)
    if not pons:
        return 0.0
    quarter = 4 * np.array([math.atan2(p.along[1], p.along[0]) for p in pons])
    off = math.atan2(np.sin(quarter).sum(), np.cos(quarter).sum()) / 4
    return off if abs(math.degrees(off)) > level_from else 0.0


def turned_back(c: Candidate, back: np.ndarray, turn: float) -> Candidate:
    """A candidate found on a turned canvas, in frame pixels: its box mapped back
    (``framed_box``), its long axis turned back."""
    return replace(c, box=framed_box(c.box, back), angle=(c.angle + turn) % math.pi)


def framed_box(box: tuple[float, ...], back: np.ndarray) -> tuple[float, float, float, float]:
    """A box on a turned canvas in frame pixels: the box around its corners mapped back by the
    2x3 affine ``back``."""
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ back.T
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def pon_region(
    reading: Reading, frame_shape: tuple[int, ...], margin: float
) -> tuple[int, int, int, int] | None:
    """A square crop around every pon (``margin`` tile lengths beyond its tiles), where an added
    kan's stacked tile would lie; None without pons."""
    called = {p.called for p in _pons(reading)}
    melds = [m for m in reading.grouping.melds if m.called in called]
    if not melds:
        return None
    boxes = np.array([reading.tiles[t].box for m in melds for t in m.tiles], np.float64)
    length = float(np.median((boxes[:, 2:] - boxes[:, :2]).max(axis=1)))
    return square_around(boxes, margin * length, frame_shape)


def square_around(
    boxes: np.ndarray, margin: float, frame_shape: tuple[int, ...]
) -> tuple[int, int, int, int] | None:
    """The square about the boxes' centre holding them all and ``margin`` pixels beyond, cut at
    the frame's edges; None when nothing of it lies in the frame."""
    x1, y1 = boxes[:, :2].min(axis=0) - margin
    x2, y2 = boxes[:, 2:].max(axis=0) + margin
    h, w = frame_shape[:2]
    half = max(x2 - x1, y2 - y1) / 2
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    left, top = int(max(cx - half, 0)), int(max(cy - half, 0))
    right, bottom = int(round(min(cx + half, w))), int(round(min(cy + half, h)))
    return (left, top, right, bottom) if right > left and bottom > top else None


def _clear_of_others(reading: Reading, box: tuple[float, ...], pon: _Pon, nms_iou: float) -> bool:
    """Whether a box overlaps no located tile outside the pon (beyond ``nms_iou``)."""
    others = [t.box for i, t in enumerate(reading.tiles) if i not in pon.tiles]
    if not others:
        return True
    return bool(iou(np.array([box], np.float64), np.array(others, np.float64)).max() < nms_iou)


def _overlapped(
    reading: Reading, boxes: list[tuple[float, ...]], pon: _Pon, nms_iou: float
) -> list[int]:
    """The pon's tiles that any of ``boxes`` overlaps beyond ``nms_iou``."""
    mine = np.array([reading.tiles[t].box for t in pon.tiles], np.float64)
    hit = (iou(np.array(boxes, np.float64), mine) > nms_iou).any(axis=0)
    return [t for t, h in zip(pon.tiles, hit, strict=True) if h]


def beside_called_tiles(reading: Reading, spots: list[Candidate], nms_iou: float) -> list[int]:
    """Indices into ``spots`` worth reading as an added kan's tiles: near a pon's called tile
    and clear of every located tile outside the pon (one of the pon's own boxes may span the
    stacked pair)."""
    pons = _pons(reading)
    return [
        k
        for k, c in enumerate(spots)
        if any(p.near(c.box) and _clear_of_others(reading, c.box, p, nms_iou) for p in pons)
    ]


def stacked_pairs(
    reading: Reading, spots: list[Candidate], probs: np.ndarray, config: VisionConfig
) -> tuple[list[int], list[int]]:
    """The added kans among the pons: (indices into ``spots`` to add, indices into the reading's
    tiles they replace). Spots count when read as the pon's kind (p >= ``stack_recovery_prob``)
    near its called tile and clear of the tiles outside the pon. Two of them lying across the
    row from each other are the stacked pair and replace the pon's tiles they overlap, else its
    called tile (the first pass often boxes the pair as one, and the grammar may then have
    called another of the pon's tiles); else one lying across the row from the called tile,
    clear of the pon's tiles, is the added tile. Each pon takes its likeliest."""
    add: list[int] = []
    replaced: list[int] = []
    for pon in _pons(reading):
        called = reading.tiles[pon.called].box
        mine = [
            k
            for k, c in enumerate(spots)
            if probs[k].max() >= config.stack_recovery_prob
            and kind_of(MODEL_CLASSES[int(probs[k].argmax())]) == pon.kind
            and k not in add
            and pon.near(c.box)
            and _clear_of_others(reading, c.box, pon, config.nms_iou)
        ]
        pairs = [
            (a, b)
            for a in mine
            for b in mine
            if a < b
            and iou(np.array([spots[a].box]), np.array([spots[b].box]))[0, 0] < config.nms_iou
            and pon.across(spots[a].box, spots[b].box)
        ]
        if pairs:
            # the two lying most squarely across the row (a box found again on one of the
            # pon's upright tiles may pair, askew, with the stacked tile beside it too)
            a, b = min(pairs, key=lambda ab: pon.run(spots[ab[0]].box, spots[ab[1]].box))
            add.extend((a, b))
            hit = _overlapped(reading, [spots[a].box, spots[b].box], pon, config.nms_iou)
            replaced.extend(hit or [pon.called])
            continue
        alone = [
            k
            for k in mine
            if not _overlapped(reading, [spots[k].box], pon, config.nms_iou)
            and pon.across(called, spots[k].box)
        ]
        if alone:
            add.append(max(alone, key=lambda k: probs[k].max()))
    return sorted(add), replaced


def kakan_probes(
    reading: Reading, boxes: Sequence[tuple[float, ...] | None]
) -> list[tuple[int, str, Candidate]]:
    """Where a pon's called tile would have an added tile stacked on it if the meld were an
    added kan the finder half missed: (meld index, the meld's kind, a box) for the called tile's
    box moved one tile width across the row to either side. Only for a called tile whose box
    lies longer along the row than its meld's others, in rows near a frame axis; never a White
    dragon, whose blank face an empty patch of table resembles. ``boxes``: each tile's box in
    the pixels to probe in (None: unknown there, its meld is not probed)."""
    probes: list[tuple[int, str, Candidate]] = []
    for n, meld in enumerate(reading.grouping.melds):
        if meld.kind != MeldKind.PON or meld.called is None:
            continue
        called = reading.tiles[meld.called]
        kind = kind_of(called.label)
        others = [boxes[t] for t in meld.tiles if t != meld.called]
        box = boxes[meld.called]
        if kind == "5z" or len(others) != 2 or box is None or None in others:
            continue
        (ax, ay), (bx, by) = (((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in others)
        angle = math.atan2(by - ay, bx - ax) % math.pi
        along_x = _along_x(angle)
        if along_x is None:
            continue
        width = float(np.median([b[2] - b[0] if along_x else b[3] - b[1] for b in others]))
        x1, y1, x2, y2 = box
        if (x2 - x1 if along_x else y2 - y1) < 1.05 * width:
            continue  # not visibly lying sideways: the grammar's guess, no sign of a kan
        for side in (-1, 1):
            dx, dy = (0.0, side * width) if along_x else (side * width, 0.0)
            moved = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
            probes.append((n, kind, Candidate(moved, called.detection_score / 2, angle, 1.0)))
    return probes


def crop_turn(found: list[Candidate], config: VisionConfig) -> float:
    """The angle (radians) to turn every crop by: the row's when it runs further than
    ``turn_crops_from`` off a frame axis, so its tiles lie level in their crops (upright or
    sideways, which the glyph-axis head then tells), else 0 (crops as the boxes lie)."""
    if len(found) < 2:
        return 0.0
    angle = row_angle([TilePose(c.box, c.angle, c.orientation_strength, False) for c in found])
    quarter = angle % (math.pi / 2)
    off = math.degrees(min(quarter, math.pi / 2 - quarter))
    return angle if off > config.turn_crops_from else 0.0


def stack_cuts(
    found: list[Candidate], config: VisionConfig
) -> list[tuple[int, tuple[Candidate, Candidate]]]:
    """Boxes that may span an added kan's two stacked sideways tiles: (index into ``found``, the
    box's two halves across the row) for each.

    The finder often boxes the stacked pair as one tile: longer along the row than its
    neighbours (4/3, a sideways tile's length) and across it (2 tile widths against an upright
    tile's 4/3). Sizes are compared with the four nearest boxes, so perspective (near tiles
    larger) does not count; only rows within 15 degrees of a frame axis, where a box's sides
    measure along and across the row; and only boxes with two of those neighbours beside them
    in the row (not in a heap of loose tiles)."""
    if config.stack_split <= 0 or len(found) < 5:
        return []
    angle = row_angle([TilePose(c.box, c.angle, c.orientation_strength, False) for c in found])
    row_along_x = _along_x(angle)
    if row_along_x is None:
        return []
    boxes = _boxes(found).astype(np.float64)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    along, across = (w, h) if row_along_x else (h, w)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    dist = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1))
    near = np.argsort(dist, axis=1)[:, 1:5]  # the four nearest boxes of each
    across_near = np.median(across[near], axis=1)
    line = centres[:, 1] if row_along_x else centres[:, 0]
    in_row = (np.abs(line[near] - line[:, None]) < 0.5 * across_near[:, None]).sum(axis=1)
    cut = (
        (in_row >= 2)
        & (along >= 1.15 * np.median(along[near], axis=1))
        & (across >= config.stack_split * across_near)
    )
    out: list[tuple[int, tuple[Candidate, Candidate]]] = []
    for i in np.flatnonzero(cut).tolist():
        c = found[i]
        x1, y1, x2, y2 = c.box
        halves = (
            ((x1, y1, x2, (y1 + y2) / 2), (x1, (y1 + y2) / 2, x2, y2))
            if row_along_x
            else ((x1, y1, (x1 + x2) / 2, y2), ((x1 + x2) / 2, y1, x2, y2))
        )
        first, second = (replace(c, box=b, angle=angle % math.pi) for b in halves)
        out.append((i, (first, second)))
    return out


def checked_cuts(
    found: list[Candidate],
    cuts: list[tuple[int, tuple[Candidate, Candidate]]],
    labels: list[str],
    nms_iou: float,
) -> list[Candidate]:
    """The boxes with each of ``cuts`` made whose halves read as one kind (``labels``: the two
    halves' of each cut in turn, red fives as fives), a half overlapping another box by more
    than ``nms_iou`` left out. An added kan's two stacked tiles are one kind, while a lone tile
    seen large, cut in two, reads as two; and where the finder boxed one tile of the pair
    already, its box is the better one (cutting a box that spans the pair and half the other
    tile gave three)."""
    boxes = _boxes(found).astype(np.float64)
    made: dict[int, list[Candidate]] = {}
    for n, (i, pair) in enumerate(cuts):
        if kind_of(labels[2 * n]) != kind_of(labels[2 * n + 1]):
            continue
        others = np.delete(boxes, i, axis=0)
        made[i] = [
            h
            for h in pair
            if not len(others) or iou(np.array([h.box], np.float64), others).max() <= nms_iou
        ]
    return [h for i, c in enumerate(found) for h in made.get(i, [c])]


def recovered_backs(
    found: list[Candidate], weak: list[Candidate], probs: np.ndarray, config: VisionConfig
) -> list[int]:
    """Indices into ``weak`` of the weak peaks kept as face-down tiles: read as ``back`` with
    probability >= ``back_recovery_prob`` and lying next to a located face-down tile (the two
    backs of a closed kan are 3 tiles apart, so a missed one still has a back within 3.5 tile
    widths along the row). ``probs`` holds the found tiles' rows, then the weak peaks'."""
    back = MODEL_CLASSES.index("back")
    backs = [c.centre for c, p in zip(found, probs, strict=False) if int(p.argmax()) == back]
    if not backs or not weak:
        return []
    width = float(np.median([min(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in found]))
    keep = []
    for k, c in enumerate(weak):
        p = probs[len(found) + k]
        near = min(np.hypot(c.centre[0] - x, c.centre[1] - y) for x, y in backs)
        if p[back] >= config.back_recovery_prob and near <= 3.5 * width:
            keep.append(k)
    return keep


def assemble(
    found: list[Candidate],
    probs: np.ndarray,
    config: VisionConfig,
    image_size: tuple[int, int],
    complete: CompleteCheck | None = None,
    vertical: np.ndarray | None = None,
    turn: float = 0.0,
) -> Reading:
    """Pure post-processing from candidates + probabilities (and, when the classifier gives it,
    the chance each glyph stands vertical in its crop, turned by ``turn``) to a Reading."""
    choices = top_labels(probs, tuple(MODEL_CLASSES), max(1, config.alternatives + 1))
    top = [c[0][0] for c in choices]
    poses = [
        TilePose(
            c.box,
            c.angle,
            c.orientation_strength,
            lab == "back",
            None if vertical is None else float(vertical[i]),
            turn,
        )
        for i, (c, lab) in enumerate(zip(found, top, strict=True))
    ]
    layout = group_tiles(poses, top, config)
    decoded = decode(choices, layout.grouping, config, complete)
    grouping = rename_melds(layout.grouping, decoded.labels)
    tiles: list[DetectedTile] = []
    for i, c in enumerate(found):
        label = decoded.labels[i]
        conf = float(probs[i, MODEL_CLASSES.index(label)])
        alts = tuple((lab, q) for lab, q in choices[i] if lab != label)[: config.alternatives]
        tiles.append(
            DetectedTile(
                label,
                c.box,
                conf,
                alts,
                layout.sideways[i],
                label == "back",
                decoded.changed[i],
                c.score,
            )
        )
    problems = list(layout.problems) + list(decoded.problems)
    counted = len(grouping.concealed) + (grouping.winning is not None) + 3 * len(grouping.melds)
    if found and counted != 14:
        problems.insert(0, f"{counted} tiles in the hand (14 expected, each kan counted as 3)")
    return in_layout_order(Reading(tuple(tiles), grouping, tuple(problems), image_size))


def in_layout_order(reading: Reading) -> Reading:
    """Renumber tiles as laid out: concealed, winning tile, melds, dora row, the rest."""
    g = reading.grouping
    order = list(g.concealed) + ([g.winning] if g.winning is not None else [])
    order += [t for m in g.melds for t in m.tiles] + list(g.dora) + list(g.unassigned)
    order += [i for i in range(len(reading.tiles)) if i not in set(order)]
    new = {old: new for new, old in enumerate(order)}

    def remap(idx: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(new[i] for i in idx)

    melds = tuple(
        MeldReading(m.kind, remap(m.tiles), None if m.called is None else new[m.called])
        for m in g.melds
    )
    grouping = Grouping(
        remap(g.concealed),
        None if g.winning is None else new[g.winning],
        melds,
        remap(g.dora),
        remap(g.unassigned),
    )
    return Reading(
        tuple(reading.tiles[i] for i in order), grouping, reading.problems, reading.image_size
    )


def recovered_stacks(
    found: list[Candidate], weak: list[Candidate], probs: np.ndarray, config: VisionConfig
) -> list[int]:
    """Indices into ``weak`` of the weak peaks kept as the other tile of an added kan's stacked
    pair (the finder often sees only one of two tiles lying sideways one above the other): read
    with probability >= ``stack_recovery_prob`` as the same kind (red fives as fives) as a
    located tile within 1.3 tile widths. ``probs`` holds the found tiles' rows, then the weak
    peaks'."""
    if not found or not weak:
        return []
    kinds = [MODEL_CLASSES[int(j)].replace("0", "5", 1) for j in probs.argmax(axis=1)]
    width = float(np.median([min(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in found]))
    keep = []
    for k, c in enumerate(weak):
        row = probs[len(found) + k]
        if row.max() < config.stack_recovery_prob or kinds[len(found) + k] == "back":
            continue
        if any(
            kinds[j] == kinds[len(found) + k]
            and np.hypot(c.centre[0] - f.centre[0], c.centre[1] - f.centre[1]) <= 1.3 * width
            for j, f in enumerate(found)
        ):
            keep.append(k)
    return keep
