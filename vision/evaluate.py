"""Measure a reader on a labelled manifest: tile precision / recall / F1, exact images, latency.

``exact_images`` is the strict share: every labelled tile right and no false detection (a
detection on an unlabelled background tile counts as false); ``labelled_right_images`` only asks
that every labelled tile was read right.

A detection counts when its box overlaps a labelled tile with IoU >= 0.5 and the label matches.
Tiles labelled ``other`` (flowers, seasons) are ignore regions: a detection on one is neither
right nor wrong. A photo whose tiles are labelled without boxes is scored by the tiles read
against the tiles labelled. The peer (mahjong-detector) is measured on the same images in the
same run, over the 34 classes it knows (face-down tiles ignored, red fives read as fives).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.kinds import kind_of
from vision.manifest import LabelledImage
from vision.postprocess import iou
from vision.reading import Reading

IOU_MATCH = 0.5
Detection = tuple[str, tuple[float, float, float, float], float]  # label, box, confidence


@dataclass(frozen=True)
class ImageScore:
    tp: int
    fp: int
    fn: int
    confusions: tuple[tuple[str, str], ...]  # (labelled, read) for boxes found with a wrong label
    special: tuple[tuple[str, bool], ...] = ()  # ("red", right?), ("back", ...), ("sideways", ...)
    located: int = 0  # labelled tiles some detection overlaps with IoU >= 0.5, any label

    @property
    def exact(self) -> bool:
        return self.fp == 0 and self.fn == 0


def match_image(
    truth: Sequence[tuple[str, tuple[float, ...]]],
    found: Sequence[Detection],
    ignore: Sequence[tuple[float, ...]] = (),
    iou_match: float = IOU_MATCH,
) -> ImageScore:
    """Greedy matching, most confident detection first; a detection counts on a tile (and on
    an ignore region) it overlaps by ``iou_match`` or more.

    >>> match_image([("1m", (0, 0, 10, 10)), ("2m", (20, 0, 30, 10))],
    ...             [("1m", (1, 0, 10, 10), 0.9), ("3m", (20, 0, 30, 10), 0.8)])
    ImageScore(tp=1, fp=1, fn=1, confusions=(('2m', '3m'),), special=(), located=2)
    """
    t_boxes = np.array([b for _, b in truth], np.float64).reshape(-1, 4)
    used = [False] * len(truth)
    tp = fp = 0
    confusions = []
    order = sorted(range(len(found)), key=lambda i: -found[i][2])
    f_boxes = np.array([found[i][1] for i in order], np.float64).reshape(-1, 4)
    overl = (
        iou(f_boxes, t_boxes) if len(truth) and len(found) else np.zeros((len(found), len(truth)))
    )
    ign = (
        iou(f_boxes, np.array(ignore, np.float64).reshape(-1, 4)).max(axis=1)
        if len(ignore) and len(found)
        else np.zeros(len(found))
    )
    for row, i in enumerate(order):
        label = found[i][0]
        best, best_iou = -1, iou_match
        for j in range(len(truth)):
            if not used[j] and truth[j][0] == label and overl[row, j] >= best_iou:
                best, best_iou = j, overl[row, j]
        if best >= 0:
            used[best] = True
            tp += 1
            continue
        if ign[row] >= iou_match:
            continue
        fp += 1
        if len(truth):
            j = int(np.argmax(overl[row]))
            if overl[row, j] >= iou_match and not used[j]:
                confusions.append((truth[j][0], label))
    located = int((overl >= iou_match).any(axis=0).sum()) if len(found) else 0
    return ImageScore(tp, fp, len(truth) - tp, tuple(confusions), (), located)


def labels_only(entry: LabelledImage) -> bool:
    """The photo's tiles are labelled without boxes (it is scored by ``score_labels``)."""
    return bool(entry.tiles) and all(t.box is None for t in entry.tiles)


