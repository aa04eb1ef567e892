"""Average finders fine-tuned from one start (a uniform model soup) and export the mean.

Two fine-tunes of one recipe that differ only in their seed can read a close-up set many
photos apart (docs/vision.md); the mean of their weights (Wortsman et al., "Model soups", 2022:
fine-tunes of one start lie in one basin, so their mean is a model too) averages the seeds'
quirks, though not a bad member's: read each on ``valid`` first. Every member must start from
the same finder (``finder --init``) and keep its batch norms frozen (an ONNX start), so the
members differ only in their weights.

``--start FINDER --start-share S`` moves the mean back toward the start by S (WiSE-FT: Wortsman
et al., "Robust fine-tuning of zero-shot models", 2022): a fine-tune learns its new photos at
some cost to what the start read well, and the weights between the two keep more of both.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from vision.training.finder_export import export_finder
from vision.training.finder_weights import FinderWeightsError, finder_from_onnx
from vision.training.lite_finder import finder_network


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("members", type=Path, nargs="+", metavar="RUN",
                   help="finder runs (each a folder with final.pt and its exported card in "
                   "export/tile_finder.json, as `finder --out RUN --export RUN/export` writes)")
    p.add_argument("--export", type=Path, required=True, help="write ONNX + card here")
    p.add_argument("--start", type=Path, metavar="FINDER",
                   help="the finder every member started from (its ONNX, as `finder --init` "
                   "took it), mixed back in by --start-share")
    p.add_argument("--start-share", type=float, default=0.0, metavar="S",
                   help="share (0..1, below 1) of --start in the exported weights; the "
                   "members' mean keeps the rest (0: the mean alone)")


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


def mixed_with_start(
    mean: dict[str, torch.Tensor], start: dict[str, torch.Tensor], share: float
) -> dict[str, torch.Tensor]:
    """``mean`` moved toward ``start`` by ``share``: (1 - share) * mean + share * start, per
    floating-point tensor (in float64, then its dtype); counters as in ``mean``."""
    if start.keys() != mean.keys() or any(start[n].shape != mean[n].shape for n in mean):
        raise SystemExit("error: --start is not a finder of the members' shape")
    return {
        name: ((1 - share) * t.double() + share * start[name].double()).to(t.dtype)
        if t.is_floating_point() else t
        for name, t in mean.items()
    }


def run(args: argparse.Namespace) -> int:
    if len(args.members) < 2:
        raise SystemExit("error: a soup needs at least two finder runs")
    if not 0 <= args.start_share < 1 or (args.start_share > 0) != bool(args.start):
        raise SystemExit("error: --start-share must lie in 0..1 (below 1), above 0 with --start")
    if args.start and not args.start.is_file():
        raise SystemExit(f"error: no finder at {args.start}")
    saved, cards = [], []
    for run_dir in args.members:
        final, card = run_dir / "final.pt", run_dir / "export" / "tile_finder.json"
        if not final.is_file() or not card.is_file():
            raise SystemExit(f"error: {run_dir} lacks final.pt or export/tile_finder.json")
        saved.append(torch.load(final, weights_only=False))
        cards.append(json.loads(card.read_text()))
    shapes = {(s.get("backbone", "small"), s["width"], s["size"]) for s in saved}
    if len(shapes) > 1:
        raise SystemExit("error: the members differ in backbone, width or input size")
    (backbone, width, size), states = shapes.pop(), [s["model"] for s in saved]
    weights = mean_weights(states)
    names = ", ".join(str(m) for m in args.members)
    mixed = ""
    if args.start:
        try:
            start = finder_from_onnx(args.start, width).state_dict()
        except FinderWeightsError as e:
            raise SystemExit(f"error: --start {e}") from e
        weights = mixed_with_start(weights, start, args.start_share)
        mixed = f", moved toward their start {args.start} by {args.start_share:g} (WiSE-FT)"
    model = finder_network(backbone, width)
    model.load_state_dict(weights)
    args.export.mkdir(parents=True, exist_ok=True)
    export_finder(
        model.eval(),
        args.export / "tile_finder.onnx",
        {},
        recipe=f"the mean of the weights of {len(states)} finders ({names}){mixed}, each: "
        + "; ".join(sorted({c["recipe"] for c in cards})),
        data_note="; ".join(sorted({c["data"] for c in cards})),
        size=size,
        sources=sorted({s for c in cards for s in c.get("sources", [])}),
    )
    print(f"wrote {args.export / 'tile_finder.onnx'} (the mean of {len(states)} finders)")
    return 0
