"""The close-up finder (`tile_finder_close.onnx`, where it ships) takes every look at a frame seen
close, and only those: a hand seen whole is read by the finder alone."""

from pathlib import Path

import cv2
import pytest

torch = pytest.importorskip("torch", reason="drawing a model needs the `train` extra (torch)")

from tests.vision.test_closeups import (  # noqa: E402
    DEMO,
    ON,
    centre_label,
    close_ups,
    without_close_finder,
)
from vision.config import VisionConfig  # noqa: E402
from vision.recogniser import CLOSE_FINDER_FILE, Recogniser  # noqa: E402


def _models_with_blind_close_finder(folder: Path) -> Path:
    """The shipped models, and as close-up finder one that sees no tile anywhere (its heat logit
    -30 in every cell)."""
    from vision.training.finder_export import export_finder
    from vision.training.nets import TileFinder

    without_close_finder(folder)
    blind = TileFinder(width=8).eval()
    with torch.no_grad():
        blind.head[-1].weight.zero_()
        blind.head[-1].bias.zero_()
        blind.head[-1].bias[0] = -30.0
    export_finder(blind, folder / CLOSE_FINDER_FILE, {}, "", "", sources=[])
    return folder


def test_the_close_up_finder_is_loaded_where_it_ships(tmp_path):
    folder = _models_with_blind_close_finder(tmp_path / "models")
    rec = Recogniser.load(folder)
    assert rec.close_finder is not None
    assert [c["kind"] for c in rec.cards] == ["finder", "classifier", "finder"]
    (folder / CLOSE_FINDER_FILE).unlink()
    (folder / CLOSE_FINDER_FILE).with_suffix(".json").unlink()
    plain = Recogniser.load(folder)
    assert plain.close_finder is None and len(plain.cards) == 2


def test_a_frame_seen_close_is_looked_at_by_the_close_up_finder_only(tmp_path):
    folder = _models_with_blind_close_finder(tmp_path / "models")
    blind = Recogniser.load(folder, config=VisionConfig(closeup_shrinks=ON, read_filling=False))
    # each tile of the demo hand cut out and enlarged: the shipped finder alone reads every one
    # (test_closeups) through its shrunk looks; with a close-up finder that sees nothing, those
    # looks find nothing, and the whole look finds no tile at the centre of any (the frame is
    # then not read as one tile filling it here: that stage is tests/vision/test_filling.py)
    assert [centre_label(blind, img) for _, img in close_ups()] == [None] * 14
    # the demo hand seen whole (14 tiles of the usual size): never looked at close
    frame = cv2.imread(str(DEMO))
    assert blind.read(frame).to_json() == Recogniser.load().read(frame).to_json()


def test_the_kernel_check_compares_the_close_up_finder_too(tmp_path):
    from dataclasses import replace

    from vision.kernel_check import MAX_PROB_DIFF, check_frame
    from vision.session import ModelSession

    shipped = Recogniser.load()
    assert shipped.close_finder is not None  # issue 36: the close-up finder ships
    folder = _models_with_blind_close_finder(tmp_path / "models")
    blind = ModelSession.load(folder / CLOSE_FINDER_FILE, 1)
    frame = cv2.imread(str(DEMO))
    # the shipped close-up finder sees the demo hand's tiles (heat near 1); the blind one none
    check = check_frame(replace(shipped, close_finder=blind), shipped, frame, "demo", read=False)
    assert check.finder_diff > 0.5 > MAX_PROB_DIFF and not check.agrees
    assert check_frame(shipped, shipped, frame, "demo", read=False).finder_diff == 0.0
