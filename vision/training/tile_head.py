"""Teach the classifier's tile head what is no tile.

The finder now and then boxes a finger, a point stick's end, a patch of table or a gap between
tiles; the 38 classes then read it as the blank White dragon or a back, and one extra tile breaks
the hand's grouping. The tile head (one output beside the labels) learns from the finder's own
boxes on rendered riichi scenes: those on a tile (1) and those on nothing (0), plus patches of
table, with the stored real crops of a classifier run as more tiles. Only the head learns: the
features and the label and glyph-axis heads stay as ``--init`` has them, so every label reads as
before. Resumable like the other trainers (one checkpoint a round of steps).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from vision.training import data
from vision.training.checkpoint import add_run_arguments, end_epoch, optimise, resume
from vision.training.nets import TileClassifier


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=Path("runs/tile_head"), help="checkpoints + logs")
    p.add_argument(
        "--crops",
        type=Path,
        required=True,
        help="a classifier run folder: its real_train.npz / finder_train.npz crops count as tiles",
    )
    p.add_argument("--models", type=Path, default=Path("models"), help="finder that boxes scenes")
    p.add_argument("--scenes", type=int, default=3000, help="rendered riichi scenes to mine")
    p.add_argument(
        "--clutter",
        type=float,
        default=0.0,
        help="share of the scenes with printed clutter beside the table (books, a card): 0..1",
    )
    p.add_argument("--epochs", type=int, default=4, help="rounds of --steps steps")
    p.add_argument("--steps", type=int, default=400, help="steps a round")
    p.add_argument("--batch", type=int, default=256, help="crops a step (half of them no tile)")
    p.add_argument("--lr", type=float, default=2e-3, help="AdamW learning rate (cosine decay)")
    add_run_arguments(p)


def features(model: TileClassifier, x: np.ndarray, rng: np.random.Generator,
             train: bool) -> torch.Tensor:
    """Feature maps of augmented crops, from the frozen network."""
    with torch.no_grad():
        return model.feature_map(torch.from_numpy(data.batch(x, np.arange(len(x)), rng, train)[0]))


def measure(model: TileClassifier, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Share of held-out tiles kept and of non-tiles dropped at p = 0.5."""
    rng = np.random.default_rng(0)
    with torch.no_grad():
        p = np.concatenate([
            torch.sigmoid(model.tile(features(model, x[s : s + 512], rng, False)))[:, 0].numpy()
            for s in range(0, len(x), 512)
        ])
    shares = {"tiles_kept": p[y == 1] >= 0.5, "non_tiles_dropped": p[y == 0] < 0.5}
    return {key: round(float(hit.mean()), 4) for key, hit in shares.items() if len(hit)}


def run(args: argparse.Namespace) -> int:
    if args.init is None:
        raise SystemExit("--init is required: the tile head is taught on a trained classifier")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    if not 0 <= args.clutter <= 1:
        raise SystemExit(f"--clutter is a share of the scenes, 0..1, not {args.clutter}")
    suffix = f"_clutter{args.clutter:g}" if args.clutter else ""
    xm, ym = data.cache(
        out / f"tile_or_not_{args.scenes}_{args.seed}{suffix}.npz",
        lambda: data.tile_or_not(args.scenes, 3000 + args.seed, args.models, args.clutter),
    )
    real = [np.load(args.crops / name)["x"] for name in ("real_train.npz", "finder_train.npz")
            if (args.crops / name).exists()]
    held = np.arange(len(xm)) % 10 == 0  # every tenth mined crop is measured on, never learnt
    pos = np.concatenate([xm[~held & (ym == 1)], *real])
    neg = xm[~held & (ym == 0)]
    print(f"tiles: {len(pos)}; no tile: {len(neg)}; held out: {int(held.sum())}", flush=True)

    state = torch.load(args.init, weights_only=False)
    model = TileClassifier(width=int(state.get("width", 32)))
    model.load_state_dict(state["model"], strict=False)
    model.eval()  # frozen features: batch norm keeps its statistics
    for param in model.parameters():
        param.requires_grad_(False)
    for param in model.tile.parameters():
        param.requires_grad_(True)
    opt = torch.optim.AdamW(model.tile.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs * args.steps)
    loss_fn = nn.BCEWithLogitsLoss()
    ckpt = out / "last.pt"
    start = resume(ckpt, model, opt, sched)
    log = (out / "log.jsonl").open("a")
    half = args.batch // 2
    target = torch.cat([torch.ones(half), torch.zeros(half)])[:, None]
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        t0, total = time.time(), 0.0
        bar = tqdm(range(args.steps), desc=f"round {epoch + 1}/{args.epochs}", mininterval=30)
        for step in bar:
            x = np.concatenate([pos[rng.integers(0, len(pos), half)],
                                neg[rng.integers(0, len(neg), half)]])
            loss = loss_fn(model.tile(features(model, x, rng, True)), target)
            total += optimise(loss, opt, sched)
            bar.set_postfix(loss=f"{total / (step + 1):.3f}", refresh=False)
        rec = {"epoch": epoch + 1, "loss": total / args.steps, **measure(model, xm[held], ym[held]),
               "seconds": round(time.time() - t0)}
        end_epoch(rec, log, ckpt, model, opt, sched, args=vars(args))
    final = out / "final.pt"
    torch.save(
        {"model": model.state_dict(), "width": model.head.in_features // 4, "tile_head": True},
        final,
    )
    if args.export:  # the card's notes from the models whose finder mined the crops
        from vision.training.export_cli import export_classifier_checkpoint

        args.export.mkdir(parents=True, exist_ok=True)
        note = f"; tile head: {args.epochs} rounds x {args.steps} steps on {args.scenes} renders"
        export_classifier_checkpoint(final, args.export, {}, args.models, recipe_note=note)
    return 0
