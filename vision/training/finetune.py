"""Adapt the shipped classifier to a table's own tile set from photos the kiosk saved.

The kiosk stores confirmed captures in the manifest format. A deterministic share of those images
(by name) is held out; the shipped classifier and the fine-tuned one are both measured on the
held-out crops, and the shipped model is replaced only when the new one is strictly better
(``--replace``). Synthetic crops are mixed in so red fives and backs are not forgotten.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from vision.manifest import read_manifest
from vision.postprocess import softmax
from vision.preprocess import CROP_PAD, CROP_SIZE, to_nchw
from vision.recogniser import CLASSIFIER_FILE, default_models_dir
from vision.session import ModelSession
from vision.training import data
from vision.training.checkpoint import optimise
from vision.training.classifier import batch_loss, calibration_crops, export_classifier
from vision.training.export import read_card, sha256, write_card
from vision.training.nets import TileClassifier


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, required=True, help="manifest.jsonl of confirmed photos")
    p.add_argument("--models", type=Path, default=None, help="shipped models (default: models/)")
    p.add_argument("--out", type=Path, default=Path("runs/finetune"), help="candidate model")
    p.add_argument("--holdout", type=float, default=0.25, help="share of images held out")
    p.add_argument("--epochs", type=int, default=4, help="passes over the crops")
    p.add_argument("--lr", type=float, default=5e-4, help="AdamW learning rate")
    p.add_argument("--synth-scenes", type=int, default=150, help="synthetic rows mixed in")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument(
        "--replace",
        action="store_true",
        help="write the result over the shipped model when it measures better",
    )


def held_out(name: str, share: float) -> bool:
    """Deterministic split by image name (stable across runs and machines)."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < share


def onnx_accuracy(model_path: Path, crops: np.ndarray, labels: np.ndarray) -> float:
    session = ModelSession.load(model_path)
    probs = softmax(session.run(to_nchw(crops)))
    return float((probs.argmax(1) == labels).mean()) if len(labels) else 0.0


def _model(state: dict) -> nn.Module:
    """The shipped classifier's network from its weights file: the pretrained-features one
    (``kind: pretrained``) or the small one learned from scratch. The tile head is not
    exported after fine-tuning, as it was taught on the features this fine-tuning moves."""
    if state.get("kind") == "pretrained":
        from vision.training.pretrained import PretrainedClassifier

        model: nn.Module = PretrainedClassifier(int(state["upto"]), pretrained=False)
        model.load_state_dict(state["model"])
        return model
    model = TileClassifier(width=int(state.get("width", 32)))
    model.load_state_dict(state["model"], strict=False)  # weights from before a head lack it
    return model


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    models = args.models or default_models_dir()
    shipped = models / CLASSIFIER_FILE
    card = read_card(shipped)
    weights = models / card.get("weights", {}).get("file", "tile_classifier.pt")
    if not weights.exists() or sha256(weights) != card.get("weights", {}).get("sha256"):
        print(f"error: {weights} is missing or does not match {shipped.with_suffix('.json')}")
        return 2
    entries = read_manifest(args.data)
    train_e = [e for e in entries if not held_out(e.image, args.holdout)]
    test_e = [e for e in entries if held_out(e.image, args.holdout)]
    if not train_e or not test_e:
        print(f"error: need images on both sides of the hold-out ({len(train_e)} / {len(test_e)})")
        return 2
    state = torch.load(weights, weights_only=False)
    pretrained = state.get("kind") == "pretrained"
    size = int(state.get("size", CROP_SIZE))
    xs, ys = data.real_crops(train_e, desc="train crops")
    xt, yt = data.real_crops(test_e, pad=CROP_PAD, size=size, desc="held-out crops")
    xsyn, ysyn, osyn = data.synth_crops(args.synth_scenes, seed=3000)
    x, y = np.concatenate([xs, xs, xsyn]), np.concatenate([ys, ys, ysyn])  # own photos twice
    axis = np.concatenate([np.full(2 * len(ys), -1, np.int64), osyn])
    model = _model(state)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    axis_loss = nn.CrossEntropyLoss(ignore_index=-1)
    rng = np.random.default_rng(0)
    for epoch in range(args.epochs):
        model.train()
        order = rng.permutation(len(x))
        for s in tqdm(range(0, len(x), 64), desc=f"finetune {epoch + 1}/{args.epochs}"):
            idx = order[s : s + 64]
            optimise(batch_loss(model, x, y, axis, idx, rng, loss_fn, axis_loss, size=size), opt)
    args.out.mkdir(parents=True, exist_ok=True)
    candidate = args.out / CLASSIFIER_FILE
    recipe = card.get("recipe", "") + f"; fine-tuned {args.epochs} epochs lr {args.lr} on " \
        f"{args.data.name}"
    data_note = card.get("data", "") + f"; + {len(xs)} crops of {len(train_e)} own photos"
    if pretrained:
        from vision.training.pretrained_export import write_model

        kept = {k: card[k] for k in ("trunk", "sources", "licences") if k in card}
        write_model(model, candidate, size, kept | {"recipe": recipe, "data": data_note},
                    tile_head=False)
    else:
        export_classifier(model, candidate, {}, recipe=recipe, data_note=data_note,
                          calibration=calibration_crops(xs, xsyn) if "quantization" in card
                          else None)
    before = onnx_accuracy(shipped, xt, yt)
    after = onnx_accuracy(candidate, xt, yt)
    result = {
        "held_out_images": len(test_e),
        "held_out_crops": int(len(yt)),
        "shipped_accuracy": round(before, 4),
        "finetuned_accuracy": round(after, 4),
    }
    print(json.dumps(result))
    if after <= before:
        print(
            f"refused: the fine-tuned classifier is not better on the held-out photos "
            f"({after:.4f} vs {before:.4f}); {shipped} is unchanged"
        )
        return 1
    if not args.replace:
        print(f"better on the held-out photos; candidate in {candidate} (use --replace to ship it)")
        return 0
    new_card = read_card(candidate)
    new_card["metrics"] = {**card.get("metrics", {}), "finetune": result}
    torch.save({**state, "model": model.state_dict()}, weights)
    new_card["weights"] = {"file": weights.name, "sha256": sha256(weights), "use": "finetune"}
    shipped.write_bytes(candidate.read_bytes())
    write_card(
        shipped,
        new_card,
    )
    print(f"replaced {shipped} (held-out accuracy {before:.4f} -> {after:.4f})")
    return 0
