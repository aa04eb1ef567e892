"""Teach the reader a table's tiles: photos of them laid out in a known order -> a ``TaughtSet``.

The kiosk asks for the tiles row by row in a known order (``expected_rows("123456789m/...")``),
photographs them, and ``lay_out`` finds the tiles, sorts them in reading order (rows top to
bottom, each left to right) and gives each the label the order says, with the problems that
make the labels doubtful (a row with a tile too many or too few). Once the player confirms
(or corrects) them, ``teach`` turns the photos into a ``TaughtSet`` of the classifier's
features of each tile (``vision.taught``), which ``Recogniser.with_taught`` reads with.

>>> expected_rows("123m / 55z back")
(('1m', '2m', '3m'), ('5z', '5z', 'back'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from scorer.tiles import MODEL_CLASSES, TileError, parse_tiles
from vision.boxes import Box, boxes_of, framed_box, nearest
from vision.classify import Classifier
from vision.postprocess import Candidate
from vision.problems import ORDER_EMPTY, ORDER_UNREADABLE, Problem, ProblemError
from vision.proportions import at_true_proportions
from vision.refine import without_slivers
from vision.taught import TaughtSet

if TYPE_CHECKING:
    from vision.recogniser import Recogniser

#: each taught tile is remembered as its crop turned 0, 1, 2 and 3 quarters: a tile read upside
#: down or lying sideways (a called tile, its crop then a quarter-turned glyph) still finds it
QUARTER_TURNS = (0, 1, 2, 3)
ROW_TOLERANCE = 0.5  # a tile whose centre lies within this many tile heights of a row's is in it


def expected_rows(text: str) -> tuple[tuple[str, ...], ...]:
    """Rows of labels from compact notation, rows split by ``/`` (or new lines), ``back`` for a
    face-down tile: ``"123456789m/123456789p"``. Raises a ValueError naming what it cannot read
    (`vision.problems.ProblemError`: its `Problem` for other languages)."""
    rows = []
    for raw in text.replace("\n", "/").split("/"):
        labels: list[str] = []
        for word in raw.split():
            if word == "back":
                labels.append("back")
                continue
            try:
                labels.extend(str(t) for t in parse_tiles(word))
            except TileError as err:
                raise ProblemError(Problem.of(ORDER_UNREADABLE, reason=str(err))) from None
        if labels:
            rows.append(tuple(labels))
    if not rows:
        raise ProblemError(Problem.of(ORDER_EMPTY, order=text))
    return tuple(rows)


def row_tilt(boxes: Sequence[Box]) -> float:
    """How far (radians) the rows lean off the frame's x axis: the median direction from each
    box to its nearest neighbour (a neighbour in its row: tiles lie closer side by side than
    row above row), folded into +-45 degrees; 0 with fewer than 3 boxes."""
    if len(boxes) < 3:
        return 0.0
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    c = (b[:, :2] + b[:, 2:]) / 2
    d = c[nearest(b, 1)[:, 0]] - c
    angle = np.arctan2(d[:, 1], d[:, 0])
    folded = (angle + np.pi / 4) % (np.pi / 2) - np.pi / 4
    return float(np.median(folded))


def reading_order(boxes: Sequence[Box]) -> list[list[int]]:
    """Indices of the boxes in rows, top to bottom, each left to right, in the frame turned
    level with the rows (``row_tilt``: a camera a little askew). A box joins the row whose mean
    centre height lies within ``ROW_TOLERANCE`` of the median tile height of its own; else it
    starts a new row.

    >>> reading_order([(50, 0, 60, 20), (0, 2, 10, 22), (0, 40, 10, 60), (20, 1, 30, 21)])
    [[1, 3, 0], [2]]
    """
    if not len(boxes):
        return []
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    height = float(np.median(b[:, 3] - b[:, 1]))
    x, y = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    tilt = row_tilt(boxes)
    cx = x * np.cos(tilt) + y * np.sin(tilt)  # along the rows
    cy = y * np.cos(tilt) - x * np.sin(tilt)  # across them
    rows: list[list[int]] = []
    for i in np.argsort(cy, kind="stable").tolist():
        if rows and abs(cy[i] - float(np.mean(cy[rows[-1]]))) <= ROW_TOLERANCE * height:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(row, key=lambda i: (cx[i], cy[i])) for row in rows]


def _span(row: Sequence[str]) -> str:
    return row[0] if len(row) == 1 else f"{row[0]}..{row[-1]}"


@dataclass(frozen=True)
class PlacedTile:
    """A tile of a teaching photo: its box, its row (0 = top) and the label the expected order
    gives it (None: the order has no label left for it)."""

    box: Box
    row: int
    label: str | None


@dataclass(frozen=True)
class Mismatch:
    """A count of a teaching photo that differs from its order: `what` is ``tiles`` (all of
    them), ``row`` (the tiles of row `row`, 1 = top, whose labels run `span`: ``1m..9m``) or
    ``rows`` (the rows). Its English is `str`; `vision.words.mismatch` words it in a language."""

    what: str
    found: int
    expected: int
    row: int = 0
    span: str = ""

    def __str__(self) -> str:
        said = f"{self.found} tiles found, {self.expected} expected"
        if self.what == "row":
            return f"row {self.row} ({self.span}): {said}"
        if self.what == "rows":
            rows = "row" if self.found == 1 else "rows"
            return f"{self.found} {rows} of tiles found, {self.expected} expected"
        return said


@dataclass(frozen=True)
class TeachingLayout:
    """The tiles of one teaching photo in reading order with their labels, and every count
    that makes the labels doubtful (none: the photo shows the expected order, tile for tile)."""

    tiles: tuple[PlacedTile, ...]
    mismatches: tuple[Mismatch, ...] = ()

    @property
    def problems(self) -> tuple[str, ...]:
        """The mismatches in English (``16 tiles found, 2 expected``), as `to_json` has them."""
        return tuple(map(str, self.mismatches))

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def boxes(self) -> tuple[Box, ...]:
        return tuple(t.box for t in self.tiles)

    @property
    def labels(self) -> tuple[str | None, ...]:
        return tuple(t.label for t in self.tiles)

    def to_json(self) -> dict[str, Any]:
        """What the kiosk page shows for the player to confirm."""
        return {
            "tiles": [
                {"box": [round(v, 1) for v in t.box], "row": t.row, "label": t.label}
                for t in self.tiles
            ],
            "problems": list(self.problems),
        }


def assign_labels(boxes: Sequence[Box], expected: Sequence[Sequence[str]]) -> TeachingLayout:
    """The boxes in reading order, labelled from ``expected`` (rows of labels). Where the rows
    found match the rows expected in number, row by row; else in reading order as far as the
    labels go; with a problem for each count that differs (tiles, rows, tiles in a row).

    >>> lay = assign_labels([(0, 0, 10, 20), (12, 0, 22, 20)], [("1m", "2m", "3m")])
    >>> lay.labels, lay.problems
    (('1m', '2m'), ('2 tiles found, 3 expected', 'row 1 (1m..3m): 2 tiles found, 3 expected'))
    """
    rows = reading_order(boxes)
    order = [i for row in rows for i in row]
    row_of = {i: r for r, row in enumerate(rows) for i in row}
    flat = [lab for row in expected for lab in row]
    mismatches = []
    if len(order) != len(flat):
        mismatches.append(Mismatch("tiles", len(order), len(flat)))
    if len(rows) == len(expected):  # row by row: a row short does not shift the next ones
        for r, (got, want) in enumerate(zip(rows, expected, strict=True)):
            if len(got) != len(want):
                mismatches.append(Mismatch("row", len(got), len(want), r + 1, _span(want)))
        labels = [
            row[k] if k < len(row) else None
            for got, row in zip(rows, expected, strict=True)
            for k in range(len(got))
        ]
    else:
        mismatches.append(Mismatch("rows", len(rows), len(expected)))
        labels = [flat[k] if k < len(flat) else None for k in range(len(order))]
    tiles = tuple(
        PlacedTile(tuple(float(v) for v in boxes[i]), row_of[i], lab)  # type: ignore[arg-type]
        for i, lab in zip(order, labels, strict=True)
    )
    return TeachingLayout(tiles, tuple(mismatches))


def located_tiles(recogniser: Recogniser, frame_bgr: np.ndarray) -> list[Box]:
    """The tiles of a teaching photo as the reader finds them: the finder's boxes
    (``Recogniser.find``) but slivers and what the tile head calls no tile; in a frame resized
    out of a camera's proportions, found where the reader finds them, at those proportions
    (``proportions.at_true_proportions``), and mapped back."""
    found = recogniser.find(frame_bgr)
    widened = at_true_proportions(frame_bgr, found, recogniser.config)
    if widened is None:
        return _kept(recogniser, frame_bgr, found)
    canvas, back = widened
    return [framed_box(b, back) for b in _kept(recogniser, canvas, recogniser.find(canvas))]


def _kept(recogniser: Recogniser, frame_bgr: np.ndarray, found: list[Candidate]) -> list[Box]:
    """The boxes ``found`` in a frame but slivers and what the tile head calls no tile (two
    touching tiles boxed as one are not cut here, as the reader cuts them: a half's crop holds
    part of its neighbour, and taught it is a poor picture of its tile; the photo's tile not
    located, the page asks for another)."""
    found = without_slivers(found, frame_bgr.shape[:2], recogniser.config)
    kept = Classifier(recogniser.classifier, recogniser.config).label(frame_bgr, found, 0.0)
    return [tuple(float(v) for v in c.box) for c in kept.found]  # type: ignore[misc]


def lay_out(
    recogniser: Recogniser, frame_bgr: np.ndarray, expected: Sequence[Sequence[str]] | str
) -> TeachingLayout:
    """Find the tiles of a teaching photo and label them from the expected order (rows of
    labels, or their compact notation for ``expected_rows``), for the player to confirm."""
    rows = expected_rows(expected) if isinstance(expected, str) else expected
    return assign_labels(located_tiles(recogniser, frame_bgr), rows)


@dataclass(frozen=True)
class Shot:
    """One teaching photo: the frame, tile boxes in it and each box's confirmed label (None:
    not taught from)."""

    frame: np.ndarray = field(repr=False)
    boxes: tuple[Box, ...]
    labels: tuple[str | None, ...]

    def __post_init__(self) -> None:
        if len(self.boxes) != len(self.labels):
            raise ValueError(f"{len(self.boxes)} boxes but {len(self.labels)} labels")
        wrong = sorted({lab for lab in self.labels if lab is not None} - set(MODEL_CLASSES))
        if wrong:
            raise ValueError(f"labels {wrong} are no model classes")

    @classmethod
    def of(cls, frame_bgr: np.ndarray, layout: TeachingLayout) -> Shot:
        """A confirmed layout's tiles and labels."""
        return cls(frame_bgr, layout.boxes, layout.labels)


