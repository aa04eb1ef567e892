"""The same reading on every CPU: the shipped models' optimised kernels against the reference ones.

On this CPU, and as on an x86 CPU without AVX-512 / VNNI (``avx2_only_cpu.c``: CPUID faulting
hides those features at native speed), every committed frame is read by both sessions; a
model with full-range 8-bit weights (what quantize_static writes) is the negative control: its
u8 x s8 pairs saturate in the AVX2 kernels and the check must catch it. The qemu test reads
as a Haswell (AVX2, no VNNI) under emulation, an independent witness to the CPUID shim.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from vision.kernel_check import DEMO_FRAMES, MAX_PROB_DIFF, SAMPLE_FRAMES, check_kernels
from vision.postprocess import sigmoid, softmax
from vision.recogniser import Recogniser, default_models_dir
from vision.session import ModelSession, file_sha256

onnx = pytest.importorskip("onnx", reason="the model checks read ONNX files (test extra)")
from onnx import helper, numpy_helper  # noqa: E402

from vision.training.requantize import (  # noqa: E402
    PAIR_LIMIT,
    dequantized,
    largest_pair,
    model_pair_bound,
    requantize_biases,
    saturation_free,
    weight_nodes,
)

HERE = Path(__file__).parent
FRAMES = [HERE / "frames", DEMO_FRAMES, SAMPLE_FRAMES, HERE.parent / "kiosk" / "frames"]
FRAME_COUNT = sum(len(list(folder.glob("*.jpg"))) for folder in FRAMES)  # 16: every one checked
MODELS = ("tile_finder.onnx", "tile_classifier.onnx")


# the int8 classifier shipped until the pretrained-features one (float): what requantize made
INT8 = HERE / "int8_classifier"


def test_shipped_models_cannot_saturate_16_bit_pairs():
    """Both shipped models are float (the pretrained classifier's depthwise layers, like the
    finder's boxes, move under int8): no 8-bit pairs to saturate. An int8 classifier that
    requantize made keeps every pair of products within 16 bits."""
    models = default_models_dir()
    for name in MODELS:
        model = onnx.load(str(models / name))
        assert weight_nodes(model) == [], name
        assert not {"QuantizeLinear", "DequantizeLinear"} & {n.op_type for n in model.graph.node}
    assert 100 < model_pair_bound(INT8 / "tile_classifier.onnx") <= PAIR_LIMIT


def _conv_model(weights: np.ndarray, bias: np.ndarray) -> onnx.ModelProto:
    """x -> Q -> DQ -> Conv(DQ(int8 weights, per channel), DQ(int32 bias)) -> Q -> DQ -> y, the
    activations uint8 with zero point 0 (a Relu folded into each, as the quantizer does)."""
    w_scale = np.abs(weights).reshape(len(weights), -1).max(axis=1) / 127
    x_scale = np.float32(0.02)
    q = np.round(weights / w_scale[:, None, None, None]).astype(np.int8)
    b_scale = (x_scale * w_scale).astype(np.float32)
    inits = [
        numpy_helper.from_array(x_scale, "xs"),
        numpy_helper.from_array(np.uint8(0), "xz"),
        numpy_helper.from_array(q, "wq"),
        numpy_helper.from_array(w_scale.astype(np.float32), "ws"),
        numpy_helper.from_array(np.zeros(len(q), np.int8), "wz"),
        numpy_helper.from_array(np.round(bias / b_scale).astype(np.int32), "bq"),
        numpy_helper.from_array(b_scale, "bs"),
        numpy_helper.from_array(np.zeros(len(q), np.int32), "bz"),
        numpy_helper.from_array(np.float32(0.05), "ys"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0),
        helper.make_node("DequantizeLinear", ["bq", "bs", "bz"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"]),
        helper.make_node("QuantizeLinear", ["c", "ys", "xz"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "ys", "xz"], ["y"]),
    ]
    shape = [1, weights.shape[1], 4, 4]
    graph = helper.make_graph(
        nodes,
        "conv",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _dequantized(model: onnx.ModelProto, name: str) -> np.ndarray:
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    scale = inits[name[0] + "s"]
    return inits[name].astype(np.float64) * scale.reshape(-1, *[1] * (inits[name].ndim - 1))


def test_saturation_free_rescales_weights_and_biases():
    rng = np.random.default_rng(3)
    weights = rng.normal(0, 1, (4, 3, 3, 3))
    weights[0, 0, 0, 0] = 9.0  # one dominant weight: nearly 8 bits stay for that channel
    bias = rng.normal(0, 0.5, 4)
    model = _conv_model(weights, bias)
    before = [largest_pair(q, axis) for _, q, _, axis in weight_nodes(model)]
    after_model = saturation_free(_conv_model(weights, bias))
    (_, q, scale, axis), = weight_nodes(after_model)
    assert before[0] > PAIR_LIMIT >= largest_pair(q, axis)
    # every weight within half a new step of its 8-bit value; the bias on the new scales
    step = scale.reshape(-1, 1, 1, 1)
    assert np.all(np.abs(_dequantized(after_model, "wq") - _dequantized(model, "wq")) <= step)
    assert np.abs(_dequantized(after_model, "bq") - bias).max() < 1e-3
    # each channel's two largest weights take the whole pair budget; the dominant one keeps
    # more steps than 7-bit weights (onnxruntime's reduce_range: 63) would give it
    top = np.sort(np.abs(q.reshape(4, -1).astype(int)), axis=1)[:, -2:].sum(axis=1)
    assert set(top) <= {126, 127, 128}
    assert q[0, 0, 0, 0] > 63


def test_dequantized_is_the_float_model_it_stands_for():
    rng = np.random.default_rng(5)
    weights, bias = rng.normal(0, 1, (4, 3, 1, 1)), rng.normal(0, 0.5, 4)
    qdq = _conv_model(weights, bias)
    w8, b32 = _dequantized(qdq, "wq"), _dequantized(qdq, "bq")
    model = dequantized(_conv_model(weights, bias))
    assert [n.op_type for n in model.graph.node] == ["Relu", "Conv", "Relu"]
    x = rng.normal(0, 2, (1, 3, 4, 4)).astype(np.float32)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": x})[0]
    want = np.einsum("oc,nchw->nohw", w8[:, :, 0, 0], np.maximum(x, 0)) + b32[None, :, None, None]
    np.testing.assert_allclose(got, np.maximum(want, 0), rtol=1e-5, atol=1e-5)


def _full_range_copy(folder: Path) -> Path:
    """The shipped finder beside the int8 classifier with each channel's weights re-scaled to
    +-127 (quantize_static's 8-bit weights), the rest unchanged: the saturating kind of model
    this guards against."""
    for name in MODELS:
        source = (INT8 if name == "tile_classifier.onnx" else default_models_dir()) / name
        model = onnx.load(str(source))
        inits = {i.name: i for i in model.graph.initializer}
        for node, q, scale, axis in weight_nodes(model):
            if scale.ndim == 0:
                continue
            flat = np.moveaxis(q.astype(np.float64), axis, 0).reshape(q.shape[axis], -1)
            grow = 127 / np.maximum(np.abs(flat).max(axis=1), 1)
            shape = [-1 if i == axis else 1 for i in range(q.ndim)]
            wide = np.clip(np.round(q * grow.reshape(shape)), -127, 127).astype(np.int8)
            inits[node.input[0]].CopyFrom(numpy_helper.from_array(wide, node.input[0]))
            inits[node.input[1]].CopyFrom(
                numpy_helper.from_array((scale / grow).astype(np.float32), node.input[1])
            )
        requantize_biases(model)
        path = folder / name
        onnx.save(model, str(path))
        card = json.loads(source.with_suffix(".json").read_text())
        card["sha256"] = file_sha256(path)
        path.with_suffix(".json").write_text(json.dumps(card))
    return folder


def test_optimised_kernels_read_as_reference_on_this_cpu():
    checks = check_kernels(FRAMES)
    assert len(checks) == FRAME_COUNT >= 16
    assert [c.frame for c in checks if not c.agrees] == []
    assert max(max(c.finder_diff, c.classifier_diff) for c in checks) <= MAX_PROB_DIFF


@pytest.fixture(scope="module")
def avx2_only(tmp_path_factory) -> Path:
    """The CPUID shim, built here; skips where it cannot hide this CPU's features."""
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        pytest.skip("the CPUID shim is for x86-64 Linux")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the CPUID shim")
    lib = tmp_path_factory.mktemp("shim") / "avx2_only_cpu.so"
    source = HERE / "avx2_only_cpu.c"
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(source), "-ldl"], check=True)
    probe = "from numpy._core._multiarray_umath import __cpu_features__ as f; print(f['AVX2'], " \
            "f['AVX512F'], f['AVX512VNNI'])"
    seen = _python(["-c", probe], lib).stdout.split()
    native = _python(["-c", probe], None).stdout.split()
    if native[1:] != ["False", "False"] and seen[1:] != ["False", "False"]:
        pytest.skip("this kernel or hypervisor offers no CPUID faulting")
    assert seen == ["True", "False", "False"], seen
    return lib


