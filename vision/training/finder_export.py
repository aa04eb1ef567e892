"""The finder's ONNX export and model card: the maps' layout (stride, size unit) the decoder reads
from the card, and which layers stay float when it is quantized."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from vision.preprocess import FINDER_SIZE
from vision.training.export import export_onnx, quantize_int8, write_card
from vision.training.model_card import ATTRIBUTION, LICENCES
from vision.training.nets import MEAN, STD, n_params

STRIDE = 4
SIZE_UNIT = 16.0  # size channels predict log(box side / 16) in finder-input pixels

# kept float when the finder is quantized: the decoder-side convolutions at stride 4 that make
# the maps (all int8, a synthetic tuning set's grouping fell 764 -> 757 of 800; these float:
# 764, and 22 ms a frame against 28 ms float on this machine)
FLOAT_NODES = ("/up4/up4.0/Conv", "/head/head.0/head.0.0/Conv", "/head/head.1/Conv")


def export_finder(
    model: torch.nn.Module,
    path: Path,
    metrics: dict[str, object],
    recipe: str,
    data_note: str,
    size: int = FINDER_SIZE,
    calibration: np.ndarray | None = None,
    sources: list[str] | None = None,
) -> None:
    """ONNX + card; with ``calibration`` images (letterboxed, NCHW) the model is quantized to
    int8 first, all but its last stride-4 layers (``FLOAT_NODES``: the maps' precision).
    ``sources``: the real photo sources it learned (``vision.sets.trained_on`` reads them)."""
    export_onnx(model, torch.rand(1, 3, size, size) * 255, path, "image", "maps", any_size=True)
    extra: dict[str, object] = {}
    if sources is not None:
        extra["sources"] = sources
        extra["licences"] = {n: LICENCES[n] for n in sources} | {
            "tile_art": ATTRIBUTION["tile_art"]}
    if calibration is not None:
        extra["quantization"] = quantize_int8(path, calibration, 8, FLOAT_NODES)
    g = size // STRIDE
    write_card(
        path,
        {
            "kind": "finder",
            "labels": ["tile"],
            "input": {
                "name": "image",
                "shape": ["n", 3, size, size],
                "layout": "NCHW",
                "colour": "BGR",
                "dtype": "float32",
                "range": [0, 255],
                "letterbox": {"long_side": size, "pad_value": 114},
            },
            "normalisation": {"inside_graph": True, "mean": getattr(model, "MEAN", MEAN),
                              "std": getattr(model, "STD", STD)},
            "output": {
                "name": "maps",
                "shape": ["n", 7, g, g],
                "stride": STRIDE,
                "channels": [
                    "heat_logit",
                    "log_w_over_16",
                    "log_h_over_16",
                    "dx",
                    "dy",
                    "cos_2a",
                    "sin_2a",
                ],
                "size_unit": SIZE_UNIT,
            },
            "parameters": n_params(model),
            "data": data_note,
            "recipe": recipe,
            "metrics": metrics,
            **extra,
        },
    )
