"""Standing tops: the plain top of a standing tile is part of that tile, not a White dragon.

Seen close from a low camera, a standing tile shows its face and, above it, its top: a plain
strip of the tile's own colour. The finder may box the two apart, and the classifier reads a
plain strip as the only plain face there is, the White dragon; the hand then gains a tile and
the face's box, without its top, is no longer the tile's. A box read White that is a short
strip lying on a box read face up (a White one too), across about its width, is that tile's
top: it is dropped and the face's box grows up over it. A White dragon itself is as tall as
any face, so it is never taken for a top (docs/vision.md, "Standing tops"; the bounds were
set on close-ups cut from the trainable photos).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.boxes import boxes_of
from vision.classify import LabelledTiles
from vision.config import VisionConfig

WHITE, BACK = MODEL_CLASSES.index("5z"), MODEL_CLASSES.index("back")
ACROSS = 0.7  # a top spans this share of the narrower box's width ...
WIDTHS = (0.6, 1.6)  # ... its width within these times the face's
LIES_ON = 0.25  # its centre above the face's top edge + this share of the face's height


def top_of(top: np.ndarray, face: np.ndarray, height: float) -> bool:
    """Box ``top`` (x1, y1, x2, y2) is the top of the standing tile whose face is box ``face``:
    at most ``height`` times the face's height, across about its width, lying on its top edge.

    >>> face = np.array([10.0, 40, 50, 100])
    >>> strip, white = np.array([12.0, 25, 52, 45]), np.array([10.0, -20, 50, 38])
    >>> bool(top_of(strip, face, 0.6)), bool(top_of(white, face, 0.6))
    (True, False)
    """
    tw, th = top[2] - top[0], top[3] - top[1]
    fw, fh = face[2] - face[0], face[3] - face[1]
    across = min(top[2], face[2]) - max(top[0], face[0])
    if th > height * fh or across < ACROSS * min(tw, fw) or not WIDTHS[0] < tw / fw < WIDTHS[1]:
        return False
    return (top[1] + top[3]) / 2 < face[1] + LIES_ON * fh and top[3] > face[1] - LIES_ON * fh


def without_standing_tops(tiles: LabelledTiles, config: VisionConfig) -> LabelledTiles:
    """The tiles with each standing tile's top, read White, folded into the face below it."""
    if config.standing_top_height <= 0 or len(tiles.found) < 2:
        return tiles
    boxes, read = boxes_of(tiles.found), tiles.probs.argmax(axis=1)
    found, drop, grown = list(tiles.found), [], set()
    for t in np.flatnonzero(read == WHITE):
        if t in grown:  # a White face that took its own top
            continue
        faces = [
            f for f in range(len(found))
            if f != t and f not in drop and read[f] != BACK
            and top_of(boxes[t], np.asarray(found[f].box), config.standing_top_height)
        ]
        if not faces:
            continue
        f = min(faces, key=lambda k: abs(found[k].box[1] - boxes[t][3]))  # the face it lies on
        x1, y1, x2, y2 = found[f].box
        found[f] = replace(found[f], box=(x1, min(y1, float(boxes[t][1])), x2, y2))
        drop.append(int(t))
        grown.add(f)
    if not drop:
        return tiles
    return replace(tiles, found=tuple(found)).without(drop)
