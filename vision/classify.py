"""Classify: crops of the located tiles -> labelled tiles.

Takes a frame and the located tiles' boxes; gives ``LabelledTiles``: each tile's 38 class
probabilities and, where the classifier has the heads, the chance its glyph stands vertical in
its crop; crops the tile head calls no tile (a finger, a point stick's end, a patch of table)
are left out, unless the class head reads them surely as a face or they are Whites between
tiles of their size in their row (``Classifier.label``). Crops the classifier is unsure of are
read again turned half round and at boxes a little larger and smaller (each turned too), and the
six views averaged; where a second classifier ships, it reads them too (``Classifier.second``).
In a row running steeply across the frame the glyph's axis is read on crops turned level with
the row (``crop_turn``), where upright and sideways tiles look different.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.boxes import boxes_of
from vision.config import VisionConfig
from vision.layout import found_row_angle
from vision.postprocess import Candidate, softmax
from vision.preprocess import crop_tiles, to_nchw, turned_squares
from vision.session import ModelError, ModelSession
from vision.taught import TaughtSet

FEATURES = "features"  # the classifier's pooled-features output (vision.training.features)
BACK, WHITE = MODEL_CLASSES.index("back"), MODEL_CLASSES.index("5z")


@dataclass(frozen=True)
class LabelledTiles:
    """Located tiles with their class probabilities and glyph-axis chances, in one order; every
    stage decides on ``probs`` (the first classifier's), the layout and decoding read
    ``labels`` (with the second classifier's opinion where one ships)."""

    found: tuple[Candidate, ...]
    probs: np.ndarray  # [N, 38] class probabilities
    vertical: np.ndarray | None  # [N] chance the glyph stands vertical in its crop
    turn: float  # radians every crop was turned by
    opinion: np.ndarray | None = None  # [N, 38] ``Classifier.cascaded``'s; None: ``probs``

    @property
    def labels(self) -> np.ndarray:
        """[N, 38] the probabilities the tiles are labelled by."""
        return self.probs if self.opinion is None else self.opinion

    def plus(self, more: LabelledTiles, keep: list[int]) -> LabelledTiles:
        """These tiles and the ``keep`` ones of ``more`` (cut with the same turn)."""
        assert more.turn == self.turn
        vertical = None
        if self.vertical is not None and more.vertical is not None:
            vertical = np.concatenate([self.vertical, more.vertical[keep]])
        found = self.found + tuple(more.found[k] for k in keep)
        probs = np.concatenate([self.probs, more.probs[keep]])
        opinion = None
        if self.opinion is not None or more.opinion is not None:
            opinion = np.concatenate([self.labels, more.labels[keep]])
        return LabelledTiles(found, probs, vertical, self.turn, opinion)

    def only(self, keep: list[int]) -> LabelledTiles:
        """The ``keep`` ones of these tiles."""
        vertical = None if self.vertical is None else self.vertical[keep]
        opinion = None if self.opinion is None else self.opinion[keep]
        found = tuple(self.found[k] for k in keep)
        return LabelledTiles(found, self.probs[keep], vertical, self.turn, opinion)

    def without(self, drop: list[int]) -> LabelledTiles:
        """These tiles but the ``drop`` ones."""
        return self.only([k for k in range(len(self.found)) if k not in set(drop)])


@dataclass(frozen=True)
class Classifier:
    """The classifier model with the thresholds that read its outputs, and the table's taught
    tiles when it has some (``vision.taught``: they weigh every crop's probabilities);
    ``second``, where one ships, a classifier asked only about the crops this one is unsure of
    (a cascade: it learned to read sets it never saw better, this one decides every sure crop,
    every box and the glyph's axis)."""

    session: ModelSession
    config: VisionConfig
    taught: TaughtSet | None = None
    second: ModelSession | None = None

    def input(self, frame_bgr: np.ndarray, boxes: np.ndarray, angle: float = 0.0) -> np.ndarray:
        """The classifier's [N, 3, S, S] crops of the boxes (size and padding from its card),
        turned ``angle`` degrees about each box's centre."""
        crop = self.session.card["input"]
        size, pad = int(crop["shape"][2]), float(crop["crop"]["pad"])
        return to_nchw(crop_tiles(frame_bgr, boxes, size, pad, angle))

    def check_second(self) -> None:
        """Raise ModelError where the second classifier is no classifier or cuts other crops
        than this one (it reads this one's crops as they are)."""
        if self.second is None:
            return
        name, card = self.second.path.name, self.second.card
        if card["kind"] != "classifier":
            raise ModelError(f"{name}: a {card['kind']}, not a classifier (its card's kind)")
        if card["input"] != self.session.card["input"]:
            raise ModelError(
                f"{name}: reads other crops than {self.session.path.name} (input "
                f"{card['input']['shape']}, {card['input'].get('crop')} against "
                f"{self.session.card['input']['shape']}, {self.session.card['input'].get('crop')})"
            )

    def sureness(self, frame_bgr: np.ndarray, found: Sequence[Candidate]) -> float:
        """How surely the boxes hold tiles of one kind each: the mean, over the boxes, of the
        likeliest label's probability times the tile head's chance (1 without the head)."""
        probs, _, tile = self.classify(frame_bgr, boxes_of(list(found)))
        sure = probs.max(axis=1) * (1.0 if tile is None else tile)
        return float(sure.mean()) if len(sure) else 0.0

    def classify(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, turn: float = 0.0, tiles_from: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """[N, 38] class probabilities for the boxes (unsure ones read from six views); when the
        classifier has the heads, [N] probabilities that the glyph stands vertical in its crop
        and [N] that the crop holds a tile at all (else None). With ``turn`` (radians, see
        ``crop_turn``), the glyph-axis crop is turned by it (the labels are still read on crops
        as the boxes lie: on `valid` those read one tile more right). ``tiles_from``: the
        caller drops the crops the tile head puts under it, so they are read once, not again
        from other views (their labels are then of one view). This classifier's alone: what
        every stage decides on (``cascaded`` adds the second's opinion)."""
        probs, _, axis, tile = self.cascaded(frame_bgr, boxes, turn, tiles_from, second=False)
        return probs, axis, tile

    def cascaded(
        self,
        frame_bgr: np.ndarray,
        boxes: np.ndarray,
        turn: float = 0.0,
        tiles_from: float = 0.0,
        second: bool = True,
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
        """(probs, opinion, axis, tile): ``classify``'s three and the ``opinion`` the labels are
        read by, where a second classifier ships and ``second`` asks it (else None): on the
        crops this one is unsure of, its six-view mean averaged with the second's two-view mean;
        on the others its own."""
        if len(boxes) == 0:
            return np.zeros((0, len(MODEL_CLASSES)), np.float32), None, None, None
        n = len(boxes)
        batch = self.input(frame_bgr, boxes)
        if turn:  # labels from the crops as the boxes lie, the glyph's axis from level ones
            squares = turned_squares(boxes, self.config.turned_crop_side)
            level = self.input(frame_bgr, squares, math.degrees(turn))
            batch = np.concatenate([batch, level])
        outs = self.session.run_all(batch)
        probs = softmax(outs[0][:n])
        heads = self.session.card.get("outputs", {})
        axis = softmax(outs[1][-n:])[:, 0] if len(outs) > 1 and "axis" in heads else None
        tile = 1 / (1 + np.exp(-outs[2][:n, 0])) if len(outs) > 2 and "tile" in heads else None
        unsure = probs.max(axis=1) < self.config.flip_below
        if tile is not None:
            unsure &= tile >= tiles_from
        unsure = np.flatnonzero(unsure)
        opinion = None
        if self.config.test_time_flip and len(unsure):
            # a half turn keeps the glyph axis, so it reads the same tile from a second view;
            # sure crops are not turned, as on the tuning scenes they never changed. The zoomed
            # views and their half turns go in the same run (one call to the model, not two)
            zoomed = self._zoomed(frame_bgr, np.asarray(boxes)[unsure])
            more = self.session.run_all(np.concatenate([batch[unsure, :, ::-1, ::-1], *zoomed]))
            views = [probs[unsure], *softmax(more[0]).reshape(-1, len(unsure), probs.shape[1])]
            if axis is not None and not turn:
                axis[unsure] = (axis[unsure] + softmax(more[1][: len(unsure)])[:, 0]) / 2
            probs[unsure] = np.mean(views, axis=0)
            if second and self.second is not None:
                opinion = probs.copy()
                opinion[unsure] = (probs[unsure] + self._second_opinion(batch[unsure])) / 2
        if self.taught is not None:  # the table's own tiles weigh the labels
            features = outs[self._features_index()][:n]
            probs = self.taught.weigh(probs, features, self.config)
            if opinion is not None:
                opinion = self.taught.weigh(opinion, features, self.config)
        return probs, opinion, axis, tile

    def _zoomed(self, frame_bgr: np.ndarray, boxes: np.ndarray) -> list[np.ndarray]:
        """The [2N, 3, S, S] crops of the boxes grown, then shrunk, about their centres by
        ``zoom_views``, and the same turned half round (none when 0): a tile of a set the
        classifier never learned, its box a little off, reads more surely at another scale."""
        z = self.config.zoom_views
        if z <= 0:
            return []
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        centre, half = (boxes[:, :2] + boxes[:, 2:]) / 2, (boxes[:, 2:] - boxes[:, :2]) / 2
        batch = np.concatenate(
            [
                self.input(frame_bgr, np.hstack([centre - half * s, centre + half * s]))
                for s in (1 + z, 1 / (1 + z))
            ]
        )
        return [batch, batch[:, :, ::-1, ::-1]]

    def _second_opinion(self, crops: np.ndarray) -> np.ndarray:
        """The second classifier's class probabilities of ``crops`` [N, 3, S, S]: the mean of
        its plain view and half turn (two views, not six: it runs on top of this one's)."""
        assert self.second is not None
        return _both_ways(self.second, crops).mean(axis=0)

    def _features_index(self) -> int:
        names = [o.name for o in self.session.session.get_outputs()]
        if FEATURES not in names:
            raise ValueError(
                f"{self.session.path.name} has no {FEATURES!r} output, which taught tiles need "
                "(python -m vision.training features MODEL adds it)"
            )
        return names.index(FEATURES)

    def features(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, quarter_turns: int = 0
    ) -> np.ndarray:
        """[N, C] the classifier's pooled features of the boxes' crops (as ``classify`` cuts
        them), each crop first turned ``quarter_turns`` times a quarter counter-clockwise."""
        if len(boxes) == 0:
            return np.zeros((0, 0), np.float32)
        batch = np.rot90(self.input(frame_bgr, boxes), quarter_turns, axes=(2, 3))
        return self.session.run_all(batch)[self._features_index()]

    def label(
        self, frame_bgr: np.ndarray, found: Sequence[Candidate], turn: float, every: bool = False
    ) -> LabelledTiles:
        """The candidates classified, but those the tile head calls no tile (a finger, a point
        stick's end, a patch of table: below ``no_tile_below``) and the class head does not read
        surely (``flip_below``) as a face: the tile head, a linear probe, calls the Whites and
        Norths of a set it never learned no tile, where the class head reads them right. A
        White or a back read surely stays dropped, as a plain patch of table or cloth reads,
        but for a crop read likeliest as a White with two tiles of its size beside it in its row
        (``row_mates``): a patch of table is not boxed as a tile between tiles. With ``every``,
        none is dropped (the caller knows them for tiles)."""
        cfg, boxes = self.config, boxes_of(found)
        bar = 0.0 if every else cfg.no_tile_below
        probs, opinion, vertical, tile = self.cascaded(frame_bgr, boxes, turn, bar)
        tiles = LabelledTiles(tuple(found), probs, vertical, turn, opinion)
        if tile is None or every:
            return tiles
        read = probs.argmax(axis=1)
        face = (probs.max(axis=1) >= cfg.flip_below) & (read != WHITE) & (read != BACK)
        kept = (tile >= cfg.no_tile_below) | face
        whites = np.flatnonzero(~kept & (read == WHITE))
        if len(whites) and kept.sum() >= 2:  # a White with tiles of its size beside it in a row
            angle = found_row_angle([c for c, k in zip(found, kept, strict=True) if k])
            kept[whites[row_mates(boxes[whites], boxes[kept], angle) >= 2]] = True
        return tiles.only(np.flatnonzero(kept).tolist())


def row_mates(boxes: np.ndarray, others: np.ndarray, angle: float) -> np.ndarray:
    """[N] how many of ``others`` lie beside each of ``boxes`` in a row running ``angle``
    (radians): boxes of its size (each side within a quarter), centres under 1.6 of its long
    side apart along the row (the next tile or the one after) and under half its extent across
    it (not the row above or below)."""
    along = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-along[1], along[0]])
    b, o = np.asarray(boxes, np.float64), np.asarray(others, np.float64)
    size, osize = b[:, 2:] - b[:, :2], o[:, 2:] - o[:, :2]
    alike = (np.abs(osize[None] / size[:, None] - 1) < 0.25).all(axis=2)
    gap = (o[None, :, :2] + o[None, :, 2:] - b[:, None, :2] - b[:, None, 2:]) / 2
    extent = size @ np.abs(across)  # each box's extent across the row
    beside = (np.abs(gap @ along) < 1.6 * size.max(axis=1)[:, None]) & (
        np.abs(gap @ across) < extent[:, None] / 2)
    return (alike & beside).sum(axis=1)


def _both_ways(session: ModelSession, crops: np.ndarray) -> np.ndarray:
    """[2, N, 38] class probabilities of ``crops`` [N, 3, S, S] as they lie and turned half
    round, in one run."""
    out = session.run_all(np.concatenate([crops, crops[:, :, ::-1, ::-1]]))[0]
    return softmax(out).reshape(2, len(crops), -1)


def crop_turn(found: Sequence[Candidate], config: VisionConfig) -> float:
    """The angle (radians) to turn every crop by: the row's when it runs further than
    ``turn_crops_from`` off a frame axis, so its tiles lie level in their crops (upright or
    sideways, which the glyph-axis head then tells), else 0 (crops as the boxes lie)."""
    if len(found) < 2:
        return 0.0
    angle = found_row_angle(found)
    quarter = angle % (math.pi / 2)
    off = math.degrees(min(quarter, math.pi / 2 - quarter))
    return angle if off > config.turn_crops_from else 0.0
