"""A model's card: the JSON beside each shipped model (file, sha256, size, attribution, and what
training and quantization wrote). Standard library and `vision.session` only, so the torch-free
steps (`requantize`) read and write cards without importing the exporter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vision.session import file_sha256 as sha256  # the digest the model loader checks

ATTRIBUTION = {
    "real_photos": '"Chinese Mahjong Detection" by riichimahjongdetection, Roboflow Universe',
    "real_photos_licence": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
    "real_photos_source": "Roboflow Universe 'Chinese Mahjong Detection' v4, as committed in "
    "github.com/alanchoi00/mahjong_detection; used for training (splits train, train-augmented)",
    "tile_art": "FluffyStuff riichi-mahjong-tiles, CC0 1.0 (public domain): synthetic renders",
}

# each trainable photo source's licence and attribution, as a card that learned it names them
LICENCES = {
    "roboflow-chinese-mahjong-v4": '"Chinese Mahjong Detection" by riichimahjongdetection, '
    "Roboflow Universe, CC BY 4.0 (splits train, train-augmented)",
    "leo-miura-riichi-webcam": '"mahjong" by leomiurarobot, Roboflow Universe, CC BY 4.0 '
    "(as committed in github.com/leo-miura-robot/mahjong-detect)",
}

WRITTEN = ("file", "sha256", "bytes", "attribution")  # write_card's own keys


def card_path(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


def write_card(model_path: Path, card: dict[str, Any]) -> Path:
    """Write the card JSON beside the model, adding file name, size, sha256 and attribution
    (a card read back may be passed whole: its old values of these are replaced)."""
    full = {
        "file": model_path.name,
        "sha256": sha256(model_path),
        "bytes": model_path.stat().st_size,
        **{k: v for k, v in card.items() if k not in WRITTEN},
        "attribution": ATTRIBUTION,
    }
    out = card_path(model_path)
    out.write_text(json.dumps(full, indent=2) + "\n")
    return out


def read_card(model_path: Path) -> dict[str, Any]:
    path = card_path(model_path)
    return json.loads(path.read_text()) if path.exists() else {}
