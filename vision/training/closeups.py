"""Close-ups cut from trainable photos: the stand-in on which the close-up look is chosen.

`mario-close-ups` and `camerash-web-crops` (evaluation only) show one or a few tiles filling the
frame; nothing may be chosen watching them. This cuts the same kind of photo from the trainable
sources: a window around a run of one to six neighbouring tiles of a labelled photo, with a
margin of table, magnified so the tiles fill a phone's frame, a little turned, blurred and
re-compressed as phones and web pages do. A window is kept only where every other tile lies
wholly outside it (or wholly inside: then it is labelled too), so the labels are complete and
precision means something; a photo its publisher squeezed is cut at a camera's proportions
(``unsqueezed``). Writes ``images/*.jpg`` and ``manifest.jsonl`` (split ``closeup``, the
source's name in ``image``)::

    python -m vision.training closeups --out runs/closeups --n 200 --seed 3
    python -m vision.training closeups --out runs/tight --n 150 --seed 4 --most 1 --margin 0 0.1
    python -m vision evaluate runs/closeups/manifest.jsonl

Cut from low-resolution photos and magnified, every such close-up is soft; a phone held near a
tile shows it sharp, its print and its body's edges crisp. ``--from`` cuts them from a labelled
manifest instead, such as scenes rendered large (never an evaluation-only set)::

    python -m vision.training synth --out runs/big --n 40 --seed 43 --size 3840x2880 --faces mixed
    python -m vision.training closeups --from runs/big/manifest.jsonl --out runs/sharp1 --most 1 \
        --margin 0 0.4 --n 120

Cut from a source a model learned, a close-up shows how it reads tiles it knows. ``--only`` cuts
from one source, for a model trained without it (``pretrained --without``) to read as a set it
never saw, as every model sees the evaluation-only sets::

    python -m vision.training closeups --only roboflow-chinese-mahjong-v4 --out runs/ocu
    python -m vision --models runs/without-roboflow evaluate runs/ocu/manifest.jsonl
"""

from __future__ import annotations

import argparse
import functools
import json
import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.manifest import LabelledImage, LabelledTile, read_manifest
from vision.proportions import squeeze_of, unstretched
from vision.sets import SETS
from vision.training.pretrained import default_photos
from vision.training.pretrained_data import source_entries

#: A labelled tile this share of whose area lies in the window is in it; below the other
#: bound it is out; between, the window cuts it and is drawn again.
INSIDE, OUTSIDE = 0.85, 0.05
# bounds of the command's numbers: table around the tiles in tile sizes, cuts a source, tiles a
# cut (a hand's 14)
MOST_MARGIN, MOST_CUTS, MOST_TILES = 5.0, 10_000, 14
# photos kept decoded: most windows drawn cut a tile and are drawn again, each from a photo
# read afresh (a large render's decode is most of the command's time)
DECODED = 32


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--photos", type=Path, default=None,
                   help="the photos folder (default: ../shared/photos beside the repository)")
    p.add_argument("--out", type=Path, required=True, help="folder for images/ and manifest.jsonl")
    p.add_argument("--n", type=int, default=200, help="close-ups to cut from each source")
    p.add_argument("--seed", type=int, default=3, help="which photos, tiles and looks")
    p.add_argument("--most", type=int, default=6, help="most tiles in one close-up")
    p.add_argument("--margin", type=float, nargs=2, default=(0.1, 0.9), metavar=("LO", "HI"),
                   help="table around the tiles on each side, in tile sizes, drawn between LO "
                        "and HI (0 0.1: a shop's photo of one tile cut tight)")
    p.add_argument("--from", dest="source", type=Path, default=None, metavar="MANIFEST",
                   help="cut from this labelled manifest (renders made large: sharp close-ups) "
                        "instead of the trainable photo sources")
    p.add_argument("--only", action="append", default=[], metavar="SOURCE",
                   help="cut from this trainable source only (repeatable): a stand-in a model "
                        "trained without it reads as never seen")