def score_labels(truth: Iterable[str], read: Iterable[str]) -> ImageScore:
    """Tiles read against tiles labelled, as multisets; 'other' is neither right nor wrong.

    >>> score_labels(["5m", "5m", "9p", "other"], ["5m", "6p", "9p", "9p"])
    ImageScore(tp=2, fp=2, fn=1, confusions=(), special=(), located=0)
    """
    want = Counter(t for t in truth if t != "other")
    got = Counter(read)
    tp = sum((want & got).values())
    return ImageScore(tp, sum(got.values()) - tp, sum(want.values()) - tp, ())


@dataclass
class Totals:
    """Running sums over images; ``summary()`` gives the reported figures."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    located: int = 0
    images: int = 0
    exact: int = 0
    all_labelled: int = 0
    latencies: list[float] = field(default_factory=list)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    special: dict[str, list[int]] = field(default_factory=dict)  # name -> [right, total]

    def add(self, s: ImageScore, latency_ms: float) -> None:
        self.tp, self.fp, self.fn = self.tp + s.tp, self.fp + s.fp, self.fn + s.fn
        self.located += s.located
        self.images += 1
        self.exact += s.exact
        self.all_labelled += s.fn == 0
        self.latencies.append(latency_ms)
        self.confusions.update(s.confusions)
        for name, ok in s.special:
            cell = self.special.setdefault(name, [0, 0])
            cell[0] += ok
            cell[1] += 1

    def merge(self, other: Totals) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn
        self.located += other.located
        self.images += other.images
        self.exact += other.exact
        self.all_labelled += other.all_labelled
        self.latencies.extend(other.latencies)
        self.confusions.update(other.confusions)
        for name, (ok, total) in other.special.items():
            cell = self.special.setdefault(name, [0, 0])
            cell[0] += ok
            cell[1] += total

    def summary(self) -> dict[str, Any]:
        p = self.tp / max(1, self.tp + self.fp)
        r = self.tp / max(1, self.tp + self.fn)
        out: dict[str, Any] = {
            "images": self.images,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(2 * p * r / max(1e-9, p + r), 4),
            "exact_images": round(self.exact / max(1, self.images), 4),
            "labelled_right_images": round(self.all_labelled / max(1, self.images), 4),
            "located_recall": round(self.located / max(1, self.tp + self.fn), 4),
            "right": self.tp,  # the counts under recall and precision, for `vision.compare`
            "tiles": self.tp + self.fn,
            "read": self.tp + self.fp,
            "median_latency_ms": round(statistics.median(self.latencies), 1)
            if self.latencies
            else None,
            "confusions": [[a, b, n] for (a, b), n in self.confusions.most_common(10)],
        }
        for name, (ok, total) in sorted(self.special.items()):
            out[f"{name}_accuracy"] = round(ok / total, 4) if total else None
            out[f"{name}_count"] = total
        return out


def pose_checks(entry: LabelledImage, reading: Reading) -> list[tuple[str, bool]]:
    """Red-five, face-down and sideways right-ness for labelled tiles found at their place."""
    checks: list[tuple[str, bool]] = []
    boxes = np.array([t.box for t in reading.tiles], np.float64).reshape(-1, 4)
    for t in entry.tiles:
        hit = None
        if len(boxes):
            o = iou(np.array([t.box], np.float64), boxes)[0]
            j = int(np.argmax(o))
            hit = reading.tiles[j] if o[j] >= IOU_MATCH else None
        if t.label[0] == "0":
            checks.append(("red_five", hit is not None and hit.label == t.label))
        if t.label == "back" or t.face_down:
            checks.append(("face_down", hit is not None and hit.face_down))
        if t.sideways is not None:  # sideways (called) tiles, and upright ones kept upright
            name = "sideways" if t.sideways else "upright"
            checks.append((name, hit is not None and hit.sideways == t.sideways))
    if entry.layout is not None:
        checks.append(("grouping", grouping_matches(entry.layout, reading)))
    return checks


def _meld_key(kind: str, tiles: Sequence[str], truth: bool) -> tuple[str, list[str]]:
    """A meld compared by kind and sorted labels; a closed kan by its two face-up tiles, since
    the two face-down ones (which may hide a red five) cannot be read: a reading shows them as
    ``back``, the truth (laid out back, x, x, back) by their labels."""
    if kind == "ankan":
        shown = list(tiles[1:3]) if truth else [t for t in tiles if t != "back"]
        return kind, sorted(shown)
    return kind, sorted(tiles)


def grouping_matches(layout: dict[str, Any], reading: Reading) -> bool:
    """Exactly the labelled concealed tiles (any order), winning tile, melds and dora row."""
    got = reading.to_json()
    melds_ok = [_meld_key(m["kind"], m["tiles"], False) for m in got["melds"]] == [
        _meld_key(m["kind"], m["tiles"], True) for m in layout["melds"]
    ]
    return (
        sorted(got["concealed"]) == sorted(layout["concealed"])
        and got["winning"] == layout["winning"]
        and melds_ok
        and got["dora"] == list(layout["dora"])
    )


def read_image(entry: LabelledImage) -> np.ndarray:
    """The manifest entry's photo, or FileNotFoundError naming it."""
    img = cv2.imread(str(entry.path), cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"manifest image {entry.path} cannot be read")
    return img


