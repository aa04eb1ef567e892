"""The classifier's pooled features as an extra graph output, ``features`` [n, C].

The label and glyph-axis heads read one tensor: the mean of the last feature map over its 6x6
cells (in the int8 export, its dequantized value). Exposing it lets the reader compare a crop
with tiles a table taught it (``vision.teach``) without a second model; the heads, and so every
reading, are untouched (the new output is an Identity of a tensor the graph computes anyway).

``python -m vision.training features models/tile_classifier.onnx`` rewrites a model and its card
in place (a model that has the output already is left as it is). Needs ``onnx`` (the train and
test extras); the kiosk's runtime reads the output through onnxruntime alone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

FEATURES = "features"
HEAD_OUTPUT = "logits"
FEATURES_NOTE = (
    "[n, C] the crop's pooled features (mean of the last feature map, the tensor the logits and "
    "axis heads read); vision.taught weighs a reading by their cosine with a table's taught tiles"
)


class FeaturesError(ValueError):
    """A model whose label head cannot be found (no Gemm leading to ``logits``)."""


def _producers(graph: Any) -> dict[str, Any]:
    return {out: node for node in graph.node for out in node.output}


def head_gemm(graph: Any) -> Any:
    """The Gemm whose result becomes the ``logits`` output (through Q/DQ pairs in int8)."""
    producers = _producers(graph)
    name = HEAD_OUTPUT
    for _ in range(8):  # logits <- DequantizeLinear <- QuantizeLinear <- Gemm, at most
        node = producers.get(name)
        if node is None:
            break
        if node.op_type == "Gemm":
            return node
        name = node.input[0]
    raise FeaturesError(f"no Gemm head leads to the {HEAD_OUTPUT!r} output")


def _initializer_dims(graph: Any, name: str) -> list[int]:
    """The dims of the initializer behind ``name`` (directly, or through a DequantizeLinear)."""
    inits = {i.name: list(i.dims) for i in graph.initializer}
    if name in inits:
        return inits[name]
    node = _producers(graph).get(name)
    if node is not None and node.op_type == "DequantizeLinear" and node.input[0] in inits:
        return inits[node.input[0]]
    raise FeaturesError(f"the head's weight {name!r} is no initializer")


def with_features_output(model: Any) -> Any:
    """A copy of the classifier ``model`` (onnx ModelProto) with one more graph output,
    ``features`` [n, C]: an Identity of the tensor its label head (a Gemm) reads. A model that
    has the output already is returned as it is (as a copy)."""
    import onnx
    from onnx import TensorProto, helper

    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    if any(o.name == FEATURES for o in graph.output):
        return out
    gemm = head_gemm(graph)
    weight = _initializer_dims(graph, gemm.input[1])
    trans_b = next((a.i for a in gemm.attribute if a.name == "transB"), 0)
    channels = int(weight[1] if trans_b else weight[0])
    graph.node.append(
        helper.make_node("Identity", [gemm.input[0]], [FEATURES], name="/features_output")
    )
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", channels]))
    onnx.checker.check_model(out)
    return out


def card_outputs(card: dict[str, Any], channels: int, before: str | None) -> dict[str, Any]:
    """The card's ``outputs`` with ``features`` described: its shape [n, channels] and the
    sha256 of the model file before the output was added (``before``; its heads are that
    file's, byte for byte: removing the Identity and the output gives that file back)."""
    outputs = dict(card.get("outputs", {}))
    outputs[FEATURES] = {"shape": ["n", channels], "description": FEATURES_NOTE}
    if before:
        outputs[FEATURES]["added_to_sha256"] = before
    return outputs


def features_channels(model: Any) -> int:
    """C of a model's ``features`` output."""
    for o in model.graph.output:
        if o.name == FEATURES:
            return int(o.type.tensor_type.shape.dim[1].dim_value)
    raise FeaturesError(f"the model has no {FEATURES!r} output")


def add_features_output(path: Path) -> tuple[int, str | None]:
    """Rewrite the model file at ``path`` with its ``features`` output (unless it has one);
    returns C, the features' width, and the file's sha256 before (None: nothing written). The
    card is the caller's (see ``features_file``)."""
    import onnx

    from vision.session import file_sha256

    model = onnx.load(str(path))
    if any(o.name == FEATURES for o in model.graph.output):
        return features_channels(model), None
    before = file_sha256(path)
    model = with_features_output(model)
    onnx.save(model, str(path))
    return features_channels(model), before


def features_file(path: Path) -> bool:
    """Rewrite a classifier file with the ``features`` output and its card (sha256, bytes,
    ``outputs.features``); False when it had the output already (nothing written)."""
    from vision.training.export import read_card, write_card

    channels, before = add_features_output(path)
    if before is None:
        return False
    card = read_card(path)
    card["outputs"] = card_outputs(card, channels, before)
    write_card(path, card)
    return True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "models", type=Path, nargs="+", help="classifier ONNX files (their cards beside them)"
    )


def run(args: argparse.Namespace) -> int:
    for path in args.models:
        if path.suffix != ".onnx" or not path.is_file():
            print(f"error: {path} is no ONNX model file", file=sys.stderr)
            return 2
        try:
            changed = features_file(path)
        except FeaturesError as err:
            print(f"error: {path}: {err}", file=sys.stderr)
            return 2
        print(f"{path}: {'features output added' if changed else 'has its features output'}")
    return 0
