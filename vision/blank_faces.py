"""Blank faces: a tile read face down whose plain surface is the colour of the set's faces.

A face-down tile shows its back, and every set's back is another colour than its faces (blue,
green, yellow, black...). Many Japanese sets print the White dragon blank, and a blank face
seen from a low camera, shaded like a block, reads to the classifier much like a back. The
colour tells them apart where the shape does not: a tile read ``back`` whose surface matches
the face colour of the frame's other tiles, and for which the classifier gave the White dragon
some chance, is read as the White dragon instead (its two probabilities swapped, so the
decoder and the alternatives see the same evidence).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.boxes import boxes_of
from vision.classify import BACK, WHITE, LabelledTiles
from vision.config import VisionConfig

INNER = 0.2  # share of a box cut off each side: a standing tile's top, a neighbour's edge
MIN_FACES = 3  # tiles read face up that the frame needs before its face colour is trusted


@dataclass(frozen=True, eq=False)  # an image: compared by identity, as arrays cannot be
class LabView:
    """A BGR image read in Lab (OpenCV's 8-bit scale) only where it is looked at: each slice
    ``view[rows, columns]`` converted when asked for (the same values as the whole image's
    conversion), as a camera frame's conversion costs as much as a classifier pass and these
    steps look at a box's inside and a few rows above it."""

    bgr: np.ndarray

    @property
    def shape(self) -> tuple[int, ...]:
        return self.bgr.shape

    def __getitem__(self, key: tuple[slice, slice]) -> np.ndarray:
        part = self.bgr[key]
        if part.size == 0:
            return np.zeros(part.shape, np.uint8)
        return cv2.cvtColor(np.ascontiguousarray(part), cv2.COLOR_BGR2LAB)


def lab_around(
    frame_bgr: np.ndarray, boxes: np.ndarray, reach_up: float = 0.0
) -> tuple[LabView, np.ndarray]:
    """The frame in Lab over the ``boxes``' bounding region, each box also ``reach_up`` of its
    height above it (only there do these steps look), and the ``boxes`` in that region's pixels."""
    h, w = frame_bgr.shape[:2]
    heights = boxes[:, 3] - boxes[:, 1]
    x0 = int(np.clip(boxes[:, 0].min(), 0, w - 1))
    y0 = int(np.clip((boxes[:, 1] - reach_up * heights).min(), 0, h - 1))
    x1 = int(np.clip(boxes[:, 2].max() + 2, x0 + 1, w))  # a pixel at least, a box on the edge
    y1 = int(np.clip(boxes[:, 3].max() + 2, y0 + 1, h))
    return LabView(frame_bgr[y0:y1, x0:x1]), boxes - np.array([x0, y0, x0, y0], np.float64)


def surface_colours(lab: np.ndarray | LabView, boxes: np.ndarray) -> np.ndarray:
    """[N, 3] Lab (OpenCV's 8-bit scale) of each box's plain surface: the median of the
    brighter half of its inner pixels (a face's background, not its print; a back's colour),
    ``lab`` the frame in Lab. NaN where a box holds no pixel."""
    h, w = lab.shape[:2]
    out = np.full((len(boxes), 3), np.nan)
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        dx, dy = INNER * (x2 - x1), INNER * (y2 - y1)
        ys = slice(int(max(0, y1 + dy)), int(min(h, y2 - dy)))
        xs = slice(int(max(0, x1 + dx)), int(min(w, x2 - dx)))
        pixels = lab[ys, xs].reshape(-1, 3)
        if len(pixels):
            bright = pixels[:, 0] >= np.median(pixels[:, 0])
            out[i] = np.median(pixels[bright], axis=0)
    return out


def face_colour(surfaces: np.ndarray, printed: np.ndarray | None = None) -> np.ndarray | None:
    """The frame's face colour: the median ``surfaces`` of its ``printed`` tiles (read neither
    face down nor White; all of them when None); None with fewer than ``MIN_FACES`` of them."""
    faces = ~np.isnan(surfaces[:, 0]) if printed is None else printed & ~np.isnan(surfaces[:, 0])
    return np.median(surfaces[faces], axis=0) if faces.sum() >= MIN_FACES else None


def face_coloured(surfaces: np.ndarray, face: np.ndarray, config: VisionConfig) -> np.ndarray:
    """[N] whether each surface is the ``face`` colour: its chroma within
    ``blank_face_chroma`` and no more than ``blank_face_darker`` darker (a shaded face; a
    brighter one is only more lit). Lab's lightness alone parts a black back from an ivory
    face, its chroma alone a pale back from a white one."""
    chroma = np.hypot(surfaces[:, 1] - face[1], surfaces[:, 2] - face[2])
    darker = face[0] - surfaces[:, 0]
    return (chroma <= config.blank_face_chroma) & (darker <= config.blank_face_darker)


def with_blank_faces(
    frame_bgr: np.ndarray, tiles: LabelledTiles, config: VisionConfig
) -> LabelledTiles:
    """``tiles`` with each one read ``back``, given the White dragon at least
    ``min_alternative``, and face coloured (``face_coloured`` against the median surface of
    the tiles read neither back nor White) read as the White dragon."""
    if config.blank_face_chroma <= 0 or not len(tiles.found):
        return tiles
    read = tiles.probs.argmax(axis=1)
    doubt = (read == BACK) & (tiles.probs[:, WHITE] >= config.min_alternative)
    if not doubt.any():
        return tiles
    surfaces = surface_colours(*lab_around(frame_bgr, boxes_of(tiles.found).astype(np.float64)))
    face = face_colour(surfaces, (read != BACK) & (read != WHITE))
    if face is None:
        return tiles
    blank = doubt & face_coloured(surfaces, face, config)
    if not blank.any():
        return tiles
    return replace(tiles, probs=_swapped(tiles.probs, blank),
                   opinion=None if tiles.opinion is None else _swapped(tiles.opinion, blank))


def _swapped(probs: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """``probs`` with the back's and the White's chances swapped on the ``blank`` rows."""
    out = probs.copy()
    out[blank, BACK], out[blank, WHITE] = probs[blank, WHITE], probs[blank, BACK]
    return out
