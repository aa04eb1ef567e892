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
from vision.layout import TilePose, group_tiles, kind_of, rename_melds, row_angle
from vision.postprocess import Candidate, decode_finder, iou, softmax, top_labels
from vision.preprocess import Letterbox, crop_tiles, letterbox, to_nchw, turned_squares
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
            ModelSession.load(folder / FINDER_FILE, cfg.threads),
            ModelSession.load(folder / CLASSIFIER_FILE, cfg.threads),
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

    def classify(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, turn: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Stage 2: [N, 38] class probabilities for the boxes (unsure ones half-turn averaged) and,
        when the classifier has the head, [N] probabilities that the glyph stands vertical in
        its crop; with ``turn`` (radians, see ``crop_turn``), that crop is turned by it (the
        labels are still read on crops as the boxes lie: on `valid` those read one tile more
        right)."""
        if len(boxes) == 0:
            return np.zeros((0, len(MODEL_CLASSES)), np.float32), None
        size = int(self.classifier.card["input"]["shape"][2])
        pad = float(self.classifier.card["input"]["crop"]["pad"])
        n = len(boxes)
        batch = to_nchw(crop_tiles(frame_bgr, boxes, size, pad))
        if turn:  # labels from the crops as the boxes lie, the glyph's axis from level ones
            squares = turned_squares(boxes, self.config.turned_crop_side)
            level = to_nchw(crop_tiles(frame_bgr, squares, size, pad, math.degrees(turn)))
            batch = np.concatenate([batch, level])
        outs = self.classifier.run_all(batch)
        probs = softmax(outs[0][:n])
        trained_axis = len(outs) > 1 and "axis" in self.classifier.card.get("outputs", {})
        axis = softmax(outs[1][-n:])[:, 0] if trained_axis else None
        unsure = np.flatnonzero(probs.max(axis=1) < self.config.flip_below)
        if self.config.test_time_flip and len(unsure):
            # a half turn keeps the glyph axis; on the tuning scenes the sure 93 % never changed
            flipped = self.classifier.run_all(batch[unsure, :, ::-1, ::-1].copy())
            probs[unsure] = (probs[unsure] + softmax(flipped[0])) / 2
            if axis is not None and not turn:
                axis[unsure] = (axis[unsure] + softmax(flipped[1])[:, 0]) / 2
        return probs, axis

    def read(self, frame_bgr: np.ndarray, complete: CompleteCheck | None = None) -> Reading:
        """Read every tile of a BGR frame and group them; ``complete`` is the kiosk's optional
        winning-shape check used by the decoder."""
        h, w = frame_bgr.shape[:2]
        cfg = self.config
        view, found = self._view(frame_bgr)
        found = split_stacks(found, cfg)
        found = without_slivers(found, (h, w), cfg)
        boxes = _boxes(found)
        turn = crop_turn(found, cfg)
        tiles = _Tiles(found, *self.classify(frame_bgr, boxes, turn), turn)
        if cfg.back_recovery_heat < cfg.detect_threshold and len(found):
            # weaker peaks overlapping no located tile may be a closed kan's missed back or an
            # added kan's missed stacked tile
            weak = [
                c
                for c in view.peaks(cfg.back_recovery_heat, cfg.nms_iou)
                if iou(np.array([c.box]), boxes.astype(np.float64)).max() < cfg.nms_iou / 2
            ]
            if weak:
                more = _Tiles(weak, *self.classify(frame_bgr, _boxes(weak), turn), turn)
                both = np.concatenate([tiles.probs, more.probs])
                keep = set(recovered_backs(found, weak, both, cfg))
                keep |= set(recovered_stacks(found, weak, both, cfg))
                tiles = tiles.plus(more, sorted(keep))
        reading = tiles.assemble(cfg, (w, h), complete)
        # a pon whose called tile lies visibly sideways may be an added kan whose stacked tile
        # the finder missed: look where it would lie, and read again if it is there
        located = _boxes(reading.tiles).astype(np.float64)
        probes = [
            (meld, kind, c)
            for meld, kind, c in kakan_probes(reading)
            if iou(np.array([c.box]), located).max() < cfg.nms_iou
        ]
        if not probes:
            return reading
        spots = [c for _, _, c in probes]
        more = _Tiles(spots, *self.classify(frame_bgr, _boxes(spots), turn), turn)
        best: dict[int, int] = {}  # meld -> its likeliest probe read as the meld's kind
        for k, (meld, kind, _) in enumerate(probes):
            top = int(more.probs[k].argmax())
            sure = more.probs[k, top] >= cfg.stack_recovery_prob
            if sure and kind_of(MODEL_CLASSES[top]) == kind:
                if meld not in best or more.probs[k, top] > more.probs[best[meld]].max():
                    best[meld] = k
        if not best:
            return reading
        return tiles.plus(more, sorted(best.values())).assemble(cfg, (w, h), complete)


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


def kakan_probes(reading: Reading) -> list[tuple[int, str, Candidate]]:
    """Where a pon's called tile would have an added tile stacked on it if the meld were an
    added kan the finder half missed: (meld index, the meld's kind, a box) for the called tile's
    box moved one tile width across the row to either side. Only for a called tile whose box
    lies longer along the row than its meld's others, in rows near a frame axis; never a White
    dragon, whose blank face an empty patch of table resembles."""
    probes: list[tuple[int, str, Candidate]] = []
    for n, meld in enumerate(reading.grouping.melds):
        if meld.kind != MeldKind.PON or meld.called is None:
            continue
        called = reading.tiles[meld.called]
        kind = kind_of(called.label)
        others = [reading.tiles[t].box for t in meld.tiles if t != meld.called]
        if kind == "5z" or len(others) != 2:
            continue
        (ax, ay), (bx, by) = (((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in others)
        angle = math.atan2(by - ay, bx - ax) % math.pi
        along_x = _along_x(angle)
        if along_x is None:
            continue
        width = float(np.median([b[2] - b[0] if along_x else b[3] - b[1] for b in others]))
        x1, y1, x2, y2 = called.box
        if (x2 - x1 if along_x else y2 - y1) < 1.05 * width:
            continue  # not visibly lying sideways: the grammar's guess, no sign of a kan
        for side in (-1, 1):
            dx, dy = (0.0, side * width) if along_x else (side * width, 0.0)
            box = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
            probes.append((n, kind, Candidate(box, called.detection_score / 2, angle, 1.0)))
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


def split_stacks(found: list[Candidate], config: VisionConfig) -> list[Candidate]:
    """Boxes that span an added kan's two stacked sideways tiles, each cut in two across the row.

    The finder often boxes the stacked pair as one tile: longer along the row than its
    neighbours (4/3, a sideways tile's length) and across it (2 tile widths against an upright
    tile's 4/3). Sizes are compared with the four nearest boxes, so perspective (near tiles
    larger) does not count; only rows within 15 degrees of a frame axis, where a box's sides
    measure along and across the row; and only boxes with two of those neighbours beside them
    in the row (not in a heap of loose tiles)."""
    if config.stack_split <= 0 or len(found) < 5:
        return found
    angle = row_angle([TilePose(c.box, c.angle, c.orientation_strength, False) for c in found])
    row_along_x = _along_x(angle)
    if row_along_x is None:
        return found
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
    out: list[Candidate] = []
    for c, split in zip(found, cut, strict=True):
        if not split:
            out.append(c)
            continue
        x1, y1, x2, y2 = c.box
        halves = (
            [(x1, y1, x2, (y1 + y2) / 2), (x1, (y1 + y2) / 2, x2, y2)]
            if row_along_x
            else [(x1, y1, (x1 + x2) / 2, y2), ((x1 + x2) / 2, y1, x2, y2)]
        )
        out.extend(replace(c, box=b, angle=angle % math.pi) for b in halves)
    return out


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
