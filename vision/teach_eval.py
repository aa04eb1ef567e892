"""Measure teaching on a labelled manifest: taught from a few of its photos, read on the others.

``python -m vision teach-eval MANIFEST --photos 8``: the photos to teach from are picked by a
greedy cover of the manifest's labels (``cover``: every kind present in as few photos as
possible, then every kind a second time, and so on while photos are left, the earlier photo of
the manifest first on a tie), so they show every kind together. Their tiles are located as the
kiosk's teaching page locates them (``teach.located_tiles``) and labelled from the manifest
(the best-overlapping labelled tile, IoU >= 0.3, each tile once): in the kiosk the expected
order gives the labels, here the manifest stands in. The remaining photos are read without and
with the taught set and scored at IoU 0.5 and 0.4 (``MATCH_IOUS``): recall, located (some box
on the tile, any label), the share of located tiles read right, and within reach (some box of
the reading's or some finder peak down to ``back_recovery_heat`` on the tile: the most that any
rule for keeping weak peaks, taught or not, could locate with this finder).

With ``tune``, the mixing's weight and temperature are chosen by leave-one-photo-out inside
the teaching photos only (``leave_one_out``): each teaching photo's labelled tiles are
classified with a set taught from the other teaching photos, and the setting that reads most of
them right (then: gives the right labels the highest mean log-probability) is kept. The
measured photos never choose anything.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from scorer.tiles import MODEL_CLASSES
from scorer.words import columns, pad
from vision.boxes import Box
from vision.classify import Classifier
from vision.evaluate import match_image, read_image
from vision.manifest import LabelledImage
from vision.postprocess import iou
from vision.reading import Reading
from vision.recogniser import Recogniser
from vision.teach import Shot, located_tiles, teach
from vision.words import VISION

MATCH_IOUS = (0.5, 0.4)
TEACH_IOU = 0.3  # a located box takes the label of the labelled tile it overlaps this much
#: (taught_weight, taught_temperature) settings ``leave_one_out`` chooses from
GRID = tuple((w, t) for w in (0.5, 1.0, 2.0, 4.0) for t in (0.02, 0.05, 0.1))

Progress = Callable[..., Any]  # (items, desc=KEY): KEY names the step in vision's catalogue


def _kinds(entry: LabelledImage) -> set[str]:
    return {t.label for t in entry.tiles if t.label != "other"}


def _kinds_listed(entry: LabelledImage) -> list[str]:
    return [t.label for t in entry.tiles if t.label != "other"]


def cover(
    entries: Sequence[LabelledImage],
    photos: int,
    usable: Callable[[int], bool] = lambda i: True,
) -> list[int]:
    """Indices of at most ``photos`` entries that show every kind present: greedily the photo
    with the most kinds shown fewest times so far (ties: the earlier), until every kind is shown
    once; then again for a second time, and so on, while a photo adds one. A photo ``usable``
    refuses is passed over (the kiosk would have asked for it again: a tile not found).

    >>> from vision.manifest import LabelledTile
    >>> def e(*labels):
    ...     tiles = tuple(LabelledTile(x, (0, 0, 1, 1)) for x in labels)
    ...     return LabelledImage("", None, 1, 1, "", tiles)
    >>> shots = [e("1m"), e("1m", "2m"), e("3m"), e("2m", "3m"), e("1m")]
    >>> cover(shots, 4), cover(shots, 4, usable=lambda i: i != 1)
    ([1, 2, 3, 0], [3, 0, 2, 4])
    """
    kinds = [_kinds(e) for e in entries]
    shown = dict.fromkeys(set().union(*kinds) if kinds else (), 0)
    chosen: list[int] = []
    passed: set[int] = set()
    while len(chosen) < photos and shown:
        least = min(shown.values())
        gains = [
            -1 if i in chosen or i in passed else sum(shown[k] == least for k in kinds[i])
            for i in range(len(entries))
        ]
        best = int(np.argmax(gains))
        if gains[best] <= 0:
            break
        if not usable(best):
            passed.add(best)
            continue
        chosen.append(best)
        for k in kinds[best]:
            shown[k] += 1
    return chosen


def manifest_labels(
    boxes: Sequence[tuple[float, ...]], entry: LabelledImage, min_iou: float = TEACH_IOU
) -> list[str | None]:
    """Each box's label: the labelled tile it overlaps most (IoU >= ``min_iou``), pairs taken
    best first and each tile once; None for a box on no labelled tile (or on an ``other``)."""
    labels: list[str | None] = [None] * len(boxes)
    truth = [t for t in entry.tiles]
    if not len(boxes) or not truth:
        return labels
    o = iou(np.asarray(boxes, np.float64).reshape(-1, 4), np.array([t.box for t in truth]))
    used_box, used_tile = set(), set()
    for flat in np.argsort(-o, axis=None, kind="stable").tolist():
        i, j = divmod(flat, len(truth))
        if o[i, j] < min_iou:
            break
        if i in used_box or j in used_tile:
            continue
        used_box.add(i)
        used_tile.add(j)
        labels[i] = None if truth[j].label == "other" else truth[j].label
    return labels


def manifest_shot(recogniser: Recogniser, entry: LabelledImage, frame: np.ndarray) -> Shot:
    """A teaching photo's located tiles labelled from the manifest (``manifest_labels``)."""
    boxes = located_tiles(recogniser, frame)
    return Shot(frame, tuple(boxes), tuple(manifest_labels(boxes, entry)))