def _area_inside(box: tuple[float, ...], win: tuple[int, int, int, int]) -> float:
    x1, y1, x2, y2 = box
    w = max(0.0, min(x2, win[2]) - max(x1, win[0]))
    h = max(0.0, min(y2, win[3]) - max(y1, win[1]))
    return w * h / ((x2 - x1) * (y2 - y1))


def _run_of_tiles(entry: LabelledImage, rng: random.Random, most: int) -> list[LabelledTile]:
    """A tile and up to ``most - 1`` of its nearest neighbours (a run of a row, or a block)."""
    tiles = [t for t in entry.tiles if t.box is not None]
    seed = rng.choice(tiles)
    k = min(len(tiles), most, rng.choice((1, 1, 1, 2, 2, 3, 3, 4, 5, 6)))
    sx, sy = (seed.box[0] + seed.box[2]) / 2, (seed.box[1] + seed.box[3]) / 2  # type: ignore[index]

    def dist(t: LabelledTile) -> float:
        assert t.box is not None
        return float(np.hypot((t.box[0] + t.box[2]) / 2 - sx, (t.box[1] + t.box[3]) / 2 - sy))

    return sorted(tiles, key=dist)[:k]


def unsqueezed(entry: LabelledImage, img: np.ndarray
               ) -> tuple[LabelledImage, np.ndarray] | None:
    """The photo at a camera's proportions, or None where it cannot be: a publisher's
    "stretch to 640x640" squeezes a webcam's 16:9 frame (every leo-miura photo) or a panorama
    (a tenth of roboflow's). Judged by the reader's own ``proportions.squeeze_of`` on the labels:
    a photo whose median tile is longer than ``stretched_from`` either way is widened across
    to ``tile_aspect``; one that needs more than ``unstretch_max`` is left out. Cut close, a
    squeezed photo would show tiles no camera takes."""
    cfg = VisionConfig()
    scale = squeeze_of(np.array([t.box for t in entry.tiles if t.box is not None]), cfg)
    if scale is None:
        return entry, img
    if max(scale) > cfg.unstretch_max:
        return None
    wide, _ = unstretched(img, scale)
    gx, gy = wide.shape[1] / img.shape[1], wide.shape[0] / img.shape[0]
    tiles = tuple(t if t.box is None else replace(
        t, box=(t.box[0] * gx, t.box[1] * gy, t.box[2] * gx, t.box[3] * gy)) for t in entry.tiles)
    return replace(entry, width=wide.shape[1], height=wide.shape[0], tiles=tiles), wide


def cut_one(entry: LabelledImage, img: np.ndarray, rng: random.Random, most: int,
            margin: tuple[float, float] = (0.1, 0.9)
            ) -> tuple[np.ndarray, list[LabelledTile]] | None:
    """One close-up of ``img`` with its complete labels, or None where the window cuts a tile;
    ``margin``: the table around the tiles on each side, in tile sizes, drawn between the two."""
    run = _run_of_tiles(entry, rng, most)
    boxes = np.array([t.box for t in run], dtype=float)
    x1, y1 = boxes[:, 0].min(), boxes[:, 1].min()
    x2, y2 = boxes[:, 2].max(), boxes[:, 3].max()
    size = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    m = [rng.uniform(*margin) * size for _ in range(4)]
    h, w = img.shape[:2]
    win = (max(0, int(x1 - m[0])), max(0, int(y1 - m[1])),
           min(w, int(x2 + m[2])), min(h, int(y2 + m[3])))
    labels = []
    for t in entry.tiles:
        assert t.box is not None
        share = _area_inside(t.box, win)
        if share >= INSIDE:
            labels.append(t)
        elif share > OUTSIDE:
            return None
    # turned about the window's centre within the whole photo, so the corners show the
    # photo's own table (a reflected border would show tiles no label names)
    angle = rng.uniform(-8, 8)
    turn = cv2.getRotationMatrix2D(((win[0] + win[2]) / 2, (win[1] + win[3]) / 2), angle, 1.0)
    turned = cv2.warpAffine(img, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
    crop = turned[win[1]:win[3], win[0]:win[2]]
    side = rng.uniform(480, 1280)  # a phone photo or a web page's picture
    s = side / max(crop.shape[:2])
    crop = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.8, 2.0))
    ch, cw = crop.shape[:2]
    out = []
    for t in labels:
        assert t.box is not None
        x1, y1, x2, y2 = t.box
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x1, y2, 1], [x2, y2, 1]])
        pts = (corners @ turn.T - (win[0], win[1])) * s
        box = (max(0.0, pts[:, 0].min()), max(0.0, pts[:, 1].min()),
               min(float(cw), pts[:, 0].max()), min(float(ch), pts[:, 1].max()))
        out.append(LabelledTile(label=t.label, box=box))
    return crop, out


