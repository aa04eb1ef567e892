"""Average finders fine-tuned from one start (a uniform model soup) and export the mean.

Two fine-tunes of one recipe that differ only in their seed can read a close-up set many
photos apart (docs/vision.md); the mean of their weights (Wortsman et al., "Model soups", 2022:
fine-tunes of one start lie in one basin, so their mean is a model too) averages the seeds'
quirks, though not a bad member's: read each on ``valid`` first. Every member must start from
the same finder (``finder --init``) and keep its batch norms frozen (an ONNX start), so the
members differ only in their weights.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from vision.training.finder_export import export_finder
from vision.training.nets import TileFinder


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("members", type=Path, nargs="+", metavar="RUN",
                   help="finder runs (each a folder with final.pt and its exported card in "
                   "export/tile_finder.json, as `finder --out RUN --export RUN/export` writes)")
    p.add_argument("--export", type=Path, required=True, help="write ONNX + card here")


def mean_weights(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The members' floating-point tensors averaged (in float64, then their dtype); counters
    such as ``num_batches_tracked`` from the first."""
    first = states[0]
    for k, s in enumerate(states[1:], 2):
        if s.keys() != first.keys() or any(s[n].shape != first[n].shape for n in first):
            raise SystemExit(f"error: member {k} is not a finder of the first one's shape")
    return {
        name: torch.stack([s[name].double() for s in states]).mean(0).to(t.dtype)
        if t.is_floating_point() else t
        for name, t in first.items()
    }


def run(args: argparse.Namespace) -> int:
    if len(args.members) < 2:
        raise SystemExit("error: a soup needs at least two finder runs")
    saved, cards = [], []
    for run_dir in args.members:
        final, card = run_dir / "final.pt", run_dir / "export" / "tile_finder.json"
        if not final.is_file() or not card.is_file():
            raise SystemExit(f"error: {run_dir} lacks final.pt or export/tile_finder.json")
        saved.append(torch.load(final, weights_only=False))
        cards.append(json.loads(card.read_text()))
    shapes = {(s["width"], s["size"]) for s in saved}
    if len(shapes) > 1:
        raise SystemExit("error: the members differ in width or input size")
    (width, size), states = shapes.pop(), [s["model"] for s in saved]
    model = TileFinder(width)
    model.load_state_dict(mean_weights(states))
    names = ", ".join(str(m) for m in args.members)
    args.export.mkdir(parents=True, exist_ok=True)
    export_finder(
        model.eval(),
        args.export / "tile_finder.onnx",
        {},
        recipe=f"the mean of the weights of {len(states)} finders ({names}), each: "
        + "; ".join(sorted({c["recipe"] for c in cards})),
        data_note="; ".join(sorted({c["data"] for c in cards})),
        size=size,
        sources=sorted({s for c in cards for s in c.get("sources", [])}),
    )
    print(f"wrote {args.export / 'tile_finder.onnx'} (the mean of {len(states)} finders)")
    return 0
