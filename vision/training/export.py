"""ONNX export and the model card written beside each model."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from vision.session import file_sha256 as sha256  # the digest the model loader checks
from vision.training.model_card import ATTRIBUTION, card_path, read_card, write_card
from vision.training.requantize import SCHEME, pair_bound, saturation_free

__all__ = ["ATTRIBUTION", "card_path", "export_onnx", "quantize_int8", "read_card", "sha256",
           "write_card"]  # the card's I/O lives in model_card (torch-free), kept here by name


def export_onnx(
    model: torch.nn.Module,
    example: torch.Tensor,
    path: Path,
    input_name: str,
    output_name: str | list[str],
    any_size: bool = False,
) -> None:
    """Export with a dynamic batch axis (legacy exporter: no onnxscript needed); ``any_size``:
    its height and width too (a fully convolutional finder reads a shrunk frame on a canvas
    only as large as it needs, `vision.find.Finder.look`)."""
    outputs = [output_name] if isinstance(output_name, str) else output_name
    spatial = {2: "h", 3: "w"} if any_size else {}
    axes = {input_name: {0: "n", **spatial},
            **{o: {0: "n", **{k: f"{v}/stride" for k, v in spatial.items()}} for o in outputs}}
    model = model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            (example,),
            str(path),
            input_names=[input_name],
            output_names=outputs,
            opset_version=17,
            dynamo=False,
            dynamic_axes=axes,
        )


def quantize_int8(
    path: Path, calibration: np.ndarray, batch: int = 32, keep_float: Sequence[str] = ()
) -> dict[str, Any]:
    """Quantize the exported model in place to int8 (static, QDQ, per-channel int8 weights,
    uint8 activations whose ranges come from ``calibration``, inputs as inference cuts them;
    the ``keep_float`` nodes stay float); returns the model card's ``quantization`` entry.

    Weights are then re-scaled so that no pair of u8 x s8 products saturates in the 16-bit
    kernels of x86 CPUs without VNNI (``requantize.saturation_free``): every CPU reads alike."""
    import onnx  # the train extra's; quantization needs it, inference does not
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Batches(CalibrationDataReader):
        def __init__(self, name: str) -> None:
            self.feeds = iter(
                {name: calibration[i : i + batch].astype(np.float32)}
                for i in range(0, len(calibration), batch)
            )

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    name = onnx.load(str(path)).graph.input[0].name
    prepared = path.with_suffix(".pre.onnx")
    try:
        quant_pre_process(str(path), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(path),
            Batches(name),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=list(keep_float),
        )
    finally:
        prepared.unlink(missing_ok=True)
    model = saturation_free(onnx.load(str(path)))
    onnx.save(model, str(path))
    return {
        "scheme": SCHEME,
        "largest_weight_pair": pair_bound(model),
        "tool": "onnxruntime.quantization.quantize_static",
        "calibration_inputs": int(len(calibration)),
        **({"float_nodes": list(keep_float)} if keep_float else {}),
    }
