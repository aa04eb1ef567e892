"""Export trained checkpoints to ``models/*.onnx`` with their cards (and the classifier's
weights for ``finetune``), optionally merging measured metrics into the cards."""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

import cv2
import numpy as np
import torch

from vision.manifest import read_manifest
from vision.preprocess import FINDER_SIZE, letterbox, to_nchw
from vision.training import data
from vision.training.classifier import (
    TRAIN_SPLITS,
    calibration_crops,
    default_manifest,
    export_classifier,
)
from vision.training.export import read_card, sha256, write_card
from vision.training.finder_export import export_finder
from vision.training.lite_finder import finder_network
from vision.training.nets import TileClassifier
from vision.training.synth_cli import generate


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--classifier", type=Path, help="classifier checkpoint (runs/classifier/final.pt)"
    )
    p.add_argument("--finder", type=Path, help="finder checkpoint (runs/finder/final.pt)")
    p.add_argument("--out", type=Path, default=Path("models"), help="folder for ONNX + cards")
    p.add_argument(
        "--card-from",
        type=Path,
        default=None,
        help="copy data / recipe notes from the cards in this folder (runs/export)",
    )
    p.add_argument(
        "--int8",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="quantize the classifier to int8, calibrated on real training crops (default: on)",
    )
    p.add_argument(
        "--finder-int8",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="quantize the finder to int8 but its last layers, calibrated on 64 training photos "
        "and 64 renders (default: off: the fused int8 kernels round a step off the reference "
        "ones, which moves boxes: see docs/vision.md)",
    )
    p.add_argument("--manifest", type=Path, help="calibration photos (default: ../shared/photos)")
    p.add_argument(
        "--metrics",
        type=Path,
        default=None,
        help="JSON {classifier: {...}, finder: {...}} merged into the cards' metrics",
    )


def _notes(folder: Path | None, name: str) -> dict[str, str]:
    card = read_card(folder / name) if folder else {}
    return {"recipe": card.get("recipe", ""), "data_note": card.get("data", "")}


def _calibration(manifest: Path | None) -> np.ndarray:
    """int8 calibration crops: real crops of the training photos (never ``valid``)."""
    entries = read_manifest(manifest or default_manifest(), TRAIN_SPLITS)
    stored, _ = data.real_crops(entries[::4], desc="calibration crops")
    return calibration_crops(stored)


def _finder_calibration(manifest: Path | None, size: int) -> np.ndarray:
    """int8 calibration frames for the finder, letterboxed as inference does: 64 training
    photos (never ``valid``) and 64 renders of a trainer's seed (2500), so both the real
    photos' large tiles and the riichi scenes' small, sideways and face-down ones are seen."""
    photos = read_manifest(manifest or default_manifest(), ["train"])
    random.Random(0).shuffle(photos)
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp), 64, 2500, "calibration", (640, 480))
        renders = read_manifest(Path(tmp) / "manifest.jsonl")
        frames = [cv2.imread(str(e.path)) for e in photos[:64] + renders]
    return np.concatenate([to_nchw(letterbox(f, size)[0]) for f in frames])


def save_weights(model: torch.nn.Module, width: int, path: Path, tile_head: bool) -> None:
    torch.save({"model": model.state_dict(), "width": width, "tile_head": tile_head}, path)


def export_classifier_checkpoint(
    checkpoint: Path,
    out: Path,
    metrics: dict[str, object],
    card_from: Path | None,
    int8: bool = True,
    manifest: Path | None = None,
    recipe_note: str = "",
) -> Path:
    """``out``/tile_classifier.onnx, its card and its float weights (for ``finetune``) from a
    classifier checkpoint; the card's data and recipe notes come from ``card_from``'s card
    (``recipe_note`` appended)."""
    state = torch.load(checkpoint, weights_only=False)
    width = int(state.get("width", 32))
    model = TileClassifier(width=width)
    missing = model.load_state_dict(state["model"], strict=False).missing_keys
    path = out / "tile_classifier.onnx"
    notes = _notes(card_from, "tile_classifier.onnx")
    tile_head = bool(state.get("tile_head"))
    export_classifier(
        model,
        path,
        metrics,
        recipe=notes["recipe"] + recipe_note,
        data_note=notes["data_note"],
        calibration=_calibration(manifest) if int8 else None,
        tile_head=tile_head,
    )
    weights = out / "tile_classifier.pt"
    save_weights(model, width, weights, tile_head)
    card = read_card(path)
    if any(key.startswith("orient.") for key in missing):  # trained before the glyph-axis
        card["outputs"].pop("axis")  # head existed: its output means nothing
    card["weights"] = {"file": weights.name, "sha256": sha256(weights), "use": "finetune"}
    write_card(
        path,
        card,
    )
    print(f"wrote {path} and {weights}")
    return path


def run(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    extra = json.loads(args.metrics.read_text()) if args.metrics else {}
    if args.classifier:
        export_classifier_checkpoint(
            args.classifier,
            args.out,
            extra.get("classifier", {}),
            args.card_from,
            args.int8,
            args.manifest,
        )
    if args.finder:
        state = torch.load(args.finder, weights_only=False)
        model = finder_network(state.get("backbone", "small"), int(state.get("width", 16)))
        model.load_state_dict(state["model"])
        size = int(state.get("size", FINDER_SIZE))
        path = args.out / "tile_finder.onnx"
        export_finder(
            model,
            path,
            extra.get("finder", {}),
            **_notes(args.card_from, "tile_finder.onnx"),
            size=size,
            calibration=_finder_calibration(args.manifest, size) if args.finder_int8 else None,
        )
        print(f"wrote {path}")
    return 0
