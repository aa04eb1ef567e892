"""The pipeline: find tiles, refine the boxes, classify crops, lay them out, decode -> Reading.

``Recogniser.load(models_dir)`` checks and warms both models once; ``read(frame)`` keeps no
per-frame state, so one recogniser may serve every request. Each stage lives in its own module
(``find``, ``proportions``, ``refine``, ``pairs``, ``classify``, ``standing_tops``,
``blank_faces``, ``face_tops``, ``assemble`` with ``layout`` and ``decode``); ``read`` calls
them in order. ``with_taught(taught)`` gives a recogniser that weighs every crop's labels by a
table's taught tiles (``vision.taught``, ``vision.teach``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.assemble import assemble
from vision.blank_faces import with_blank_faces
from vision.boxes import boxes_of, framed_box
from vision.classify import BACK, WHITE, Classifier, crop_turn
from vision.config import VisionConfig
from vision.decode import CompleteCheck
from vision.face_tops import with_face_tops
from vision.find import Finder, Located
from vision.pairs import split_pairs
from vision.postprocess import Candidate
from vision.proportions import at_true_proportions
from vision.reading import Reading
from vision.refine import split_stacks, with_weak_peaks, without_nested, without_slivers
from vision.session import ModelSession
from vision.standing_tops import without_standing_tops
from vision.taught import TaughtSet, TaughtSetError

FINDER_FILE = "tile_finder.onnx"
CLOSE_FINDER_FILE = "tile_finder_close.onnx"  # optional: the finder of frames seen close
CLASSIFIER_FILE = "tile_classifier.onnx"
# optional: the classifier asked about the crops the first is unsure of (``Classifier.second``)
SECOND_CLASSIFIER_FILE = "tile_classifier_second.onnx"


def default_models_dir() -> Path:
    """``models/`` at the repository root (beside the ``vision`` package)."""
    return Path(__file__).resolve().parents[1] / "models"


@dataclass(frozen=True)
class Recogniser:
    """The checked model sessions (the close-up finder's and the second classifier's where they
    ship) plus the thresholds, and the table's taught tiles if any."""

    finder: ModelSession
    classifier: ModelSession
    config: VisionConfig = field(default_factory=VisionConfig)
    taught: TaughtSet | None = None
    close_finder: ModelSession | None = None
    second_classifier: ModelSession | None = None

    @classmethod
    def load(
        cls,
        models_dir: Path | str | None = None,
        config: VisionConfig | None = None,
        taught: TaughtSet | Path | str | None = None,
        classifiers: Path | str | None = None,
    ) -> Recogniser:
        """Load ``tile_finder.onnx`` and ``tile_classifier.onnx`` (+ cards) from ``models_dir``,
        and ``tile_finder_close.onnx`` and ``tile_classifier_second.onnx`` where they are there;
        ``taught``: a taught set, or the folder / file it was saved to (``with_taught``);
        ``classifiers``: a folder whose classifiers replace ``models_dir``'s, the second too
        (a left-out pair: the finders stay the models folder's)."""
        folder = Path(models_dir) if models_dir else default_models_dir()
        cfg = config or VisionConfig()

        def path(name: str) -> Path:
            swapped = classifiers and name in (CLASSIFIER_FILE, SECOND_CLASSIFIER_FILE)
            return Path(classifiers) / name if swapped else folder / name

        def load(name: str) -> ModelSession:
            return ModelSession.load(path(name), cfg.threads, reference=cfg.reference_kernels)

        def optional(name: str) -> ModelSession | None:
            return load(name) if path(name).exists() else None

        plain = cls(load(FINDER_FILE), load(CLASSIFIER_FILE), cfg,
                    close_finder=optional(CLOSE_FINDER_FILE),
                    second_classifier=optional(SECOND_CLASSIFIER_FILE))
        plain._classifier().check_second()
        if taught is None:
            return plain
        if not isinstance(taught, TaughtSet):
            taught = TaughtSet.load(taught, plain.classifier_sha256)
        return plain.with_taught(taught)

    @property
    def classifier_sha256(self) -> str:
        """The classifier's sha256 (checked at load): what a taught set is tied to."""
        return str(self.classifier.card["sha256"])

    def with_taught(self, taught: TaughtSet | None) -> Recogniser:
        """This recogniser reading with ``taught`` (None: without any); TaughtSetError when it
        was taught with another classifier, ValueError when the classifier lacks the
        ``features`` output."""
        if taught is not None:
            if taught.classifier_sha256 != self.classifier_sha256:
                raise TaughtSetError(
                    "the taught tiles were taught with another classifier "
                    f"({taught.classifier_sha256[:16]}..., this one is "
                    f"{self.classifier_sha256[:16]}...): teach the table's tiles again"
                )
            Classifier(self.classifier, self.config)._features_index()  # raises without it
        return replace(self, taught=taught)

    @property
    def cards(self) -> tuple[dict[str, Any], ...]:
        """Every model's card: the finder's, the classifier's, the close-up finder's and the
        second classifier's if any."""
        models = (self.finder, self.classifier, self.close_finder, self.second_classifier)
        return tuple(m.card for m in models if m is not None)

    def _finder(self) -> Finder:
        return Finder(self.finder, self.config, self.close_finder)

    def _classifier(self) -> Classifier:
        return Classifier(self.classifier, self.config, self.taught, self.second_classifier)

    def find(self, frame_bgr: np.ndarray) -> list[Candidate]:
        """Stage 1: the finder's located tiles (boxes in image pixels), strongest first (``read``
        also weighs a close-up look with the classifier: ``Finder.locate``)."""
        return list(self._finder().locate(frame_bgr).found)

    def peaks(self, frame_bgr: np.ndarray, heat: float) -> list[Candidate]:
        """The finder's peaks of at least ``heat`` (boxes in frame pixels, strongest first) as
        ``read`` first finds them: on the frame at its true proportions. At
        ``back_recovery_heat`` the weakest any later stage keeps."""
        finder, classifier = self._finder(), self._classifier()
        located = finder.locate(frame_bgr, classifier.sureness)
        wider = at_true_proportions(frame_bgr, located.found, self.config)
        if wider is None:
            return located.view.peaks(heat, self.config.nms_iou)
        canvas, back = wider
        found = finder.locate(canvas, widened=True).view.peaks(heat, self.config.nms_iou)
        return [replace(c, box=framed_box(c.box, back)) for c in found]

    def finder_input(self, image: np.ndarray) -> np.ndarray:
        """The finder's [1, 3, S, S] input for a whole frame (letterboxed as its card says)."""
        return self._finder().input(image)

    def classifier_input(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, angle: float = 0.0
    ) -> np.ndarray:
        """The classifier's [N, 3, S, S] crops of the boxes (size and padding from its card),
        turned ``angle`` degrees about each box's centre."""
        return Classifier(self.classifier, self.config).input(frame_bgr, boxes, angle)

    def classify(
        self, frame_bgr: np.ndarray, boxes: np.ndarray, turn: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """Stage 2: [N, 38] class probabilities for the boxes, and the glyph-axis and tile
        heads' chances where the classifier has them (``classify.Classifier.classify``), weighed
        by the taught tiles when this recogniser has them: the first classifier's, on which every
        stage decides (the labels add the second's opinion: ``Classifier.cascaded``)."""
        return self._classifier().classify(frame_bgr, boxes, turn)

    def read(self, frame_bgr: np.ndarray, complete: CompleteCheck | None = None) -> Reading:
        """Read every tile of a BGR frame and group them; ``complete`` is the kiosk's optional
        winning-shape check used by the decoder."""
        return self._read(frame_bgr, complete)

    def _read(
        self, frame_bgr: np.ndarray, complete: CompleteCheck | None, widened: bool = False
    ) -> Reading:
        """``read``; a frame resized out of a camera's proportions
        (``proportions.at_true_proportions``) is read at them instead, ``widened``."""
        cfg = self.config
        finder, classifier = self._finder(), self._classifier()
        located = finder.locate(frame_bgr, None if widened else classifier.sureness, widened)
        wider = None if widened else at_true_proportions(frame_bgr, located.found, cfg)
        if wider is not None:
            canvas, back = wider
            size = (frame_bgr.shape[1], frame_bgr.shape[0])
            return self._framed(self._read(canvas, complete, widened=True), back, size)
        reading = self._stages(frame_bgr, located.found, located, classifier, complete)
        if reading.tiles or not cfg.read_filling:
            return reading
        lone = _lone(frame_bgr, located.found, classifier)
        if lone:  # the tile the finder boxed filling the frame, whatever the tile head says
            reading = self._stages(frame_bgr, lone, located, classifier, complete, every=True)
            if reading.tiles:
                return reading
        filling = _filling(frame_bgr, classifier, cfg)
        if not filling:
            return reading
        return self._stages(frame_bgr, filling, located, classifier, complete)

    def _stages(
        self,
        frame_bgr: np.ndarray,
        found: Sequence[Candidate],
        located: Located,
        classifier: Classifier,
        complete: CompleteCheck | None,
        every: bool = False,
    ) -> Reading:
        """The located tiles ``found`` read: cut, labelled (``every``: none dropped by the tile
        head), grouped."""
        cfg = self.config
        shape, size = frame_bgr.shape[:2], (frame_bgr.shape[1], frame_bgr.shape[0])
        found = split_stacks(frame_bgr, list(found), classifier, cfg)
        found = split_pairs(frame_bgr, found, classifier, cfg)
        found = without_slivers(found, shape, cfg)
        tiles = classifier.label(frame_bgr, found, crop_turn(found, cfg), every)
        tiles = with_weak_peaks(frame_bgr, tiles, located.view, classifier, cfg)
        if located.close:  # the finder boxes parts of tiles larger than it learned
            tiles = without_nested(tiles, cfg)
        tiles = without_standing_tops(tiles, cfg)
        tiles = with_blank_faces(frame_bgr, tiles, cfg)
        return with_face_tops(frame_bgr, assemble(tiles, cfg, size, complete), cfg)

    @staticmethod
    def _framed(inner: Reading, back: np.ndarray, size: tuple[int, int]) -> Reading:
        """A reading of a canvas resized from the frame, its boxes mapped back to the
        frame's pixels by the 2x3 affine ``back``; ``size``: the frame's (width, height)."""
        tiles = tuple(replace(t, box=framed_box(t.box, back)) for t in inner.tiles)
        return Reading(tiles, inner.grouping, inner.problems, size)


def _lone(
    frame_bgr: np.ndarray, found: Sequence[Candidate], classifier: Classifier
) -> list[Candidate]:
    """In a frame from which no tile is read, the largest box the finder found where it covers
    at least half the frame: the tile fills the frame, so the finder's box is a tile whatever
    the tile head says. None where there is no such box, or it is read likeliest as a White or
    a back (as `_filling`: a plain wall or cloth reads so)."""
    h, w = frame_bgr.shape[:2]
    boxes = boxes_of(found)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    if not len(areas) or areas.max() < h * w / 2:
        return []
    largest = int(areas.argmax())
    probs, _, _ = classifier.classify(frame_bgr, boxes[largest : largest + 1])
    return [] if int(probs[0].argmax()) in (WHITE, BACK) else [found[largest]]


def _filling(frame_bgr: np.ndarray, classifier: Classifier, cfg: VisionConfig) -> list[Candidate]:
    """A frame from which no tile is read, as one tile filling it where the classifier reads the
    whole frame surely (``flip_below``): a tile seen so close that no look shows it whole with
    table around it. Else none; nor a White or a back, as a plain wall or cloth is read."""
    h, w = frame_bgr.shape[:2]
    box = (0.0, 0.0, float(w), float(h))
    probs, _, _ = classifier.classify(frame_bgr, np.array([box], np.float32))
    if float(probs.max()) < cfg.flip_below or int(probs[0].argmax()) in (WHITE, BACK):
        return []
    return [Candidate(box, float(probs.max()), math.pi / 2 if h >= w else 0.0, 0.0)]
