"""Refine: the located boxes made to hold one tile each, and the tiles the finder half missed.

Before classifying, a box spanning an added kan's two stacked tiles is cut in two where both
halves read as one kind (``split_stacks``), and boxes far smaller than a tile are dropped
(``without_slivers``). After classifying, the finder's weaker peaks that overlap no tile are
kept where they are a tile half seen beside a located one (``with_weak_peaks``), and boxes that
nest are no tile (``without_nested``). Each takes and gives located or labelled tiles, in frame
pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.boxes import along_x, boxes_of, halves, nearest, nested
from vision.classify import Classifier, LabelledTiles
from vision.config import VisionConfig
from vision.find import FinderView
from vision.kinds import kind_of
from vision.layout import found_row_angle
from vision.postprocess import Candidate, iou

SLIVER_NEIGHBOURS = 4  # a sliver is judged against the boxes around it


def without_slivers(
    found: Sequence[Candidate], frame_shape: tuple[int, ...], config: VisionConfig
) -> Sequence[Candidate]:
    """Drop boxes far smaller than a tile: short or long side under ``min_tile_ratio`` of the
    median of its ``SLIVER_NEIGHBOURS`` nearest boxes' (a point stick's end, a sliver of table
    between tiles, which the classifier reads as the blank White dragon). Near boxes, not all:
    on a real table, books or a box on a shelf behind the tiles are found as large "tiles", and
    a median over all of them made every real tile a sliver. Boxes at the frame's edge stay: a
    tile cut off there is still a tile."""
    if config.min_tile_ratio <= 0 or len(found) < 3:
        return found
    h, w = frame_shape[:2]
    boxes = boxes_of(found).astype(np.float64)
    sides = np.sort(boxes[:, 2:] - boxes[:, :2], axis=1)
    near = nearest(boxes, SLIVER_NEIGHBOURS)
    small = (sides < config.min_tile_ratio * np.median(sides[near], axis=1)).any(axis=1)
    inside = (boxes[:, :2] > 1).all(axis=1) & (boxes[:, 2] < w - 1) & (boxes[:, 3] < h - 1)
    return [c for c, drop in zip(found, small & inside, strict=True) if not drop]


def split_stacks(
    frame_bgr: np.ndarray, found: Sequence[Candidate], classifier: Classifier, config: VisionConfig
) -> Sequence[Candidate]:
    """``stack_cuts``, made where the halves' crops read as one kind (``checked_cuts``)."""
    cuts = stack_cuts(found, config)
    if not cuts:
        return found
    probs = classifier.classify(frame_bgr, boxes_of([h for _, pair in cuts for h in pair]))[0]
    labels = [MODEL_CLASSES[int(j)] for j in probs.argmax(axis=1)]
    return checked_cuts(found, cuts, labels, config.nms_iou)


