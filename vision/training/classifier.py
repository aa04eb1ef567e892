"""Train the 38-class crop classifier on real crops plus synthetic renders.

Real crops come from the manifest's training splits (never ``valid``); synthetic crops come from
balanced rows rendered from the CC0 art (red fives, backs and sideways tiles that the real set
lacks), and with ``--procedural-share`` partly from procedural faces in many random styles (tile
sets the CC0 art and the photos do not show). Resumable: a checkpoint is written to ``--out``
after every epoch.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from scorer.tiles import MODEL_CLASSES
from vision.manifest import read_manifest
from vision.preprocess import CROP_PAD, CROP_SIZE
from vision.training import data
from vision.training.checkpoint import add_run_arguments, end_epoch, optimise, resume
from vision.training.export import export_onnx, quantize_int8, write_card
from vision.training.features import add_features_output, card_outputs
from vision.training.nets import MEAN, STD, TileClassifier, n_params

TRAIN_SPLITS = ("train", "train-augmented")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--manifest", type=Path, help="labelled photos (default: ../shared/photos)")
    p.add_argument("--out", type=Path, default=Path("runs/classifier"), help="checkpoints + logs")
    p.add_argument("--epochs", type=int, default=10, help="passes over the crops")
    p.add_argument("--batch", type=int, default=128, help="crops a step")
    p.add_argument("--lr", type=float, default=3e-3, help="peak of the one-cycle learning rate")
    p.add_argument("--width", type=int, default=32, help="channel width (32: ~0.5M params)")
    p.add_argument("--synth-scenes", type=int, default=600, help="rendered rows for synth crops")
    p.add_argument(
        "--procedural-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the rendered rows and scenes drawn with procedural tile faces in a "
        "random style each instead of the CC0 art (0: the CC0 art only, as before)",
    )
    p.add_argument(
        "--standing-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the --scene-crops scenes whose tiles stand, faces to a low camera "
        "(half of those in loose groups), as the finder trainer draws them (0: none, as before)",
    )
    p.add_argument(
        "--upright-share",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share (0..1) of the --scene-crops scenes of solid standing tiles seen low, in rows "
        "or loose groups (vision.synth.upright), as the finder trainer draws them",
    )
    add_run_arguments(p)
    p.add_argument(
        "--finder-crops",
        type=Path,
        default=None,
        metavar="MODELS_DIR",
        help="also train on real crops cut where this folder's finder boxes the labelled tiles",
    )
    p.add_argument(
        "--keep-real",
        type=float,
        default=0.0,
        metavar="WEIGHT",
        help="hold the model to the --init weights' answers on the real crops by this weight "
        "times their KL divergence (0: off), so that new rendered faces do not cost the "
        "photos' sets",
    )
    p.add_argument(
        "--scene-crops",
        type=int,
        default=0,
        metavar="N",
        help="also train on crops cut where the --finder-crops folder's finder boxes the tiles "
        "of N rendered riichi scenes (seeds 4000+)",
    )


def default_manifest() -> Path:
    from vision.synth.art import default_art_dir

    shared = default_art_dir().parents[3]
    return shared / "photos" / "roboflow-chinese-mahjong-v4" / "manifest.jsonl"


def evaluate(model: nn.Module, x: np.ndarray, y: np.ndarray, batch: int = 256) -> float:
    model.eval()
    rng = np.random.default_rng(0)
    correct = 0
    with torch.no_grad():
        for s in range(0, len(x), batch):
            idx = np.arange(s, min(s + batch, len(x)))
            logits, *_ = model(torch.from_numpy(data.batch(x, idx, rng, train=False)[0]))
            correct += int((logits.argmax(1).numpy() == y[idx]).sum())
    return correct / max(1, len(x))


def batch_loss(model: nn.Module, x: np.ndarray, y: np.ndarray, axis: np.ndarray,
               idx: np.ndarray, rng: np.random.Generator, loss_fn: nn.Module,
               axis_loss: nn.Module, keep: Keep | None = None,
               size: int = CROP_SIZE) -> torch.Tensor:
    """Cross-entropy of the labels on one augmented batch, plus half the glyph-axis loss where
    the crop's axis is known (synthetic crops; real ones are -1), plus ``keep``'s pull toward
    its teacher on the batch's real crops."""
    xb, turned = data.batch(x, idx, rng, train=True, size=size)
    inputs = torch.from_numpy(xb)
    logits, orient, _ = model(inputs)
    loss: torch.Tensor = loss_fn(logits, torch.from_numpy(y[idx]))
    target = torch.from_numpy(data.turned_axis(axis[idx], turned))
    if bool((target >= 0).any()):
        loss = loss + 0.5 * axis_loss(orient, target)
    real = torch.from_numpy(idx < keep.real) if keep is not None else None
    if keep is not None and real is not None and bool(real.any()):
        with torch.no_grad():
            taught = torch.log_softmax(keep.teacher(inputs[real])[0], dim=1)
        mine = torch.log_softmax(logits[real], dim=1)
        drift = nn.functional.kl_div(mine, taught, log_target=True, reduction="batchmean")
        loss = loss + keep.weight * drift
    return loss