@dataclass
class Tally:
    """Counts over photos at one IoU: labelled tiles, located (any label), read right, and
    within reach (some box of the reading's or of the finder's ``peaks`` on the tile: what any
    choice among the finder's weak peaks could locate at most)."""

    tiles: int = 0
    located: int = 0
    right: int = 0
    within_reach: int = 0
    confusions: Counter[tuple[str, str]] | None = None

    def add(
        self, entry: LabelledImage, reading: Reading, at_iou: float, peaks: Sequence[Box] = ()
    ) -> None:
        truth = [(t.label, t.box) for t in entry.tiles if t.label != "other"]
        ignore = [t.box for t in entry.tiles if t.label == "other"]
        found = [(t.label, t.box, t.confidence * t.detection_score) for t in reading.tiles]
        s = match_image(truth, found, ignore, iou_match=at_iou)
        self.tiles += len(truth)
        self.located += s.located
        self.right += s.tp
        self.confusions = (self.confusions or Counter()) + Counter(s.confusions)
        boxes = [t.box for t in reading.tiles] + list(peaks)
        if truth and boxes:
            o = iou(np.array([b for _, b in truth], np.float64), np.array(boxes, np.float64))
            self.within_reach += int((o.max(axis=1) >= at_iou).sum())

    def summary(self) -> dict[str, Any]:
        return {
            "tiles": self.tiles,
            "recall": round(self.right / max(1, self.tiles), 4),
            "located": round(self.located / max(1, self.tiles), 4),
            "located_right": round(self.right / max(1, self.located), 4),
            "within_reach": round(self.within_reach / max(1, self.tiles), 4),
            "confusions": [
                [a, b, n] for (a, b), n in (self.confusions or Counter()).most_common(8)
            ],
        }


def measure(
    recogniser: Recogniser,
    entries: Sequence[LabelledImage],
    frames: Sequence[np.ndarray],
    peaks: Sequence[Sequence[Box]],
    progress: Progress,
    desc: str,
) -> dict[str, dict[str, Any]]:
    """Each photo read once, scored at every IoU of ``MATCH_IOUS``, within reach with its
    finder ``peaks`` (``weak_peaks``)."""
    tallies = {at: Tally() for at in MATCH_IOUS}
    rows = list(zip(entries, frames, peaks, strict=True))
    for entry, frame, weak in progress(rows, desc=desc):
        reading = recogniser.read(frame)
        for at, tally in tallies.items():
            tally.add(entry, reading, at, weak)
    return {f"iou_{at}": tallies[at].summary() for at in MATCH_IOUS}


def weak_peaks(recogniser: Recogniser, frame: np.ndarray) -> list[Box]:
    """The frame's finder peaks down to ``back_recovery_heat``, the weakest a stage may keep
    (the finder's alone: the same taught or not)."""
    heat = recogniser.config.back_recovery_heat
    return [c.box for c in recogniser.peaks(frame, heat)]


def leave_one_out(
    recogniser: Recogniser, shots: Sequence[Shot], progress: Progress
) -> list[dict[str, Any]]:
    """For each (weight, temperature) of ``GRID``: how the teaching photos' labelled tiles are
    classified, each photo with a set taught from the others: ``right`` (top label right) and
    ``log_likelihood`` (mean log-probability of the right label, a proper score that tells
    settings apart where the counts tie)."""
    folds = []
    for k, shot in enumerate(progress(shots, desc="progress.tuning")):
        others = teach(recogniser, [s for j, s in enumerate(shots) if j != k])
        keep = [i for i, lab in enumerate(shot.labels) if lab is not None]
        if not keep:
            continue
        boxes = np.array([shot.boxes[i] for i in keep], np.float32)
        truth = np.array([MODEL_CLASSES.index(str(shot.labels[i])) for i in keep])
        classifier = Classifier(recogniser.classifier, recogniser.config)
        probs = classifier.classify(shot.frame, boxes)[0]
        folds.append((others, probs, classifier.features(shot.frame, boxes), truth))
    rows = []
    for weight, temperature in GRID:
        cfg = replace(recogniser.config, taught_weight=weight, taught_temperature=temperature)
        right, loglik, n = 0, 0.0, 0
        for taught, probs, feats, truth in folds:
            mixed = taught.weigh(probs, feats, cfg)
            right += int((mixed.argmax(axis=1) == truth).sum())
            loglik += float(np.log(np.maximum(mixed[np.arange(len(truth)), truth], 1e-12)).sum())
            n += len(truth)
        rows.append(
            {
                "weight": weight,
                "temperature": temperature,
                "right": right,
                "of": n,
                "log_likelihood": round(loglik / max(1, n), 4),
            }
        )
    return rows


