"""A new finder stage starts where the shipped one is; standing tiles' boxes hold their tops."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_shipped_finder_rebuilt_for_training_gives_the_onnx_maps():
    torch = pytest.importorskip("torch")
    import onnxruntime as ort

    from vision.training.finder_weights import finder_from_onnx, freeze_batch_norms

    model = finder_from_onnx(MODELS / "tile_finder.onnx")
    x = np.random.default_rng(0).uniform(0, 255, (2, 3, 416, 416)).astype(np.float32)
    session = ort.InferenceSession(
        str(MODELS / "tile_finder.onnx"), providers=["CPUExecutionProvider"]
    )
    expected = session.run(None, {"image": x})[0]
    model.train()
    freeze_batch_norms(model)  # as a training step sees it: the folded norms unchanged
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    assert got.shape == expected.shape == (2, 7, 104, 104)
    assert np.abs(got - expected).max() < 1e-4


def test_a_file_of_another_architecture_is_refused(tmp_path):
    pytest.importorskip("torch")
    from vision.training.finder_weights import FinderWeightsError, finder_from_onnx

    with pytest.raises(FinderWeightsError, match="has weights"):
        finder_from_onnx(MODELS / "tile_finder.onnx", width=24)
    (tmp_path / "cut.onnx").write_bytes((MODELS / "tile_finder.onnx").read_bytes()[:5000])
    with pytest.raises(FinderWeightsError, match="cut.onnx: not an ONNX model"):
        finder_from_onnx(tmp_path / "cut.onnx")
    with pytest.raises(FinderWeightsError, match="none.onnx: not an ONNX model"):
        finder_from_onnx(tmp_path / "none.onnx")


def test_a_fine_tune_from_a_bad_start_is_refused_before_its_data_is_built(tmp_path):
    pytest.importorskip("torch")
    (tmp_path / "cut.onnx").write_bytes((MODELS / "tile_finder.onnx").read_bytes()[:5000])
    for flags, said in ((["--init", str(tmp_path / "cut.onnx")],
                         "error: --init " + str(tmp_path / "cut.onnx") + ": not an ONNX model"),
                        (["--keep-real", "1"], "--keep-real needs --teacher or --init")):
        run = subprocess.run(
            [sys.executable, "-m", "vision.training", "finder", *flags,
             "--out", str(tmp_path / "run")],
            capture_output=True, text=True, timeout=120,
        )
        assert run.returncode == 1 and said in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and not (tmp_path / "run").exists()


def _up_shift(tile) -> float:
    """How far the box's centre lies from the face's toward the glyph's top, in face heights."""
    q = np.array(tile.quad)
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    box = np.array(tile.box)
    shift = (box[:2] + box[2:]) / 2 - q.mean(axis=0)
    return float(shift @ up / (up @ up))


def test_a_standing_tile_shows_its_top_above_its_face_and_its_box_holds_it():
    from vision.synth.art import ArtSource
    from vision.synth.fonts import FontsMissingError
    from vision.synth.hands import random_row
    from vision.synth.scene import render

    try:
        art = ArtSource(1.0).for_scene(4, 0)
    except FontsMissingError as e:
        pytest.skip(str(e))
    hand = random_row(random.Random(3), 9)
    _, lying = render(hand, art, random.Random(3))
    _, standing = render(hand, art, random.Random(3), standing=True)
    assert [t.label for t in lying] == [t.label for t in standing]
    upright = [i for i, t in enumerate(standing) if not t.sideways and not t.face_down]
    assert upright
    # lying face up the near side shows below the face; standing, the top shows above it
    assert all(_up_shift(lying[i]) < 0 for i in upright)
    assert all(_up_shift(standing[i]) > 0 for i in upright)


def test_scattered_tiles_stand_in_groups_each_face_half_shown():
    """Scattered: the hand's upright tiles in loose groups; two tiles sharing a column stand at
    least 1.3 tile widths apart in depth (a top is at most 0.6 deep: half a face shows); side
    by side they may touch."""
    from vision.synth.hands import random_hand
    from vision.synth.scene import place, scatter

    for seed in range(20):
        rng = random.Random(seed)
        placed = place(random_hand(rng), rng)
        tiles = scatter(placed, rng)
        upright = [t.label for t in placed if not t.sideways]
        kept = iter(upright)  # in the hand's order, a tile that found no place left out
        assert all(any(t.label == u for u in kept) for t in tiles)
        assert len(tiles) >= len(upright) - 2 and not any(t.sideways for t in tiles)
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                assert abs(a.x - b.x) >= 1.0 - 1e-9 or abs(a.y - b.y) >= 1.3