def _score_reader(
    entry: LabelledImage, img: np.ndarray, read: Callable[[np.ndarray], Reading]
) -> tuple[ImageScore, float]:
    t0 = time.perf_counter()
    reading = read(img)
    ms = (time.perf_counter() - t0) * 1000
    if labels_only(entry):
        return score_labels((t.label for t in entry.tiles), (t.label for t in reading.tiles)), ms
    truth = [(t.label, t.box) for t in entry.tiles if t.label != "other"]
    ignore = [t.box for t in entry.tiles if t.label == "other"]
    found = [(t.label, t.box, t.confidence * t.detection_score) for t in reading.tiles]
    s = match_image(truth, found, ignore)
    poses = tuple(pose_checks(entry, reading))
    return ImageScore(s.tp, s.fp, s.fn, s.confusions, poses, s.located), ms


def _score_peer(
    entry: LabelledImage, img: np.ndarray, detect: Callable[[Any], list[Detection]]
) -> tuple[ImageScore, float]:
    """The peer knows the 34 kinds only: red fives count as fives, face-down tiles are ignored."""
    t0 = time.perf_counter()
    found = detect(img)
    ms = (time.perf_counter() - t0) * 1000
    if labels_only(entry):
        kinds = (kind_of(t.label) for t in entry.tiles if t.label not in ("other", "back"))
        return score_labels(kinds, (label for label, _, _ in found)), ms
    truth = [(kind_of(t.label), t.box) for t in entry.tiles if t.label not in ("other", "back")]
    ignore = [t.box for t in entry.tiles if t.label in ("other", "back")]
    return match_image(truth, found, ignore), ms


def evaluate_reader(
    entries: Sequence[LabelledImage],
    read: Callable[[np.ndarray], Reading],
    progress: Callable[[Sequence[LabelledImage]], Any] = iter,
) -> Totals:
    totals = Totals()
    for e in progress(entries):
        totals.add(*_score_reader(e, read_image(e), read))
    return totals


def evaluate_side_by_side(
    entries: Sequence[LabelledImage],
    read: Callable[[np.ndarray], Reading],
    detect: Callable[[Any], list[Detection]],
    progress: Callable[[Sequence[LabelledImage]], Any] = iter,
) -> tuple[Totals, Totals]:
    """Ours and the peer on each image in turn, which goes first alternating, so a slow spell
    of a shared machine falls on both readers' latencies alike (run one pass after the other,
    the same code's latency against the peer's measured from 0.89x to 1.30x between runs)."""
    ours, peer = Totals(), Totals()
    for k, e in enumerate(progress(entries)):
        img = read_image(e)
        if k % 2:
            peer.add(*_score_peer(e, img, detect))
            ours.add(*_score_reader(e, img, read))
        else:
            ours.add(*_score_reader(e, img, read))
            peer.add(*_score_peer(e, img, detect))
    return ours, peer
