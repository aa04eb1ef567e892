"""Second look: the pons looked at again for an added kan's stacked tile.

``with_stacked_tiles`` takes a first reading and its labelled tiles; it gives the labelled
tiles again with the stacked tile of each pon that is an added kan whose pair the first pass
missed or boxed as one (or None when there is none), for the recogniser to lay out again. The
finder looks again, magnified, at a crop around the pons, turned level with their row where it
slants; where it still sees nothing, crops beside each pon's visibly sideways called tile are
read (``kakan_probes``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.boxes import along_x, boxes_of, framed_box, square_around
from vision.classify import Classifier, LabelledTiles
from vision.config import VisionConfig
from vision.find import Finder
from vision.kinds import kind_of
from vision.postprocess import Candidate, iou
from vision.preprocess import turned_region
from vision.reading import MeldKind, Reading


@dataclass(frozen=True)
class PonLook:
    """The finder's second look at the pons: the crop around them turned level with their row
    (``canvas``), the 2x3 affine mapping canvas pixels back to the frame's, the turn (radians)
    and the boxes found on the canvas (canvas pixels)."""

    canvas: np.ndarray
    back: np.ndarray
    level: float
    found: tuple[Candidate, ...]

    def in_frame(self, c: Candidate) -> Candidate:
        return turned_back(c, self.back, self.level)

    def level_boxes(self, reading: Reading, min_iou: float) -> list[tuple[float, ...] | None]:
        """Each of the reading's tiles as boxed on the canvas, where it lies level: the found
        box whose frame box overlaps the tile's most, by at least ``min_iou``; else None."""
        if not self.found or not reading.tiles:
            return [None] * len(reading.tiles)
        framed = boxes_of([self.in_frame(c) for c in self.found]).astype(np.float64)
        overlap = iou(boxes_of(reading.tiles).astype(np.float64), framed)
        best = overlap.argmax(axis=1)
        return [
            self.found[int(j)].box if overlap[i, j] >= min_iou else None for i, j in enumerate(best)
        ]


def with_stacked_tiles(
    frame_bgr: np.ndarray,
    reading: Reading,
    tiles: LabelledTiles,
    finder: Finder,
    classifier: Classifier,
    config: VisionConfig,
) -> LabelledTiles | None:
    """The tiles the reading was laid out from, with the stacked tile of each pon that is an
    added kan whose pair the first pass missed or boxed as one: found by the finder looking
    again at the pons, else by probing beside their called tiles; None when none is found."""
    look = _pon_look(frame_bgr, reading, finder, config)
    if look is None:
        return None
    more, add, replaced = _found_again(frame_bgr, reading, tiles.turn, look, classifier, config)
    if not add:
        more, add, replaced = _probed(frame_bgr, reading, tiles.turn, look, classifier, config)
    if not add:
        return None
    gone = {reading.tiles[i].box for i in replaced}
    drop = [k for k, c in enumerate(tiles.found) if c.box in gone]
    return tiles.without(drop).plus(more, add)


def _pon_look(
    frame_bgr: np.ndarray, reading: Reading, finder: Finder, config: VisionConfig
) -> PonLook | None:
    """The finder again, magnified, on a crop around the pons, turned level with their row
    when it slants (``level_turn``: the boxes of a pair stacked across a slanted row overlap
    so much that they merge into one), down to ``back_recovery_heat``; None without pons."""
    if config.stack_zoom_margin <= 0:
        return None
    region = pon_region(reading, frame_bgr.shape[:2], config.stack_zoom_margin)
    if region is None:
        return None
    level = level_turn(reading, config.stack_level_from)  # 0: the plain crop
    canvas, back = turned_region(frame_bgr, region, level)
    found = finder.look(canvas).peaks(config.back_recovery_heat, config.nms_iou)
    return PonLook(canvas, back, level, tuple(found))


