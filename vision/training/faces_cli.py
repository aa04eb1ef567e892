"""Draw a contact sheet of procedural tile faces: one row of all 38 faces for each random style.

Look at it before training on the faces: every face should read as its tile to a player. The
styles come from ``--seed`` (style i of the sheet is `random_style(random.Random(seed * 1000 +
i))`) and the CJK fonts installed here.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.synth.face_style import FaceStyle, random_style
from vision.synth.faces import render_face
from vision.synth.fonts import find_cjk_fonts

GAP = 4
SHEET_GREY = (90, 90, 90)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="the sheet to write (PNG)")
    p.add_argument("--styles", type=int, default=8, help="random styles, one row of 38 faces each")
    p.add_argument("--seed", type=int, default=0, help="seed of the styles")
    p.add_argument("--size", default="60x80", help="each face's WIDTHxHEIGHT in pixels")
    p.add_argument(
        "--wrap", type=int, default=38, help="faces a row before a style wraps onto the next row"
    )


def styles(n: int, seed: int) -> list[FaceStyle]:
    """The sheet's styles, in row order."""
    fonts = find_cjk_fonts()
    return [random_style(random.Random(seed * 1000 + i), fonts) for i in range(n)]


def contact_sheet(
    sheet_styles: list[FaceStyle], size: tuple[int, int] = (60, 80), wrap: int = 38
) -> np.ndarray:
    """All 38 faces (model-class order) of each style, ``wrap`` a row, on a grey ground."""
    w, h = size
    per_style = -(-len(MODEL_CLASSES) // wrap)
    rows = len(sheet_styles) * per_style
    cols = min(wrap, len(MODEL_CLASSES))
    sheet = np.empty((GAP + rows * (h + GAP), GAP + cols * (w + GAP), 3), np.uint8)
    sheet[:] = SHEET_GREY
    for s, style in enumerate(sheet_styles):
        for k, label in enumerate(MODEL_CLASSES):
            r, c = s * per_style + k // wrap, k % wrap
            y, x = GAP + r * (h + GAP), GAP + c * (w + GAP)
            sheet[y : y + h, x : x + w] = render_face(label, style, size)
    return sheet


def run(args: argparse.Namespace) -> int:
    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.styles < 1 or args.wrap < 1:
        raise SystemExit("--styles and --wrap must be at least 1")
    sheet = contact_sheet(styles(args.styles, args.seed), (w, h), args.wrap)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(args.out), sheet):
        raise SystemExit(f"cannot write {args.out}")
    print(f"wrote {args.out}: {args.styles} styles x {len(MODEL_CLASSES)} faces of {w}x{h}")
    return 0
