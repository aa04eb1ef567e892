"""Face tops: each face-up tile's box grows up to its tile's edge.

Takes a reading; gives it again with its boxes grown. The finder often boxes a face's print and
leaves out what lies above it in the face's own colour: the plain band over a character, and on
a standing tile its top, lit from above, which a photo's label of that tile holds. The rows
straight above a box that are the colour of the frame's faces (``blank_faces.face_coloured``,
against the median surface of up to ``SURFACES`` tiles read face up) are its tile's: the box
grows up through them to the first row that is not. It never grows into the box of a tile above
it (a row or grid of tiles lying face up touch there), and not at all where the face colour runs
on for ``face_top_reach`` box heights (a pale tray, not a tile's edge). That is the last stage:
the tiles were read, laid out and grouped from the boxes as found.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.blank_faces import (
    INNER,
    LabView,
    face_colour,
    face_coloured,
    lab_around,
    surface_colours,
)
from vision.boxes import boxes_of
from vision.config import VisionConfig
from vision.reading import Reading

NEAR_ROWS = 6  # rows above a box looked at first
SURFACES = 12  # printed tiles at most whose surfaces tell the frame's face colour
ABOVE = 0.3  # a box over this share of another's width, centred higher, is the tile above it


def rows_of_face(
    lab: np.ndarray | LabView, box: np.ndarray, face: np.ndarray, config: VisionConfig
) -> int:
    """How many rows straight above ``box`` are the ``face`` colour (the median of each row's
    inner pixels, ``lab`` the frame in Lab), up to the first that is not; 0 where the face
    colour runs on through all ``face_top_reach`` box heights above it (or to the frame's edge)."""
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    left, right = int(max(0, x1 + INNER * width)), int(min(lab.shape[1], x2 - INNER * width)) + 1
    bottom = int(y1)
    top = max(0, int(y1 - config.face_top_reach * height) + 1)
    if right <= left or bottom <= top:
        return 0
    seen = 0
    for near in (max(bottom - NEAR_ROWS, top), top):  # most boxes stop within the first few
        if near >= bottom - seen:
            break
        rows = np.median(lab[near : bottom - seen, left:right], axis=1)[::-1]  # nearest first
        faced = face_coloured(rows, face, config)
        if not faced.all():
            return seen + int(np.argmin(faced))
        seen = bottom - near
    return 0


def shared_columns(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """[N] how many columns ``box`` shares with each of ``boxes`` (negative: the gap between)."""
    return np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0])


def room_above(boxes: np.ndarray) -> np.ndarray:
    """[N] how far each box may grow up before it meets the box of a tile above it (inf where
    there is none); 0 where that box already reaches into it."""
    room = np.full(len(boxes), np.inf)
    centre = (boxes[:, 1] + boxes[:, 3]) / 2
    for i, (x1, y1, x2, _) in enumerate(boxes):
        above = (shared_columns(boxes[i], boxes) > ABOVE * (x2 - x1)) & (centre < centre[i])
        above[i] = False
        if above.any():
            room[i] = max(0.0, y1 - float(boxes[above, 3].max()))
    return room


def with_face_tops(frame_bgr: np.ndarray, reading: Reading, config: VisionConfig) -> Reading:
    """``reading`` with each face-up tile's box grown up through the face-coloured rows above it
    (``rows_of_face``), no further than the box of a tile above it (``room_above``)."""
    if config.face_top_reach <= 0 or not reading.tiles:
        return reading
    lab, boxes = lab_around(
        frame_bgr, boxes_of(reading.tiles).astype(np.float64), config.face_top_reach
    )
    printed = [i for i, t in enumerate(reading.tiles) if not t.face_down and t.label != "5z"]
    some = printed[:: max(1, math.ceil(len(printed) / SURFACES))]
    face = face_colour(surface_colours(lab, boxes[some]))
    if face is None:
        return reading
    room = room_above(boxes)
    tiles = list(reading.tiles)
    for i, tile in enumerate(tiles):
        if tile.face_down:
            continue
        grow = min(float(rows_of_face(lab, boxes[i], face, config)), room[i])
        if grow > 0:
            x1, y1, x2, y2 = tile.box
            tiles[i] = replace(tile, box=(x1, y1 - grow, x2, y2))
    return replace(reading, tiles=tuple(tiles))
