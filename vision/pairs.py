"""Two tiles in one box: the finder now and then boxes two touching tiles as one.

Standing tiles side by side in a tight row, seen from a low camera, or a loose tile just in
front of another, can leave one centre peak with a box over both: a box about twice its
neighbours' size one way and their size the other. ``split_pairs`` cuts such a box in two
where both halves read surely as tiles (``pair_cuts`` finds them, ``checked_pairs`` keeps the
cuts). A sideways tile among upright ones is longer one way but shorter the other, and an added
kan's stacked pair is longer both ways (``refine.split_stacks``): neither is cut here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.boxes import along_x, boxes_of, halves, nearest
from vision.classify import Classifier
from vision.config import VisionConfig
from vision.layout import found_row_angle
from vision.postprocess import Candidate

PAIR_NEIGHBOURS = 4  # a box's size is judged against the boxes around it (perspective)


def pair_cuts(
    found: Sequence[Candidate], config: VisionConfig
) -> list[tuple[int, tuple[Candidate, Candidate]]]:
    """Boxes that may hold two tiles: (index into ``found``, its two halves) for each box at
    least ``pair_split`` times as wide (tall) as the median of its nearest boxes, and as tall
    (wide) as them within ``pair_like`` either way, cut across its long side; only where the
    tiles' row lies within 15 degrees of a frame axis (``boxes.along_x``), as a box's sides
    then measure a tile's."""
    if config.pair_split <= 0 or len(found) <= PAIR_NEIGHBOURS:
        return []
    boxes = boxes_of(found).astype(np.float64)
    size = boxes[:, 2:] - boxes[:, :2]
    ratio = size / np.median(size[nearest(boxes, PAIR_NEIGHBOURS)], axis=1)  # [N, 2]: w, h
    like = (ratio > 1 / config.pair_like) & (ratio < config.pair_like)
    wide = (ratio[:, 0] >= config.pair_split) & like[:, 1]
    tall = (ratio[:, 1] >= config.pair_split) & like[:, 0]
    if not (wide | tall).any() or along_x(found_row_angle(found)) is None:
        return []  # a slanted row's boxes hold parts of their neighbours
    out: list[tuple[int, tuple[Candidate, Candidate]]] = []
    for i in np.flatnonzero(wide | tall).tolist():
        first, second = (replace(found[i], box=h) for h in halves(boxes[i], bool(wide[i])))
        out.append((i, (first, second)))
    return out


def checked_pairs(
    found: Sequence[Candidate],
    cuts: list[tuple[int, tuple[Candidate, Candidate]]],
    sure: np.ndarray,
) -> list[Candidate]:
    """The boxes with each of ``cuts`` made whose halves both read surely as tiles (``sure``:
    one flag per half, the cuts' halves in turn); a box whose halves do not stays whole."""
    made = {i: list(pair) for n, (i, pair) in enumerate(cuts) if sure[2 * n] and sure[2 * n + 1]}
    return [h for i, c in enumerate(found) for h in made.get(i, [c])]


def split_pairs(
    frame_bgr: np.ndarray, found: Sequence[Candidate], classifier: Classifier, config: VisionConfig
) -> Sequence[Candidate]:
    """``pair_cuts`` made where each half's crop reads as one label with at least
    ``pair_split_prob`` and, when the classifier has a tile head, as a tile at least as surely."""
    cuts = pair_cuts(found, config)
    if not cuts:
        return found
    probs, _, tile = classifier.classify(frame_bgr, boxes_of([h for _, p in cuts for h in p]),
                                         tiles_from=config.pair_split_prob)
    sure = probs.max(axis=1) >= config.pair_split_prob
    if tile is not None:
        sure &= tile >= config.pair_split_prob
    return checked_pairs(found, cuts, sure)
