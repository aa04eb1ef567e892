"""The second classifier (`tile_classifier_second.onnx`, where it ships) is asked only about the
crops the first reads unsurely (a cascade): there its two views' mean and the first's six-view
mean are averaged; every crop the first reads surely, every box and the glyph's axis stay the
first's. It must cut the first's crops, and the kernel check compares it too."""

import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.postprocess import softmax
from vision.recogniser import CLASSIFIER_FILE, SECOND_CLASSIFIER_FILE, Recogniser
from vision.recogniser import default_models_dir as shipped_models
from vision.session import ModelError, ModelSession

DEMO = Path(__file__).resolve().parents[2] / "vision" / "sample_frames" / "hand_12_000.jpg"
EVERY_CROP_UNSURE = VisionConfig(flip_below=1.01)  # no top probability reaches it


def _models(folder: Path, second: Path | None) -> Path:
    """The shipped models copied to ``folder``, with ``second`` (an .onnx beside its card) as
    the second classifier, or none."""
    shutil.copytree(shipped_models(), folder, ignore=shutil.ignore_patterns("*.pt"))
    for suffix in (".onnx", ".json"):
        ours = (folder / SECOND_CLASSIFIER_FILE).with_suffix(suffix)
        ours.unlink(missing_ok=True)
        if second is not None:
            shutil.copy(second.with_suffix(suffix), ours)
    return folder


def _boxes(rec: Recogniser, frame: np.ndarray) -> np.ndarray:
    return np.array([c.box for c in rec.find(frame)], np.float32)


def test_unsure_crops_average_the_first_six_views_with_the_second_two(tmp_path):
    # the first classifier as its own second: the expected mean is computed from its raw outputs
    folder = _models(tmp_path / "m", shipped_models() / CLASSIFIER_FILE)
    cascade = Recogniser.load(folder, EVERY_CROP_UNSURE)
    alone = Recogniser.load(_models(tmp_path / "alone", None), EVERY_CROP_UNSURE)
    assert cascade.second_classifier is not None and alone.second_classifier is None
    assert [c["kind"] for c in cascade.cards][-1] == "classifier"
    frame = cv2.imread(str(DEMO))
    boxes = _boxes(alone, frame)
    assert len(boxes) == 14
    six = alone.classify(frame, boxes)[0]
    crops = alone.classifier_input(frame, boxes)
    plain = softmax(alone.classifier.run(crops))
    turned = softmax(alone.classifier.run(np.ascontiguousarray(crops[:, :, ::-1, ::-1])))
    probs, opinion, _, _ = cascade._classifier().cascaded(frame, boxes)
    np.testing.assert_allclose(opinion, (six + (plain + turned) / 2) / 2, atol=1e-6)
    # what the stages decide on stays the first classifier's alone
    np.testing.assert_array_equal(probs, six)
    np.testing.assert_array_equal(cascade.classify(frame, boxes)[0], six)


def test_the_second_classifier_moves_labels_only_never_a_box(tmp_path):
    shipped = Recogniser.load(config=EVERY_CROP_UNSURE)
    assert shipped.second_classifier is not None  # issue 36, session 41: it ships
    alone = Recogniser.load(_models(tmp_path / "alone", None), EVERY_CROP_UNSURE)
    frame = cv2.imread(str(DEMO))
    ours, theirs = shipped.read(frame), alone.read(frame)
    assert [t.box for t in ours.tiles] == [t.box for t in theirs.tiles]
    # every crop asked, so the labels' confidences move (the second reads crops otherwise)
    assert [t.confidence for t in ours.tiles] != [t.confidence for t in theirs.tiles]


def test_a_second_classifier_cutting_other_crops_is_refused(tmp_path):
    folder = _models(tmp_path / "m", shipped_models() / CLASSIFIER_FILE)
    card_path = (folder / SECOND_CLASSIFIER_FILE).with_suffix(".json")
    card = json.loads(card_path.read_text())
    card["input"]["crop"]["pad"] = 0.12  # a classifier taught on crops padded otherwise
    card_path.write_text(json.dumps(card))
    with pytest.raises(ModelError, match=r"tile_classifier_second.onnx: reads other crops"):
        Recogniser.load(folder)
    card["input"]["shape"] = ["n", 3, 48, 48]  # a card that lies about its model
    card_path.write_text(json.dumps(card))
    with pytest.raises(ModelError, match=r"second.onnx: input shape \['n', 3, 64, 64\] differs"):
        Recogniser.load(folder)
    finder = _models(tmp_path / "f", shipped_models() / "tile_finder.onnx")
    with pytest.raises(ModelError, match=r"second.onnx: a finder, not a classifier"):
        Recogniser.load(finder)


def test_the_kernel_check_compares_the_second_classifier_too(tmp_path):
    from vision.kernel_check import MAX_PROB_DIFF, check_frame

    shipped = Recogniser.load()
    assert shipped.second_classifier is not None  # issue 36, session 41: it ships
    frame = cv2.imread(str(DEMO))
    # the first classifier standing in for the second on one side: they read crops differently
    first = ModelSession.load(shipped_models() / CLASSIFIER_FILE, 1)
    check = check_frame(replace(shipped, second_classifier=first), shipped, frame, "demo", False)
    assert check.classifier_diff > MAX_PROB_DIFF and not check.agrees
    assert check_frame(shipped, shipped, frame, "demo", read=False).classifier_diff == 0.0


def test_the_stages_carry_the_second_opinion_beside_the_first_classifiers_probabilities():
    from vision.classify import LabelledTiles
    from vision.postprocess import Candidate

    def tiles(n: int, first: float, opinion: float | None) -> LabelledTiles:
        found = tuple(Candidate((10.0 * k, 0, 10.0 * k + 8, 12), 0.9, 0, 0) for k in range(n))
        probs = np.full((n, 38), first, np.float32)
        second = None if opinion is None else np.full((n, 38), opinion, np.float32)
        return LabelledTiles(found, probs, None, 0.0, second)

    located, weak = tiles(3, 0.1, None), tiles(2, 0.2, 0.3)
    assert located.labels is located.probs  # no opinion: labelled by the first's
    both = located.plus(weak, [1])  # a weak peak kept, with its opinion
    assert both.probs[:, 0].tolist() == pytest.approx([0.1, 0.1, 0.1, 0.2])
    assert both.labels[:, 0].tolist() == pytest.approx([0.1, 0.1, 0.1, 0.3])
    kept = both.without([0])
    assert kept.probs[:, 0].tolist() == pytest.approx([0.1, 0.1, 0.2])
    assert kept.labels[:, 0].tolist() == pytest.approx([0.1, 0.1, 0.3])
    assert located.plus(tiles(2, 0.2, None), [0]).opinion is None