def tile_features(recogniser: Recogniser, shot: Shot) -> tuple[list[str], np.ndarray]:
    """The labels and [k, C] features of a shot's labelled tiles, each turned every one of
    ``QUARTER_TURNS``."""
    keep = [i for i, lab in enumerate(shot.labels) if lab is not None]
    if not keep:
        return [], np.zeros((0, 0), np.float32)
    classifier = Classifier(recogniser.classifier, recogniser.config)
    boxes = boxes_of([PlacedTile(shot.boxes[i], 0, None) for i in keep])
    feats = [classifier.features(shot.frame, boxes, q) for q in QUARTER_TURNS]
    labels = [str(shot.labels[i]) for i in keep] * len(QUARTER_TURNS)
    return labels, np.concatenate(feats)


def teach(
    recogniser: Recogniser, shots: Iterable[Shot], taught_at: datetime | None = None
) -> TaughtSet:
    """The taught set of the shots' labelled tiles (ValueError when none is labelled)."""
    labels: list[str] = []
    feats: list[np.ndarray] = []
    photos = 0
    for shot in shots:
        photos += 1
        more, f = tile_features(recogniser, shot)
        labels += more
        if more:
            feats.append(f)
    if not labels:
        raise ValueError("no labelled tile to teach from")
    return TaughtSet.of(
        labels, np.concatenate(feats), photos, recogniser.classifier_sha256, taught_at
    )
