"""The shared pieces of the training loops: resuming from a checkpoint, and the classifier's loss.

Training needs the `train` extra (torch); without it these tests skip.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra (torch)")

from tests.shared import ART, CROSS_SET, need  # noqa: E402
from vision.training import data  # noqa: E402
from vision.training.checkpoint import end_epoch, optimise, resume  # noqa: E402
from vision.training.classifier import Keep, batch_loss  # noqa: E402
from vision.training.nets import TileClassifier  # noqa: E402


def _setup(seed: int) -> tuple[object, object, object]:
    torch.manual_seed(seed)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.AdamW(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10)
    return model, opt, sched


def test_a_run_resumes_where_its_last_epoch_ended(tmp_path: Path) -> None:
    model, opt, sched = _setup(0)
    ckpt = tmp_path / "last.pt"
    assert resume(ckpt, model, opt, sched) == 0  # nothing to resume: a fresh run
    model(torch.ones(1, 4)).sum().backward()
    opt.step()
    sched.step()
    with (tmp_path / "log.jsonl").open("a") as log:
        end_epoch({"epoch": 3, "loss": 0.5}, log, ckpt, model, opt, sched, width=16)
    fresh, fresh_opt, fresh_sched = _setup(1)
    assert resume(ckpt, fresh, fresh_opt, fresh_sched) == 3
    assert torch.equal(fresh.weight, model.weight)
    assert fresh_sched.state_dict()["last_epoch"] == 1
    assert torch.load(ckpt, weights_only=False)["width"] == 16
    assert json.loads((tmp_path / "log.jsonl").read_text()) == {"epoch": 3, "loss": 0.5}


def test_one_optimiser_step_moves_the_weights_down_the_gradient_and_returns_the_loss() -> None:
    model = torch.nn.Linear(1, 1, bias=False)
    torch.nn.init.constant_(model.weight, 2.0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    loss = (model(torch.ones(1, 1)) ** 2).sum()  # w^2 = 4, its gradient 2w = 4
    assert optimise(loss, opt, sched) == 4.0
    assert float(model.weight.detach()) == pytest.approx(2.0 - 0.1 * 4.0)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.05)  # the schedule stepped too


def test_the_glyph_axis_counts_only_where_it_is_known() -> None:
    torch.manual_seed(0)
    model = TileClassifier(width=8).eval()
    x = np.random.default_rng(0).integers(0, 255, (4, data.STORE, data.STORE, 3), np.uint8)
    y = np.array([0, 1, 2, 3])
    ce, axis_ce = torch.nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss(ignore_index=-1)
    idx = np.arange(4)
    with torch.no_grad():
        unknown = batch_loss(model, x, y, np.full(4, -1), idx, np.random.default_rng(5), ce,
                             axis_ce)
        known = batch_loss(model, x, y, np.zeros(4, np.int64), idx, np.random.default_rng(5), ce,
                           axis_ce)
        xb, _ = data.batch(x, idx, np.random.default_rng(5), train=True)
        logits, *_ = model(torch.from_numpy(xb))
    assert float(unknown) == pytest.approx(float(ce(logits, torch.from_numpy(y))))
    assert float(known) > float(unknown)


def test_keeping_the_teacher_adds_nothing_where_the_student_agrees_and_only_on_real_crops() -> None:
    torch.manual_seed(0)
    student = TileClassifier(width=8).eval()
    other = TileClassifier(width=8).eval()  # other random weights: another teacher
    x = np.random.default_rng(0).integers(0, 255, (4, data.STORE, data.STORE, 3), np.uint8)
    y, axis, idx = np.array([0, 1, 2, 3]), np.full(4, -1), np.arange(4)
    ce, axis_ce = torch.nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss(ignore_index=-1)

    def loss(keep: Keep | None) -> float:
        with torch.no_grad():
            return float(batch_loss(student, x, y, axis, idx, np.random.default_rng(5), ce,
                                    axis_ce, keep))

    plain = loss(None)
    assert loss(Keep(student, real=4, weight=1.0)) == pytest.approx(plain, abs=1e-6)
    assert loss(Keep(other, real=0, weight=1.0)) == plain  # no real crop in the batch
    # the drift is the batch-mean KL(teacher || student) over the real crops, times the weight
    xb, _ = data.batch(x, idx, np.random.default_rng(5), train=True)
    with torch.no_grad():
        mine = torch.log_softmax(student(torch.from_numpy(xb[:2]))[0], 1)
        theirs = torch.log_softmax(other(torch.from_numpy(xb[:2]))[0], 1)
    kl = float((theirs.exp() * (theirs - mine)).sum(1).mean())
    assert kl > 0
    assert loss(Keep(other, real=2, weight=3.0)) == pytest.approx(plain + 3.0 * kl, rel=1e-5)


def test_the_int8_classifier_reads_the_demo_frames_as_the_float_one(tmp_path: Path) -> None:
    # export the shipped weights as float, quantize a copy, compare on the demo frames' tiles
    pytest.importorskip("onnx", reason="quantization needs the `train` extra (onnx)")
    import cv2

    from vision.preprocess import crop_tiles, to_nchw
    from vision.recogniser import Recogniser
    from vision.training.classifier import export_classifier
    from vision.training.export import quantize_int8

    # the small classifier learned from scratch, shipped in int8 until the pretrained one
    state = torch.load(Path(__file__).parent / "int8_classifier" / "tile_classifier.pt",
                       weights_only=False)
    model = TileClassifier(width=int(state["width"]))
    model.load_state_dict(state["model"], strict=False)  # the labels are compared, no other head
    export_classifier(model, tmp_path / "float.onnx", {}, recipe="", data_note="")
    finder = Recogniser.load()
    frames = sorted((Path(__file__).resolve().parents[2] / "vision" / "demo_frames").glob("*.jpg"))
    crops = []
    for f in frames:
        img = cv2.imread(str(f))
        boxes = np.array([c.box for c in finder.find(img)], np.float32)
        crops.append(to_nchw(crop_tiles(img, boxes, 48, 0.08)))
    x = np.concatenate(crops)
    (tmp_path / "int8.onnx").write_bytes((tmp_path / "float.onnx").read_bytes())
    card = quantize_int8(tmp_path / "int8.onnx", x)
    assert card["calibration_inputs"] == len(x)
    import onnxruntime as ort

    def read(name: str) -> np.ndarray:
        s = ort.InferenceSession(str(tmp_path / name), providers=["CPUExecutionProvider"])
        return s.run(None, {"crops": x})[0].argmax(1)

    assert (tmp_path / "int8.onnx").stat().st_size < 0.5 * (tmp_path / "float.onnx").stat().st_size
    assert (read("int8.onnx") == read("float.onnx")).all()


def test_the_card_names_the_tile_head_only_when_it_was_taught(tmp_path: Path) -> None:
    # an untaught tile head would drop tiles at random: the recogniser reads only named outputs
    from vision.training.classifier import export_classifier

    model = TileClassifier(width=8).eval()
    assert [tuple(o.shape) for o in model(torch.zeros(2, 3, 48, 48))] == [(2, 38), (2, 2), (2, 1)]
    export_classifier(model, tmp_path / "plain.onnx", {}, recipe="", data_note="")
    export_classifier(model, tmp_path / "taught.onnx", {}, recipe="", data_note="", tile_head=True)
    plain = json.loads((tmp_path / "plain.json").read_text())["outputs"]
    taught = json.loads((tmp_path / "taught.json").read_text())["outputs"]
    assert sorted(plain) == ["axis", "features", "logits"]
    assert sorted(taught) == ["axis", "features", "logits", "tile"]
    # the pooled features (what vision.taught compares) come out of the float export too
    import onnxruntime as ort

    session = ort.InferenceSession(str(tmp_path / "plain.onnx"), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    features = session.run(None, {"crops": np.zeros((2, 3, 48, 48), np.float32)})[-1]
    assert names[-1] == "features" and features.shape == (2, plain["features"]["shape"][1])


def test_a_stretched_training_image_keeps_its_boxes_on_the_tiles() -> None:
    # one 40x60 tile painted white on grey: after any stretch its box still frames the white
    from vision.preprocess import FINDER_SIZE
    from vision.training.finder_data import STRETCH_RANGE, augment

    img = np.full((200, 300, 3), 60, np.uint8)
    img[70:130, 130:170] = 255
    sample = (img, np.array([[130, 70, 170, 130]], np.float32), np.array([np.pi / 2], np.float32))
    for seed in range(20):
        rng = np.random.default_rng(seed)
        out, boxes, angles = augment(sample, rng, stretch=1.0)
        x1, y1, x2, y2 = boxes[0]
        assert 0 <= x1 < x2 <= FINDER_SIZE and 0 <= y1 < y2 <= FINDER_SIZE
        inner = out[int(y1) + 2 : int(y2) - 2, int(x1) + 2 : int(x2) - 2]
        assert inner.size and inner.mean() > 150, seed  # the box lies on the white tile
        if 0 < x1 and x2 < FINDER_SIZE and 0 < y1 and y2 < FINDER_SIZE:  # not cut by the frame
            # the tile stood 1.5x taller than wide (wider, after a quarter turn); the stretch
            # changed that by a factor within STRETCH_RANGE, one way or the other
            aspect = (y2 - y1) / (x2 - x1)
            lo, hi = (math.log(r) for r in STRETCH_RANGE)
            assert any(lo - 0.05 <= abs(math.log(aspect / c)) <= hi + 0.05 for c in (1.5, 1 / 1.5))


def test_the_int8_finder_keeps_its_last_stride_4_layers_float(tmp_path: Path) -> None:
    pytest.importorskip("onnx", reason="quantization needs the `train` extra (onnx)")
    import onnx

    from vision.training.finder_export import FLOAT_NODES, export_finder
    from vision.training.nets import TileFinder

    torch.manual_seed(0)
    frames = np.random.default_rng(0).uniform(0, 255, (4, 3, 64, 64)).astype(np.float32)
    path = tmp_path / "tile_finder.onnx"
    export_finder(TileFinder(width=16), path, {}, "", "", size=64, calibration=frames)
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["quantization"]["float_nodes"] == list(FLOAT_NODES)
    graph = onnx.load(str(path)).graph
    # a quantized convolution reads its weights through DequantizeLinear; the kept ones do not
    dequantized = {o for n in graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    convs = {n.name: n for n in graph.node if n.op_type == "Conv"}
    assert set(FLOAT_NODES) <= set(convs)
    for name, conv in convs.items():
        assert (conv.input[1] in dequantized) == (name not in FLOAT_NODES), name


def test_keeping_the_finder_holds_heat_size_and_offset_where_the_teacher_sees_a_tile() -> None:
    from vision.training.finder_keep import FinderKeep, keep_term
    from vision.training.nets import TileFinder

    want = torch.zeros(1, 7, 2, 1)
    want[0, 0] = torch.tensor([[0.0], [-20.0]])  # a tile at p 0.5 above a cell with none
    assert float(keep_term(want, want)) == pytest.approx(0.0, abs=1e-6)
    pred = want.clone()
    pred[0, 0, 0, 0] = math.log(3)  # p 0.75 where the teacher says 0.5
    pred[0, 1:5, 0, 0] = torch.tensor([0.2, 0.0, 0.0, -0.1])
    pred[0, 1:5, 1, 0] = 5.0  # sizes where the teacher sees no tile are free
    # KL(0.5 || 0.75) = 0.5 ln(4/3) per tile cell (one, weight 0.5 < 1 so n = 1),
    # plus 0.5 x |0.2| + |-0.1| for the size and offset there
    expected = 0.5 * math.log(4 / 3) + 0.5 * 0.3
    assert float(keep_term(pred, want)) == pytest.approx(expected, rel=1e-5)

    torch.manual_seed(0)
    teacher = TileFinder(width=8).eval()
    images = torch.rand(2, 3, 64, 64) * 255
    with torch.no_grad():
        same = teacher(images)
    held, value = FinderKeep(teacher, weight=2.0).loss(same, images)
    assert value == pytest.approx(0.0, abs=1e-4) and float(held) == pytest.approx(2 * value)


def test_the_upright_share_draws_those_scenes_as_solid_standing_tiles() -> None:
    # at share 1 every scene is the upright renderer's, drawn from the scene's own random
    # stream after its hand and size (so a scene's other draws stay as they were)
    import random

    import cv2

    from vision.synth.art import ArtSource
    from vision.synth.hands import random_hand, random_row
    from vision.synth.upright import render_upright
    from vision.training.finder_data import STORE_SIDE, load_synth

    need(*ART)
    seed = 2037
    for i, (img, boxes, angles) in enumerate(load_synth(2, seed, upright_share=1.0)):
        rng = random.Random(seed * 1_000_003 + i)
        random_hand(rng) if rng.random() < 0.8 else random_row(rng, rng.randint(8, 20))
        size = rng.choice([(640, 480), (480, 640), (640, 640)])
        want, tiles = render_upright(ArtSource(0.0).for_scene(seed, i), rng, size)
        scale = STORE_SIDE / max(size)
        assert img.shape == (round(size[1] * scale), round(size[0] * scale), 3)
        small = cv2.resize(want, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_AREA)
        assert np.abs(small.astype(int) - img).mean() < 2
        assert boxes == pytest.approx(np.array([t.box for t in tiles]) * scale, abs=0.5)
        # a standing tile's glyph points up the image
        assert len(angles) == len(tiles) and np.all(np.abs(angles + np.pi / 2) < 0.6)


def test_keeping_the_renders_holds_the_photos_and_the_scenes_not_drawn_upright() -> None:
    from vision.synth.art import drawn_for
    from vision.training.finder_data import held_to_start

    photos_only = held_to_start(3, 200, 2040, 0.4, renders=False)
    assert photos_only == [True] * 3 + [False] * 200
    hold = held_to_start(3, 200, 2040, 0.4, renders=True)
    assert hold[:3] == [True] * 3
    upright = [drawn_for("upright", 2040, i, 0.4) for i in range(200)]
    assert 60 <= sum(upright) <= 100  # about 0.4 of 200 drawn upright ...
    assert hold[3:] == [not u for u in upright]  # ... and only those are not held
    assert held_to_start(2, 5, 2040, 0.0, renders=True) == [True] * 7


def test_a_further_source_is_learned_at_its_cameras_proportions() -> None:
    # leo-miura's 16:9 webcam frames were stored squeezed to 640x640 (its README): the finder
    # learns them widened back, as the reader reads them, every box still on the image
    from vision.training.finder_data import load_source, median_aspect

    photos = need(*CROSS_SET).parents[1]
    samples = load_source(photos, "leo-miura-riichi-webcam", repeat=2)
    assert len(samples) == 2 * 67 and sum(len(b) for _, b, _ in samples) == 2 * 582
    ratios = [img.shape[1] / img.shape[0] for img, _, _ in samples]
    assert 1.5 < float(np.median(ratios)) < 16 / 9 * 1.1
    for img, boxes, angles in samples:
        h, w = img.shape[:2]
        assert angles is None and max(h, w) == 400
        assert (boxes[:, :2] >= -1).all() and (boxes[:, 2] <= w + 1).all()
        assert (boxes[:, 3] <= h + 1).all()
    # the boxes widened with their image: squeezed, they stood about twice as tall as wide
    assert 1.2 < float(np.median([median_aspect(b) for _, b, _ in samples])) < 1.8


def test_the_finder_never_learns_an_evaluation_only_set() -> None:
    import subprocess
    import sys

    for name in ("camerash-web-crops", "mario-close-ups", "hlin-close-ups", "no-such-set"):
        run = subprocess.run(
            [sys.executable, "-m", "vision.training", "finder", "--with", name],
            capture_output=True, text=True, timeout=120,
        )
        assert run.returncode == 2 and "invalid choice" in run.stderr, name