def stack_cuts(
    found: Sequence[Candidate], config: VisionConfig
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
    angle = found_row_angle(found)
    row_along_x = along_x(angle)
    if row_along_x is None:
        return []
    boxes = boxes_of(found).astype(np.float64)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    along, across = (w, h) if row_along_x else (h, w)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    near = nearest(boxes, 4)
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
        c = found[i]  # the pair lies across the row: halves one above the other in a level row
        first, second = (
            replace(c, box=b, angle=angle % math.pi) for b in halves(c.box, not row_along_x)
        )
        out.append((i, (first, second)))
    return out


def checked_cuts(
    found: Sequence[Candidate],
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
    boxes = boxes_of(found).astype(np.float64)
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


def with_weak_peaks(
    frame_bgr: np.ndarray,
    tiles: LabelledTiles,
    view: FinderView,
    classifier: Classifier,
    config: VisionConfig,
) -> LabelledTiles:
    """The tiles and, of the finder's weaker peaks (down to ``back_recovery_heat``) that
    overlap none of them, those kept by ``recovered_in_row``."""
    found = tiles.found
    if not config.weak_peaks or config.back_recovery_heat >= config.detect_threshold:
        return tiles
    if not len(found):
        return tiles
    boxes = boxes_of(found).astype(np.float64)
    weak = [
        c
        for c in view.peaks(config.back_recovery_heat, config.nms_iou)
        if iou(np.array([c.box]), boxes).max() < config.nms_iou / 2
    ]
    weak = [weak[k] for k in worth_reading(found, weak, config)]
    if not weak:
        return tiles
    probs, opinion, vertical, tile = classifier.cascaded(frame_bgr, boxes_of(weak), tiles.turn,
                                                         config.row_recovery_tile)
    tile = np.ones(len(weak)) if tile is None else tile
    keep = recovered_in_row(found, weak, probs, tile, config)
    if not keep:
        return tiles
    return tiles.plus(LabelledTiles(tuple(weak), probs, vertical, tiles.turn, opinion), keep)


def distance_to(points: Sequence[tuple[float, float]], centre: tuple[float, float]) -> float:
    """How far ``centre`` lies from the nearest of ``points`` (inf when there are none)."""
    if not len(points):
        return math.inf
    return float(np.hypot(*(np.asarray(points, np.float64) - np.array(centre)).T).min())


def worth_reading(
    found: Sequence[Candidate], weak: Sequence[Candidate], config: VisionConfig
) -> list[int]:
    """Indices into ``weak`` of the peaks ``recovered_in_row`` could keep whatever their crops
    read (only those are classified)."""
    if not weak:
        return []
    sure = np.ones(len(weak))
    return recovered_in_row(found, weak, sure[:, None], sure, config)


def recovered_in_row(
    found: Sequence[Candidate],
    weak: Sequence[Candidate],
    probs: np.ndarray,
    tile: np.ndarray,
    config: VisionConfig,
) -> list[int]:
    """Indices into ``weak`` of the weak peaks kept as tiles the finder half saw: at least
    ``row_recovery_heat`` hot, a tile by the tile head (``tile``, [N]) with at least
    ``row_recovery_tile``, a label of at least ``row_recovery_prob`` (``probs``: the weak
    peaks' rows), and within ``row_recovery_reach`` tile sizes (the median root of a box's
    area: a tile standing behind another lies a tile's length from it, the next one in a row a
    width) of a located tile, as the next tile of a row lies."""
    if not found or config.row_recovery_heat >= config.detect_threshold:
        return []
    size = float(np.median([np.sqrt((c.box[2] - c.box[0]) * (c.box[3] - c.box[1])) for c in found]))
    centres = [c.centre for c in found]
    sure = [
        k
        for k, c in enumerate(weak)
        if c.score >= config.row_recovery_heat
        and tile[k] >= config.row_recovery_tile
        and probs[k].max() >= config.row_recovery_prob
    ]
    return [
        k for k in sure if distance_to(centres, weak[k].centre) <= config.row_recovery_reach * size
    ]


def without_nested(tiles: LabelledTiles, config: VisionConfig) -> LabelledTiles:
    """The tiles but one of each two boxes that nest: tiles are solid and never lie inside one
    another in a photo. Where a box lies ``nested_share`` of its area inside a larger one, one
    of them is no tile: a tile's part boxed again (its print, its plain top seen close), or a
    box over a group of tiles. The one with less evidence of a tile goes: the finder's heat
    times the classifier's top probability (docs/vision.md, "Nested boxes")."""
    if config.nested_share <= 0 or len(tiles.found) < 2:
        return tiles
    inside = nested(boxes_of(tiles.found), config.nested_share)  # [i, j]: i lies inside j
    sure = np.array([c.score for c in tiles.found]) * tiles.probs.max(axis=1)
    drop = {i if sure[i] < sure[j] else j for i, j in zip(*np.nonzero(inside), strict=True)}
    return tiles.without(sorted(int(k) for k in drop))