@dataclass(frozen=True)
class Keep:
    """A frozen teacher (the weights training starts from) whose answers on the first ``real``
    crops (the real photos' crops) the student is held to by ``weight`` times their KL
    divergence: new faces are learned without unlearning the photos' sets."""

    teacher: nn.Module
    real: int
    weight: float


def run(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if not 0.0 <= args.procedural_share <= 1.0:
        raise SystemExit(f"--procedural-share {args.procedural_share} is not within 0..1")
    for name in ("standing_share", "upright_share"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            flag = "--" + name.replace("_", "-")
            raise SystemExit(f"{flag} {getattr(args, name)} is not within 0..1")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    manifest = args.manifest or default_manifest()
    entries = read_manifest(manifest)
    train_e = [e for e in entries if e.split in TRAIN_SPLITS]
    valid_e = [e for e in entries if e.split == "valid"]
    xr, yr = data.cache(out / "real_train.npz", lambda: data.real_crops(train_e, desc="real crops"))
    xv, yv = data.cache(
        out / "real_valid.npz", lambda: data.real_crops(valid_e, desc="valid crops")
    )
    share = args.procedural_share
    faces = f"_proc{share:g}" if share else ""  # cached crops of another share are not these
    xs, ys, os_ = data.cache(
        out / f"synth_{args.synth_scenes}_{args.seed}{faces}.npz",
        lambda: data.synth_crops(args.synth_scenes, seed=1000 + args.seed, procedural_share=share),
    )
    if args.finder_crops:
        xf, yf = data.cache(
            out / "finder_train.npz", lambda: data.finder_crops(train_e, args.finder_crops)
        )
        xr, yr = np.concatenate([xr, xf]), np.concatenate([yr, yf])
    if args.scene_crops:
        if not args.finder_crops:
            raise SystemExit("--scene-crops needs --finder-crops: the finder that boxes the scenes")
        standing = f"_stand{args.standing_share:g}" if args.standing_share else ""
        standing += f"_upright{args.upright_share:g}" if args.upright_share else ""
        xc, yc, oc = data.cache(
            out / f"scenes_{args.scene_crops}_{args.seed}{faces}{standing}.npz",
            lambda: data.scene_crops(
                args.scene_crops,
                4000 + args.seed,
                args.finder_crops,
                procedural_share=share,
                standing_share=args.standing_share,
                upright_share=args.upright_share,
            ),
        )
        xs, ys, os_ = np.concatenate([xs, xc]), np.concatenate([ys, yc]), np.concatenate([os_, oc])
    x = np.concatenate([xr, xs])
    y = np.concatenate([yr, ys])
    axis = np.concatenate([np.full(len(yr), -1, np.int64), os_])  # real crops: axis unknown
    log = (out / "log.jsonl").open("a")
    print(f"train crops: {len(xr)} real + {len(xs)} synth; valid crops: {len(xv)}", flush=True)

    model = TileClassifier(len(MODEL_CLASSES), args.width)
    if args.init:  # older checkpoints have no glyph-axis head: it starts fresh
        model.load_state_dict(torch.load(args.init, weights_only=False)["model"], strict=False)
    keep = None
    if args.keep_real:
        if not args.init or args.keep_real < 0:
            raise SystemExit("--keep-real needs --init (the teacher) and a weight >= 0")
        teacher = TileClassifier(len(MODEL_CLASSES), args.width)
        teacher.load_state_dict(torch.load(args.init, weights_only=False)["model"], strict=False)
        keep = Keep(teacher.eval().requires_grad_(False), len(yr), args.keep_real)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    steps_per_epoch = (len(x) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, args.lr, total_steps=args.epochs * steps_per_epoch, pct_start=0.15
    )
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    axis_loss = nn.CrossEntropyLoss(ignore_index=-1)
    ckpt = out / "last.pt"
    start = resume(ckpt, model, opt, sched)
    for epoch in range(start, args.epochs):
        model.train()
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        order = rng.permutation(len(x))
        t0, total = time.time(), 0.0
        bar = tqdm(range(steps_per_epoch), desc=f"epoch {epoch + 1}/{args.epochs}", mininterval=30)
        for step in bar:
            idx = order[step * args.batch : (step + 1) * args.batch]
            loss = batch_loss(model, x, y, axis, idx, rng, loss_fn, axis_loss, keep)
            total += optimise(loss, opt, sched)
            bar.set_postfix(loss=f"{total / (step + 1):.3f}", refresh=False)
        acc = evaluate(model, xv, yv)
        rec = {
            "epoch": epoch + 1,
            "loss": total / steps_per_epoch,
            "valid_acc": acc,
            "seconds": round(time.time() - t0),
        }
        end_epoch(rec, log, ckpt, model, opt, sched,
                  args=vars(args) | {"manifest": str(manifest)})
    torch.save({"model": model.state_dict(), "width": args.width}, out / "final.pt")
    if args.export:
        acc = evaluate(model, xv, yv)
        export_classifier(
            model,
            args.export / "tile_classifier.onnx",
            {"valid_crop_accuracy": round(acc, 4), "valid_crops": int(len(xv))},
            calibration=calibration_crops(xr, xs),
            recipe=f"{args.epochs} epochs AdamW one-cycle lr {args.lr}, batch {args.batch}, "
            f"label smoothing 0.1, width {args.width}, seed {args.seed}"
            + (f", held to the starting weights on real crops by {args.keep_real:g} x KL"
               if args.keep_real else ""),
            data_note=f"{len(xr)} real crops (train + train-augmented) + {len(xs)} synthetic crops "
            f"({args.synth_scenes} rendered rows"
            + (f", {args.scene_crops} rendered riichi scenes" if args.scene_crops else "")
            + (f"; {share:g} of them with procedural tile faces" if share else "")
            + (f"; {args.standing_share:g} of the scenes' tiles standing" if args.standing_share
               else "")
            + (f"; {args.upright_share:g} of the scenes solid standing tiles seen low"
               if args.upright_share else "")
            + ")",
        )
    return 0


def calibration_crops(*stored: np.ndarray, n: int = 1024) -> np.ndarray:
    """Up to ``n`` stored crops from each set, cut as inference cuts them, for int8
    calibration (NCHW float32)."""
    rng = np.random.default_rng(0)
    picks = [
        data.batch(x, rng.permutation(len(x))[:n], rng, train=False)[0] for x in stored if len(x)
    ]
    return np.concatenate(picks)


def export_classifier(
    model: nn.Module,
    path: Path,
    metrics: dict[str, object],
    recipe: str,
    data_note: str,
    calibration: np.ndarray | None = None,
    tile_head: bool = False,
) -> None:
    """ONNX + card; with ``calibration`` crops the model is quantized to int8 first. The card
    names the tile head's output only when ``tile_head`` says it was taught on these features
    (`vision.training tile-head`): an untaught head would drop tiles at random."""
    export_onnx(
        model,
        torch.rand(1, 3, CROP_SIZE, CROP_SIZE) * 255,
        path,
        "crops",
        ["logits", "axis", "tile"],
    )
    extra = {"quantization": quantize_int8(path, calibration)} if calibration is not None else {}
    channels, _ = add_features_output(path)  # after quantizing: its ranges are the heads'
    write_card(
        path,
        {
            "kind": "classifier",
            "labels": list(MODEL_CLASSES),
            "input": {
                "name": "crops",
                "shape": ["n", 3, CROP_SIZE, CROP_SIZE],
                "layout": "NCHW",
                "colour": "BGR",
                "dtype": "float32",
                "range": [0, 255],
                "crop": {"pad": CROP_PAD, "stretch_to_square": True},
            },
            "normalisation": {"inside_graph": True, "mean": MEAN, "std": STD},
            "output": {"name": "logits", "shape": ["n", len(MODEL_CLASSES)], "softmax": False},
            "outputs": {
                "logits": "class logits in label order",
                "axis": "glyph up-down axis logits [vertical, horizontal] in the crop",
            }
            | (
                {"tile": "logit that the crop holds a tile (not a finger, a stick, bare table)"}
                if tile_head
                else {}
            )
            | card_outputs({}, channels, None),
            "parameters": n_params(model),
            "data": data_note,
            "recipe": recipe,
            "metrics": metrics,
            **extra,
        },
    )
