"""The session wrapper loads only a model that matches its card (sha256 and labels)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from vision.session import ModelError, ModelSession

MODELS = Path(__file__).resolve().parents[2] / "models"
CLASSIFIER = MODELS / "tile_classifier.onnx"


@pytest.fixture
def copied(tmp_path):
    for name in ("tile_classifier.onnx", "tile_classifier.json"):
        shutil.copy(MODELS / name, tmp_path / name)
    return tmp_path / "tile_classifier.onnx"


def edit_card(model: Path, **changes):
    card_path = model.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card.update(changes)
    card_path.write_text(json.dumps(card))


def test_the_shipped_classifier_loads_and_gives_38_logits():
    session = ModelSession.load(CLASSIFIER)
    assert session.labels == tuple(MODEL_CLASSES)
    side = session.card["input"]["shape"][2]
    out = session.run(np.full((2, 3, side, side), 127.0, np.float32))
    assert out.shape == (2, 38)


def test_a_batch_of_another_type_or_layout_reads_as_its_float32_copy():
    """``run_all`` passes a contiguous float32 batch as it is and converts any other: a half-turned
    view (strides backwards) or float64 crops read exactly as their contiguous float32 copy."""
    session = ModelSession.load(CLASSIFIER)
    side = session.card["input"]["shape"][2]
    crops = np.random.default_rng(3).uniform(0, 255, (3, 3, side, side)).astype(np.float32)
    turned = crops[:, :, ::-1, ::-1]
    expected = session.run(np.ascontiguousarray(turned))
    assert not np.array_equal(expected, session.run(crops))  # the turn changes what is read
    np.testing.assert_array_equal(session.run(turned), expected)
    np.testing.assert_array_equal(session.run(crops.astype(np.float64)), session.run(crops))


def test_a_changed_model_file_is_rejected(copied):
    data = bytearray(copied.read_bytes())
    data[-1] ^= 0xFF
    copied.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="sha256 .* does not match its card"):
        ModelSession.load(copied)


def test_labels_in_another_order_are_rejected(copied):
    labels = list(MODEL_CLASSES)
    labels[4], labels[5] = labels[5], labels[4]
    edit_card(copied, labels=labels)
    with pytest.raises(ModelError, match="labels do not match .* 4: card '6m' vs ours '5m'"):
        ModelSession.load(copied)


def test_a_missing_card_is_named(copied):
    copied.with_suffix(".json").unlink()
    with pytest.raises(ModelError, match="model card .*tile_classifier.json not found"):
        ModelSession.load(copied)