def run(args: argparse.Namespace) -> int:
    lo, hi = args.margin
    if not 0 <= lo <= hi <= MOST_MARGIN:
        raise SystemExit(f"error: --margin {lo:g} {hi:g}: want 0 <= LO <= HI <= {MOST_MARGIN:g}")
    if not 1 <= args.n <= MOST_CUTS or not 1 <= args.most <= MOST_TILES:
        raise SystemExit(f"error: --n must lie within 1..{MOST_CUTS} and --most within "
                         f"1..{MOST_TILES}")
    trainable = [s.name for s in SETS if s.trainable]  # evaluation-only sets are never cut
    if unknown := [n for n in args.only if n not in trainable]:
        raise SystemExit(f"error: --only {', '.join(unknown)}: the trainable sources are "
                         f"{', '.join(trainable)}")
    if args.only and args.source is not None:
        raise SystemExit("error: --only picks among the photo sources; --from names a manifest")
    if args.source is not None:
        sources = [(args.source.parent.name, _manifest_entries(args.source))]
    else:
        photos = args.photos or default_photos()
        # the photos trained on, but augmented copies: their boxes are loose and take in
        # neighbours, and a close-up is scored by its boxes
        sources = [(name, [e for e in source_entries(photos, name, training=True)
                           if not e.augmented and _boxed(e)])
                   for name in dict.fromkeys(args.only) or trainable]  # each once
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    @functools.lru_cache(maxsize=DECODED)
    def decoded(path: str) -> np.ndarray | None:
        img = cv2.imread(path)
        if img is not None:  # one array serves every window of the photo: never drawn on
            img.flags.writeable = False
        return img

    lines = []
    for name, entries in sources:
        rng = random.Random(f"{args.seed}:{name}")
        made = tries = 0
        while made < args.n and tries < args.n * 50:
            tries += 1
            entry = rng.choice(entries)
            img = decoded(str(entry.path))
            true = None if img is None else unsqueezed(entry, img)
            got = None if true is None else cut_one(*true, rng, args.most, args.margin)
            if got is None:
                continue
            crop, tiles = got
            image = f"images/{name}-{made:04d}.jpg"
            cv2.imwrite(str(args.out / image), crop,
                        [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 95)])
            lines.append(json.dumps(LabelledImage(
                image=image, path=args.out / image, width=crop.shape[1], height=crop.shape[0],
                split="closeup", tiles=tuple(tiles)).to_json()))
            made += 1
        print(f"{name}: {made} close-ups ({tries} windows drawn)")
    (args.out / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} close-ups to {args.out / 'manifest.jsonl'}")
    return 0


def _manifest_entries(manifest: Path) -> list[LabelledImage]:
    """The boxed photos of ``manifest``; refused (before anything is written) where it is
    missing, boxes nothing, or is one of the evaluation-only sets."""
    folder = manifest.resolve().parent.name  # a link or "folder/.." names the set it reaches
    if folder in {s.name for s in SETS if not s.trainable}:
        raise SystemExit(f"error: --from {manifest}: {folder} is evaluation only, never cut or "
                         "looked at")
    if not manifest.is_file():
        raise SystemExit(f"error: --from {manifest}: no such manifest")
    try:
        entries = [e for e in read_manifest(manifest) if _boxed(e)]
    except ValueError as err:
        raise SystemExit(f"error: --from {manifest}: {err}") from None
    if not entries:
        raise SystemExit(f"error: --from {manifest}: no photo with boxed tiles")
    return entries


def _boxed(entry: LabelledImage) -> bool:
    return any(t.box is not None for t in entry.tiles)