def _python(args: list[str], preload: Path | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "PYTHONFAULTHANDLER")}
    if preload is not None:
        env["LD_PRELOAD"] = str(preload)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          timeout=600, check=False)


def _check_as_avx2(lib: Path, models: Path | None = None) -> dict:
    models_args = ["--models", str(models)] if models else []
    out = _python(["-m", "vision", *models_args, "check-kernels", "--json",
                   *map(str, FRAMES)], lib)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def test_avx2_without_vnni_reads_as_reference(avx2_only):
    result = _check_as_avx2(avx2_only)
    assert result["agrees"], [f for f in result["frames"] if not f["agrees"]]
    assert len(result["frames"]) == FRAME_COUNT >= 16


def test_full_range_int8_weights_differ_on_avx2(avx2_only, tmp_path):
    result = _check_as_avx2(avx2_only, _full_range_copy(tmp_path))
    assert not result["agrees"]
    worst = max(max(f["finder_diff"], f["classifier_diff"]) for f in result["frames"])
    assert worst > 0.3  # saturated sums, not rounding


KIOSK_START = """
import json, sys
import cv2
from kiosk.photos.recognition import RecogniserService
service = RecogniserService(sys.argv[1])
service.start()
hand = service.read(cv2.imread(sys.argv[2]))["hand"]
print(json.dumps({"kernels": service.status()["kernels"], "concealed": hand["concealed"]}))
"""