def _found_again(
    frame_bgr: np.ndarray,
    reading: Reading,
    turn: float,
    look: PonLook,
    classifier: Classifier,
    config: VisionConfig,
) -> tuple[LabelledTiles, list[int], list[int]]:
    """The boxes the second look found beside the pons' called tiles, read; those to add;
    the reading's tiles they replace (see ``stacked_pairs``). On a turned canvas their
    labels are read there, where they lie level (at 45 degrees a box in the frame holds
    half its neighbours too)."""
    peaks = [look.in_frame(c) for c in look.found]
    near = beside_called_tiles(reading, peaks, config.nms_iou)
    spots = [peaks[k] for k in near]
    more = classifier.label(frame_bgr, spots, turn)
    if look.level and more.found:
        kept = [near[spots.index(c)] for c in more.found]
        level = classifier.classify(look.canvas, boxes_of([look.found[k] for k in kept]))[0]
        more = replace(more, probs=level)
    return (more, *stacked_pairs(reading, more.found, more.probs, config))


def _probed(
    frame_bgr: np.ndarray,
    reading: Reading,
    turn: float,
    look: PonLook,
    classifier: Classifier,
    config: VisionConfig,
) -> tuple[LabelledTiles, list[int], list[int]]:
    """Crops one tile width across the row from each pon's visibly sideways called tile
    (``kakan_probes``): (them, read; for each pon the likeliest read as its kind; none
    replaced). Where the finder sees nothing even magnified, this still finds some. Placed
    with the reading's boxes where the pons' row lies within 15 degrees of a frame axis (a
    box's sides then measure along and across it), else with the second look's boxes on
    its level canvas (an axis-aligned box of a slanted tile spans its neighbours too)."""
    slanted = along_x(look.level) is None
    boxes = look.level_boxes(reading, config.nms_iou) if slanted else [t.box for t in reading.tiles]
    placed = np.array([b for b in boxes if b is not None], np.float64).reshape(-1, 4)
    probes = [
        (meld, kind, c)
        for meld, kind, c in kakan_probes(reading, boxes)
        if not len(placed) or iou(np.array([c.box]), placed).max() < config.nms_iou
    ]
    # no tile-head check: a probe's box is the called tile's moved, not a box the finder
    # drew, and being read as the pon's kind (p >= 0.7) already says a tile lies there
    spots = [look.in_frame(c) if slanted else c for _, _, c in probes]
    probs, vertical, _ = classifier.classify(frame_bgr, boxes_of(spots), turn)
    if slanted and probes:  # read where they lie level, as the second look's boxes
        probs = classifier.classify(look.canvas, boxes_of([c for _, _, c in probes]))[0]
    more = LabelledTiles(tuple(spots), probs, vertical, turn)
    best: dict[int, int] = {}  # meld -> its likeliest probe read as the meld's kind
    for k, (meld, kind, _) in enumerate(probes):
        top = int(probs[k].argmax())
        if probs[k, top] >= config.stack_recovery_prob and kind_of(MODEL_CLASSES[top]) == kind:
            if meld not in best or probs[k, top] > probs[best[meld]].max():
                best[meld] = k
    return more, sorted(best.values()), []


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


def beside_called_tiles(reading: Reading, spots: Sequence[Candidate], nms_iou: float) -> list[int]:
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
    reading: Reading, spots: Sequence[Candidate], probs: np.ndarray, config: VisionConfig
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
        row_along_x = along_x(angle)
        if row_along_x is None:
            continue
        width = float(np.median([b[2] - b[0] if row_along_x else b[3] - b[1] for b in others]))
        x1, y1, x2, y2 = box
        if (x2 - x1 if row_along_x else y2 - y1) < 1.05 * width:
            continue  # not visibly lying sideways: the grammar's guess, no sign of a kan
        for side in (-1, 1):
            dx, dy = (0.0, side * width) if row_along_x else (side * width, 0.0)
            moved = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
            probes.append((n, kind, Candidate(moved, called.detection_score / 2, angle, 1.0)))
    return probes