def chosen_setting(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The row reading most right, then with the highest log-likelihood."""
    return max(rows, key=lambda r: (r["right"], r["log_likelihood"]))


def teach_eval(
    recogniser: Recogniser,
    entries: Sequence[LabelledImage],
    photos: int = 8,
    tune: bool = False,
    progress: Progress = lambda items, desc="": items,
    pool: Sequence[LabelledImage] | None = None,
) -> dict[str, Any]:
    """Teach from ``cover(pool, photos)`` (``pool``: photos to teach from, by default
    ``entries``), read the ``entries`` not taught from without and with the taught set; the
    figures as one JSON-ready dict (``seconds_to_teach``: decoding, locating and the features
    of the teaching photos, those passed over included; ``seconds_to_tune`` apart)."""
    pool = entries if pool is None else pool
    start = time.perf_counter()
    located: dict[int, Shot] = {}

    def usable(i: int) -> bool:  # every labelled tile located (else the kiosk asks again)
        located[i] = manifest_shot(recogniser, pool[i], read_image(pool[i]))
        return sorted(filter(None, located[i].labels)) == sorted(_kinds_listed(pool[i]))

    picked = cover(pool, photos, usable)
    shots = [located[i] for i in picked]
    taught = teach(recogniser, shots)
    seconds = time.perf_counter() - start
    taught_from = [pool[i] for i in picked]
    rest = [e for e in entries if e not in taught_from]
    cfg = recogniser.config
    out: dict[str, Any] = {
        "taught_from": [e.image for e in taught_from],
        "passed_over": [pool[i].image for i in sorted(set(located) - set(picked))],
        "kinds_taught": len(taught.kinds),
        "kinds_present": len(set().union(*(_kinds(e) for e in pool))),
        "tiles_taught": sum(lab is not None for s in shots for lab in s.labels),
        "seconds_to_teach": round(seconds, 2),
        "weight": cfg.taught_weight,
        "temperature": cfg.taught_temperature,
        "unknown_similarity": cfg.taught_unknown_similarity,
    }
    if tune and len(shots) < 2:
        out["tuning"] = []  # leave-one-out needs two teaching photos: the configured setting
    elif tune:
        start = time.perf_counter()
        rows = leave_one_out(recogniser, shots, progress)
        pick = chosen_setting(rows)
        out["seconds_to_tune"] = round(time.perf_counter() - start, 2)
        out["tuning"] = rows
        out["weight"], out["temperature"] = pick["weight"], pick["temperature"]
        cfg = replace(cfg, taught_weight=pick["weight"], taught_temperature=pick["temperature"])
    frames = [read_image(e) for e in rest]
    out["measured_photos"] = len(rest)
    peaks = [weak_peaks(recogniser, f) for f in frames]
    out["without"] = measure(recogniser, rest, frames, peaks, progress, "progress.untaught")
    tuned = replace(recogniser, config=cfg).with_taught(taught)
    out["with"] = measure(tuned, rest, frames, peaks, progress, "progress.taught")
    return out


def report(result: dict[str, Any], lang: str = "en") -> str:
    """The figures as a few lines of text, in `lang`."""
    none = VISION.t("teach_eval.none", lang)
    mixing = VISION.t("teach_eval.mixing", lang, weight=result["weight"],
                      temperature=result["temperature"],
                      similarity=result["unknown_similarity"])
    sides = {"without": VISION.t("teach_eval.without", lang),
             "with": VISION.t("teach_eval.taught", lang)}
    lines = [
        VISION.t("teach_eval.taught_from", lang, n=len(result["taught_from"]),
                 tiles=result["tiles_taught"], kinds=result["kinds_taught"],
                 present=result["kinds_present"], seconds=f"{result['seconds_to_teach']:.1f}",
                 photos=", ".join(result["taught_from"])),
        VISION.t("teach_eval.passed_over", lang,
                 photos=", ".join(result["passed_over"]) or none),
        mixing + (VISION.t("teach_eval.tuned", lang, seconds=result["seconds_to_tune"])
                  if result.get("tuning") else VISION.t("teach_eval.configured", lang)),
        VISION.t("teach_eval.read_on", lang, n=result["measured_photos"],
                 tiles=result["without"]["iou_0.5"]["tiles"]),
    ]
    figures = {key: VISION.t(f"metric.{key}", lang)
               for key in ("recall", "located", "located_right", "within_reach")}
    width = max([16, *(columns(label) + 1 for label in figures.values())])
    lines.append(" " * width + "".join(pad(f"IoU {at} {sides[side]}", 18, right=True)
                                       for at in MATCH_IOUS for side in ("without", "with")))
    for key, label in figures.items():
        vals = [result[side][f"iou_{at}"][key] for at in MATCH_IOUS for side in ("without", "with")]
        lines.append(pad(label, width) + "".join(f"{v:>18.4f}" for v in vals))
    for side, key in (("without", "teach_eval.confusions_without"),
                      ("with", "teach_eval.confusions_with")):
        pairs = ", ".join(f"{a}->{b} x{n}" for a, b, n in result[side]["iou_0.5"]["confusions"])
        lines.append(VISION.t(key, lang, pairs=pairs or none))
    return "\n".join(lines)
