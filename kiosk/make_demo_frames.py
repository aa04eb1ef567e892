"""Draw the demo camera's sample frames: a winning hand laid out as ARCHITECTURE.md describes.

`python -m kiosk.make_demo_frames [FOLDER]` writes a few 1280x720 JPEGs of plain tiles (an ivory
face with the mpsz label) on a green mat: concealed tiles, a gap, the winning tile, called melds
with the called tile sideways, and a dora-indicator row. They only stand in for a camera; the
vision package's rendered frames replace them when it ships its own.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import parse_tiles

# (name, concealed without the winning tile, winning tile, melds [(tiles, sideways index)], dora)
HANDS = (
    ("hand1-riichi-pinfu", "234m456p22s34567s", "8s", (), "1s"),
    ("hand2-open-pon", "234m06p11999s", "7p", (("555z", 1),), "3p"),
    ("hand3-chiitoitsu", "1133m5577p22s44z6z", "6z", (), "9m"),
)
TILE_W, TILE_H, GAP = 62, 86, 4
SUIT_COLOURS = {"m": (40, 40, 200), "p": (170, 80, 20), "s": (40, 140, 30), "z": (30, 30, 30)}


def draw_tile(img: np.ndarray, x: int, y: int, label: str, sideways: bool = False) -> int:
    """Draw one tile with its top-left at (x, y); returns its width."""
    w, h = (TILE_H, TILE_W) if sideways else (TILE_W, TILE_H)
    cv2.rectangle(img, (x + 3, y + 4), (x + w + 3, y + h + 4), (20, 60, 20), -1)  # shadow
    cv2.rectangle(img, (x, y), (x + w, y + h), (225, 240, 245), -1)
    cv2.rectangle(img, (x, y), (x + w, y + h), (120, 140, 150), 2)
    colour = (30, 30, 220) if label[0] == "0" else SUIT_COLOURS[label[1]]
    scale = 1.3
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
    cv2.putText(img, label, (x + (w - tw) // 2, y + (h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX,
                scale, colour, 3, cv2.LINE_AA)
    return w


def render(concealed: str, win: str, melds: tuple[tuple[str, int], ...], dora: str,
           seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = (60, 110, 50)
    noise = rng.normal(0, 6, img.shape).astype(np.int16)
    img = np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    x, y = 40, 320
    for tile in parse_tiles(concealed):
        x += draw_tile(img, x, y, str(tile)) + GAP
    x += 28
    x += draw_tile(img, x, y, win) + GAP + 28
    for tiles, sideways in melds:
        for i, tile in enumerate(parse_tiles(tiles)):
            side = i == sideways
            x += draw_tile(img, x, y + (TILE_H - TILE_W if side else 0), str(tile), side) + GAP
        x += 20
    dx = 40
    for tile in parse_tiles(dora):
        dx += draw_tile(img, dx, 140, str(tile)) + GAP
    return img


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).parent / "demo_frames"),
                        help="where to write the frames (default: kiosk/demo_frames)")
    args = parser.parse_args(argv)
    out = Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, concealed, win, melds, dora) in enumerate(HANDS):
        cv2.imwrite(str(out / f"{name}.jpg"), render(concealed, win, melds, dora, i),
                    [cv2.IMWRITE_JPEG_QUALITY, 88])
        print(out / f"{name}.jpg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
