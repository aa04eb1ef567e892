"""Pure post-processing: finder maps -> tile boxes; classifier logits -> labels + alternatives."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.preprocess import Letterbox

STRIDE = 4
SIZE_UNIT = 16.0


@dataclass(frozen=True)
class Candidate:
    """A tile the finder located: box in image pixels, heat score, long-axis angle (radians)."""

    box: tuple[float, float, float, float]
    score: float
    angle: float  # direction of the tile's long axis, modulo pi
    orientation_strength: float  # 0..1: how sure the finder is about ``angle``

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def local_peaks(heat: np.ndarray, threshold: float) -> np.ndarray:
    """[K, 2] (row, col) of cells that are the maximum of their 3x3 neighbourhood and >= threshold.

    >>> h = np.zeros((4, 4)); h[1, 1] = 0.9; h[1, 2] = 0.5; h[3, 3] = 0.4
    >>> local_peaks(h, 0.3).tolist()
    [[1, 1], [3, 3]]
    """
    padded = np.pad(heat, 1, constant_values=-np.inf)
    h, w = heat.shape
    neigh = np.max(
        np.stack([padded[dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)]), axis=0
    )
    return np.argwhere((heat >= neigh) & (heat >= threshold))


def intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area every box in ``a`` [N, 4] shares with every box in ``b`` [M, 4] -> [N, M]."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    return np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` [N, 4] with every box in ``b`` [M, 4] -> [N, M]."""
    inter = intersections(a, b)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def nms(boxes: np.ndarray, scores: np.ndarray, threshold: float) -> list[int]:
    """Indices kept by greedy non-maximum suppression, strongest first (ties: the earlier box).

    >>> b = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10]], float)
    >>> nms(b, np.array([0.5, 0.9, 0.7]), 0.5)
    [1, 2]
    """
    order = np.argsort(-scores, kind="stable")
    overlap = iou(boxes[order], boxes[order])  # one matrix: a frame has at most a few hundred
    alive = np.ones(len(order), bool)
    keep: list[int] = []
    for k in range(len(order)):
        if alive[k]:
            keep.append(int(order[k]))
            alive[k + 1 :] &= overlap[k, k + 1 :] <= threshold
    return keep


def decode_finder(
    maps: np.ndarray, lb: Letterbox, image_size: tuple[int, int], threshold: float, nms_iou: float
) -> list[Candidate]:
    """[7, G, G] finder maps -> candidates in image pixels, ordered by score (strongest first)."""
    heat = sigmoid(maps[0])
    peaks = local_peaks(heat, threshold)
    if len(peaks) == 0:
        return []
    rows, cols = peaks[:, 0], peaks[:, 1]
    w = np.exp(np.clip(maps[1, rows, cols], -4, 4)) * SIZE_UNIT
    h = np.exp(np.clip(maps[2, rows, cols], -4, 4)) * SIZE_UNIT
    cx = (cols + maps[3, rows, cols]) * STRIDE
    cy = (rows + maps[4, rows, cols]) * STRIDE
    boxes = lb.to_image(np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1))
    width, height = image_size
    boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, width)
    boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, height)
    scores = heat[rows, cols]
    c2, s2 = maps[5, rows, cols], maps[6, rows, cols]
    ok = (boxes[:, 2] - boxes[:, 0] > 2) & (boxes[:, 3] - boxes[:, 1] > 2)
    keep = [i for i in nms(boxes, scores, nms_iou) if ok[i]]
    return [
        Candidate(
            box=(float(boxes[i, 0]), float(boxes[i, 1]), float(boxes[i, 2]), float(boxes[i, 3])),
            score=float(scores[i]),
            angle=0.5 * math.atan2(float(s2[i]), float(c2[i])) % math.pi,
            orientation_strength=float(min(1.0, math.hypot(float(c2[i]), float(s2[i])))),
        )
        for i in keep
    ]


def top_labels(probs: np.ndarray, labels: tuple[str, ...], k: int) -> list[list[tuple[str, float]]]:
    """For each row of [N, C] probabilities, the k best (label, p), best first."""
    order = np.argsort(-probs, axis=1, kind="stable")[:, :k]
    return [[(labels[j], float(p[j])) for j in row] for p, row in zip(probs, order, strict=True)]
