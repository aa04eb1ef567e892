"""Train the tile finder: per-cell tile-centre heatmap, box size, offset and orientation.

Real photos (``train`` with tight boxes, ``train-augmented`` with loose ones) teach real tiles;
rendered riichi scenes teach face-down tiles, sideways tiles, the dora row and the orientation
channels (real labels have no orientation, so that loss is masked for them). The network is the
finder's own (``--backbone small``) or one on ImageNet features (``lite0``, `lite_finder`), which
``--teacher`` can hold to a shipped finder's maps as it learns.
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from tqdm import tqdm

from vision.preprocess import FINDER_SIZE
from vision.sets import SETS
from vision.training.checkpoint import add_run_arguments, end_epoch, optimise, resume
from vision.training.classifier import default_manifest
from vision.training.finder_data import (
    STRETCH_SHARE,
    augment,
    held_to_start,
    load_real,
    load_source,
    load_synth,
    targets,
)
from vision.training.finder_export import export_finder
from vision.training.finder_keep import FinderKeep
from vision.training.finder_weights import FinderWeightsError, finder_from_onnx, freeze_batch_norms
from vision.training.lite_finder import BACKBONES, finder_network
from vision.training.nets import TileFinder

ROBOFLOW = "roboflow-chinese-mahjong-v4"  # the --manifest's source, its training splits
# a --with source's photos are seen this many times an epoch: a set of a few dozen photos
# otherwise weighs little beside roboflow's 584 and the renders
SOURCE_REPEAT = 3
CLOSEUP_RENDER_GAIN = 3.0  # --closeup-renders: scenes rendered this many times larger


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--manifest", type=Path, help="labelled photos (default: ../shared/photos)")
    p.add_argument("--out", type=Path, default=Path("runs/finder"), help="checkpoints + logs")
    p.add_argument("--epochs", type=int, default=12, help="passes over the training images")
    p.add_argument("--batch", type=int, default=8, help="images a step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak of the one-cycle learning rate")
    p.add_argument("--width", type=int, default=16, help="channel width (16: ~0.74M params)")
    p.add_argument(
        "--backbone",
        choices=BACKBONES,
        default="small",
        help="small: the finder's own network, every filter learned here (--width); lite0: "
        "EfficientNet-Lite0's first blocks with their ImageNet weights (vision.training."
        "lite_finder, the train extra), a new head",
    )
    p.add_argument(
        "--teacher",
        type=Path,
        default=None,
        help="the ONNX finder whose maps --keep-real holds the model to (default: the --init)",
    )
    p.add_argument("--synth-scenes", type=int, default=1000, help="rendered riichi scenes")
    p.add_argument("--size", type=int, default=FINDER_SIZE, help="input side (a multiple of 32)")
    p.add_argument(
        "--meld-mix",
        type=lambda v: tuple(int(x) for x in v.split(",")),
        default=None,
        help="weights of hands with 0,1,2,3,4 melds in the renders (default: the held-out mix)",
    )
    p.add_argument(
        "--stretch",
        type=float,
        default=STRETCH_SHARE,
        help="share of training images stretched along one axis (0 turns it off)",
    )
    p.add_argument(
        "--procedural-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the rendered scenes drawn with procedural tile faces in a random "
        "style each instead of the CC0 art (0: the CC0 art only, as before)",
    )
    p.add_argument(
        "--standing-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the rendered scenes whose tiles stand, tops seen above the faces "
        "and held in their boxes",
    )
    p.add_argument(
        "--upright-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the rendered scenes of tiles standing as solid bodies, in rows "
        "or loose groups, seen by a low camera (vision.synth.upright)",
    )
    p.add_argument(
        "--clutter-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the rendered scenes with printed things beside the table (books, "
        "cards: no tiles)",
    )
    p.add_argument(
        "--keep-real",
        type=float,
        default=0.0,
        metavar="WEIGHT",
        help="hold the model to the --init finder's maps on the real photos by this weight "
        "(0: off), so a fine-tune learns new scenes without unlearning the photos",
    )
    p.add_argument(
        "--keep-renders",
        action="store_true",
        help="with --keep-real, hold it on the renders too, all but the --upright-share ones "
        "(what the fine-tune is for), so it does not unlearn the flat scenes either",
    )
    p.add_argument(
        "--closeup-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the training images seen as a close-up: one tile magnified to "
        "fill much of the view (a phone held near a few tiles); never held by --keep-real",
    )
    p.add_argument(
        "--closeup-renders",
        type=int,
        default=0,
        metavar="N",
        help=f"N more scenes (seed 3000 + --seed) rendered {CLOSEUP_RENDER_GAIN:g} times larger "
        "and kept at full size, every one seen as a close-up (a tile magnified as "
        "--closeup-share does, but sharp); never held by --keep-real (0: none)",
    )
    p.add_argument(
        "--with",
        dest="sources",
        action="append",
        default=[],
        metavar="NAME",
        choices=[s.name for s in SETS if s.trainable and s.name != ROBOFLOW],
        help="also learn every photo of this trainable source (vision.sets; read at its "
        "camera's proportions where its publisher squeezed it); never held by --keep-real, "
        "which holds the starting finder's photos; repeatable",
    )
    add_run_arguments(p)


def loss_fn(pred: torch.Tensor, tgt: torch.Tensor) -> tuple[torch.Tensor, dict[str, float]]:
    heat = pred[:, 0].sigmoid().clamp(1e-4, 1 - 1e-4)
    gt = tgt[:, 0]
    pos = gt.eq(1).float()
    neg = 1 - pos
    focal = -(
        pos * (1 - heat) ** 2 * heat.log() + neg * (1 - gt) ** 4 * heat**2 * (1 - heat).log()
    ).sum()
    n = pos.sum().clamp(min=1)
    reg = tgt[:, 7] > 0
    ang = tgt[:, 7] > 1.5
    p = pred.permute(0, 2, 3, 1)
    q = tgt.permute(0, 2, 3, 1)
    size = F.l1_loss(p[reg][:, 1:3], q[reg][:, 1:3], reduction="sum") / n
    off = F.l1_loss(p[reg][:, 3:5], q[reg][:, 3:5], reduction="sum") / n
    orient = F.l1_loss(p[ang][:, 5:7], q[ang][:, 5:7], reduction="sum") / ang.sum().clamp(min=1)
    total = focal / n + size + off + 0.5 * orient
    return total, {
        "heat": float(focal.detach() / n),
        "size": float(size.detach()),
        "off": float(off.detach()),
        "orient": float(orient.detach()),
    }


def read_finder(path: Path, width: int, flag: str) -> TileFinder:
    """The ONNX finder at ``path`` as a trainable `TileFinder`, or a message naming ``flag``."""
    try:
        return finder_from_onnx(path, width)
    except FinderWeightsError as e:
        raise SystemExit(f"error: {flag} {e}") from e


def starting_finder(init: Path | None, width: int, backbone: str = "small") -> nn.Module:
    """A fresh finder, or the one ``init`` holds: a shipped ONNX finder (its batch norms
    folded, so they stay frozen in training) or a training checkpoint."""
    if init and init.suffix == ".onnx":
        if backbone != "small":
            raise SystemExit(f"error: --init {init}: an ONNX finder starts --backbone small only")
        return read_finder(init, width, "--init")
    model = finder_network(backbone, width)
    if init:
        model.load_state_dict(torch.load(init, weights_only=False)["model"])
    return model


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    for name in ("procedural_share", "standing_share", "clutter_share", "upright_share",
                 "closeup_share"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            flag = "--" + name.replace("_", "-")
            raise SystemExit(f"{flag} {getattr(args, name)} is not within 0..1")
    if args.closeup_renders < 0:
        raise SystemExit(f"--closeup-renders {args.closeup_renders} is below 0")
    teacher_path = args.teacher or args.init
    if args.keep_real and (not teacher_path or args.keep_real < 0):
        raise SystemExit("--keep-real needs --teacher or --init (the teacher) and a weight >= 0")
    if args.teacher and not args.keep_real:
        raise SystemExit("--teacher needs --keep-real (how hard the model is held to it)")
    if args.teacher and args.teacher.suffix != ".onnx":
        raise SystemExit(f"error: --teacher {args.teacher}: not an ONNX finder")
    # read (or refused) before the data is built, which draws nothing from torch: the seeds'
    # draws come in the same order
    model = starting_finder(args.init, args.width, args.backbone)
    keep = (  # the teacher (the starting weights unless --teacher), frozen
        FinderKeep((read_finder(args.teacher, 16, "--teacher") if args.teacher
                    else copy.deepcopy(model)).eval().requires_grad_(False), args.keep_real)
        if args.keep_real else None
    )
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    manifest = args.manifest or default_manifest()
    drawn = {"meld_mix": args.meld_mix, "procedural_share": args.procedural_share,
             "standing_share": args.standing_share, "clutter_share": args.clutter_share}
    synth = load_synth(args.synth_scenes, seed=2000 + args.seed,
                       upright_share=args.upright_share, **drawn)
    real = load_real(manifest)
    photos = manifest.parents[1]
    more = [s for name in args.sources for s in load_source(photos, name, SOURCE_REPEAT)]
    # sharp scenes, every one seen as a close-up
    near_renders = load_synth(args.closeup_renders, seed=3000 + args.seed,
                              gain=CLOSEUP_RENDER_GAIN, **drawn)
    samples = real + synth + more + near_renders
    hold = held_to_start(len(real), len(synth), 2000 + args.seed, args.upright_share,
                         args.keep_renders) + [False] * (len(more) + len(near_renders))
    always_near = np.arange(len(samples)) >= len(real) + len(synth) + len(more)
    print(f"finder samples: {len(samples)}", flush=True)
    folded = bool(args.init and args.init.suffix == ".onnx")
    trained = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trained, lr=args.lr, weight_decay=5e-4)
    steps = (len(samples) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, args.lr, total_steps=args.epochs * steps, pct_start=0.1
    )
    ckpt = out / "last.pt"
    start = resume(ckpt, model, opt, sched)
    log = (out / "log.jsonl").open("a")
    for epoch in range(start, args.epochs):
        model.train()
        if folded:
            freeze_batch_norms(model)
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        order = rng.permutation(len(samples))
        t0 = time.time()
        sums: dict[str, float] = {}
        bar = tqdm(range(steps), desc=f"epoch {epoch + 1}/{args.epochs}", mininterval=30)
        for step in bar:
            batch = order[step * args.batch : (step + 1) * args.batch]
            imgs, tgts = [], []
            near = (rng.random(len(batch)) < args.closeup_share) | always_near[batch]
            for i, close in zip(batch, near, strict=True):
                im, bx, an = augment(samples[i], rng, args.stretch, args.size, bool(close))
                imgs.append(im.transpose(2, 0, 1))
                tgts.append(targets(bx, an, args.size))
            x = torch.from_numpy(np.stack(imgs).astype(np.float32))
            pred = model(x)
            loss, parts = loss_fn(pred, torch.from_numpy(np.stack(tgts)))
            # the starting finder's maps of a close-up are what the close-up corrects
            kept = torch.tensor([hold[i] and not close for i, close in zip(batch, near,
                                                                             strict=True)])
            if keep and kept.any():
                held, parts["keep"] = keep.loss(pred[kept], x[kept])
                loss = loss + held
            optimise(loss, opt, sched)
            for k, v in parts.items():
                sums[k] = sums.get(k, 0.0) + v
            bar.set_postfix({k: f"{v / (step + 1):.3f}" for k, v in sums.items()}, refresh=False)
        rec = {
            "epoch": epoch + 1,
            **{k: v / steps for k, v in sums.items()},
            "seconds": round(time.time() - t0),
        }
        end_epoch(rec, log, ckpt, model, opt, sched, width=args.width, size=args.size,
                  backbone=args.backbone)
    torch.save({"model": model.state_dict(), "width": args.width, "size": args.size,
                "backbone": args.backbone}, out / "final.pt")
    if args.export:
        export_finder(
            model,
            args.export / "tile_finder.onnx",
            {},
            recipe=f"{args.epochs} epochs AdamW one-cycle lr {args.lr}, batch {args.batch}, "
            "focal heatmap + L1 size/offset/orientation, "
            + (f"width {args.width}" if args.backbone == "small" else
               "EfficientNet-Lite0 blocks 0-10 (ImageNet; stem and blocks 0-2 frozen) and a "
               "top-down head")
            + (f", held to the starting finder's maps on real photos by {args.keep_real:g}"
               if args.keep_real else "")
            + (" and on the renders not upright" if args.keep_real and args.keep_renders else "")
            + (f" (the teacher: {args.teacher.name})" if args.teacher else ""),
            data_note=f"real train + train-augmented photos + {args.synth_scenes} scenes"
            + "".join(f"; every photo of {name} ({SOURCE_REPEAT} times an epoch)"
                      for name in args.sources)
            + "".join(
                f"; {share:g} of them {what}"
                for share, what in (
                    (args.procedural_share, "with procedural tile faces"),
                    (args.standing_share, "with standing tiles"),
                    (args.upright_share, "of solid standing tiles seen low"),
                    (args.clutter_share, "with printed clutter"),
                    (args.closeup_share, "of the images seen as close-ups"),
                )
                if share
            )
            + (f"; {args.closeup_renders} more scenes rendered {CLOSEUP_RENDER_GAIN:g} times "
               "larger and kept sharp, every one seen as a close-up" if args.closeup_renders
               else ""),
            size=args.size,
            sources=[ROBOFLOW, *args.sources],
        )
    return 0
