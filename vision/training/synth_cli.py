"""Render a synthetic riichi set: JPEG scenes plus a manifest (with poses and the layout).

With ``--upright`` the scenes are solid standing tiles seen by a low camera instead
(`vision.synth.upright`: rows and loose groups, nearer tiles hiding those behind), labelled by
box only: no hand, so no layout or poses.

Fixed seed, so ``--seed 7 --n 300`` is the same set everywhere; the held-out synthetic measuring
set uses seeds the trainers never use (they use 1000+ and 2000+). Never commit the output.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import cv2
from tqdm import tqdm

from vision.manifest import LabelledImage, LabelledTile, write_manifest
from vision.synth.art import FACE_SOURCES, ArtSource
from vision.synth.hands import random_hand
from vision.synth.scene import render
from vision.synth.upright import render_upright


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="folder for images/ and manifest.jsonl")
    p.add_argument("--n", type=int, default=200, help="number of scenes")
    p.add_argument("--seed", type=int, default=7, help="fixed seed (trainers use 1000+, 2000+)")
    p.add_argument("--split", default="synth", help="split name written into the manifest")
    p.add_argument("--size", default="640x480", help="image WIDTHxHEIGHT")
    p.add_argument("--quality", type=int, default=90, help="JPEG quality of the written files")
    p.add_argument(
        "--faces",
        choices=tuple(FACE_SOURCES),
        default="cc0",
        help="tile faces: the CC0 art (default; the held-out seed 7 set), procedural faces in a "
        "random style per scene (needs Pillow and a CJK font), or half of each",
    )
    p.add_argument(
        "--upright",
        action="store_true",
        help="render tiles standing as solid bodies seen by a low camera, in rows or loose groups "
        "(labelled boxes only: no hand layout)",
    )


def generate(
    out: Path,
    n: int,
    seed: int,
    split: str,
    size: tuple[int, int],
    quality: int = 90,
    faces: str = "cc0",
    upright: bool = False,
) -> list[LabelledImage]:
    """Render ``n`` scenes into ``out`` and return their manifest entries (``faces``: a key of
    `FACE_SOURCES`; a CC0 scene is the same whichever it is; ``upright``: `render_upright`)."""
    source = ArtSource(FACE_SOURCES[faces])
    (out / "images").mkdir(parents=True, exist_ok=True)
    entries = []
    for i in tqdm(range(n), desc="scenes", leave=False):
        rng = random.Random(seed * 1_000_003 + i)
        if upright:
            hand = None
            img, tiles = render_upright(source.for_scene(seed, i), rng, size)
        else:
            hand = random_hand(rng)
            img, tiles = render(hand, source.for_scene(seed, i), rng, size)
        name = f"images/{split}_{seed}_{i:05d}.jpg"
        cv2.imwrite(str(out / name), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        entries.append(
            LabelledImage(
                image=name,
                path=out / name,
                width=size[0],
                height=size[1],
                split=split,
                tiles=tuple(
                    LabelledTile(t.label, t.box, t.sideways, t.face_down, t.group) for t in tiles
                ),
                layout=hand.layout_json() if hand else None,
            )
        )
    write_manifest(out / "manifest.jsonl", entries)
    return entries


def run(args: argparse.Namespace) -> int:
    w, h = (int(v) for v in args.size.lower().split("x"))
    entries = generate(
        args.out, args.n, args.seed, args.split, (w, h), args.quality, args.faces, args.upright
    )
    print(f"wrote {len(entries)} scenes and {args.out / 'manifest.jsonl'}")
    return 0
