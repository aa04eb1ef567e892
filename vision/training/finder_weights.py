"""The shipped finder's ONNX weights back in a trainable `TileFinder`.

The finder ships as a float ONNX graph only (its batch norms folded into the convolutions by
the export), so a new stage starts from that file: each Conv node's weight and bias go to the
module its name gives (``/s4/s4.0/skip/skip.0/Conv`` is ``s4.0.skip.0``), and the batch norm
after it becomes the identity plus that bias. Trained with its batch norms frozen
(`freeze_batch_norms`), the model then starts exactly where the shipped finder is.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from vision.training.nets import TileFinder


class FinderWeightsError(ValueError):
    """The ONNX file is not a finder of this architecture."""


def _module_path(node_name: str) -> str:
    """``/head/head.0/head.0.0/Conv`` -> ``head.0.0``: each scope ends in its child's name."""
    return ".".join(part.split(".")[-1] for part in node_name.strip("/").split("/")[:-1])


def finder_from_onnx(path: Path, width: int = 16) -> TileFinder:
    """A `TileFinder` of ``width`` whose eval-mode output is the ONNX finder's at ``path``."""
    import onnx
    from google.protobuf.message import DecodeError
    from onnx import numpy_helper

    try:
        graph = onnx.load(str(path)).graph
    except (OSError, DecodeError) as e:
        raise FinderWeightsError(f"{path}: not an ONNX model ({e})") from e
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    # the exporter writes equal tensors once (an untrained finder's zero biases), the rest
    # as Identity nodes of it
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            inits[node.output[0]] = inits[node.input[0]]
    model = TileFinder(width).eval()
    modules = dict(model.named_modules())
    norm_after = {
        id(a): b
        for seq in model.modules()
        if isinstance(seq, nn.Sequential)
        for a, b in zip(list(seq), list(seq)[1:], strict=False)
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)
    }
    convs = [n for n in graph.node if n.op_type == "Conv"]
    if len(convs) != sum(isinstance(m, nn.Conv2d) for m in model.modules()):
        raise FinderWeightsError(f"{path}: {len(convs)} convolutions, not a width-{width} finder")
    with torch.no_grad():
        for node in convs:
            conv = modules.get(_module_path(node.name))
            weight = inits.get(node.input[1])
            if not isinstance(conv, nn.Conv2d) or weight is None:
                raise FinderWeightsError(f"{path}: no finder layer for {node.name}")
            if tuple(weight.shape) != tuple(conv.weight.shape):
                want = tuple(conv.weight.shape)
                raise FinderWeightsError(
                    f"{path}: {node.name} has weights {weight.shape}, not {want}"
                )
            conv.weight.copy_(torch.tensor(weight))
            bias = torch.tensor(inits[node.input[2]]) if len(node.input) > 2 else None
            norm = norm_after.get(id(conv))
            if norm is None:
                if bias is not None and conv.bias is not None:
                    conv.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias if bias is not None else torch.zeros_like(norm.bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    return model


def freeze_batch_norms(model: nn.Module) -> None:
    """Batch norms keep their statistics (eval mode) while the rest trains: a finder rebuilt by
    `finder_from_onnx` holds folded ones that a training batch's statistics would undo."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
