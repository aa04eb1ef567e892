"""Printed things beside a table: book spines on a shelf, a box with print, a score sheet.

A kiosk's camera sees more than the mat: the finder boxes a spine with a column of kanji as
eagerly as a character tile, and the classifier's tile head, taught only on fingers, point
sticks and bare table, calls it a tile. Scenes rendered with ``clutter`` give the head such
things to learn as no tile. They are painted clear of every tile, so a box the finder puts on
them overlaps no tile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np

from vision.synth.fonts import CjkFont, FontsMissingError, find_cjk_fonts, glyph_mask, has_glyph

Box = tuple[float, ...]
#: titles on spines and boxes: common print, and the tile characters themselves (books on the game)
PRINT = (
    "麻雀本日読書新版入門講座戦術問題集上下心技体字典辞書旅行料理東南西北白發中一二三"
    "四五六七八九萬筒索あいうかきくさしすたちてなにのまみもらりるわをアイウカキクサシ"
    "スタチテナニマミラリルワ"
)
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@lru_cache(maxsize=1)
def _fonts() -> tuple[CjkFont, ...]:
    try:
        return find_cjk_fonts()
    except FontsMissingError:  # Latin print only
        return ()


def _colour(rng: random.Random) -> tuple[float, float, float]:
    if rng.random() < 0.3:  # white, cream or grey paper
        v = rng.uniform(170, 250)
        return (v * rng.uniform(0.85, 1.0), v * rng.uniform(0.9, 1.0), v)
    return (rng.uniform(10, 240), rng.uniform(10, 240), rng.uniform(10, 240))


def _ink(rng: random.Random, ground: tuple[float, float, float]) -> tuple[float, float, float]:
    if sum(ground) > 360:
        return rng.choice([(20, 20, 20), (30, 30, 160), (120, 40, 20), (rng.uniform(0, 90),) * 3])
    return rng.choice([(235, 235, 235), (40, 200, 230), (20, 20, 20)])


def _print_text(img: np.ndarray, rng: random.Random, x0: float, y0: float, x1: float, y1: float,
                ink: tuple[float, float, float], vertical: bool) -> None:
    """A line of print in the box (x0, y0, x1, y1): kanji / kana when a CJK font is installed,
    else Latin letters."""
    w, h = x1 - x0, y1 - y0
    em = int(max(4, min(w, h) * rng.uniform(0.45, 0.85)))
    fonts = _fonts()
    if not fonts or rng.random() < 0.2:
        scale = em / 30
        text = "".join(rng.choice(LATIN) for _ in range(rng.randint(2, 8)))
        org = (int(x0 + 2), int(y0 + (h + em) / 2)) if not vertical else (int(x0), int(y0 + em))
        mask = np.zeros(img.shape[:2], np.uint8)  # putText draws on 8-bit images only
        cv2.putText(mask, text, org, rng.choice([0, 2, 3, 4]), scale, 255,
                    max(1, int(scale * 2)), cv2.LINE_AA)
        m = mask[..., None].astype(np.float32) / 255
        img[:] = img * (1 - m) + np.float32(ink) * m
        return
    font = rng.choice(fonts)
    pos = rng.uniform(0.05, 0.3) * (h if vertical else w)
    end = h if vertical else w
    while pos + em < end:
        ch = rng.choice(PRINT)
        if not has_glyph(font, ch):
            continue
        mask = glyph_mask(font, ch, em)
        gh, gw = mask.shape
        gx = int(x0 + (w - gw) / 2) if vertical else int(x0 + pos)
        gy = int(y0 + pos) if vertical else int(y0 + (h - gh) / 2)
        gx, gy = max(0, gx), max(0, gy)
        roi = img[gy : gy + gh, gx : gx + gw]
        m = mask[: roi.shape[0], : roi.shape[1], None]
        roi[:] = roi * (1 - m) + np.float32(ink) * m
        pos += (gh if vertical else gw) + em * rng.uniform(0.05, 0.4)
        if rng.random() < 0.08:  # a gap between a title and its author
            pos += em


def _shelf(img: np.ndarray, rng: random.Random, x0: float, y0: float, x1: float, y1: float,
           across: bool) -> None:
    """Spines side by side filling the band; ``across``: spines stand along y."""
    length = x1 - x0 if across else y1 - y0
    pos = 0.0
    while pos < length:
        thick = length * rng.uniform(0.03, 0.12)
        ground = _colour(rng)
        if across:
            sx0, sx1, sy1 = x0 + pos, x0 + pos + thick, y1
            sy0 = y0 + rng.uniform(0, 0.2) * (y1 - y0)  # spines of many heights
        else:
            sy0, sy1, sx1 = y0 + pos, y0 + pos + thick, x1
            sx0 = x0 + rng.uniform(0, 0.2) * (x1 - x0)
        cv2.rectangle(img, (int(sx0), int(sy0)), (int(sx1), int(sy1)), ground, -1)
        if rng.random() < 0.4:  # a band of colour across the spine
            t = rng.uniform(0.1, 0.8)
            if across:
                by = sy0 + t * (sy1 - sy0)
                band = ((int(sx0), int(by)), (int(sx1), int(by + thick)))
                cv2.rectangle(img, *band, _colour(rng), -1)
            else:
                bx = sx0 + t * (sx1 - sx0)
                band = ((int(bx), int(sy0)), (int(bx + thick), int(sy1)))
                cv2.rectangle(img, *band, _colour(rng), -1)
        if rng.random() < 0.85:
            _print_text(img, rng, sx0, sy0, sx1, sy1, _ink(rng, ground), across)
        pos += thick + rng.uniform(0, 2)


def _card(img: np.ndarray, rng: random.Random, x0: float, y0: float, x1: float, y1: float) -> None:
    """A box, a card or a score sheet: a ground with lines of print, sometimes ruled."""
    ground = _colour(rng)
    cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), ground, -1)
    ink = _ink(rng, ground)
    lines = rng.randint(1, 5)
    step = (y1 - y0) / (lines + 1)
    for i in range(lines):
        ly = y0 + step * (i + 0.5)
        if rng.random() < 0.3:  # ruled like a score sheet
            cv2.line(img, (int(x0), int(ly + step)), (int(x1), int(ly + step)), ink, 1)
        _print_text(img, rng, x0, ly, x1, ly + step * rng.uniform(0.6, 1.0), ink, False)


def _clear(box: Box, avoid: Sequence[Box], margin: float) -> bool:
    x0, y0, x1, y1 = box
    return not any(
        b[0] - margin < x1 and x0 < b[2] + margin and b[1] - margin < y1 and y0 < b[3] + margin
        for b in avoid
    )


def paint_clutter(img: np.ndarray, rng: random.Random, avoid: Sequence[Box]) -> list[Box]:
    """Paint a shelf of books along one frame edge and / or a printed card on ``img`` (float BGR,
    in place), clear of the ``avoid`` boxes (the tiles); returns the painted areas."""
    h, w = img.shape[:2]
    margin = 0.02 * max(w, h)
    painted: list[Box] = []
    edges = ["top", "bottom", "left", "right"]
    rng.shuffle(edges)
    for edge in edges[: rng.choice([1, 1, 2])]:
        depth = rng.uniform(0.12, 0.35)
        box = {
            "top": (0.0, 0.0, w, depth * h),
            "bottom": (0.0, (1 - depth) * h, w, h),
            "left": (0.0, 0.0, depth * w, h),
            "right": ((1 - depth) * w, 0.0, w, h),
        }[edge]
        if _clear(box, avoid, margin):
            _shelf(img, rng, *box, across=edge in ("top", "bottom"))
            painted.append(box)
    for _ in range(rng.choice([0, 1, 1, 2])):
        for _try in range(10):
            cw, ch = rng.uniform(0.1, 0.35) * w, rng.uniform(0.08, 0.3) * h
            x, y = rng.uniform(0, w - cw), rng.uniform(0, h - ch)
            box = (x, y, x + cw, y + ch)
            if _clear(box, avoid, margin) and _clear(box, painted, 0):
                _card(img, rng, *box)
                painted.append(box)
                break
    return painted
