"""ONNX export and the model card written beside each model."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import torch

from vision.session import file_sha256 as sha256  # the digest the model loader checks

ATTRIBUTION = {
    "real_photos": '"Chinese Mahjong Detection" by riichimahjongdetection, Roboflow Universe',
    "real_photos_licence": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
    "real_photos_source": "Roboflow Universe 'Chinese Mahjong Detection' v4, as committed in "
    "github.com/alanchoi00/mahjong_detection; used for training (splits train, train-augmented)",
    "tile_art": "FluffyStuff riichi-mahjong-tiles, CC0 1.0 (public domain): synthetic renders",
}


def export_onnx(
    model: torch.nn.Module,
    example: torch.Tensor,
    path: Path,
    input_name: str,
    output_name: str | list[str],
) -> None:
    """Export with a dynamic batch axis (legacy exporter: no onnxscript needed)."""
    outputs = [output_name] if isinstance(output_name, str) else output_name
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
            dynamic_axes={input_name: {0: "n"}, **{o: {0: "n"} for o in outputs}},
        )


def card_path(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


def write_card(model_path: Path, card: dict[str, Any]) -> Path:
    """Write the card JSON beside the model, adding file name, size and sha256."""
    full = {
        "file": model_path.name,
        "sha256": sha256(model_path),
        "bytes": model_path.stat().st_size,
        **card,
        "attribution": ATTRIBUTION,
    }
    out = card_path(model_path)
    out.write_text(json.dumps(full, indent=2) + "\n")
    return out


def read_card(model_path: Path) -> dict[str, Any]:
    path = card_path(model_path)
    return json.loads(path.read_text()) if path.exists() else {}
