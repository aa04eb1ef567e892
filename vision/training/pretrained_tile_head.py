"""Refit the pretrained classifier's tile head on balanced tiles and no tiles.

Trained with the labels, the tile head saw one no-tile crop in sixteen, so it calls nearly
everything a tile and the reader's ``no_tile_below`` (a surely-no-tile bar, chosen with the
shipped head, which learned from balanced batches) drops almost nothing. This refit keeps
every other weight: the pooled features of tiles (a sample of the run's training crops) and of
no tiles (the run's mined crops plus ``--scenes`` more rendered riichi scenes, a different seed)
are computed once, and only the head learns, half of each batch a tile and half none, as
``vision.training tile-head`` teaches the shipped classifier. Every tenth crop is held out and
measured. ``--export`` writes the model as ``pretrained --export`` does.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.sets import SETS
from vision.training import data
from vision.training.pretrained import PretrainedClassifier
from vision.training.pretrained_data import NO_TILE, Crops, Recipe, rendered_crops, source_crops


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", type=Path, required=True,
                   help="a `pretrained` run folder (its final.pt, log.jsonl and cached crops)")
    p.add_argument("--models", type=Path, default=Path("models"),
                   help="the finder that boxes the scenes (and copied beside --export)")
    p.add_argument("--scenes", type=int, default=2000, help="more rendered scenes to mine")
    p.add_argument("--tiles", type=int, default=20000, help="tile crops sampled as positives")
    p.add_argument("--steps", type=int, default=3000, help="optimiser steps")
    p.add_argument("--seed", type=int, default=7, help="the mined scenes' seed and the sample's")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    p.add_argument("--export", type=Path, default=None, help="write ONNX + card here")


@torch.no_grad()
def pooled(model: PretrainedClassifier, x: np.ndarray, size: int, seed: int) -> torch.Tensor:
    """[N, NECK] pooled features of the stored crops, each cut once with training's jitter."""
    rng, out = np.random.default_rng(seed), []
    for i in range(0, len(x), 256):
        batch = torch.from_numpy(data.batch(x, np.arange(i, min(i + 256, len(x))), rng, True,
                                            size)[0])
        out.append(model.pooled(batch))
    return torch.cat(out) if out else torch.zeros((0, model.tile.in_features))


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    state = torch.load(args.run / "final.pt", weights_only=False)
    model = PretrainedClassifier(int(state["upto"]), pretrained=False)
    model.load_state_dict(state["model"])
    model.eval()
    size = int(state["size"])
    train_args = torch.load(args.run / "last.pt", weights_only=False)["args"]
    names = [s.name for s in SETS if s.trainable and s.name not in train_args["without"]]
    recipe = Recipe(train_args["synth_scenes"], train_args["scenes"],
                    train_args["procedural_share"], train_args["clutter"], train_args["seed"])
    crops = Crops.join([*(source_crops(Path(train_args["photos"]), n, args.models, args.run)
                          for n in names), rendered_crops(recipe, args.models, args.run)])
    mined = data.cache(args.run / f"no_tile_more_{args.scenes}_{args.seed}.npz",
                       lambda: data.tile_or_not(args.scenes, 5000 + args.seed, args.models, 0.3))
    rng = np.random.default_rng(args.seed)
    tiles = np.flatnonzero(crops.y != NO_TILE)
    tiles = rng.choice(tiles, min(args.tiles, len(tiles)), replace=False)
    none = np.concatenate([crops.x[crops.y == NO_TILE], mined[0][mined[1] == 0]])
    pos, neg = pooled(model, crops.x[tiles], size, 1), pooled(model, none, size, 2)
    held_pos, held_neg = np.arange(len(pos)) % 10 == 0, np.arange(len(neg)) % 10 == 0
    print(f"tiles {len(pos)}, no tiles {len(neg)} (a tenth of each held out)", flush=True)
    head = nn.Linear(pos.shape[1], 1)
    opt = torch.optim.AdamW(head.parameters(), lr=3e-3, weight_decay=1e-4)
    fit_pos, fit_neg = pos[~held_pos], neg[~held_neg]
    target = torch.cat([torch.ones(128), torch.zeros(128)])
    for _ in range(args.steps):
        x = torch.cat([fit_pos[rng.integers(0, len(fit_pos), 128)],
                       fit_neg[rng.integers(0, len(fit_neg), 128)]])
        loss = nn.functional.binary_cross_entropy_with_logits(head(x)[:, 0], target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        p_tile = torch.sigmoid(head(pos[held_pos]))[:, 0].numpy()
        p_none = torch.sigmoid(head(neg[held_neg]))[:, 0].numpy()
    measured = {"tiles_kept_at_0.5": round(float((p_tile >= 0.5).mean()), 4),
                "non_tiles_dropped_at_0.5": round(float((p_none < 0.5).mean()), 4),
                "tiles_kept_at_0.03": round(float((p_tile >= 0.03).mean()), 4),
                "non_tiles_dropped_at_0.03": round(float((p_none < 0.03).mean()), 4)}
    print(json.dumps(measured), flush=True)
    model.tile.load_state_dict(head.state_dict())
    torch.save({**state, "model": model.state_dict(), "tile_head_refit": measured},
               args.run / "final_tile_head.pt")
    if args.export:
        from vision.training.pretrained import record_of
        from vision.training.pretrained_export import export

        ns = argparse.Namespace(**{**train_args, "export": args.export})
        args.export.mkdir(parents=True, exist_ok=True)
        export(model, ns, names, record_of(args.run) | {"tile_head_refit": measured})
        for f in ("tile_finder.onnx", "tile_finder.json"):
            shutil.copy(args.models / f, args.export / f)
    return 0