@pytest.mark.parametrize("models", ["shipped", "full-range"])
def test_kiosk_falls_back_to_reference_kernels_where_they_differ(avx2_only, tmp_path, models):
    folder = default_models_dir() if models == "shipped" else _full_range_copy(tmp_path)
    frame = SAMPLE_FRAMES / "hand_12_019.jpg"
    out = _python(["-c", KIOSK_START, str(folder), str(frame)], avx2_only)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    truth = json.loads((SAMPLE_FRAMES / "expected.json").read_text())[frame.name]
    assert result["kernels"] == ("optimised" if models == "shipped" else "reference")
    assert sorted(t["label"] for t in result["concealed"]) == sorted(truth["concealed"])
    if models == "full-range":
        assert "using the reference kernels" in out.stderr


QEMU_RUN = """
import sys
import numpy as np
from vision.session import ModelSession
feeds = np.load(sys.argv[2])
outs = {kind: ModelSession.load(f"{sys.argv[1]}/tile_{kind}.onnx", warm_up=False).run(feeds[kind])
        for kind in sys.argv[4].split(",")}
np.savez(sys.argv[3], **outs)
"""


def _model_feeds(path: Path, models: Path | None = None) -> dict[str, np.ndarray]:
    """The finder's input for a demo frame and the classifier's crops of its tiles (as the
    classifier in ``models``, default the shipped one, cuts them)."""
    frame = cv2.imread(str(SAMPLE_FRAMES / "hand_12_019.jpg"))  # 333p read as 555p on AVX2
    recogniser = Recogniser.load(models)
    boxes = np.array([c.box for c in recogniser.find(frame)], np.float32)
    feeds = {
        "finder": recogniser.finder_input(frame),
        "classifier": recogniser.classifier_input(frame, boxes),
    }
    np.savez(path, **feeds)
    return feeds


def _differences(models: Path, feeds: dict[str, np.ndarray], outs: Path) -> dict[str, float]:
    """Largest tile-heat and class-probability differences: optimised kernels under emulation
    against the reference kernels here."""
    got = np.load(outs)
    ref = {
        kind: ModelSession.load(models / f"tile_{kind}.onnx", reference=True).run(feeds[kind])
        for kind in got.files
    }
    found = {}
    if "finder" in ref:
        heat = np.abs(sigmoid(got["finder"][:, 0]) - sigmoid(ref["finder"][:, 0]))
        found["finder"] = float(heat.max())
    probs = np.abs(softmax(got["classifier"]) - softmax(ref["classifier"]))
    return {**found, "classifier": float(probs.max())}



@pytest.mark.slow
def test_haswell_under_qemu_computes_as_reference(tmp_path):
    """Optimised kernels as a Haswell (AVX2, no VNNI) runs them, under qemu's emulation; the
    full-range 8-bit models must differ there, so the emulated CPU is the one that saturates."""
    qemu = shutil.which("qemu-x86_64")
    if qemu is None or platform.machine() != "x86_64":
        pytest.skip("qemu-user (qemu-x86_64) is not installed")
    full = tmp_path / "full"
    full.mkdir()
    found = {}
    runs = (
        ("shipped", default_models_dir(), "finder,classifier"),
        ("full", _full_range_copy(full), "classifier"),  # the float finder is the shipped one
    )
    for name, models, kinds in runs:
        outs, fed = tmp_path / f"{name}.npz", tmp_path / f"feeds_{name}.npz"
        feeds = _model_feeds(fed, models)
        run = subprocess.run(
            [qemu, "-cpu", "Haswell", os.path.realpath(sys.executable), "-c", QEMU_RUN,
             str(models), str(fed), str(outs), kinds],
            capture_output=True, text=True, timeout=600, check=False,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        found[name] = _differences(models, feeds, outs)
    print(found)
    assert max(found["shipped"].values()) <= MAX_PROB_DIFF, found
    assert found["full"]["classifier"] > 0.3, found


def test_a_frame_path_that_is_not_there_is_named(tmp_path):
    """check-kernels says which path is missing before any image decoder warns about it."""
    from vision.kernel_check import frame_paths

    (tmp_path / "a.jpg").write_bytes(b"")
    assert frame_paths([tmp_path / "a.jpg"]) == [tmp_path / "a.jpg"]
    with pytest.raises(ValueError, match="no image or folder at .*valid"):
        frame_paths([tmp_path / "a.jpg", tmp_path / "valid"])
