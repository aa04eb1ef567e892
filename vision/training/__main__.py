"""`python -m vision.training {classifier,finder,synth,export,...}`: train, ship models."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "classifier": ("vision.training.classifier", "train the 38-class crop classifier"),
    "pretrained": (
        "vision.training.pretrained",
        "train a crop classifier on pretrained features (EfficientNet-Lite0, ImageNet)",
    ),
    "pretrained-tile-head": (
        "vision.training.pretrained_tile_head",
        "refit the pretrained classifier's tile head on balanced tiles and no tiles",
    ),
    "finder": ("vision.training.finder", "train the tile finder (centre heatmap + box size)"),
    "soup": (
        "vision.training.soup",
        "average finders fine-tuned from one start (a model soup) and export the mean",
    ),
    "synth": ("vision.training.synth_cli", "render a synthetic riichi set (images + manifest)"),
    "faces": ("vision.training.faces_cli", "draw a contact sheet of procedural tile faces"),
    "tile-head": ("vision.training.tile_head", "teach the classifier's tile head what is no tile"),
    "export": ("vision.training.export_cli", "export checkpoints to models/*.onnx + cards"),
    "requantize": (
        "vision.training.requantize",
        "make int8 models read the same on every CPU (no saturating weight pairs)",
    ),
    "features": (
        "vision.training.features",
        "give the classifier its pooled features as an output (for taught tile sets)",
    ),
    "finetune": ("vision.training.finetune", "adapt the shipped classifier to a table's photos"),
    "closeups": (
        "vision.training.closeups",
        "cut close-ups of a few tiles from the trainable photos or, --from, large renders",
    ),
    "frames": ("vision.training.frames", "pick sample frames the shipped models read right"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name, (module, help_text) in COMMANDS.items():
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=help_text, description=mod.__doc__)
        mod.add_arguments(p)
        modules[name] = mod
    args = parser.parse_args(argv)
    return int(modules[args.command].run(args))


if __name__ == "__main__":
    sys.exit(main())
