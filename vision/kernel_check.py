"""Does this CPU read tiles as every other does? Optimised kernels against the reference ones.

onnxruntime picks its int8 kernels by CPU (x86 with or without VNNI, ARM with or without dot
products); a model whose fused kernels compute something else than its graph says reads other
tiles on some CPUs only. This check runs each shipped model in the optimised session and in the
reference session (graph optimisations off: every QDQ pair in float, alike on every CPU) on the
same frames and compares what they output and what the recogniser reads.

Tolerances: the tiles read (labels, sideways / face-down flags, grouping) must be identical;
the finder's tile heat (a probability) and the classifier's class probabilities may differ by
at most ``MAX_PROB_DIFF``, room for the fused kernels rounding a few activations one uint8
step the other way (figures for each CPU: docs/vision.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.postprocess import sigmoid, softmax
from vision.reading import Reading
from vision.recogniser import Recogniser
from vision.words import summary

MAX_PROB_DIFF = 0.05
DEMO_FRAMES = Path(__file__).resolve().parent / "demo_frames"
SAMPLE_FRAMES = Path(__file__).resolve().parent / "sample_frames"  # the tests' (no yaku)


@dataclass(frozen=True)
class FrameCheck:
    """One frame read by both sessions."""

    frame: str
    finder_diff: float  # largest |optimised - reference| tile heat over the finders' maps
    classifier_diff: float  # largest class-probability difference over the frame's crops
    optimised: str | None = None  # the readings' summaries (None: outputs only)
    reference: str | None = None

    @property
    def same_reading(self) -> bool:
        return self.optimised == self.reference

    @property
    def agrees(self) -> bool:
        return (
            self.same_reading
            and self.finder_diff <= MAX_PROB_DIFF
            and self.classifier_diff <= MAX_PROB_DIFF
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "frame": self.frame,
            "finder_diff": round(self.finder_diff, 5),
            "classifier_diff": round(self.classifier_diff, 5),
            "optimised": self.optimised,
            "reference": self.reference,
            "agrees": self.agrees,
        }


def reading_text(reading: Reading) -> str:
    """Everything a player would see of a reading: labels, flags and groups."""
    flags = "".join("s" if t.sideways else "d" if t.face_down else "." for t in reading.tiles)
    return f"{summary(reading)} || {flags}"


def frame_paths(paths: Sequence[Path]) -> list[Path]:
    """Image files given, or those in the folders given (JPEG / PNG), in name order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES))
        elif path.exists():
            found.append(path)
        else:
            raise ValueError(f"no image or folder at {path}")
    return found


IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def _heat(maps: np.ndarray) -> np.ndarray:
    return sigmoid(maps[:, 0].astype(np.float64))


def check_frame(
    optimised: Recogniser, reference: Recogniser, frame: np.ndarray, name: str, read: bool = True
) -> FrameCheck:
    """Both sessions on one frame: the finders (the close-up finder's too, where one ships) on
    the letterboxed frame, the classifiers (the second's too, where one ships) on the crops of
    the tiles the optimised finder locates, and (with ``read``) the whole reading."""
    square = optimised.finder_input(frame)
    finders = [(optimised.finder, reference.finder)]
    if optimised.close_finder is not None and reference.close_finder is not None:
        finders.append((optimised.close_finder, reference.close_finder))
    finder_diff = max(
        float(np.abs(_heat(ours.run(square)) - _heat(theirs.run(square))).max())
        for ours, theirs in finders
    )
    boxes = np.array([c.box for c in optimised.find(frame)], np.float32).reshape(-1, 4)
    crops = optimised.classifier_input(frame, boxes)
    classifiers = [(optimised.classifier, reference.classifier)]
    if optimised.second_classifier is not None and reference.second_classifier is not None:
        classifiers.append((optimised.second_classifier, reference.second_classifier))
    classifier_diff = 0.0
    if len(crops):
        classifier_diff = max(
            float(np.abs(softmax(ours.run(crops)) - softmax(theirs.run(crops))).max())
            for ours, theirs in classifiers
        )
    if not read:
        return FrameCheck(name, finder_diff, classifier_diff)
    return FrameCheck(
        name,
        finder_diff,
        classifier_diff,
        reading_text(optimised.read(frame)),
        reading_text(reference.read(frame)),
    )


SELF_CHECK_FRAME = SAMPLE_FRAMES / "hand_12_019.jpg"  # its 333p read as 555p on a saturating CPU


def self_check(recogniser: Recogniser) -> FrameCheck:
    """The recogniser's models against their reference kernels on one shipped frame, outputs
    only (a start-up check: a fraction of a second)."""
    reference = Recogniser.load(
        recogniser.finder.path.parent, replace(recogniser.config, reference_kernels=True)
    )
    frame = cv2.imread(str(SELF_CHECK_FRAME), cv2.IMREAD_COLOR)
    return check_frame(recogniser, reference, frame, SELF_CHECK_FRAME.name, read=False)


def check_kernels(
    frames: Sequence[Path],
    models_dir: Path | None = None,
    config: VisionConfig | None = None,
    read: bool = True,
) -> list[FrameCheck]:
    """Every frame through the optimised and the reference sessions of the models in
    ``models_dir`` (default: the shipped ones)."""
    cfg = config or VisionConfig()
    optimised = Recogniser.load(models_dir, replace(cfg, reference_kernels=False))
    reference = Recogniser.load(models_dir, replace(cfg, reference_kernels=True))
    checks = []
    for path in frame_paths(frames):
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise ValueError(f"cannot read image {path}")
        checks.append(check_frame(optimised, reference, frame, path.name, read))
    return checks
