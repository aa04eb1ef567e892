"""Make a QDQ int8 model read the same on every CPU: weights whose u8 x s8 products cannot saturate.

onnxruntime's x86 int8 kernels without VNNI multiply uint8 activations by int8 weights with
``vpmaddubsw``, which adds each pair of neighbouring products in a 16-bit register and saturates
at 32,767. With 8-bit weights a pair reaches 2 x 255 x 127 = 64,770: such CPUs (AVX2 without
VNNI) then read other tiles than VNNI x86, ARM or the reference kernels. The remedy here keeps
activations and their calibration as they are and re-scales each output channel's weights so
that its two largest magnitudes add up to at most 128: every pair of products then stays within
255 x 128 = 32,640, whatever order the kernel packs them in. That is 7-bit weights
(onnxruntime's ``reduce_range``) in a channel whose two largest weights are alike, and close to
8 bits in one with a single dominant weight. Biases are re-quantized to the new scales.

``python -m vision.training requantize models/tile_classifier.onnx`` rewrites a model in place
and its card (sha256, quantization scheme); ``export`` applies the same step to every int8 model
it writes. ``--float`` turns a QDQ model into the float model it stands for (``dequantized``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from vision.training.model_card import read_card, write_card

PAIR_LIMIT = 128  # two weights' magnitudes: 255 x 128 = 32,640 <= 32,767, no 16-bit saturation
SCHEME = (
    "static int8, QDQ, per-channel int8 weights whose two largest magnitudes in each output "
    f"channel sum to <= {PAIR_LIMIT} (no u8 x s8 pair saturates on AVX2 without VNNI), "
    "uint8 activations"
)


def _channels(values: np.ndarray, axis: int) -> np.ndarray:
    """Weights as (output channel, everything else)."""
    return np.moveaxis(values, axis, 0).reshape(values.shape[axis], -1)


def _broadcast(per_channel: np.ndarray, ndim: int, axis: int) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = -1
    return per_channel.reshape(shape)


def pair_scales(weights: np.ndarray, axis: int) -> np.ndarray:
    """Per-channel scales under which any two rounded int8 weights of a channel sum to <= 128.

    The two largest magnitudes map to 127 together, so rounding each up by at most half a
    step keeps their sum within 128; an all-zero channel keeps scale 1.

    >>> pair_scales(np.array([[1.0, -3.0, 0.5], [0.0, 0.0, 0.0]]), axis=0).round(4)
    array([0.0315, 1.    ])
    """
    top = np.sort(np.abs(_channels(weights, axis)), axis=1)
    two = top[:, -1] + (top[:, -2] if top.shape[1] > 1 else 0.0)
    return np.where(two > 0, two / (PAIR_LIMIT - 1), 1.0)


def largest_pair(q: np.ndarray, axis: int) -> int:
    """The largest |a| + |b| over two weights of one output channel (the kernels' risk).

    >>> largest_pair(np.array([[100, -27, 5], [-64, 64, 1]], np.int8), axis=0)
    128
    """
    top = np.sort(np.abs(_channels(q.astype(np.int32), axis)), axis=1)
    return int((top[:, -1] + (top[:, -2] if top.shape[1] > 1 else 0)).max())


def _attr(node: Any, name: str, default: int) -> int:
    return next((int(a.i) for a in node.attribute if a.name == name), default)


def weight_nodes(model: Any) -> list[tuple[Any, np.ndarray, np.ndarray, int]]:
    """Every DequantizeLinear of constant int8 weights: (node, q, scale, axis)."""
    from onnx import numpy_helper

    inits = {i.name: i for i in model.graph.initializer}
    found = []
    for node in model.graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in inits:
            continue
        q = numpy_helper.to_array(inits[node.input[0]])
        if q.dtype == np.int8:
            scale = numpy_helper.to_array(inits[node.input[1]])
            found.append((node, q, scale, _attr(node, "axis", 1)))
    return found


def saturation_free(model: Any) -> Any:
    """Re-scale a QDQ model's int8 weights (in place) so no u8 x s8 pair saturates; returns it."""
    from onnx import numpy_helper

    graph = model.graph
    inits = {i.name: i for i in graph.initializer}

    def put(name: str, value: np.ndarray) -> None:
        inits[name].CopyFrom(numpy_helper.from_array(value, name))

    for node, q, scale, axis in weight_nodes(model):
        zero = numpy_helper.to_array(inits[node.input[2]]) if len(node.input) > 2 else None
        if zero is not None and np.any(zero != 0):
            raise ValueError(f"{node.name}: asymmetric int8 weights are not supported")
        if scale.ndim == 0:  # per-tensor: one channel of everything
            weights = (q.astype(np.float64) * float(scale)).reshape(1, -1)
            new = pair_scales(weights, 0)[0]
            put(
                node.input[0],
                np.clip(np.round(weights / new), -128, 127).astype(np.int8).reshape(q.shape),
            )
            put(node.input[1], np.asarray(new, np.float32))
            continue
        weights = q.astype(np.float64) * _broadcast(scale.astype(np.float64), q.ndim, axis)
        new = pair_scales(weights, axis)
        requant = np.round(weights / _broadcast(new, q.ndim, axis))
        put(node.input[0], np.clip(requant, -128, 127).astype(np.int8))
        put(node.input[1], new.astype(np.float32))
    requantize_biases(model)
    return model


def requantize_biases(model: Any) -> None:
    """An int32 bias is quantized at input scale x weight scale (the fused kernels need exactly
    that): re-derive each from its float value at its weights' present scales (in place)."""
    from onnx import numpy_helper

    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    for node in graph.node:
        if node.op_type not in ("Conv", "Gemm", "ConvTranspose") or len(node.input) < 3:
            continue
        dq = [producer.get(name) for name in node.input[:3]]
        if not all(d is not None and d.op_type == "DequantizeLinear" for d in dq):
            continue
        x_scale, w_scale = (numpy_helper.to_array(inits[d.input[1]]) for d in dq[:2])
        bias_q = numpy_helper.to_array(inits[dq[2].input[0]]).astype(np.float64)
        bias = bias_q * numpy_helper.to_array(inits[dq[2].input[1]]).astype(np.float64)
        new_scale = np.broadcast_to(x_scale.astype(np.float64) * w_scale, bias.shape)
        inits[dq[2].input[0]].CopyFrom(
            numpy_helper.from_array(np.round(bias / new_scale).astype(np.int32), dq[2].input[0])
        )
        inits[dq[2].input[1]].CopyFrom(
            numpy_helper.from_array(new_scale.astype(np.float32), dq[2].input[1])
        )


def dequantized(model: Any) -> Any:
    """The float model a QDQ model stands for (in place; returns it): each constant int8 /
    int32 tensor becomes its float value, each activation's Quantize / Dequantize pair goes,
    and a Relu comes back where the pair clamped at zero (the quantizer folds Relus into
    uint8 activations with zero point 0). Optimised float kernels differ from the reference ones
    by float rounding only, where int8 ones differ by whole rounding steps."""
    from onnx import helper, numpy_helper

    graph = model.graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    constants: dict[str, np.ndarray] = {}
    alias: dict[str, str] = {}  # a DequantizeLinear's output -> the float tensor it stands for
    relus: dict[str, Any] = {}  # the Relu to put after this tensor's producer
    dropped: set[int] = set()
    for node in graph.node:
        if node.op_type != "DequantizeLinear":
            continue
        dropped.add(id(node))
        if node.input[0] in inits:
            q, scale = inits[node.input[0]].astype(np.float64), inits[node.input[1]]
            zero = inits[node.input[2]] if len(node.input) > 2 else np.zeros_like(scale)
            axis = _attr(node, "axis", 1) if q.ndim > 1 else 0
            if scale.ndim:
                scale, zero = (_broadcast(v, q.ndim, axis) for v in (scale, zero))
            constants[node.output[0]] = ((q - zero) * scale).astype(np.float32)
            continue
        quant = producer[node.input[0]]
        if quant.op_type != "QuantizeLinear":
            raise ValueError(f"{node.name}: dequantizes something other than a QuantizeLinear")
        dropped.add(id(quant))
        source = quant.input[0]
        zero = inits.get(quant.input[2]) if len(quant.input) > 2 else None
        if zero is not None and zero.dtype == np.uint8 and not np.any(zero):
            relus.setdefault(source, helper.make_node("Relu", [source], [f"{source}_relu"]))
            source = f"{source}_relu"
        alias[node.output[0]] = source
    outputs = {o.name for o in graph.output}
    made = {out for node in graph.node for out in node.output}
    nodes = [relu for source, relu in relus.items() if source not in made]  # on graph inputs
    for node in graph.node:
        if id(node) in dropped:
            continue
        for i, name in enumerate(node.input):
            node.input[i] = alias.get(name, name)
        nodes.append(node)
        nodes.extend(relus[out] for out in node.output if out in relus)
    for name in outputs & set(alias):  # a graph output must keep its name
        inner = alias[name]
        for node in nodes:
            node.output[:] = [name if out == inner else out for out in node.output]
            node.input[:] = [name if inp == inner else inp for inp in node.input]
    used = {name for node in nodes for name in node.input}
    graph.ClearField("node")
    graph.node.extend(nodes)
    kept = [i for i in graph.initializer if i.name in used]
    graph.ClearField("initializer")
    graph.initializer.extend(kept)
    graph.initializer.extend(
        numpy_helper.from_array(v, k) for k, v in constants.items() if k in used
    )
    graph.ClearField("value_info")
    return model


def pair_bound(model: Any) -> int:
    """The largest weight pair sum in a model (<= 128: safe on every CPU; 0: no int8 weights)."""
    nodes = weight_nodes(model)
    return max((largest_pair(q, axis if q.ndim > 1 else 0) for _, q, _, axis in nodes), default=0)


def model_pair_bound(path: Path) -> int:
    import onnx

    return pair_bound(onnx.load(str(path)))


def requantize_file(path: Path) -> None:
    """Rewrite one int8 model and its card (sha256, size, quantization scheme)."""
    import onnx

    model = saturation_free(onnx.load(str(path)))
    onnx.save(model, str(path))
    card = read_card(path)
    quant = dict(card.get("quantization", {}))
    quant.update(scheme=SCHEME, largest_weight_pair=pair_bound(model))
    card["quantization"] = quant
    write_card(path, card)


FLOAT_SCHEME = (
    "float32: the weights of its int8 QDQ export, dequantized, activations unquantized (int8's "
    "fused kernels differ from the reference ones by whole rounding steps, which move boxes)"
)


def dequantize_file(path: Path) -> None:
    """Rewrite one QDQ model as float and its card (sha256, size, scheme, the int8 file's sha)."""
    import onnx

    card = read_card(path)
    model = dequantized(onnx.load(str(path)))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    card["quantization"] = {"scheme": FLOAT_SCHEME, "int8_sha256": card.get("sha256", "")}
    write_card(path, card)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("models", type=Path, nargs="+", help="int8 QDQ ONNX models with their cards")
    p.add_argument(
        "--float",
        action="store_true",
        help="turn them into float models instead (the same weights, no int8 kernels)",
    )


def run(args: argparse.Namespace) -> int:
    for path in args.models:
        if path.suffix != ".onnx" or not path.is_file():
            print(f"error: {path} is no ONNX model file", file=sys.stderr)
            return 2
        if args.float:
            dequantize_file(path)
            print(f"{path}: float")
            continue
        before = model_pair_bound(path)
        if not before:
            print(f"error: {path} has no int8 weights", file=sys.stderr)
            return 2
        requantize_file(path)
        print(f"{path}: largest weight pair {before} -> {model_pair_bound(path)}")
    return 0
